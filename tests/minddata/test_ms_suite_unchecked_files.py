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
