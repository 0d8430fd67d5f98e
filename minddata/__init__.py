"""minddata: MindSpore's dataset API (``mindspore.dataset``) without MindSpore.

``import minddata as ds`` reads like ``import mindspore.dataset as ds``. File-format sources
(``minddata.sources``), the cache (``minddata.cache``) and the transforms subpackages are loaded
on first use, so importing minddata stays cheap and each part can be absent while it is built.
"""
import importlib

from . import config
# The config functions MindSpore's mindspore.dataset also names at its top level.
from .config import (ErrorSamplesMode, get_callback_timeout, get_debug_mode,  # noqa: F401
                     get_enable_watchdog, get_error_samples_mode,
                     get_multiprocessing_start_method, get_multiprocessing_timeout_interval,
                     get_num_parallel_workers, get_seed, get_video_backend, set_seed,
                     set_video_backend)
from .dataset import Dataset
from .generator import GeneratorDataset
from .numpy_slices import NumpySlicesDataset
from .ops.source import SourceDataset
from .samplers import (DistributedSampler, IterSampler, PKSampler, RandomSampler, Sampler,
                       SequentialSampler, Shuffle, SubsetRandomSampler, SubsetSampler,
                       WeightedRandomSampler)
from .engine.nodes.batch import BatchInfo
from .elastic import reshard_state
from .resharding import auto_shard

# name -> module that defines it, imported on first access.
_LAZY = {
    "MindDataset": "minddata.sources",
    "OBSMindDataset": "minddata.sources",
    "ImageFolderDataset": "minddata.sources",
    "MnistDataset": "minddata.sources",
    "FashionMnistDataset": "minddata.sources",
    "KMnistDataset": "minddata.sources",
    "EMnistDataset": "minddata.sources",
    "QMnistDataset": "minddata.sources",
    "FakeImageDataset": "minddata.sources",
    "USPSDataset": "minddata.sources",
    "SemeionDataset": "minddata.sources",
    "Cifar10Dataset": "minddata.sources",
    "Cifar100Dataset": "minddata.sources",
    "CSVDataset": "minddata.sources",
    "TFRecordDataset": "minddata.sources",
    "Schema": "minddata.sources",
    "CocoDataset": "minddata.sources",
    "VOCDataset": "minddata.sources",
    "CelebADataset": "minddata.sources",
    "Caltech101Dataset": "minddata.sources",
    "Caltech256Dataset": "minddata.sources",
    "Food101Dataset": "minddata.sources",
    "SUN397Dataset": "minddata.sources",
    "Places365Dataset": "minddata.sources",
    "OmniglotDataset": "minddata.sources",
    "LFWDataset": "minddata.sources",
    "DIV2KDataset": "minddata.sources",
    "STL10Dataset": "minddata.sources",
    "SVHNDataset": "minddata.sources",
    "Flowers102Dataset": "minddata.sources",
    "PhotoTourDataset": "minddata.sources",
    "LSUNDataset": "minddata.sources",
    "SBUDataset": "minddata.sources",
    "FlickrDataset": "minddata.sources",
    "SBDataset": "minddata.sources",
    "CityscapesDataset": "minddata.sources",
    "KITTIDataset": "minddata.sources",
    "WIDERFaceDataset": "minddata.sources",
    "ManifestDataset": "minddata.sources",
    "TextFileDataset": "minddata.sources",
    "CLUEDataset": "minddata.sources",
    "AGNewsDataset": "minddata.sources",
    "AmazonReviewDataset": "minddata.sources",
    "DBpediaDataset": "minddata.sources",
    "SogouNewsDataset": "minddata.sources",
    "YahooAnswersDataset": "minddata.sources",
    "YelpReviewDataset": "minddata.sources",
    "SST2Dataset": "minddata.sources",
    "PennTreebankDataset": "minddata.sources",
    "WikiTextDataset": "minddata.sources",
    "EnWik9Dataset": "minddata.sources",
    "IMDBDataset": "minddata.sources",
    "CoNLL2000Dataset": "minddata.sources",
    "UDPOSDataset": "minddata.sources",
    "SQuADDataset": "minddata.sources",
    "YesNoDataset": "minddata.sources",
    "SpeechCommandsDataset": "minddata.sources",
    "LJSpeechDataset": "minddata.sources",
    "CMUArcticDataset": "minddata.sources",
    "Multi30kDataset": "minddata.sources",
    "LibriTTSDataset": "minddata.sources",
    "RenderedSST2Dataset": "minddata.sources",
    "GTZANDataset": "minddata.sources",
    "TedliumDataset": "minddata.sources",
    "sync_wait_for_dataset": "minddata.sources.mindrecord_dataset",
    "IWSLT2017Dataset": "minddata.sources",
    "IWSLT2016Dataset": "minddata.sources",
    "PaddedDataset": "minddata.sources",
    "RandomDataset": "minddata.sources",
    "DatasetCache": "minddata.cache",
    "DSCallback": "minddata.callback",
    "WaitedDSCallback": "minddata.callback",
    "Tensor": "minddata.tensor",
    "serialize": "minddata.serialization",
    "deserialize": "minddata.serialization",
    "show": "minddata.serialization",
    "compare": "minddata.serialization",
}
_SUBPACKAGES = ("vision", "transforms", "sources", "cache", "bench", "engine", "ops", "callback",
                "tensor", "mstype")

__all__ = [
    "config", "Dataset", "SourceDataset", "GeneratorDataset", "NumpySlicesDataset",
    "BatchInfo", "Sampler", "SequentialSampler", "RandomSampler", "DistributedSampler",
    "SubsetSampler", "SubsetRandomSampler", "WeightedRandomSampler", "PKSampler", "IterSampler",
    "Shuffle",
    "vision", "transforms", "zip", "reshard_state", "auto_shard",
] + list(_LAZY)


def zip(datasets):  # noqa: A001  (MindSpore's module-level name)
    """Zip a tuple of datasets (``mindspore.dataset.zip``)."""
    if not isinstance(datasets, tuple):
        raise TypeError(f"Argument datasets with value {datasets!r} is not of type "
                        f"[<class 'tuple'>], but got {type(datasets)}.")
    if len(datasets) < 2:
        raise ValueError(f"Can't zip empty or just one dataset! Got {len(datasets)}.")
    for d in datasets:
        if not isinstance(d, Dataset):
            raise TypeError(f"Invalid dataset, expected Dataset object, but got {type(d)}!")
    return datasets[0].zip(datasets[1:])


def __getattr__(name):
    if name in _LAZY:
        module = importlib.import_module(_LAZY[name])
        try:
            value = getattr(module, name)
        except AttributeError:
            raise AttributeError(f"minddata.{name} is not available: {_LAZY[name]} does not "
                                 f"define it") from None
        globals()[name] = value
        return value
    if name in _SUBPACKAGES:
        module = importlib.import_module(f"minddata.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module 'minddata' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
