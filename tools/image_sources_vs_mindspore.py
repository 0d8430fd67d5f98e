"""The further image-dataset sources against MindSpore 2.10, on small random datasets.

Each case draws a source kind (CelebA, SVHN, STL10, Fashion/K/E/QMNIST, USPS, Semeion,
Caltech101/256, Places365, Flowers102, KITTI, WIDERFace, Cityscapes, SBD, Omniglot, Food101,
SUN397, LFW, DIV2K, LSUN, Flickr, SBU, PhotoTour, FakeImage: dtypes and shapes only), a tiny
dataset in that source's layout (PNG images in every mode, or the binary, MATLAB and text files
the dataset uses; random labels, attributes, boxes, usages and splits; sometimes unusual but
valid content: labels at the edges of their range, images without objects, unicode file names,
extra files to be ignored, numbers in other notations, CRLF line ends; sometimes a malformed
file: a missing annotation or partition file, a label that is not a number, a short line, a
cut file) and random arguments (usage, decode, num_samples, shards, a sampler, extensions,
the source's own options; now and then one out of range or of a wrong type). Both
interpreters write the same files from the case's numbers (numpy, Pillow and scipy only), then
record get_dataset_size, get_col_names, output_types, get_class_indexing where MindSpore has it,
num_classes, and every row of an epoch of a tuple iterator and a dict iterator. The outcomes
are compared item by item as tools/pipelines_vs_mindspore.py compares them (its helpers are
used here): dtype, shape and values exactly, both raise or neither (an error of
another type counted apart). A case that kills MindSpore's interpreter is recorded as a crash.

    .venv/bin/python tools/image_sources_vs_mindspore.py [--seed 1] [--cases 200]
        [--mindspore-python /work/msvenv/bin/python] [--kinds celeba,svhn]
        [--show-documented] [--show-error-types]

Prints each undocumented difference and a count per outcome; exits 1 if there is any. The
MindSpore interpreter runs this file alone (it never imports this package).
"""
import argparse
import bz2
import faulthandler
import gzip
import importlib
import io
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import pipelines_vs_mindspore as pipelines                          # noqa: E402

CASE_TIMEOUT_S = 20         # a case of the reference interpreter that runs longer hangs
KINDS = ("celeba", "svhn", "stl10", "fashion_mnist", "kmnist", "emnist", "qmnist", "usps",
         "semeion", "caltech256", "places365", "flowers102", "kitti", "wider_face",
         "caltech101", "cityscapes", "sbd", "omniglot", "food101", "sun397", "lfw", "div2k",
         "lsun", "flickr", "sbu", "photo_tour", "fake_image")
CLASS_OF = {"celeba": "CelebADataset", "svhn": "SVHNDataset", "stl10": "STL10Dataset",
            "fashion_mnist": "FashionMnistDataset", "kmnist": "KMnistDataset",
            "emnist": "EMnistDataset", "qmnist": "QMnistDataset", "usps": "USPSDataset",
            "semeion": "SemeionDataset", "caltech256": "Caltech256Dataset",
            "places365": "Places365Dataset", "flowers102": "Flowers102Dataset",
            "kitti": "KITTIDataset", "wider_face": "WIDERFaceDataset",
            "caltech101": "Caltech101Dataset", "cityscapes": "CityscapesDataset",
            "sbd": "SBDataset", "omniglot": "OmniglotDataset", "food101": "Food101Dataset",
            "sun397": "SUN397Dataset", "lfw": "LFWDataset", "div2k": "DIV2KDataset",
            "lsun": "LSUNDataset", "flickr": "FlickrDataset", "sbu": "SBUDataset",
            "photo_tour": "PhotoTourDataset", "fake_image": "FakeImageDataset"}
# the kinds that take decode, and those whose images are files (names drawn)
DECODED = ("celeba", "caltech256", "places365", "flowers102", "kitti", "wider_face",
           "caltech101", "cityscapes", "sbd", "omniglot", "food101", "sun397", "lfw", "div2k",
           "lsun", "flickr", "sbu")
NAMES = ["a", "b0", "img_7", "ζeta", "x.y", "Z", "日本"]

# --- random cases ------------------------------------------------------------------------------


def sampling(r, rows, mappable=True):
    """shuffle=False with one of: shards, a sampler, num_samples, or nothing."""
    kwargs = {"shuffle": False}
    choice = r.random()
    if choice < 0.2:
        kwargs.update(pipelines.shards(r))
    elif choice < 0.4 and mappable:
        kwargs["sampler"] = pipelines.sampler(r, rows, ("sequential", "subset", "distributed"))
        del kwargs["shuffle"]
    elif choice < 0.6:
        kwargs["num_samples"] = r.randint(1, rows + 2)
    return kwargs


def random_case(r, kinds=KINDS):
    kind = r.choice(kinds)
    rows = r.randint(1, 5)
    case = {"kind": kind, "seed": r.randrange(1 << 30), "rows": rows,
            "kwargs": sampling(r, rows, mappable=kind != "usps"),
            # a malformed file: drawn for one case in seven
            "fault": r.choice(FAULTS[kind]) if r.random() < 0.15 and FAULTS.get(kind) else None}
    kwargs = case["kwargs"]
    if kind in DECODED:
        kwargs["decode"] = r.random() < 0.5
    if r.random() < 0.15:
        kwargs["num_parallel_workers"] = 2      # rows in the same order
    usages = USAGES.get(kind)
    if usages:
        usage = r.choice(usages)
        if usage is not None:
            kwargs["usage"] = usage
    if kind == "celeba" and r.random() < 0.3:
        kwargs["extensions"] = r.choice([[".png"], [".jpg"], [".png", ".jpg"], [".JPG"]])
    if kind == "emnist":
        kwargs["name"] = r.choice(["byclass", "bymerge", "balanced", "letters", "digits",
                                   "mnist"])
    if kind == "qmnist":
        kwargs["compat"] = r.choice([True, False])
    if kind == "places365":
        kwargs["small"] = r.choice([True, False])
    if kind == "flowers102":
        kwargs["task"] = r.choice(["Classification", "Segmentation"])
    if kind == "caltech101" and r.random() < 0.8:
        kwargs["target_type"] = r.choice(["category", "annotation", "all"])
    if kind == "cityscapes":
        kwargs["quality_mode"] = r.choice(["fine", "coarse"])
        kwargs["usage"] = r.choice(["train", "val", "all"] + (
            ["test"] if kwargs["quality_mode"] == "fine" else ["train_extra"]))
        kwargs["task"] = r.choice(["instance", "semantic", "polygon", "color"])
    if kind == "sbd":
        kwargs["task"] = r.choice(["Boundaries", "Segmentation"])
    if kind == "omniglot" and r.random() < 0.7:
        kwargs["background"] = r.choice([True, False])
    if kind == "lfw":
        for name, values in (("task", ["people", "pairs"]),
                             ("image_set", ["original", "funneled", "deepfunneled"])):
            if r.random() < 0.8:
                kwargs[name] = r.choice(values)
    if kind == "div2k":
        kwargs["downgrade"] = r.choice(["bicubic", "unknown", "mild", "difficult", "wild"])
        kwargs["scale"] = 4 if kwargs["downgrade"] in ("mild", "difficult", "wild") else \
            r.choice([2, 3, 4] + [8] * (kwargs["downgrade"] == "bicubic"))
    if kind == "photo_tour":
        kwargs["name"] = r.choice(["notredame", "yosemite", "liberty", "notredame_harris"])
    if kind == "fake_image":
        kwargs.update(num_images=rows + 1, image_size=r.choice([(2, 3, 3), (4, 4, 1), (1, 5)]),
                      num_classes=r.choice([1, 3, 10]), base_seed=r.randrange(100))
    if kind == "lsun" and r.random() < 0.5:
        kwargs["classes"] = r.sample(LSUN_CLASSES[:4], r.randint(1, 3))
    if r.random() < 0.06:                   # an argument out of its range or of a wrong type
        name, value = r.choice([("usage", "bogus"), ("decode", "yes"), ("num_samples", -1),
                                ("shuffle", "no"), ("num_shards", 2), ("shard_id", 4),
                                ("num_parallel_workers", 0), ("sampler", ("list", [0, 0]))])
        if name != "decode" or kind in DECODED:
            kwargs[name] = value
            case["fault"] = "argument %s=%r" % (name, value)
    return case


LSUN_CLASSES = ["bedroom", "bridge", "church_outdoor", "classroom", "conference_room",
                "dining_room", "kitchen", "living_room", "restaurant", "tower"]


USAGES = {"celeba": [None, "all", "train", "valid", "test"],
          "svhn": [None, "train", "test", "extra", "all"],
          "stl10": [None, "train", "test", "unlabeled", "train+unlabeled", "all"],
          "fashion_mnist": [None, "train", "test", "all"], "kmnist": [None, "train", "test", "all"],
          "emnist": [None, "train", "test", "all"], "qmnist": [None, "train", "test", "nist"],
          "usps": ["train", "test"], "places365": [None, "train-standard", "train-challenge",
                                                   "val"],
          "flowers102": ["train", "valid", "test", "all"], "kitti": [None, "train", "test"],
          "wider_face": [None, "train", "valid", "test", "all"],
          "sbd": ["train", "val", "train_noval", "all"], "food101": [None, "train", "test", "all"],
          "lfw": [None, "train", "test", "all", "10fold"], "div2k": ["train", "valid", "all"],
          "lsun": [None, "train", "valid", "test", "all"], "photo_tour": [None, "train", "test"]}
FAULTS = {"celeba": ["no partition file", "attr not a number", "short attr line",
                     "missing image", "count off", "image not partitioned"],
          "svhn": ["label 11"], "stl10": ["labels short"],
          "fashion_mnist": ["labels short", "images short"],
          "kmnist": ["labels short", "images short"],
          "emnist": ["labels short", "images short"], "qmnist": ["labels short", "images short"],
          "usps": ["pixel index wrong", "class not a number", "pixel out of range",
                   "no trailing blank"],
          "semeion": ["short line", "no class marked"],
          "places365": ["label not a number", "missing image"],
          "flowers102": ["id past the labels"],
          "kitti": ["short label line", "missing label file"],
          "wider_face": ["count not a number", "no annotation file"],
          "caltech101": ["missing annotation file"], "cityscapes": ["missing annotation"],
          "sbd": ["missing cls file", "id listed twice"], "food101": ["missing image"],
          "sun397": ["class not listed"], "lfw": ["person not named", "count too big"],
          "div2k": ["missing lr image"], "flickr": ["missing image", "no tab"],
          "sbu": ["captions short"], "photo_tour": ["info line short"]}


def cases(seed, count, kinds=KINDS):
    r = random.Random(seed)
    return [random_case(r, kinds) for _ in range(count)]


# --- writing a case's files (the same bytes in both interpreters) ------------------------------


def _image(rng, path):
    """A small PNG image written at ``path`` (whatever its name's extension): RGB mostly, else
    grey, grey with alpha, RGBA, palette or 16-bit grey, or a BMP."""
    from PIL import Image
    os.makedirs(os.path.dirname(path), exist_ok=True)
    height, width = int(rng.integers(2, 7)), int(rng.integers(2, 7))
    mode = rng.choice(["RGB"] * 12 + ["L", "LA", "RGBA", "P", "I;16", "BMP"])
    pixels = rng.integers(0, 256, (height, width, 4)).astype(np.uint8)
    if mode == "RGB":
        data = pipelines.file_sources._png(pixels[:, :, :3])
    else:
        image = {"L": lambda: Image.fromarray(pixels[:, :, 0]),
                 "LA": lambda: Image.fromarray(pixels[:, :, :2].copy(), "LA"),
                 "RGBA": lambda: Image.fromarray(pixels),
                 "P": lambda: Image.fromarray(pixels[:, :, :3]).quantize(5),
                 "I;16": lambda: Image.fromarray(pixels[:, :, 0].astype(np.uint16) * 257),
                 "BMP": lambda: Image.fromarray(pixels[:, :, :3])}[mode]()
        buffer = io.BytesIO()
        image.save(buffer, "BMP" if mode == "BMP" else "PNG")
        data = buffer.getvalue()
    with open(path, "wb") as f:
        f.write(data)
    return height, width


def _text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_celeba(root, case, rng):
    count, attrs = case["rows"], int(rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 40, 40]))
    names = []
    for i in range(count):
        ext = [".jpg", ".png", ".JPG"][int(rng.integers(0, 3))]
        names.append("%06d%s%s" % (i + 1, ["", "_ü"][int(rng.integers(0, 2))], ext))
        if case["fault"] != "missing image" or i:
            _image(rng, os.path.join(root, names[-1]))
    values = rng.choice([-1, 1] * 4 + [0], (count, attrs))
    # unusual but read alike: a first line counting other than the lines, CRLF line ends
    stated = count + int(rng.choice([0, 0, 0, -1, 1])) if case["fault"] == "count off" else count
    end = "\r\n" if rng.random() < 0.2 else "\n"
    lines = ["%d" % stated, " ".join("Attr_%d" % k for k in range(attrs))]
    for i, name in enumerate(names):
        fields = [str(v) for v in values[i]]
        if case["fault"] == "attr not a number" and i == count - 1:
            fields[-1] = "yes"
        if case["fault"] == "short attr line" and i == count - 1 and count > 1:
            fields = fields[:-1]
        lines.append(name + "  " + " ".join("%2s" % v for v in fields))
    _text(os.path.join(root, "list_attr_celeba.txt"), end.join(lines) + end)
    if case["fault"] != "no partition file":
        parts = rng.integers(0, 3, count)
        listed = names[:-1] if case["fault"] == "image not partitioned" else names
        _text(os.path.join(root, "list_eval_partition.txt"),
              "".join("%s %d%s" % (name, part, end) for name, part in zip(listed, parts)))
    _text(os.path.join(root, "README.txt"), "not an image\n")      # to be ignored
    return root


def write_svhn(root, case, rng):
    import scipy.io
    for part in ("train", "test", "extra"):
        # two rows or more: MindSpore 2.10 fails on a file of one (its labels squeezed to 0-d)
        count = int(rng.integers(2, case["rows"] + 2))
        images = rng.integers(0, 256, (32, 32, 3, count)).astype(np.uint8)
        labels = rng.integers(1, 11, (count, 1)).astype(
            np.uint8 if rng.random() < 0.7 else np.float64)     # as released, or doubles
        labels[0, 0] = rng.choice([1, 10])                  # the edges of the range
        if case["fault"] == "label 11" and part == "train":
            labels[-1, 0] = 11
        scipy.io.savemat(os.path.join(root, "%s_32x32.mat" % part), {"X": images, "y": labels})
    return root


def write_stl10(root, case, rng):
    for part in ("train", "test", "unlabeled"):
        count = int(rng.integers(1, case["rows"] + 1))
        with open(os.path.join(root, "%s_X.bin" % part), "wb") as f:
            f.write(rng.integers(0, 256, count * 96 * 96 * 3).astype(np.uint8).tobytes())
        if part != "unlabeled":
            labels = rng.integers(1, 11, count).astype(np.uint8)
            labels[0] = rng.choice([1, 10])
            if case["fault"] == "labels short" and part == "train":
                labels = labels[:-1]
            with open(os.path.join(root, "%s_y.bin" % part), "wb") as f:
                f.write(labels.tobytes())
    return root


def _idx(root, images_name, labels_name, case, rng, qmnist=False):
    count = int(rng.integers(1, case["rows"] + 1))
    images = rng.integers(0, 256, (count, 28, 28)).astype(np.uint8)
    with open(os.path.join(root, images_name), "wb") as f:
        payload = images.tobytes()
        f.write(np.array([2051, count, 28, 28], ">u4").tobytes() + (
            payload[:-5] if case["fault"] == "images short" else payload))
    labelled = count - (case["fault"] == "labels short")
    if qmnist:
        values = rng.integers(-2, 100, (labelled, 8)).astype(">i4")
        values[:, 0] = rng.integers(0, 10, labelled)
        header = np.array([3074, labelled, 8], ">u4").tobytes()
    else:
        values = rng.integers(0, 10, labelled).astype(np.uint8)
        values[:1] = rng.choice([0, 9] * 4 + [255])      # the edges of a byte's range too
        header = np.array([2049, labelled], ">u4").tobytes()
    with open(os.path.join(root, labels_name), "wb") as f:
        f.write(header + values.tobytes())
    # the downloaded archives left beside the files now and then: their names match the
    # patterns, so both fail on them (MindSpore 2.10 too, measured)
    if rng.random() < 0.1:
        for name in (images_name, labels_name):
            with open(os.path.join(root, name), "rb") as f, \
                    open(os.path.join(root, name + ".gz"), "wb") as out:
                out.write(gzip.compress(f.read(), mtime=0))


def write_mnist_like(root, case, rng):
    kind = case["kind"]
    if kind == "emnist":
        prefixes = ["emnist-%s-%s" % (case["kwargs"]["name"], part) for part in ("train", "test")]
        for prefix in prefixes + ["emnist-other-train"]:        # another split: ignored
            _idx(root, prefix + "-images-idx3-ubyte", prefix + "-labels-idx1-ubyte", case, rng)
    elif kind == "qmnist":
        for prefix in ("qmnist-train", "qmnist-test", "xnist"):
            _idx(root, prefix + "-images-idx3-ubyte", prefix + "-labels-idx2-int", case, rng,
                 qmnist=True)
    else:
        for prefix in ("train", "t10k"):
            _idx(root, prefix + "-images-idx3-ubyte", prefix + "-labels-idx1-ubyte", case, rng)
    return root


def _usps_line(rng, fault):
    values = rng.choice([-1.0, -0.5, 0.0, 0.25, 0.999, 1.0, -0.3333], 256)
    label = int(rng.integers(1, 11))
    style = rng.choice(["%r", "%r", "%.6f", "%g", "%.3e"])
    fields = ["%d:%s" % (k + 1, style % float(v)) for k, v in enumerate(values)]
    if fault == "pixel index wrong":
        fields[5] = "9:0.0"
    if fault == "pixel out of range":
        fields[7] = "8:1.5"
    head = "x" if fault == "class not a number" else str(label)
    # a blank ends the line, as in the released files (MindSpore 2.10 refuses a line without)
    return head + " " + " ".join(fields) + ("\n" if fault == "no trailing blank" else " \n")


def write_usps(root, case, rng):
    for name in ("usps", "usps.t"):
        count = int(rng.integers(1, case["rows"] + 1))
        text = "".join(_usps_line(rng, case["fault"] if i == count - 1 else None)
                       for i in range(count))
        _text(os.path.join(root, name), text)
        if rng.random() < 0.3:    # the downloaded archive left beside the file: ignored
            with open(os.path.join(root, name + ".bz2"), "wb") as f:
                f.write(bz2.compress(text.encode()))
    return root


def write_semeion(root, case, rng):
    lines = []
    for i in range(case["rows"]):
        pixels = rng.integers(0, 2, 256).astype(np.float64)
        if rng.random() < 0.2:
            pixels[int(rng.integers(0, 256))] = rng.choice([0.5, 0.9999, 2.0])
        classes = [0] * 10
        if not (case["fault"] == "no class marked" and i == case["rows"] - 1):
            classes[int(rng.integers(0, 10))] = 1
        fields = ["%.4f" % p for p in pixels] + [str(c) for c in classes]
        if case["fault"] == "short line" and i == case["rows"] - 1:
            fields = fields[1:]
        lines.append(" ".join(fields) + " \n")
    _text(os.path.join(root, "semeion.data"), "".join(lines))
    return root


def write_caltech256(root, case, rng):
    folders = sorted(rng.choice(["001.ak47", "002.american-flag", "010.beer-mug",
                                 "257.clutter", "003.ζ"], int(rng.integers(1, 4)),
                                replace=False).tolist())
    for folder in folders:
        os.makedirs(os.path.join(root, folder))
        for i in range(int(rng.integers(0, case["rows"] + 1))):
            ext = [".jpg", ".JPEG", ".png", ".jpg", ".JPG", ".jpeg"][int(rng.integers(0, 6))]
            _image(rng, os.path.join(root, folder, "%s_%04d%s" % (folder[:3], i + 1, ext)))
    _text(os.path.join(root, folders[0], "notes.txt"), "ignored\n")
    return root


def write_places365(root, case, rng):
    categories = ["/a/abbey", "/b/bar", "/z/zoo"]
    _text(os.path.join(root, "categories_places365.txt"),
          "".join("%s %d\n" % (name, i) for i, name in enumerate(categories)))
    usage = case["kwargs"].get("usage", "train-standard")
    lists = {"train-standard": ("places365_train_standard.txt", "data_256_standard",
                                "data_large_standard"),
             "train-challenge": ("places365_train_challenge.txt", "data_256_challenge",
                                 "data_large_challenge"),
             "val": ("places365_val.txt", "val_256", "val_large")}
    for name, (listing, small, large) in lists.items():
        lines = []
        for i in range(int(rng.integers(1, case["rows"] + 1))):
            label = int(rng.integers(0, 3))
            path = ("Places365_val_%08d.jpg" % (i + 1) if name == "val" else
                    "%s/%08d.jpg" % (categories[label], i + 1))
            if name != "val" and i == 0:
                path = "/" + path.lstrip("/")
            missing = case["fault"] == "missing image" and name == usage and i == 0
            if not missing:
                for folder in (small, large):
                    _image(rng, os.path.join(root, folder, path.lstrip("/")))
            text = "x" if case["fault"] == "label not a number" and name == usage and i == 0 \
                else str(label if rng.random() < 0.9 else 364)      # no category of this file
            lines.append("%s %s\n" % (path, text))
        _text(os.path.join(root, listing), "".join(lines))
    return root


def write_flowers102(root, case, rng):
    import scipy.io
    count = case["rows"] + 2
    for i in range(1, count + 1):
        _image(rng, os.path.join(root, "jpg", "image_%05d.jpg" % i))
        _image(rng, os.path.join(root, "segmim", "segmim_%05d.jpg" % i))
    labels = rng.integers(1, 103, (1, count)).astype(np.uint8)
    labels[0, 0] = rng.choice([1, 102])
    ids = rng.permutation(np.arange(1, count + 1))
    # splits of one image or more mostly (an empty one now and then: MindSpore refuses it)
    cut = sorted(rng.choice(np.arange(1, count), 2, replace=False).tolist()) \
        if rng.random() < 0.9 else sorted(rng.integers(0, count + 1, 2).tolist())
    splits = {"trnid": ids[:cut[0]], "valid": ids[cut[0]:cut[1]], "tstid": ids[cut[1]:]}
    if case["fault"] == "id past the labels":
        splits = {name: np.append(split, count + 1) for name, split in splits.items()}
    scipy.io.savemat(os.path.join(root, "imagelabels.mat"), {"labels": labels})
    scipy.io.savemat(os.path.join(root, "setid.mat"), {
        name: split.reshape(1, -1).astype(np.uint16) for name, split in splits.items()})
    return root


KITTI_CLASSES = ["Car", "Pedestrian", "Cyclist", "DontCare", "Van"]


def write_kitti(root, case, rng):
    for folder in ("training", "testing"):
        for i in range(int(rng.integers(1, case["rows"] + 1))):
            _image(rng, os.path.join(root, "data_object_image_2", folder, "image_2",
                                     "%06d.png" % i))
            if folder == "testing":
                continue
            lines = []
            for _ in range(int(rng.integers(0 if i else 1, 3))):
                values = np.round(rng.uniform(-2, 50, 14), 2)
                values[1] = rng.integers(-1, 4)                 # occluded: -1 to 3
                style = rng.choice(["%.2f", "%.2f", "%g", "%.6e", "%.9f"])
                fields = [KITTI_CLASSES[int(rng.integers(0, 5))]] + [style % v for v in values]
                fields[2] = "%d" % values[1]
                if rng.random() < 0.2:
                    fields.append("%.2f" % rng.uniform(0, 1))   # a score (results files)
                if case["fault"] == "short label line" and i == 0:
                    fields = fields[:-2]
                lines.append(" ".join(fields) + ("\r\n" if rng.random() < 0.1 else "\n"))
            if not (case["fault"] == "missing label file" and i == 0):
                _text(os.path.join(root, "data_object_label_2", folder, "label_2",
                                   "%06d.txt" % i), "".join(lines))
    return root


def write_wider_face(root, case, rng):
    # the same event folders in each part, as released (MindSpore 2.10 looks for the train
    # part's in the others)
    events = sorted(rng.choice(["0--Parade", "1--Handshaking", "12--Group"],
                               int(rng.integers(1, 4)), replace=False).tolist())
    for part, folder in (("train", "WIDER_train"), ("val", "WIDER_val"), ("test", "WIDER_test")):
        lines = []
        for event in events:
            # mostly one file a folder: MindSpore reads a folder's files in the file system's
            # order (a documented deviation; they are sorted here)
            for i in range(1 if rng.random() < 0.7 else int(rng.integers(1, case["rows"] + 1))):
                name = "%s/%s_%d.jpg" % (event, event.split("--")[1], i)
                _image(rng, os.path.join(root, folder, "images", name))
                if rng.random() < 0.1:
                    continue                    # an image the annotation file does not name
                faces = int(rng.integers(0, 3))
                count = "x" if case["fault"] == "count not a number" and i == 0 else str(faces)
                lines += [name, count]
                for _ in range(max(faces, 1)):
                    box = rng.integers(0, 40, 4).tolist() if faces else [0] * 4
                    attributes = rng.integers(0, 3, 3).tolist()
                    # invalid, occlusion, pose: the same mostly (MindSpore reads them in
                    # another order, a documented deviation)
                    last = [int(rng.integers(0, 2))] * 3 if rng.random() < 0.8 else \
                        rng.integers(0, 3, 3).tolist()
                    lines.append(" ".join(str(v) for v in box + attributes + last) + " ")
        if part != "test" and not (case["fault"] == "no annotation file" and part == "train"):
            _text(os.path.join(root, "wider_face_split", "wider_face_%s_bbx_gt.txt" % part),
                  "\n".join(lines) + "\n")
    return root


def write_caltech101(root, case, rng):
    import scipy.io
    classes = ["BACKGROUND_Google", "Faces", "Motorbikes", "accordion", "ant", "Leopards"]
    chosen = sorted(rng.choice(classes, int(rng.integers(2, 5)), replace=False).tolist())
    annotation_folders = {"Faces": "Faces_2", "Motorbikes": "Motorbikes_16"}
    for name in chosen:
        for i in range(1, int(rng.integers(0, case["rows"] + 1)) + 1):
            _image(rng, os.path.join(root, "101_ObjectCategories", name, "image_%04d.jpg" % i))
            if case["fault"] == "missing annotation file" and i == 1:
                continue
            folder = os.path.join(root, "Annotations", annotation_folders.get(name, name))
            os.makedirs(folder, exist_ok=True)
            points = int(rng.integers(1, 6))
            scipy.io.savemat(os.path.join(folder, "annotation_%04d.mat" % i), {
                "obj_contour": np.round(rng.uniform(0, 50, (2, points)), 3),
                "box_coord": rng.integers(0, 50, (1, 4)).astype(np.uint16)})
        os.makedirs(os.path.join(root, "101_ObjectCategories", name), exist_ok=True)
    return root


def write_cityscapes(root, case, rng):
    quality = case["kwargs"]["quality_mode"]
    gt = "gtFine" if quality == "fine" else "gtCoarse"
    usages = ["train", "val"] + (["test"] if quality == "fine" else ["train_extra"])
    for usage in usages:
        for city in sorted(rng.choice(["aachen", "bonn", "köln"], int(rng.integers(1, 3)),
                                      replace=False).tolist()):
            for i in range(int(rng.integers(1, case["rows"] + 1))):
                stem = "%s_%06d_%06d" % (city, i, int(rng.integers(0, 20)))
                _image(rng, os.path.join(root, "leftImg8bit", usage, city,
                                         stem + "_leftImg8bit.png"))
                target = os.path.join(root, gt, usage, city, stem + "_" + gt + "_")
                if case["fault"] == "missing annotation" and i == 0:
                    continue
                for suffix in ("instanceIds.png", "labelIds.png", "color.png"):
                    _image(rng, target + suffix)
                polygons = {"imgHeight": 4, "imgWidth": 5, "objects": [
                    {"label": ["road", "car", "ζ", "a\"b/c", "\u0007"][int(rng.integers(0, 5))],
                     "polygon": rng.integers(0, 9, (3, 2)).tolist() if rng.random() < 0.6
                     else [[float(v) for v in rng.choice(
                         [0.5, 1.0, 0.1, 1e-7, 123456789.25, -3.0, 2.5e20], 2)]],
                     "deleted": int(rng.integers(0, 2)), "date": None,
                     "verified": bool(rng.integers(0, 2))}
                    for _ in range(int(rng.integers(0, 3)))]}
                _text(target + "polygons.json", json.dumps(polygons, indent=2))
            _text(os.path.join(root, "leftImg8bit", usage, city, "notes.txt"), "ignored\n")
    return root


def write_sbd(root, case, rng):
    import scipy.io
    import scipy.sparse
    ids = ["2008_%06d" % i for i in range(case["rows"] + 1)]
    for number, image_id in enumerate(ids):
        height, width = _image(rng, os.path.join(root, "img", image_id + ".jpg"))
        if case["fault"] == "missing cls file" and number == 0:
            continue
        boundaries = np.empty((20, 1), dtype=object)
        for k in range(20):
            boundaries[k, 0] = scipy.sparse.csc_matrix(
                (rng.random((height, width)) < 0.2).astype(np.uint8))
        os.makedirs(os.path.join(root, "cls"), exist_ok=True)
        scipy.io.savemat(os.path.join(root, "cls", image_id + ".mat"), {"GTcls": {
                "Boundaries": boundaries,
                "Segmentation": rng.integers(0, 21, (height, width)).astype(np.uint8),
                "CategoriesPresent": np.array([[1]], np.uint8)}})
    order = rng.permutation(len(ids)).tolist()
    # an empty list now and then (MindSpore refuses it)
    cut = int(rng.integers(1, len(ids))) if rng.random() < 0.9 else int(rng.choice([0, len(ids)]))
    train, val = [ids[k] for k in order[:cut]], [ids[k] for k in order[cut:]]
    if case["fault"] == "id listed twice" and train:
        val.append(train[0])
    for name, listed in (("train", train), ("val", val), ("train_noval", train[:1])):
        _text(os.path.join(root, name + ".txt"), "".join(i + "\n" for i in listed))
    return root


def write_omniglot(root, case, rng):
    for folder in ("images_background", "images_evaluation"):
        for alphabet in sorted(rng.choice(["Latin", "Greek", "Bengali", "日本"],
                                          int(rng.integers(1, 3)), replace=False).tolist()):
            for c in range(1, int(rng.integers(1, 3)) + 1):
                character = os.path.join(root, folder, alphabet, "character%02d" % c)
                os.makedirs(character)
                for i in range(int(rng.integers(0, case["rows"] + 1))):
                    _image(rng, os.path.join(character, "%04d_%02d.png" % (c, i + 1)))
    return root


def write_food101(root, case, rng):
    classes = ["apple_pie", "hot_dog", "sushi", "ζ_soup"]
    lines = {"train": [], "test": []}
    for name in classes:
        for i in range(int(rng.integers(0, case["rows"] + 1))):
            image_id = "%d" % int(rng.integers(100000, 999999))
            if not (case["fault"] == "missing image" and i == 0):
                _image(rng, os.path.join(root, "images", name, image_id + ".jpg"))
            lines[["train", "test"][int(rng.integers(0, 2))]].append(name + "/" + image_id)
    for usage, listed in lines.items():
        _text(os.path.join(root, "meta", usage + ".txt"), "".join(
            line + "\n" for line in rng.permutation(listed).tolist()) if listed else "")
    _text(os.path.join(root, "meta", "classes.txt"), "\n".join(classes) + "\n")
    return root


def write_sun397(root, case, rng):
    classes = ["/a/abbey", "/b/bakery/shop", "/z/zoo", "/a/airport"]
    chosen = rng.choice(classes, int(rng.integers(1, 4)), replace=False).tolist()
    listed = chosen[1:] if case["fault"] == "class not listed" else chosen
    _text(os.path.join(root, "ClassName.txt"), "".join(name + "\n" for name in listed))
    for name in chosen:
        folder = os.path.join(root, name.lstrip("/"))
        os.makedirs(folder)
        for i in range(int(rng.integers(0, case["rows"] + 1))):
            _image(rng, os.path.join(folder, "sun_%s.jpg" % "abcdefgh"[i]))
        _text(os.path.join(folder, "notes.txt"), "ignored\n")
    return root


LFW_PEOPLE = ["Ann_Lee", "Bo_Ma", "Cé_Dü", "Zed_Q"]


def write_lfw(root, case, rng):
    images = {name: int(rng.integers(1, 4)) for name in LFW_PEOPLE}
    for folder in ("lfw", "lfw_funneled", "lfw-deepfunneled"):
        for name, count in images.items():
            for k in range(1, count + 1):
                _image(rng, os.path.join(root, folder, name, "%s_%04d.jpg" % (name, k)))
    named = LFW_PEOPLE[1:] if case["fault"] == "person not named" else LFW_PEOPLE
    _text(os.path.join(root, "lfw-names.txt"), "".join(
        "%s\t%d\n" % (name, images[name]) for name in named))
    extra = 1 if case["fault"] == "count too big" else 0

    def people():
        chosen = rng.choice(LFW_PEOPLE, int(rng.integers(1, 4)), replace=False).tolist()
        return ["%d" % (len(chosen) + extra)] + ["%s\t%d" % (name, images[name])
                                                   for name in chosen]

    def pairs(count):
        lines = []
        for _ in range(count):
            name = LFW_PEOPLE[int(rng.integers(0, 4))]
            lines.append("%s\t%d\t%d" % (name, int(rng.integers(1, images[name] + 1)),
                                        int(rng.integers(1, images[name] + 1))))
        for _ in range(count):
            one, two = rng.choice(LFW_PEOPLE, 2, replace=False).tolist()
            lines.append("%s\t%d\t%s\t%d" % (one, int(rng.integers(1, images[one] + 1)), two,
                                             int(rng.integers(1, images[two] + 1))))
        return lines

    for suffix in ("DevTrain", "DevTest"):
        _text(os.path.join(root, "people%s.txt" % suffix), "\n".join(people()) + "\n")
        count = int(rng.integers(1, 3))
        _text(os.path.join(root, "pairs%s.txt" % suffix),
              "\n".join(["%d" % (count + extra)] + pairs(count)) + "\n")
    # 10fold: the number of folds first (pairs: and the pairs of each kind in a fold)
    _text(os.path.join(root, "people.txt"),
          "\n".join(["2"] + people() + people()) + "\n")
    count = int(rng.integers(1, 3))
    _text(os.path.join(root, "pairs.txt"),
          "\n".join(["2\t%d" % (count + extra)] + pairs(count) + pairs(count)) + "\n")
    return root


def write_div2k(root, case, rng):
    downgrade, scale = case["kwargs"]["downgrade"], case["kwargs"]["scale"]
    for usage, first in (("train", 1), ("valid", 801)):
        for number in range(first, first + int(rng.integers(1, case["rows"] + 1))):
            _image(rng, os.path.join(root, "DIV2K_%s_HR" % usage, "%04d.png" % number))
            if case["fault"] == "missing lr image" and number == first:
                continue
            if scale == 8:
                lr = os.path.join("DIV2K_%s_LR_x8" % usage, "%04dx8.png" % number)
            elif downgrade in ("bicubic", "unknown"):
                lr = os.path.join("DIV2K_%s_LR_%s" % (usage, downgrade), "X%d" % scale,
                                  "%04dx%d.png" % (number, scale))
            else:
                lr = os.path.join("DIV2K_%s_LR_%s" % (usage, downgrade),
                                  "%04dx4%s.png" % (number, downgrade[0]))
            _image(rng, os.path.join(root, lr))
    return root


def write_lsun(root, case, rng):
    chosen = rng.choice(LSUN_CLASSES[:4], int(rng.integers(1, 4)), replace=False).tolist()
    folders = ["%s_%s" % (name, part) for name in chosen for part in ("train", "val")]
    for folder in folders + ["test"]:
        for i in range(int(rng.integers(0, case["rows"] + 1))):
            _image(rng, os.path.join(root, folder, "%08x.jpg" % int(rng.integers(0, 1 << 30))))
        os.makedirs(os.path.join(root, folder), exist_ok=True)
    return root


def write_flickr(root, case, rng):
    lines = []
    names = ["%d_%s.jpg" % (int(rng.integers(1000, 9999)), tag) for tag in ("a", "b", "ζ")]
    for number, name in enumerate(names[:int(rng.integers(1, 4))]):
        if not (case["fault"] == "missing image" and number == 0):
            _image(rng, os.path.join(root, "images", name))
        for k in range(int(rng.integers(1, 4))):
            caption = ["A dog runs .", "Two people , one ball", "日本 text", "x"][
                int(rng.integers(0, 4))]
            tab = " " if case["fault"] == "no tab" and number == 0 else "\t"
            lines.append("%s#%d%s%s" % (name, k, tab, caption))
        if rng.random() < 0.2:
            lines.append("")
    order = rng.permutation(len(lines)).tolist()
    _text(os.path.join(root, "captions.txt"), "\n".join(lines[k] for k in order) + "\n")
    _text(os.path.join(root, "images", "notes.jpg"), "not an image\n")
    return root


def write_sbu(root, case, rng):
    urls, captions = [], []
    for i in range(case["rows"] + 1):
        url = "http://static.flickr.com/%d/%d_%s.jpg" % (
            int(rng.integers(1000, 9999)), i, "abcdef"[i % 6])
        urls.append(url)
        captions.append(["a photo of a cat ", "the sky  ", "über alles", "x"][i % 4])
        if rng.random() < 0.8:
            name = url[23:].replace("/", "_")
            _image(rng, os.path.join(root, "sbu_images", name))
    os.makedirs(os.path.join(root, "sbu_images"), exist_ok=True)
    if case["fault"] == "captions short":
        captions = captions[:-1]
    _text(os.path.join(root, "SBU_captioned_photo_dataset_urls.txt"), "\n".join(urls) + "\n")
    _text(os.path.join(root, "SBU_captioned_photo_dataset_captions.txt"),
          "\n".join(captions) + "\n")
    return root


def write_photo_tour(root, case, rng):
    from PIL import Image
    folder = os.path.join(root, case["kwargs"]["name"])
    os.makedirs(folder)
    patches = case["rows"] + 3
    sheet = rng.integers(0, 256, (1024, 1024)).astype(np.uint8)
    Image.fromarray(sheet).save(os.path.join(folder, "patches0000.bmp"))
    points = rng.integers(0, 3, patches)
    info = ["%d 0" % point for point in points]
    if case["fault"] == "info line short":
        info[-1] = "%d" % points[-1]
    _text(os.path.join(folder, "info.txt"), "\n".join(info) + "\n")
    matches = []
    for _ in range(case["rows"]):
        one, two = rng.integers(0, patches, 2).tolist()
        matches.append("%d %d 0 %d %d 0 0" % (one, points[one], two, points[two]))
    _text(os.path.join(folder, "m50_100000_100000_0.txt"), "\n".join(matches) + "\n")
    return root


def write_nothing(root, case, rng):
    return root


WRITERS = {"celeba": write_celeba, "svhn": write_svhn, "stl10": write_stl10,
           "fashion_mnist": write_mnist_like, "kmnist": write_mnist_like,
           "emnist": write_mnist_like, "qmnist": write_mnist_like, "usps": write_usps,
           "semeion": write_semeion, "caltech256": write_caltech256,
           "places365": write_places365, "flowers102": write_flowers102, "kitti": write_kitti,
           "wider_face": write_wider_face, "caltech101": write_caltech101,
           "cityscapes": write_cityscapes, "sbd": write_sbd, "omniglot": write_omniglot,
           "food101": write_food101, "sun397": write_sun397, "lfw": write_lfw,
           "div2k": write_div2k, "lsun": write_lsun, "flickr": write_flickr, "sbu": write_sbu,
           "photo_tour": write_photo_tour, "fake_image": write_nothing}


def write_files(case, directory):
    root = os.path.join(directory, case["kind"])
    os.makedirs(root)
    return WRITERS[case["kind"]](root, case, np.random.default_rng(case["seed"]))


# --- building a case and recording its outcomes --------------------------------------------------


def library(name):
    return importlib.import_module("mindspore.dataset" if name == "mindspore" else "minddata")


def build(ds, case, root):
    kwargs = pipelines.source_kwargs(ds, case["kwargs"])
    if case["kind"] == "fake_image":
        return ds.FakeImageDataset(**kwargs)
    if case["kind"] == "flickr":
        return ds.FlickrDataset(os.path.join(root, "images"), os.path.join(root, "captions.txt"),
                                **kwargs)
    return getattr(ds, CLASS_OF[case["kind"]])(root, **kwargs)


# the sources whose get_class_indexing MindSpore 2.10 implements
CLASS_INDEXING = ("flowers102", "lsun")


def drawn(value):
    """A random value as compared: its dtype and shape (FakeImageDataset's values come from
    another generator than MindSpore's, as the README says)."""
    dtype, shape, data = pipelines.plain(value)
    return dtype, shape, None


def run_case(ds, case, directory):
    """[(item, outcome)] of one case, outcomes as the pipeline tool records them."""
    root = write_files(case, directory)
    built = pipelines.attempt(lambda: build(ds, case, root))
    if built[0] == "error":
        return [("build", built)]
    data = built[1]
    plain = drawn if case["kind"] == "fake_image" else pipelines.plain
    tuple_row = lambda row: [plain(v) for v in row]                    # noqa: E731
    dict_row = lambda row: [(k, plain(v)) for k, v in row.items()]    # noqa: E731
    outcomes = [
        ("get_dataset_size", pipelines.attempt(data.get_dataset_size)),
        ("get_col_names", pipelines.attempt(lambda: list(data.get_col_names()))),
        ("output_types", pipelines.attempt(lambda: [np.dtype(t).str
                                                    for t in data.output_types()])),
    ]
    if case["kind"] in CLASS_INDEXING:
        outcomes.append(("get_class_indexing", pipelines.attempt(data.get_class_indexing)))
    outcomes.append(("num_classes", pipelines.attempt(data.num_classes)))
    outcomes += [
        ("tuple iterator", pipelines.attempt(lambda: [tuple_row(row) for row in
                                                      data.create_tuple_iterator(
                                                          num_epochs=1, output_numpy=True)])),
        ("dict iterator", pipelines.attempt(lambda: [dict_row(row) for row in
                                                     data.create_dict_iterator(
                                                         num_epochs=1, output_numpy=True)])),
    ]
    return outcomes


def outcomes(library_name, seed, count, kinds, start=0):
    """Each case's outcomes from case ``start`` on (a generator: a crash loses no case)."""
    warnings.simplefilter("ignore")
    ds = library(library_name)
    for case in cases(seed, count, kinds)[start:]:
        with tempfile.TemporaryDirectory() as directory:
            yield run_case(ds, case, directory)


def reference_outcomes(args):
    """The reference interpreter's outcomes of every case; a case that kills it is recorded as
    a crash and the next run starts after it."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "reference.pkl")
        env = dict(os.environ, GLOG_v="3", PYTHONPATH=os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))) if args.reference == "minddata" else "")
        while len(results) < args.cases:
            done = subprocess.run([args.mindspore_python, os.path.abspath(__file__), "--seed",
                                   str(args.seed), "--cases", str(args.cases), "--kinds",
                                   args.kinds, "--start", str(len(results)), "--emit",
                                   args.reference, path], env=env, stderr=subprocess.DEVNULL)
            with open(path, "rb") as f:
                while True:
                    try:
                        results.append(pickle.load(f))
                    except EOFError:
                        break
            if done.returncode != 0 and len(results) < args.cases:
                results.append([("crash", ("error", "crash", "killed by a signal" if
                                           done.returncode < 0 else "hung (timed out)"))])
    return results


# --- comparing -----------------------------------------------------------------------------------


def classify(case, ours, theirs):
    """(kind, item, why) of a case: its first undocumented difference ("different"), else
    "documented" where every hard difference is, else its first soft one."""
    found = pipelines.case_differences(ours, theirs)
    hard = [difference for difference in found if difference[0] == "different"]
    for kind, item, why in hard:
        if not documented(case, item, ours, theirs):
            return kind, item, why
    if hard:
        return "documented", hard[0][1], documented(case, hard[0][1], ours, theirs)
    return found[0] if found else (None, None, None)


def rows_changed(ours, theirs, item, change):
    """Whether MindSpore's rows of ``item``, each row's values passed through ``change``, are
    ours (dict rows keep their column names)."""
    mine, reference = dict(ours).get(item), dict(theirs).get(item)
    if not (mine and reference and mine[0] == reference[0] == "ok"):
        return False
    changed = []
    for row in reference[1]:
        pairs = item == "dict iterator"
        values = change([value for _, value in row] if pairs else list(row))
        changed.append([(name, value) for (name, _), value in zip(row, values)] if pairs
                       else values)
    return changed == mine[1]


def fields_moved(values):
    """A WIDER FACE row of MindSpore's with its occlusion, pose and invalid columns holding a
    face line's fields 9, 10 and 8, as here (MindSpore: 8, 9, 10; the README's deviation)."""
    if len(values) == 8:
        values[5:] = values[6], values[7], values[5]
    return values


def wider_face_fields_moved(ours, theirs, item):
    return rows_changed(ours, theirs, item, fields_moved)


def each_value(change):
    """A row change that passes each value through ``change(column, value)``."""
    return lambda values: [change(column, value) for column, value in enumerate(values)]


def rows_after(ours, theirs, item, change):
    return rows_changed(ours, theirs, item, each_value(change))


# the sources MindSpore 2.10 reads in Python, decoding images with PIL
PIL_READ = ("flowers102", "caltech101", "sbd")


def rows_alike(ours, theirs, item, alike):
    """Whether both have the same rows of ``item`` but for values ``alike(ours, theirs)``
    says are alike."""
    mine, reference = dict(ours).get(item), dict(theirs).get(item)
    if not (mine and reference and mine[0] == reference[0] == "ok"
            and len(mine[1]) == len(reference[1])):
        return False
    for row, other in zip(mine[1], reference[1]):
        if len(row) != len(other):
            return False
        for value, expected in zip(row, other):
            if item == "dict iterator":
                if value[0] != expected[0]:
                    return False
                value, expected = value[1], expected[1]
            if value != expected and not alike(value, expected):
                return False
    return True


def sixteen_bit_clipped(value, expected):
    """Whether a decoded image differs only where a 16-bit grey value's high byte (here) met
    PIL's clipping to 255 (MindSpore's Python-read sources): theirs 255, or ours 0 (a value
    under 256)."""
    if value[:2] != expected[:2] or value[0] != "|u1" or len(value[1]) != 3:
        return False
    ours, theirs = (np.frombuffer(v[2], np.uint8) for v in (value, expected))
    differ = ours != theirs
    return bool(((theirs[differ] == 255) | (ours[differ] == 0)).all())


def unwrapped_label(column, value):
    """An idx label byte 128-255 as this package reads it (MindSpore 2.10 reads the byte as
    signed: 255 becomes 4294967295)."""
    dtype, shape, data = value
    if dtype == "<u4" and column == 1:
        labels = np.frombuffer(data, "<u4").astype(np.int64)
        wrapped = labels >= 2 ** 32 - 128
        labels[wrapped] -= 2 ** 32 - 256
        return dtype, shape, labels.astype("<u4").tobytes()
    return value


def one_attribute(column, value):
    """MindSpore 2.10's 0-d attr of a CelebA file of one attribute, as (1,) here."""
    dtype, shape, data = value
    return (dtype, (1,), data) if column == 1 and shape == () else value


def documented(case, item, ours, theirs):
    """The README's word for a difference this case may show in ``item``, or None (see the
    README's "Further image datasets" deviations)."""
    kind, kwargs = case["kind"], case["kwargs"]
    mine, reference = dict(ours), dict(theirs)
    rows_items = ("tuple iterator", "dict iterator")
    iteration_fails = all(outcomes.get(label, ("error",))[0] == "error"
                          for outcomes in (mine, reference) for label in rows_items)
    sampler = kwargs.get("sampler", ("",))
    rules = [
        (kind == "places365" and case["fault"] == "label not a number"
         and mine.get(item, ("",))[0] == "error",
         "Places365 refuses a label that is not a number (MindSpore reads 0)"),
        (kind == "lsun" and kwargs.get("usage") == "test"
         and item in ("num_classes", "get_dataset_size") and reference.get(item) == ("ok", 0),
         "LSUNDataset with usage 'test' reports its real size and one class (MindSpore: 0)"),
        (kind in ("caltech101", "flowers102") and item == "num_classes"
         and reference.get(item) == ("ok", None),
         "num_classes() of Caltech101 and Flowers102 counts their classes (MindSpore: None)"),
        (kind == "celeba" and case["fault"] == "short attr line"
         and mine.get(item, ("",))[0] == "error",
         "CelebA refuses an attribute line shorter than the others (MindSpore serves a shorter "
         "attr)"),
        (kind in PIL_READ and kwargs.get("decode") and item in rows_items
         and rows_alike(ours, theirs, item, sixteen_bit_clipped),
         "a 16-bit PNG decodes to its high bytes (MindSpore's sources read through PIL clip it "
         "to 255)"),
        (kind == "wider_face" and case["fault"] == "no annotation file"
         and mine.get(item, ("",))[0] == "error",
         "WIDER FACE refuses a missing annotation file (MindSpore serves the images without "
         "faces)"),
        (kind == "lfw" and case["fault"] == "person not named"
         and mine.get(item, ("",))[0] == "error",
         "LFW refuses a person missing from lfw-names.txt (MindSpore: label 0)"),
        (kind == "usps" and case["fault"] == "pixel out of range" and item in rows_items,
         "USPS pixel values outside [-1, 1] are clipped (MindSpore wraps them: 1.5 -> 62)"),
        (kind == "usps" and case["fault"] == "no trailing blank"
         and reference.get(item, ("",))[0] == "error",
         "a USPS line without a trailing blank is read (MindSpore refuses it: 'the number of "
         "split characters ... should be 257')"),
        (kind == "usps" and "num_shards" in kwargs,
         "USPSDataset shards round-robin, as TextFileDataset here"),
        (kind == "wider_face" and item in rows_items and wider_face_fields_moved(
            ours, theirs, item),
         "WIDER FACE's last three face fields in the readme's order"),
        (kind == "wider_face" and item in rows_items and several_files_a_folder(case) and (
            sampled(kwargs) or same_rows_sorted(ours, theirs, item)),
         "files inside a WIDER FACE event folder are sorted (MindSpore: the file system's "
         "order)"),
        (item in ("get_dataset_size", "get_col_names", "output_types", "num_classes")
         and iteration_fails,
         "an error found at another step (here a damaged file is one as soon as the data is "
         "counted; MindSpore finds a few when the dataset is built, a few when read)"),
        (sampler[0] in ("SubsetSampler", "list")
         and reference.get("get_dataset_size", ("",))[0] == "ok"
         and reference["get_dataset_size"][1] < len(
             sampler[1] if sampler[0] == "list" else sampler[1]["indices"]),
         "SubsetSampler with more indices than rows"),
        (kind in ("flowers102", "photo_tour") and case["fault"]
         and mine.get(item, ("",))[0] == "error",
         "a damaged file is an error (MindSpore: when the damaged row is read, or never)"),
        (item == "get_dataset_size" and (served(mine, mine) or iteration_fails and
                                         mine.get(item) == ("ok", 0))
         and (iteration_fails or served(mine, reference)),
         "get_dataset_size is the rows an epoch serves (MindSpore's may differ)"),
        (kind == "semeion" and case["fault"] and mine.get(item, ("",))[0] == "error",
         "Semeion refuses a short line (MindSpore shifts it) and a line with no class marked "
         "(MindSpore: label 0)"),
        (kind == "svhn" and case["fault"] == "label 11" and mine.get(item, ("",))[0] == "error",
         "SVHN refuses a label outside 1-10 (MindSpore serves 11)"),
        (kind in MNIST_LIKE and item in rows_items and rows_after(
            ours, theirs, item, unwrapped_label),
         "idx label bytes 128-255 are read unsigned (MindSpore: 255 -> 4294967295)"),
        (kind == "celeba" and item in rows_items and rows_after(
            ours, theirs, item, one_attribute),
         "CelebA's attr is (A,) for one attribute too (MindSpore: 0-d)"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def served(sized, iterated):
    """Whether get_dataset_size of outcomes ``sized`` is the number of rows the tuple iterator
    of outcomes ``iterated`` served."""
    size, rows = sized.get("get_dataset_size", ("error",)), iterated.get("tuple iterator",
                                                                         ("error",))
    return size[0] == rows[0] == "ok" and size[1] == len(rows[1])


def sampled(kwargs):
    """Whether a case's source serves a part of its rows (not all, in order)."""
    return any(name in kwargs for name in ("num_samples", "num_shards", "sampler"))


def same_rows_sorted(ours, theirs, item):
    """Whether both served the same rows in some order (with WIDER FACE's last three face
    fields as MindSpore serves them, or moved back as the README's deviation says)."""
    mine, reference = dict(ours).get(item), dict(theirs).get(item)
    if not (mine and reference and mine[0] == reference[0] == "ok"):
        return False

    def values(rows):
        return [[value for _, value in row] if item == "dict iterator" else list(row)
                for row in rows]
    ordered = sorted(map(repr, values(mine[1])))
    return ordered in (sorted(map(repr, values(reference[1]))),
                       sorted(repr(fields_moved(row)) for row in values(reference[1])))


def several_files_a_folder(case):
    """Whether a WIDER FACE case's images hold an event folder of more than one file (written
    again to look)."""
    with tempfile.TemporaryDirectory() as directory:
        root = write_files(case, directory)
        return any(len(files) > 1 for folder, _, files in os.walk(root)
                   if os.path.basename(os.path.dirname(folder)) == "images")


MNIST_LIKE = ("fashion_mnist", "kmnist", "emnist", "qmnist")


def where_rows_differ(ours, theirs, item):
    """The first row and column two ok row lists of ``item`` differ in, with both values."""
    mine, reference = dict(ours).get(item), dict(theirs).get(item)
    if not (mine and reference and mine[0] == reference[0] == "ok"):
        return ""
    if not isinstance(mine[1], list) or not isinstance(reference[1], list):
        return ""
    if len(mine[1]) != len(reference[1]):
        return f" ({len(mine[1])} rows here, {len(reference[1])} in MindSpore)"
    for number, (row, other) in enumerate(zip(mine[1], reference[1])):
        for column, (value, expected) in enumerate(zip(row, other)):
            if value != expected:
                return f" (row {number} column {column}: {short(value)} here, " \
                    f"{short(expected)} in MindSpore)"
    return ""


def short(value):
    """A recorded value, its numbers shown (the first few)."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        return f"{value[0]}: {short(value[1])}"
    dtype, shape, data = value
    if isinstance(data, bytes):
        data = np.frombuffer(data, dtype).ravel()[:12].tolist()
    return f"{dtype} {shape} {str(data)[:120]}"


def describe(case):
    return f"{case['kind']} {case['kwargs']} fault={case['fault']} rows<={case['rows']}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help="comma-separated kinds to draw from (default: all)")
    parser.add_argument("--mindspore-python", default="/work/msvenv/bin/python")
    parser.add_argument("--reference", default="mindspore",
                        help="the library the reference interpreter runs (minddata: a self-check)")
    parser.add_argument("--show-error-types", action="store_true",
                        help="also print the cases where both raise, with other error types")
    parser.add_argument("--show-documented", action="store_true",
                        help="also count the cases each documented deviation explains")
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--emit", nargs=2, metavar=("LIBRARY", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    kinds = tuple(args.kinds.split(","))
    if args.emit:                       # the reference interpreter's part
        with open(args.emit[1], "wb") as f, open(os.devnull, "w") as quiet:
            faulthandler.dump_traceback_later(CASE_TIMEOUT_S, exit=True, file=quiet)
            for outcome in outcomes(args.emit[0], args.seed, args.cases, kinds, args.start):
                pickle.dump(outcome, f)
                f.flush()
                faulthandler.dump_traceback_later(CASE_TIMEOUT_S, exit=True, file=quiet)
        return 0
    reference = reference_outcomes(args)
    ours = outcomes("minddata", args.seed, args.cases, kinds)
    counts, reasons = {}, {}
    for number, (case, mine, theirs) in enumerate(zip(cases(args.seed, args.cases, kinds), ours,
                                                      reference)):
        kind, item, why = classify(case, mine, theirs)
        kind = kind or "same"
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "documented":
            reasons[why] = reasons.get(why, 0) + 1
        if kind in ("different", "MindSpore crashed") or (kind == "error type"
                                                           and args.show_error_types):
            detail = where_rows_differ(mine, theirs, item) if kind == "different" else ""
            print(f"case {number}: {describe(case)}\n    {item}: {why[:300]}{detail}",
                  flush=True)
    print(f"{args.cases} sources, seed {args.seed}: " + ", ".join(
        f"{counts.get(k, 0)} {k}" for k in ("same", "documented", "error type", "error elsewhere",
                                            "MindSpore crashed", "different")))
    if args.show_documented:
        for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
            print(f"    documented {count}: {reason}")
    return 1 if counts.get("different") else 0


if __name__ == "__main__":
    sys.exit(main())
