"""A cached stage's key identifies its data and code (issue 11): content fingerprints of
in-memory arrays and of map callables (code, closures, defaults, globals), never object ids or
names. A rerun of the same script hits; anything that differs misses."""
import gc
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import minddata as ds
from minddata.cache import generate_session
from minddata.cache.fingerprint import Unidentifiable, fingerprint

from . import cache_test_helpers as helpers

cache_root = helpers.cache_root     # fixture: a private cache root for each test
pytestmark = pytest.mark.usefixtures("cache_root")


def _values(data):
    return [r[0].tolist() for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]


# -- in one process ----------------------------------------------------------------------------

def test_a_new_array_at_a_freed_address_gets_its_own_rows():
    cache = ds.DatasetCache(generate_session())
    for fill in (2, 4, 6, 8):
        arr = np.full(16, fill, np.int64)       # often at the address of the last one
        got = _values(ds.NumpySlicesDataset(arr, shuffle=False).map(lambda x: x, cache=cache))
        assert got == [fill] * 16
        del arr
        gc.collect()


def test_an_array_changed_in_place_misses():
    cache = ds.DatasetCache(generate_session())
    arr = np.zeros(8, np.int64)
    data = ds.NumpySlicesDataset(arr, shuffle=False).map(lambda x: x + 1, cache=cache)
    assert _values(data) == [1] * 8
    arr[3] = 10
    assert _values(data) == [1, 1, 1, 11, 1, 1, 1, 1]


def test_two_different_lambdas_do_not_share_rows():
    cache = ds.DatasetCache(generate_session())
    src = np.arange(6)
    a = _values(ds.NumpySlicesDataset(src, shuffle=False).map(lambda x: x + 1, cache=cache))
    b = _values(ds.NumpySlicesDataset(src, shuffle=False).map(lambda x: x * 10, cache=cache))
    assert a == [1, 2, 3, 4, 5, 6] and b == [0, 10, 20, 30, 40, 50]


def _compiled(source):
    scope = {"np": np}
    exec(compile(source, "user_script.py", "exec"), scope)
    return scope["transform"]


def test_an_edited_function_misses():
    cache = ds.DatasetCache(generate_session())
    src = np.arange(5)
    old = _compiled("def transform(x):\n    return x + 1\n")
    new = _compiled("def transform(x):\n    return x + 2\n")    # same name, same module
    assert _values(ds.NumpySlicesDataset(src, shuffle=False).map(old, cache=cache)) == \
        [1, 2, 3, 4, 5]
    assert _values(ds.NumpySlicesDataset(src, shuffle=False).map(new, cache=cache)) == \
        [2, 3, 4, 5, 6]


def _adder(step):
    return lambda x: x + step


def test_closures_defaults_and_globals_are_part_of_the_key():
    cache = ds.DatasetCache(generate_session())
    src = np.arange(4)

    def run(fn):
        return _values(ds.NumpySlicesDataset(src, shuffle=False).map(fn, cache=cache))

    assert run(_adder(1)) == [1, 2, 3, 4] and run(_adder(5)) == [5, 6, 7, 8]     # closure

    def scaled(x, k=2):
        return x * k
    assert run(scaled) == [0, 2, 4, 6]
    scaled.__defaults__ = (3,)
    assert run(scaled) == [0, 3, 6, 9]                                         # defaults

    glob = _compiled("OFFSET = 100\ndef transform(x):\n    return x + OFFSET\n")
    assert run(glob) == [100, 101, 102, 103]
    glob.__globals__["OFFSET"] = 200
    assert run(glob) == [200, 201, 202, 203]                                   # globals


def test_the_same_pipeline_built_again_hits():
    cache = ds.DatasetCache(generate_session())

    def build():
        return ds.NumpySlicesDataset(np.arange(10), shuffle=False).map(
            lambda x: x * 3, cache=cache)
    assert _values(build()) == [3 * i for i in range(10)]
    hits = cache.get_stat().hits
    assert _values(build()) == [3 * i for i in range(10)]
    stat = cache.get_stat()
    assert stat.hits == hits + 10 and stat.rows == 10 and stat.stages == 1


def test_a_callable_that_cannot_be_fingerprinted_is_refused_by_name(tmp_path):
    handle = open(tmp_path / "log.txt", "w")
    try:
        def logged(x):
            handle.write("row\n")
            return x
        with pytest.raises(RuntimeError, match=r"logged.*TextIOWrapper"):
            ds.NumpySlicesDataset(np.arange(3)).map(logged, cache=ds.DatasetCache(
                generate_session()))
    finally:
        handle.close()


def test_an_unidentifiable_operation_below_the_cache_is_refused_at_iteration():
    import threading
    lock = threading.Lock()
    cache = ds.DatasetCache(generate_session())
    data = ds.NumpySlicesDataset(np.arange(3), shuffle=False).map(
        lambda x: x if lock else x).map(lambda x: x + 1, cache=cache)
    assert repr(data) and "cannot identify" in repr(data.children[0])    # reprs never raise
    with pytest.raises(RuntimeError, match="cannot be fingerprinted"):
        _values(data)


# -- generators ---------------------------------------------------------------------------------

class _Squares:
    def __init__(self, n, identity=None):
        self.n = n
        if identity is not None:
            self.cache_identity = identity

    def __getitem__(self, i):
        return np.array(i * i)

    def __len__(self):
        return self.n


def test_a_generator_without_cache_identity_is_refused_saying_how():
    data = ds.GeneratorDataset(_Squares(4), ["x"], shuffle=False).map(
        lambda x: x, cache=ds.DatasetCache(generate_session()))
    with pytest.raises(RuntimeError, match=r"_Squares\.cache_identity"):
        _values(data)


def test_a_generator_function_without_cache_identity_is_refused():
    def rows():
        yield from (np.array(i) for i in range(3))
    data = ds.GeneratorDataset(rows, ["x"]).map(lambda x: x,
                                                cache=ds.DatasetCache(generate_session()))
    with pytest.raises(RuntimeError, match=r"rows\.cache_identity"):
        _values(data)


def test_a_generator_with_cache_identity_hits_and_a_new_identity_misses():
    cache = ds.DatasetCache(generate_session())

    def run(source):
        return _values(ds.GeneratorDataset(source, ["x"], shuffle=False).map(
            lambda x: x + 1, cache=cache))
    assert run(_Squares(4, "squares-v1")) == [1, 2, 5, 10]
    assert run(_Squares(4, "squares-v1")) == [1, 2, 5, 10]
    assert cache.get_stat().hits == 4
    assert run(_Squares(5, "squares-v2")) == [1, 2, 5, 10, 17]
    assert cache.get_stat().stages == 2


def test_a_list_source_is_identified_by_its_content():
    cache = ds.DatasetCache(generate_session())

    def run(values):
        return _values(ds.GeneratorDataset([np.array(v) for v in values], ["x"],
                                           shuffle=False).map(lambda x: x, cache=cache))
    assert run([1, 2, 3]) == [1, 2, 3]
    assert run([7, 8, 9]) == [7, 8, 9]


# -- fingerprints --------------------------------------------------------------------------------

def test_array_fingerprints_follow_content_not_layout():
    a = np.arange(24, dtype=np.int32).reshape(4, 6)
    assert fingerprint(a.T) == fingerprint(np.ascontiguousarray(a.T))
    b = a.copy()
    b[3, 5] += 1
    assert fingerprint(a) != fingerprint(b)
    assert fingerprint(a) != fingerprint(a.astype(np.int64))
    assert fingerprint(a) != fingerprint(a.reshape(6, 4))


def test_unpicklable_values_are_unidentifiable():
    import threading
    with pytest.raises(Unidentifiable, match="lock"):
        fingerprint({"guard": threading.Lock()})
    with pytest.raises(Unidentifiable):
        fingerprint(x for x in range(3))


def test_bytes_with_trailing_nuls_are_kept_and_cached():
    cache = ds.DatasetCache(generate_session())
    # bytes rows are |S<len> arrays, as in MindSpore: tobytes() keeps trailing NULs (b"" is
    # |S1 too, so it reads back as b"\0" there, as in MindSpore)
    values = [b"ab\0\0", b"\0", b"x\0y"]
    data = ds.NumpySlicesDataset(values, column_names=["raw"], shuffle=False)
    got = [r[0] for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    assert [g.tobytes() for g in got] == values and all(g.dtype.kind == "S" for g in got)
    cached = data.map(lambda x: x, cache=cache)
    for _ in range(2):
        assert _stored_bytes(cached) == values
    other = ds.NumpySlicesDataset([b"ab", b"\0", b"x\0y"], shuffle=False)
    assert _stored_bytes(other.map(lambda x: x, cache=cache))[0] == b"ab"


def _stored_bytes(data):
    return [r[0].tobytes() for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]


# -- across processes ---------------------------------------------------------------------------

_SCRIPT = """
import json, sys
import numpy as np
import minddata as ds

SCALE = {scale}
TAGS = {{"a", "b", "c"}}          # a set: its order follows the process's string hashing


def transform(x):
    return x * SCALE + len(TAGS)


cache = ds.DatasetCache(int(sys.argv[1]))
data = ds.NumpySlicesDataset(np.arange(20) + {offset}, shuffle=False)
data = data.map(transform, cache=cache).map(lambda x: x - {minus}, cache=cache)
rows = [int(r[0]) for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]
stat = cache.get_stat()
print(json.dumps({{"rows": rows, "hits": stat.hits, "stored": stat.rows}}))
"""


def _run_script(tmp_path, session, scale, offset, hash_seed, minus=1):
    path = tmp_path / "train.py"
    path.write_text(textwrap.dedent(_SCRIPT.format(scale=scale, offset=offset, minus=minus)))
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    done = subprocess.run([sys.executable, str(path), str(session)], capture_output=True,
                          text=True, env=env, timeout=300, cwd=os.getcwd())
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_rerun_hits_and_a_changed_script_misses_across_processes(tmp_path):
    session = generate_session()
    first = _run_script(tmp_path, session, 3, 0, hash_seed=1)
    assert first["rows"] == [3 * i + 2 for i in range(20)] and first["hits"] == 0
    again = _run_script(tmp_path, session, 3, 0, hash_seed=2)     # same script, new process
    assert again["rows"] == first["rows"] and again["hits"] == 20
    assert again["stored"] == first["stored"] == 40     # two stages, stored once
    edited = _run_script(tmp_path, session, 5, 0, hash_seed=3)    # the function changed
    assert edited["rows"] == [5 * i + 2 for i in range(20)] and edited["hits"] == 20
    moved = _run_script(tmp_path, session, 3, 1, hash_seed=4)     # the array changed
    assert moved["rows"] == [3 * (i + 1) + 2 for i in range(20)]
    assert moved["stored"] == 120
    other_lambda = _run_script(tmp_path, session, 3, 0, hash_seed=5, minus=2)
    assert other_lambda["rows"] == [3 * i + 1 for i in range(20)]
    assert other_lambda["stored"] == 140        # the first map hit, the second one missed


def test_state_that_pickle_leaves_out_does_not_change_the_key():
    cache = ds.DatasetCache(generate_session())
    calls = helpers.CallCounter()        # __getstate__ leaves its count out
    data = ds.NumpySlicesDataset(np.arange(6), shuffle=False).map(
        lambda x: calls() or x + 1, cache=cache)
    assert _values(data) == [1, 2, 3, 4, 5, 6] and calls.count == 6
    assert _values(data) == [1, 2, 3, 4, 5, 6] and calls.count == 6     # served by the cache
    assert cache.get_stat().hits == 6


def test_modules_and_library_functions_are_named_with_their_version(monkeypatch):
    import math
    import types
    from minddata.cache import fingerprint as fp
    assert fingerprint(np) == fingerprint(np) != fingerprint(math)
    assert fingerprint(np.mean) != fingerprint(np.sum)
    keys = []
    for version in ("1.0", "2.0"):
        module = types.ModuleType("fake_lib_for_cache_test")
        module.__version__ = version
        monkeypatch.setitem(sys.modules, module.__name__, module)
        fp._package_version.cache_clear()
        keys.append(fingerprint(module))
    fp._package_version.cache_clear()
    assert keys[0] != keys[1]


def test_two_decrypt_functions_of_an_image_folder_do_not_share_rows(tmp_path):
    folder = tmp_path / "images" / "cls"
    folder.mkdir(parents=True)
    for i in range(3):
        (folder / f"{i}.jpg").write_bytes(bytes([i]) * 8)
    cache = ds.DatasetCache(generate_session())

    def run(decrypt):
        data = ds.ImageFolderDataset(str(tmp_path / "images"), shuffle=False, decrypt=decrypt,
                                     cache=cache)
        return [bytes(r[0]) for r in data.create_tuple_iterator(num_epochs=1,
                                                                output_numpy=True)]
    assert run(lambda path: open(path, "rb").read()) == [bytes([i]) * 8 for i in range(3)]
    assert run(lambda path: b"x" + open(path, "rb").read()) == \
        [b"x" + bytes([i]) * 8 for i in range(3)]


def test_samplers_with_the_same_leading_indices_do_not_share_rows():
    cache = ds.DatasetCache(generate_session())
    head = list(range(8))

    def run(tail):
        data = ds.NumpySlicesDataset(np.arange(40), sampler=ds.SubsetSampler(head + tail))
        return _values(data.map(lambda x: x * 2, cache=cache))
    assert run([9, 10]) == [2 * i for i in head + [9, 10]]
    assert run([20, 30]) == [2 * i for i in head + [20, 30]]


def test_user_code_in_a_namespace_package_is_fingerprinted_not_named(tmp_path, monkeypatch):
    import importlib
    package = tmp_path / "user_ns_pkg_for_cache"          # a folder without __init__.py
    package.mkdir()
    module_file = package / "steps.py"
    module_file.write_text("def step(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("user_ns_pkg_for_cache.steps")
    before = fingerprint(module.step)
    module_file.write_text("def step(x):\n    return x + 20\n")   # another size: no stale .pyc
    module = importlib.reload(module)
    assert fingerprint(module.step) != before
    for name in [m for m in sys.modules if m.startswith("user_ns_pkg_for_cache")]:
        monkeypatch.delitem(sys.modules, name)


def test_a_rewritten_mindrecord_file_misses(tmp_path):
    from mindrecord import FileWriter
    path = str(tmp_path / "rows.mindrecord")
    cache = ds.DatasetCache(generate_session())

    def write(offset):
        writer = FileWriter(path, shard_num=1, overwrite=True)
        writer.add_schema({"label": {"type": "int32"}}, "rows")
        writer.write_raw_data([{"label": i + offset} for i in range(6)])
        writer.commit()

    def labels():
        data = ds.MindDataset(path, shuffle=False, cache=cache)
        return [int(r[0]) for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    write(0)
    assert labels() == list(range(6)) and labels() == list(range(6))
    write(100)
    assert labels() == list(range(100, 106))


def test_an_array_source_of_a_generator_is_identified_by_its_content():
    cache = ds.DatasetCache(generate_session())

    def run(array):
        return _values(ds.GeneratorDataset(array, ["x"], shuffle=False).map(
            lambda x: x, cache=cache))
    assert run(np.arange(4)) == [0, 1, 2, 3]
    assert run(np.arange(4) + 10) == [10, 11, 12, 13]


def test_an_edited_function_behind_lru_cache_misses():
    import functools
    first = functools.lru_cache(maxsize=None)(_compiled("def transform(x):\n    return 1\n"))
    second = functools.lru_cache(maxsize=None)(_compiled("def transform(x):\n    return 2\n"))
    assert fingerprint(first) != fingerprint(second)


def test_filters_and_batch_functions_below_a_cached_map_are_part_of_its_key():
    cache = ds.DatasetCache(generate_session())
    src = np.arange(12)

    def filtered(predicate):
        return _values(ds.NumpySlicesDataset(src, shuffle=False).filter(predicate)
                       .map(lambda x: x, cache=cache))
    assert filtered(lambda x: x % 2 == 0) == [0, 2, 4, 6, 8, 10]
    assert filtered(lambda x: x % 3 == 0) == [0, 3, 6, 9]

    def batched(per_batch_map):
        data = ds.NumpySlicesDataset(src, shuffle=False).batch(4, per_batch_map=per_batch_map)
        return _values(data.map(lambda x: x, cache=cache))
    assert batched(lambda x, info: ([v + 1 for v in x],)) == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert batched(lambda x, info: ([v * 2 for v in x],)) == [[0, 2, 4, 6], [8, 10, 12, 14],
                                                 [16, 18, 20, 22]]


@pytest.mark.parametrize("threads", [1, 3])
def test_array_pieces_hash_alike_whatever_the_layout_and_threads(monkeypatch, threads):
    from minddata.cache import fingerprint as fp
    monkeypatch.setattr(fp, "_CHUNK_BYTES", 7003)       # many pieces, not row-aligned
    monkeypatch.setattr(fp, "_HASH_THREADS", threads)
    a = np.random.default_rng(0).integers(0, 255, size=(300, 1000), dtype=np.uint8)
    for view in (a.T, a[:, ::2], a[::3]):
        assert fingerprint(view) == fingerprint(np.ascontiguousarray(view))
    monkeypatch.setattr(fp, "_HASH_THREADS", 1)
    single = fingerprint(a)
    monkeypatch.setattr(fp, "_HASH_THREADS", 4)
    assert fingerprint(a) == single
    b = a.copy()
    b[299, 999] ^= 1                                     # the last byte of the last piece
    assert fingerprint(b) != single
