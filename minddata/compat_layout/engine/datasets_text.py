"""``mindspore.dataset.engine.datasets_text``: text dataset sources (those this project has)."""
from minddata.compat_layout import reexport

reexport(globals(), (
    "AGNewsDataset", "AmazonReviewDataset", "CLUEDataset", "CoNLL2000Dataset", "DBpediaDataset",
    "EnWik9Dataset", "IMDBDataset", "IWSLT2016Dataset", "IWSLT2017Dataset", "Multi30kDataset",
    "PennTreebankDataset", "SogouNewsDataset", "SQuADDataset", "SST2Dataset", "TextFileDataset",
    "UDPOSDataset", "WikiTextDataset", "YahooAnswersDataset", "YelpReviewDataset"))
