"""Embedding: a lookup table of `vocab_size` rows, trained through the rows it gathered."""
import numpy as np

from training.backends.dispatch import is_torch
from training.nn import initializer
from training.nn.cell import Cell
from training.ops.array_kernels import gather
from training.tensor import Parameter, as_array


class Embedding(Cell):
    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=np.int32, padding_idx=None):
        super().__init__()
        for name, value in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"For 'Embedding', '{name}' must be a positive int, but got "
                                 f"{value!r}")
        if padding_idx is not None and not -vocab_size <= padding_idx < vocab_size:
            raise ValueError(f"For 'Embedding', 'padding_idx' must be in [{-vocab_size}, "
                             f"{vocab_size}), but got {padding_idx}")
        self.vocab_size, self.embedding_size = vocab_size, embedding_size
        self.use_one_hot, self.padding_idx = use_one_hot, padding_idx
        table = initializer.initialize(embedding_table, (vocab_size, embedding_size),
                                       np.float32, "embedding_table")
        if padding_idx is not None:
            table[padding_idx] = 0
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        if is_torch(ids):
            import torch.nn.functional as F
            from training.backends.torch_cells import param
            from training.backends.torch_kernels import out_of_range_as_value_error
            self.check_input(ids, not ids.is_floating_point(), "integer ids")
            with out_of_range_as_value_error(f"For 'Embedding' layer '{self.scope_name()}', "
                                             f"ids must be in [0, {self.vocab_size})"):
                return F.embedding(ids.long(), param(self.embedding_table))
        index = np.asarray(as_array(ids))
        self.check_input(ids, index.dtype.kind in "iu", "integer ids")
        if index.size and (index.min() < 0 or index.max() >= self.vocab_size):
            raise ValueError(f"For 'Embedding' layer '{self.scope_name()}', ids must be in "
                             f"[0, {self.vocab_size}), but got values in [{index.min()}, "
                             f"{index.max()}]")
        return gather(self.embedding_table, index, 0)

    def extend_repr(self):
        return f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}"
