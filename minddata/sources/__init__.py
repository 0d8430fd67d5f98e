"""File sources of the dataset API: MindRecord, image folders, Manifest files, MNIST
(and Fashion-MNIST, KMNIST, EMNIST, QMNIST), USPS, Semeion, FakeImageDataset,
CIFAR-10/100, Caltech 101/256, Food-101, SUN397, Places365, Omniglot, LFW, DIV2K,
STL-10, SVHN, Flowers102, PhotoTour, LSUN, SBU, Flickr8k/30k,
SBD, Cityscapes, KITTI, WIDER FACE, Rendered SST-2,
CSV, TFRecord (with its Schema), text files and CLUE; the text corpora (AG News, Amazon
Review, DBpedia, Sogou News, Yahoo Answers, Yelp Review, SST-2, Penn Treebank, WikiText,
EnWik9, IMDb, CoNLL2000, UDPOS, SQuAD, Multi30k, IWSLT2017/2016); the speech datasets (YesNo, SpeechCommands,
LJSpeech, CMUArctic, LibriTTS, GTZAN, TED-LIUM); PaddedDataset and
RandomDataset.

Each public class validates its arguments as MindSpore does and hands the engine core a factory
that opens a ``RowSource`` (base.py) lazily, when a pipeline starts.
"""
from .audio_folders import (CMUArcticDataset, GTZANDataset, LibriTTSDataset, LJSpeechDataset,
                            SpeechCommandsDataset, YesNoDataset)
from .caltech import Caltech101Dataset, Caltech256Dataset
from .celeba import CelebADataset
from .cityscapes import CityscapesDataset
from .cifar import Cifar10Dataset, Cifar100Dataset
from .clue import CLUEDataset
from .coco import CocoDataset
from .csv_corpora import (AGNewsDataset, AmazonReviewDataset, DBpediaDataset, SogouNewsDataset,
                          SST2Dataset, YahooAnswersDataset, YelpReviewDataset)
from .csv_dataset import CSVDataset
from .div2k import DIV2KDataset
from .fake_image import FakeImageDataset
from .flickr import FlickrDataset
from .flowers102 import Flowers102Dataset
from .food101 import Food101Dataset
from .image_folder import ImageFolderDataset
from .imdb import IMDBDataset
from .iwslt import IWSLT2016Dataset, IWSLT2017Dataset
from .tedlium import TedliumDataset
from .kitti import KITTIDataset
from .lfw import LFWDataset
from .line_corpora import EnWik9Dataset, PennTreebankDataset, WikiTextDataset
from .lsun import LSUNDataset
from .manifest import ManifestDataset
from .mindrecord_dataset import MindDataset, OBSMindDataset
from .mnist import MnistDataset
from .mnist_variants import EMnistDataset, FashionMnistDataset, KMnistDataset, QMnistDataset
from .multi30k import Multi30kDataset
from .omniglot import OmniglotDataset
from .photo_tour import PhotoTourDataset
from .places365 import Places365Dataset
from .random_dataset import RandomDataset
from .rendered_sst2 import RenderedSST2Dataset
from .sbd import SBDataset
from .sbu import SBUDataset
from .schema import Schema
from .semeion import SemeionDataset
from .squad import SQuADDataset
from .stl10 import STL10Dataset
from .sun397 import SUN397Dataset
from .svhn import SVHNDataset
from .tagged_corpora import CoNLL2000Dataset, UDPOSDataset
from .text_file import TextFileDataset
from .tfrecord_dataset import TFRecordDataset
from .usps import USPSDataset
from .voc import VOCDataset
from .wider_face import WIDERFaceDataset

__all__ = ["MindDataset", "OBSMindDataset", "ImageFolderDataset", "ManifestDataset", "MnistDataset",
           "FashionMnistDataset", "KMnistDataset", "EMnistDataset", "QMnistDataset",
           "FakeImageDataset", "USPSDataset", "SemeionDataset",
           "Cifar10Dataset", "Cifar100Dataset", "CSVDataset", "TFRecordDataset", "Schema",
           "TextFileDataset", "CLUEDataset", "PaddedDataset", "RandomDataset",
           "CocoDataset", "VOCDataset", "CelebADataset",
           "Caltech101Dataset", "Caltech256Dataset", "Food101Dataset", "SUN397Dataset",
           "Places365Dataset", "OmniglotDataset", "LFWDataset", "DIV2KDataset",
           "STL10Dataset", "SVHNDataset", "Flowers102Dataset", "PhotoTourDataset",
           "LSUNDataset", "SBUDataset", "FlickrDataset",
           "SBDataset", "CityscapesDataset", "KITTIDataset", "WIDERFaceDataset",
           "AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "SogouNewsDataset",
           "YahooAnswersDataset", "YelpReviewDataset", "SST2Dataset",
           "PennTreebankDataset", "WikiTextDataset", "EnWik9Dataset", "IMDBDataset",
           "CoNLL2000Dataset", "UDPOSDataset", "SQuADDataset",
           "YesNoDataset", "SpeechCommandsDataset", "LJSpeechDataset", "CMUArcticDataset",
           "Multi30kDataset", "LibriTTSDataset", "RenderedSST2Dataset",
           "GTZANDataset", "IWSLT2017Dataset", "IWSLT2016Dataset", "TedliumDataset"]


def __getattr__(name):
    # PaddedDataset is a GeneratorDataset, and minddata.generator imports this package's base
    # module: importing it here at once would be a cycle, so it loads on first use.
    if name == "PaddedDataset":
        from .padded import PaddedDataset
        return PaddedDataset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
