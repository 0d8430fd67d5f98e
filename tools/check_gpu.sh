#!/usr/bin/env bash
# Every GPU check of this project in one go, for a machine with an NVIDIA GPU, a CUDA build of
# torch and torchvision, Triton (and, if installed, nvImageCodec and DALI), the extensions built:
#
#   bash tools/check_gpu.sh [LOGDIR]            (LOGDIR default: gpu-check-logs; PYTHON: the
#                                                interpreter, default python3)
#
# 1. the CUDA tests of the suite (they skip on CPU machines): the fused resample kernel compiled
#    against the torch path, the batch on the device, amp and step times on CUDA, the adapter;
# 2. tools/check_cuda_sink.py: the sink's CUDA path, also with the high-priority step stream;
# 3. tools/probe_gpu_decoders.py $GPU_PROBE_ARGS (e.g. "--data DIR"): each JPEG decoder alone
#    with 1 and 4 threads, and beside a saturating GPU load;
# 4. tools/check_gpu_pipeline.py $GPU_PIPELINE_ARGS (e.g. "--data DIR --copies 20 --seconds 8"):
#    CPU vs mixed pipeline vs DALI, decoders, shares, region decode, the sink's rates;
# 5. tools/check_nn_torch_gpu.py --channels-last: training.nn against torchvision in the sink.
# Each check's output goes to the terminal and to LOGDIR/<n>-<name>.log; a failing check does
# not stop the others, and the exit status is the number of checks that failed.
set -u -o pipefail
cd "$(dirname "$0")/.."
logs=${1:-gpu-check-logs}
mkdir -p "$logs"
export PYTHONUNBUFFERED=1
py=${PYTHON:-python3}
failed=0

check() {
    local name=$1
    shift
    echo "== $name: $*"
    if ! "$@" 2>&1 | tee "$logs/$name.log"; then
        failed=$((failed + 1))
        echo "== $name: FAILED"
    fi
}

check 1-cuda-tests "$py" -m pytest -q -p no:cacheprovider \
    tests/minddata/test_gpu_resample_kernel.py tests/minddata/test_gpu_placement.py \
    tests/training/test_amp_cuda.py tests/training/test_step_times.py \
    tests/minddata/test_torch_adapter.py tests/minddata/test_gpu_jpeg_decoder.py \
    tests/minddata/test_gpu_nvjpeg_decoder.py tests/minddata/test_gpu_nvjpeg_decoder_on_devices.py
check 2-cuda-sink "$py" tools/check_cuda_sink.py
# shellcheck disable=SC2086  # the arguments are meant to split
check 3-decoders "$py" tools/probe_gpu_decoders.py ${GPU_PROBE_ARGS:-}
# shellcheck disable=SC2086
check 4-gpu-pipeline "$py" tools/check_gpu_pipeline.py ${GPU_PIPELINE_ARGS:-}
check 5-nn-torch-gpu "$py" tools/check_nn_torch_gpu.py --channels-last
echo "== $failed check(s) failed; logs in $logs"
exit "$failed"
