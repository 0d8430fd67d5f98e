"""_native.read_files: a batch's image files read whole by one native call (the GPU batch node's
image-folder rows), each file's place, the errno of a file it cannot read, and a buffer too small
said, not overrun."""
import errno
import os

import numpy as np
import pytest

from transforms_c import _native


def _names(paths):
    """(addresses, sizes, the buffer holding them) of the paths' bytes, as ImageFiles.locate."""
    encoded = [os.fsencode(p) for p in paths]
    sizes = np.array([len(e) for e in encoded], np.int64)
    blob = np.frombuffer(b"".join(encoded) or b"\0", np.uint8).copy()
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.uint64)
    return starts + np.uint64(blob.ctypes.data), sizes, blob


def _files(tmp_path, contents):
    paths = []
    for i, content in enumerate(contents):
        path = tmp_path / f"file{i}.jpg"
        path.write_bytes(content)
        paths.append(str(path))
    return paths


def test_the_files_one_after_another_byte_for_byte(tmp_path):
    contents = [os.urandom(n) for n in (100, 1, 0, 5000, 37)]
    addresses, sizes, _blob = _names(_files(tmp_path, contents))
    out = np.full(6000, 7, np.uint8)
    offsets, errors, needed = _native.read_files(addresses, sizes, out)
    assert needed == sum(len(c) for c in contents) and not errors.any()
    for k, content in enumerate(contents):
        assert out[offsets[k]:offsets[k + 1]].tobytes() == content
    assert (out[needed:] == 7).all()


def test_a_file_it_cannot_read_gets_its_errno_and_no_place(tmp_path):
    paths = _files(tmp_path, [b"first", b"last"])
    paths[1:1] = [str(tmp_path / "missing.jpg"), str(tmp_path)]
    addresses, sizes, _blob = _names(paths)
    out = np.zeros(64, np.uint8)
    offsets, errors, needed = _native.read_files(addresses, sizes, out)
    assert errors.tolist() == [0, errno.ENOENT, errno.EISDIR, 0]
    assert offsets.tolist() == [0, 5, 5, 5, 9] and needed == 9
    assert out[5:9].tobytes() == b"last"


def test_a_buffer_too_small_is_said_and_not_overrun(tmp_path):
    contents = [b"a" * 10, b"b" * 30, b"c" * 5]
    addresses, sizes, _blob = _names(_files(tmp_path, contents))
    out = np.full(20, 7, np.uint8)
    offsets, errors, needed = _native.read_files(addresses, sizes, out)
    assert needed == 45 and not errors.any()
    assert out[:10].tobytes() == b"a" * 10 and (out[10:] == 7).all()   # the rest not read
    bigger = np.zeros(needed, np.uint8)
    offsets, errors, needed = _native.read_files(addresses, sizes, bigger)
    assert bigger.tobytes() == b"".join(contents) and offsets.tolist() == [0, 10, 40, 45]


def test_names_refused_before_any_file_is_read(tmp_path):
    addresses, sizes, _blob = _names(_files(tmp_path, [b"x"]))
    out = np.zeros(8, np.uint8)
    with pytest.raises(ValueError, match="read_files: row 0 has an empty file name"):
        _native.read_files(addresses, np.zeros(1, np.int64), out)
    with pytest.raises(ValueError, match="read_files: row 0 has 4 bytes at address 0"):
        _native.read_files(np.zeros(1, np.uint64), np.array([4], np.int64), out)
    with pytest.raises(ValueError, match="read_files: 1 addresses and 2 sizes"):
        _native.read_files(addresses, np.ones(2, np.int64), out)
    assert _native.read_files(np.zeros(0, np.uint64), np.zeros(0, np.int64),
                              np.zeros(0, np.uint8))[2] == 0
    assert not out.any()
