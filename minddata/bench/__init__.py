"""Throughput benchmarking and profiling of minddata pipelines.

``minddata-bench`` (:mod:`minddata.bench.cli`) runs a standard or user-described pipeline and
reports rows/s, MB/s, per-stage and per-op time, queue occupancy, the inferred bottleneck and
CPU use per worker. ``Dataset.profile()`` / :func:`profile_dataset` give the same report for a
user's own pipeline.
"""
from .profile import profile, profile_dataset
from .report import ProfileReport

__all__ = ["profile", "profile_dataset", "ProfileReport"]
