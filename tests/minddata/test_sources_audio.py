"""The speech datasets (audio_folders.py, _wav.py): columns, dtypes, waveform scaling, order,
usages and errors, as measured in MindSpore 2.10 on the same synthetic folders."""
import os
import struct

import numpy as np
import pytest

import minddata as ds


def wav_bytes(samples, rate=16000, channels=1, width=2, extra=b""):
    data = np.array(samples, dtype="<i2").tobytes()
    fmt = struct.pack("<4sIHHIIHH", b"fmt ", 16, 1, channels, rate, rate * channels * width,
                      channels * width, 8 * width)
    body = b"WAVE" + fmt + extra + b"data" + struct.pack("<I", len(data)) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def rows(data):
    return list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))


def test_yes_no_waveform_scaling_and_labels(tmp_path):
    write(tmp_path / "0_1_0_0_1_0_1_1.wav", wav_bytes([0, 16384, -32768, 32767], rate=8000))
    write(tmp_path / "README", b"not audio")
    data = ds.YesNoDataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ["waveform", "sample_rate", "label"]
    [(waveform, rate, label)] = rows(data)
    # MindSpore 2.10: float32 (1, N), each sample / 32767; rate int32; the name's integers
    assert waveform.dtype == np.float32 and waveform.shape == (1, 4)
    assert waveform.tolist() == [[0.0, 0.5000152587890625, -1.000030517578125, 1.0]]
    assert rate.dtype == np.int32 and int(rate) == 8000
    assert label.dtype == np.int32 and label.tolist() == [0, 1, 0, 0, 1, 0, 1, 1]


def test_wav_chunks_and_formats(tmp_path):
    # a LIST chunk before the data is skipped (MindSpore serves its bytes as samples)
    write(tmp_path / "1_1.wav", wav_bytes([1000, 2000], extra=b"LIST\x04\x00\x00\x00abcd"))
    [(waveform, _, _)] = rows(ds.YesNoDataset(str(tmp_path), shuffle=False))
    assert waveform.tolist() == [[np.float32(1000) / np.float32(32767),
                                  np.float32(2000) / np.float32(32767)]]
    write(tmp_path / "1_1.wav", wav_bytes([1, 2], channels=2))
    with pytest.raises(RuntimeError, match="16-bit mono"):
        rows(ds.YesNoDataset(str(tmp_path)))
    write(tmp_path / "1_1.wav", wav_bytes([1, 2])[:-1])
    with pytest.raises(RuntimeError, match="ends after"):
        rows(ds.YesNoDataset(str(tmp_path)))


def test_speech_commands_usages(tmp_path):
    for relative, value in [("cat/b433eff_nohash_0.wav", 0), ("cat/a1_nohash_1.wav", 1),
                            ("dog/b4_nohash_2.wav", 2), ("dog/zz_nohash_0.wav", 3),
                            ("yes/c9_nohash_0.wav", 4), ("_background_noise_/noise.wav", 5)]:
        write(tmp_path / relative, wav_bytes([value]))
    write(tmp_path / "validation_list.txt", b"dog/b4_nohash_2.wav\n")
    write(tmp_path / "testing_list.txt", b"cat/a1_nohash_1.wav\nyes/c9_nohash_0.wav\n")

    def served(usage):
        return [(str(label), str(speaker), int(number)) for _, _, label, speaker, number in
                rows(ds.SpeechCommandsDataset(str(tmp_path), usage=usage, shuffle=False))]
    # MindSpore 2.10: paths in order, _background_noise_ left out; the lists select the splits
    assert served(None) == [("cat", "a1", 1), ("cat", "b433eff", 0), ("dog", "b4", 2),
                            ("dog", "zz", 0), ("yes", "c9", 0)]
    assert served("train") == [("cat", "b433eff", 0), ("dog", "zz", 0)]
    assert served("valid") == [("dog", "b4", 2)]
    assert served("test") == [("cat", "a1", 1), ("yes", "c9", 0)]
    first = rows(ds.SpeechCommandsDataset(str(tmp_path), shuffle=False))[0]
    assert [v.dtype.kind for v in first] == ["f", "i", "U", "U", "i"]
    assert first[1].dtype == first[4].dtype == np.int32
    # the usage's count (MindSpore 2.10 counts every file, whatever the usage)
    assert ds.SpeechCommandsDataset(str(tmp_path), usage="train").get_dataset_size() == 2
    with pytest.raises(ValueError, match=r"\['train', 'test', 'valid', 'all'\]"):
        ds.SpeechCommandsDataset(str(tmp_path), usage="dev")


def test_lj_speech_metadata_order(tmp_path):
    for name in ("LJ001-0002", "LJ001-0001"):
        write(tmp_path / "wavs" / f"{name}.wav", wav_bytes([7], rate=22050))
    write(tmp_path / "metadata.csv",
          b'LJ001-0002|Text two, "q"|text two\nLJ001-0001|One|one norm\n')
    data = ds.LJSpeechDataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ["waveform", "sample_rate", "transcription",
                                    "normalized_transcription"]
    assert [(int(rate), str(a), str(b)) for _, rate, a, b in rows(data)] == [
        (22050, 'Text two, "q"', "text two"), (22050, "One", "one norm")]
    write(tmp_path / "metadata.csv", b"LJ001-0001|only two\n")
    with pytest.raises(RuntimeError):
        ds.LJSpeechDataset(str(tmp_path)).get_dataset_size()


def test_cmu_arctic(tmp_path):
    root = tmp_path / "cmu_us_aew_arctic"
    for name in ("arctic_a0001", "arctic_b0002"):
        write(root / "wav" / f"{name}.wav", wav_bytes([3]))
    write(root / "etc" / "txt.done.data",
          b'( arctic_b0002 "B two." )\n( arctic_a0001 "Author of the danger trail, etc." )\n')
    data = ds.CMUArcticDataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ["waveform", "sample_rate", "transcript", "utterance_id"]
    served = rows(data)
    # MindSpore 2.10: the metadata's order, sample_rate uint32, the id without 'arctic_'
    assert [(str(t), str(u)) for _, _, t, u in served] == [
        ("B two.", "b0002"), ("Author of the danger trail, etc.", "a0001")]
    assert served[0][1].dtype == np.uint32
    write(root / "wav" / "arctic_a0001.wav", wav_bytes([3], rate=8000))
    with pytest.raises(RuntimeError, match="16000"):
        rows(ds.CMUArcticDataset(str(tmp_path), shuffle=False))
    with pytest.raises(ValueError, match="Input name is not within the valid set"):
        ds.CMUArcticDataset(str(tmp_path), name="xyz")


def test_libri_tts(tmp_path):
    for part, speaker, chapter in (("dev-clean", "116", "288045"), ("dev-clean", "1255", "90"),
                                   ("train-clean-100", "19", "198")):
        folder = tmp_path / part / speaker / chapter
        utterances = [f"{speaker}_{chapter}_000003_000000", f"{speaker}_{chapter}_000001_000002"]
        for utterance in utterances:
            write(folder / f"{utterance}.wav", wav_bytes([5], rate=24000))
        write(folder / f"{speaker}_{chapter}.trans.tsv", "".join(
            f"{u}\torig {u}\tnorm {u}\n" for u in utterances).encode())
    data = ds.LibriTTSDataset(str(tmp_path), usage="dev-clean", shuffle=False)
    assert data.get_col_names() == ["waveform", "sample_rate", "original_text",
                                    "normalized_text", "speaker_id", "chapter_id", "utterance_id"]
    served = rows(data)
    # MindSpore 2.10: the .trans.tsv lines in order; rate, speaker and chapter uint32
    assert [str(row[6]) for row in served] == ["116_288045_000003_000000",
                                               "116_288045_000001_000002",
                                               "1255_90_000003_000000", "1255_90_000001_000002"]
    assert [v.dtype.kind + str(v.dtype.itemsize) for v in served[0][1:]] == [
        "u4", "U116", "U116", "u4", "u4", "U96"]
    assert (str(served[0][2]), int(served[0][4]), int(served[0][5])) == (
        "orig 116_288045_000003_000000", 116, 288045)
    assert ds.LibriTTSDataset(str(tmp_path)).get_dataset_size() == 6
    with pytest.raises(RuntimeError):
        ds.LibriTTSDataset(str(tmp_path), usage="test-clean").get_dataset_size()


def test_gtzan_all(tmp_path):
    for genre in ("rock", "blues", "mygenre"):
        for k in (3, 0, 100):
            write(tmp_path / genre / f"{genre}.{k:05d}.wav", wav_bytes([k], rate=22050))
    write(tmp_path / "blues" / "other.wav", wav_bytes([9], rate=22050))
    data = ds.GTZANDataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ["waveform", "sample_rate", "label"]
    served = rows(data)
    # MindSpore 2.10: the ten genres' {genre}.*.wav (not 'mygenre', not other.wav), uint32 rate
    assert [(str(label), round(float(w[0][0]) * 32767)) for w, _, label in served] == [
        ("blues", 0), ("blues", 3), ("blues", 100), ("rock", 0), ("rock", 3), ("rock", 100)]
    assert served[0][1].dtype == np.uint32 and int(served[0][1]) == 22050
    with pytest.raises(ValueError, match="fixed lists"):
        ds.GTZANDataset(str(tmp_path), usage="train")
    write(tmp_path / "rock" / "rock.00000.wav", wav_bytes([1], rate=16000))
    with pytest.raises(RuntimeError, match="22050"):
        rows(ds.GTZANDataset(str(tmp_path), shuffle=False))


def test_libri_tts_normalized_text_is_the_rest_of_the_line(tmp_path):
    # MindSpore 2.10 (measured): 'u\ta;b\ttab\there' -> original 'a;b', normalized 'tab\there'
    folder = tmp_path / "dev-clean" / "9" / "5"
    write(folder / "9_5_000005_000000.wav", wav_bytes([1], rate=24000))
    write(folder / "9_5.trans.tsv", b"9_5_000005_000000\ta;b\ttab\there\n")
    [row] = rows(ds.LibriTTSDataset(str(tmp_path), shuffle=False))
    assert (str(row[2]), str(row[3])) == ("a;b", "tab\there")
