"""EmbeddingLookup (MindSpore 2.10's nn.EmbeddingLookup, one device): rows of
'embedding_table' by index. target 'CPU' (MindSpore's EmbeddingLookup kernel) gives a row of
zeros for an index outside [0, vocab_size); 'DEVICE' (a Gather) refuses one. max_norm clips
each row's L2 norm. slice_mode and manual_shapes shard the table in auto parallel mode only,
which this package has not: they are kept, unused, as MindSpore keeps them outside it."""
import numpy as np

from training.backends.dispatch import is_torch
from training.nn import initializer
from training.nn.cell import Cell
from training.nn.layers.arguments import positive_float
from training.nn.layers.norm_clip import clip_by_norm
from training.ops.array_kernels import gather
from training.tensor import Parameter, Tensor, as_array


def _positive_int(value, name):
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"The '{name}' must be int and must > 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return value


class EmbeddingLookup(Cell):
    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", manual_shapes=None, max_norm=None, sparse=True,
                 dtype=np.float32):
        super().__init__()
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'EmbeddingLookup', the type of 'sparse' should be 'bool', but "
                            f"got type '{type(sparse).__name__}'.")
        self.vocab_size = _positive_int(vocab_size, "vocab_size")
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For 'EmbeddingLookup', the 'target' must be str and must be in "
                             f"'['CPU', 'DEVICE']', but got '{target}'.")
        if not sparse and target == "CPU":
            raise ValueError(f"For 'EmbeddingLookup', 'sparse' must be True when 'target' is "
                             f"\"CPU\", but got 'sparse': {sparse} and 'target': {target}")
        self.embedding_size = _positive_int(embedding_size, "embedding_size")
        self.target, self.sparse = target, sparse
        self.slice_mode, self.manual_shapes = slice_mode, manual_shapes
        self.max_norm = max_norm if max_norm is None else \
            positive_float(max_norm, "max_norm", "EmbeddingLookup")
        self.embedding_table = Parameter(initializer.initialize(
            param_init, (vocab_size, embedding_size), dtype, "embedding_table"),
            name="embedding_table")

    def construct(self, indices):
        kind = str(indices.dtype).split(".")[-1]
        if kind not in ("int32", "int64"):
            raise TypeError(f"For primitive[EmbeddingLookup], the input argument[indices] must "
                            f"be a type of {{Tensor[Int32], Tensor[Int64]}}, but got "
                            f"Tensor[{kind.capitalize()}].")
        out = self._rows(indices)
        if self.max_norm is None:
            return out
        axes = tuple(range(indices.ndim, out.ndim))
        return clip_by_norm(out, self._like(out, np.array(self.max_norm, np.float32)), axes)

    @staticmethod
    def _like(x, array):
        if is_torch(x):
            import torch
            return torch.as_tensor(array, device=x.device)
        return Tensor(array)

    def _rows(self, indices):
        vocab = self.vocab_size
        if is_torch(indices):
            import torch
            from training.backends.torch_cells import param
            inside = (indices >= 0) & (indices < vocab)
            if self.target == "DEVICE" and not bool(inside.all()):
                self._refuse(indices[~inside][0].item())
            rows = torch.nn.functional.embedding(indices.long().clamp(0, vocab - 1),
                                                 param(self.embedding_table))
            return rows * inside.unsqueeze(-1).to(rows.dtype)
        index = np.asarray(as_array(indices))
        inside = (index >= 0) & (index < vocab)
        if self.target == "DEVICE" and not inside.all():
            self._refuse(index[~inside][0])
        rows = gather(self.embedding_table, np.clip(index, 0, vocab - 1), 0)
        if inside.all():
            return rows
        return rows * Tensor(inside[..., None].astype(rows.dtype))

    def _refuse(self, index):
        raise RuntimeError(f"For 'Gather', the 'input_indices' should be in the range [0, "
                           f"{self.vocab_size}), but got {index}, error_code[58]")

    def extend_repr(self):
        return f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, " \
               f"target={self.target}, max_norm={self.max_norm}"
