"""``mindspore.dataset.engine``: the names of MindSpore's engine modules, each a re-export of the
project's object (see ``minddata.compat_layout``); submodules as in MindSpore
(``datasets``, ``datasets_vision``, ``datasets_audio``, ``samplers``, ``iterators``, ``cache_client``,
``serializer_deserializer``, ...)."""
from minddata import config  # noqa: F401  (MindSpore's engine exports the config module)
from minddata.compat_layout import reexport
from minddata.compat_layout.engine import (cache_client, datasets, datasets_audio,
                                           datasets_standard_format, datasets_text,
                                           datasets_user_defined, datasets_vision, iterators,
                                           samplers, serializer_deserializer)

_MODULES = (datasets, datasets_vision, datasets_text, datasets_audio, datasets_standard_format,
            datasets_user_defined, samplers, cache_client, serializer_deserializer)

reexport(globals(), tuple(dict.fromkeys(
    ["DSCallback", "WaitedDSCallback"] + [n for m in _MODULES for n in m.__all__])))
__all__ += ["config"]  # noqa: F821  (set by reexport)
