"""A local S3-compatible store for tests and benchmarks of reading MindRecord sets from object
storage (issue 21).

    sys.path.insert(0, "<repo>/tools"); import loopback_s3
    with loopback_s3.LoopbackS3() as s3:
        s3.create_bucket("train-data")
        s3.upload_files(["/data/a.mindrecord", "/data/a.mindrecord.db"], "train-data", "set1")
        os.environ.update(s3.env())      # s3fs / boto3 now talk to it (AWS_ENDPOINT_URL)

LoopbackS3 runs moto's server in a child process (so that the store's CPU time is not counted
as the client's, as with a real store) on 127.0.0.1 and a free port. The child also exits by
itself when its parent goes away (it waits on its stdin, which closes then).

This module imports nothing of the repository; moto (with its server extra), boto3 are imported
only where needed.
"""
import atexit
import http.client
import os
import selectors
import subprocess
import sys
import tempfile
import threading
import time

REGION = "us-east-1"
ACCESS_KEY = "testing"
SECRET_KEY = "testing"

# The child: moto's threaded server on 127.0.0.1 and a port the kernel picks (no race for a
# free port), which it prints once it listens; it stops when its stdin closes (stop(), or the
# parent dying).
_CHILD = r"""
import logging, os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's; it stops us
logging.getLogger("werkzeug").setLevel(logging.ERROR)
from moto.moto_server.threaded_moto_server import ThreadedMotoServer
server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
sys.stdout.write("PORT %d\n" % server.get_host_and_port()[1])
sys.stdout.flush()
sys.stdin.read()
os._exit(0)   # nothing to flush or save: the store lives in memory
"""

_LIVE = set()   # started stores and proxies, stopped at exit if their owner did not


def _stop_all():
    for thing in list(_LIVE):
        try:
            thing.stop()
        except Exception:  # noqa: BLE001 - best effort at exit
            pass


atexit.register(_stop_all)


def _env(endpoint):
    return {
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCESS_KEY_ID": ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_EC2_METADATA_DISABLED": "true",   # never wait for an instance-metadata service
    }


def _client(endpoint, **kwargs):
    import boto3
    options = dict(endpoint_url=endpoint, aws_access_key_id=ACCESS_KEY,
                   aws_secret_access_key=SECRET_KEY, region_name=REGION)
    options.update(kwargs)
    return boto3.client("s3", **options)


class LoopbackS3:
    """moto's S3 server in a child process. Context manager (or start()/stop()).

    endpoint: "http://127.0.0.1:PORT"; env(): the variables that point clients at it;
    client(): a boto3 S3 client bound to it; create_bucket(name); upload_files(paths, bucket,
    prefix=""); process: the child's Popen (None before start / after stop).
    """

    def __init__(self, start_timeout=30.0):
        self.start_timeout = start_timeout
        self.process = None
        self.port = None
        self._log = None
        self._client = None
        self._lock = threading.Lock()

    # -- life cycle --------------------------------------------------------------------------

    def start(self):
        with self._lock:
            if self.process is not None:
                return self
            self._log = tempfile.TemporaryFile(prefix="loopback_s3-")
            env = dict(os.environ)
            env.setdefault("PYTHONUNBUFFERED", "1")
            self.process = subprocess.Popen(
                [sys.executable, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._log, env=env, close_fds=True)
            _LIVE.add(self)
        try:
            self.port = self._read_port(time.monotonic() + self.start_timeout)
            self._wait_answering(time.monotonic() + self.start_timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _child_output(self):
        try:
            self._log.seek(0)
            return self._log.read().decode("utf-8", "replace")[-4000:]
        except (OSError, ValueError):
            return ""

    def _fail(self, why):
        return RuntimeError(f"LoopbackS3: the moto server did not start ({why}). Is moto with its "
                            f"server extra installed (pip install 'moto[server]')? Its output:\n"
                            f"{self._child_output()}")

    def _read_port(self, deadline):
        out = self.process.stdout
        line = b""
        with selectors.DefaultSelector() as sel:
            sel.register(out, selectors.EVENT_READ)
            while not line.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._fail(f"no port after {self.start_timeout:.0f} s")
                if sel.select(min(left, 0.2)):
                    chunk = os.read(out.fileno(), 1)
                    if not chunk:
                        self.process.wait(timeout=5)
                        raise self._fail(f"child exited with status {self.process.returncode}")
                    line += chunk
        if not line.startswith(b"PORT "):
            raise self._fail(f"unexpected first line {line!r}")
        return int(line.split()[1])

    def _wait_answering(self, deadline):
        while True:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            try:
                conn.request("GET", "/")
                conn.getresponse().read()
                return
            except OSError as exc:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise self._fail(f"it does not answer at {self.endpoint}: {exc}") from exc
                time.sleep(0.05)
            finally:
                conn.close()

    def stop(self):
        """Stops and reaps the child (closing its stdin asks it to stop; then SIGTERM, SIGKILL).
        Idempotent."""
        with self._lock:
            proc, self.process = self.process, None
            self._client = None
            _LIVE.discard(self)
            if proc is None:
                return
            for pipe in (proc.stdin, proc.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.terminate()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            if self._log is not None:
                self._log.close()
                self._log = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @property
    def running(self):
        return self.process is not None and self.process.poll() is None

    # -- clients -----------------------------------------------------------------------------

    @property
    def endpoint(self):
        if self.port is None:
            raise RuntimeError("LoopbackS3 is not started")
        return f"http://127.0.0.1:{self.port}"

    def env(self):
        """Environment variables pointing S3 clients (botocore, s3fs) at this store."""
        return _env(self.endpoint)

    def client(self, **kwargs):
        """A new boto3 S3 client bound to the store (kwargs override boto3.client's)."""
        return _client(self.endpoint, **kwargs)

    def _shared_client(self):
        if self._client is None:
            self._client = self.client()
        return self._client

    def create_bucket(self, name):
        """Creates the bucket (moto wants names of 3 to 63 characters); returns its name."""
        self._shared_client().create_bucket(Bucket=name)
        return name

    def upload_files(self, local_paths, bucket, prefix=""):
        """Uploads each file as prefix/<its basename>; returns their s3:// URLs in order."""
        if isinstance(local_paths, (str, os.PathLike)):
            local_paths = [local_paths]
        prefix = prefix.strip("/")
        urls = []
        for path in local_paths:
            key = os.path.basename(os.fspath(path))
            if prefix:
                key = f"{prefix}/{key}"
            self._shared_client().upload_file(os.fspath(path), bucket, key)
            urls.append(f"s3://{bucket}/{key}")
        return urls

    def put_bytes(self, bucket, key, data):
        """Writes one object; returns its s3:// URL."""
        self._shared_client().put_object(Bucket=bucket, Key=key, Body=data)
        return f"s3://{bucket}/{key}"
