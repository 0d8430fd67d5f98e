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

FaultyProxy is a reverse proxy in front of such a store (or any HTTP endpoint) that counts the
requests by kind and injects faults: 500 InternalError, 503 SlowDown, dropped connections,
truncated bodies, 403 AccessDenied under chosen key prefixes.

    with loopback_s3.FaultyProxy(s3.endpoint, seed=1) as proxy:
        os.environ.update(proxy.env())
        proxy.failure_rate = 0.2; proxy.fault_kinds = ("503", "truncate")
        ...; proxy.counts()["GET_range"]

This module imports nothing of the repository; moto (with its server extra) and boto3 are
imported only where needed.
"""
import atexit
import collections
import http.client
import http.server
import os
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

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


# -- the fault-injecting proxy ---------------------------------------------------------------

FAULT_KINDS = ("500", "503", "drop", "truncate")

# Query parameters of ListObjects(V2) (a GET on a bucket with none of them is a ListObjects too).
_LIST_PARAMS = frozenset(("list-type", "prefix", "delimiter", "marker", "continuation-token",
                          "max-keys", "start-after", "encoding-type", "fetch-owner",
                          "versions", "key-marker", "version-id-marker"))
# Headers that concern one connection, not the request (RFC 9110 7.6.1), and Expect (this proxy
# answers 100-continue itself).
_HOP_BY_HOP = frozenset(("connection", "keep-alive", "proxy-authenticate", "proxy-authorization",
                         "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
                         "expect"))
_S3_ERRORS = {
    "500": (500, "InternalError", "We encountered an internal error. Please try again."),
    "503": (503, "SlowDown", "Please reduce your request rate."),
    "denied": (403, "AccessDenied", "Access Denied"),
}
_CHUNK = 64 * 1024

LogEntry = collections.namedtuple("LogEntry", "method path range outcome")
LogEntry.__doc__ = """One request through a FaultyProxy. path: the request target as sent
(path and query, URL-encoded); range: its Range header or None; outcome: the store's status
(int) when the answer was passed on whole, else what the proxy did instead: "500", "503",
"drop", "truncate" or "denied" (or "client gone", "target unreachable"); None while the
request is being answered."""


def _bucket_and_key(target):
    """("bucket", "key/...") of a path-style S3 request target ("" where absent)."""
    path = urllib.parse.unquote(urllib.parse.urlsplit(target).path).lstrip("/")
    bucket, _, key = path.partition("/")
    return bucket, key


def request_kind(method, target, headers):
    """How FaultyProxy counts a request: "GET_range" (an object GET with a Range header),
    "GET_whole" (an object GET without), "LIST" (a GET on a bucket listing its objects), "HEAD",
    "GET_other" (other GETs: ListBuckets, a bucket's location, ...), or the method ("PUT",
    "POST", "DELETE", ...)."""
    method = method.upper()
    if method != "GET":
        return method
    bucket, key = _bucket_and_key(target)
    if key:
        return "GET_range" if headers.get("Range") else "GET_whole"
    if not bucket:
        return "GET_other"
    params = set(urllib.parse.parse_qs(urllib.parse.urlsplit(target).query,
                                       keep_blank_values=True))
    return "LIST" if params <= _LIST_PARAMS else "GET_other"


def _error_body(code, message, resource):
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code><Message>'
            f'{message}</Message><Resource>{resource}</Resource><RequestId>FAULTYPROXY'
            f'</RequestId></Error>').encode()


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True       # a stuck connection never holds up the interpreter's exit
    block_on_close = False      # FaultyProxy.stop() closes and joins the connections itself
    allow_reuse_address = True

    def __init__(self, proxy):
        self.proxy = proxy
        super().__init__(("127.0.0.1", 0), _Handler)

    def process_request(self, request, client_address):
        t = threading.Thread(target=self._serve_connection, args=(request, client_address),
                             name=f"FaultyProxy-conn-{client_address[1]}", daemon=True)
        with self.proxy._lock:
            self.proxy._connections[t] = request
        t.start()

    def _serve_connection(self, request, client_address):
        try:
            self.process_request_thread(request, client_address)
        finally:
            with self.proxy._lock:
                self.proxy._connections.pop(threading.current_thread(), None)

    def handle_error(self, request, client_address):
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)) or self.proxy._stopping:
            return    # a client that went away, or a connection closed by stop()
        super().handle_error(request, client_address)


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"     # keep-alive with the client
    server_version = "FaultyProxy"
    timeout = 120                     # an idle client connection is closed after this

    def setup(self):
        super().setup()
        self._upstream = None         # this connection's keep-alive connection to the target
        self._slot = None             # the current request's place in the proxy's log

    def finish(self):
        try:
            super().finish()
        finally:
            self._close_upstream()

    def log_message(self, format, *args):  # noqa: A002 - quiet
        pass

    def _close_upstream(self):
        if self._upstream is not None:
            self._upstream.close()
            self._upstream = None

    def _read_body(self):
        """The request's body (None without one); a chunked body is de-chunked."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            parts = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass      # trailers
                    return b"".join(parts)
                parts.append(self.rfile.read(size))
                self.rfile.readline()
        length = self.headers.get("Content-Length")
        if length is None:
            return None
        return self.rfile.read(int(length))

    def _proxy(self):
        proxy = self.server.proxy
        self._slot = None             # (a keep-alive connection's previous request is settled)
        try:
            body = self._read_body()
            kind = request_kind(self.command, self.path, self.headers)
            fault, fraction, self._slot = proxy._decide(self.command, self.path, kind,
                                                        self.headers.get("Range"))
            if proxy.latency:
                time.sleep(proxy.latency)
            if fault in _S3_ERRORS:
                self._send_error(fault)
            elif fault == "drop":
                self._drop()
            else:
                self._forward(body, fraction if fault == "truncate" else None)
        except (OSError, http.client.HTTPException):   # the client (or the store) went away
            self.close_connection = True
            self._close_upstream()
            self._settle("client gone")

    def _settle(self, outcome):
        """Logs the request's outcome: before the client can see the end of the answer, so
        that the log is complete when the client has its answer (or its error)."""
        if self._slot is not None:
            self.server.proxy._record(self._slot, outcome)

    do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = do_PATCH = do_OPTIONS = _proxy

    def _send_error(self, fault):
        status, code, message = _S3_ERRORS[fault]
        resource = urllib.parse.urlsplit(self.path).path
        body = b"" if self.command == "HEAD" else _error_body(code, message, resource)
        self.send_response(status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("x-amz-request-id", "FAULTYPROXY")
        if self.close_connection:
            self.send_header("Connection", "close")
        self._settle(fault)
        self.end_headers()
        self.wfile.write(body)

    def _drop(self, outcome="drop"):
        self.close_connection = True
        self._settle(outcome)
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _request_upstream(self, body):
        headers = [(k, v) for k, v in self.headers.items()
                   if k.lower() not in _HOP_BY_HOP and k.lower() != "content-length"]
        for attempt in (0, 1):
            fresh = self._upstream is None
            if fresh:
                self._upstream = http.client.HTTPConnection(*self.server.proxy._target,
                                                            timeout=300)
            try:
                conn = self._upstream
                conn.putrequest(self.command, self.path, skip_host=True,
                                skip_accept_encoding=True)
                for k, v in headers:
                    conn.putheader(k, v)
                if body is not None:
                    conn.putheader("Content-Length", str(len(body)))
                conn.endheaders(body)
                return conn.getresponse()
            except (ConnectionError, http.client.RemoteDisconnected, http.client.BadStatusLine):
                self._close_upstream()
                if fresh or attempt:
                    raise      # not a stale keep-alive connection: the target is down
        raise AssertionError("unreachable")

    def _forward(self, body, truncate_fraction):
        try:
            resp = self._request_upstream(body)
        except (OSError, http.client.HTTPException):
            self._close_upstream()
            self._drop("target unreachable")    # no answer, as from a dead store
            return
        bodiless = self.command == "HEAD" or resp.status in (204, 304) or resp.status < 200
        length = resp.getheader("Content-Length")
        data = None
        if bodiless:
            resp.read()
        elif length is None:              # chunked or close-delimited: passed on with a length
            data = resp.read()
            length = len(data)
        else:
            length = int(length)
        if truncate_fraction is not None and (bodiless or length == 0):
            self._close_upstream()
            self._drop()                  # nothing to cut short: no answer at all
            return
        self.send_response_only(resp.status, resp.reason)
        for k, v in resp.getheaders():
            # a HEAD's Content-Length (the object's size) is passed on as it is
            if k.lower() not in _HOP_BY_HOP and (bodiless or k.lower() != "content-length"):
                self.send_header(k, v)
        if not bodiless:
            self.send_header("Content-Length", str(length))
        if truncate_fraction is not None:
            self.close_connection = True
        if self.close_connection:
            self.send_header("Connection", "close")
        self._settle("truncate" if truncate_fraction is not None else resp.status)
        self.end_headers()
        if bodiless:
            pass
        elif truncate_fraction is not None:
            send = int(length * truncate_fraction)      # fraction < 1: always short
            self.wfile.write(data[:send] if data is not None else resp.read(send))
            self._close_upstream()        # the rest of the body is never read
            self._drop("truncate")
            return
        elif data is not None:
            self.wfile.write(data)
        else:
            left = length
            while left:
                chunk = resp.read(min(_CHUNK, left))
                if not chunk:
                    raise ConnectionError("the store closed the connection within a body")
                self.wfile.write(chunk)
                left -= len(chunk)
        if resp.will_close:
            self._close_upstream()


class FaultyProxy:
    """A threaded HTTP/1.1 reverse proxy on 127.0.0.1 (a free port) in front of
    `target_endpoint` ("http://host:port"), which counts requests and injects faults.

    failure_rate (0..1, settable at any time): the chance that a request gets a fault, one of
    fault_kinds (a subset of FAULT_KINDS, drawn with the seeded RNG):
      "500"       a 500 InternalError answer (S3 XML), the request not passed on;
      "503"       a 503 SlowDown answer (S3 XML), the request not passed on;
      "drop"      the connection closed without any answer, the request not passed on;
      "truncate"  the store's answer with its status and Content-Length, then only part of the
                  body (a random fraction, always short), then the connection closed; an
                  answer without a body (HEAD, empty) becomes a drop (after the store acted).
    fault_on: None (any request) or the request kinds (see request_kind) random faults hit.
    inject(fault, count=1, on=None): the next `count` requests (of the kinds `on`) get `fault`
    whatever failure_rate says. deny(prefix) / undeny(prefix=None): 403 AccessDenied (S3 XML)
    for requests whose "bucket/key" starts with prefix. latency: seconds added to each request.
    counts(): Counter of requests by kind, and "total"; faults(): Counter of outcomes other
    than passed-on answers; log: list of LogEntry; reset() empties those three.
    """

    def __init__(self, target_endpoint, seed=0, failure_rate=0.0, fault_kinds=FAULT_KINDS,
                 fault_on=None, latency=0.0):
        split = urllib.parse.urlsplit(target_endpoint)
        if split.scheme != "http" or not split.hostname:
            raise ValueError(f"FaultyProxy forwards to http://host:port, got {target_endpoint!r}")
        self.target_endpoint = target_endpoint
        self._target = (split.hostname, split.port or 80)
        self._lock = threading.RLock()
        self._rng = random.Random(seed)
        self.failure_rate = failure_rate
        self.fault_kinds = fault_kinds
        self.fault_on = fault_on
        self.latency = latency
        self._denied = []
        self._forced = []              # [fault, remaining, kinds or None]
        self._counts = collections.Counter()
        self._faults = collections.Counter()
        self.log = []
        self._generation = 0
        self._connections = {}          # handler thread -> its client socket
        self._server = None
        self._thread = None
        self._stopping = False
        self.start()

    # -- settings ----------------------------------------------------------------------------

    @property
    def failure_rate(self):
        return self._failure_rate

    @failure_rate.setter
    def failure_rate(self, rate):
        rate = float(rate)
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"failure_rate must be within [0, 1], got {rate}")
        self._failure_rate = rate

    @property
    def fault_kinds(self):
        return self._fault_kinds

    @fault_kinds.setter
    def fault_kinds(self, kinds):
        kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
        unknown = set(kinds) - set(FAULT_KINDS)
        if unknown or not kinds:
            raise ValueError(f"fault_kinds must be some of {FAULT_KINDS}, got {kinds}")
        with self._lock:
            self._fault_kinds = tuple(k for k in FAULT_KINDS if k in kinds)   # fixed order

    @property
    def fault_on(self):
        return self._fault_on

    @fault_on.setter
    def fault_on(self, kinds):
        self._fault_on = None if kinds is None else frozenset(
            (kinds,) if isinstance(kinds, str) else kinds)

    @staticmethod
    def _prefix(prefix):
        prefix = str(prefix)
        if prefix.startswith("s3://"):
            prefix = prefix[len("s3://"):]
        return prefix.lstrip("/")

    def deny(self, key_prefix):
        """403 AccessDenied for every request whose "bucket/key" (the path without its leading
        slash; "s3://" or "/" before it are ignored) starts with key_prefix: "bench/a/" denies
        the objects under a/ of bucket bench, "bench" the bucket itself too."""
        with self._lock:
            self._denied.append(self._prefix(key_prefix))

    def undeny(self, key_prefix=None):
        """Lifts one deny (or all of them)."""
        with self._lock:
            if key_prefix is None:
                self._denied.clear()
            else:
                self._denied = [p for p in self._denied if p != self._prefix(key_prefix)]

    def inject(self, fault, count=1, on=None):
        """The next `count` requests (of the request kinds `on`, e.g. "GET_range"; None: any)
        get `fault` (one of FAULT_KINDS), before and whatever failure_rate decides."""
        if fault not in FAULT_KINDS:
            raise ValueError(f"fault must be one of {FAULT_KINDS}, got {fault!r}")
        on = None if on is None else frozenset((on,) if isinstance(on, str) else on)
        with self._lock:
            self._forced.append([fault, int(count), on])

    # -- bookkeeping -------------------------------------------------------------------------

    def _decide(self, method, target, kind, range_header):
        """(fault or None, truncation fraction, log slot) for one request; counts it and
        reserves its log entry (in the order of arrival)."""
        with self._lock:
            self._counts[kind] += 1
            self._counts["total"] += 1
            slot = (self._generation, len(self.log))
            self.log.append(LogEntry(method, target, range_header, None))
            bucket, key = _bucket_and_key(target)
            name = f"{bucket}/{key}" if key else bucket
            if any(name.startswith(p) for p in self._denied):
                return "denied", None, slot
            fault = None
            for forced in self._forced:
                if forced[2] is None or kind in forced[2]:
                    fault = forced[0]
                    forced[1] -= 1
                    if forced[1] <= 0:
                        self._forced.remove(forced)
                    break
            if fault is None and self._failure_rate and (
                    self._fault_on is None or kind in self._fault_on) and \
                    self._rng.random() < self._failure_rate:
                fault = self._rng.choice(self._fault_kinds)
            return fault, (self._rng.random() if fault == "truncate" else None), slot

    def _record(self, slot, outcome):
        with self._lock:
            generation, index = slot
            if generation != self._generation:
                return                        # reset() since
            old = self.log[index]
            if outcome == "client gone" and old.outcome not in (None,) and \
                    not isinstance(old.outcome, int):
                return                        # a fault's own connection end
            if old.outcome in FAULT_KINDS or old.outcome == "denied":
                self._faults[old.outcome] -= 1    # settled again ("client gone")
            self.log[index] = old._replace(outcome=outcome)
            if outcome in FAULT_KINDS or outcome == "denied":
                self._faults[outcome] += 1

    def counts(self):
        """Counter of the requests received, by request_kind, and "total" (faulted ones too)."""
        with self._lock:
            return collections.Counter(self._counts)

    def faults(self):
        """Counter of what the proxy did instead of passing an answer on ("500", "503",
        "drop", "truncate", "denied")."""
        with self._lock:
            return +self._faults          # (no zero counts)

    def reset(self):
        """Empties counts, faults and log (settings, denies and injected faults stay)."""
        with self._lock:
            self._counts.clear()
            self._faults.clear()
            self.log.clear()
            self._generation += 1

    # -- life cycle --------------------------------------------------------------------------

    def start(self):
        with self._lock:
            if self._server is not None:
                return self
            self._stopping = False
            self._server = _Server(self)
            self.port = self._server.server_address[1]
            self._thread = threading.Thread(target=self._server.serve_forever,
                                            kwargs={"poll_interval": 0.05},
                                            name=f"FaultyProxy-{self.port}", daemon=True)
            self._thread.start()
            _LIVE.add(self)
        return self

    def stop(self, timeout=10.0):
        """Stops listening, closes every client connection and joins every thread. Idempotent."""
        with self._lock:
            server, self._server = self._server, None
            thread, self._thread = self._thread, None
            _LIVE.discard(self)
            if server is None:
                return
            self._stopping = True
        server.shutdown()
        server.server_close()
        thread.join(timeout)
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                live = dict(self._connections)
            if not live:
                break
            for sock in live.values():
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            for t in live:
                t.join(max(0.0, deadline - time.monotonic()))
            if time.monotonic() > deadline:
                raise RuntimeError(f"FaultyProxy: {len(live)} connection threads did not end")

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- clients -----------------------------------------------------------------------------

    @property
    def endpoint(self):
        return f"http://127.0.0.1:{self.port}"

    def env(self):
        """Environment variables pointing S3 clients (botocore, s3fs) at the proxy."""
        return _env(self.endpoint)

    def client(self, **kwargs):
        """A new boto3 S3 client bound to the proxy (kwargs override boto3.client's)."""
        return _client(self.endpoint, **kwargs)
