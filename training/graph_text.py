"""`set_context(save_graphs=True)`: the network's structure with shapes, as text.

The first step runs with forward hooks on every cell; the file lists each cell (scope name, type,
parameters with shapes) and the shapes it received and produced, in call order. Written to
<save_graphs_path>/<NetworkType>_graph.txt."""
import os


def _shapes(values):
    values = values if isinstance(values, (tuple, list)) else (values,)
    return [tuple(v.shape) if hasattr(v, "shape") else type(v).__name__ for v in values]


class GraphRecorder:
    def __init__(self, network):
        self.network = network
        self.calls = []
        self._handles = []

    def __enter__(self):
        for name, cell in self.network.cells_and_names():
            def hook(c, inputs, output, _name=name or type(cell).__name__):
                self.calls.append((_name, type(c).__name__, _shapes(inputs), _shapes(output)))
            self._handles.append(cell.register_forward_hook(hook))
        return self

    def __exit__(self, *err):
        for handle in self._handles:
            handle.remove()
        return False

    def write(self, directory, tag):
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"{type(self.network).__name__}_{tag}_graph.txt")
        lines = [f"# network: {type(self.network).__name__}", "# parameters:"]
        for name, p in self.network.parameters_and_names():
            lines.append(f"#   {name}: shape={list(p.shape)} dtype={p.dtype} "
                         f"requires_grad={p.requires_grad}")
        lines.append("# calls (scope, type, input shapes -> output shapes), innermost first:")
        for scope, kind, ins, outs in self.calls:
            lines.append(f"{scope} [{kind}] {ins} -> {outs}")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path


def write_torch_graph(module, directory, tag):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{type(module).__name__}_{tag}_graph.txt")
    with open(path, "w") as f:
        f.write(f"# network: {type(module).__name__}\n")
        for name, p in module.named_parameters():
            f.write(f"#   {name}: shape={list(p.shape)} dtype={p.dtype}\n")
        f.write(str(module) + "\n")
    return path
