"""``Dataset.project(columns)``: the logical node (minddata/graph/project.py, which validates the arguments) with
the Dataset API on it."""
from ..dataset import Dataset
from ..graph.project import Project


class ProjectDataset(Project, Dataset):
    pass
