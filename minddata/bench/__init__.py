"""Throughput benchmarking and profiling of minddata pipelines.

``minddata-bench`` (:mod:`minddata.bench.cli`) runs a standard or user-described pipeline and
reports rows/s, MB/s, per-stage and per-op time, queue occupancy, the inferred bottleneck and
CPU use per worker. ``Dataset.profile()`` / :func:`profile_dataset` give the same report for a
user's own pipeline.
"""
# The submodule ``profile`` stays reachable as ``minddata.bench.profile`` (Dataset.profile
# calls ``minddata.bench.profile.profile``), so the function is exported as profile_dataset only.
from .profile import profile_dataset
from .report import ProfileReport

__all__ = ["profile_dataset", "ProfileReport"]
