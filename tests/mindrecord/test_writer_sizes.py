"""set_header_size / set_page_size ranges and messages (format spec section 2)."""
import pytest

from mindrecord import FileWriter


@pytest.fixture
def writer(tmp_path):
    return FileWriter(str(tmp_path / "x.mindrecord"))


@pytest.mark.parametrize("value, message", [
    (16383, "[ERROR] Invalid data, header size: 16383 should be in range [16384 bytes, 134217728 bytes]."),
    (134217732, "[ERROR] Invalid data, header size: 134217732 should be in range [16384 bytes, 134217728 bytes]."),
    (16386, "[ERROR] Invalid data, header size 16386 should be divided by four."),
])
def test_header_size_errors(writer, value, message):
    with pytest.raises(RuntimeError) as info:
        writer.set_header_size(value)
    assert str(info.value) == message


@pytest.mark.parametrize("value, message", [
    (32764, "[ERROR] Invalid data, page size: 32764 should be in range [32768 bytes, 268435456 bytes]."),
    (268435460, "[ERROR] Invalid data, page size: 268435460 should be in range [32768 bytes, 268435456 bytes]."),
    (32770, "[ERROR] Invalid data, page size 32770 should be divided by four."),
])
def test_page_size_errors(writer, value, message):
    with pytest.raises(RuntimeError) as info:
        writer.set_page_size(value)
    assert str(info.value) == message


@pytest.mark.parametrize("value", [-4, 1.5, "16384", True, None])
def test_non_integer_sizes_are_type_errors(writer, value):
    with pytest.raises(TypeError):
        writer.set_header_size(value)
    with pytest.raises(TypeError):
        writer.set_page_size(value)


def test_limits_are_accepted(writer):
    for value in (16384, 134217728):
        writer.set_header_size(value)
    for value in (32768, 268435456):
        writer.set_page_size(value)


def test_sizes_fixed_after_first_write(writer):
    writer.add_schema({"a": {"type": "int32"}})
    writer.write_raw_data([{"a": 1}])
    with pytest.raises(RuntimeError, match="after `write_raw_data`"):
        writer.set_page_size(1 << 15)
    writer.commit()


def test_row_larger_than_page_is_refused_before_writing(writer, tmp_path):
    writer.set_page_size(1 << 15)
    writer.add_schema({"b": {"type": "bytes"}})
    with pytest.raises(RuntimeError, match="too small to save a blob row") as info:
        writer.write_raw_data([{"b": b"1"}, {"b": bytes(32761)}])
    assert "row 1" in str(info.value)
    writer.write_raw_data([{"b": bytes(32760)}])     # the largest blob that fits
    writer.commit()
    # blob page 0 full, then raw page 1 with one 13-byte dummy row {"id":0}
    assert (tmp_path / "x.mindrecord").stat().st_size == (1 << 24) + (1 << 15) + 13


def test_raw_row_larger_than_page(writer):
    writer.set_page_size(1 << 15)
    writer.add_schema({"s": {"type": "string"}})
    with pytest.raises(RuntimeError, match="too small to save a raw row"):
        writer.write_raw_data([{"s": "x" * 40000}])


def test_header_overflow_fails_early_and_leaves_nothing(tmp_path):
    from mindrecord import MRMCommitError
    w = FileWriter(str(tmp_path / "x.mindrecord"))
    w.set_header_size(1 << 14)
    w.set_page_size(1 << 15)
    w.add_schema({"b": {"type": "bytes"}})
    # ~200 pages of one 32 KB blob each: their descriptors overflow a 16 KB header. The
    # write call that overflows it fails (not only the commit), and the files are removed.
    with pytest.raises(MRMCommitError, match="set_header_size"):
        for _ in range(4):
            w.write_raw_data([{"b": bytes(32000)} for _ in range(50)])
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(RuntimeError, match="failed earlier"):
        w.commit()
