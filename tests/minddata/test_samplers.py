"""Samplers: ids per epoch, the measured shard split, chaining, validation."""
import numpy as np
import pytest

import minddata as ds
from .engine_helpers import numbers, values


def test_measured_shard_split_without_shuffle():
    got = [values(numbers(10, num_shards=3, shard_id=k)) for k in range(3)]
    assert got == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
    assert numbers(10, num_shards=3, shard_id=1).get_dataset_size() == 4


def test_distributed_sampler_same_split():
    got = [values(numbers(10, sampler=ds.DistributedSampler(3, k, shuffle=False)))
           for k in range(3)]
    assert got == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]


def test_shuffled_shards_are_disjoint_and_cover():
    ds.config.set_seed(3)
    parts = [values(numbers(12, shuffle=True, num_shards=4, shard_id=k)) for k in range(4)]
    flat = sorted(v for p in parts for v in p)
    assert flat == list(range(12)) and parts[0] != [0, 4, 8]


def test_sequential_sampler():
    assert values(numbers(6, sampler=ds.SequentialSampler(2, 3))) == [2, 3, 4]


def test_random_sampler_with_and_without_replacement():
    ds.config.set_seed(1)
    out = values(numbers(8, sampler=ds.RandomSampler()))
    assert sorted(out) == list(range(8))
    out = values(numbers(8, sampler=ds.RandomSampler(replacement=True, num_samples=6)))
    assert len(out) == 6 and set(out) <= set(range(8))


def test_subset_samplers():
    assert values(numbers(6, sampler=ds.SubsetSampler([4, 1, 1]))) == [4, 1, 1]
    out = values(numbers(6, sampler=ds.SubsetRandomSampler([0, 2, 4])))
    assert sorted(out) == [0, 2, 4]
    with pytest.raises(RuntimeError, match=r"Sample ID \(5\) is out of bound"):
        values(numbers(3, sampler=ds.SubsetSampler([5])))


def test_weighted_random_sampler():
    ds.config.set_seed(0)
    out = values(numbers(6, sampler=ds.WeightedRandomSampler([0, 0, 1, 0], num_samples=5)))
    assert out == [2] * 5
    with pytest.raises(ValueError):
        ds.WeightedRandomSampler([0, 0])


def test_pk_sampler_takes_k_per_class(tmp_path):
    for c in range(3):
        (tmp_path / f"c{c}").mkdir()
        for j in range(3):
            (tmp_path / f"c{c}" / f"{j}.jpg").write_bytes(bytes([c, j]))
    d = ds.ImageFolderDataset(str(tmp_path), sampler=ds.PKSampler(2))
    out = [int(r["label"]) for r in d.create_dict_iterator(num_epochs=1, output_numpy=True)]
    assert out == [0, 0, 1, 1, 2, 2]


def test_add_child_chains():
    parent = ds.SequentialSampler(num_samples=2)
    parent.add_child(ds.SubsetSampler([5, 3, 1]))
    assert values(numbers(6, sampler=parent)) == [5, 3]
    with pytest.raises(RuntimeError):
        parent.add_child(ds.SequentialSampler())


def test_num_samples_truncates():
    assert values(numbers(10, num_samples=3)) == [0, 1, 2]
    assert numbers(10, num_samples=3).get_dataset_size() == 3


def test_validation_errors_match_mindspore_types():
    # GeneratorDataset / NumpySlicesDataset raise ValueError here (file sources RuntimeError)
    with pytest.raises(ValueError):
        numbers(4, num_shards=2)                     # shard_id missing
    with pytest.raises(ValueError):
        numbers(4, num_shards=2, shard_id=2)
    with pytest.raises(ValueError):
        ds.NumpySlicesDataset([1, 2], shuffle=True, sampler=ds.SequentialSampler())
    with pytest.raises(ValueError):
        ds.DistributedSampler(2, 5)
    with pytest.raises(TypeError):
        ds.RandomSampler(replacement="no")
    with pytest.raises(ValueError):
        ds.SequentialSampler(num_samples=-1)


def test_list_as_sampler():
    assert values(numbers(5, sampler=[3, 0])) == [3, 0]


def test_user_defined_sampler():
    class EveryOther(ds.Sampler):
        def __iter__(self):
            return iter(range(0, self.dataset_size, 2))

    d = numbers(7, sampler=EveryOther())
    assert values(d) == [0, 2, 4, 6]
    assert d.get_dataset_size() == 4


def test_unseeded_shuffled_shards_still_partition_the_rows():
    # Each rank builds its own pipeline; without set_seed they must agree on the permutation.
    parts = [values(numbers(12, shuffle=True, num_shards=3, shard_id=k)) for k in range(3)]
    assert sorted(v for p in parts for v in p) == list(range(12))


# --- found by tools/samplers_vs_mindspore.py, values measured in MindSpore 2.10 ---------------


def test_get_num_samples_follows_the_child_and_subset_indices():
    assert ds.SubsetSampler([8, 3, 2, 4, 6]).get_num_samples() == 5
    assert ds.SubsetSampler([1, 2, 3], num_samples=9).get_num_samples() == 3
    assert ds.SubsetRandomSampler((0, 0, 0)).get_num_samples() == 3
    parent = ds.RandomSampler()
    parent.add_child(ds.SequentialSampler(num_samples=4))
    assert parent.get_num_samples() == 4
    parent = ds.SequentialSampler(num_samples=6)
    parent.add_child(ds.SubsetSampler([0, 1]))
    assert parent.get_num_samples() == 2
    assert ds.DistributedSampler(2, 0).get_num_samples() is None


def test_subset_sampler_takes_one_int_index():
    assert values(numbers(6, sampler=ds.SubsetSampler(4))) == [4]
    with pytest.raises(TypeError):
        ds.SubsetSampler("01")


def test_num_samples_past_int32_is_taken():
    # MindSpore's bound is INT64_MAX, for the samplers and the sources
    assert ds.SequentialSampler(num_samples=2 ** 31).get_num_samples() == 2 ** 31
    data = ds.NumpySlicesDataset({"a": np.arange(3)}, shuffle=False, num_samples=2 ** 31)
    assert values(data) == [0, 1, 2]
    with pytest.raises(ValueError):
        ds.SequentialSampler(num_samples=2 ** 63)


@pytest.mark.parametrize("make", [
    lambda shuffle: ds.NumpySlicesDataset({"a": np.arange(3)}, shuffle=shuffle),
    lambda shuffle: ds.GeneratorDataset([(1,), (2,)], ["a"], shuffle=shuffle)])
def test_shuffle_of_memory_sources_is_a_bool(make):
    # MindSpore 2.10: TypeError "Argument shuffle with value Shuffle.GLOBAL is not of type
    # [<class 'bool'>] ..." (this package served a shuffle for Shuffle.GLOBAL/ADAPTIVE)
    for shuffle in (ds.Shuffle.GLOBAL, ds.Shuffle.ADAPTIVE, ds.Shuffle.FILES, 1):
        with pytest.raises(TypeError, match="shuffle"):
            make(shuffle)


def test_a_generator_as_sampler_is_refused():
    # it yields its ids once: this package served no row in any epoch while get_dataset_size
    # said 2 (MindSpore 2.10: TypeError "cannot pickle 'generator' object")
    with pytest.raises(TypeError, match="only once"):
        numbers(5, sampler=(i for i in [3, 1]))
    assert values(numbers(5, sampler=ds.SubsetSampler(i for i in [3, 1]))) == [3, 1]


def test_weighted_sampler_without_replacement_caps_num_samples_at_the_rows():
    # MindSpore 2.10: 5 rows for num_samples=8 over 5 rows and 5 weights; a RuntimeError when
    # the rows are more than the weights
    data = numbers(5, sampler=ds.WeightedRandomSampler([1] * 5, 8, replacement=False))
    assert sorted(values(data)) == [0, 1, 2, 3, 4]
    data = numbers(8, sampler=ds.WeightedRandomSampler([1] * 5, 8, replacement=False))
    with pytest.raises(RuntimeError, match="weight size must be greater than or equal"):
        values(data)
    # a row of weight 0 is never served (MindSpore serves it once the others are drawn)
    data = numbers(5, sampler=ds.WeightedRandomSampler([1, 0, 0, 1, 1], 4, replacement=False))
    with pytest.raises(RuntimeError, match="weight 0"):
        values(data)


@pytest.mark.parametrize("level", ["FILES", "INFILE"])
def test_mind_dataset_files_shuffle_refuses_num_samples(tmp_path, level):
    from mindrecord import FileWriter
    path = str(tmp_path / "a.mindrecord")
    writer = FileWriter(path, shard_num=1)
    writer.add_schema({"id": {"type": "int64"}}, "rows")
    writer.write_raw_data([{"id": i} for i in range(3)])
    writer.commit()
    # MindSpore 2.10's ValueError (this package served the rows)
    with pytest.raises(ValueError, match="cannot be specified at the same time"):
        ds.MindDataset(path, shuffle=getattr(ds.Shuffle, level), num_samples=2)
    assert len(values(ds.MindDataset(path, shuffle=getattr(ds.Shuffle, level),
                                      num_samples=0))) == 3


def test_use_sampler_refuses_a_sampler_with_a_child():
    # MindSpore 2.10 gives the new sampler the replaced one's child: a RuntimeError when the
    # new one has a child already (this package served the chain)
    sampler = ds.SequentialSampler(num_samples=3)
    sampler.add_child(ds.SubsetSampler([4, 2, 0, 1]))
    data = numbers(6)
    with pytest.raises(RuntimeError, match="already has a child"):
        data.use_sampler(sampler)
    data.add_sampler(ds.SequentialSampler(num_samples=2))
    assert values(data) == [0, 1]


def test_weighted_sampler_weights_errors_are_mindspores_runtime_errors():
    # MindSpore 2.10 raises these RuntimeErrors when the pipeline is built; here when the
    # sampler is, as errors that are ValueErrors too
    for weights, words in (([], "must not be empty"), ([1, -1], "negative numbers"),
                           ([0, 0.0], "must not be all zero")):
        with pytest.raises(RuntimeError, match=words) as caught:
            ds.WeightedRandomSampler(weights)
        assert isinstance(caught.value, ValueError)
    assert values(numbers(3, sampler=ds.WeightedRandomSampler(2.0, 1))) == [0]


def test_distributed_sampler_checks_types_first_and_takes_shuffle_members():
    # MindSpore 2.10: TypeError for shuffle=1 even where num_shards is out of range
    with pytest.raises(TypeError, match="shuffle"):
        ds.DistributedSampler(-1, 1, shuffle=1)
    split = [values(numbers(5, sampler=ds.DistributedSampler(2, k, shuffle=ds.Shuffle.FALSE)))
             for k in range(2)]
    assert split == [[0, 2, 4], [1, 3, 0]]
    assert ds.DistributedSampler(2, 0, shuffle=ds.Shuffle.GLOBAL).is_shuffled()
    with pytest.raises(RuntimeError, match="not supported"):
        ds.DistributedSampler(2, 0, shuffle=ds.Shuffle.FILES)


def test_mind_dataset_refuses_a_str_sampler_with_a_type_error(tmp_path):
    from mindrecord import FileWriter
    path = str(tmp_path / "a.mindrecord")
    writer = FileWriter(path, shard_num=1)
    writer.add_schema({"id": {"type": "int64"}}, "rows")
    writer.write_raw_data([{"id": 0}])
    writer.commit()
    for sampler in ("012", 2.5):
        with pytest.raises(TypeError, match="Unsupported sampler object"):
            ds.MindDataset(path, sampler=sampler)


def test_manifest_checks_shuffle_type_before_the_sampler_conflict(tmp_path):
    import json
    from PIL import Image
    Image.new("RGB", (2, 2)).save(tmp_path / "a.png")
    manifest = tmp_path / "data.manifest"
    manifest.write_text(json.dumps({"source": str(tmp_path / "a.png"), "usage": "train",
                                    "annotation": [{"type": "label", "name": "x"}]}) + "\n")
    # MindSpore 2.10: the TypeError of shuffle's type (this package: the conflict's
    # RuntimeError)
    with pytest.raises(TypeError, match="shuffle"):
        ds.ManifestDataset(str(manifest), shuffle=ds.Shuffle.FILES,
                           sampler=ds.SequentialSampler())


def test_a_sampler_for_a_generator_without_getitem_is_refused_later_too():
    def rows():
        yield from ((np.array(i),) for i in range(7))
    for method in ("use_sampler", "add_sampler"):
        data = ds.GeneratorDataset(rows, ["a"], num_samples=6)
        # MindSpore 2.10 ignores it (rows 0-5); this package served all 7 rows
        with pytest.raises(ValueError, match="__getitem__"):
            getattr(data, method)(ds.SequentialSampler(2))
        assert values(data) == [0, 1, 2, 3, 4, 5]


def test_pk_sampler_num_val_below_one_is_both_error_types():
    # MindSpore 2.10: RuntimeError "'num_elements' should be greater than 0" when the pipeline
    # is built; here when the sampler is
    for num_val in (0, -1):
        with pytest.raises(RuntimeError, match="greater than 0") as caught:
            ds.PKSampler(num_val)
        assert isinstance(caught.value, ValueError)
