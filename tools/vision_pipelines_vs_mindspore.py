"""Chains of vision ops inside dataset pipelines against MindSpore 2.10, on realistic images.

Each case writes 1 to 5 images from random pixels (8 to 400 pixels a side, grey or RGB; JPEG
with 4:2:0 or 4:4:4 chroma, progressive sometimes, or PNG) into a source: an
ImageFolderDataset (``decode=True`` sometimes), a MindDataset over a file FileWriter writes (a
bytes "image" and an int32 "label"), a NumpySlicesDataset of the encoded images as uint8 arrays
(zero-padded to one length) or a GeneratorDataset of them. Then a chain of 1 to 6 vision ops in
one or several ``map`` calls (a run of them in a ``Compose`` sometimes; 1 or 2 workers, in
processes sometimes): Decode, RandomCropDecodeResize, Resize (every Inter), CenterCrop, Crop,
Pad, RandomCrop, RandomResizedCrop, the flips and random flips, Rotate by multiples of 90,
ConvertColor, Rescale, Normalize, HWC2CHW, TypeCast; or the PIL path: Decode(to_pil=True) or
ToPIL, Pillow's ops (Resize, CenterCrop, Pad, RandomResizedCrop, RandomCrop, flips, Grayscale)
and ToTensor (then Normalize with ``is_hwc=False``); then sometimes ``batch`` (2 to 4, drop
the remainder or not) and ``repeat(2)``. These chains are where this package's fast paths run:
fused plans with region decode (transforms_c/fusion.py), the native batch node
(minddata/engine/native_batch.py) and the PIL path's folded plans. Random ops have their draws
fixed (probability 1 or 0; a RandomResizedCrop of scale (1, 1) whose window the tool can show
is the same in both libraries, a RandomCrop of the image's own size); where not, only the rows'
dtype and shape are compared. A "seeded" case runs a chain of truly random ops
(RandomResizedCrop, RandomHorizontalFlip(0.5)) under ``ds.config.set_seed``: MindSpore's random
streams are not imitated, so only dtypes and shapes are compared with it.

Compared with MindSpore (its own venv, ``--mindspore-python``): where it raises, the dataset's
size, column names, output shapes and types, and every row of an epoch: dtype, shape and
values, exactly where no op interpolates, else integers within one level per resampling op and
floats within that level as the chain's Rescale, Normalize and ToTensor scale it. Checked here
alone, whatever the reference ("self" items, so that the self-test exercises them): each row of
a deterministic chain equals this package's eager ops applied one by one to the source's row
(fused against unfused, exactly); a seeded chain gives the same rows on 1 and 2 workers, in
two runs, and with its ops in one map (fused) or one op per map (unfused). Differences the
README documents as deviations are counted apart ("documented").

    .venv/bin/python tools/vision_pipelines_vs_mindspore.py [--seed 1] [--cases 150]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy and Pillow: it never imports this package).
Approximate (DCT-scaled) decode is switched off here: it is a documented deviation, never exact.
"""
import hashlib
import importlib
import io
import math
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 90         # a case of the reference interpreter that runs longer hangs
ENUM = "__enum__"
ARRAY_INTERPOLATIONS = ["NEAREST", "BILINEAR", "BICUBIC", "AREA", "PILCUBIC"]
PIL_INTERPOLATIONS = ["NEAREST", "BILINEAR", "BICUBIC", "ANTIALIAS"]
MEAN, STD = [121.0, 115.5, 104.0], [58.4, 57.1, 57.4]


def enum(name, member):
    """An enum member, resolved in each library's vision module."""
    return (ENUM, name, member)


# --- drawing cases ------------------------------------------------------------------------------


def side(r):
    return r.randint(8, 64) if r.random() < 0.5 else r.randint(65, 400)


def random_images(r, same_size):
    """Specs of the images a case's source holds: format, size, grey or not, JPEG settings."""
    size = (side(r), side(r))
    return [{"format": r.choice(["jpeg", "jpeg", "jpeg", "png"]),
             "size": size if same_size else (side(r), side(r)),
             "grey": r.random() < 0.2, "subsampling": r.choice([0, 2]),
             "progressive": r.random() < 0.2, "quality": r.choice([75, 90, 95]),
             "seed": r.randrange(1 << 30)} for _ in range(r.randint(1, 5))]


def random_source(r, same_size):
    kind = r.choice(["folder", "folder", "mindrecord", "numpy", "generator"])
    return {"kind": kind, "images": random_images(r, same_size),
            "decode": kind == "folder" and r.random() < 0.2}


def fixed_window(size, ratio):
    """Whether RandomResizedCrop(scale=(1, 1), ratio=(ratio, ratio)) draws no offset on an
    image of ``size`` in MindSpore's C++ and Python rules and here: "whole" where its window is
    the image, "centred" where no window of that ratio fits (the fallback); None where a
    smaller window fits (an offset is drawn) or rounding may decide between the two."""
    height, width = size
    aspect = math.exp(math.log(ratio))
    exact_width = math.sqrt(height * width * aspect)
    crop_width = round(exact_width)
    exact_height = crop_width / aspect
    if min(abs(exact_width % 1 - 0.5), abs(exact_height % 1 - 0.5)) < 1e-4:
        return None                     # a half: C++ (float32 ratio) and Python may round apart
    crop_height = round(exact_height)
    if (crop_width, crop_height) == (width, height):
        return "whole"
    return None if 0 < crop_width <= width and 0 < crop_height <= height else "centred"


class Chain:
    """A chain of ops being drawn, and what is known of the row after each: "encoded", "array"
    (HWC uint8), "pil", "float" (HWC float32) or "chw"; its size where every image has the same
    one; the resampling ops (one level each), the float scale of a level, and whether every draw
    is fixed."""

    def __init__(self, r, source):
        self.r, self.ops = r, []
        sizes = {tuple(image["size"]) for image in source["images"]}
        self.size = sizes.pop() if len(sizes) == 1 else None
        self.sizes = [tuple(image["size"]) for image in source["images"]]
        self.state = "array" if source["decode"] else "encoded"
        self.levels, self.scale, self.fixed = 0, 1.0, True
        self.cropped = False        # whether a random crop's fixed window is not the image

    def add(self, name, rounds=False, **kwargs):
        self.ops.append((name, kwargs))
        self.levels += rounds

    def output_size(self, r):
        return r.choice([r.randint(4, 64), (r.randint(4, 160), r.randint(4, 160))])

    def random_resized_crop(self, name, pil):
        r = self.r
        size = self.output_size(r)
        ratio = r.choice(([self.size[1] / self.size[0]] * 3 if self.size else []) +
                         [0.5, 0.75, 1.0, 4 / 3, 2.0])
        inter = r.choice(PIL_INTERPOLATIONS[:3] if pil else ARRAY_INTERPOLATIONS)
        windows = [fixed_window(size, ratio) for size in self.sizes]
        self.fixed &= None not in windows
        self.cropped = "centred" in windows
        self.add(name, rounds=inter != "NEAREST", size=size, scale=(1.0, 1.0),
                 ratio=(ratio, ratio), interpolation=enum("Inter", inter))
        self.size = (size, size) if isinstance(size, int) else size

    def geometry(self, pil=False):
        r = self.r
        choice = r.choice(["Resize", "Resize", "CenterCrop", "Crop", "Pad", "RandomCrop",
                           "Rotate"][:6 if pil else 7])
        if choice == "Crop" and pil:
            choice = "CenterCrop"
        if choice == "Resize":
            size = self.output_size(r)
            inter = r.choice(PIL_INTERPOLATIONS if pil else ARRAY_INTERPOLATIONS)
            self.add("Resize", rounds=inter != "NEAREST", size=size,
                     interpolation=enum("Inter", inter))
            self.size = size if isinstance(size, tuple) else None
        elif choice == "CenterCrop":
            size = self.output_size(r)
            self.add("CenterCrop", size=size)
            self.size = (size, size) if isinstance(size, int) else size
        elif choice == "Crop":
            size = self.output_size(r)
            self.add("Crop", coordinates=(r.randint(0, 20), r.randint(0, 20)), size=size)
            self.size = (size, size) if isinstance(size, int) else size
        elif choice == "Pad":
            padding = r.choice([2, (1, 3), (0, 2, 5, 1)])
            mode = r.choice(["CONSTANT", "EDGE", "REFLECT", "SYMMETRIC"])
            self.add("Pad", padding=padding, fill_value=r.choice([0, 7, (1, 2, 3)]),
                     padding_mode=enum("Border", mode))
            if self.size:
                pads = (padding,) * 4 if isinstance(padding, int) else padding * 2 \
                    if len(padding) == 2 else padding
                self.size = (self.size[0] + pads[1] + pads[3], self.size[1] + pads[0] + pads[2])
        elif choice == "RandomCrop":
            size = self.size or self.output_size(r)
            self.fixed &= self.size is not None     # a crop of its own size draws no offset
            self.add("RandomCrop", size=size)
            self.size = (size, size) if isinstance(size, int) else size
        else:
            degrees = r.choice([90, 180, 270, -90])
            inter = r.choice(["NEAREST", "BILINEAR"])
            self.add("Rotate", rounds=inter != "NEAREST", degrees=degrees,
                     resample=enum("Inter", inter), expand=r.choice([True, False]))
            if self.size and degrees % 180:
                self.size = None        # expand swaps the sides; without it, they stay

    def flip(self):
        r = self.r
        name = r.choice(["HorizontalFlip", "VerticalFlip", "RandomHorizontalFlip",
                         "RandomVerticalFlip"])
        if name.startswith("Random"):
            self.add(name, prob=r.choice([0.0, 1.0]))
        else:
            self.add(name)


def array_chain(chain, room):
    r = chain.r
    if chain.state == "encoded":
        if r.random() < 0.15:
            chain.random_resized_crop("RandomCropDecodeResize", pil=False)
        else:
            chain.add("Decode")
            if r.random() < 0.25:
                chain.random_resized_crop("RandomResizedCrop", pil=False)
    steps = [chain.geometry] * r.randint(0, 2) + [chain.flip] * r.randint(0, 2)
    if r.random() < 0.15:
        steps.append(lambda: chain.add("ConvertColor", convert_mode=enum(
            "ConvertMode", r.choice(["COLOR_RGB2BGR", "COLOR_RGB2GRAY", "COLOR_RGB2RGBA"]))))
    if r.random() < 0.1:
        steps.append(lambda: chain.add("TypeCast", data_type=r.choice(["int32", "float32"])))
    point = r.choice([None, "Rescale", "Normalize", "both"])
    if point in ("Rescale", "both"):
        steps.append(lambda: rescale(chain))
    if point in ("Normalize", "both"):
        steps.append(lambda: normalize(chain, is_hwc=True))
    if r.random() < 0.4:
        steps.append(lambda: chain.add("HWC2CHW"))
    if r.random() < 0.1:
        r.shuffle(steps)        # an order that does not fuse
    for step in steps[:room - len(chain.ops)]:
        step()


def rescale(chain):
    factor = chain.r.choice([1 / 255, 0.5, 2.0])
    chain.add("Rescale", rescale=factor, shift=chain.r.choice([0.0, -1.0]))
    chain.scale *= factor


def normalize(chain, is_hwc, channels=3):
    count = chain.r.choice([1, channels])
    chain.add("Normalize", mean=MEAN[:count], std=STD[:count], is_hwc=is_hwc)
    chain.scale /= min(STD[:count])


def pil_chain(chain, room):
    r = chain.r
    if chain.state == "encoded" and r.random() < 0.6:
        chain.add("Decode", to_pil=True)
    else:
        if chain.state == "encoded":
            chain.add("Decode")
        chain.add("ToPIL")
    if r.random() < 0.25:
        chain.random_resized_crop("RandomResizedCrop", pil=True)
    steps = [lambda: chain.geometry(pil=True)] * r.randint(0, 2) + [chain.flip] * r.randint(0, 1)
    if r.random() < 0.15:
        steps.append(lambda: chain.add("Grayscale", num_output_channels=r.choice([1, 3])))
    tail = []
    if r.random() < 0.9:
        tail.append(lambda: chain.add("ToTensor"))
        chain.scale /= 255
        if r.random() < 0.4:
            tail.append(lambda: normalize(chain, is_hwc=False, channels=1))
    for step in steps[:max(0, room - len(chain.ops) - len(tail))] + tail:
        step()


def split_maps(r, ops):
    """The ops in 1 to 3 maps, each with its workers; a run of 2 or more in a Compose
    sometimes."""
    count = min(len(ops), r.choice([1, 1, 2, 3]))
    cuts = sorted(r.sample(range(1, len(ops)), count - 1))
    maps = []
    for start, end in zip([0] + cuts, cuts + [len(ops)]):
        part = list(ops[start:end])
        if len(part) >= 2 and r.random() < 0.15:
            first = r.randrange(len(part) - 1)
            last = r.randint(first + 2, len(part))
            part[first:last] = [("Compose", {"transforms": part[first:last]})]
        maps.append({"ops": part, "workers": r.choice([1, 2]),
                     "processes": r.random() < 0.08})
    return maps


def random_case(r):
    if r.random() < 0.12:
        return seeded_case(r)
    same_size = r.random() < 0.5
    source = random_source(r, same_size)
    chain = Chain(r, source)
    room = r.randint(1, 6)
    (pil_chain if r.random() < 0.3 else array_chain)(chain, room)
    if not chain.ops:       # a decoded source's chain that drew no op
        chain.flip()
    case = {"kind": "chain", "source": source, "maps": split_maps(r, chain.ops),
            "values": chain.fixed, "levels": chain.levels, "scale": chain.scale,
            "cropped": chain.cropped}
    if r.random() < 0.5:
        case["batch"] = {"batch_size": r.randint(2, 4), "drop_remainder": r.random() < 0.5}
    case["repeat"] = r.choice([1, 1, 1, 2])
    return case


def seeded_case(r):
    """A chain of truly random ops under ds.config.set_seed."""
    source = random_source(r, same_size=False)
    source["decode"] = False
    size = r.choice([16, (24, 32), 64])
    ops = [("Decode", {}), ("RandomResizedCrop", {"size": size})]
    if r.random() < 0.3:
        ops = [("RandomCropDecodeResize", {"size": size})]
    ops.append(("RandomHorizontalFlip", {"prob": 0.5}))
    if r.random() < 0.5:
        ops += [("Normalize", {"mean": MEAN, "std": STD}), ("HWC2CHW", {})]
    return {"kind": "seeded", "source": source, "ops": ops, "seed": r.randrange(1 << 20),
            "workers": r.choice([1, 2]), "processes": r.random() < 0.2,
            "batch": r.choice([None, 2, 3]), "values": False}


def cases(seed, count):
    r = random.Random(seed)
    return [random_case(r) for _ in range(count)]


# --- building a case in one library -------------------------------------------------------------


def encode(spec):
    """The encoded bytes of one image spec (Pillow's encoders: the same version in both
    interpreters, and the bytes are compared: "source bytes")."""
    from PIL import Image, ImageFile
    height, width = spec["size"]
    rng = np.random.default_rng(spec["seed"])
    rows, cols = np.mgrid[0:height, 0:width]
    smooth = np.stack([cols * 255 // width, rows * 255 // height, (cols + rows) * 3 % 256], -1)
    pixels = np.clip(smooth + rng.integers(-40, 40, smooth.shape), 0, 255).astype(np.uint8)
    image = Image.fromarray(pixels[:, :, 0] if spec["grey"] else pixels)
    buffer = io.BytesIO()
    if spec["format"] == "png":
        image.save(buffer, "PNG")
    else:
        # a progressive noisy image outgrows Pillow's default encoder buffer ("broken data
        # stream"); the buffer's size changes no byte written
        ImageFile.MAXBLOCK = max(ImageFile.MAXBLOCK, 8 * height * width + (1 << 16))
        image.save(buffer, "JPEG", quality=spec["quality"], subsampling=spec["subsampling"],
                   progressive=spec["progressive"])
    return buffer.getvalue()


class RandomAccess:
    """A GeneratorDataset's source: (image as a uint8 array, label) rows."""

    def __init__(self, images):
        self.images = images

    def __getitem__(self, index):
        return np.frombuffer(self.images[index], np.uint8).copy(), np.int32(index)

    def __len__(self):
        return len(self.images)


class Library:
    """``mindspore.dataset`` or ``minddata``, with their vision and transforms modules."""

    def __init__(self, name):
        if name == "mindspore":
            self.ds = importlib.import_module("mindspore.dataset")
            self.file_writer = importlib.import_module("mindspore.mindrecord").FileWriter
        else:
            self.ds = importlib.import_module("minddata")
            self.file_writer = importlib.import_module("mindrecord").FileWriter
            # the exact decode in random crop ops, as MindSpore's (and as the eager ops')
            importlib.import_module("transforms_c.settings").set_approximate_decode(False)
        self.vision, self.transforms = self.ds.vision, self.ds.transforms

    def source(self, spec, images, directory):
        kind, ds = spec["kind"], self.ds
        if kind == "folder":
            root = os.path.join(directory, "folder")
            if not os.path.exists(root):
                for i, (image, data) in enumerate(zip(spec["images"], images)):
                    os.makedirs(os.path.join(root, f"class{i % 2}"), exist_ok=True)
                    suffix = "png" if image["format"] == "png" else "jpg"
                    with open(os.path.join(root, f"class{i % 2}", f"{i:03d}.{suffix}"),
                              "wb") as f:
                        f.write(data)
            return ds.ImageFolderDataset(root, shuffle=False, decode=spec["decode"])
        if kind == "mindrecord":
            path = os.path.join(directory, "images.mindrecord")
            if not os.path.exists(path):
                writer = self.file_writer(path, shard_num=1)
                writer.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}},
                                  "images")
                writer.write_raw_data([{"image": data, "label": i}
                                       for i, data in enumerate(images)])
                writer.commit()
            return ds.MindDataset(path, shuffle=False)
        if kind == "numpy":
            longest = max(len(data) for data in images)
            padded = np.zeros((len(images), longest), np.uint8)
            for i, data in enumerate(images):
                padded[i, :len(data)] = np.frombuffer(data, np.uint8)
            return ds.NumpySlicesDataset({"image": padded, "label": np.arange(
                len(images), dtype=np.int32)}, shuffle=False)
        return ds.GeneratorDataset(RandomAccess(images), ["image", "label"], shuffle=False)

    def resolve(self, value):
        if isinstance(value, tuple) and value and value[0] == ENUM:
            return getattr(getattr(self.vision, value[1]), value[2])
        return value

    def op(self, name, kwargs):
        """An op object; Compose of its ``transforms``; TypeCast of a numpy type's name."""
        if name == "Compose":
            return self.transforms.Compose([self.op(*one) for one in kwargs["transforms"]])
        if name == "TypeCast":
            return self.transforms.TypeCast(getattr(np, kwargs["data_type"]))
        return getattr(self.vision, name)(**{k: self.resolve(v) for k, v in kwargs.items()})

    def pipeline(self, case, images, directory, maps=None):
        data = self.source(case["source"], images, directory)
        for one in maps or case["maps"]:
            data = data.map([self.op(*op) for op in one["ops"]], input_columns=["image"],
                            num_parallel_workers=one["workers"],
                            python_multiprocessing=one["processes"])
        if case.get("batch"):
            batch = case["batch"]
            data = data.batch(**batch) if isinstance(batch, dict) else data.batch(batch)
        return data.repeat(case["repeat"]) if case.get("repeat", 1) > 1 else data


def attempt(function):
    """pipelines.attempt, with an error's whole message (on one line) kept after the rest:
    MindSpore's first line of a Python op's error says only "Execute user Python code
    failed"."""
    try:
        return ("ok", function())
    except Exception as exc:            # an outcome to compare, like a value
        return pipelines.error(exc) + (" ".join(str(exc).split())[:2000],)


def plain(value):
    if hasattr(value, "asnumpy"):
        value = value.asnumpy()
    return np.array(value)      # a copy (a PIL image as its pixels)


def epoch_rows(data):
    return [[plain(v) for v in row]
            for row in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]


def metadata(data):
    return [("get_dataset_size", attempt(data.get_dataset_size)),
            ("get_col_names", attempt(lambda: list(data.get_col_names()))),
            ("output_shapes", attempt(lambda: [list(s) for s in
                                                         data.output_shapes()])),
            ("output_types", attempt(lambda: [np.dtype(t).str for t in
                                                        data.output_types()]))]


def run_case(library, case, directory):
    """[(item, outcome)]: "source bytes", "build", the metadata, "rows"; this package's
    "self" items (see self_checks)."""
    images = [encode(spec) for spec in case["source"]["images"]]
    found = [("source bytes", ("ok", hashlib.sha256(b"".join(images)).hexdigest()[:16]))]
    if case["kind"] == "seeded":
        library.ds.config.set_seed(case["seed"])
        case = seeded_pipeline(case)
    built = attempt(lambda: library.pipeline(case, images, directory))
    if built[0] == "error":
        return found + [("build", built)]
    found += metadata(built[1])
    rows = attempt(lambda: epoch_rows(built[1]))
    found.append(("rows", rows))
    if library.ds.__name__ == "minddata":
        found += self_checks(library, case, images, directory, rows)
    return found


def seeded_pipeline(case):
    """A seeded case as a chain case: its ops in one map."""
    return dict(case, maps=[{"ops": case["ops"], "workers": case["workers"],
                             "processes": case["processes"]}], repeat=1)


# --- this package's own checks ------------------------------------------------------------------


def self_checks(library, case, images, directory, rows):
    """[("self: ...", outcome)]: ("ok", None) where the check holds, else an error outcome
    saying why."""
    if case["kind"] == "seeded":
        return [("self: seeded runs agree", seeded_runs_agree(library, case, images,
                                                               directory, rows))]
    if not case["values"]:
        return []
    return [("self: eager ops one by one", eager_agrees(library, case, images, directory,
                                                       rows))]


def flattened(ops):
    """The ops of a chain with each Compose's ops in its place."""
    out = []
    for name, kwargs in ops:
        out += flattened(kwargs["transforms"]) if name == "Compose" else [(name, kwargs)]
    return out


def eager_rows(library, case, images, directory):
    """The rows the pipeline should give: the source's rows, each op of the chain called
    eagerly on the image, batched and repeated as the pipeline is."""
    source = library.source(case["source"], images, directory)
    maps = [[library.op(*op) for op in flattened(one["ops"])] for one in case["maps"]]
    expected = []
    for image, label in source.create_tuple_iterator(num_epochs=1, output_numpy=True):
        if image.dtype.kind == "S":     # MindDataset's bytes, as a map hands them to its ops
            image = np.frombuffer(image.item(), np.uint8)
        for ops in maps:
            for op in ops:
                image = op(as_map_passes_it(image, op))
            image = plain(image)        # a map's output column is an array
        expected.append([image, plain(label)])
    batch = case.get("batch")
    if batch:
        size = batch["batch_size"]
        count = len(expected) // size * size if batch["drop_remainder"] else len(expected)
        expected = [[np.stack(column) for column in zip(*expected[i:i + size])]
                    for i in range(0, count, size)]
    return expected * case["repeat"]


def as_map_passes_it(image, op):
    """The image as a map hands it to ``op``: a PIL image as it is to an op with a Pillow path,
    as an array to one MindSpore runs in C++ only (ToTensor: pil_input "array"), whose eager
    call would take its Pillow path."""
    if not isinstance(image, np.ndarray) and getattr(op, "pil_input", "own") == "array":
        return np.asarray(image)
    return image


def exactly_equal(ours, expected):
    """Why two lists of rows differ, or None."""
    if len(ours) != len(expected):
        return f"{len(ours)} rows, {len(expected)} expected"
    for number, (row, other) in enumerate(zip(ours, expected)):
        for column, (a, b) in enumerate(zip(row, other)):
            if a.dtype != b.dtype or a.shape != b.shape or not np.array_equal(a, b):
                return (f"row {number} column {column}: {a.dtype}{a.shape} against "
                        f"{b.dtype}{b.shape}" + (f", largest difference {largest(a, b):g}"
                                                 if a.shape == b.shape else ""))
    return None


def largest(a, b):
    return float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max()) if a.size else 0.0


def agreement(ours, expected, what):
    """A self check's outcome: both failed, or the same rows."""
    if ours[0] == "error" or expected[0] == "error":
        if ours[0] == expected[0]:
            return ("ok", None)
        failed = ours if ours[0] == "error" else expected
        return ("error", "self", f"{what}: only one raises: {failed[1]} {failed[2][:150]}",
                ("self",))
    why = exactly_equal(ours[1], expected[1])
    return ("ok", None) if why is None else ("error", "self", f"{what}: {why}", ("self",))


def eager_agrees(library, case, images, directory, rows):
    expected = attempt(lambda: eager_rows(library, case, images, directory))
    return agreement(rows, expected, "pipeline against eager ops")


def seeded_runs_agree(library, case, images, directory, rows):
    """The seeded rows again: a second run, on the other number of workers, in processes or
    threads, and one op per map (unfused: maps of other worker counts do not merge)."""
    ds = library.ds
    runs = {"again": case["maps"],
            "other workers": [dict(case["maps"][0], workers=3 - case["workers"])],
            "threads or processes": [dict(case["maps"][0], processes=not case["processes"])],
            "one op per map": [{"ops": [op], "workers": 1 + k % 2, "processes": False}
                               for k, op in enumerate(case["ops"])]}
    for what, maps in runs.items():
        ds.config.set_seed(case["seed"])
        again = attempt(lambda: epoch_rows(library.pipeline(case, images, directory,
                                                                      maps)))
        outcome = agreement(rows, again, what)
        if outcome[0] == "error":
            return outcome
    return ("ok", None)


# (each case in a directory of its own)
outcomes = differential_reference.case_by_case(Library, cases, run_case,
                                               in_directory=True)


# --- comparing ----------------------------------------------------------------------------------


def tolerance(case, array):
    """How far a value may be from MindSpore's in a case's rows: one level per resampling op
    (integers), that level scaled by the chain's Rescale, Normalize and ToTensor (floats), and
    float rounding."""
    levels = case.get("levels", 0)
    if array.dtype.kind in "iu":
        return float(levels)
    rounding = (2 ** -10 if array.dtype == np.float16 else 1e-5) * max(
        1.0, float(np.abs(array.astype(np.float64)).max()) if array.size else 1.0)
    return levels * case.get("scale", 1.0) * 1.0001 + rounding


def rows_difference(case, ours, theirs):
    """Why two epochs of rows differ beyond the case's tolerance, or None; without the case's
    values fixed, only dtypes and shapes."""
    if len(ours) != len(theirs):
        return f"{len(ours)} rows here, {len(theirs)} in MindSpore"
    for number, (row, other) in enumerate(zip(ours, theirs)):
        if len(row) != len(other):
            return f"row {number}: {len(row)} columns here, {len(other)} in MindSpore"
        for column, (a, b) in enumerate(zip(row, other)):
            where = f"row {number} column {column}: "
            if a.dtype != b.dtype or a.shape != b.shape:
                return where + f"{a.dtype}{a.shape} here, {b.dtype}{b.shape} in MindSpore"
            if case.get("values", True) and a.size and not values_alike(case, a, b):
                return where + f"{a.dtype}{a.shape}, largest difference {largest(a, b):g}"
    return None


def values_alike(case, a, b):
    if a.dtype.kind not in "iuf":       # bool
        return np.array_equal(a, b)
    return largest(a, b) <= tolerance(case, b)


def difference_in(case):
    """pipelines.difference for the case's items, rows compared within its tolerance."""
    def difference(ours, theirs):
        if ours[0] == theirs[0] == "ok" and isinstance(ours[1], list) and ours[1] and \
                isinstance(ours[1][0], list) and ours[1][0] and isinstance(ours[1][0][0],
                                                                           np.ndarray):
            why = rows_difference(case, ours[1], theirs[1])
            return ("different", why) if why else (None, None)
        return pipelines.difference(ours, theirs)
    return difference


def case_differences(case, ours, theirs):
    if theirs[0][0] == "crash":
        return [("MindSpore crashed", "crash", theirs[0][1][2])]
    mine, reference = dict(ours), dict(theirs)
    # a failed check of this package's own is a difference whatever the reference did
    found = [("different", label, outcome[2]) for label, outcome in ours
             if label.startswith("self") and outcome[0] == "error"]
    labels = [label for label in ("source bytes", "build", "get_dataset_size", "get_col_names",
                                  "output_shapes", "output_types", "rows")
              if label in mine or label in reference]
    mine = {label: mine.get(label, mine.get("build")) for label in labels}
    reference = {label: reference.get(label, reference.get("build")) for label in labels}
    found += differential_reference.item_differences(
        [(label, mine[label], reference[label]) for label in labels], ("rows",),
        difference_in(case))
    found.sort(key=lambda item: ("different", "error type", "error elsewhere").index(item[0]))
    return found


def classify(case, ours, theirs):
    return differential_reference.first_undocumented(
        case, ours, theirs, case_differences(case, ours, theirs), documented)


def chain_ops(case):
    """(name, kwargs) of each op of a case's chain, in order."""
    return case["ops"] if case["kind"] == "seeded" else [
        op for one in case["maps"] for op in flattened(one["ops"])]


RESIZING = ("Resize", "RandomResizedCrop", "Rotate")


def resizes_cast_image(case):
    """Whether an op that resamples comes after a TypeCast to int32."""
    names = [name if name != "TypeCast" or kwargs["data_type"] != "int32" else "cast"
             for name, kwargs in chain_ops(case)]
    return "cast" in names and any(name in RESIZING for name in names[names.index("cast"):])


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item``, or None (the vision ops' "Deviations
    from MindSpore")."""
    failed = str(dict(theirs).get(item, dict(theirs).get("build", "")))
    names = [name for name, _ in chain_ops(case)]
    jpeg = any(image["format"] == "jpeg" for image in case["source"]["images"])
    rules = [
        (names[0] == "RandomCropDecodeResize" and case.get("cropped") and jpeg and item == "rows"
         and ours_and_theirs_shaped_alike(ours, theirs, item),
         "RandomCropDecodeResize gives exactly Decode then RandomResizedCrop (MindSpore 2.10's "
         "decode of the window differs along its right edge)"),
        ("Grayscale" in names and "img should be PIL image" in failed,
         "Grayscale also takes RGB or gray uint8 arrays (MindSpore 2.10: TypeError)"),
        (resizes_cast_image(case) and ("func != 0" in failed or "does not match the "
                                       "requirement" in failed),
         "Resize takes images of every number type (MindSpore 2.10 fails inside OpenCV on "
         "int32)"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def ours_and_theirs_shaped_alike(ours, theirs, item):
    """Whether both sides gave rows of the same dtypes and shapes in ``item``."""
    mine, reference = dict(ours).get(item), dict(theirs).get(item)
    if not (mine and reference and mine[0] == reference[0] == "ok"):
        return False
    return rows_difference({"values": False}, mine[1], reference[1]) is None


def describe(case, limit=400):
    source = case["source"]
    images = ", ".join(f"{image['format']}{'-grey' if image['grey'] else ''}"
                       f"{image['size'][0]}x{image['size'][1]}" for image in source["images"])
    text = f"{source['kind']}{' decode' if source['decode'] else ''} [{images}] | "
    if case["kind"] == "seeded":
        text += f"seed {case['seed']}: {case['ops']} workers {case['workers']}"
    else:
        text += " | ".join(f"map{'(2)' if one['workers'] == 2 else ''}"
                           f"{'(processes)' if one['processes'] else ''} {one['ops']}"
                           for one in case["maps"])
    extra = "".join(f" | {key} {case[key]}" for key in ("batch", "repeat") if case.get(key))
    return (text + extra)[:limit] + ("" if case.get("values", True) else "  [shapes only]")


def main():
    return differential_reference.run_tool(
        __doc__.split("\n\n")[0], 150, __file__, cases, outcomes, classify, describe,
        CASE_TIMEOUT_S)


if __name__ == "__main__":
    sys.exit(main())
