"""A batch of encoded rows read for a batch decoder (vision/decode.py): jpeg_batch_sizes reads
every JPEG header at once and agrees with jpeg_size row by row, and leaves to the CPU decode
the files another decoder might misread; gather_encoded packs the rows
into one buffer, byte for byte, and refuses before copying anything; stage_jpegs does both for a
whole batch in one call and agrees with them."""
import io

import numpy as np
import pytest

from transforms_c.vision.decode import (EncodedRows, gather_encoded, jpeg_batch_sizes, jpeg_size,
                                       stage_jpegs)

from tests.transforms_c.image_samples import pixel_limit
from tests.transforms_c.tc_samples import encoded, natural_rgb, sample_jpeg


def _rows():
    """JPEGs of several sizes, as uint8 arrays and as MindRecord's one-element bytes arrays."""
    jpegs = [sample_jpeg(20 + 7 * i, 31 + 5 * i, seed=i) for i in range(5)]
    return jpegs + [np.array([jpegs[1].tobytes()]), np.asarray(jpegs[2].tobytes())]


def test_sizes_agree_with_the_header_row_by_row():
    rows = _rows()
    got = jpeg_batch_sizes(rows)
    assert got.shape == (len(rows), 2) and got.dtype == np.int64
    for row, (height, width) in zip(rows, got.tolist()):
        raw = row.reshape(-1).view(np.uint8)
        assert (width, height) == jpeg_size(raw)


def test_rows_a_batch_decoder_cannot_take_are_zero():
    jpeg = sample_jpeg(24, 32)
    broken = jpeg[:40].copy()                        # a JPEG whose header is cut short
    rows = [jpeg,
            encoded(natural_rgb(24, 32), ".png"),   # another format
            broken,
            np.zeros(0, np.uint8),                   # empty
            np.frombuffer(b"\xff\xd8", np.uint8),    # shorter than the signature
            jpeg.view(np.int8),                      # another dtype
            np.ascontiguousarray(np.stack([jpeg, jpeg])),    # 2-D
            np.repeat(jpeg, 2)[::2],                 # the same bytes, not contiguous
            np.array([[jpeg.tobytes()]]),            # a bytes array of two dimensions
            jpeg.tobytes(),                          # not an array
            None]
    got = jpeg_batch_sizes(rows)
    assert got[0].tolist() == [24, 32]
    assert not got[1:].any()


def _pil_jpeg(rgb, mode, **options):
    from PIL import Image
    out = io.BytesIO()
    Image.fromarray(rgb).convert(mode).save(out, "JPEG", **options)
    return np.frombuffer(out.getvalue(), np.uint8)


def _twelve_bits(jpeg):
    """``jpeg`` with its frame header saying 12 bits per sample (the CPU decode refuses it)."""
    out = jpeg.copy()
    at = out.tobytes().find(b"\xff\xc0")          # SOF0: FF C0, length (2), precision
    assert at > 0 and out[at + 4] == 8
    out[at + 4] = 12
    return out


def test_cut_files_and_colours_other_decoders_may_misread_are_left_to_the_cpu_decode():
    """A GPU decoder may fill a file cut short with grey, and read RGB-, CMYK- or YCCK-coded
    colours as YCbCr: such rows go to the CPU path's Decode, which raises for the first and
    converts the others; so do 12-bit files, which it refuses. A complete 8-bit YCbCr or grey
    JPEG is taken."""
    pytest.importorskip("PIL")
    rgb = natural_rgb(24, 32)
    jpeg = sample_jpeg(24, 32)
    rows = [jpeg,
            _pil_jpeg(rgb, "L"),                              # grey
            jpeg[:-2].copy(),                                  # no EOI marker: cut short
            jpeg[:len(jpeg) // 2].copy(),                      # cut in its scan
            np.concatenate([jpeg, np.zeros(3, np.uint8)]),     # bytes after its end
            _pil_jpeg(rgb, "CMYK"),                            # Adobe marker, 4 components
            _pil_jpeg(rgb, "RGB", keep_rgb=True),              # Adobe marker, RGB-coded
            _twelve_bits(jpeg)]
    assert jpeg_batch_sizes(rows).tolist() == [[24, 32], [24, 32]] + [[0, 0]] * 6
    assert [jpeg_size(rows[i]) for i in (2, 4, 5, 6, 7)] == [(32, 24)] * 5    # headers parse


def test_the_pixel_limit_leaves_a_larger_image_to_the_cpu_decode():
    rows = [sample_jpeg(24, 32), sample_jpeg(10, 10)]
    with pixel_limit(24 * 32 - 1):
        assert jpeg_batch_sizes(rows).tolist() == [[0, 0], [10, 10]]
    assert jpeg_batch_sizes(rows).tolist() == [[24, 32], [10, 10]]


def test_gather_packs_the_chosen_rows_byte_for_byte():
    rows = _rows()
    picked = [6, 0, 3, 5]
    out = np.full(sum(rows[i].nbytes for i in picked) + 9, 7, np.uint8)
    offsets = gather_encoded(rows, picked, out)
    assert offsets.dtype == np.int64 and offsets[0] == 0
    for k, i in enumerate(picked):
        assert out[offsets[k]:offsets[k + 1]].tobytes() == rows[i].tobytes()
    assert (out[offsets[-1]:] == 7).all()            # nothing written past the rows
    assert gather_encoded(rows, [], out).tolist() == [0]


@pytest.mark.parametrize("picked,room,message", [
    ([0, 1], -1, "more than"),                       # the buffer is one byte short
    ([0, 8], 0, "row 8 is outside"),
    ([0, -1], 0, "row -1 is outside"),
    ([0, 7], 0, "row 7 is not a contiguous uint8"),
])
def test_gather_refuses_before_copying(picked, room, message):
    rows = _rows() + [np.repeat(sample_jpeg(), 2)[::2]]
    size = rows[0].nbytes + rows[1].nbytes + room
    out = np.full(max(size, 0), 7, np.uint8)
    with pytest.raises(ValueError, match=message):
        gather_encoded(rows, picked, out)
    assert (out == 7).all()


def test_staging_a_batch_agrees_with_the_header_reader_and_the_gather():
    """stage_jpegs: every row of bytes packed in order, byte for byte, a row of another type
    taking no room; the sizes those of jpeg_batch_sizes (PNG, cut and empty rows 0), the pixel
    limit applied."""
    jpeg = sample_jpeg(24, 32)
    rows = _rows() + [encoded(natural_rgb(24, 32), ".png"), None, jpeg[:-2].copy(),
                      np.zeros(0, np.uint8), jpeg.tobytes()]
    out = np.full(sum(r.nbytes for r in rows if isinstance(r, np.ndarray)) + 5, 7, np.uint8)
    offsets, hw = stage_jpegs(rows, out)
    assert offsets.dtype == hw.dtype == np.int64 and hw.shape == (len(rows), 2)
    assert hw.tolist() == jpeg_batch_sizes(rows).tolist() and hw[:7].all()
    for i, row in enumerate(rows):
        want = row.tobytes() if isinstance(row, np.ndarray) else b""
        assert out[offsets[i]:offsets[i + 1]].tobytes() == want
    assert (out[offsets[-1]:] == 7).all()
    with pixel_limit(20 * 31):
        assert stage_jpegs(rows, out)[1][:7].tolist() == [[20, 31]] + [[0, 0]] * 6
    assert stage_jpegs([], out)[0].tolist() == [0]


def test_staging_refuses_a_buffer_too_small_before_copying():
    rows = _rows()
    out = np.full(sum(r.nbytes for r in rows) - 1, 7, np.uint8)
    with pytest.raises(ValueError, match="stage_jpegs: the rows hold .* more than"):
        stage_jpegs(rows, out)
    assert (out == 7).all()


def test_damaged_headers_agree_with_the_row_by_row_reader():
    """Cut, flipped and overwritten bytes: the batch reader takes exactly the rows jpeg_size
    takes, with the same sizes, and never reads past a row."""
    rng = np.random.default_rng(7)
    base = sample_jpeg(37, 53)
    rows = []
    for _ in range(400):
        data = base.copy()
        kind = rng.integers(3)
        if kind == 0:
            data = data[:rng.integers(1, 400)].copy()
        elif kind == 1:
            at = rng.integers(0, 400, 4)
            data[at] ^= rng.integers(1, 256, 4).astype(np.uint8)
        else:
            at = rng.integers(2, 300)
            data[at:at + 8] = rng.integers(0, 256, 8).astype(np.uint8)
        rows.append(data)
    got = jpeg_batch_sizes(rows).tolist()
    for data, (height, width) in zip(rows, got):
        try:
            w, h = jpeg_size(data) if data.size >= 3 and data[:3].tobytes() == b"\xff\xd8\xff" \
                else (0, 0)
        except RuntimeError:
            w, h = 0, 0
        assert (height, width) == (h, w)


def test_rows_given_by_address_read_as_the_objects_do():
    """EncodedRows of addresses (where a MindRecord file's map holds the rows): the headers and
    the packed bytes equal those of the same rows given as objects; a row by index is a
    read-only view of its bytes; the objects' rows come back as they were given."""
    rows = _rows()[:5]
    backing = np.concatenate(rows)
    starts = np.concatenate([[0], np.cumsum([r.nbytes for r in rows])[:-1]])
    sizes = np.array([r.nbytes for r in rows], np.int64)
    at = EncodedRows(starts.astype(np.uint64) + np.uint64(backing.ctypes.data), sizes,
                     owner=backing)
    assert len(at) == 5 and at.nbytes([1, 3]) == rows[1].nbytes + rows[3].nbytes
    assert jpeg_batch_sizes(at).tolist() == jpeg_batch_sizes(rows).tolist()
    out, again = np.zeros(backing.nbytes, np.uint8), np.zeros(backing.nbytes, np.uint8)
    assert gather_encoded(at, [4, 0], out).tolist() == gather_encoded(rows, [4, 0], again).tolist()
    assert np.array_equal(out, again)
    view = at[2]
    assert view.tobytes() == rows[2].tobytes() and not view.flags.writeable
    given = EncodedRows.of(rows + ["not bytes"])
    assert given[5] == "not bytes" and given[1] is rows[1] and EncodedRows.of(given) is given
    assert given.addresses[5] == 0 and jpeg_batch_sizes(given)[5].tolist() == [0, 0]
    with pytest.raises(ValueError, match="row 5 is not a contiguous uint8"):
        gather_encoded(given, [5], out)


@pytest.mark.parametrize("addresses,sizes,message", [
    ([1, 2], [3], "addresses of shape \\(2,\\) and sizes of shape \\(1,\\)"),
    ([[1]], [[3]], "expected two \\(N,\\) arrays"),
])
def test_rows_by_address_of_other_shapes_are_refused(addresses, sizes, message):
    with pytest.raises(ValueError, match=message):
        EncodedRows(np.array(addresses, np.uint64), np.array(sizes, np.int64))


@pytest.mark.parametrize("call", ["jpeg_headers", "gather_encoded", "stage_jpegs"])
def test_the_native_readers_refuse_bytes_at_no_address(call):
    """A row of some bytes at address 0, a negative size, or counts that differ: ValueError
    naming the call, before anything is read."""
    from transforms_c import _native
    out = np.zeros(16, np.uint8)

    def read(addresses, sizes):
        addresses, sizes = np.array(addresses, np.uint64), np.array(sizes, np.int64)
        if call == "jpeg_headers":
            return _native.jpeg_headers(addresses, sizes)
        if call == "stage_jpegs":
            return _native.stage_jpegs(addresses, sizes, out, 1 << 30)
        return _native.gather_encoded(addresses, sizes, np.arange(len(sizes)), out)
    with pytest.raises(ValueError, match=f"{call}: row 0 has 4 bytes at address 0"):
        read([0], [4])
    with pytest.raises(ValueError, match=f"{call}: row 1 has -1 bytes"):
        read([0, out.ctypes.data], [0, -1])
    with pytest.raises(ValueError, match=f"{call}: 2 addresses and 1 sizes"):
        read([0, 0], [0]) if call != "gather_encoded" else _native.gather_encoded(
                np.zeros(2, np.uint64), np.zeros(1, np.int64), np.zeros(0, np.int64), out)
    assert not out.any()
