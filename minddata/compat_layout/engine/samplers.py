"""``mindspore.dataset.engine.samplers``: the samplers and the Shuffle levels."""
from minddata.compat_layout import reexport

reexport(globals(), ("Sampler", "BuiltinSampler", "DistributedSampler", "PKSampler",
                     "RandomSampler", "SequentialSampler", "SubsetRandomSampler", "SubsetSampler",
                     "WeightedRandomSampler", "IterSampler", "Shuffle"),
         source="minddata.samplers")
