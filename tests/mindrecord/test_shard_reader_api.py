"""ShardReader's contract (docs/internals.md): row-id handling, representation, zero-copy blobs,
threads, close."""
import threading

import numpy as np
import pytest

from mindrecord import ShardReader


@pytest.fixture()
def reader(shared_fixtures):
    r = ShardReader(str(shared_fixtures / "mindrecord" / "e_pages" / "e_pages.mindrecord"))
    yield r
    r.close()


def test_metadata(reader):
    assert reader.num_rows == len(reader) == 30
    assert reader.column_names == ["idx", "payload", "tag"]
    assert reader.blob_fields == ["payload"] and reader.raw_fields == ["idx", "tag"]
    assert reader.schema["payload"] == {"type": "bytes"}


@pytest.mark.parametrize("ids", [[3, 1, 3], np.array([3, 1, 3], np.int32), (3, 1, 3)])
def test_row_ids_in_any_integer_sequence(reader, ids):
    got = reader.read_rows(ids, columns=["idx"])
    assert [int(v) for v in got["idx"]] == [3, 1, 3]


def test_empty_ids(reader):
    assert reader.read_rows([]) == {name: [] for name in reader.column_names}


@pytest.mark.parametrize("ids,error", [([30], IndexError), ([-1], IndexError),
                                       ([1.5], TypeError), ([[1, 2]], TypeError)])
def test_bad_ids(reader, ids, error):
    with pytest.raises(error):
        reader.read_rows(ids)


def test_unknown_column(reader):
    with pytest.raises(ValueError, match="nope"):
        reader.read_rows([0], columns=["nope"])


def test_representation(reader):
    row = reader.read_row(17)
    assert row["idx"].shape == () and row["idx"].dtype == np.int32 and int(row["idx"]) == 17
    assert row["tag"].shape == () and row["tag"].dtype.kind == "U" and str(row["tag"]) == "t17"
    # bytes: MindSpore's 1-element |S<n> array
    assert row["payload"].dtype == np.dtype("S32760") and row["payload"].shape == (1,)


def test_bytes_are_read_only_views_of_one_map(reader):
    a = reader.read_row(5)["payload"]
    b = reader.read_row(5)["payload"]
    assert np.shares_memory(a, b)      # both point into the memory map: no copy was made
    assert not a.flags.writeable       # nobody can write through them into the file


def test_views_outlive_close(reader):
    view = reader.read_row(17)["payload"]
    expected = bytes((j * 13) % 256 for j in range(32760))
    reader.close()
    assert view.tobytes() == expected  # the map stays until the last view is gone
    with pytest.raises(RuntimeError, match="closed"):
        reader.read_rows([0])


def test_concurrent_read_rows_agree(reader):
    expected = reader.read_rows(np.arange(30))
    rng = np.random.default_rng(1)
    batches = [rng.integers(0, 30, 16) for _ in range(40)]
    errors = []

    def work(chunk):
        try:
            for ids in chunk:
                got = reader.read_rows(ids)
                for pos, i in enumerate(ids):
                    assert int(got["idx"][pos]) == int(expected["idx"][i])
                    assert got["payload"][pos].tobytes() == expected["payload"][i].tobytes()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(batches[k::4],)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_close_is_idempotent_and_a_context_manager(shared_fixtures):
    path = str(shared_fixtures / "mindrecord" / "d_no_blob" / "d_no_blob.mindrecord")
    with ShardReader(path) as r:
        assert r.read_row(4)["name"] == "n4"
    r.close()
    with pytest.raises(RuntimeError):
        r.read_row(0)


def test_close_while_other_threads_read(shared_fixtures):
    path = str(shared_fixtures / "mindrecord" / "c_multi_blob" / "c_multi_blob.mindrecord")
    reader = ShardReader(path)
    outcomes = []

    def work():
        try:
            for _ in range(2000):
                got = reader.read_rows([0, 3, 1])
                assert got["zeta"][1].tobytes() == b"ZZZZ"
            outcomes.append("done")
        except RuntimeError as e:
            outcomes.append("closed" if "closed" in str(e) else repr(e))
        except Exception as e:  # noqa: BLE001 - reported below
            outcomes.append(repr(e))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    reader.close()
    for t in threads:
        t.join()
    assert set(outcomes) <= {"done", "closed"} and len(outcomes) == 3
