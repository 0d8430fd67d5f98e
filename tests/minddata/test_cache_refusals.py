"""Caching the output of a random operation is refused, naming the operation."""
import pytest

from minddata.cache import DatasetCache, assert_cacheable


class Deterministic:
    is_random = False

    def __call__(self, x):
        return x


class RandomHorizontalFlip:
    is_random = True

    def __call__(self, x):
        return x


class Compose:
    is_random = False

    def __init__(self, transforms):
        self.transforms = transforms


def test_deterministic_operations_are_cacheable():
    assert_cacheable([Deterministic(), Deterministic(), lambda x: x])
    assert_cacheable(Deterministic())


def test_a_random_operation_is_refused_by_name():
    with pytest.raises(RuntimeError, match="RandomHorizontalFlip"):
        assert_cacheable([Deterministic(), RandomHorizontalFlip()])


def test_a_random_operation_inside_compose_is_refused():
    with pytest.raises(RuntimeError, match="RandomHorizontalFlip"):
        assert_cacheable([Compose([Deterministic(), RandomHorizontalFlip()])])


def test_is_random_may_be_a_method():
    class Plan:
        def is_random(self):
            return True
    with pytest.raises(RuntimeError, match="Plan"):
        assert_cacheable([Plan()])


def test_dataset_cache_offers_the_check():
    with pytest.raises(RuntimeError, match="random operation"):
        DatasetCache(1).check_cacheable([RandomHorizontalFlip()])
    DatasetCache(1).check_cacheable([Deterministic()])
