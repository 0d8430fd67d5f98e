"""SequentialCell and CellList."""
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
