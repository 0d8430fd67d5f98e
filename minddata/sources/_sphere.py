"""Reading NIST SPHERE (``.sph``) audio files, the TED-LIUM corpus's format (TedliumDataset).

A SPHERE file is a text header, then the samples. The header's first line is ``NIST_1A``, its
second the header's size in bytes (1024 most often), then one ``name -type value`` line per
field (``-i`` integer, ``-r`` real, ``-sN`` string of N characters) up to ``end_head``; the rest
of the header is padding. Read here: 16-bit linear PCM (``sample_coding`` ``pcm`` or absent,
``sample_n_bytes`` 2), one channel, in the byte order of ``sample_byte_format`` (``01``
little-endian, ``10`` big-endian). A shorten-compressed file (``sample_coding`` naming
``shorten``: convert it with sph2pipe or sox first) or another coding, sample size or channel
count is a RuntimeError naming the file, never samples read as something else.

A segment's samples are scaled as MindSpore 2.10 scales them, ``sample / 32767.0`` in double
precision served as float32 (MindSpore 2.10's TedliumDataset then serves zeros instead: see
tedlium.py).
"""
import numpy as np

_MAGIC = b"NIST_1A"
_BYTE_ORDERS = {"01": "<i2", "10": ">i2"}
_SCALE = 32767.0


def _fail(path, api, what):
    return RuntimeError(f"Invalid file, {api} failed to read the SPHERE file {path}: {what}")


def _header_fields(text, path, api):
    """{name: value} of the header's field lines (int for -i, float for -r, str for -sN)."""
    fields = {}
    for line in text.split("\n")[2:]:
        line = line.strip(" \r")
        if line == "end_head":
            return fields
        if not line:
            continue
        parts = line.split(" ", 2)
        if len(parts) < 3 or not parts[1].startswith("-"):
            raise _fail(path, api, f"header line {line!r} is not 'name -type value'")
        name, kind, value = parts
        try:
            fields[name] = int(value) if kind == "-i" else float(value) if kind == "-r" else value
        except ValueError:
            raise _fail(path, api, f"header field {name} {kind} {value!r} is not of its "
                                   f"type") from None
    raise _fail(path, api, "the header has no end_head line")


def read_header(path, api):
    """(header size in bytes, {field: value}) of a SPHERE file."""
    try:
        with open(path, "rb") as f:
            start = f.read(16)
            if not start.startswith(_MAGIC + b"\n"):
                raise _fail(path, api, "it does not start with NIST_1A (not a SPHERE file)")
            size_line = start[len(_MAGIC) + 1:].split(b"\n", 1)[0]
            try:
                size = int(size_line)
            except ValueError:
                raise _fail(path, api, f"the header size {size_line!r} is not a number") from None
            f.seek(0)
            head = f.read(size)
    except OSError as exc:
        raise _fail(path, api, str(exc)) from exc
    if len(head) < size:
        raise _fail(path, api, f"the file ends inside its {size}-byte header")
    text = head.split(b"\0", 1)[0].decode("ascii", "replace")
    return size, _header_fields(text, path, api)


def sample_format(fields, path, api):
    """(numpy dtype of a sample, sample rate) of a header, or the RuntimeError saying why the
    file is not one this reader reads."""
    coding = str(fields.get("sample_coding", "pcm"))
    if "shorten" in coding:
        raise _fail(path, api, f"its samples are shorten-compressed (sample_coding {coding}); "
                               f"decompress it first (sph2pipe -f sph, or sox)")
    if coding != "pcm":
        raise _fail(path, api, f"sample_coding {coding} is not read (16-bit PCM only)")
    if fields.get("channel_count", 1) != 1 or fields.get("sample_n_bytes") != 2:
        raise _fail(path, api, f"{fields.get('channel_count', 1)} channel(s) of "
                               f"{fields.get('sample_n_bytes')}-byte samples (1 channel of "
                               f"16-bit samples only)")
    order = str(fields.get("sample_byte_format", ""))
    if order not in _BYTE_ORDERS:
        raise _fail(path, api, f"sample_byte_format {order or '(none)'} is not 01 or 10")
    rate = fields.get("sample_rate")
    if not isinstance(rate, int) or rate <= 0:
        raise _fail(path, api, f"sample_rate {rate} is not a positive integer")
    return np.dtype(_BYTE_ORDERS[order]), rate


def read_segment(path, start_seconds, end_seconds, api):
    """(waveform float32 (1, N), sample rate) of the samples from ``int(start_seconds * rate)``
    up to ``int(end_seconds * rate)`` of a SPHERE file."""
    size, fields = read_header(path, api)
    dtype, rate = sample_format(fields, path, api)
    first, stop = int(start_seconds * rate), int(end_seconds * rate)
    count = fields.get("sample_count")
    if first < 0 or stop < first or (isinstance(count, int) and stop > count):
        raise _fail(path, api, f"the segment {start_seconds}s to {end_seconds}s (samples "
                               f"{first} to {stop}) is not inside its {count} samples")
    try:
        with open(path, "rb") as f:
            f.seek(size + 2 * first)
            data = f.read(2 * (stop - first))
    except OSError as exc:
        raise _fail(path, api, str(exc)) from exc
    if len(data) < 2 * (stop - first):
        raise _fail(path, api, f"it ends before sample {stop} of the segment {start_seconds}s "
                               f"to {end_seconds}s")
    samples = np.frombuffer(data, dtype=dtype).astype(np.float64) / _SCALE
    return samples.astype(np.float32).reshape(1, -1), rate
