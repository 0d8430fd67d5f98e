"""One build for the whole project: every Cython module (*.pyx) under the packages becomes an
extension. Each .pyx names its own C++ sources and libraries with ``# distutils:`` directives
(sources, libraries, include_dirs), so adding a native module never needs an edit here.

Set MD_EXT=<substring> to build only the extensions whose module name contains it (lets one
package be rebuilt without recompiling the others).

The one third-party native library, libjpeg-turbo, is linked statically with its symbols hidden
(tools/libjpeg_turbo.py says where it comes from); no system library or header is needed.
"""
import copy
import glob
import os
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools"))
import libjpeg_turbo  # noqa: E402  (a build helper beside this file, not an installed package)

PACKAGES = ("mindrecord", "minddata", "transforms_c", "training")
COMPILE_ARGS = ["-O3", "-std=c++17", "-fvisibility=hidden", "-Wall", "-Wno-unused-function",
                "-Wno-sign-compare", "-Wno-unreachable-code"]
# Extensions that link libjpeg-turbo (statically; it is fetched only when one of them is built).
USES_LIBJPEG = {"transforms_c._native", "transforms_c._batch"}


def _static_libjpeg_args():
    lib = libjpeg_turbo.ensure()
    print(f"linking libjpeg-turbo {lib.version} statically from {lib.archive}")
    return {"include_dirs": [lib.include_dir], "extra_objects": [lib.archive],
            "extra_link_args": lib.link_args(), "depends": [lib.archive]}


class BuildExt(build_ext):
    """Each extension compiles its sources into a directory of its own: extensions share C++
    sources (transforms_c/src/*.cpp) compiled with different flags, and a parallel build (-j)
    would otherwise write and link the same object files at the same time."""

    def build_extension(self, ext):
        own = copy.copy(self)      # build_temp per extension, without mutating the shared command
        own.build_temp = os.path.join(self.build_temp, ext.name)
        build_ext.build_extension(own, ext)


def _extensions():
    only = os.environ.get("MD_EXT", "")
    exts = []
    for pkg in PACKAGES:
        for pyx in sorted(glob.glob(os.path.join(pkg, "**", "*.pyx"), recursive=True)):
            name = os.path.splitext(pyx)[0].replace(os.sep, ".")
            if only and only not in name:
                continue
            native = _static_libjpeg_args() if name in USES_LIBJPEG else {}
            exts.append(Extension(
                name, [pyx], language="c++",
                # libjpeg-turbo's headers first, so no system jpeglib.h is ever picked up.
                include_dirs=native.get("include_dirs", []) + [numpy.get_include(),
                                                               os.path.join(pkg, "src")],
                extra_compile_args=COMPILE_ARGS,
                extra_objects=native.get("extra_objects", []),
                extra_link_args=native.get("extra_link_args", []),
                depends=native.get("depends", []),
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            ))
    return exts


setup(
    name="minddata",
    version="0.1.0",
    description="MindRecord files, a MindData-style dataset API, native transforms and a "
                "training executor, without MindSpore",
    packages=find_packages(include=[p + "*" for p in PACKAGES]),
    ext_modules=cythonize(_extensions(), language_level=3, nthreads=0,
                          compiler_directives={"boundscheck": False, "wraparound": False}),
    cmdclass={"build_ext": BuildExt},
    python_requires=">=3.9",
    install_requires=[l.strip() for l in open("requirements.txt")
                      if l.strip() and not l.startswith("#")],
    extras_require={"torch": ["torch"], "ray": ["ray[data]"]},
    entry_points={"console_scripts": [
        # Each package declares its commands in <pkg>/cli*.py; listed here.
        "mindrecord-convert=mindrecord.tools.cli:main",
        "minddata-bench=minddata.bench.cli:main",
        "dataset-cache=minddata.cache.cli:main",
        "cache_admin=minddata.cache.cli:main",
    ]},
    zip_safe=False,
)
