"""``mindspore.dataset.engine.datasets_vision``: image dataset sources."""
from minddata.compat_layout import reexport

reexport(globals(), (
    "Caltech101Dataset", "Caltech256Dataset", "CelebADataset", "Cifar10Dataset",
    "Cifar100Dataset", "CityscapesDataset", "CocoDataset", "DIV2KDataset", "EMnistDataset",
    "FakeImageDataset", "FashionMnistDataset", "FlickrDataset", "Flowers102Dataset",
    "Food101Dataset", "ImageFolderDataset", "KITTIDataset", "KMnistDataset", "LFWDataset",
    "LSUNDataset", "ManifestDataset", "MnistDataset", "OmniglotDataset", "PhotoTourDataset",
    "Places365Dataset", "QMnistDataset", "RandomDataset", "RenderedSST2Dataset", "SBDataset",
    "SBUDataset", "SemeionDataset", "STL10Dataset", "SUN397Dataset", "SVHNDataset",
    "USPSDataset", "VOCDataset", "WIDERFaceDataset"))
