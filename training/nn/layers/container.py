"""SequentialCell, CellList and CellDict."""
from training.nn.cell import Cell


class SequentialCell(Cell):
    def __init__(self, *args):
        super().__init__()
        cells = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple, dict)) else args
        items = cells.items() if isinstance(cells, dict) else ((str(i), c) for i, c in enumerate(cells))
        for name, cell in items:
            if not isinstance(cell, Cell):
                raise TypeError(f"For 'SequentialCell', every element must be a Cell, but got "
                                f"{type(cell).__name__}")
            self.insert_child_to_cell(name, cell)

    def __getitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return SequentialCell(cells[index])
        return cells[index]

    def __len__(self):
        return len(self._cells)

    def append(self, cell):
        self.insert_child_to_cell(str(len(self._cells)), cell)

    def construct(self, x):
        for cell in self._cells.values():
            x = cell(x)
        return x


class CellList(Cell):
    def __init__(self, args=None):
        super().__init__()
        for cell in args or []:
            self.append(cell)

    def append(self, cell):
        self.insert_child_to_cell(str(len(self._cells)), cell)

    def __getitem__(self, index):
        return list(self._cells.values())[index]

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())


class CellDict(Cell):
    """Cells by name, in insertion order (a dict of them: MindSpore's CellDict); their
    parameters are named <name>.<parameter>. No construct: the network calls the cells."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        if args:
            self.update(args[0])

    def _check(self, key, cell):
        if not isinstance(key, str):
            raise TypeError(f"For 'CellDict', the type of key should be string but got "
                            f"{type(key).__name__}.")
        if not isinstance(cell, Cell):
            raise TypeError(f"For 'CellDict', the type of cell should be Cell, but got "
                            f"{type(cell).__name__}.")

    def __getitem__(self, key):
        return self._cells[key]

    def __setitem__(self, key, cell):
        self._check(key, cell)
        self.insert_child_to_cell(key, cell)

    def __delitem__(self, key):
        del self._cells[key]

    def __contains__(self, key):
        return key in self._cells

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def keys(self):
        return self._cells.keys()

    def values(self):
        return self._cells.values()

    def items(self):
        return self._cells.items()

    def pop(self, key):
        cell = self[key]
        del self[key]
        return cell

    def clear(self):
        self._cells.clear()

    def update(self, cells):
        """Adds (or replaces) the cells of a dict or of (name, cell) pairs, in their order."""
        for key, cell in (cells.items() if isinstance(cells, dict) else cells):
            self[key] = cell

    def construct(self, *inputs):
        raise NotImplementedError("For 'CellDict', the cells are called by the network, not by "
                                  "the CellDict")
