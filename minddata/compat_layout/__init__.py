"""MindSpore's internal module layout, for code that imports from it directly.

MindSpore's own tests and some scripts import ``mindspore.dataset.engine.iterators``,
``mindspore.dataset.engine.datasets``, ``mindspore._c_dataengine`` and similar internal paths.
``python -m training.compat`` maps those names onto the modules of this package
(``mindspore.dataset.engine`` -> ``minddata.compat_layout.engine``, see
``training/compat/names.py``). Each module re-exports, under MindSpore's module name, the
project's public objects that stand for MindSpore's (``from minddata import ...``): a name this
project does not have stays absent (ImportError), it is never stubbed.

Only the iterator registry (``engine.iterators``), the failover reset's training-dataset
functions (``engine.datasets``) and the C++ data types of ``_c_dataengine`` are implemented
here, because they have no other home in the project.
"""
import importlib

__all__ = ["reexport"]


def _mindspore_name(module_name):
    return module_name.replace("minddata.compat_layout", "mindspore.dataset", 1)


def reexport(namespace, names, source="minddata"):
    """Make the module whose globals are ``namespace`` re-export ``names`` from ``source``
    (imported on first access, so a lazily loaded name costs nothing until used).

    ``__all__`` lists the names ``source`` provides now; any other name of ``names`` raises an
    AttributeError saying this project does not provide it."""
    module = importlib.import_module(source)
    names = tuple(names)
    provided = set(vars(module)) | set(getattr(module, "__all__", ()))
    module_name = namespace["__name__"]

    def __getattr__(name):
        if name not in names:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        try:
            value = getattr(module, name)
        except AttributeError:
            raise AttributeError(
                f"{_mindspore_name(module_name)}.{name} (MindSpore API) is not provided by this "
                f"project: {source} has no {name}") from None
        namespace[name] = value
        return value

    def __dir__():
        return sorted(set(namespace) | set(namespace["__all__"]))

    namespace["__all__"] = [n for n in names if n in provided]
    namespace["__getattr__"] = __getattr__
    namespace["__dir__"] = __dir__
