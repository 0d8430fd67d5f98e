"""TedliumDataset (minddata/sources/tedlium.py) and the SPHERE reader (_sphere.py).

Columns, order, metadata, sample rates, waveform shapes and the argument errors were measured
in MindSpore 2.10 on the same files. MindSpore 2.10 serves every waveform as zeros of the
segment's length (measured); the values here are the segment's samples / 32767 (a deviation
on purpose, README)."""
import struct

import numpy as np
import pytest

import minddata as ds
from minddata.sources._sphere import read_segment

SAMPLES = [((i * 37) % 2000) - 1000 for i in range(3200)]
SAMPLES[0], SAMPLES[1] = 32767, -32768


def sphere(samples, rate, order="01", coding="pcm", pad=b"\0"):
    fields = (f"sample_count -i {len(samples)}\nsample_rate -i {rate}\nchannel_count -i 1\n"
              f"sample_byte_format -s2 {order}\nsample_n_bytes -i 2\n"
              f"sample_coding -s{len(coding)} {coding}\nend_head\n")
    head = b"NIST_1A\n   1024\n" + fields.encode()
    return head + pad * (1024 - len(head)) + struct.pack(
        ("<" if order == "01" else ">") + "%dh" % len(samples), *samples)


@pytest.fixture
def corpus(tmp_path):
    for usage in ("train", "dev", "test"):
        (tmp_path / usage / "sph").mkdir(parents=True)
        (tmp_path / usage / "stm").mkdir()
    (tmp_path / "train" / "sph" / "TalkA.sph").write_bytes(sphere(SAMPLES, 1000, "10"))
    (tmp_path / "train" / "stm" / "TalkA.stm").write_text(
        "TalkA 1 TalkA 0.0 0.5 <o,f0,male> hello world\n"
        "TalkA 1 TalkA 1.25 2.0 <o,f0,male> second  line\n" +
        "".join(f"TalkA 1 SpeakerB {k * 0.1:.2f} {k * 0.1 + 0.05:.2f} <o,f0,female> line {k}\n"
                for k in range(2, 12)))
    (tmp_path / "dev" / "sph" / "TalkB.sph").write_bytes(sphere(SAMPLES[:500], 1000, "01"))
    (tmp_path / "dev" / "stm" / "TalkB.stm").write_text(
        "TalkB 1 TalkB 0.1 0.3 <o,f0,male> dev text\n")
    return tmp_path


def rows(data):
    return list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))


def test_rows_in_mindspores_order_with_their_segments(corpus):
    data = ds.TedliumDataset(str(corpus), "release1", usage="train", shuffle=False)
    assert data.get_col_names() == ["waveform", "sample_rate", "transcript", "talk_id",
                                    "speaker_id", "identifier"]
    assert data.get_dataset_size() == 12
    got = rows(data)
    # MindSpore 2.10: line numbers sorted as strings ("10" and "11" before "2")
    assert [str(r[2]) for r in got] == ["hello world", "second  line", "line 10", "line 11"] + [
        f"line {k}" for k in range(2, 10)]
    assert [r[0].shape for r in got[:3]] == [(1, 500), (1, 750), (1, 50)]
    assert [(str(r[3]), str(r[4]), str(r[5])) for r in got[1:3]] == [
        ("TalkA", "TalkA", "<o,f0,male>"), ("TalkA", "SpeakerB", "<o,f0,female>")]
    assert got[0][1].dtype == np.int32 and got[0][1] == 1000 and got[0][0].dtype == np.float32
    # the segment's samples (big-endian file), scaled by 32767
    expected = (np.array(SAMPLES[1250:2000], np.float64) / 32767.0).astype(np.float32)
    np.testing.assert_array_equal(got[1][0][0], expected)
    assert got[0][0][0, 0] == 1.0 and got[0][0][0, 1] == np.float32(-32768 / 32767.0)


def test_usage_dev_reads_a_little_endian_file(corpus):
    (waveform, rate, transcript, *_), = rows(ds.TedliumDataset(str(corpus), "release2",
                                                                usage="dev"))
    assert waveform.shape == (1, 200) and str(transcript) == "dev text"
    np.testing.assert_array_equal(waveform[0], (np.array(SAMPLES[100:300]) / 32767.0)
                                  .astype(np.float32))


def test_all_needs_every_usage_folder_and_release3_reads_data(corpus):
    assert ds.TedliumDataset(str(corpus), "release1").get_dataset_size() == 13
    with pytest.raises(RuntimeError, match="failed to open folder: .*data/stm"):
        ds.TedliumDataset(str(corpus), "release3").get_dataset_size()
    (corpus / "data").mkdir()
    (corpus / "train").rename(corpus / "data" / "unused")
    (corpus / "data" / "unused" / "stm").rename(corpus / "data" / "stm")
    (corpus / "data" / "unused" / "sph").rename(corpus / "data" / "sph")
    assert ds.TedliumDataset(str(corpus), "release3").get_dataset_size() == 12
    with pytest.raises(RuntimeError, match="failed to open folder: .*train/stm"):
        ds.TedliumDataset(str(corpus), "release1").get_dataset_size()


@pytest.mark.parametrize("args, kwargs, error, message", [
    (("release4",), {}, ValueError, "Input release is not within the valid set of "
                                    "['release1', 'release2', 'release3']."),
    ((1,), {}, TypeError, "Argument release with value 1 is not of type [<class 'str'>], but "
                          "got <class 'int'>."),
    (("release3",), {"usage": "train"}, ValueError, "Input usage is not within the valid set "
                                                    "of ['all']."),
    (("release1",), {"usage": "eval"}, ValueError, "Input usage is not within the valid set "
                                                   "of ['train', 'test', 'dev', 'all']."),
])
def test_argument_errors_as_mindspore(corpus, args, kwargs, error, message):
    with pytest.raises(error) as info:
        ds.TedliumDataset(str(corpus), *args, **kwargs)
    assert str(info.value) == message


def test_another_extension_fails_when_built_as_mindspore(corpus):
    data = ds.TedliumDataset(str(corpus), "release1", usage="dev", extensions=".wav")
    with pytest.raises(RuntimeError, match=r"TedliumNode: extension \.wav is not supported\."):
        data.get_dataset_size()


def test_bad_lines_and_files_raise_naming_them(corpus):
    stm = corpus / "dev" / "stm" / "TalkB.stm"
    stm.write_text("TalkB 1 TalkB 0.1 0.3 <o,f0,male>\n")
    with pytest.raises(RuntimeError, match="TalkB.stm line 1: .* is not 'talk_id channel"):
        ds.TedliumDataset(str(corpus), "release1", usage="dev").get_dataset_size()
    stm.write_text("TalkB 1 TalkB 0.1 0.9 <o,f0,male> past the end\n")
    with pytest.raises(RuntimeError, match="TalkB.sph: the segment 0.1s to 0.9s .* not inside"):
        rows(ds.TedliumDataset(str(corpus), "release1", usage="dev"))
    stm.write_text("TalkB 1 TalkB 0.1 0.2 <o,f0,male> ok\r\n")
    (row,) = rows(ds.TedliumDataset(str(corpus), "release1", usage="dev"))
    assert str(row[2]) == "ok"                  # the CR of a CRLF line end goes
    (corpus / "dev" / "sph" / "TalkB.sph").write_bytes(
        sphere(SAMPLES[:500], 1000, coding="pcm,embedded-shorten-v2.00"))
    with pytest.raises(RuntimeError, match="TalkB.sph: its samples are shorten-compressed"):
        rows(ds.TedliumDataset(str(corpus), "release1", usage="dev"))
    (corpus / "dev" / "sph" / "TalkB.sph").unlink()
    with pytest.raises(RuntimeError, match="failed to open file: .*TalkB.sph"):
        rows(ds.TedliumDataset(str(corpus), "release1", usage="dev"))


def test_sphere_reader_refuses_what_it_does_not_read(tmp_path):
    path = tmp_path / "x.sph"
    path.write_bytes(sphere(SAMPLES[:10], 8000, pad=b" "))        # space padding reads too
    waveform, rate = read_segment(str(path), 0, 0.001, "api")
    assert rate == 8000 and waveform.shape == (1, 8)
    for data, message in [(b"RIFF....", "does not start with NIST_1A"),
                          (sphere(SAMPLES[:10], 8000, coding="ulaw"), "sample_coding ulaw"),
                          (sphere(SAMPLES[:10], 8000, order="1"), "sample_byte_format 1 ")]:
        path.write_bytes(data)
        with pytest.raises(RuntimeError, match=f"x.sph: .*{message}"):
            read_segment(str(path), 0, 0.001, "api")
