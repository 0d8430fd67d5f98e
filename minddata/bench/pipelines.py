"""Pipelines ``minddata-bench`` runs: the named standard ones, or one described in a small YAML
or JSON file.

Standard pipelines (the workloads of ../shared/tools/README.md):

* ``raw-read``: the source alone, no transforms, no batch (rows/s of reading).
* ``imagenet-train``: Decode, RandomResizedCrop(224), RandomHorizontalFlip, Normalize, HWC2CHW,
  batch 128 (drop remainder).
* ``imagenet-eval``: Decode, Resize(256), CenterCrop(224), Normalize, HWC2CHW, batch 128.
* ``cifar-train``: Decode, RandomCrop(32, padding 4), RandomHorizontalFlip, Normalize, HWC2CHW,
  batch 256.

A pipeline file::

    name: my-train                       # optional
    source:                              # optional when DATA is given on the command line
      type: MindDataset                  # any minddata source class
      args: {dataset_files: data.mindrecord, columns_list: [image, label]}
    stages:                              # applied in order; each is one Dataset method
      - map:
          input_columns: [image]
          operations: [Decode, {RandomResizedCrop: {size: 224}}, RandomHorizontalFlip]
      - batch: {batch_size: 64, drop_remainder: true}

An operation is a name (constructed without arguments), ``{Name: {kwargs}}`` or
``{Name: [args]}``, looked up in the vision ops, then in the generic transforms.

Every builder takes ``framework``: ``"minddata"`` or ``"mindspore"`` (the same pipeline through
``mindspore.dataset``, for ``minddata-bench --mindspore-python``, which runs this file in
MindSpore's interpreter: it imports nothing of minddata at module level).
"""
import importlib
import json
import os

STANDARD = ("imagenet-train", "imagenet-eval", "cifar-train", "raw-read")
IMAGENET_MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
IMAGENET_STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]
CIFAR_MEAN = [0.4914 * 255, 0.4822 * 255, 0.4465 * 255]
CIFAR_STD = [0.2470 * 255, 0.2435 * 255, 0.2616 * 255]
_STAGE_METHODS = ("map", "batch", "shuffle", "repeat", "project", "rename", "take", "skip",
                  "filter", "padded_batch")


def _first_module(names):
    errors = []
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError as exc:
            errors.append(f"{name}: {exc}")
    raise ImportError("none of these modules can be imported: " + "; ".join(errors))


_MODULES = {
    "minddata": {"dataset": ("minddata",),
                 "vision": ("minddata.vision.c_transforms", "minddata.vision",
                            "transforms_c.vision"),
                 "generic": ("minddata.transforms.c_transforms", "minddata.transforms",
                             "transforms_c.transforms")},
    "mindspore": {"dataset": ("mindspore.dataset",),
                  "vision": ("mindspore.dataset.vision",),
                  "generic": ("mindspore.dataset.transforms",)},
}


def _framework_module(framework, kind):
    if framework not in _MODULES:
        raise ValueError(f"framework must be one of {sorted(_MODULES)}, got {framework!r}")
    return _first_module(_MODULES[framework][kind])


def dataset_api(framework="minddata"):
    """The dataset module: ``minddata`` or ``mindspore.dataset``."""
    return _framework_module(framework, "dataset")


def vision_ops(framework="minddata"):
    return _framework_module(framework, "vision")


def generic_ops(framework="minddata"):
    return _framework_module(framework, "generic")


def open_source(data, workers, shuffle=False, framework="minddata"):
    """(dataset, image column) over an image folder (directory) or a MindRecord file."""
    ds = dataset_api(framework)
    if not os.path.exists(data):
        raise ValueError(f"data {data} does not exist")
    if os.path.isdir(data):
        return ds.ImageFolderDataset(data, num_parallel_workers=workers, shuffle=shuffle), \
            "image"
    probe = ds.MindDataset(data)
    cols = probe.get_col_names()
    image = "image" if "image" in cols else "data" if "data" in cols else None
    if image is None:
        raise ValueError(f"{data}: no 'image' or 'data' column to decode (columns {cols})")
    columns = [image] + (["label"] if "label" in cols else [])
    return ds.MindDataset(data, columns_list=columns, num_parallel_workers=workers,
                          shuffle=shuffle), image


def build_standard(name, data, workers, batch_size=None, framework="minddata"):
    """The dataset for standard pipeline ``name`` over ``data``."""
    if name not in STANDARD:
        raise ValueError(f"unknown pipeline {name!r}: expected one of {', '.join(STANDARD)} "
                         "or a .yaml/.json file")
    if name == "raw-read":
        dataset, _ = open_source(data, workers, shuffle=False, framework=framework)
        return dataset.batch(batch_size) if batch_size else dataset
    v = vision_ops(framework)
    train = name.endswith("train")
    dataset, image = open_source(data, workers, shuffle=None if train else False,
                                 framework=framework)
    if name == "imagenet-train":
        ops = [v.Decode(), v.RandomResizedCrop(224), v.RandomHorizontalFlip(),
               v.Normalize(IMAGENET_MEAN, IMAGENET_STD), v.HWC2CHW()]
    elif name == "imagenet-eval":
        ops = [v.Decode(), v.Resize(256), v.CenterCrop(224),
               v.Normalize(IMAGENET_MEAN, IMAGENET_STD), v.HWC2CHW()]
    else:
        ops = [v.Decode(), v.RandomCrop(32, [4, 4, 4, 4]), v.RandomHorizontalFlip(),
               v.Normalize(CIFAR_MEAN, CIFAR_STD), v.HWC2CHW()]
    dataset = dataset.map(ops, input_columns=[image], num_parallel_workers=workers)
    default_batch = 256 if name == "cifar-train" else 128
    return dataset.batch(batch_size or default_batch, drop_remainder=train)


def load_pipeline_file(path):
    """The pipeline description in a .yaml/.yml/.json file, checked for shape."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise ValueError(f"pipeline file {path}: cannot read: {exc}") from None
    try:
        if path.endswith(".json"):
            spec = json.loads(text)
        else:
            import yaml
            spec = yaml.safe_load(text)
    except Exception as exc:   # noqa: BLE001 - YAML/JSON syntax errors of any kind
        raise ValueError(f"pipeline file {path}: not valid YAML/JSON: {exc}") from None
    if not isinstance(spec, dict):
        raise ValueError(f"pipeline file {path}: expected a mapping at the top level")
    unknown = set(spec) - {"name", "source", "stages"}
    if unknown:
        raise ValueError(f"pipeline file {path}: unknown keys {sorted(unknown)} "
                         "(expected name, source, stages)")
    if not isinstance(spec.get("stages", []), list):
        raise ValueError(f"pipeline file {path}: 'stages' must be a list")
    return spec


def make_operation(entry, where, framework="minddata"):
    """An op object from ``"Name"``, ``{"Name": {kwargs}}`` or ``{"Name": [args]}``."""
    if isinstance(entry, str):
        name, args, kwargs = entry, [], {}
    elif isinstance(entry, dict) and len(entry) == 1:
        name, params = next(iter(entry.items()))
        args, kwargs = ([], params) if isinstance(params, dict) else \
            (list(params) if isinstance(params, list) else [params], {})
    else:
        raise ValueError(f"{where}: an operation must be a name or a one-key mapping, "
                         f"got {entry!r}")
    for module in (vision_ops, generic_ops):
        try:
            cls = getattr(module(framework), name, None)
        except ImportError:
            cls = None
        if cls is not None:
            try:
                return cls(*args, **kwargs)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"{where}: {name}: {exc}") from None
    raise ValueError(f"{where}: unknown operation {name!r}")


def build_from_file(spec, path, data, workers, framework="minddata"):
    """The dataset described by a pipeline file; ``data`` (if given) replaces the source."""
    ds = dataset_api(framework)
    source = spec.get("source") or {}
    if data is not None:
        dataset, _ = open_source(data, workers, shuffle=False, framework=framework)
    else:
        if not isinstance(source, dict) or "type" not in source:
            raise ValueError(f"pipeline file {path}: needs source.type (or DATA on the "
                             "command line)")
        cls = getattr(ds, source["type"], None)
        if cls is None:
            raise ValueError(f"pipeline file {path}: unknown source type {source['type']!r}")
        args = dict(source.get("args") or {})
        if workers is not None:
            args.setdefault("num_parallel_workers", workers)
        dataset = cls(**args)
    for k, stage in enumerate(spec.get("stages") or []):
        where = f"pipeline file {path} stage {k + 1}"
        if not isinstance(stage, dict) or len(stage) != 1:
            raise ValueError(f"{where}: each stage is a one-key mapping like "
                             "{map: {...}} or {batch: {...}}")
        method, params = next(iter(stage.items()))
        if method not in _STAGE_METHODS:
            raise ValueError(f"{where}: unknown stage {method!r} (one of "
                             f"{', '.join(_STAGE_METHODS)})")
        params = dict(params) if isinstance(params, dict) else {}
        if method == "map":
            ops = params.get("operations")
            if not isinstance(ops, list) or not ops:
                raise ValueError(f"{where}: map needs a non-empty 'operations' list")
            params["operations"] = [make_operation(op, where, framework) for op in ops]
        if method in ("map", "batch") and workers is not None:
            params.setdefault("num_parallel_workers", workers)
        dataset = getattr(dataset, method)(**params)
    return dataset
