"""One build for the whole project: every Cython module (*.pyx) under the packages becomes an
extension. Each .pyx names its own C++ sources and libraries with ``# distutils:`` directives
(sources, libraries, include_dirs), so adding a native module never needs an edit here.

Set MD_EXT=<substring> to build only the extensions whose module name contains it (lets one
package be rebuilt without recompiling the others).
"""
import glob
import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

PACKAGES = ("mindrecord", "minddata", "transforms_c", "training")
COMPILE_ARGS = ["-O3", "-std=c++17", "-fvisibility=hidden", "-Wall", "-Wno-unused-function",
                "-Wno-sign-compare", "-Wno-unreachable-code"]


def _extensions():
    only = os.environ.get("MD_EXT", "")
    exts = []
    for pkg in PACKAGES:
        for pyx in sorted(glob.glob(os.path.join(pkg, "**", "*.pyx"), recursive=True)):
            name = os.path.splitext(pyx)[0].replace(os.sep, ".")
            if only and only not in name:
                continue
            exts.append(Extension(
                name, [pyx], language="c++",
                include_dirs=[numpy.get_include(), os.path.join(pkg, "src")],
                extra_compile_args=COMPILE_ARGS,
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
