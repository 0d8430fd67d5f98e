"""PaddedDataset: rows given as a list of dicts, to pad a dataset's shards.

As in MindSpore, a GeneratorDataset over the samples: the columns are the first sample's keys
(in their order), each value converted as GeneratorDataset converts a value (``np.asarray``),
no shuffling. Typical use: ``data + ds.PaddedDataset([...])`` so that the concatenated rows
divide evenly by the number of shards.

Differences: every sample must have the first one's keys (MindSpore fails on a missing key only
when it reads that row, and ignores extra keys), and values are converted when the dataset is
built, so a value that is no array fails on the line that built it. Each read returns copies, so
a ``map`` that writes into a row cannot change the samples.
"""
import numpy as np

from ..cache.identity import describe_value
from ..generator import GeneratorDataset, make_row
from ._validation import type_check


class _PaddedRows:
    """Random access to the converted samples, with the content as cache identity."""

    def __init__(self, rows):
        self._rows = rows
        self.cache_identity = f"PaddedDataset#{describe_value(rows, 'padded_samples')}"

    def __len__(self):
        return len(self._rows)

    def __getitem__(self, index):
        return tuple(v.copy() if isinstance(v, np.ndarray) else v for v in self._rows[index])


class PaddedDataset(GeneratorDataset):
    """Rows from ``padded_samples`` (a non-empty list of dicts, column name -> value). Same
    signature and errors as ``mindspore.dataset.PaddedDataset``."""

    def __init__(self, padded_samples):
        if not padded_samples:
            raise ValueError("padded_samples cannot be empty.")
        type_check(padded_samples, (list,), "padded_samples")
        for sample in padded_samples:
            type_check(sample, (dict,), "padded_element")
        names = list(padded_samples[0])
        if not names:
            raise ValueError("padded_samples[0] has no column: each sample must map column "
                             "names to values.")
        for name in names:
            type_check(name, (str,), "padded_samples column name")
        rows = []
        for i, sample in enumerate(padded_samples):
            if set(sample) != set(names):
                raise ValueError(f"padded_samples[{i}] has the columns {sorted(sample)}, but "
                                 f"padded_samples[0] has {sorted(names)}: every sample must "
                                 f"have the same columns.")
            rows.append(make_row(tuple(sample[n] for n in names), names, None,
                                 f"padded_samples[{i}]"))
        self.padded_samples = padded_samples
        super().__init__(_PaddedRows(rows), column_names=names, shuffle=False)
