"""minddata.audio (mindspore.dataset.audio): values, shapes, dtypes and errors measured in
MindSpore 2.10."""
import numpy as np
import pytest

import minddata as ds
from minddata import audio

SPEC = np.arange(30, dtype=np.float32).reshape(1, 5, 6)


def test_mask_along_axis_masks_the_given_band_on_either_axis():
    out = audio.MaskAlongAxis(1, 2, -1.0, 2)(SPEC)
    assert out.dtype == np.float32 and (out[0, :, 1:3] == -1).all() and out[0, 0, 3] == 3
    out = audio.MaskAlongAxis(1, 2, -1.0, 1)(SPEC[0])         # <freq, time> too
    assert (out[1:3] == -1).all() and out[3, 0] == 18
    with pytest.raises(RuntimeError, match="should be no more than the length"):
        audio.MaskAlongAxis(5, 2, -1.0, 2)(SPEC)
    with pytest.raises(ValueError, match=r"axis is not within the required interval of \[1, 2\]"):
        audio.MaskAlongAxis(1, 2, -1.0, 0)


def test_amplitude_to_db_floors_each_item_of_a_batch_at_top_db():
    spec = np.array([[[[1, 10], [100, 1000]]], [[[1, 2], [3, 4]]]], np.float32)
    out = audio.AmplitudeToDB(top_db=3.0)(spec)
    # MindSpore 2.10: [[27, 27], [27, 30]] and [[3.0206, 3.0206], [4.7712, 6.0206]]
    np.testing.assert_allclose(out[0, 0], [[27, 27], [27, 30]], atol=1e-4)
    np.testing.assert_allclose(out[1, 0], [[3.0206, 3.0206], [4.7712, 6.0206]], atol=1e-4)
    with pytest.raises(RuntimeError, match="<..., freq, time>"):
        audio.AmplitudeToDB()(np.ones(4, np.float32))
    with pytest.raises(ValueError, match=r"top_db is not within the required interval of \(0"):
        audio.AmplitudeToDB(top_db=-1)


def test_spectrogram_values_and_shapes():
    # MindSpore 2.10, n_fft=4, pad=1, power=1 on [0, 1, 2]
    out = audio.Spectrogram(n_fft=4, pad=1, power=1.0)(np.arange(3, dtype=np.float32))
    np.testing.assert_allclose(out, [[0, 2, 2], [0, 1.4142, 0], [0, 0, 2]], atol=1e-4)
    kaiser = audio.Spectrogram(n_fft=8, window=audio.WindowType.KAISER)(
        np.arange(16, dtype=np.float32))
    np.testing.assert_allclose(kaiser[0], [5.6625, 131.1423, 524.5788, 1180.3094, 1565.4093],
                               rtol=1e-4)
    wave = np.zeros((2, 2, 1000), np.float32)
    assert audio.Spectrogram()(wave).shape == (2, 2, 201, 6)
    assert audio.MelSpectrogram()(wave[0]).shape == (2, 128, 6)
    assert audio.MFCC()(wave.astype(np.float64)[0]).dtype == np.float32    # as MindSpore
    with pytest.raises(ValueError, match="win_length should be no more than n_fft"):
        audio.Spectrogram(n_fft=16, win_length=20)


def test_input_types_and_mu_law_codes():
    with pytest.raises(TypeError, match="Input should be NumPy audio"):
        audio.Gain()([1.0, 2.0])
    assert audio.Gain(3.0)(np.ones(3, np.int16)).dtype == np.float32
    assert audio.MuLawEncoding()(np.array([-1.0, 0.0, 1.0], np.float32)).tolist() == [0, 128, 255]
    with pytest.raises(RuntimeError, match="data type of input tensor"):
        audio.LowpassBiquad(16000, 1000.0)(np.ones(3, np.int16))


def test_ops_run_in_a_dataset_map():
    waves = np.random.default_rng(0).uniform(-1, 1, (4, 1, 800)).astype(np.float32)
    data = ds.NumpySlicesDataset({"w": waves}, shuffle=False).map(
        [audio.Resample(16000, 8000), audio.Spectrogram(n_fft=64)], input_columns=["w"])
    rows = [row["w"] for row in data.create_dict_iterator(output_numpy=True)]
    assert len(rows) == 4
    np.testing.assert_allclose(rows[1], audio.Spectrogram(n_fft=64)(
        audio.Resample(16000, 8000)(waves[1])), rtol=1e-5)


def test_fade_exponential_is_mindspores_curve():
    """MindSpore 2.10's exponential fade is r * 2^(r - 1) (measured on ones(8) with fades of 5:
    in [0, 0.1487, 0.3536, 0.6307, 1, ...], out its mirror); we gave torchaudio's 2^(5 (r - 1)),
    0.0312 at the silent end and 0.0884 where MindSpore gives 0.3536."""
    ones = np.ones(8, np.float32)
    fade_in = audio.Fade(5, 0, audio.FadeShape.EXPONENTIAL)(ones)
    fade_out = audio.Fade(0, 5, audio.FadeShape.EXPONENTIAL)(ones)
    np.testing.assert_allclose(fade_in, [0, 0.1487, 0.3536, 0.6307, 1, 1, 1, 1], atol=1e-4)
    np.testing.assert_allclose(fade_out, [1, 1, 1, 1, 0.6307, 0.3536, 0.1487, 0], atol=1e-4)
