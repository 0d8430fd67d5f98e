#!/usr/bin/env bash
# Whether the direct nvJPEG decoder (gpu.set_jpeg_decoder("nvjpeg")) should be the default: one
# call on a GPU machine, inside about 7 minutes (issue 22's device time is 15 minutes a session).
#
#   bash tools/check_gpu_nvjpeg.sh DATA [LOGDIR]     (DATA: benchmarks/bench_data.py's layout,
#                                                     LOGDIR default: gpu-nvjpeg-logs)
#
# 0. setup, where the checkout carries them (a GPU machine without network): the wheels in .whl
#    (nvidia-nvjpeg, nvImageCodec) installed into /tmp/site, and extensions built for that
#    machine's Python in .devbuild copied over the checkout's;
# 1. the GPU tests of the decoder, the staging buffer, the host waits and the fused kernel (the
#    decoder against the CPU path's pixels on real files, not a stand-in);
# 2. tools/check_gpu_pipeline.py with nvjpeg and torchvision side by side: the pixels against
#    the CPU path (agreement), the kernels one batch queues, the mixed pipeline on 4 cores with
#    4 and 8 map workers, ResNet-50 and ResNet-18 in sink mode against their synthetic rate
#    (fused SGD, high-priority pipeline streams), and each model's step beside each kind of
#    the pipeline's work. Extra arguments: NVJPEG_CHECK_ARGS (appended; a later flag wins).
# Each step is cut at its time limit, so a hang still leaves the logs; the exit status is the
# number of steps that failed.
set -u -o pipefail
cd "$(dirname "$0")/.."
data=${1:?usage: bash tools/check_gpu_nvjpeg.sh DATA [LOGDIR]}
logs=${2:-gpu-nvjpeg-logs}
mkdir -p "$logs"
export PYTHONUNBUFFERED=1
py=${PYTHON:-python3}
failed=0

if compgen -G ".whl/*.whl" >/dev/null; then
    "$py" -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
    export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
    export LD_LIBRARY_PATH=/tmp/site/nvidia/cu13/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
if [ -d .devbuild ]; then
    cp -a .devbuild/. .
fi
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; uptime; } \
    > "$logs/0-machine.txt" 2>&1

step() {
    local name=$1 limit=$2
    shift 2
    echo "== $name (at most ${limit}s): $*"
    if ! timeout "$limit" "$@" 2>&1 | tee "$logs/$name.log"; then
        failed=$((failed + 1))
        echo "== $name: FAILED"
    fi
}

step 1-gpu-tests 120 "$py" -m pytest -q -p no:cacheprovider \
    tests/minddata/test_gpu_nvjpeg_decoder.py tests/minddata/test_gpu_nvjpeg_decoder_on_devices.py \
    tests/minddata/test_gpu_staging.py \
    tests/minddata/test_gpu_host_waits.py tests/minddata/test_gpu_resample_kernel.py
# shellcheck disable=SC2086  # NVJPEG_CHECK_ARGS is meant to split
step 2-pipeline 330 "$py" tools/check_gpu_pipeline.py --data "$data" --copies 20 --seconds 3 \
    --parts agreement,kernels,mixed,sink,interference --decoders nvjpeg,torchvision \
    --models resnet50,resnet18 --optimizers sgd-fused --pipeline-priorities high \
    --gpu-workers 4,8 --sink-cpu-threads 0 --sink-chunks 6 --step-priorities normal \
    --training-threads separate ${NVJPEG_CHECK_ARGS:-}
uptime >> "$logs/0-machine.txt"
grep -h "summary:\|agreement\|FAILED\|Warning" "$logs"/2-pipeline.log || true
echo "== $failed step(s) failed; logs in $logs"
exit "$failed"
