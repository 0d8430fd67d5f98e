"""What the recipes of tools/zoo_pipelines_vs_mindspore.py share: the data their files are made
of (numpy and Pillow only: MindSpore's interpreter imports these modules too, never this
package), the draws every case makes, the case being built in one library (Context: its
modules, its folder, its MindRecord files written by the library's own FileWriter, its Python
maps, the first of which carries the case's mistake), the scripts' own epoch-seeded sampler,
and the end every script gives its pipeline (batch, repeat)."""
import io
import math
import os
import zlib

import numpy as np

MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]
MISTAKES = ("unknown column", "outputs short")


# --- data a case's files are made of --------------------------------------------------------


def pixels(rng, height, width, channels=3):
    """A uint8 image: a gradient with noise (JPEG keeps some of its detail)."""
    ramp = np.add.outer(np.arange(height) * 7, np.arange(width) * 5)[..., None]
    noise = rng.randint(0, 90, (height, width, channels))
    image = (ramp + noise + rng.randint(0, 255, channels)) % 256
    return image.astype(np.uint8) if channels > 1 else image[..., 0].astype(np.uint8)


#: the crc32 of every file encoded for the case being built: the tool compares them, so a
#: difference in the inputs (another Pillow) is not taken for one in the pipelines
ENCODED = []


def encoded(image, fmt):
    from PIL import Image
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, fmt, **({"quality": 90} if fmt == "JPEG" else {}))
    ENCODED.append(zlib.crc32(buffer.getvalue()))
    return buffer.getvalue()


def random_boxes(rng, height, width, count, classes=3):
    """[[x1, y1, x2, y2, class]] inside an image of height x width."""
    boxes = []
    for _ in range(count):
        x1, y1 = rng.randint(0, width // 2), rng.randint(0, height // 2)
        boxes.append([x1, y1, x1 + rng.randint(2, width // 2 + 1),
                      y1 + rng.randint(2, height // 2 + 1), rng.randint(0, classes)])
    return boxes


def row_random(*values):
    """The RandomState of a row: seeded by its values' bytes, so any worker draws the same."""
    data = b"".join(np.ascontiguousarray(value).tobytes() for value in values)
    return np.random.RandomState(zlib.crc32(data))


def nearest(image, height, width):
    """``image`` resized to height x width by nearest neighbour (numpy only: the scripts'
    cv2.resize would make the result depend on OpenCV's version)."""
    rows = np.arange(height) * image.shape[0] // height
    cols = np.arange(width) * image.shape[1] // width
    return image[rows][:, cols]


def one_hot(mask, classes):
    return (np.arange(classes) == mask[..., None]).astype(np.float32).transpose(2, 0, 1)


def padded(rows, count, width, dtype=np.float32):
    """``rows`` (a list of lists) as a (count, width) array, cut or padded with zeros."""
    out = np.zeros((count, width), dtype)
    for i, row in enumerate(rows[:count]):
        out[i, :len(row)] = row[:width]
    return out


# --- what every case draws ------------------------------------------------------------------


def common(r, mistakes=MISTAKES):
    case = {"seed": r.randrange(1 << 30), "rows": r.randint(2, 9), "batch": r.randint(1, 4),
            "drop": r.random() < 0.5, "workers": r.choice([1, 2]), "epochs": r.choice([1, 2]),
            "train": r.random() < 0.6, "processes": r.random() < 0.3, "repeat": None,
            "mistake": r.choice(mistakes) if mistakes and r.random() < 0.08 else None,
            "tolerance": {}}
    if r.random() < 0.3:
        count = r.choice([2, 3])
        case["shards"] = [count, r.randrange(count)]
    if r.random() < 0.25:
        case["repeat"] = r.choice([1, 2])
    return case


def shard_kwargs(case):
    return {"num_shards": case["shards"][0], "shard_id": case["shards"][1]} \
        if case.get("shards") else {}


class Context:
    """A case being built in one library: its modules, its files' folder, and the Python maps
    it has made (the first one carries the case's mistake, if it has one)."""

    def __init__(self, library, case, directory):
        self.lib, self.case, self.directory = library, case, directory
        self.ds, self.vision = library.ds, library.vision
        self.spoiled = False

    def pymap(self, data, operations, input_columns, output_columns=None, **kwargs):
        """``data.map`` of a Python function with several columns, as the scripts call it."""
        mistake = None if self.spoiled else self.case["mistake"]
        self.spoiled = True
        if mistake == "unknown column":
            input_columns = list(input_columns) + ["no_such_column"]
        elif mistake == "outputs short" and output_columns:
            output_columns = output_columns[:-1]
        return data.map(operations=operations, input_columns=input_columns,
                        output_columns=output_columns, **kwargs)

    def path(self, *names):
        return os.path.join(self.directory, *names)

    def write_mindrecord(self, name, schema, rows, shard_num=1):
        """The file (the first of ``shard_num``) the library's FileWriter writes ``rows`` to."""
        path = self.path(name)
        writer = self.lib.FileWriter(path, shard_num)
        writer.add_schema(schema, name.split(".")[0])
        # a row at a time, as the scripts write them; into several files, a row per file at a
        # time: MindSpore gives the rows of a call that do not divide evenly to files it draws
        # at random (the README's writer table), so the files' order would be a random draw
        for start in range(0, len(rows), shard_num):
            writer.write_raw_data(rows[start:start + shard_num])
        writer.commit()
        return path + "0" if shard_num > 1 else path

    def image_folder(self, images, classes, fmt):
        root = self.path("images")
        for i, image in enumerate(images):
            folder = os.path.join(root, "class%d" % (i % classes))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "%03d.%s" % (i, fmt.lower())), "wb") as f:
                f.write(encoded(image, fmt))
        return root


class EpochSeededSampler:
    """The samplers YOLO and OpenPose scripts write: every rank's share of the rows, padded to
    be even, in an order drawn again each epoch from a seed that counts the epochs."""

    def __init__(self, size, replicas, rank, shuffle, global_seed=False):
        self.size, self.replicas, self.rank = size, replicas, rank
        self.shuffle, self.global_seed, self.epoch = shuffle, global_seed, 0
        self.num_samples = int(math.ceil(size / replicas))

    def __iter__(self):
        indices = list(range(self.size))
        if self.shuffle and self.global_seed:      # OpenPose's: the global numpy seed
            self.epoch = (self.epoch + 1) & 0xffffffff
            np.random.seed(self.epoch)
            indices = np.random.permutation(self.size).tolist()
        elif self.shuffle:                          # YOLO's: a RandomState of the epoch
            indices = np.random.RandomState(seed=self.epoch).permutation(self.size).tolist()
            self.epoch += 1
        indices += indices[:self.num_samples * self.replicas - len(indices)]
        return iter(indices[self.rank::self.replicas])

    def __len__(self):
        return self.num_samples


def epoch_sampler(r, case):
    replicas = case["shards"][0] if case.get("shards") else 1
    return {"replicas": replicas, "rank": case["shards"][1] if replicas > 1 else 0,
            "shuffle": r.random() < 0.6}


def draw_color(r):
    """One of RandomColorAdjust's adjustments with a range of one value: it applies its
    adjustments in a random order (MindSpore too), so two of them are not a fixed draw."""
    return [r.choice(["brightness", "contrast", "saturation"]), r.choice([0.7, 0.9, 1.0, 1.2])]


def color_adjust(vision, color):
    kind, factor = color
    return vision.RandomColorAdjust(**{kind: (factor, factor)})


def classification_label(context, data):
    return data.map(operations=context.lib.transforms.TypeCast(context.lib.mstype.int32),
                    input_columns="label", num_parallel_workers=context.case["workers"])


def finish(context, data, **batch_kwargs):
    """batch and repeat as the scripts end (a take before, as some take a part to try)."""
    case = context.case
    if case.get("take"):
        data = data.take(case["take"])
    data = data.batch(case["batch"], drop_remainder=case["drop"], **batch_kwargs)
    return data.repeat(case["repeat"]) if case["repeat"] else data
