"""IWSLT2016Dataset (minddata/sources/iwslt.py): the folder per language pair, valid_set and
test_set, MindSpore 2.10's argument checks. Rows and messages measured in MindSpore 2.10 on the
same files (num_parallel_workers=1: its file order)."""
import os

import pytest

import minddata as ds


def iwslt_xml(language, segments):
    body = '<doc docid="0">\n<talkid>1</talkid>\n%s</doc>\n' % "".join(
        '<seg id="%d"> %s </seg>\n' % (i, text) for i, text in enumerate(segments))
    return (f'<mteval>\n<srcset setid="x" srclang="{language}">\n{body}</srcset>\n'
            f'</mteval>\n').encode()


@pytest.fixture
def folder(tmp_path):
    base = tmp_path / "texts" / "en" / "fr" / "en-fr"
    base.mkdir(parents=True)
    (base / "train.tags.en-fr.en").write_bytes(
        b"<url>http://x</url>\n  Hello world \nTwo\n<title>T</title>\n")
    (base / "train.tags.en-fr.fr").write_bytes(
        b"<url>http://y</url>\nBonjour\n  Deux  \n<title>T</title>\n")
    sets = {"tst2013": (["v1 &amp; x", "v2"], ["w1", "w2"]), "tst2014": (["t1"], ["u1"]),
            "dev2010": (["d1"], ["e1"])}
    for name, (english, french) in sets.items():
        (base / f"IWSLT16.TED.{name}.en-fr.en.xml").write_bytes(iwslt_xml("en", english))
        (base / f"IWSLT16.TED.{name}.en-fr.fr.xml").write_bytes(iwslt_xml("fr", french))
    return tmp_path


def rows(data):
    return [[str(v) for v in row] for row in
            data.create_tuple_iterator(output_numpy=True, num_epochs=1)]


def read(folder, **kwargs):
    return ds.IWSLT2016Dataset(str(folder), language_pair=("en", "fr"), shuffle=False,
                               num_parallel_workers=1, **kwargs)


def test_usages_and_sets(folder):
    data = read(folder)
    assert data.get_col_names() == ["text", "translation"] and data.get_dataset_size() == 5
    assert rows(data) == [["Hello world", "Bonjour"], ["Two", "Deux"], ["v1 & x", "w1"],
                          ["v2", "w2"], ["t1", "u1"]]       # train, valid tst2013, test tst2014
    assert rows(read(folder, usage="valid")) == [["v1 & x", "w1"], ["v2", "w2"]]
    assert rows(read(folder, usage="test", test_set="dev2010")) == [["d1", "e1"]]
    base = folder / "texts" / "en" / "fr" / "en-fr"
    assert len(os.listdir(base)) == 8          # nothing written (MindSpore writes copies there)


def test_a_missing_set_or_pair_is_a_runtime_error(folder):
    with pytest.raises(RuntimeError, match="failed to load xml file: .*IWSLT16.TED.tst2012"):
        rows(read(folder, usage="valid", valid_set="tst2012"))
    with pytest.raises(RuntimeError, match="failed to load xml file: .*de-en"):
        rows(ds.IWSLT2016Dataset(str(folder), shuffle=False))      # default pair ['de', 'en']


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(language_pair=["de", "fr"]), ValueError,
     "Input language_pair['de', 'fr'] is not within the valid set of [['en', 'ar'], "),
    (dict(language_pair=("de", "fr")), ValueError,
     "Input language_pair('de', 'fr') is not within the valid set of (('en', 'ar'), "),
    (dict(language_pair="de"), TypeError, "language_pair should be a type list or tuple of "
                                          "length 2."),
    (dict(language_pair=["de"]), ValueError, "Input language_pair is a list or tuple of length 2."),
    (dict(language_pair=["de", 1]), TypeError, "Argument language_pair[1] with value 1 is not of "
                                               "type [<class 'str'>], but got <class 'int'>."),
    (dict(valid_set="tst2015"), ValueError, "Input valid_set is not within the valid set of "
                                            "['dev2010', 'tst2010', 'tst2011', 'tst2012', "
                                            "'tst2013', 'tst2014']."),
    (dict(test_set=1), TypeError, "Argument test_set with value 1 is not of type "
                                  "[<class 'str'>], but got <class 'int'>."),
    (dict(usage="dev"), ValueError, "Input usage is not within the valid set of ['train', "
                                    "'test', 'valid', 'all']."),
])
def test_argument_errors_as_mindspore(folder, kwargs, error, message):
    with pytest.raises(error) as info:
        ds.IWSLT2016Dataset(str(folder), **kwargs)
    assert str(info.value).startswith(message)
