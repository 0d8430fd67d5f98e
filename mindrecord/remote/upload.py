"""Putting a locally written MindRecord set at a URL so that it appears complete or not at all.

A set bound for a URL is written by the ordinary local code into a private staging directory
(:class:`Staging`: ``tempfile``, so ``TMPDIR`` chooses the disk; removed on commit, failure,
abort, garbage collection and at exit; one left by a killed process is removed by the next
writer), under the same base names it will have at the URL, so its headers' shard_addresses
are already right. :meth:`RemoteSet.upload` then puts the files in this order:

    shard N-1's .db, shard N-1, ..., shard 1's .db, shard 1, shard 0's .db, shard 0

Readers open a set through shard 0 (its header names the others), so a new set becomes
visible only once every other file is in place. Each object's size is checked against the
local file after its upload (``fs.info``); an upload that fails or comes out short is retried
(``retry.with_retries``). If one still fails, every object this upload put is deleted (best
effort, with retries) and RuntimeError names the URL and the cause.

Replacing an existing set (``overwrite=True``) is not atomic: object stores cannot rename a
set of objects at once, so the old objects are replaced one by one in the order above. A
reader that opens the set while the upload runs can see old and new files mixed; one that
opens it after the upload sees only the new set. If the upload fails after it replaced a file
of the old set, the old set is broken, so it is deleted as well (shard 0 first): the URL then
holds no set rather than a broken one. If it fails before, the old set is left as it was.
Objects of the old set that the new one does not name (shards past the new shard count) are
left as they are; the new shard 0 does not name them.
"""
import errno
import fcntl
import os
import posixpath
import shutil
import tempfile
import weakref

from . import urls
from .retry import RetryPolicy, with_retries

# Deleting leftovers after a failure: fewer tries and a shorter deadline than an upload gets,
# since the store may be what failed.
CLEANUP_POLICY = RetryPolicy(attempts=4, base_delay=0.05, max_delay=1.0, deadline=20.0)
UPLOAD_POLICY = None      # None: retry.DEFAULT_POLICY (tests set a faster one)

STAGING_PREFIX = "mindrecord-upload-"
LOCK_NAME = ".writer-lock"


class SizeMismatch(OSError):
    """An uploaded object's size differs from its local file (retried as transient)."""


def check_url(url):
    """The URL must name an object inside a container: scheme://container/.../name."""
    rest = url.split("://", 1)[1]
    if "/" not in rest.strip("/") or not urls.basename(url):
        raise ValueError(f"[ERROR] Invalid file, {url!r} does not name a file in a directory or "
                         f"bucket: write to a URL such as s3://bucket/dir/train.mindrecord.")


def already_exist_error(found_url):
    """MindSpore's error for an existing set, naming the URL found."""
    return RuntimeError(
        f"[ERROR] Invalid file, mindrecord files already exist. Please check file path: "
        f"{found_url}.\nIf you do not want to keep the files, set the 'overwrite' parameter to "
        f"True and try again.")


def upload_order(local_paths):
    """Files of a shard set (data paths in shard order) in upload order (module doc)."""
    order = []
    for path in reversed(local_paths):
        order += [path + ".db", path]
    return order


class RemoteSet:
    """The destination of one set: `url` is the set's file_name (shard k's name is the base
    name of the local shard file, as FileWriter forms it)."""

    def __init__(self, url, storage_options=None):
        check_url(url)
        self.url = url
        self.fs, path = urls.filesystem(url, storage_options)
        self.dir_url = urls.dirname(url)
        self.dir_path = posixpath.dirname(path)

    def url_of(self, name):
        return urls.join(self.dir_url, name)

    def path_of(self, name):
        return self.dir_path + "/" + name

    # ---- what is there -----------------------------------------------------------------------
    def existing(self, names, check_container=True):
        """{name: size} of the objects among `names` that exist: one listing of the directory
        (s3fs lists the parent too when the prefix is empty). A fresh prefix of an object store
        lists as missing: then, with check_container, whether its bucket exists is asked once,
        so that a wrong bucket fails before the set is written rather than after."""
        def listing():
            self.fs.invalidate_cache(self.dir_path)
            try:
                return self.fs.ls(self.dir_path, detail=True)
            except FileNotFoundError:
                return None
        entries = with_retries(listing, self.dir_url + "/", "listing")
        if entries is None:
            if check_container:
                self._check_container()
            return {}
        wanted = set(names)
        found = {}
        for entry in entries:
            name = posixpath.basename(str(entry.get("name", "")).rstrip("/"))
            if name in wanted and entry.get("type", "file") != "directory":
                found[name] = entry.get("size")
        return found

    def _check_container(self):
        if getattr(self.fs, "root_marker", "/") != "" or "/" not in self.dir_path:
            return                       # not a bucket store, or the URL is the bucket itself
        bucket = self.dir_path.split("/", 1)[0]

        def exists():
            try:
                return self.fs.exists(bucket)
            except Exception:  # noqa: BLE001 - cannot tell: let the upload find out
                return True
        if not with_retries(exists, self.url, "checking the bucket of"):
            raise RuntimeError(f"[ERROR] Invalid file, the bucket of mindrecord file: {self.url} "
                               f"does not exist.")

    def refuse_existing(self, names):
        found = self.existing(names)
        if found:
            raise already_exist_error(self.url_of(sorted(found)[0]))
        return found

    # ---- upload ------------------------------------------------------------------------------
    def upload(self, local_files, overwrite, shard0_name, policy=None):
        """Put `local_files` (in the order given; shard 0 last) beside the set's URL.

        The directory is listed once first: with overwrite=False an existing object of these
        names refuses the upload (MindSpore's error), with overwrite=True the list says which
        objects replace old ones (see the module doc for a failure then)."""
        names = [os.path.basename(p) for p in local_files]
        before = self.existing(names, check_container=False)
        if before and not overwrite:
            raise already_exist_error(self.url_of(sorted(before)[0]))
        put, current = [], None
        try:
            for local in local_files:
                current = os.path.basename(local)
                self.put(local, current, policy)
                put.append(current)
            current = None
        except BaseException as exc:
            self._clean_up_after(exc, put, current, before, shard0_name, names)
            raise                        # KeyboardInterrupt, SystemExit: cleaned up, as is
        return before

    def _clean_up_after(self, exc, put, current, before, shard0_name, names):
        """Delete what the failed upload put (and the old set if it replaced part of it); an
        Exception becomes RuntimeError naming the URL, the file and the cause."""
        replaced = [n for n in put if n in before]
        doomed = list(put)
        if replaced:                     # the old set is broken: delete all of it
            doomed += [n for n in names if n in before and n not in doomed]
        left = self.delete(doomed, shard0_name)
        if current is not None and current not in before and current not in doomed:
            self.delete([current])       # it may have been written before the failure
        if not isinstance(exc, Exception):
            return
        if left:
            outcome = (f"these objects could not be deleted: "
                       f"{', '.join(self.url_of(n) for n in left)}")
        elif replaced:
            outcome = ("it had replaced part of the set that was there, so that set was "
                       "deleted too")
        elif before:
            outcome = "the set that was there is unchanged"
        else:
            outcome = "nothing of the set was left there"
        raise RuntimeError(f"[ERROR] Failed to upload the mindrecord files to {self.url} "
                           f"(at {self.url_of(current or names[-1])}): {type(exc).__name__}: "
                           f"{exc}; {outcome}.") from exc

    def put(self, local, name, policy=None):
        """Upload one file and check the object's size; retried as a whole."""
        path, size = self.path_of(name), os.path.getsize(local)

        def call():
            self.fs.put_file(local, path)
            self.fs.invalidate_cache(path)
            got = self.fs.info(path).get("size")
            if got != size:
                raise SizeMismatch(errno.EIO, f"the object has {got} bytes, the local file "
                                              f"{size}")
        kwargs = {} if policy is None and UPLOAD_POLICY is None else \
            {"policy": policy or UPLOAD_POLICY}
        with_retries(call, self.url_of(name), f"uploading {local} to", **kwargs)

    def delete(self, names, shard0_name=None):
        """Delete objects (shard 0, then its .db, then the others in order); returns the names
        that could not be deleted."""
        first = [n for n in (shard0_name, (shard0_name or "") + ".db") if n in names]
        left = []
        for name in first + [n for n in names if n not in first]:
            path = self.path_of(name)

            def call(path=path):
                try:
                    self.fs.rm_file(path)
                except FileNotFoundError:
                    pass
                self.fs.invalidate_cache(path)
            try:
                with_retries(call, self.url_of(name), "deleting", policy=CLEANUP_POLICY)
            except Exception:  # noqa: BLE001 - best effort: reported by the caller
                left.append(name)
        return left


class Staging:
    """A private local directory for a set on its way to a URL; removed by remove(), when the
    object is collected, or at exit. The directory holds a lock file that this process keeps
    locked (flock) while it lives, so that a writer killed before it could clean up (kill -9)
    is told from a live one, whatever its pid namespace: creating a Staging removes the
    directories whose lock is free."""

    def __init__(self):
        remove_stale_staging()
        self.path = tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-")
        self._lock_fd = _lock_dir(self.path)
        self._finalizer = weakref.finalize(self, _remove_staging, self.path, self._lock_fd)

    def remove(self):
        self._finalizer()

    @property
    def removed(self):
        return not self._finalizer.alive


def _lock_dir(path):
    """Create <path>/LOCK_NAME already locked: the lock file is locked under a temporary name,
    then renamed, so that no other process can see it unlocked."""
    tmp = os.path.join(path, LOCK_NAME + ".new")
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.rename(tmp, os.path.join(path, LOCK_NAME))
    except BaseException:
        os.close(fd)
        shutil.rmtree(path, ignore_errors=True)
        raise
    return fd


def _remove_staging(path, lock_fd):
    shutil.rmtree(path, ignore_errors=True)
    try:
        os.close(lock_fd)
    except OSError:
        pass


def remove_stale_staging(directory=None):
    """Remove the staging directories (in `directory`, default the temporary directory) whose
    writer is gone: their lock file is not locked."""
    directory = directory or tempfile.gettempdir()
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if not name.startswith(STAGING_PREFIX):
            continue
        path = os.path.join(directory, name)
        try:
            fd = os.open(os.path.join(path, LOCK_NAME), os.O_RDWR)
        except OSError:
            continue                     # being created, someone else's, or not ours at all
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)                 # its writer lives
            continue
        shutil.rmtree(path, ignore_errors=True)
        os.close(fd)
