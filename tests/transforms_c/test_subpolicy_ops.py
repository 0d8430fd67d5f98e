"""UniformAugment and RandomSelectSubpolicy: their validation and words, which ops run and in
what order, with what probability (measured in MindSpore 2.10), their inputs, and pipelines and
serialization of these and AutoAugment / TrivialAugmentWide."""
import collections
import hashlib
import json

import numpy as np
import pytest
from PIL import Image

import minddata as ds
import minddata.vision as MV
from transforms_c.enums import AutoAugmentPolicy, Inter
from transforms_c.vision import (AutoAugment, AutoContrast, Equalize, HorizontalFlip, Invert,
                                 RandAugment, RandomHorizontalFlip, RandomSelectSubpolicy,
                                 Resize, TrivialAugmentWide, UniformAugment)

IMG = np.random.RandomState(7).randint(0, 256, (6, 8, 3)).astype(np.uint8)
THREE = np.full((2, 2, 3), 3, np.uint8)


def digest(img):
    return hashlib.sha256(np.ascontiguousarray(img).tobytes()).hexdigest()[:12]


def tally(op, seeds):
    return collections.Counter(int(op.apply((THREE,), s)[0][0, 0, 0]) for s in range(seeds))


def test_uniform_augment_runs_distinct_ops_in_list_order_each_half_the_time():
    # measured in MindSpore 2.10 (3000 calls): 3 -> 742, x2 -> 489, +1 -> 511, +50 -> 506,
    # x2 then +1 (7) -> 263, +1 then +50 -> 236, x2 then +50 -> 253; never (3 + 1) * 2 = 8
    op = UniformAugment([lambda x: x * 2, lambda x: x + 1, lambda x: x + 50], 2)
    counts = tally(op, 3000)
    assert set(counts) == {3, 6, 4, 53, 7, 54, 56}
    assert abs(counts[3] / 3000 - 1 / 4) < 0.03
    for single in (6, 4, 53):
        assert abs(counts[single] / 3000 - 1 / 6) < 0.03
    for pair in (7, 54, 56):
        assert abs(counts[pair] / 3000 - 1 / 12) < 0.025
    assert MV.UniformAugment is UniformAugment and op.is_random


@pytest.mark.parametrize("make, error, words", [
    # measured in MindSpore 2.10 (its words, in its order: num_ops first)
    (lambda: UniformAugment([Invert(), HorizontalFlip()], 0), ValueError,
     "Input num_ops must be greater than 0."),
    (lambda: UniformAugment([Invert(), HorizontalFlip()], -1), ValueError,
     "Input num_ops must be greater than 0."),
    (lambda: UniformAugment([Invert(), HorizontalFlip()], 3), ValueError,
     "num_ops is greater than transforms list size."),
    (lambda: UniformAugment([Invert()]), ValueError,
     "num_ops is greater than transforms list size."),
    (lambda: UniformAugment([], 2), ValueError, "num_ops is greater than transforms list size."),
    (lambda: UniformAugment([Invert()], 1.0), TypeError,
     "Argument num_ops with value 1.0 is not of type [<class 'int'>]"),
    (lambda: UniformAugment([Invert()], True), TypeError, "is not of type (<class 'int'>,)"),
    (lambda: UniformAugment([Invert(), 3], 1), TypeError,
     "transforms[1] is neither a transforms op (TensorOperation) nor a callable pyfunc."),
    (lambda: UniformAugment([Invert(), Invert], 1), ValueError,
     "op_list[1] should be a dataset processing operation instance"),
    (lambda: UniformAugment(Invert(), 1), TypeError, "transforms"),   # MindSpore: no len()
    (lambda: UniformAugment(), TypeError, "missing a required argument: 'transforms'"),
    (lambda: RandomSelectSubpolicy([]), ValueError, "policy can not be empty."),
    (lambda: RandomSelectSubpolicy(((Invert(), 1.0),)), TypeError,
     "Argument policy with value ((Invert(), 1.0),) is not of type [<class 'list'>]"),
    (lambda: RandomSelectSubpolicy([((Invert(), 1.0),)]), TypeError,
     "is not of type [<class 'list'>], but got <class 'tuple'>."),
    (lambda: RandomSelectSubpolicy([[(Invert(), 1.0)], []]), ValueError,
     "policy[1] can not be empty."),
    (lambda: RandomSelectSubpolicy([[[Invert(), 1.0]]]), ValueError,
     "Value policy[0][0] needs to be a 2-tuple."),
    (lambda: RandomSelectSubpolicy([[(Invert(), 1.0, 2)]]), ValueError,
     "Value policy[0][0] needs to be a 2-tuple."),
    (lambda: RandomSelectSubpolicy([[(Invert(), 1.5)]]), ValueError,
     "Input prob of (op, prob) policy[0][0] is not within the required interval of [0, 1]."),
    (lambda: RandomSelectSubpolicy([[(Invert(), -0.1)]]), ValueError,
     "Input prob of (op, prob) policy[0][0] is not within the required interval of [0, 1]."),
    (lambda: RandomSelectSubpolicy([[(Invert(), "a")]]), TypeError, "prob of (op, prob)"),
    (lambda: RandomSelectSubpolicy([[(Invert(), 1.0)], [(3, 1.0)]]), TypeError,
     "op of (op, prob) in policy[1][0] is neither a transforms op (TensorOperation) nor a "
     "callable pyfunc."),
    (lambda: RandomSelectSubpolicy([[(None, 1.0)]]), TypeError,
     "op of (op, prob) in policy[0][0] is neither a transforms op"),
    # MindSpore 2.10 takes a class here and fails when it runs: refused at once
    (lambda: RandomSelectSubpolicy([[(Invert, 1.0)]]), ValueError, "missing parentheses"),
    (lambda: RandomSelectSubpolicy(), TypeError, "missing a required argument: 'policy'"),
])
def test_argument_errors(make, error, words):
    with pytest.raises(error) as info:
        make()
    assert words in str(info.value)


def test_uniform_augment_takes_what_a_compound_op_takes():
    # measured in MindSpore 2.10: a PIL image goes to the ops as it is (Resize gives a PIL
    # image back), a tuple of ops is taken, and a list is taken as an array
    out = UniformAugment([Resize(3)], 1)
    results = {type(out(Image.fromarray(IMG))).__name__ for _ in range(20)}
    assert results == {"Image"}
    assert UniformAugment((Invert(), HorizontalFlip()), 2)(IMG).shape == IMG.shape
    given = [UniformAugment([lambda x: x + 1], 1)([1, 2]) for _ in range(20)]
    assert all(isinstance(a, np.ndarray) for a in given)
    assert {tuple(a.tolist()) for a in given} == {(1, 2), (2, 3)}


def test_random_select_subpolicy_runs_a_sub_policys_ops_in_order():
    # measured in MindSpore 2.10: RandomSelectSubpolicy([[(Equalize(), 1.0), (Invert(), 1.0)]])
    # on IMG gives 21906a99b670, the other order e813420dc487
    assert digest(RandomSelectSubpolicy([[(Equalize(), 1.0), (Invert(), 1.0)]])(IMG)) == \
        "21906a99b670"
    assert digest(RandomSelectSubpolicy([[(Invert(), 1), (Equalize(), 1.0)]])(IMG)) == \
        "e813420dc487"
    op = RandomSelectSubpolicy([[(lambda x: x * 2, 1.0), (lambda x: x + 1, 1.0)]])
    assert op(THREE).tolist() == (THREE * 2 + 1).tolist()


def test_random_select_subpolicy_probabilities():
    # measured in MindSpore 2.10 (4000 calls): 3 -> 1405, 4 -> 989, 7 -> 1029, 103 -> 577
    op = RandomSelectSubpolicy([[(lambda x: x * 2, 0.5), (lambda x: x + 1, 1.0)],
                                [(lambda x: x + 100, 0.3)]])
    counts = tally(op, 4000)
    assert set(counts) == {3, 4, 7, 103}
    for value, share in ((3, 0.35), (4, 0.25), (7, 0.25), (103, 0.15)):
        assert abs(counts[value] / 4000 - share) < 0.03, value


def test_member_ops_draw_their_own_randomness():
    for op in (RandomSelectSubpolicy([[(RandomHorizontalFlip(0.5), 1.0)]]),
               UniformAugment([RandomHorizontalFlip(0.5), RandomHorizontalFlip(0.5)], 2)):
        flips = {op.apply((IMG,), s)[0][0, 0].tobytes() for s in range(40)}
        assert len(flips) == 2
        assert np.array_equal(op.apply((IMG,), 5)[0], op.apply((IMG,), 5)[0])


def test_random_select_subpolicy_is_an_image_op():
    # measured in MindSpore 2.10: a PIL image becomes its array, a list is refused
    out = RandomSelectSubpolicy([[(Invert(), 1.0)]])(Image.fromarray(IMG))
    assert isinstance(out, np.ndarray) and out.tolist() == (255 - IMG).tolist()
    with pytest.raises(TypeError, match="Input should be NumPy or PIL image"):
        RandomSelectSubpolicy([[(HorizontalFlip(), 1.0)]])([1, 2])
    assert RandomSelectSubpolicy([[(HorizontalFlip(), 1.0)]])(IMG[:, :, 0]).shape == (6, 8)


def test_pipeline_and_serialize_round_trip(tmp_path):
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps({"datasetType": "TF", "numRows": 6, "columns": {
        "image": {"type": "uint8", "rank": 3, "shape": [8, 8, 3]}}}))
    ds.config.set_seed(3)
    operations = [
        AutoAugment(AutoAugmentPolicy.SVHN, Inter.BILINEAR, (1, 2, 3)), TrivialAugmentWide(7),
        UniformAugment([Invert(), RandAugment()], 1),
        RandomSelectSubpolicy([[(Invert(), 0.5), (Equalize(), 1.0)], [(AutoContrast(), 0.3)]])]
    data = ds.RandomDataset(schema=str(schema), total_rows=6).map(operations=operations,
                                                                  input_columns=["image"])
    tree = ds.serialize(data)
    rebuilt = ds.deserialize(input_dict=json.loads(json.dumps(tree)))
    assert ds.serialize(rebuilt) == tree
    rows = [r["image"] for r in data.create_dict_iterator(output_numpy=True)]
    again = [r["image"] for r in rebuilt.create_dict_iterator(output_numpy=True)]
    assert len(rows) == 6 and all(r.shape == (8, 8, 3) and r.dtype == np.uint8 for r in rows)
    assert all(np.array_equal(a, b) for a, b in zip(rows, again))


@pytest.mark.parametrize("prob, kind", [("0.1", "str"), ([0.5, 0.6], "list"), (None, "NoneType")])
def test_prob_of_wrong_type_carries_mindspore_words(prob, kind):
    # MindSpore 2.10 fails on its range comparison: "'<' not supported between instances of
    # 'str' and 'int'" (measured); its suite matches those words.
    with pytest.raises(TypeError) as error:
        RandomSelectSubpolicy([[(Invert(), prob)]])
    assert f"not supported between instances of '{kind}' and 'int'" in str(error.value)
    assert "prob of (op, prob) policy[0][0]" in str(error.value)
