#!/usr/bin/env bash
# DALI for tools/check_gpu_pipeline.py on a GPU machine that has no network and takes at most
# 64 MiB per call (the workplace's device machine), carried in pieces:
#
#   bash tools/dali_carry.sh pack [PARTS]      here, with network: downloads DALI 2.4 for CUDA 12
#       (nvidia-dali-cuda120, 424 MB) and what it needs for CPython 3.12, unpacks every wheel
#       into one site folder, packs it as tar | xz -9 (944 MB -> 244 MB) and splits that into
#       50 MiB parts PARTS/dali-NN/part (default PARTS: .carry, ignored by git); prints the
#       parts, one per call to carry (a warm machine keeps the ignored paths of earlier calls).
#   bash tools/dali_carry.sh unpack [PARTS] [DEST]   there: joins the parts and unpacks the
#       site folder into DEST (default /tmp/dali) with Python's own lzma (no xz needed), then
#       prints the PYTHONPATH and LD_LIBRARY_PATH a DALI process needs.
#
# DALI's packages (nvidia.nvimgcodec for CUDA 12 among them) must not share a process with
# this project's nvImageCodec for CUDA 13: run the DALI part in its own process, e.g.
#   PYTHONPATH=$DEST/site LD_LIBRARY_PATH=... python3 tools/check_gpu_pipeline.py --parts mixed,dali
set -euo pipefail
cd "$(dirname "$0")/.."
command=${1:-}
parts=${2:-.carry}

case "$command" in
pack)
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    pip download -q --no-deps -d "$work/wheels" --python-version 3.12 --only-binary=:all: \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
        --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
        --extra-index-url https://pypi.nvidia.com \
        "nvidia-dali-cuda120==2.4.0" "nvidia-nvimgcodec-cu12>=0.9,<0.10" nvidia-nvjpeg-cu12 \
        "nvidia-libnvcomp-cu12==5.3.0.16" "astunparse>=1.6,<=1.6.3" "gast>=0.3.3,<=0.7.0" six \
        optree makefun "libcst~=1.8" nvtx
    mkdir -p "$work/site"
    for wheel in "$work"/wheels/*.whl; do
        python3 -m zipfile -e "$wheel" "$work/site"
    done
    rm -rf "$parts"
    mkdir -p "$parts"
    tar -C "$work" -cf - site | xz -T0 -9 | split -b 50M -d - "$parts/dali-"
    for piece in "$parts"/dali-*; do
        mkdir "$piece.d"
        mv "$piece" "$piece.d/part"
        mv "$piece.d" "$piece"
    done
    echo "carry one per call (with nothing else large):"
    ls -d "$parts"/dali-*
    ;;
unpack)
    dest=${3:-/tmp/dali}
    mkdir -p "$dest"
    cat "$parts"/dali-*/part | python3 -c '
import lzma, sys, tarfile
with tarfile.open(fileobj=lzma.open(sys.stdin.buffer), mode="r|") as archive:
    archive.extractall(sys.argv[1], filter="data")
' "$dest"
    libs=$(find "$dest/site/nvidia" -name 'lib*.so*' -printf '%h\n' | sort -u | paste -sd:)
    echo "export PYTHONPATH=$dest/site LD_LIBRARY_PATH=$libs"
    ;;
*)
    echo "usage: bash tools/dali_carry.sh pack [PARTS] | unpack [PARTS] [DEST]" >&2
    exit 2
    ;;
esac
