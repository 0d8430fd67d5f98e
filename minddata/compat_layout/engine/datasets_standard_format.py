"""``mindspore.dataset.engine.datasets_standard_format``: MindRecord, TFRecord and CSV."""
from minddata.compat_layout import reexport

reexport(globals(), ("MindDataset", "TFRecordDataset", "CSVDataset", "OBSMindDataset"))
