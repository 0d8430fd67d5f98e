#!/usr/bin/env bash
# Sets up the .venv virtual environment with every dependency, and the native build. Needs a
# C++17 compiler and Python 3.9+, nothing else from the system: the build fetches its own static
# libjpeg-turbo (tools/libjpeg_turbo.py). Root is needed only to apt-get a missing g++.
# Idempotent: a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v g++ >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq g++
fi

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
stamp=.venv/.requirements.stamp
if [ ! -f "$stamp" ] || ! cmp -s <(cat requirements.txt requirements-dev.txt) "$stamp"; then
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -r requirements-dev.txt
    cat requirements.txt requirements-dev.txt > "$stamp"
fi
# Editable install (console scripts in .venv/bin, packages importable from anywhere). It
# compiles every extension, so it runs only when setup.py changed; afterwards build_ext
# recompiles just the modules whose sources changed.
editable=.venv/.editable.stamp
if [ ! -f "$editable" ] || ! cmp -s setup.py "$editable"; then
    .venv/bin/python -m pip install -q --no-build-isolation --no-deps -e . 2>&1 \
        | grep -v -e BuildBackendWarning -e '^ *!!' -e '^ *\*\*\*' -e 'Please be careful' \
              -e 'name as your package' -e 'wheel_obj' -e '^ *$' || true
    cp setup.py "$editable"
fi
.venv/bin/python setup.py -q build_ext --inplace -j 2 >/dev/null
