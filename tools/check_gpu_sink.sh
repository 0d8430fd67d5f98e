#!/usr/bin/env bash
# The sink's rate beside the mixed pipeline with the direct nvJPEG decoder asked for RGB (a
# colour-conversion kernel per image) and for the YCbCr planes (one conversion kernel a batch:
# gpu.set_jpeg_decoder("nvjpeg-ycbcr")), with the train step eager and replayed as a CUDA graph
# (TRAINING_CUDA_GRAPH=1: ResNet-18's eager step is bound by its host side, and the graphed one
# lost its feed to the per-image kernels), and the YCbCr decoder's at high and at normal
# pipeline-stream priority: one call on a GPU machine, inside 10 minutes (its steps' limits add to 9.7; issue 22's device
# time is 15 minutes a session).
#
#   bash tools/check_gpu_sink.sh DATA [LOGDIR]     (DATA: benchmarks/bench_data.py's layout,
#                                                   LOGDIR default: gpu-sink-logs)
#
# 0. setup, where the checkout carries them (a GPU machine without network): the wheels in .whl
#    (nvidia-nvjpeg, nvImageCodec) installed into /tmp/site, and extensions built for that
#    machine's Python in .devbuild copied over the checkout's;
# 1. the GPU tests of the direct nvJPEG decoder (both backends, RGB and YCbCr output, four
#    workers at once) and of the YCbCr conversion kernel (compiled: the CPU decode exactly);
# 2. tools/check_gpu_pipeline.py: each decoder's agreement with the CPU path and the kernels
#    one batch queues, the mixed pipeline on 4 cores, then ResNet-50 and ResNet-18 in sink mode
#    against their synthetic rate (fused SGD, high-priority pipeline streams), each decoder
#    with the eager and the graphed step;
# 3. the YCbCr decoder's sinks again in another process, its planes' rows padded to 256 bytes
#    (MINDDATA_NVJPEG_PITCH_ALIGN=256: in case the JPEG engines write only aligned outputs
#    without a copy kernel, step 5), at normal and at high priority, the graphed step first
#    (padded against step 2's tight rows, the figures' spread, and the priorities compared);
# 4. ResNet-18's synthetic step beside one kind of the pipeline's work at a time (a whole
#    batch, its decode, its augment, a thread holding the GIL), with each decoder: which costs
#    the step its time;
# 5. tools/probe_nvjpeg_output_formats.py on YUV and Y output with every plane and row padded to
#    256 bytes: whether the JPEG engines then write without a copy kernel (compare with the
#    kernels step 2 counts for the tight layout).
# Extra arguments for step 2: SINK_CHECK_ARGS (appended; a later flag wins). Each step is cut
# at its time limit, so a hang still leaves the logs; the exit status is the number of steps
# that failed.
set -u -o pipefail
cd "$(dirname "$0")/.."
data=${1:?usage: bash tools/check_gpu_sink.sh DATA [LOGDIR]}
logs=${2:-gpu-sink-logs}
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

step 1-gpu-tests 95 "$py" -m pytest -q -p no:cacheprovider \
    tests/minddata/test_gpu_nvjpeg_decoder_on_devices.py tests/minddata/test_gpu_ycbcr_to_rgb.py
sink_args=(--data "$data" --copies 20 --seconds 3 --models resnet50,resnet18
           --optimizers sgd-fused --gpu-workers 4 --sink-cpu-threads 0 --sink-chunks 6
           --step-priorities normal --training-threads separate)
# shellcheck disable=SC2086  # SINK_CHECK_ARGS is meant to split
step 2-pipeline 200 "$py" tools/check_gpu_pipeline.py "${sink_args[@]}" \
    --parts agreement,kernels,mixed,sink --decoders nvjpeg-ycbcr,nvjpeg \
    --pipeline-priorities high --cuda-graphs off,on ${SINK_CHECK_ARGS:-}
uptime >> "$logs/0-machine.txt"
# shellcheck disable=SC2086
MINDDATA_NVJPEG_PITCH_ALIGN=256 \
step 3-sink-padded 120 "$py" tools/check_gpu_pipeline.py "${sink_args[@]}" --parts sink \
    --decoders nvjpeg-ycbcr --pipeline-priorities normal,high --cuda-graphs on,off \
    ${SINK_CHECK_ARGS:-}
uptime >> "$logs/0-machine.txt"
step 4-interference 90 "$py" tools/check_gpu_pipeline.py --data "$data" --copies 20 \
    --models resnet18 --parts interference --decoders nvjpeg-ycbcr,nvjpeg
uptime >> "$logs/0-machine.txt"
step 5-probe-aligned 55 "$py" tools/probe_nvjpeg_output_formats.py --data "$data/imagenet" \
    --formats 1,2 --pitch-align 256 --budget 40 --seconds 1
uptime >> "$logs/0-machine.txt"
grep -h "summary:\|FAILED\|Warning\|interference resnet" "$logs"/2-pipeline.log \
    "$logs"/3-sink-padded.log "$logs"/4-interference.log "$logs"/5-probe-aligned.log || true
echo "== $failed step(s) failed; logs in $logs"
exit "$failed"
