"""The logical graph: frozen nodes that say what a pipeline computes (minddata/graph/node.py),
one module per kind of node. Imports nothing of the planner, the engine or the API."""
from .batch import Batch
from .bucket_batch import BucketBatch
from .concat import Concat
from .filter import Filter
from .map import Map
from .node import LogicalNode, Traits, walk
from .project import Project
from .rename import Rename
from .repeat import Repeat
from .shuffle import Shuffle
from .skip import Skip
from .source import Source
from .take import Take
from .zip import Zip

__all__ = ["Batch", "BucketBatch", "Concat", "Filter", "LogicalNode", "Map", "Project", "Rename",
           "Repeat", "Shuffle", "Skip", "Source", "Take", "Traits", "Zip", "walk"]
