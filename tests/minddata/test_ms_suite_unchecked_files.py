"""Behaviours checked by MindSpore's own dataset tests in files no earlier pass looked at
(test_HWC2CHW, test_five_crop, test_ten_crop, test_random_resize, test_get_image_size,
test_get_image_num_channels, test_flat_map, ...); every expected value here was measured in
MindSpore 2.10."""
import numpy as np
import pytest

import minddata as ds
from minddata import vision


def _images():
    rng = np.random.RandomState(0)
    return [rng.randint(0, 255, (40 + 3 * i, 30 + 5 * i, 3)).astype(np.uint8) for i in range(2)]


def _image_source():
    images = _images()
    return ds.GeneratorDataset(lambda: ((im,) for im in images), ["image"], shuffle=False)


def test_map_column_count_mismatch_says_both_counts():
    # measured in MindSpore 2.10: RuntimeError "... Invalid columns, the number of columns
    # returned in 'map' operations should match the number of 'output_columns', but got the
    # number of columns returned in 'map' operations: 5, the number of 'output_columns': 1."
    d = _image_source().map([vision.ToPIL(), vision.FiveCrop(10)], ["image"])
    with pytest.raises(RuntimeError) as info:
        next(d.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert ("Invalid columns, the number of columns returned in 'map' operations should match "
            "the number of 'output_columns', but got the number of columns returned in 'map' "
            "operations: 5, the number of 'output_columns': 1.") in str(info.value)


def test_five_crop_with_five_output_columns():
    # measured in MindSpore 2.10: five (10, 10, 3) uint8 columns
    d = _image_source().map([vision.ToPIL(), vision.FiveCrop(10)], ["image"],
                            ["a", "b", "c", "d", "e"])
    assert d.output_types() == [np.dtype("uint8")] * 5
    row = next(d.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert [x.shape for x in row] == [(10, 10, 3)] * 5


# -- debug mode (test_pipeline_debug_mode) ---------------------------------------------------
def _numbers():
    return ds.NumpySlicesDataset(list(range(6)), ["d"], shuffle=False)


@pytest.mark.parametrize("explicit", [False, True])
def test_debug_mode_run_with_the_default_seed_sets_seed_1(explicit):
    # measured in MindSpore 2.10: get_seed() stays 5489 after set_debug_mode(True) and after
    # building the pipeline, becomes 1 when its iterator is created (also when 5489 was set
    # explicitly), and stays 1 after debug mode is turned off
    if explicit:
        ds.config.set_seed(5489)
    ds.config.set_debug_mode(True)
    d = _numbers()
    assert ds.config.get_seed() == 5489
    it = d.create_tuple_iterator(num_epochs=1, output_numpy=True)
    assert ds.config.get_seed() == 1
    assert [int(r[0]) for r in it] == list(range(6))
    ds.config.set_debug_mode(False)
    assert ds.config.get_seed() == 1


def test_debug_mode_run_keeps_a_seed_that_was_set():
    # measured in MindSpore 2.10: a seed other than 5489 is kept
    ds.config.set_seed(7)
    ds.config.set_debug_mode(True)
    list(_numbers().create_tuple_iterator(num_epochs=1))
    assert ds.config.get_seed() == 7


def test_no_debug_mode_run_keeps_the_default_seed():
    # measured in MindSpore 2.10: outside debug mode the default seed stays 5489
    list(_numbers().create_tuple_iterator(num_epochs=1))
    assert ds.config.get_seed() == 5489


def test_debug_mode_run_starts_at_the_init_step():
    # Deviation (README, Debugging): MindSpore 2.10 ignores set_init_step in debug mode
    # (measured: [0, 1, 2, 3, 4, 5]); a debug run here starts where the normal run would.
    ds.config.set_debug_mode(True)
    d = _numbers()
    d.set_init_step(2)
    assert [int(r[0]) for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)] == \
        [2, 3, 4, 5]


# -- Normalize / NormalizePad input dtypes (test_normalize_pad) ----------------------------
@pytest.mark.parametrize("name", ["Normalize", "NormalizePad"])
def test_normalize_reads_a_bool_image_as_0_and_1(name):
    # measured in MindSpore 2.10: (True - 0.1) / 0.2 = 4.5, (False - 0.1) / 0.2 = -0.5
    img = np.array([[[True], [False]], [[False], [True]]])
    op = getattr(vision, name)([0.1], [0.2], is_hwc=False)
    out = op(img.transpose(2, 0, 1).copy())
    assert out.dtype == np.float32
    assert out[0].ravel().tolist() == [4.5, -0.5, -0.5, 4.5]
    d = _image_source().map(lambda x: x > 127, ["image"]).map(vision.Normalize([0.1], [0.2]),
                                                              ["image"])
    row = next(d.create_tuple_iterator(num_epochs=1, output_numpy=True))[0]
    assert set(np.unique(row).tolist()) <= {np.float32(4.5), np.float32(-0.5)}


@pytest.mark.parametrize("name", ["Normalize", "NormalizePad"])
@pytest.mark.parametrize("kind", ["S", "U"])
def test_normalize_refuses_a_string_image_in_mindspores_words(name, kind):
    # measured in MindSpore 2.10: RuntimeError '<op>: unsupported type, currently supported
    # types include [bool,int8_t,...,double].'
    img = np.ones((2, 2, 1)).astype(kind)
    with pytest.raises(RuntimeError) as info:
        getattr(vision, name)([0.12], [0.2])(img)
    assert (f"{name}: unsupported type, currently supported types include [bool,int8_t,uint8_t,"
            f"int16_t,uint16_t,int32_t,uint32_t,int64_t,uint64_t,float16,float,double]."
            ) in str(info.value)


# -- set_error_samples_mode (MindSpore's map error samples tests) ---------------------------
def _failing_map(n, fails, workers=1, multiprocessing=False):
    d = ds.GeneratorDataset(lambda: (np.array(i) for i in range(n)), ["data"], shuffle=False)

    def fn(x):
        if fails(int(x)):
            raise ZeroDivisionError("bad row")
        return x
    return d.map(operations=fn, num_parallel_workers=workers,
                 python_multiprocessing=multiprocessing)


def _epochs(d, epochs=1):
    it = d.create_dict_iterator(num_epochs=epochs, output_numpy=True)
    return [[int(r["data"]) for r in it] for _ in range(epochs)]


REPLACE_CASES = [   # measured in MindSpore 2.10 (1 and 2 workers gave the same rows)
    (lambda x: x == 0, 20,
     list(range(1, 17)) + [1] + list(range(17, 20))),
    (lambda x: x < 10, 12, [10, 11] * 6),
    (lambda x: x < 10, 30, list(range(10, 26)) + [10, 26, 11, 27, 12, 28, 13, 29]
     + list(range(14, 20))),
    (lambda x: x > 22, 40, list(range(23)) + list(range(16)) + [0]),
    (lambda x: x % 2 == 1, 40, list(range(0, 32, 2)) + [0, 32, 2, 34, 4, 36, 6, 38]
     + list(range(8, 40, 2))),
    (lambda x: x < 18, 40, list(range(18, 34)) + [18, 34, 19, 35, 20, 36, 21, 37, 22, 38, 23, 39]
     + list(range(24, 36))),
]


@pytest.mark.parametrize("workers", [1, 3])
@pytest.mark.parametrize("case", range(len(REPLACE_CASES)))
def test_error_samples_replace_gives_mindspores_rows(case, workers):
    fails, n, expected = REPLACE_CASES[case]
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.REPLACE)
    assert _epochs(_failing_map(n, fails, workers)) == [expected]


def test_error_samples_replace_over_epochs():
    # measured in MindSpore 2.10: the kept rows carry over from one epoch to the next
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.REPLACE)
    assert _epochs(_failing_map(20, lambda x: x == 0), 3) == [
        list(range(1, 17)) + [1, 17, 18, 19], [2] + list(range(1, 20)),
        [3] + list(range(1, 20))]
    assert _epochs(_failing_map(10, lambda x: x in (3, 4)), 3) == [
        [0, 1, 2, 5, 6, 7, 8, 9, 0, 1], [0, 1, 2, 5, 6, 7, 8, 9, 2, 5],
        [0, 1, 2, 5, 6, 6, 7, 7, 8, 9]]
    assert _epochs(_failing_map(20, lambda x: x >= 17), 2) == [
        list(range(17)) + [0, 1, 2], list(range(17)) + [3, 4, 5]]
    assert _epochs(_failing_map(30, lambda x: x < 10), 2)[1] == \
        [10, 11, 12, 13, 14, 15, 20, 16, 21, 17, 22, 18, 23, 19, 24, 20, 25, 21, 26, 22, 27, 23,
         28, 24, 29, 25, 26, 27, 28, 29]


def test_error_samples_replace_with_every_row_failing():
    # measured in MindSpore 2.10: RuntimeError 'All data is garbage and cannot be replaced.'
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.REPLACE)
    with pytest.raises(RuntimeError, match="All data is garbage and cannot be replaced."):
        _epochs(_failing_map(10, lambda x: True))


@pytest.mark.parametrize("workers, multiprocessing", [(1, False), (3, False), (2, True)])
def test_error_samples_skip_drops_failing_rows(workers, multiprocessing):
    # measured in MindSpore 2.10
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.SKIP)
    assert _epochs(_failing_map(40, lambda x: x % 2 == 1, workers, multiprocessing)) == \
        [list(range(0, 40, 2))]
    assert _epochs(_failing_map(10, lambda x: True, workers, multiprocessing)) == [[]]
    assert _epochs(_failing_map(20, lambda x: x % 2 == 1, workers, multiprocessing), 2) == \
        [list(range(0, 20, 2))] * 2


def test_error_samples_replace_keeps_the_other_columns_with_their_row():
    # measured in MindSpore 2.10: the replacement is a whole earlier row; batch counts it
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.REPLACE)
    d = ds.GeneratorDataset(lambda: ((np.array(i), np.array(10 * i)) for i in range(6)),
                            ["a", "b"], shuffle=False)

    def fn(x):
        if int(x) in (0, 3):
            raise ZeroDivisionError("bad row")
        return x
    d = d.map(fn, ["a"])
    assert [(int(r["a"]), int(r["b"])) for r in
            d.create_dict_iterator(num_epochs=1, output_numpy=True)] == \
        [(1, 10), (2, 20), (4, 40), (5, 50), (1, 10), (2, 20)]
    assert [r["a"].tolist() for r in d.batch(2).create_dict_iterator(num_epochs=1,
                                                                      output_numpy=True)] == \
        [[1, 2], [4, 5], [1, 2]]


@pytest.mark.parametrize("mode", ["RETURN", "SKIP", "REPLACE"])
def test_error_samples_mode_raises_in_debug_mode_and_by_default(mode):
    # measured in MindSpore 2.10: RETURN (the default) raises; debug mode uses RETURN
    ds.config.set_error_samples_mode(getattr(ds.config.ErrorSamplesMode, mode))
    ds.config.set_debug_mode(True)
    with pytest.raises(RuntimeError, match="bad row"):
        _epochs(_failing_map(4, lambda x: x == 1))
