"""``mindspore.dataset.engine.datasets_audio``: audio dataset sources (those this project has)."""
from minddata.compat_layout import reexport

reexport(globals(), (
    "CMUArcticDataset", "GTZANDataset", "LibriTTSDataset", "LJSpeechDataset",
    "SpeechCommandsDataset", "TedliumDataset", "YesNoDataset"))
