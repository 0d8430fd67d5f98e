"""The converters' errors for a missing input file or folder, or one of the wrong kind: the
exception types MindSpore 2.10's converters raise (measured on the same layouts; MindSpore
raises some of them in ``transform()``, these raise in the constructor). TFRecordToMR cannot
run in MindSpore without TensorFlow: it raises as CsvToMR's sibling file readers do."""
import gzip
import os
import pickle
import struct

import numpy as np
import pytest

from mindrecord.errors import ParamValueError, PathNotExistsError
from mindrecord.tools import (Cifar100ToMR, Cifar10ToMR, CsvToMR, ImageNetToMR, MnistToMR,
                              ParquetToMR, TFRecordToMR)


@pytest.fixture
def paths(tmp_path):
    """missing, a plain file, an empty folder, a valid ImageNet map file, CIFAR folders lacking
    their test batch, an MNIST folder lacking its test files, and a destination maker."""
    (tmp_path / "afile.txt").write_text("x")
    (tmp_path / "map.txt").write_text("n01 0\n")
    (tmp_path / "empty").mkdir()
    cifar10, cifar100, mnist = (tmp_path / name for name in ("c10", "c100", "mnist"))
    for folder in (cifar10, cifar100, mnist):
        folder.mkdir()
    image = np.zeros((1, 3072), np.uint8)
    (cifar10 / "data_batch_1").write_bytes(pickle.dumps({b"data": image, b"labels": [0]}))
    (cifar100 / "train").write_bytes(pickle.dumps({b"data": image, b"fine_labels": [0],
                                                   b"coarse_labels": [0]}))
    with gzip.open(mnist / "train-images-idx3-ubyte.gz", "wb") as f:
        f.write(struct.pack(">IIII", 2051, 1, 28, 28) + bytes(784))
    with gzip.open(mnist / "train-labels-idx1-ubyte.gz", "wb") as f:
        f.write(struct.pack(">II", 2049, 1) + bytes(1))
    named = {"missing": tmp_path / "nothere", "file": tmp_path / "afile.txt",
             "empty": tmp_path / "empty", "map": tmp_path / "map.txt", "cifar10": cifar10,
             "cifar100": cifar100, "mnist": mnist}
    named = {key: str(value) for key, value in named.items()}
    named["dest"] = str(tmp_path / "out.mindrecord")
    return named


# (converter call, the exception type MindSpore 2.10 raises)
CASES = {
    "Cifar10ToMR missing": (lambda p: Cifar10ToMR(p["missing"], p["dest"]), FileNotFoundError),
    "Cifar10ToMR file": (lambda p: Cifar10ToMR(p["file"], p["dest"]), NotADirectoryError),
    "Cifar10ToMR no data_batch": (lambda p: Cifar10ToMR(p["empty"], p["dest"]),
                                  PathNotExistsError),
    "Cifar10ToMR no test_batch": (lambda p: Cifar10ToMR(p["cifar10"], p["dest"]),
                                  PathNotExistsError),
    "Cifar100ToMR missing": (lambda p: Cifar100ToMR(p["missing"], p["dest"]), FileNotFoundError),
    "Cifar100ToMR no train": (lambda p: Cifar100ToMR(p["empty"], p["dest"]), PathNotExistsError),
    "Cifar100ToMR no test": (lambda p: Cifar100ToMR(p["cifar100"], p["dest"]),
                             PathNotExistsError),
    "MnistToMR missing": (lambda p: MnistToMR(p["missing"], p["dest"]), FileNotFoundError),
    "MnistToMR file": (lambda p: MnistToMR(p["file"], p["dest"]), NotADirectoryError),
    "MnistToMR empty": (lambda p: MnistToMR(p["empty"], p["dest"]), FileNotFoundError),
    "MnistToMR no test files": (lambda p: MnistToMR(p["mnist"], p["dest"]), FileNotFoundError),
    "ImageNetToMR missing map": (lambda p: ImageNetToMR(p["missing"], p["empty"], p["dest"]),
                                 OSError),
    "ImageNetToMR map is a folder": (lambda p: ImageNetToMR(p["empty"], p["empty"], p["dest"]),
                                     IsADirectoryError),
    "ImageNetToMR missing image_dir": (lambda p: ImageNetToMR(p["map"], p["missing"], p["dest"]),
                                       PathNotExistsError),
    "ImageNetToMR image_dir is a file": (lambda p: ImageNetToMR(p["map"], p["file"], p["dest"]),
                                         PathNotExistsError),
    "CsvToMR missing": (lambda p: CsvToMR(p["missing"], p["dest"]), OSError),
    "CsvToMR folder": (lambda p: CsvToMR(p["empty"], p["dest"]), IsADirectoryError),
    # not in MindSpore 2.10 (ParquetToMR) or not runnable there without TensorFlow
    "TFRecordToMR missing": (lambda p: TFRecordToMR(p["missing"], p["dest"], {"x": None}),
                             FileNotFoundError),
    "TFRecordToMR folder": (lambda p: TFRecordToMR(p["empty"], p["dest"], {"x": None}),
                            IsADirectoryError),
    "ParquetToMR missing": (lambda p: ParquetToMR(p["missing"], p["dest"]), FileNotFoundError),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_missing_input_raises_mindspores_type(paths, name):
    call, expected = CASES[name]
    with pytest.raises(OSError) as info:
        call(paths).transform()
    assert type(info.value) is expected, (name, info.value)
    assert "Parameter" in str(info.value) and not os.path.exists(paths["dest"])


@pytest.mark.parametrize("call", [
    lambda p: MnistToMR(p["missing"], p["dest"], 1001),
    lambda p: ImageNetToMR(p["missing"], p["missing"], p["dest"], 0),
    lambda p: CsvToMR(p["missing"], p["dest"] + "/"),
])
def test_the_destination_and_partition_are_checked_before_the_input(paths, call):
    # MindSpore 2.10 makes these converters' FileWriters when they are built, before looking
    # at their input: ParamValueError (measured)
    with pytest.raises(ParamValueError):
        call(paths)


@pytest.mark.parametrize("converter", ["csv", "cifar10"])
def test_a_missing_destination_folder_is_a_runtime_error(paths, tmp_path, converter):
    # MindSpore 2.10: RuntimeError (its FileWriter: "failed to get the realpath"; measured)
    dest = str(tmp_path / "missing" / "x.mindrecord")
    if converter == "csv":
        (tmp_path / "a.csv").write_text("score\n3.0\n")
        convert = CsvToMR(str(tmp_path / "a.csv"), dest)
    else:
        (tmp_path / "c10" / "test_batch").write_bytes(
            (tmp_path / "c10" / "data_batch_1").read_bytes())
        convert = Cifar10ToMR(paths["cifar10"], dest)
    with pytest.raises(RuntimeError, match="destination directory .*missing does not exist"):
        convert.transform()
