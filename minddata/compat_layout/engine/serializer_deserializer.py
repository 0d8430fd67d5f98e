"""``mindspore.dataset.engine.serializer_deserializer``: ``serialize``, ``deserialize``,
``show`` and ``compare`` (minddata/serialization.py)."""
from minddata.compat_layout import reexport

reexport(globals(), ("serialize", "deserialize", "show", "compare"), source="minddata.serialization")
