"""TedliumDataset: the TED-LIUM speech corpus (releases 1, 2 and 3), as
``mindspore.dataset.TedliumDataset``.

Layout: ``{usage}/stm/*.stm`` and ``{usage}/sph/{talk}.sph`` for release1 and release2 (usage
'train', 'test', 'dev'; 'all' (None) reads the three, each folder must be there), ``data/stm``
and ``data/sph`` for release3 (usage 'all' only). Every line of every ``.stm`` file is a row:
``talk_id channel speaker_id start end identifier transcript`` (fields split at single spaces,
the transcript the rest of the line), its audio the samples from ``int(start * rate)`` to
``int(end * rate)`` of ``{talk_id}.sph`` (_sphere.py: NIST SPHERE, 16-bit PCM). Columns:
``waveform`` float32 (1, N), ``sample_rate`` int32, ``transcript``, ``talk_id``, ``speaker_id``,
``identifier`` strings. Rows come in MindSpore 2.10's order (measured): sorted by the line's
number within its file as a string ("0" < "1" < "10" < "2"), then by talk id, then by usage.

Where MindSpore 2.10 differs (README, "Differences from MindSpore"): it serves a waveform of
zeros of the segment's length (measured on every file: it reads the samples into a buffer, then
serves the buffer's zero-filled start), here the segment's samples; it reads every file as
big-endian samples from a byte offset that ignores the header, here the header's byte order
after the header. A line of fewer than seven fields, a time that is not a number or a segment
outside the file is a RuntimeError naming the file and line (MindSpore reads other fields, a
time of 0, or fails on the segment); a CRLF line end loses its ``\\r`` (MindSpore keeps it in
the transcript); a line is read from its own ``.stm`` file (MindSpore reads the line of that
number of ``{talk_id}.stm``, another file where the two names differ).
"""
import functools
import os

import numpy as np

from . import _arrays
from ._source_base import RowSource
from ._sphere import read_segment
from ._validation import check_dir, check_usage, type_check
from .audio_folders import _AudioFolderDataset

API = "TedliumDataset"
RELEASES = ["release1", "release2", "release3"]


def stm_rows(path, usage):
    """[(sort key, row)] of an ``.stm`` file: row = (line number, talk_id, speaker_id, start,
    end, identifier, transcript)."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuntimeError(f"Invalid file, {API} failed to read {path}: {exc}") from exc
    lines = text.split("\n")
    out = []
    for number, line in enumerate(lines[:-1] if lines[-1] == "" else lines):
        fields = line.removesuffix("\r").split(" ", 6)
        where = f"{path} line {number + 1}"
        if len(fields) < 7:
            raise RuntimeError(f"Invalid data, {API} {where}: {line!r} is not 'talk_id channel "
                               f"speaker_id start end identifier transcript'.")
        talk_id, _, speaker_id, start, end, identifier, transcript = fields
        try:
            times = float(start), float(end)
        except ValueError:
            raise RuntimeError(f"Invalid data, {API} {where}: the start {start!r} or end "
                               f"{end!r} is not a number of seconds.") from None
        out.append(((str(number), talk_id, usage),
                    (where, talk_id, speaker_id, *times, identifier, transcript)))
    return out


class TedliumSource(RowSource):
    """The rows of the usage's ``.stm`` files, listed at open; a row's segment is read from its
    ``.sph`` file when the row is read."""

    column_names = ["waveform", "sample_rate", "transcript", "talk_id", "speaker_id",
                    "identifier"]

    def __init__(self, dataset_dir, release, usage, extensions):
        if extensions != ".sph":             # MindSpore's check and words, when it builds
            raise RuntimeError(f"TedliumNode: extension {extensions} is not supported.")
        if release == "release3":
            folders = ["data"]
        else:
            folders = ["train", "test", "dev"] if usage == "all" else [usage]
        keyed = []
        for folder in folders:
            stm = os.path.join(dataset_dir, folder, "stm")
            if not os.path.isdir(stm):
                raise RuntimeError(f"Invalid file, failed to open folder: {stm}")
            for name in sorted(os.listdir(stm)):
                if name.endswith(".stm") and os.path.isfile(os.path.join(stm, name)):
                    keyed += [(key, (folder, row)) for key, row in
                              stm_rows(os.path.join(stm, name), folder)]
        if not keyed:
            raise RuntimeError(f"Invalid data, no valid data matching the dataset API "
                               f"{API}. Please check file path or dataset API. ({dataset_dir}, "
                               f"{release}, usage {usage}: no .stm line)")
        keyed.sort(key=lambda item: item[0])
        self._rows = [(os.path.join(dataset_dir, folder, "sph", row[1] + extensions), row)
                      for _, (folder, row) in keyed]
        self._where = f"{dataset_dir} ({release}, usage {usage})"

    def __len__(self):
        return len(self._rows)

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"{API} {self._where}")
        out = []
        for i in ids.tolist():
            sph, (where, talk_id, speaker_id, start, end, identifier, transcript) = self._rows[i]
            if not os.path.isfile(sph):
                raise RuntimeError(f"Invalid file, failed to open file: {sph} (the audio of "
                                   f"{where}).")
            waveform, rate = read_segment(sph, start, end, API)
            out.append((waveform, np.array(rate, dtype=np.int32), np.array(transcript),
                        np.array(talk_id), np.array(speaker_id), np.array(identifier)))
        return out

    def provenance(self, row_id):
        sph, row = self._rows[int(row_id)]
        return f"{row[0]} ({sph})"

    def describe(self):
        files = sorted({sph for sph, _ in self._rows} | {row[0].rsplit(" line ", 1)[0]
                                                         for _, row in self._rows})
        stamps = [(path, os.path.getmtime(path) if os.path.exists(path) else None)
                  for path in files]
        return f"{API}(where={self._where!r}, files={stamps})"


class TedliumDataset(_AudioFolderDataset):
    """TED-LIUM: columns ``waveform``, ``sample_rate``, ``transcript``, ``talk_id``,
    ``speaker_id``, ``identifier``; as ``mindspore.dataset.TedliumDataset`` (see the module
    docstring)."""
    COLUMNS = TedliumSource.column_names

    def __init__(self, dataset_dir, release, usage=None, extensions=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        type_check(release, (str,), "release")
        if release not in RELEASES:
            raise ValueError(f"Input release is not within the valid set of {RELEASES}.")
        self.release = release
        self.dataset_dir = check_dir(dataset_dir)
        self.usage = check_usage(usage, ["all"] if release == "release3" else
                                 ["train", "test", "dev", "all"])
        self.extensions = ".sph" if extensions is None else extensions
        type_check(self.extensions, (str,), "extensions")
        self._start(functools.partial(TedliumSource, self.dataset_dir, release, self.usage,
                                      self.extensions), num_samples, num_parallel_workers,
                    shuffle, sampler, num_shards, shard_id, cache)
