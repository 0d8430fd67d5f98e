"""Which project module stands for each `mindspore` module, and what to use instead of the
MindSpore modules this project does not provide."""

# Longest prefix wins; the rest of the dotted name is kept ("mindspore.dataset.vision" ->
# "minddata.vision").
PREFIXES = {
    "mindspore": "training",
    "mindspore.dataset": "minddata",
    "mindspore.mindrecord": "mindrecord",
    # MindSpore's internal module paths that scripts import from directly.
    "mindspore.common.tensor": "training.tensor",
    "mindspore.common.parameter": "training.tensor",
    "mindspore.common.api": "training.common.api",
    "mindspore.nn.wrap": "training.nn",
    "mindspore.nn.wrap.cell_wrapper": "training.nn",
    "mindspore.nn.wrap.loss_scale": "training.nn",
    "mindspore.nn.layer": "training.nn",
    "mindspore.nn.loss.loss": "training.nn.loss",
    "mindspore.nn.optim.optimizer": "training.nn.optim",
    "mindspore.train.callback._callback": "training.callbacks.callback",
    "mindspore.log": "training.log",
    # MindSpore's internal dataset modules (its own tests import them): thin modules that
    # re-export the project's public names under MindSpore's layout (minddata/compat_layout).
    "mindspore._c_dataengine": "minddata.compat_layout._c_dataengine",
    "mindspore.dataset.engine": "minddata.compat_layout.engine",
    "mindspore.dataset.core": "minddata.compat_layout.core",
    "mindspore.dataset.core.config": "minddata.config",
}

NOT_PROVIDED = {
    "mindspore.scipy": "use scipy on Tensor.asnumpy() values",
    "mindspore.nn.probability": "use numpy.random / torch.distributions",
    "mindspore.boost": "Model runs boost_level 'O0' only",
    "mindspore.parallel": "data parallelism is set_auto_parallel_context(parallel_mode="
                          "'data_parallel') with a torch network under torchrun",
    "mindspore.rewrite": "edit the network's Python code",
    "mindspore.hal": "use torch.cuda for device and stream control",
    "mindspore.experimental": "use training.nn optimizers or torch.optim",
    # mindspore.dataset.audio itself is minddata.audio (its transforms it lacks say what to
    # use instead)
    # mindspore.dataset.text (with its transforms and utils modules) is minddata.text (the
    # names it lacks say what to use instead)
}


def target_of(fullname):
    """The project module for a mindspore module name."""
    best = max((p for p in PREFIXES if fullname == p or fullname.startswith(p + ".")), key=len)
    return PREFIXES[best] + fullname[len(best):]


def not_provided(fullname):
    """(MindSpore module, alternative) when `fullname` is in a module this project lacks."""
    for name, alternative in NOT_PROVIDED.items():
        if fullname == name or fullname.startswith(name + "."):
            return name, alternative
    return None


# Names model code uses from modules this project does provide, with what to use instead.
MISSING_ATTRIBUTES = {
    "mindspore": {
        "export": "there is no MindIR export; save weights with save_checkpoint (or torch.onnx "
                  "for a torch network)",
        "load": "there is no MindIR loader; load weights with load_checkpoint",
        "build_searched_strategy": "there is no auto-parallel strategy search",
        "merge_sliced_parameter": "there is no model parallelism; checkpoints hold whole tensors",
    },
    "mindspore.nn": {
        "DistributedGradReducer": "data parallelism averages gradients with torch's "
                                  "DistributedDataParallel (a torch network under torchrun)",
        "PipelineCell": "there is no pipeline parallelism",
        "SampledSoftmaxLoss": "its negative classes come from MindSpore's own candidate "
                              "sampler, whose stream cannot be reproduced: use "
                              "CrossEntropyLoss over every class, or a torch sampled softmax",
        "MicroBatchInterleaved": "there is no pipeline parallelism",
        "GradAccumulationCell": "accumulate gradients in a Python loop with value_and_grad",
        "thor": "use Momentum or Adam",
    },
    "mindspore.ops": {
        "HyperMap": "apply the function to each gradient in a Python loop or comprehension",
        "MultitypeFuncGraph": "use a plain Python function (dispatch on type with "
                              "functools.singledispatch if needed)",
        "Custom": "write the operator with numpy (numpy backend) or as a torch function",
        "vmap": "loop in Python, or use torch.func.vmap in a torch network",
    },
    "mindspore.train.serialization": {
        "export": "there is no MindIR/AIR/ONNX export; save weights with save_checkpoint (or "
                  "torch.onnx for a torch network)",
        "load": "there is no MindIR loader; load weights with load_checkpoint",
        "convert_model": "there is no MindIR conversion",
    },
}
MISSING_ATTRIBUTES["mindspore.ops.composite"] = MISSING_ATTRIBUTES["mindspore.ops"]
MISSING_ATTRIBUTES["mindspore.ops.operations"] = MISSING_ATTRIBUTES["mindspore.ops"]
MISSING_ATTRIBUTES["mindspore.ops.functional"] = MISSING_ATTRIBUTES["mindspore.ops"]


class NotProvidedError(ImportError):
    """A MindSpore name this project does not provide. An ImportError, so that
    `from mindspore.nn import LSTM` keeps this message (Python rewrites AttributeErrors raised
    during `from ... import` into a generic one)."""


def missing_attribute(mindspore_module, name):
    """The exception for `mindspore_module.name` when the project module lacks it."""
    alternative = MISSING_ATTRIBUTES.get(mindspore_module, {}).get(name)
    if alternative is not None:
        return NotProvidedError(f"{mindspore_module}.{name} (MindSpore API) is not provided by "
                                f"this project: {alternative}")
    return AttributeError(f"module {mindspore_module!r} has no attribute {name!r} here: "
                          f"{mindspore_module}.{name} is not provided by this project (see "
                          f"README.md, 'Running MindSpore scripts unchanged')")
