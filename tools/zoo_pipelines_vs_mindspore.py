"""The dataset pipelines of MindSpore model-zoo training scripts against MindSpore 2.10, on
tiny generated data.

Each case is one of the scripts' ``create_dataset`` functions, written again with the same API
calls used the same way (tools/zoo_recipes_for_differential.py, zoo_detection_recipes.py and
zoo_data_for_differential.py; never the scripts' code): ResNet's and MobileNetV2's over
ImageFolder (EfficientNet's PIL path and one-hot labels too) and ResNet's over CIFAR-10;
SSD's, FasterRCNN's and MaskRCNN's over MindRecord files; YOLOv3's (a per_batch_map of 8
columns and a BatchInfo) and YOLOv5's (a source in worker processes, maps of several columns
to others, project) over a Python source with the script's own sampler; RetinaFace's (a str
column, three Python maps); DeepLabV3's over MindRecord; UNet's (NumpySlicesDataset, zip,
project; or a GeneratorDataset of a class); CRNN's (labels of their own lengths through
padded_batch or a per_batch_map adding a column); OpenPose's (keypoints made into heatmaps);
Transformer's (a MindRecord file per bucket of sequence lengths, cast column by column,
batched, concatenated with ``+``). Each is drawn with random sizes, batch sizes, workers,
threads or processes, shards, optional steps, and now and then a mistake (an unknown input
column, one output name short, images of several sizes batched), and with every draw fixed
(probabilities of 0 or 1, ranges of one value, one colour adjustment at a time, the scripts'
augmentations seeded by the row, MindRecord files written a row per shard file at a time).
The files are written by each library's own FileWriter, the images by Pillow in each
interpreter (their bytes compared as "inputs"). The same cases run here and in MindSpore's own
interpreter (``--mindspore-python``) and are compared item by item: where each raises and the
error's type, the column names, the dataset size, every batch of every epoch of a dict
iterator made for 1 or 2 epochs and of one more epoch of a tuple iterator (column names,
dtype, shape and values; a float column an interpolating resize fed, within one uint8 level
or float rounding, is counted apart as "within tolerance"). Counted apart too: differences the
README documents ("documented"), errors of other types ("error type") or at another step
("error elsewhere"), and cases that kill or hang MindSpore's interpreter ("MindSpore
crashed").

    .venv/bin/python tools/zoo_pipelines_vs_mindspore.py [--seed 1] [--cases 100]
        [--mindspore-python /work/msvenv/bin/python] [--show-error-types]
        [--show-documented] [--case N ...]

Prints each undocumented difference and a count per outcome; exits 1 if there is one. The
MindSpore interpreter runs this file alone (numpy and Pillow only: it never imports this
package).
"""
import importlib
import os
import random
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))     # its siblings, in both
import differential_reference                                        # noqa: E402
import pipelines_vs_mindspore as pipelines                          # noqa: E402
import zoo_recipes_for_differential as recipes                      # noqa: E402

CASE_TIMEOUT_S = 60         # a case of the reference interpreter that runs longer hangs
#: the ds.config settings the scripts change, restored after each case
SETTINGS = ("prefetch_size", "enable_shared_mem", "seed")


def cases(seed, count):
    r = random.Random(seed)
    return [recipes.random_case(r) for _ in range(count)]


class Library:
    """The modules a script imports: ``mindspore``'s or this package's."""

    def __init__(self, name):
        ours = name != "mindspore"
        self.ds = importlib.import_module("minddata" if ours else "mindspore.dataset")
        self.vision = importlib.import_module("minddata.vision" if ours
                                              else "mindspore.dataset.vision")
        self.transforms = importlib.import_module("minddata.transforms" if ours
                                                  else "mindspore.dataset.transforms")
        self.mstype = importlib.import_module("minddata.mstype" if ours
                                              else "mindspore.common.dtype")
        self.FileWriter = importlib.import_module("mindrecord" if ours
                                                  else "mindspore.mindrecord").FileWriter


# --- running a case in one library --------------------------------------------------------------


def read_epochs(data, epochs):
    """Every batch of ``epochs`` epochs of a dict iterator made for them: [(column, value)]."""
    iterator = data.create_dict_iterator(num_epochs=epochs, output_numpy=True)
    return [[[(name, pipelines.plain(value)) for name, value in batch.items()]
             for batch in iterator] for _ in range(epochs)]


def read_tuples(data):
    """The batches of one more epoch, of a tuple iterator (named by get_col_names): samplers
    that count their epochs go on counting."""
    names = data.get_col_names()
    return [[list(zip(names, map(pipelines.plain, batch)))
             for batch in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]]


def run_case(library, case):
    """[(item, outcome)]: "inputs" (the encoded files' crc32s), "build", "get_col_names",
    "get_dataset_size", "dict iterator" (every epoch) and "tuple iterator" (one more)."""
    config = library.ds.config
    saved = {name: getattr(config, "get_" + name)() for name in SETTINGS}
    recipes.ENCODED.clear()
    try:
        with tempfile.TemporaryDirectory() as directory:
            built = pipelines.attempt(lambda: recipes.build(library, case, directory))
            found = [("inputs", ("ok", list(recipes.ENCODED))), ("build", (
                "ok", None) if built[0] == "ok" else built)]
            if built[0] == "error":
                return found
            data = built[1]
            return found + [
                ("get_col_names", pipelines.attempt(lambda: list(data.get_col_names()))),
                ("get_dataset_size", pipelines.attempt(data.get_dataset_size)),
                ("dict iterator", pipelines.attempt(lambda: read_epochs(data, case["epochs"]))),
                ("tuple iterator", pipelines.attempt(lambda: read_tuples(data)))]
    finally:
        for name, value in saved.items():
            getattr(config, "set_" + name)(value)


outcomes = differential_reference.case_by_case(Library, cases, run_case)


# --- comparing ----------------------------------------------------------------------------------

ROWS = ("dict iterator", "tuple iterator")
ITEMS = ("inputs", "build", "get_col_names", "get_dataset_size") + ROWS


def as_array(value):
    dtype, shape, data = value
    return np.array(data) if dtype in ("str", "bytes") else \
        np.frombuffer(data, np.dtype(dtype)).reshape(shape)


def epochs_difference(ours, theirs, tolerance):
    """(kind, why) of two runs' epochs: None where they are the same, "within tolerance" where
    only columns of ``tolerance`` ({column: largest difference}) differ, and by no more."""
    if len(ours) != len(theirs):
        return "different", f"{len(ours)} epochs here, {len(theirs)} in MindSpore"
    largest = 0.0
    for e, (mine, reference) in enumerate(zip(ours, theirs)):
        if len(mine) != len(reference):
            return "different", f"epoch {e}: {len(mine)} batches here, {len(reference)} in " \
                f"MindSpore"
        for b, (batch, other) in enumerate(zip(mine, reference)):
            where = f"epoch {e} batch {b}"
            names, other_names = [n for n, _ in batch], [n for n, _ in other]
            if names != other_names:
                return "different", f"{where}: columns {names} here, {other_names} in MindSpore"
            for (name, value), (_, expected) in zip(batch, other):
                if value == expected:
                    continue
                if value[:2] != expected[:2]:
                    return "different", f"{where} column {name}: {value[:2]} here, " \
                        f"{expected[:2]} in MindSpore"
                gap = np.abs(as_array(value).astype(np.float64) - as_array(
                    expected).astype(np.float64)).max()
                if name not in tolerance or not gap <= tolerance[name]:
                    return "different", f"{where} column {name} {value[0]}{list(value[1])}: " \
                        f"largest difference {gap:.6g}"
                largest = max(largest, gap)
    return ("within tolerance", f"largest difference {largest:.6g}") if largest else (None, None)


def case_differences(case, ours, theirs):
    """[(kind, item, why)] of every item two outcomes differ in, hard ones first. A side that
    failed when built stands for that error in the later items."""
    if theirs[0][0] == "crash":
        return [("MindSpore crashed", "crash", theirs[0][1][2])]
    mine, reference = dict(ours), dict(theirs)
    labels = [label for label in ITEMS if label in mine or label in reference]
    mine = {label: mine.get(label, mine.get("build")) for label in labels}
    reference = {label: reference.get(label, reference.get("build")) for label in labels}

    def difference(ours, theirs):
        if ours[0] == theirs[0] == "ok" and isinstance(ours[1], list) and ours[1] and \
                isinstance(ours[1][0], list) and ours[1] != theirs[1]:
            return epochs_difference(ours[1], theirs[1], case["tolerance"])
        return pipelines.difference(ours, theirs)

    found = differential_reference.item_differences(
        [(label, mine[label], reference[label]) for label in labels], ROWS, difference,
        keep=("inputs",))
    order = ("different", "error type", "error elsewhere", "within tolerance")
    return sorted(found, key=lambda item: order.index(item[0]))


def classify(case, ours, theirs):
    return differential_reference.first_undocumented(
        case, ours, theirs, case_differences(case, ours, theirs), documented)


def documented(case, item, ours, theirs):
    """The README's word for a difference in ``item``, or None (the image transforms' and the
    dataset API's "Deviations from MindSpore")."""
    failed = str(dict(theirs).get(item, dict(theirs).get("build")))
    rules = [
        ("There are no samples in the dataset number" in failed,
         "a pipeline with no rows iterates as empty: a concat with a dataset of no batches too "
         "(MindSpore 2.10: ValueError)"),
        (item in ROWS and case["recipe"] == "imagenet" and case["train"] and not case["pil"]
         and -(-case["height"] // 2) >= case["size"] and -(-case["width"] // 2) >= case["size"],
         "approximate (DCT-scaled) decode inside random crop ops, on by default: "
         "RandomCropDecodeResize (or RandomResizedCrop after Decode) of a window at least twice "
         "the output decodes it at 1/2 scale or less"),
    ]
    return next((reason for applies, reason in rules if applies), None)


def describe(case, limit=400):
    shown = {key: value for key, value in case.items()
             if key not in ("recipe", "seed", "tolerance") and value not in (None, False)}
    text = f"{case['recipe']} (seed {case['seed']}) {shown}"
    return text[:limit]


def main():
    return differential_reference.run_tool(
        __doc__.split("\n\n")[0], 100, __file__, cases, outcomes, classify, describe,
        CASE_TIMEOUT_S, soft=("error type", "error elsewhere", "within tolerance"))


if __name__ == "__main__":
    sys.exit(main())
