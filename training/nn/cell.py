"""`Cell`: the building block of networks, as `mindspore.nn.Cell`.

Subclasses define `construct(*inputs)`; calling the cell runs it. Parameters and sub-cells
assigned as attributes are registered, and named by their attribute path ("fc1.weight") the way
MindSpore names them in checkpoints."""
import warnings
from collections import OrderedDict

import numpy as np

from training import context
from training.backends.base import get_backend
from training.backends.dispatch import is_torch
from training.tensor import Parameter, Tensor


_warned_to_float = []  # one warning per process


class Cell:
    def __init__(self, auto_prefix=True, flags=None):
        object.__setattr__(self, "_params", OrderedDict())
        object.__setattr__(self, "_cells", OrderedDict())
        object.__setattr__(self, "training", False)
        object.__setattr__(self, "_forward_hooks", [])
        object.__setattr__(self, "_forward_pre_hooks", [])
        object.__setattr__(self, "_scope", None)
        object.__setattr__(self, "_flags", dict(flags or {}))
        self.auto_prefix = auto_prefix
        self.requires_grad = False

    # --- registration ---------------------------------------------------------------------
    def __setattr__(self, name, value):
        if "_params" not in self.__dict__:
            raise RuntimeError(f"{type(self).__name__}.__init__ must call super().__init__() "
                               "before assigning attributes")
        params, cells = self.__dict__["_params"], self.__dict__["_cells"]
        if isinstance(value, Parameter):
            if getattr(value, "_local_name", None) is None:
                value._local_name = value.name or name
                value.name = value._local_name
            params[name] = value
            cells.pop(name, None)
            self.__dict__.pop(name, None)
        elif isinstance(value, Cell):
            cells[name] = value
            params.pop(name, None)
            self.__dict__.pop(name, None)
        else:
            if name in params and value is None:
                params[name] = None
                return
            params.pop(name, None)
            cells.pop(name, None)
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        if "_params" in d and name in d["_params"]:
            param = d["_params"][name]
            if d.get("_on_torch") and param is not None and param.requires_grad:
                # Inside a construct running on torch, a trainable weight is its bound torch
                # tensor, so whatever the code does with it (ops, methods, operators) reaches
                # torch's autograd. State Parameters stay Parameters (host-side updates).
                from training.backends.torch_cells import param as torch_param
                return torch_param(param)
            return param
        if "_cells" in d and name in d["_cells"]:
            return d["_cells"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if name in self._params:
            del self._params[name]
        elif name in self._cells:
            del self._cells[name]
        else:
            object.__delattr__(self, name)

    def insert_child_to_cell(self, child_name, child_cell):
        if not isinstance(child_cell, Cell) and child_cell is not None:
            raise TypeError(f"child_cell must be a Cell, but got {type(child_cell).__name__}")
        self._cells[child_name] = child_cell

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"param_name '{param_name}' must not contain '.'")
        setattr(self, param_name, param)

    @property
    def cls_name(self):
        return type(self).__name__

    # --- traversal ------------------------------------------------------------------------
    def cells_and_names(self, cells=None, name_prefix=""):
        seen = set() if cells is None else cells
        if id(self) not in seen:
            seen.add(id(self))
            object.__setattr__(self, "_scope", name_prefix or self.cls_name)
            yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is None:
                continue
            # A cell built with auto_prefix=False (wrappers, optimizers) does not add its
            # children's attribute names, so wrapped networks keep their parameter names.
            if not self.auto_prefix:
                prefix = name_prefix
            else:
                prefix = f"{name_prefix}.{name}" if name_prefix else name
            yield from cell.cells_and_names(seen, prefix)

    def name_cells(self):
        return OrderedDict((n, c) for n, c in self._cells.items() if c is not None)

    def cells(self):
        return [c for c in self._cells.values() if c is not None]

    def parameters_and_names(self, name_prefix="", expand=True):
        seen = set()
        for cell_name, cell in self.cells_and_names(name_prefix=name_prefix):
            for attr, param in cell._params.items():
                if param is None or id(param) in seen:
                    continue
                seen.add(id(param))
                local = getattr(param, "_local_name", None) or attr
                full = f"{cell_name}.{local}" if cell_name else local
                param.name = full
                yield full, param
            if not expand:
                break

    def get_parameters(self, expand=True):
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        return OrderedDict(self.parameters_and_names(expand=recurse))

    def update_parameters_name(self, prefix="", recurse=True):
        for param in self.get_parameters(expand=recurse):
            param.name = prefix + param.name

    def get_sub_cell(self, target):
        cell = self
        for part in target.split(".") if target else []:
            cell = cell._cells.get(part)
            if cell is None:
                raise AttributeError(f"{self.cls_name} has no sub-cell '{target}'")
        return cell

    def apply(self, fn):
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    # --- modes ----------------------------------------------------------------------------
    def set_train(self, mode=True):
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "training", bool(mode))
        return self

    def set_grad(self, requires_grad=True):
        self.requires_grad = requires_grad
        return self

    def add_flags(self, **flags):
        self._flags.update(flags)
        return self

    def add_flags_recursive(self, **flags):
        for _, cell in self.cells_and_names():
            cell._flags.update(flags)
        return self

    def get_flags(self):
        return dict(self._flags)

    def to_float(self, dst_type):
        """MindSpore runs the cell in `dst_type`; here cells compute in float32 (mixed precision
        is Model's amp_level on the torch backend), so a lower precision is announced once
        rather than silently dropped."""
        if np.dtype(dst_type) != np.float32 and not _warned_to_float:
            _warned_to_float.append(True)
            warnings.warn(f"{self.cls_name}.to_float({np.dtype(dst_type)}) has no effect: cells "
                          f"compute in float32 (for mixed precision use Model(amp_level=...) on "
                          f"the torch backend: set_backend('torch') or a GPU device_target)",
                          UserWarning, stacklevel=2)
        return self

    def init_parameters_data(self, auto_parallel_mode=False):
        """MindSpore initializes lazily; here parameters hold their data already."""
        return {param: param for param in self.get_parameters()}

    def extend_repr(self):
        return ""

    def __repr__(self):
        lines = [f"{self.cls_name}<{self.extend_repr()}>"]
        for name, cell in self._cells.items():
            child = repr(cell).replace("\n", "\n  ")
            lines.append(f"  ({name}): {child}")
        return "\n".join(lines) if len(lines) > 1 else lines[0]

    # --- hooks ----------------------------------------------------------------------------
    def register_forward_hook(self, hook_fn, prepend=False, with_kwargs=False, always_call=False):
        hooks = self._forward_hooks
        hooks.insert(0, hook_fn) if prepend else hooks.append(hook_fn)
        return _HookHandle(hooks, hook_fn)

    def register_forward_pre_hook(self, hook_fn, prepend=False, with_kwargs=False):
        hooks = self._forward_pre_hooks
        hooks.insert(0, hook_fn) if prepend else hooks.append(hook_fn)
        return _HookHandle(hooks, hook_fn)

    # --- calling --------------------------------------------------------------------------
    def construct(self, *args, **kwargs):
        raise NotImplementedError(f"{self.cls_name} must define construct()")

    def __call__(self, *args, **kwargs):
        if self._scope is None:
            for _ in self.cells_and_names():  # names every sub-cell for error messages
                pass
        on_torch = bool(args) and is_torch(args[0])
        if not on_torch:  # torch tensors are on their device already
            if args and get_backend() == "torch":
                from training.backends import torch_cells
                # host data goes to the device (not Parameters: host-side cells update those)
                if torch_cells.is_host_data(args[0]):
                    return torch_cells.to_torch_call(self, args, kwargs)
            check_cpu_target(self.cls_name)
        args = tuple(_as_tensor(a) for a in args)
        for hook in self._forward_pre_hooks:
            replaced = hook(self, args)
            if replaced is not None:
                args = replaced if isinstance(replaced, tuple) else (replaced,)
        previous = self.__dict__.get("_on_torch", False)  # a cell may be called inside itself
        object.__setattr__(self, "_on_torch", on_torch)
        try:
            out = self.construct(*args, **kwargs)
        finally:
            object.__setattr__(self, "_on_torch", previous)
        for hook in self._forward_hooks:
            replaced = hook(self, args, out)
            if replaced is not None:
                out = replaced
        from training import dump  # lazy: dump is configured from the environment
        if dump.enabled():
            dump.record(self, args, out)
        return out

    def scope_name(self):
        """The cell's attribute path in its network ("features.conv1"), for messages."""
        return self._scope or self.cls_name

    def check_bool(self, name, value):
        """``value``, or a TypeError for a flag argument that is not a bool, in MindSpore's
        words (1 is no bool)."""
        if not isinstance(value, bool):
            raise TypeError(f"For '{self.cls_name}', the type of '{name}' should be 'bool', but "
                            f"got type '{type(value).__name__}'.")
        return value

    def check_input(self, x, condition, expected):
        """Raise ValueError naming this layer, the expected and the received shape."""
        if not condition:
            shape = tuple(x.shape) if hasattr(x, "shape") else type(x).__name__
            raise ValueError(f"For '{self.cls_name}' layer '{self.scope_name()}', the input "
                             f"shape must be {expected}, but got {shape}")


def _as_tensor(value):
    """Arrays and array-likes with MindSpore's interface (minddata's Tensor) become Tensors."""
    if isinstance(value, np.ndarray):
        return Tensor(value)
    if not isinstance(value, Tensor) and callable(getattr(value, "asnumpy", None)):
        return Tensor(value.asnumpy())
    return value


def check_cpu_target(api):
    """A cell called with numpy-backend Tensors runs on the CPU. With device_target GPU/Ascend:
    where that device is missing, MindSpore warns and runs on the CPU, and so does this
    (training.backends.devices); where it is present, the torch backend runs Model's cells on
    it (host-side calls such as learning-rate schedules stay on the CPU), while the numpy
    backend cannot use it, which is an error rather than a silent CPU run."""
    target = context.get_context("device_target")
    if target == "CPU":
        return
    from training.backends.devices import fall_back_to_cpu, missing_reason
    reason = missing_reason(target)
    if reason is not None:
        fall_back_to_cpu(target, reason)
    elif get_backend() != "torch":
        raise RuntimeError(f"For '{api}', device_target is '{target}' but training.nn cells run "
                           f"on the CPU only on the numpy backend. Use set_backend('torch') (or "
                           f"set_backend(None): the context then picks torch), or "
                           f"set_context(device_target='CPU')")


class _HookHandle:
    def __init__(self, hooks, fn):
        self._hooks, self._fn = hooks, fn

    def remove(self):
        if self._fn in self._hooks:
            self._hooks.remove(self._fn)
