"""Running a conversion on Ray: one task per shard, same files as a local run.

Each task gets the spec (schema, loader) and only its shard's items, writes its shard with
:func:`conversion.write_shard` (the code a local run uses, so chunking and therefore the pages are
identical), and returns the rows written and items skipped. The driver links the shards at the
end. Every task must see the destination directory at the same path (a shared file system when
the cluster has several hosts; the source paths likewise).

``ray.init()`` is called only when Ray is not initialised yet: with ``RAY_ADDRESS`` set it joins
that cluster, otherwise it starts a local instance, which is shut down again afterwards.
"""
import dataclasses
import os


def _remove_partials(path):
    """Remove FileWriter's hidden temporary files for ``path`` (its task may run elsewhere)."""
    from ..writer_files import remove_temp_files
    remove_temp_files([path], only_dead_writers=False)


def _write_shard_task(spec, path, items, skip_bad):
    from .conversion import write_shard
    from .malloc_tuning import retain_freed_memory
    with retain_freed_memory():
        return write_shard(spec, path, items, skip_bad)


def run_shards_on_ray(spec, paths, ranges, skip_bad, progress=None):
    """Write every shard in its own Ray task; returns the ShardOutcomes in shard order."""
    try:
        import ray
    except ImportError:
        raise ImportError("backend='ray' needs the ray package: pip install 'ray[data]'") \
            from None
    started = False
    if not ray.is_initialized():
        # Workers must import this package even when it is not installed: put its root first.
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
        # A local instance listens on loopback only: nothing of it is reachable from elsewhere.
        ray.init(_node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False,
                 configure_logging=False,
                 runtime_env={"env_vars": {"PYTHONPATH": path}})
        started = True
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(_write_shard_task)
        # The spec (schema, loader: possibly a whole Arrow table) is stored once in the object
        # store; each task receives only its own slice of the items.
        light = ray.put(dataclasses.replace(spec, items=[]))
        pending = {task.remote(light, path, spec.items[a:b], skip_bad): (k, b - a)
                   for k, (path, (a, b)) in enumerate(zip(paths, ranges))}
        outcomes = [None] * len(paths)
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                k, count = pending.pop(done[0])
                outcomes[k] = ray.get(done[0])           # re-raises the task's exception
                if progress is not None:
                    progress(count)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            # A task killed mid-write cannot remove its own temporary file: wait until the
            # cancelled tasks are gone, then remove what they left.
            if pending:
                ray.wait(list(pending), num_returns=len(pending), timeout=60)
            for path in paths:
                _remove_partials(path)
            raise
        return outcomes
    finally:
        if started:
            ray.shutdown()
