#!/usr/bin/env bash
# Sets up everything on a fresh Debian machine (run as root, or with sudo available):
# system packages, the .venv virtual environment with every dependency, and the native build.
# Idempotent: a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
dpkg -s libjpeg62-turbo-dev >/dev/null 2>&1 || need_apt+=(libjpeg62-turbo-dev)
dpkg -s libsqlite3-dev >/dev/null 2>&1 || need_apt+=(libsqlite3-dev)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
if [ ${#need_apt[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"
fi

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
stamp=.venv/.requirements.stamp
if [ ! -f "$stamp" ] || ! cmp -s <(cat requirements.txt requirements-dev.txt) "$stamp"; then
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -r requirements-dev.txt
    cat requirements.txt requirements-dev.txt > "$stamp"
fi
.venv/bin/python setup.py -q build_ext --inplace -j 2 >/dev/null
# Editable install: console scripts on PATH inside .venv, packages importable from anywhere.
.venv/bin/python -m pip install -q --no-build-isolation --no-deps -e . >/dev/null
