"""Run unmodified MindSpore scripts: an import hook that maps `mindspore.*` onto this project
(`mindspore.dataset` -> `minddata`, `mindspore.mindrecord` -> `mindrecord`, `mindspore` ->
`training`, ...).

The hook is installed only by `python -m training.compat script.py [args]` (or by calling
`install()`), so a real MindSpore is never shadowed otherwise. `import mindspore.nn` gives the
very module object `training.nn`, so classes and state are shared whichever name imported them.
A mindspore module this project lacks fails at import with a ModuleNotFoundError naming it,
saying it is not provided and what to use instead."""
import importlib
import importlib.abc
import importlib.util
import sys

from training.compat.names import PREFIXES, not_provided, target_of


_MISSING = object()


class _AliasLoader(importlib.abc.Loader):
    """Loads `mindspore.x` as the already importable project module it stands for."""

    def __init__(self, target, has_aliased_children):
        self.target = target
        self._has_aliased_children = has_aliased_children
        self._own_spec = None

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self._own_spec = module.__spec__
        return module

    def exec_module(self, module):
        # The import system stamped the alias spec on the module; the module keeps its own, so
        # reload() and pickling by module name keep working.
        module.__spec__ = self._own_spec
        if self.target == "minddata":
            # Its iterators now hand out Tensors that are mindspore.Tensor (training.Tensor).
            from training.compat import tensors
            tensors.serve()
        if self._has_aliased_children and not hasattr(module, "__path__"):
            # mindspore.nn.loss.loss -> training.nn.loss: the import system needs the parent to
            # be a package; its submodules still come from the finder alone.
            module.__path__ = []


class _TopLoader(importlib.abc.Loader):
    """`mindspore` itself: a package whose attributes are `training`'s, and whose submodules
    (`mindspore.dataset`, `mindspore.train`, ...) are imported through the finder on first
    attribute access, as MindSpore's own lazy submodules are (`from mindspore import dataset`)."""

    def create_module(self, spec):
        return None  # a fresh module named "mindspore"

    def exec_module(self, module):
        training = importlib.import_module("training")
        # `import mindspore` loads Pillow's Image module (measured in 2.10), so a script that
        # does `import PIL` and then uses `PIL.Image` runs under MindSpore: here too.
        importlib.import_module("PIL.Image")
        module.__path__ = []  # a package: its submodules come from the finder

        def __getattr__(name):
            if name.startswith("__"):
                raise AttributeError(f"module 'mindspore' has no attribute {name!r}")
            if hasattr(training, name):
                return getattr(training, name)
            try:
                return importlib.import_module(f"mindspore.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"mindspore.{name}":
                    raise
                raise AttributeError(str(exc)) from None

        module.__getattr__ = __getattr__
        module.__doc__ = "MindSpore's namespace, mapped onto this project by training.compat"


class MindSporeFinder(importlib.abc.MetaPathFinder):
    """A sys.meta_path finder for `mindspore` and its submodules; records what it mapped."""

    def __init__(self):
        self.mapped = {}
        # (project module, attribute, its value before): the import system sets each imported
        # alias as an attribute of its parent, e.g. `mindspore.dataset.engine` as `engine` on
        # the module object `minddata`, hiding `minddata.engine` (for attribute access; imports
        # of minddata.engine.* go through sys.modules). uninstall() puts the values back.
        self._parent_attributes = []

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "mindspore" and not fullname.startswith("mindspore."):
            return None
        if fullname == "mindspore":
            self.mapped[fullname] = "training"
            return importlib.util.spec_from_loader(fullname, _TopLoader(), is_package=True)
        missing = not_provided(fullname)
        if missing is not None:
            name, alternative = missing
            raise ModuleNotFoundError(f"{name} (MindSpore API) is not provided by this project: "
                                      f"{alternative}", name=fullname)
        module_name = target_of(fullname)
        try:
            found = importlib.util.find_spec(module_name)
        except ModuleNotFoundError:
            found = None
        if found is None:
            raise ModuleNotFoundError(f"{fullname} (MindSpore API) is not provided by this "
                                      f"project: there is no {module_name}; see README.md, "
                                      f"'Running MindSpore scripts unchanged', for what is",
                                      name=fullname)
        self.mapped[fullname] = module_name
        self._note_parent_attribute(fullname, module_name)
        children = any(p.startswith(fullname + ".") for p in PREFIXES)
        return importlib.util.spec_from_loader(fullname, _AliasLoader(module_name, children),
                                               is_package=found.submodule_search_locations
                                               is not None or children)

    def _note_parent_attribute(self, fullname, module_name):
        parent_name, _, child = fullname.rpartition(".")
        parent = sys.modules.get(parent_name)
        if parent is not None and not parent.__name__.startswith("mindspore") and \
                f"{parent.__name__}.{child}" != module_name:
            self._parent_attributes.append((parent, child, vars(parent).get(child, _MISSING)))

    def restore_parent_attributes(self):
        """Give the project modules back the attributes the aliases' imports replaced."""
        for parent, child, before in reversed(self._parent_attributes):
            if before is not _MISSING:
                setattr(parent, child, before)
            elif child in vars(parent):
                delattr(parent, child)
        self._parent_attributes.clear()


def install():
    """Put the finder first on sys.meta_path (once); returns it."""
    for finder in sys.meta_path:
        if isinstance(finder, MindSporeFinder):
            return finder
    finder = MindSporeFinder()
    sys.meta_path.insert(0, finder)
    return finder


def uninstall():
    """Remove the finder and the `mindspore` entries it put in sys.modules."""
    for finder in [f for f in sys.meta_path if isinstance(f, MindSporeFinder)]:
        finder.restore_parent_attributes()
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, MindSporeFinder)]
    if "training.compat.tensors" in sys.modules:
        sys.modules["training.compat.tensors"].unserve()
    for name in [n for n in sys.modules if n == "mindspore" or n.startswith("mindspore.")]:
        del sys.modules[name]
