"""The speech and music datasets read from a folder of WAV files: YesNo, SpeechCommands,
LJSpeech, CMUArctic, LibriTTS and GTZAN. Each lists its files and their metadata when the pipeline opens the source and reads
a row's WAV file when the row is read (_wav.py: a float32 ``(1, N)`` waveform scaled as
MindSpore scales it). Mappable sources, as MindSpore's: ``shuffle`` None or a bool, a
``sampler``, shards as the other mappable sources here.

As MindSpore 2.10 (measured):

- YesNo: every ``*.wav`` of the folder; ``sample_rate`` int32, ``label`` the file name's
  ``_``-separated integers (1-D int32). Files in the order of their names (MindSpore: the order
  the folder lists them in).
- SpeechCommands: ``{label}/{speaker}_nohash_{n}.wav`` of every folder but
  ``_background_noise_`` (usage 'all', None), in path order; usage 'valid' / 'test' the paths
  each line of ``validation_list.txt`` / ``testing_list.txt`` names (a missing file fails when
  read), 'train' the others; a usage without files has an empty epoch; ``sample_rate`` and
  ``utterance_number`` int32, ``label`` (the folder) and ``speaker_id`` strings.
  ``get_dataset_size()`` is the usage's count (MindSpore: every file's, whatever the usage,
  and a RuntimeError where there is none).
- LJSpeech: the lines of ``metadata.csv`` (``id|transcription|normalized``) in order, each
  ``wavs/{id}.wav``; ``sample_rate`` int32.
- CMUArctic: ``cmu_us_{name}_arctic/etc/txt.done.data``'s lines ``( arctic_a0001 "text" )`` in
  order, each ``wav/{id}.wav`` (its rate must be 16000); ``sample_rate`` uint32,
  ``utterance_id`` the id without ``arctic_``.

- LibriTTS: each chapter's ``{speaker}_{chapter}.trans.tsv`` lines
  (``utterance\toriginal\tnormalized``) in file order, each ``{utterance}.wav`` beside it;
  usage one part (``dev-clean`` ... ``train-other-500``) or 'all' (None: the parts that are
  there); its rate must be 24000; ``sample_rate``, ``speaker_id``, ``chapter_id`` uint32. Speakers and chapters in the
  order of their names (MindSpore: the order the file system lists them in).

- GTZAN (usage 'all' only): ``{genre}/{genre}.*.wav`` of the ten genres (22050 Hz), genres
  and files in name order (MindSpore: files in the order the file system lists them in);
  ``sample_rate`` uint32, ``label`` the genre.

A line of the metadata that does not parse, or a WAV file it names that is missing, is a
RuntimeError when the data is first counted (LibriTTS: a missing WAV file when read).
"""
import functools
import os
import re

import numpy as np

from . import _arrays
from ._no_rows import FailsWhenReadIfEmpty
from ._source_base import RowSource, SourceDataset
from ._validation import check_dir, check_mappable_shuffle, check_sampling_args, check_usage
from ._wav import read_wav


class AudioRowsSource(FailsWhenReadIfEmpty, RowSource):
    """Rows of WAV files: ``(waveform, sample_rate, *metadata)``; ``items`` lists each file's
    path and its metadata (values, or a function of the path giving them when the row is read,
    where MindSpore reads them from the file's name then), ``rate_dtype`` is the sample rate's
    type, ``rate`` the one rate the files must have (None: any); without items, an epoch fails
    when read unless ``empty_ok`` (then it has no row)."""

    def __init__(self, api, column_names, rate_dtype, items, where, rate=None, empty_ok=False):
        self._api, self.column_names, self._rate_dtype = api, list(column_names), rate_dtype
        self._items, self._where, self._rate = items, where, rate
        if not items and not empty_ok:
            self._no_rows = (f"Invalid data, {api} API can't read the data file (interface "
                             f"mismatch or no data found). Check file path: {where}.")

    def __len__(self):
        return len(self._items)

    def read_rows(self, ids):
        ids = _arrays.as_int_ids(ids)
        _arrays.check_ids(ids, len(self), f"{self._api} {self._where}")
        rows = []
        for i in ids.tolist():
            path, metadata = self._items[i]
            waveform, rate = read_wav(path, self._api)
            if self._rate is not None and rate != self._rate:
                raise RuntimeError(f"Invalid file, the sampling rate of a {self._api} WAV file "
                                   f"must be {self._rate}, but {path} has {rate}.")
            metadata = metadata(path) if callable(metadata) else metadata
            rows.append((waveform, np.array(rate, dtype=self._rate_dtype)) +
                        tuple(np.array(value) for value in metadata))
        return rows

    def provenance(self, row_id):
        return self._items[int(row_id)][0]

    def describe(self):
        stamps = [(path, os.path.getmtime(path) if os.path.exists(path) else None)
                  for path, _ in self._items]
        return f"{self._api}(where={self._where!r}, files={stamps})"


def wav_names(directory):
    """The ``*.wav`` files of a folder, in name order."""
    return sorted(name for name in os.listdir(directory) if name.endswith(".wav") and
                  os.path.isfile(os.path.join(directory, name)))


def metadata_wav(path, api, where):
    """``path`` where it is a file, else the RuntimeError naming the metadata line."""
    if not os.path.isfile(path):
        raise RuntimeError(f"Invalid file, {api}: the WAV file {path} of {where} does not "
                           f"exist.")
    return path


def yes_no_labels(path):
    """The labels of a YesNo file: its name's ``_``-separated integers."""
    name = os.path.basename(path)[:-4]
    try:
        return (np.array([int(part) for part in name.split("_")], dtype=np.int32),)
    except ValueError:
        raise RuntimeError(f"Invalid file name, YesNoDataset reads the labels from names of "
                           f"'_'-separated integers, but got {path}.") from None


def open_yes_no(dataset_dir):
    items = [(os.path.join(dataset_dir, name), yes_no_labels) for name in wav_names(dataset_dir)]
    return AudioRowsSource("YesNoDataset", YesNoDataset.COLUMNS, np.int32, items, dataset_dir)


def _listed(dataset_dir, list_name):
    """The paths a SpeechCommands list file names, each line as it is (none if it is not
    there)."""
    path = os.path.join(dataset_dir, list_name)
    if not os.path.isfile(path):
        return set()
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8").split("\n")
    return {os.path.join(dataset_dir, line) for line in (lines[:-1] if lines[-1] == "" else lines)}


def speech_commands_info(path):
    """(label, speaker_id, utterance_number) of a SpeechCommands file, from its path."""
    found = re.fullmatch(r"(.*)_nohash_(\d+)\.wav", os.path.basename(path))
    if not found or not found.group(1) or int(found.group(2)) > 2 ** 31 - 1:
        raise RuntimeError(f"Invalid file name, SpeechCommandsDataset reads "
                           f"'{{speaker}}_nohash_{{number}}.wav' (an int32 number), but got "
                           f"{path}.")
    return (os.path.basename(os.path.dirname(path)), found.group(1),
            np.int32(int(found.group(2))))


def speech_commands_files(dataset_dir):
    """Every ``*.wav`` of the folders but ``_background_noise_``; RuntimeError (MindSpore's
    words) where there is no such folder or file."""
    folders = [os.path.join(dataset_dir, name) for name in os.listdir(dataset_dir)
               if os.path.isdir(os.path.join(dataset_dir, name)) and
               "_background_noise_" not in name]
    if not folders:
        raise RuntimeError(f"Invalid file, failed to open directory: {dataset_dir} (no folder "
                           f"but _background_noise_).")
    found = {os.path.join(folder, name) for folder in folders for name in os.listdir(folder)
             if name.endswith(".wav") and name != ".wav"}
    if not found:
        raise RuntimeError(f"Invalid file, no .wav files found under {dataset_dir}")
    return found


def open_speech_commands(dataset_dir, usage):
    """The usage's files; 'test' and 'valid' read only their list (MindSpore 2.10 lists the
    folders for them only to count them); a usage without files has an empty epoch."""
    if usage in ("test", "valid"):
        files = _listed(dataset_dir, f"{'testing' if usage == 'test' else 'validation'}_list.txt")
    else:
        files = speech_commands_files(dataset_dir)
    if usage == "train":
        files -= _listed(dataset_dir, "testing_list.txt") | _listed(dataset_dir,
                                                                    "validation_list.txt")
    items = [(path, speech_commands_info) for path in sorted(files)]
    return AudioRowsSource("SpeechCommandsDataset", SpeechCommandsDataset.COLUMNS, np.int32,
                           items, f"{dataset_dir} (usage {usage})", empty_ok=True)


def open_lj_speech(dataset_dir):
    metadata = os.path.join(dataset_dir, "metadata.csv")
    if not os.path.isfile(metadata):
        raise RuntimeError(f"Invalid file, LJSpeechDataset: {metadata} does not exist.")
    items = []
    with open(metadata, encoding="utf-8", newline="") as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines[:-1] if lines[-1] == "" else lines, 1):
        line = line[:-1] if line.endswith("\r") else line
        fields = line.split("|")
        if len(fields) < 3:
            raise RuntimeError(f"Invalid data, LJSpeechDataset {metadata} line {number}: "
                               f"{line!r} is not 'id|transcription|normalized'.")
        wav = metadata_wav(os.path.join(dataset_dir, "wavs", fields[0] + ".wav"),
                           "LJSpeechDataset", f"{metadata} line {number}")
        items.append((wav, (fields[1], fields[2])))
    return AudioRowsSource("LJSpeechDataset", LJSpeechDataset.COLUMNS, np.int32, items,
                           dataset_dir)


_ARCTIC_LINE = re.compile(r'\(\s*(\S+)\s+"(.*)"\s*\)\s*')


def open_cmu_arctic(dataset_dir, name):
    root = os.path.join(dataset_dir, f"cmu_us_{name}_arctic")
    metadata = os.path.join(root, "etc", "txt.done.data")
    if not os.path.isfile(metadata):
        raise RuntimeError(f"Invalid file, CMUArcticDataset: {metadata} does not exist.")
    items = []
    with open(metadata, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines[:-1] if lines[-1] == "" else lines, 1):
        found = _ARCTIC_LINE.fullmatch(line.rstrip("\r"))
        if not found:
            raise RuntimeError(f"Invalid data, CMUArcticDataset {metadata} line {number}: "
                               f"{line!r} is not '( arctic_a0001 \"text\" )'.")
        utterance, transcript = found.groups()
        wav = metadata_wav(os.path.join(root, "wav", utterance + ".wav"), "CMUArcticDataset",
                           f"{metadata} line {number}")
        items.append((wav, (transcript, utterance.split("_", 1)[-1])))
    return AudioRowsSource("CMUArcticDataset", CMUArcticDataset.COLUMNS, np.uint32, items, root,
                           rate=16000)


GTZAN_GENRES = ["blues", "classical", "country", "disco", "hiphop", "jazz", "metal", "pop",
                "reggae", "rock"]


def open_gtzan(dataset_dir):
    """``{genre}/{genre}.*.wav`` of the ten genres (22050 Hz)."""
    items = []
    for genre in GTZAN_GENRES:
        folder = os.path.join(dataset_dir, genre)
        if os.path.isdir(folder):
            items += [(os.path.join(folder, name), (genre,)) for name in wav_names(folder)
                      if name.startswith(genre + ".")]
    return AudioRowsSource("GTZANDataset", GTZANDataset.COLUMNS, np.uint32, items, dataset_dir,
                           rate=22050)


LIBRI_TTS_PARTS = ["dev-clean", "dev-other", "test-clean", "test-other", "train-clean-100",
                   "train-clean-360", "train-other-500"]


def _folders(path):
    return sorted(name for name in os.listdir(path) if os.path.isdir(os.path.join(path, name)))


def libri_tts_utterance(path, number, line):
    """(wav path, metadata) of a ``{utterance}\\t{original}\\t{normalized}`` line of a
    chapter's ``.trans.tsv``; the speaker and chapter are the utterance id's first parts."""
    fields = line.split("\t", 2)       # the normalized text is the rest of the line (measured)
    parts = fields[0].split("_")
    if len(fields) < 3 or len(parts) < 2 or not all(p.isdigit() and int(p) < 2 ** 32
                                                      for p in parts[:2]):
        raise RuntimeError(f"Invalid data, LibriTTSDataset {path} line {number}: {line!r} is "
                           f"not '{{speaker}}_{{chapter}}_..\\t{{original}}\\t{{normalized}}'.")
    wav = os.path.join(os.path.dirname(path), fields[0] + ".wav")
    return wav, (fields[1], fields[2], np.uint32(parts[0]), np.uint32(parts[1]), fields[0])


def open_libri_tts(dataset_dir, usage):
    parts = LIBRI_TTS_PARTS if usage == "all" else [usage]
    items = []
    for part in parts:
        root = os.path.join(dataset_dir, part)
        if not os.path.isdir(root):
            if usage == "all":
                continue
            raise RuntimeError(f"Invalid file, LibriTTSDataset: {root} does not exist.")
        for speaker in _folders(root):
            for chapter in _folders(os.path.join(root, speaker)):
                path = os.path.join(root, speaker, chapter, f"{speaker}_{chapter}.trans.tsv")
                if not os.path.isfile(path):
                    continue
                with open(path, encoding="utf-8", newline="") as f:
                    lines = f.read().split("\n")
                items += [libri_tts_utterance(path, number, line.rstrip("\r"))
                          for number, line in enumerate(lines, 1) if line.rstrip("\r")]
    return AudioRowsSource("LibriTTSDataset", LibriTTSDataset.COLUMNS, np.uint32, items,
                           f"{dataset_dir} (usage {usage})", rate=24000)


class _AudioFolderDataset(SourceDataset):
    """MindSpore's checks of a mappable audio dataset, then the hand-over of ``factory``."""
    COLUMNS = None

    def _start(self, factory, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
               shard_id, cache):
        check_mappable_shuffle(shuffle)
        check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                            shard_id)
        super().__init__(factory, num_samples=num_samples, shuffle=shuffle,
                         num_shards=num_shards, shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=self.COLUMNS)


class YesNoDataset(_AudioFolderDataset):
    """YesNo: columns ``waveform``, ``sample_rate``, ``label``; as
    ``mindspore.dataset.YesNoDataset`` (see the module docstring)."""
    COLUMNS = ["waveform", "sample_rate", "label"]

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(dataset_dir)
        self._start(functools.partial(open_yes_no, self.dataset_dir), num_samples,
                    num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)


class SpeechCommandsDataset(_AudioFolderDataset):
    """SpeechCommands: columns ``waveform``, ``sample_rate``, ``label``, ``speaker_id``,
    ``utterance_number``; as ``mindspore.dataset.SpeechCommandsDataset``."""
    COLUMNS = ["waveform", "sample_rate", "label", "speaker_id", "utterance_number"]

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(dataset_dir)
        self.usage = check_usage(usage, ["train", "test", "valid", "all"])
        self._start(functools.partial(open_speech_commands, self.dataset_dir, self.usage),
                    num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                    cache)


class LJSpeechDataset(_AudioFolderDataset):
    """LJSpeech: columns ``waveform``, ``sample_rate``, ``transcription``,
    ``normalized_transcription``; as ``mindspore.dataset.LJSpeechDataset``."""
    COLUMNS = ["waveform", "sample_rate", "transcription", "normalized_transcription"]

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(dataset_dir)
        self._start(functools.partial(open_lj_speech, self.dataset_dir), num_samples,
                    num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)


ARCTIC_NAMES = ["aew", "ahw", "aup", "awb", "axb", "bdl", "clb", "eey", "fem", "gka", "jmk",
                "ksp", "ljm", "lnh", "rms", "rxr", "slp", "slt"]


class CMUArcticDataset(_AudioFolderDataset):
    """CMU Arctic (one speaker, ``name``, default 'aew'): columns ``waveform``,
    ``sample_rate``, ``transcript``, ``utterance_id``; as
    ``mindspore.dataset.CMUArcticDataset``."""
    COLUMNS = ["waveform", "sample_rate", "transcript", "utterance_id"]

    def __init__(self, dataset_dir, name=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(dataset_dir)
        if name is None:
            name = "aew"
        if not isinstance(name, str):
            raise TypeError(f"Argument name with value {name} is not of type [<class 'str'>], "
                            f"but got {type(name)}.")
        if name not in ARCTIC_NAMES:
            raise ValueError(f"Input name is not within the valid set of {ARCTIC_NAMES}.")
        self.name = name
        self._start(functools.partial(open_cmu_arctic, self.dataset_dir, name), num_samples,
                    num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)


class LibriTTSDataset(_AudioFolderDataset):
    """LibriTTS: columns ``waveform``, ``sample_rate`` (uint32), ``original_text``,
    ``normalized_text``, ``speaker_id``, ``chapter_id`` (uint32), ``utterance_id``; as
    ``mindspore.dataset.LibriTTSDataset``."""
    COLUMNS = ["waveform", "sample_rate", "original_text", "normalized_text", "speaker_id",
               "chapter_id", "utterance_id"]

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(dataset_dir)
        self.usage = check_usage(usage, LIBRI_TTS_PARTS + ["all"])
        self._start(functools.partial(open_libri_tts, self.dataset_dir, self.usage),
                    num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id,
                    cache)


class GTZANDataset(_AudioFolderDataset):
    """GTZAN music genres: columns ``waveform``, ``sample_rate`` (uint32), ``label`` (the
    genre); as ``mindspore.dataset.GTZANDataset`` with usage 'all' (None). Usage 'train',
    'valid' and 'test' are MindSpore's fixed lists of the files of each split, which this
    package does not carry: a ValueError."""
    COLUMNS = ["waveform", "sample_rate", "label"]

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(dataset_dir)
        self.usage = check_usage(usage, ["train", "valid", "test", "all"])
        if self.usage != "all":
            raise ValueError(f"GTZANDataset usage {usage!r}: MindSpore's train/valid/test "
                             f"splits are fixed lists of file names this package does not "
                             f"carry; read usage='all' and split its rows.")
        self._start(functools.partial(open_gtzan, self.dataset_dir), num_samples,
                    num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache)
