"""``ds.serialize`` / ``ds.deserialize`` / ``ds.show``: a pipeline as a JSON-able dict and back.

A node is ``{"op_type", "num_parallel_workers", "children", ...its arguments}``: a source is
named by its class (``"MnistDataset"``) and keeps the arguments of its constructor; an operation
is named by its kind (``"Map"``, ``"Batch"``, ...) and keeps the arguments of the Dataset method
that builds it (``input_columns``, ``count``, ...). A transform in ``operations`` is
``{"tensor_op_name", "python_module", "tensor_op_params"}`` (its constructor's arguments), a
sampler ``{"sampler_name", "python_module", "sampler_params", "child_sampler"}`` (a ``*args``
parameter is kept as ``"*name"``: the list of its values).

JSON has no tuples, slices, enums or dtypes, so those are tagged (``{"__tuple__": [...]}``,
``{"__slice__": [start, stop, step]}``, ``{"__enum__": "module:Class.MEMBER"}``,
``{"__dtype__": "int32"}``, ``{"__ndarray__": ...}``):
deserializing gives the same arguments back, not look-alikes.

What cannot be written down (a Python function or lambda, a generator's source, a cache, a
callback) is kept as ``{"__unserializable__": why}``: ``serialize`` still describes the pipeline
(as MindSpore does). ``deserialize`` rebuilds a map whose operation was such a function, or a
filter whose predicate was, as MindSpore does, with a stand-in that raises MindSpore's
RuntimeError when the pipeline runs or is serialized again; any other such part is refused at
once with a ValueError naming it. Either way no pipeline serving other rows is built. Classes
are looked up only in this project's packages (``minddata``, ``transforms_c``), so a file
cannot make ``deserialize`` import anything else.
"""
import enum
import importlib
import inspect
import json
import logging

import numpy as np

from .graph.node import LogicalNode

logger = logging.getLogger("minddata")

__all__ = ["serialize", "deserialize", "show", "compare"]

_ALLOWED_MODULES = ("minddata.", "transforms_c.")
_UNSERIALIZABLE = "__unserializable__"

# Operation kinds -> how the node's fields map to the Dataset method's arguments.
# The data argument of the in-memory sources: never written out (it may be any size, or a
# generator), so such a pipeline is described but not rebuilt, as in MindSpore.
_IN_MEMORY_DATA = {"GeneratorDataset": "source", "NumpySlicesDataset": "data",
                   "PaddedDataset": "padded_samples"}
_OP_KINDS = ("Map", "Batch", "Shuffle", "Repeat", "Take", "Skip", "Project", "Rename", "Zip",
             "Concat", "Filter")
# The node kinds that run workers.
_WORKER_KINDS = ("Source", "Map", "Batch", "Filter")


class _Unserializable(Exception):
    """A part of the pipeline that JSON cannot hold (its text says which and why)."""


# MindSpore's words when a deserialized pipeline uses what JSON could not hold, by the node and
# argument it stood in.
_STAND_IN_WORDS = {
    ("Map", "operations"): "Failed to find key 'tensor_op_params' in PyFuncOp' JSON file or "
                           "input dict, check input content of deserialize()",
    ("Filter", "predicate"): "Invalid data, unsupported operation type: Filter",
}


class _StandIn:
    """Where deserialize met a Python function JSON could not hold: running it, or serializing
    the pipeline again, raises MindSpore's RuntimeError (``words``) with ``why``."""

    def __init__(self, why, words):
        self.message = f"{words}. {why}"

    def __call__(self, *args):
        raise RuntimeError(self.message)


# -- values ------------------------------------------------------------------------------------
def _encode(value, what):
    if isinstance(value, _StandIn):
        raise RuntimeError(value.message)
    if isinstance(value, enum.Enum):      # before int and str: IntEnum and str enums are both
        cls = type(value)
        return {"__enum__": f"{cls.__module__}:{cls.__qualname__}.{value.name}"}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.dtype):
        return {"__dtype__": value.name}
    if isinstance(value, type) and issubclass(value, np.generic):
        return {"__dtype__": np.dtype(value).name}
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            return _unserializable(f"{what}: an array of dtype {value.dtype}")
        return {"__ndarray__": value.tolist(), "dtype": value.dtype.name}
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(v, what) for v in value]}
    if isinstance(value, slice):
        return {"__slice__": [_encode(v, what) for v in (value.start, value.stop, value.step)]}
    if value is Ellipsis:
        return {"__ellipsis__": True}
    if isinstance(value, list):
        return [_encode(v, what) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            return _unserializable(f"{what}: a dict with keys that are not strings")
        return {"__dict__": {k: _encode(v, f"{what}[{k!r}]") for k, v in value.items()}}
    if _is_sampler(value):
        return _encode_sampler(value, what)
    if _project_class(type(value)) and not inspect.isroutine(value):
        return _encode_op(value, what)
    name = getattr(value, "__qualname__", None) or type(value).__qualname__
    return _unserializable(f"{what}: the Python object {name} (a user-defined function or "
                           f"object cannot be written to JSON)")


def _unserializable(why):
    return {_UNSERIALIZABLE: why}


def _project_class(cls):
    return cls.__module__.startswith(_ALLOWED_MODULES)


def _is_sampler(value):
    from .samplers import Sampler
    return isinstance(value, Sampler)


def _constructor_args(obj, what):
    """{parameter: encoded value} of ``obj``'s constructor, read from the attributes of the same
    names (``*name`` for a ``*args`` parameter); a parameter without one is reported (its value
    cannot be known)."""
    params = {}
    if type(obj).__init__ is object.__init__:       # a class without arguments
        return params
    kept = getattr(obj, "__dict__", {})
    for p in inspect.signature(type(obj).__init__).parameters.values():
        if p.name == "self" or p.kind == p.VAR_KEYWORD:
            continue
        key = "*" + p.name if p.kind == p.VAR_POSITIONAL else p.name
        if p.name not in kept:
            params[key] = _unserializable(f"{what}: {type(obj).__name__} does not keep its "
                                          f"argument {p.name!r}")
            continue
        value = kept[p.name]
        params[key] = _encode(list(value) if key != p.name else value, f"{what}.{p.name}")
    return params


def _call(cls, params):
    """``cls`` called with decoded ``params`` (``*name``: its positional arguments)."""
    args, kwargs = [], {}
    for k, v in params.items():
        if k.startswith("*"):
            args = _decode(v)
        else:
            kwargs[k] = _decode(v)
    return cls(*args, **kwargs)


def _encode_op(op, what):
    encoded = {"tensor_op_name": type(op).__name__, "python_module": type(op).__module__,
               "tensor_op_params": _constructor_args(op, f"{what} {type(op).__name__}")}
    if getattr(op, "device_target", None) is not None:   # placed with .device(...)
        encoded["device_target"] = op.device_target
    return encoded


def _encode_sampler(sampler, what):
    child = getattr(sampler, "child_sampler", None)
    params = _constructor_args(sampler, f"{what} {type(sampler).__name__}")
    return {"sampler_name": type(sampler).__name__, "python_module": type(sampler).__module__,
            "sampler_params": params,
            "child_sampler": None if child is None else _encode_sampler(child, what)}


def _decode(value, stand_in=None):
    """The value ``_encode`` wrote. A part JSON could not hold raises _Unserializable, or with
    ``stand_in`` (MindSpore's words for it) becomes a _StandIn."""
    if isinstance(value, list):
        return [_decode(v, stand_in) for v in value]
    if not isinstance(value, dict):
        return value
    if _UNSERIALIZABLE in value:
        if stand_in is not None:
            return _StandIn(value[_UNSERIALIZABLE], stand_in)
        raise _Unserializable(value[_UNSERIALIZABLE])
    if "__tuple__" in value:
        return tuple(_decode(v) for v in value["__tuple__"])
    if "__dict__" in value:
        return {k: _decode(v) for k, v in value["__dict__"].items()}
    if "__slice__" in value:
        return slice(*(_decode(v) for v in value["__slice__"]))
    if "__ellipsis__" in value:
        return Ellipsis
    if "__dtype__" in value:
        return np.dtype(value["__dtype__"])
    if "__ndarray__" in value:
        return np.array(value["__ndarray__"], dtype=value["dtype"])
    if "__enum__" in value:
        path, _, member = value["__enum__"].rpartition(".")
        return getattr(_project_attr(path), member)
    if "tensor_op_name" in value:
        cls = _project_attr(f"{value['python_module']}:{value['tensor_op_name']}")
        op = _call(cls, value["tensor_op_params"])
        return op.device(value["device_target"]) if "device_target" in value else op
    if "sampler_name" in value:
        cls = _project_attr(f"{value['python_module']}:{value['sampler_name']}")
        sampler = _call(cls, value["sampler_params"])
        if value.get("child_sampler") is not None:
            sampler.add_child(_decode(value["child_sampler"]))
        return sampler
    raise ValueError(f"deserialize: unknown value {value!r} in the pipeline description")


def _project_attr(path):
    """``module:Qual.Name`` of this project's packages, and nothing else."""
    module_name, _, qualname = path.partition(":")
    if not module_name.startswith(_ALLOWED_MODULES):
        raise ValueError(f"deserialize: {path!r} is not a class of this project (only "
                         f"{', '.join(m.rstrip('.') for m in _ALLOWED_MODULES)} are loaded)")
    obj = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


# -- nodes ---------------------------------------------------------------------------------
def _given_arguments(node):
    """The arguments the source's constructor was called with, where the node recorded them
    (``_init_args = (args, kwargs)``), by parameter name; {} otherwise."""
    recorded = getattr(node, "_init_args", None)
    if recorded is None:
        return {}
    args, kwargs = recorded
    bound = inspect.signature(type(node).__init__).bind(node, *args, **kwargs)
    bound.apply_defaults()
    return {k: v for k, v in bound.arguments.items() if k != "self"}


def _source_args(node):
    """The constructor arguments of a source, from its fields."""
    from .samplers import Shuffle
    what = type(node).__name__
    by_field = {
        "num_samples": node.num_samples, "num_shards": node.num_shards,
        "shard_id": node.shard_id, "num_parallel_workers": _workers(node),
        "sampler": node.sampler,
    }
    if node.sampler is not None:
        by_field["shuffle"] = None
    elif node.shuffle_level is Shuffle.FALSE:
        by_field["shuffle"] = False
    elif node.shuffle_level is Shuffle.GLOBAL:
        by_field["shuffle"] = True
    else:
        by_field["shuffle"] = node.shuffle_level
    given = _given_arguments(node)
    args = {}
    for p in inspect.signature(type(node).__init__).parameters.values():
        if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name == _IN_MEMORY_DATA.get(what):
            args[p.name] = _unserializable(f"{what}: its {p.name} (Python data) is not written "
                                           f"to JSON")
        elif p.name in given and p.name not in by_field:
            args[p.name] = _encode(given[p.name], f"{what}.{p.name}")
        elif p.name == "cache":
            args["cache"] = (None if node.cache is None else
                             _unserializable(f"{what}: a DatasetCache"))
        elif p.name in by_field:
            args[p.name] = _encode(by_field[p.name], f"{what}.{p.name}")
        elif p.name in vars(node):
            args[p.name] = _encode(getattr(node, p.name), f"{what}.{p.name}")
        else:
            args[p.name] = _unserializable(f"{what} does not keep its argument {p.name!r}, "
                                           f"so the source cannot be rebuilt from JSON")
    return args


def _op_args(node):
    kind = node.kind
    what = kind
    if kind == "Map":
        args = {"operations": _encode(list(node.operations), "Map.operations"),
                "input_columns": list(node.in_cols), "output_columns": list(node.out_cols),
                "python_multiprocessing": node.python_multiprocessing,
                "max_rowsize": node.max_rowsize}
        if node.device is not None:             # map(device=...): the placement is kept
            args["device"] = node.device
        if node.cache is not None:
            args["cache"] = _unserializable("Map: a DatasetCache")
        if node.callbacks:
            args["callbacks"] = _unserializable("Map: callbacks")
        return args
    if kind == "Batch":
        args = {"batch_size": _encode(node.batch_size, "Batch.batch_size"),
                "drop_remainder": node.drop_remainder}
        if node.pad_all or node.pad_info:       # padded_batch (pad_info {}: every column)
            args["pad_info"] = _encode(dict(node.pad_info), "Batch.pad_info")
            return args
        args.update(per_batch_map=_encode(node.per_batch_map, "Batch.per_batch_map"),
                    input_columns=_encode(node.in_cols, what),
                    output_columns=_encode(node.out_cols, what),
                    python_multiprocessing=node.python_multiprocessing,
                    max_rowsize=node.max_rowsize)
        return args
    if kind == "Shuffle":
        return {"buffer_size": node.buffer_size}
    if kind in ("Repeat", "Take", "Skip"):
        return {"count": node.count}
    if kind == "Project":
        return {"columns": list(node.columns)}
    if kind == "Rename":
        return {"input_columns": list(node.mapping), "output_columns": list(node.mapping.values())}
    if kind in ("Zip", "Concat"):
        return {}
    if kind == "Filter":
        return {"predicate": _encode(node.predicate, "Filter.predicate"),
                "input_columns": _encode(node.input_columns, what)}
    return None


def _workers(node):
    """The workers the node runs with: a default is written as the value it stands for now,
    as MindSpore writes it (the same pipeline serializes the same either way)."""
    if node.num_parallel_workers is not None or node.kind not in _WORKER_KINDS:
        return node.num_parallel_workers
    from . import config
    return config.get_num_parallel_workers()


def _node_dict(node):
    from .graph.source import Source
    if isinstance(node, Source):
        out = {"op_type": type(node).__name__}
        out.update(_source_args(node))
        out["children"] = []
        return out
    args = _op_args(node) if node.kind in _OP_KINDS else None
    if args is None:
        args = {"arguments": _unserializable(f"the {node.kind} operation has no JSON form")}
    out = {"op_type": node.kind, "num_parallel_workers": _workers(node)}
    out.update(args)
    out["children"] = [_node_dict(c) for c in node.children]
    return out


def _build(d):
    op_type = d.get("op_type")
    if not isinstance(op_type, str):
        raise ValueError(f"deserialize: a node without a valid 'op_type': {d!r}")
    children = [_build(c) for c in d.get("children", [])]
    args = {k: v for k, v in d.items() if k not in ("op_type", "children")}
    try:
        args = {k: _decode(v, _STAND_IN_WORDS.get((op_type, k))) for k, v in args.items()}
    except _Unserializable as exc:
        raise ValueError(f"deserialize: the pipeline cannot be rebuilt from its JSON form: "
                         f"{exc}") from None
    if op_type not in _OP_KINDS:
        import minddata
        cls = getattr(minddata, op_type, None)
        if not (isinstance(cls, type) and issubclass(cls, LogicalNode) and _project_class(cls)):
            raise ValueError(f"deserialize: unknown op_type {op_type!r}")
        return cls(**args)
    if op_type in ("Zip", "Concat"):
        if len(children) < 2:
            raise ValueError(f"deserialize: {op_type} needs at least two children")
        first, rest = children[0], children[1:]
        return first.zip(tuple(rest)) if op_type == "Zip" else first.concat(rest)
    if len(children) != 1:
        raise ValueError(f"deserialize: {op_type} needs one child, got {len(children)}")
    child = children[0]
    npw = args.pop("num_parallel_workers", None)
    if op_type == "Map":
        return child.map(num_parallel_workers=npw, **args)
    if op_type == "Batch":
        if "pad_info" in args:
            return child.padded_batch(num_parallel_workers=npw, **args)
        return child.batch(num_parallel_workers=npw, **args)
    if op_type == "Filter":
        return child.filter(num_parallel_workers=npw, **args)
    method = {"Shuffle": "shuffle", "Repeat": "repeat", "Take": "take", "Skip": "skip",
              "Project": "project", "Rename": "rename"}[op_type]
    return getattr(child, method)(**args)


# -- API -------------------------------------------------------------------------------------
def serialize(dataset, json_filepath=""):
    """The pipeline ending at ``dataset`` as a dict (module docstring), also written to
    ``json_filepath`` when one is given (OSError when it cannot be written)."""
    if not isinstance(dataset, LogicalNode):
        raise TypeError(f"dataset must be a Dataset, but got {type(dataset).__name__}")
    if not isinstance(json_filepath, str):
        raise TypeError(f"json_filepath must be of type str, but got "
                        f"{type(json_filepath).__name__}")
    tree = _node_dict(dataset)
    if json_filepath:
        with open(json_filepath, "w", encoding="utf-8") as f:
            json.dump(tree, f, indent=2)
    return tree


def deserialize(input_dict=None, json_filepath=None):
    """The Dataset that ``input_dict`` (a dict from ``serialize``) or the JSON file
    ``json_filepath`` describes (the file wins when both are given). An AutoTune configuration
    file loads too (its ``"tree"``); a str ``input_dict`` is a file's path, as in MindSpore.
    OSError when the file cannot be read or parsed; ValueError when the description holds a
    part that cannot be rebuilt (a generator's source, ...; a map's Python function or a
    filter's predicate is a stand-in instead: module docstring)."""
    if isinstance(input_dict, str) and json_filepath is None:
        json_filepath, input_dict = input_dict, None    # a path given as input_dict (MindSpore)
    if json_filepath is not None:
        if not isinstance(json_filepath, str):
            raise TypeError(f"json_filepath must be of type str, but got "
                            f"{type(json_filepath).__name__}")
        try:
            with open(json_filepath, encoding="utf-8") as f:
                input_dict = json.load(f)
        except json.JSONDecodeError as exc:
            raise OSError(f"deserialize: {json_filepath} is not a JSON file: {exc}") from exc
    elif input_dict is None:
        raise ValueError("deserialize: give input_dict or json_filepath")
    if not isinstance(input_dict, dict):
        raise TypeError(f"input_dict must be a dict, but got {type(input_dict).__name__}")
    tree = input_dict.get("tree", input_dict)
    return _build(tree)


def show(dataset, indentation=2):
    """Log the pipeline's JSON form at INFO level (minddata logger), as MindSpore does.
    ``indentation``: spaces per level, or None for one line."""
    if indentation is not None and (isinstance(indentation, bool)
                                    or not isinstance(indentation, int)):
        raise TypeError(f"indentation must be of type int or None, but got "
                        f"{type(indentation).__name__}")
    logger.info("\n%s", json.dumps(serialize(dataset), indent=indentation))


def compare(pipeline1, pipeline2):
    """Whether two pipelines are the same (``mindspore.dataset.compare``): their JSON
    (``to_json()``) is equal; something that is no dataset: AttributeError, as in MindSpore."""
    return pipeline1.to_json() == pipeline2.to_json()
