"""Telling a URL from a local path, and the fsspec file system that serves it.

fsspec is the file-system layer (see the README's object-storage section for why): one
``url_to_fs`` call covers s3:// (s3fs, which honours ``AWS_ENDPOINT_URL``, ``AWS_PROFILE`` and
the other usual variables through botocore), gs:// (gcsfs), http(s):// and every other protocol
fsspec knows. ``storage_options`` are passed to the file system unchanged, as pandas, Dask and
Hugging Face datasets do.
"""
import posixpath
import re

# "scheme://rest", scheme per RFC 3986; "file://" is a local path (handled as one).
_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*)://(.*)$")
_PACKAGES = {"s3": "s3fs", "s3a": "s3fs", "gs": "gcsfs", "gcs": "gcsfs", "az": "adlfs",
             "abfs": "adlfs", "abfss": "adlfs", "http": "aiohttp", "https": "aiohttp"}


def is_url(name):
    """True for "scheme://..." names other than file://."""
    if not isinstance(name, str):
        return False
    m = _URL.match(name)
    return bool(m) and m.group(1).lower() != "file"


def local_path(name):
    """A file:// URL as a path; other names unchanged."""
    if isinstance(name, str) and name.lower().startswith("file://"):
        return name[len("file://"):]
    return name


def scheme(url):
    return _URL.match(url).group(1).lower()


def dirname(url):
    """The URL of the "directory" holding `url` (no trailing slash)."""
    return url.rsplit("/", 1)[0]


def basename(url):
    return url.rsplit("/", 1)[1]


def join(directory, name):
    return directory.rstrip("/") + "/" + name


def check_storage_options(storage_options):
    if storage_options is not None and not isinstance(storage_options, dict):
        raise TypeError(f"storage_options must be a dict of file-system options (fsspec), got "
                        f"{type(storage_options).__name__}")
    return dict(storage_options or {})


def filesystem(url, storage_options=None):
    """(fsspec file system, its path for `url`). ImportError naming the package to install
    when the protocol's implementation is missing; ValueError for a protocol fsspec does not
    know."""
    options = check_storage_options(storage_options)
    import fsspec.core  # imported here: local paths never need it
    proto = scheme(url)
    try:
        fs, path = fsspec.core.url_to_fs(url, **options)
    except ImportError as exc:
        package = _PACKAGES.get(proto, f"the fsspec implementation of {proto}://")
        raise ImportError(f"Reading {url} needs {package}: pip install {package} "
                          f"({exc})") from exc
    except ValueError as exc:
        if "Protocol not known" in str(exc):
            raise ValueError(f"{url}: fsspec knows no file system for {proto}:// ({exc})") \
                from None
        raise
    return fs, posixpath.normpath(path) if path else path
