"""Base class of the converters: MindSpore's ``transform()``/``run()`` over the conversion engine.

A converter validates its arguments in ``__init__`` (so a wrong argument fails at the line that
wrote it), describes its outputs as :class:`ConversionSpec` objects in ``_build_specs`` (listing
the source happens there, once), and ``transform`` runs them. Options beyond MindSpore's
signatures are keyword-only and default to MindSpore's behaviour.
"""
from . import shard_set
from .conversion import ConversionResult, check_destination, remove_dataset, run_conversion


class Converter:
    _specs = None
    skip_bad = False     # known while listing: some sources find bad input there (CSV, TFRecord)

    def _build_specs(self):
        """List of ConversionSpec, one per output dataset."""
        raise NotImplementedError

    def prepare(self):
        """Enumerate and validate the source (once); returns the output specs."""
        if self._specs is None:
            self._specs = self._build_specs()
        return self._specs

    def total_items(self):
        return sum(len(spec.items) for spec in self.prepare())

    def _run(self, workers=None, skip_bad=False, overwrite=False, report_file=None,
             progress=None, backend="local", storage_options=None):
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be a callable told of the number of items done, or "
                            f"None, but got {type(progress).__name__}.")
        if bool(skip_bad) != self.skip_bad:
            self.skip_bad, self._specs = bool(skip_bad), None
        specs = self.prepare()
        # Check every output before writing any, so a refused one leaves nothing half-done.
        for spec in specs:
            check_destination(shard_set.shard_paths(spec.destination, spec.num_shards),
                              overwrite, storage_options)
        result, done = ConversionResult(), []
        try:
            for spec in specs:
                report = report_file if report_file is None or len(specs) == 1 \
                    else f"{report_file}.{len(done)}"
                result = result.merged(run_conversion(
                    spec, workers=workers, skip_bad=skip_bad, overwrite=True,
                    report_file=report, progress=progress, backend=backend,
                    storage_options=storage_options))
                done.append(spec)
        except BaseException:
            for spec in done:
                remove_dataset(spec.destination, spec.num_shards, storage_options)
            raise
        return result

    def transform(self, *, workers=None, skip_bad=False, overwrite=False, report_file=None,
                  progress=None, backend="local", storage_options=None):
        """Convert; returns a ConversionResult (rows, skipped, files, bytes, seconds).

        Keyword-only extensions: ``workers`` (threads; default all cores), ``skip_bad`` (leave bad
        items out and list them in ``report_file``, default ``<destination>.skipped.txt``),
        ``overwrite`` (replace existing files), ``progress`` (callable told of items done),
        ``backend`` ("local" or "ray": one Ray task per shard), ``storage_options`` (fsspec
        options when the destination is a URL such as s3://bucket/dir/train.mindrecord: the
        set is converted in a local staging directory, then uploaded with shard 0 last, so it
        appears complete or not at all; the usual AWS variables work without them).
        """
        return self._run(workers=workers, skip_bad=skip_bad, overwrite=overwrite,
                         report_file=report_file, progress=progress, backend=backend,
                         storage_options=storage_options)

    def run(self, *args, **kwargs):
        """MindSpore's other name for :meth:`transform`."""
        return self.transform(*args, **kwargs)
