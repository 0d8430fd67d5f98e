"""The API's dataset classes: each one is a logical node (minddata/graph/) with the Dataset
API (minddata/dataset.py) on it. The engine runs their plans; nothing here runs anything."""
