"""Time each operation of every map stage alone, on a few sample rows, in one thread.

The engine may fuse a run of native ops into one plan, so stage statistics cannot split a map's
time between its ops; running each op eagerly (``op(*arrays)``) on sample rows can. The figures
are per row on one core, so they show the relative cost of the ops, not the pipeline's rate.
"""
import itertools
import time

SAMPLE_ROWS = 8


def walk_graph(ds):
    """``ds`` and every dataset node it reads from (its children, recursively), ``ds`` first."""
    yield ds
    for child in getattr(ds, "children", []):
        yield from walk_graph(child)


def _op_name(op):
    return getattr(op, "__name__", None) or type(op).__name__


def _as_tuple(out):
    return out if isinstance(out, tuple) else (out,)


def time_map_ops(dataset, sample_rows=SAMPLE_ROWS):
    """[{"stage", "op", "ms_per_row", "share"}] for every map stage (source side first)."""
    maps = [d for d in walk_graph(dataset) if hasattr(d, "operations") and hasattr(d, "in_cols")]
    results = []
    for position, node in enumerate(reversed(maps)):
        child = node.children[0]
        columns = list(child.get_col_names())
        picks = [columns.index(c) for c in node.in_cols]
        iterator = child.create_tuple_iterator(num_epochs=1, output_numpy=True)
        try:
            rows = [tuple(row[i] for i in picks)
                    for row in itertools.islice(iterator, sample_rows)]
        finally:
            getattr(iterator, "close", lambda: None)()
        if not rows:
            continue
        spent = [0.0] * len(node.operations)
        for arrays in rows:
            for k, op in enumerate(node.operations):
                t0 = time.perf_counter()
                arrays = _as_tuple(op(*arrays))
                spent[k] += time.perf_counter() - t0
        total = sum(spent) or 1e-12
        stage = f"Map#{position}"
        for op, s in zip(node.operations, spent):
            results.append({"stage": stage, "op": _op_name(op),
                            "ms_per_row": round(1000.0 * s / len(rows), 4),
                            "share": round(s / total, 4)})
    return results
