"""TimeDistributed (MindSpore 2.10's): a layer applied to every time step of an input of three
or more axes, either slice by slice along `time_axis`, or (`reshape_with_axis`) once, the time
axis folded into that axis."""
from training.nn.cell import Cell
from training.ops import functional as F


def _check_tensor(value):
    if not hasattr(value, "shape") or isinstance(value, (tuple, list)):
        raise TypeError("For 'TimeDistributed', the inputs and outputs must be a Tensor.")


class TimeDistributed(Cell):
    def __init__(self, layer, time_axis, reshape_with_axis=None):
        if not isinstance(layer, Cell) and not callable(layer):
            raise TypeError(f"For 'TimeDistributed', the 'layer' must be Cell or Primitive "
                            f"instance, but got type: {type(layer).__name__}.")
        super().__init__()
        if reshape_with_axis is not None and (not isinstance(reshape_with_axis, int) or
                                              isinstance(reshape_with_axis, bool)):
            raise TypeError(f"For 'TimeDistributed', the type of 'reshape_with_axis' should be "
                            f"'int', but got type '{type(reshape_with_axis).__name__}'.")
        self.layer, self.time_axis = layer, time_axis
        self.reshape_with_axis = reshape_with_axis

    def construct(self, inputs):
        _check_tensor(inputs)
        rank = inputs.ndim
        if rank < 3:
            raise ValueError(f"For 'TimeDistributed', the inputs shape must be at least 3D, but "
                             f"got {rank}.")
        time_axis = self.time_axis % rank
        if self.reshape_with_axis is None:
            steps = []
            for step in F.unstack(inputs, time_axis):
                out = self.layer(step)
                _check_tensor(out)
                if time_axis > out.ndim:
                    raise ValueError(f"For 'TimeDistributed', the value of 'time_axis' must be "
                                     f"in range of [{-out.ndim - 1}, {out.ndim}], but got "
                                     f"{time_axis}.")
                steps.append(out)
            return F.stack(steps, time_axis)
        return self._folded(inputs, time_axis, self.reshape_with_axis % rank)

    def _folded(self, inputs, time_axis, fold_axis):
        """The time axis moved next to `fold_axis` and merged with it; the layer once; the two
        axes split again in the output."""
        rank = inputs.ndim
        beside = rank - 2 if fold_axis == rank - 1 else \
            fold_axis + 1 if time_axis > fold_axis else fold_axis - 1
        merged = min(beside, fold_axis)
        low, high = sorted((beside, time_axis))
        order = tuple(range(rank))
        order = order[:low] + (order[high],) + order[low:high] + order[high + 1:]
        moved = F.transpose(inputs, order)
        shape = tuple(moved.shape)
        folded = F.reshape(moved, shape[:merged] + (-1,) + shape[merged + 2:])
        out = self.layer(folded)
        _check_tensor(out)
        if merged >= out.ndim or folded.shape[merged] != out.shape[merged]:
            raise ValueError(f"For 'TimeDistributed', the 'reshape_with_axis' is invalid in the "
                             f"input and output. The 'reshape_pos' must be less than the length "
                             f"of 'outputs_shape', and the 'inputs_shape[reshape_pos]' must be "
                             f"equal to 'outputs_shape[reshape_pos]', but got 'reshape_pos': "
                             f"{merged}, 'inputs_shape': {tuple(folded.shape)}, 'outputs_shape': "
                             f"{tuple(out.shape)}. You may try pass parameters without "
                             f"'reshape_with_axis'.")
        split = tuple(out.shape[:merged]) + shape[merged:merged + 2] + \
            tuple(out.shape[merged + 1:])
        return F.reshape(out, (-1,) + split[1:])
