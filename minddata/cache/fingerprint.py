"""Content fingerprints for cache keys: what a pipeline stage computes, never where it lives.

A cached stage is found again by a hash of its upstream description, so that description must
change whenever the rows could change and stay the same when they cannot, in this process and
in a rerun of the same script. Object ids, ``hash()`` (randomised per process for strings) and
reprs with addresses fail both ways, so they never enter a fingerprint. What does:

- data: numbers, strings, bytes, numpy arrays (dtype, shape and every byte, hashed in chunks),
  containers of them (sets in an order that does not depend on hashing);
- user code (functions, lambdas, methods, classes defined outside installed packages): the code
  object (bytecode, constants, names, arguments), defaults, keyword defaults, closure cell
  contents and the current values of the globals the code reads, recursively;
- library code (the standard library, installed packages and this project's packages):
  module, qualified name and the package version, since its code is not edited between runs;
- modules: their name and version;
- other objects: their class and the state pickle would save (``__reduce_ex__``).

Anything else (an open file, a lock, a generator, a socket: objects pickle refuses) cannot be
fingerprinted; ``fingerprint`` then raises ``Unidentifiable`` naming the path to it, and the
caller refuses to cache rather than guess."""
import concurrent.futures
import functools
import hashlib
import importlib.metadata
import os
import struct
import sys
import sysconfig
import types

import numpy as np

_CHUNK_BYTES = 16 << 20
_HASH_THREADS = min(4, os.cpu_count() or 1)
_MAX_DEPTH = 64
# This project's own packages: library code, identified by name (a rebuilt store format
# version, not a fingerprint, covers changes to them).
_PROJECT_PACKAGES = frozenset({"minddata", "transforms_c", "mindrecord", "training"})
# Exact types only: a subclass (an IntEnum, a str with extra state) is fingerprinted as an
# object, by its class and its pickled state.
_ATOMS = frozenset({type(None), bool, int, float, complex, str, bytes, bytearray,
                    type(Ellipsis), type(NotImplemented)})


class Unidentifiable(RuntimeError):
    """A value whose content cannot be fingerprinted; ``path`` says where it was found."""

    def __init__(self, path, reason):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def fingerprint(value, name="value"):
    """Hex digest (32 hex digits) identifying ``value``'s content; raises ``Unidentifiable``."""
    return _Walker(name).digest(value, name).hex()


def fingerprint_arrays(arrays):
    """Hex digest of a sequence of numpy arrays (dtype, shape, bytes), hashed in chunks."""
    h = hashlib.blake2b(digest_size=16)
    for a in arrays:
        _feed_array(h, a)
    return h.hexdigest()


def _feed_array(h, a):
    """The array's header, then the BLAKE2b digest of each _CHUNK_BYTES piece of its bytes in
    C order (whatever its memory layout), so that pieces can be hashed on several threads:
    hashlib releases the GIL while it hashes."""
    h.update(f"array|{_dtype_text(a.dtype)}|{a.shape}|".encode())
    if a.dtype.hasobject:
        raise Unidentifiable("array", "an object array has no byte content to fingerprint")
    if not a.flags.c_contiguous:
        for piece in _copied_pieces(a):     # one copied piece at a time: bounded memory
            h.update(_digest(piece))
        return
    pieces = _contiguous_pieces(a)          # views, no copy
    if len(pieces) > 2 and _HASH_THREADS > 1:
        with concurrent.futures.ThreadPoolExecutor(_HASH_THREADS) as pool:
            for d in pool.map(_digest, pieces):
                h.update(d)
        return
    for piece in pieces:
        h.update(_digest(piece))


def _digest(piece):
    return hashlib.blake2b(piece, digest_size=16).digest()


def _contiguous_pieces(a):
    flat = a.reshape(-1).view(np.uint8)
    return [flat[start:start + _CHUNK_BYTES].data for start in range(0, flat.size, _CHUNK_BYTES)]


def _copied_pieces(a):
    """The same pieces for an array that is not contiguous (a slice, a transpose), copying a
    bounded run of rows at a time."""
    rows = max(1, _CHUNK_BYTES // max(1, a[0].nbytes))
    pending = bytearray()
    for start in range(0, len(a), rows):
        pending += np.ascontiguousarray(a[start:start + rows]).tobytes()
        while len(pending) >= _CHUNK_BYTES:
            yield bytes(pending[:_CHUNK_BYTES])
            del pending[:_CHUNK_BYTES]
    if pending:
        yield bytes(pending)


def _dtype_text(dtype):
    return str(dtype.descr) if dtype.fields is not None else dtype.str


@functools.lru_cache(maxsize=None)
def _library_dirs():
    paths = sysconfig.get_paths()
    dirs = {paths.get(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    dirs.add(os.path.dirname(os.__file__))
    return tuple(os.path.realpath(d) + os.sep for d in dirs if d)


@functools.lru_cache(maxsize=None)
def _is_library_module(module_name):
    root = (module_name or "").split(".")[0]
    if not root or root == "__main__":
        return False
    if root in _PROJECT_PACKAGES or root in sys.builtin_module_names:
        return True
    module = sys.modules.get(root)
    if module is None:
        return False                # unknown: fingerprinted as user code (the safe side)
    origin = getattr(getattr(module, "__spec__", None), "origin", None)
    if origin in ("built-in", "frozen"):
        return True
    # A module's file, or a namespace package's folders: all inside the library folders.
    paths = [module.__file__] if getattr(module, "__file__", None) else \
        list(getattr(module, "__path__", ()))
    return bool(paths) and all(any(os.path.realpath(p).startswith(d) for d in _library_dirs())
                               for p in paths)


@functools.lru_cache(maxsize=None)
def _package_version(module_name):
    root = (module_name or "").split(".")[0]
    if root in sys.builtin_module_names or root in sys.stdlib_module_names:
        return f"python-{sys.version_info[0]}.{sys.version_info[1]}"
    if root in _PROJECT_PACKAGES:
        return ""
    version = getattr(sys.modules.get(root), "__version__", None)
    if isinstance(version, str):
        return version
    names = [root] + list(_distributions_by_package().get(root, ()))
    for dist in names:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return ""


@functools.lru_cache(maxsize=1)
def _distributions_by_package():
    # Scans every installed distribution (about a second): once per process, and only for a
    # module without __version__.
    return importlib.metadata.packages_distributions()


def _qualified(obj):
    module = getattr(obj, "__module__", None) or ""
    qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or ""
    return module, qualname


def _global_names(code):
    """Every name the code (and the functions and classes nested in it) looks up."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _global_names(const)
    return names


class _Walker:
    """One fingerprint computation. Digests are computed bottom-up; objects met again (shared
    or cyclic references) are looked up by identity, and each is kept alive until the walk
    ends so that an identity is never reused by another object meanwhile."""

    def __init__(self, root_name):
        self.root_name = root_name
        self.done = {}          # id -> (object, digest)
        self.active = {}        # id -> depth of an object whose digest is being computed

    def digest(self, obj, path):
        if type(obj) in _ATOMS:
            return self._atom(obj)
        key = id(obj)
        found = self.done.get(key)
        if found is not None:
            return found[1]
        if key in self.active:   # a cycle: refer to the enclosing object by its depth
            return self._hash(b"cycle", str(self.active[key]).encode())
        if len(self.active) >= _MAX_DEPTH:
            raise Unidentifiable(path, f"nested more than {_MAX_DEPTH} levels deep")
        self.active[key] = len(self.active)
        try:
            result = self._compute(obj, path)
        finally:
            del self.active[key]
        self.done[key] = (obj, result)
        return result

    @staticmethod
    def _hash(*parts):
        h = hashlib.blake2b(digest_size=16)
        for p in parts:
            h.update(struct.pack("<Q", len(p)))
            h.update(p)
        return h.digest()

    def _atom(self, obj):
        kind = type(obj).__name__.encode()
        if isinstance(obj, float):
            return self._hash(b"float", obj.hex().encode())
        if isinstance(obj, complex):
            return self._hash(b"complex", obj.real.hex().encode(), obj.imag.hex().encode())
        if isinstance(obj, (bytes, bytearray)):
            return self._hash(kind, bytes(obj))
        return self._hash(kind, repr(obj).encode("utf-8", "surrogatepass"))

    def _many(self, tag, items, path):
        return self._hash(tag, *(self._atom(v) if type(v) in _ATOMS else
                                 self.digest(v, f"{path}[{k}]") for k, v in enumerate(items)))

    def _compute(self, obj, path):
        if isinstance(obj, np.ndarray):
            if obj.dtype.hasobject:
                return self._hash(b"objarray", str(obj.shape).encode(),
                                  self._many(b"items", obj.reshape(-1).tolist(), path))
            h = hashlib.blake2b(digest_size=16)
            _feed_array(h, obj)
            return self._hash(b"ndarray", h.digest())
        if isinstance(obj, np.generic):
            return self._hash(b"npscalar", _dtype_text(obj.dtype).encode(), obj.tobytes())
        if isinstance(obj, np.dtype):
            return self._hash(b"dtype", _dtype_text(obj).encode())
        if isinstance(obj, (tuple, list)):
            return self._many(type(obj).__name__.encode(), obj, path)
        if isinstance(obj, dict):
            return self._hash(b"dict", *(self._hash(self.digest(k, f"{path} key"),
                                                    self.digest(v, f"{path}[{k!r}]"))
                                         for k, v in list(obj.items())))
        if isinstance(obj, (set, frozenset)):
            # Set order follows string hashing, which changes between processes.
            return self._hash(b"set", *sorted(self.digest(v, f"{path} item") for v in obj))
        if isinstance(obj, (range, slice)):
            return self._hash(type(obj).__name__.encode(),
                              self._many(b"", (obj.start, obj.stop, obj.step), path))
        if isinstance(obj, types.CodeType):
            return self._code(obj, path)
        if isinstance(obj, types.ModuleType):
            return self._hash(b"module", obj.__name__.encode(),
                              _package_version(obj.__name__).encode())
        if isinstance(obj, types.FunctionType):
            return self._function(obj, path)
        if isinstance(obj, types.MethodType):
            return self._hash(b"method", self.digest(obj.__func__, path),
                              self.digest(obj.__self__, f"{path}.__self__"))
        if isinstance(obj, functools.partial):
            return self._hash(b"partial", self.digest(obj.func, f"{path}.func"),
                              self.digest(obj.args, f"{path}.args"),
                              self.digest(obj.keywords, f"{path}.keywords"))
        if isinstance(obj, (staticmethod, classmethod)):
            return self._hash(type(obj).__name__.encode(), self.digest(obj.__func__, path))
        if isinstance(obj, property):
            return self._many(b"property", (obj.fget, obj.fset, obj.fdel), path)
        if isinstance(obj, types.CellType):
            try:
                content = obj.cell_contents
            except ValueError:
                return self._hash(b"empty-cell")
            return self._hash(b"cell", self.digest(content, path))
        if isinstance(obj, type):
            return self._class(obj, path)
        if isinstance(obj, (types.BuiltinFunctionType, np.ufunc)) or _is_library_callable(obj):
            return self._builtin(obj, path)
        return self._instance(obj, path)

    def _code(self, code, path):
        return self._hash(
            b"code", f"{sys.version_info[0]}.{sys.version_info[1]}".encode(), code.co_code,
            code.co_name.encode(),
            self._many(b"consts", code.co_consts, f"{path} constants"),
            "|".join(code.co_names).encode(), "|".join(code.co_varnames).encode(),
            "|".join(code.co_freevars).encode(), "|".join(code.co_cellvars).encode(),
            struct.pack("<4q", code.co_argcount, code.co_posonlyargcount,
                        code.co_kwonlyargcount, code.co_flags))

    def _function(self, fn, path):
        module, qualname = _qualified(fn)
        label = f"{path} ({qualname})" if qualname and qualname not in path else path
        # Defaults and closures are data even in library code (a function a library made
        # for its caller); the code and module globals of a library are named, not hashed.
        data = (self.digest(fn.__defaults__, f"{label} defaults"),
                self.digest(fn.__kwdefaults__, f"{label} keyword defaults"),
                self._many(b"closure", fn.__closure__ or (), f"{label} closure"))
        if _is_library_module(module):
            return self._hash(b"libfunction", module.encode(), qualname.encode(),
                              _package_version(module).encode(), *data)
        code = fn.__code__
        scope = fn.__globals__
        used = sorted(n for n in _global_names(code) if n in scope)
        return self._hash(
            b"function", self.digest(code, label), *data,
            self._hash(b"globals", *(self._hash(n.encode(),
                                                self.digest(scope[n], f"{label} global {n!r}"))
                                     for n in used)))

    def _class(self, cls, path):
        module, qualname = _qualified(cls)
        if _is_library_module(module):
            return self._hash(b"libclass", module.encode(), qualname.encode(),
                              _package_version(module).encode())
        label = f"class {qualname}"
        members = sorted((k, v) for k, v in vars(cls).items()
                         if k not in ("__dict__", "__weakref__", "__doc__", "__module__",
                                      "__qualname__")
                         and not isinstance(v, (types.MemberDescriptorType,
                                                types.GetSetDescriptorType)))
        return self._hash(
            b"class", qualname.encode(),
            self._many(b"bases", [b for b in cls.__bases__ if b is not object], label),
            self._hash(b"members", *(self._hash(k.encode(), self.digest(v, f"{label}.{k}"))
                                     for k, v in members)))

    def _builtin(self, obj, path):
        owner = getattr(obj, "__self__", None)
        module, qualname = _qualified(obj)
        if isinstance(owner, types.ModuleType):
            module = owner.__name__          # C functions of a module (cv2.resize)
        elif isinstance(owner, type):
            module, qualname = owner.__module__, f"{owner.__qualname__}.{obj.__name__}"
        elif isinstance(obj, np.ufunc):
            module, qualname = "numpy", obj.__name__
        parts = [b"builtin", module.encode(), qualname.encode(),
                 _package_version(module).encode()]
        if owner is not None and not isinstance(owner, (types.ModuleType, type)):
            parts.append(self.digest(owner, f"{path}.__self__"))  # e.g. a bound list.append
        return self._hash(*parts)

    def _instance(self, obj, path):
        cls = type(obj)
        label = f"{path} ({cls.__qualname__} object)" if cls.__qualname__ not in path else path
        try:
            reduced = obj.__reduce_ex__(4)
        except Exception as exc:
            raise Unidentifiable(label, f"a {cls.__module__}.{cls.__qualname__} has no "
                                        f"content to fingerprint ({exc})") from None
        if isinstance(reduced, str):        # pickled by name, as a global
            module, qualname = _qualified(obj)
            module = module or cls.__module__
            named = self._hash(b"named", module.encode(), (qualname or reduced).encode(),
                               _package_version(module).encode())
            wrapped = getattr(obj, "__wrapped__", None)
            if wrapped is not None:
                # A function behind a C wrapper (functools.lru_cache): its code is the key.
                return self._hash(named, self.digest(wrapped, f"{label}.__wrapped__"))
            if _is_library_module(module):
                return named                # np.mean
            raise Unidentifiable(label, "user code that pickle saves by name only, so its "
                                        "code cannot be fingerprinted")
        parts = list(reduced) + [None] * (6 - len(reduced))
        rebuild, args, state, list_items, dict_items = parts[:5]
        return self._hash(
            b"object", self.digest(cls, label), self.digest(rebuild, f"{label} constructor"),
            self.digest(args, f"{label} arguments"), self.digest(state, f"{label} state"),
            self.digest(list(list_items) if list_items is not None else None, f"{label} items"),
            self.digest(list(dict_items) if dict_items is not None else None, f"{label} items"))


def _is_library_callable(obj):
    """A callable implemented in C by a library (a method descriptor, a wrapper) that pickle
    names rather than saves."""
    return isinstance(obj, (types.MethodDescriptorType, types.WrapperDescriptorType,
                            types.MethodWrapperType, types.ClassMethodDescriptorType))
