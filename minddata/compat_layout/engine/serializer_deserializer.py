"""``mindspore.dataset.engine.serializer_deserializer``: ``serialize``, ``deserialize`` and
``show`` (minddata/serialization.py)."""
from minddata.compat_layout import reexport

reexport(globals(), ("serialize", "deserialize", "show"), source="minddata.serialization")
