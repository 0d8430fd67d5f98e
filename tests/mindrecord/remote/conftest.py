"""Fixtures for reading MindRecord sets from object storage (issue 21): a local S3 store
(moto's server in a child process, tools/loopback_s3.py), fresh buckets in it, and the
environment that points s3fs and boto3 at it.

s3_store   session: the running loopback_s3.LoopbackS3 (tests skip without moto / s3fs / boto3)
bucket     function: the name of a new, empty, uniquely named bucket in s3_store
s3_env     function: os.environ (monkeypatched) points clients at s3_store; returns those vars
faulty_proxy  function: a loopback_s3.FaultyProxy in front of s3_store (no faults at start)
proxy_env  function: like s3_env, but pointing at faulty_proxy
"""
import os
import sys
import uuid

import pytest

_TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools")
if os.path.abspath(_TOOLS) not in map(os.path.abspath, sys.path):
    sys.path.insert(0, os.path.abspath(_TOOLS))

import loopback_s3  # noqa: E402  (tools/, put on sys.path above)

# Variables of a developer's own AWS set-up that would take precedence or get in the way.
_FOREIGN_AWS_VARS = ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN",
                     "AWS_SECURITY_TOKEN", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
                     "AWS_REGION", "AWS_ENDPOINT_URL_S3", "AWS_CA_BUNDLE")


def clear_fs_caches():
    """Drop cached fsspec file systems, so the next one reads the current environment (a new
    AWS_ENDPOINT_URL); s3fs's class keeps its own cache beside fsspec's base class."""
    import fsspec
    fsspec.AbstractFileSystem.clear_instance_cache()
    try:
        import s3fs
    except ImportError:
        return
    s3fs.S3FileSystem.clear_instance_cache()


def point_env_at(monkeypatch, env):
    for name in _FOREIGN_AWS_VARS:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    clear_fs_caches()


@pytest.fixture(scope="session")
def s3_store():
    pytest.importorskip("moto")
    pytest.importorskip("moto.moto_server.threaded_moto_server",
                        reason="moto's server needs its extra: pip install 'moto[server]'")
    pytest.importorskip("boto3")
    pytest.importorskip("s3fs")
    with loopback_s3.LoopbackS3() as store:
        yield store


@pytest.fixture
def bucket(s3_store):
    return s3_store.create_bucket(f"test-{uuid.uuid4().hex[:16]}")


@pytest.fixture
def s3_env(s3_store, monkeypatch):
    env = s3_store.env()
    point_env_at(monkeypatch, env)
    yield env
    clear_fs_caches()   # no file system bound to this endpoint outlives the test


@pytest.fixture
def faulty_proxy(s3_store):
    """A loopback_s3.FaultyProxy in front of s3_store (failure_rate 0, seed 0); stopped after
    the test."""
    with loopback_s3.FaultyProxy(s3_store.endpoint, seed=0) as proxy:
        yield proxy


@pytest.fixture
def proxy_env(faulty_proxy, monkeypatch):
    """os.environ (monkeypatched) points clients at faulty_proxy; returns those vars."""
    env = faulty_proxy.env()
    point_env_at(monkeypatch, env)
    yield env
    clear_fs_caches()
