"""Sources over dataset files for tools/pipelines_vs_mindspore.py: MNIST idx files, CIFAR-10
and CIFAR-100 binary batches, a Manifest file, a VOC tree and a COCO annotation file (task
Detection). A case holds only numbers drawn from its seed; each interpreter writes the files
from them the same way (numpy and Pillow only: MindSpore's interpreter imports this module
too), so both read the same bytes."""
import io
import json
import os

import numpy as np

CLASSES = ["ant", "bee", "cat"]


def _pixels(seed, count, shape):
    return np.random.default_rng(seed).integers(0, 256, (count,) + shape).astype(np.uint8)


def _png(pixels):
    from PIL import Image
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG")
    return buffer.getvalue()


def _sampling(r, rows, shards, sampler):
    """shuffle=False with one of: shards, a sampler, num_samples, shuffle=True (rows compared
    sorted), shuffle=True with num_samples (only the row count compared), or nothing."""
    kwargs = {"shuffle": False}
    choice = r.random()
    if choice < 0.2:
        kwargs.update(shards(r))
    elif choice < 0.4:
        kwargs["sampler"] = sampler(r, rows, ("sequential", "subset", "distributed"))
        del kwargs["shuffle"]
    elif choice < 0.55:
        kwargs["num_samples"] = r.randint(1, rows + 2)
    elif choice < 0.7:
        kwargs["shuffle"] = True
        if r.random() < 0.4:
            kwargs["num_samples"] = r.randint(1, rows + 2)
    return kwargs


# MindSpore 2.10 reads only whole CIFAR batch files (10,000 records; this package takes any
# number, as the README says), so a CIFAR source always serves a few of them
CIFAR_RECORDS = 10000


def _few_cifar_rows(r, shards):
    """Sampling that serves at most a few rows of a CIFAR file."""
    kwargs = {"shuffle": r.random() < 0.2, "num_samples": r.randint(1, 6)}
    choice = r.random()
    if choice < 0.25:
        kwargs.update(shards(r))
    elif choice < 0.5:
        del kwargs["shuffle"], kwargs["num_samples"]
        kwargs["sampler"] = r.choice([
            ("SequentialSampler", {"start_index": r.choice([0, 2, 9998]),
                                   "num_samples": r.randint(1, 5)}),
            ("SubsetSampler", {"indices": [r.randrange(CIFAR_RECORDS) for _ in range(3)]}),
            ("DistributedSampler", dict(shards(r), shuffle=False, num_samples=r.randint(1, 4)))])
    return kwargs


def file_source(r, shards, sampler):
    """A case's source over files: {"kind", "seed", "rows", "kwargs", ...}."""
    kind = r.choice(["mnist", "cifar10", "cifar100", "manifest", "voc", "coco"])
    rows = CIFAR_RECORDS if kind.startswith("cifar") else r.randint(1, 6)
    spec = {"kind": kind, "seed": r.randrange(1 << 30), "rows": rows,
            "kwargs": _few_cifar_rows(r, shards) if kind.startswith("cifar")
            else _sampling(r, rows, shards, sampler)}
    if kind in ("manifest", "voc", "coco"):
        spec["kwargs"]["decode"] = r.choice([False, True])
    if kind == "mnist":
        spec["kwargs"]["usage"] = r.choice(["train", "all"])
    elif kind.startswith("cifar"):      # a file of 10,000 records for usage "test"
        spec["kwargs"]["usage"] = r.choice(["test", "all"])
    return spec


FILE_KINDS = ("mnist", "cifar10", "cifar100", "manifest", "voc", "coco")


def unordered(spec):
    """Whether the source serves its rows in a random order (they are compared sorted)."""
    return spec["kind"] in FILE_KINDS and spec["kwargs"].get("shuffle") is True


def partial_random(spec):
    """Whether the source serves a random subset of its rows (only their count compared)."""
    return unordered(spec) and spec["kwargs"].get("num_samples") is not None


def labels(spec, classes):
    return np.random.default_rng(spec["seed"] + 1).integers(0, classes, spec["rows"])


def write_mnist(directory, spec):
    images, marks = _pixels(spec["seed"], spec["rows"], (28, 28)), labels(spec, 10)
    with open(os.path.join(directory, "train-images-idx3-ubyte"), "wb") as f:
        f.write(np.array([2051, spec["rows"], 28, 28], ">u4").tobytes() + images.tobytes())
    with open(os.path.join(directory, "train-labels-idx1-ubyte"), "wb") as f:
        f.write(np.array([2049, spec["rows"]], ">u4").tobytes() + marks.astype(np.uint8).tobytes())
    return directory


def write_cifar(directory, spec, fine):
    # 64 distinct images over and over: whole files, written fast
    images = np.resize(_pixels(spec["seed"], 64, (3 * 32 * 32,)), (spec["rows"], 3 * 32 * 32))
    columns = [labels(spec, 10 if not fine else 20)[:, None]]
    if fine:
        columns.append(labels(dict(spec, seed=spec["seed"] + 7), 100)[:, None])
    records = np.concatenate([c.astype(np.uint8) for c in columns] + [images], axis=1)
    name = "test.bin" if fine else "test_batch.bin"
    with open(os.path.join(directory, name), "wb") as f:
        f.write(records.tobytes())
    return directory


def _image_files(directory, spec):
    """[(path, class name, height, width)] of the rows' PNG images written under directory."""
    rng = np.random.default_rng(spec["seed"])
    os.makedirs(os.path.join(directory, "JPEGImages"), exist_ok=True)
    written = []
    for i in range(spec["rows"]):
        height, width = int(rng.integers(4, 9)), int(rng.integers(4, 9))
        path = os.path.join(directory, "JPEGImages", "img%d.png" % i)
        with open(path, "wb") as f:
            f.write(_png(rng.integers(0, 256, (height, width, 3)).astype(np.uint8)))
        written.append((path, CLASSES[int(rng.integers(0, len(CLASSES)))], height, width))
    return written


def write_manifest(directory, spec):
    path = os.path.join(directory, "data.manifest")
    with open(path, "w") as f:
        for image, name, _, _ in _image_files(directory, spec):
            f.write(json.dumps({"source": image, "usage": "train",
                                "annotation": [{"type": "label", "name": name}]}) + "\n")
    return path


def write_voc(directory, spec):
    os.makedirs(os.path.join(directory, "Annotations"))
    os.makedirs(os.path.join(directory, "ImageSets", "Main"))
    names = []
    for i, (_, name, height, width) in enumerate(_image_files(directory, spec)):
        os.rename(os.path.join(directory, "JPEGImages", "img%d.png" % i),
                  os.path.join(directory, "JPEGImages", "img%d.jpg" % i))
        names.append("img%d" % i)
        box = "".join("<%s>%d</%s>" % (k, v, k) for k, v in (
            ("xmin", 1), ("ymin", 1), ("xmax", width - 1), ("ymax", height - 1)))
        with open(os.path.join(directory, "Annotations", "img%d.xml" % i), "w") as f:
            f.write("<annotation><filename>img%d.jpg</filename><size><width>%d</width><height>"
                    "%d</height><depth>3</depth></size><object><name>%s</name><difficult>%d"
                    "</difficult><truncated>0</truncated><bndbox>%s</bndbox></object>"
                    "</annotation>" % (i, width, height, name, i % 2, box))
    with open(os.path.join(directory, "ImageSets", "Main", "train.txt"), "w") as f:
        f.write("".join(name + "\n" for name in names))
    return directory


def write_coco(directory, spec):
    images, annotations = [], []
    for i, (path, name, height, width) in enumerate(_image_files(directory, spec)):
        images.append({"id": i, "file_name": os.path.basename(path), "height": height,
                       "width": width})
        annotations.append({"id": i, "image_id": i, "category_id": CLASSES.index(name) + 1,
                            "bbox": [1, 1, width - 2, height - 2], "iscrowd": i % 2,
                            "area": (width - 2) * (height - 2)})
    path = os.path.join(directory, "annotations.json")
    with open(path, "w") as f:
        json.dump({"images": images, "annotations": annotations, "categories": [
            {"id": i + 1, "name": name} for i, name in enumerate(CLASSES)]}, f)
    return os.path.join(directory, "JPEGImages"), path


def build_file_source(ds, spec, directory, kwargs):
    """The source of a file_source spec, its files written under ``directory`` once."""
    root = os.path.join(directory, spec["kind"])
    fresh = not os.path.exists(root)
    if fresh:
        os.makedirs(root)
    kind = spec["kind"]
    if kind == "mnist":
        return ds.MnistDataset(write_mnist(root, spec) if fresh else root, **kwargs)
    if kind in ("cifar10", "cifar100"):
        fine = kind == "cifar100"
        folder = write_cifar(root, spec, fine) if fresh else root
        return (ds.Cifar100Dataset if fine else ds.Cifar10Dataset)(folder, **kwargs)
    if kind == "manifest":
        path = write_manifest(root, spec) if fresh else os.path.join(root, "data.manifest")
        return ds.ManifestDataset(path, **kwargs)
    if kind == "voc":
        return ds.VOCDataset(write_voc(root, spec) if fresh else root, task="Detection",
                             usage="train", **kwargs)
    images, annotations = write_coco(root, spec) if fresh else (
        os.path.join(root, "JPEGImages"), os.path.join(root, "annotations.json"))
    return ds.CocoDataset(images, annotations, task="Detection", **kwargs)
