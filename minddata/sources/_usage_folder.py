"""The public class of a dataset folder selected by ``usage`` (MnistDataset, Cifar10Dataset,
Cifar100Dataset): MindSpore's one signature for them, its checks, and the hand-over to the core."""
from ._source_base import SourceDataset
from ._validation import check_dir, check_mappable_shuffle, check_sampling_args, check_usage

USAGES = ["train", "test", "all"]


class UsageFolderDataset(SourceDataset):
    """Subclasses give ``_make_source_factory(dataset_dir, usage)`` (a picklable zero-argument
    callable opening their RowSource) and ``_output_columns()``."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        dataset_dir = check_dir(dataset_dir)
        usage = check_usage(usage, USAGES)
        check_mappable_shuffle(shuffle)
        check_sampling_args(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.dataset_dir, self.usage = dataset_dir, usage
        super().__init__(self._make_source_factory(dataset_dir, usage),
                         num_samples=num_samples, shuffle=shuffle, num_shards=num_shards,
                         shard_id=shard_id, sampler=sampler,
                         num_parallel_workers=num_parallel_workers, cache=cache,
                         column_names=self._output_columns())

    def row_count(self):
        # From the files' sizes or headers, so get_dataset_size() returns at once (as
        # MindSpore's does) instead of loading every record; opening the source decides when
        # the files cannot be counted that way, and reports what is wrong with them.
        n = self._count_rows()
        return super().row_count() if n is None else self.count_ids(n)

    def _count_rows(self):
        """Rows of the selected files without reading their data, or None."""
        return None

    def _make_source_factory(self, dataset_dir, usage):
        raise NotImplementedError(f"{type(self).__name__} must implement _make_source_factory")

    def _output_columns(self):
        raise NotImplementedError(f"{type(self).__name__} must implement _output_columns")
