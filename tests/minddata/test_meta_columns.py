"""Columns named "_meta-..." go through the pipeline but the iterators leave them out, as
MindSpore 2.10's do."""
import numpy as np

import minddata as ds


def test_meta_columns_travel_but_are_not_handed_out():
    # MindSpore 2.10: iterators leave out columns named "_meta-..."; get_col_names lists them.
    def rows_with_names():
        for i in range(3):
            yield np.array(i), np.array(f"f{i}")
    data = ds.GeneratorDataset(rows_with_names, ["x", "_meta-name"], shuffle=False)
    assert data.get_col_names() == ["x", "_meta-name"]
    assert list(next(data.create_dict_iterator(output_numpy=True, num_epochs=1))) == ["x"]
    assert len(next(data.create_tuple_iterator(output_numpy=True, num_epochs=1))) == 1
    mapped = data.map(lambda x, m: (x + 1, m), input_columns=["x", "_meta-name"])
    assert [int(r["x"]) for r in mapped.create_dict_iterator(output_numpy=True,
                                                             num_epochs=1)] == [1, 2, 3]
    named = data.create_tuple_iterator(columns=["_meta-name"], output_numpy=True, num_epochs=1)
    assert str(next(named)[0]) == "f0"

