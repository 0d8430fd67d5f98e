#!/usr/bin/env bash
# Makes here, where there is network, what a GPU check carries to the workplace's device machine
# (no network there; its python3 is CPython 3.12 with torch; 64 MiB carried a call):
#
#   .devbuild  the checkout's native extensions built for CPython 3.12 (pyenv's 3.12 here, or
#              PYTHON312), debug symbols stripped, at their paths in the tree: the check
#              scripts copy them over the checkout's (tools/check_gpu_sink.sh, step 0);
#   .whl       libnvjpeg for CUDA 13 (nvidia-nvjpeg 13.x) and nvImageCodec for CUDA 13
#              (nvidia-nvimgcodec-cu13 0.9), the scripts installing them into /tmp/site;
#   .devdata   the benchmark data's 400 ImageNet-like JPEGs (../shared/tools/make_bench_data.py).
#
# and keeps all three out of git (.git/info/exclude). Rerun it after a change to native
# sources (.pyx, src/*.cpp). Then the device call is, e.g.:
#   run(carry=[".whl", ".devbuild", ".devdata"], command="bash tools/check_gpu_sink.sh
#       $PWD/.devdata $OUT/logs")
#
#   bash tools/prepare_device_carry.sh [--skip-build] [--skip-wheels] [--skip-data]
set -euo pipefail
cd "$(dirname "$0")/.."
build=1 wheels=1 data=1
for arg in "$@"; do
    case "$arg" in
    --skip-build) build=0 ;;
    --skip-wheels) wheels=0 ;;
    --skip-data) data=0 ;;
    *) echo "usage: bash tools/prepare_device_carry.sh [--skip-build] [--skip-wheels]" \
            "[--skip-data]" >&2; exit 2 ;;
    esac
done

exclude=.git/info/exclude
mkdir -p "$(dirname "$exclude")"
for path in /.devbuild/ /.whl/ /.devdata/; do
    grep -qxF "$path" "$exclude" 2>/dev/null || echo "$path" >> "$exclude"
done

if [ "$build" = 1 ]; then
    py312=${PYTHON312:-}
    if [ -z "$py312" ]; then
        py312=$(ls -d "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/3.12*/bin/python3.12 \
                2>/dev/null | tail -1 || true)
    fi
    if [ -z "$py312" ] || ! "$py312" -c 'import sys; assert sys.version_info[:2] == (3, 12)'; then
        echo "prepare_device_carry: no CPython 3.12 found (set PYTHON312)" >&2
        exit 1
    fi
    venv=.carry/venv312
    [ -x "$venv/bin/python" ] || "$py312" -m venv "$venv"
    "$venv/bin/python" -m pip install -q "Cython>=3.0" "numpy>=2" setuptools wheel 2>&1 \
        | grep -v "is ignored" || true
    # the tracked sources only, in a tree of their own: the checkout's cp311 build is untouched
    work=.carry/build312
    mkdir -p "$work"
    git ls-files -z | tar --null -T - -cf - | tar -C "$work" -xf -
    (cd "$work" && ../venv312/bin/python setup.py -q build_ext --inplace -j 2 >/dev/null)
    rm -rf .devbuild
    (cd "$work" && find mindrecord transforms_c minddata training -name '*.cpython-312-*.so') \
        | while read -r so; do
            mkdir -p ".devbuild/$(dirname "$so")"
            strip --strip-debug -o ".devbuild/$so" "$work/$so"
        done
    echo "built: $(find .devbuild -name '*.so' | wc -l) extensions for CPython 3.12 in .devbuild"
fi

if [ "$wheels" = 1 ]; then
    rm -rf .whl
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
        --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
        --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d .whl \
        "nvidia-nvjpeg==13.*" "nvidia-nvimgcodec-cu13==0.9.*" 2>&1 | grep -v "is ignored" || true
    ls .whl/nvidia_nvjpeg-*.whl .whl/nvidia_nvimgcodec_cu13-*.whl >/dev/null
fi

if [ "$data" = 1 ]; then
    rm -rf .devdata
    python=.venv/bin/python
    [ -x "$python" ] || python=python3
    "$python" ../shared/tools/make_bench_data.py .devdata --n-imagenet 400 --n-cifar 1 \
        --n-mnist 1 >/dev/null
    rm -rf .devdata/cifar .devdata/mnist
fi

du -sh --apparent-size .devbuild .whl .devdata 2>/dev/null || true
total=$(du -sc --apparent-size -B1M .devbuild .whl .devdata 2>/dev/null | tail -1 | cut -f1)
echo "carried in all: ${total} MiB (a call carries at most 64 MiB with the working tree)"
