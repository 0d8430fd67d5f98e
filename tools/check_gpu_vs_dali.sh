#!/usr/bin/env bash
# Issue 22's side-by-side run on one GPU machine, on the same data: this project's pipelines
# and sink (tools/check_gpu_pipeline.py: by default the GPU kernels a batch queues with each
# decoder, the CPU and the mixed pipeline, the sink with each decoder, torch's default and
# fused SGD, the pipeline's streams at normal and high priority), then, in a process
# of its own with DALI's packages first on the path, the mixed pipeline again beside DALI's
# pipeline and the same training step fed by DALI.
#
#   bash tools/check_gpu_vs_dali.sh LOGDIR [DALI_PARTS]
#
# DALI_PARTS (default .carry): the parts of tools/dali_carry.sh; without them the DALI process
# is skipped. Environment: DATA (default .devdata), COPIES (20), PYTHON (python3), OURS_PARTS
# (kernels,cpu,mixed,sink), DECODERS (the JPEG decoders compared, default torchvision,nvjpeg),
# SINK_ARGS (the sink runs' options of check_gpu_pipeline.py, default
# "--sink-cpu-threads 0 --optimizers sgd,sgd-fused --pipeline-priorities normal,high"),
# DALI_ARGS (the DALI process's extra options; by default both optimizers), and the
# PYTHONPATH / LD_LIBRARY_PATH the project's process needs (kept for the DALI process, after
# DALI's). Writes LOGDIR/machine.txt (the GPU, the cores, the load average before and after
# each process), LOGDIR/ours.log and LOGDIR/dali.log; stays inside 9 minutes.
set -u -o pipefail
cd "$(dirname "$0")/.."
logs=${1:?usage: bash tools/check_gpu_vs_dali.sh LOGDIR [DALI_PARTS]}
parts=${2:-.carry}
py=${PYTHON:-python3}
mkdir -p "$logs"
export PYTHONUNBUFFERED=1
common=(--data "${DATA:-.devdata}" --copies "${COPIES:-20}")
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    echo "cores: $(nproc)"
    echo "load before ours: $(cat /proc/loadavg)"
} >"$logs/machine.txt" 2>&1
# shellcheck disable=SC2086  # the option strings are meant to split
timeout 330 "$py" tools/check_gpu_pipeline.py "${common[@]}" --seconds 3 \
    --parts "${OURS_PARTS:-kernels,cpu,mixed,sink}" --decoders "${DECODERS:-torchvision,nvjpeg}" \
    --step-priorities normal --training-threads separate \
    ${SINK_ARGS:---sink-cpu-threads 0 --optimizers sgd,sgd-fused --pipeline-priorities normal,high} \
    2>&1 | tee "$logs/ours.log"
echo "load after ours: $(cat /proc/loadavg)" >>"$logs/machine.txt"
if [ -d "$parts" ]; then
    base=${PYTHONPATH:-}
    eval "$(bash tools/dali_carry.sh unpack "$parts" /tmp/dali)"
    export PYTHONPATH=$PYTHONPATH${base:+:$base}
    echo "load before DALI: $(cat /proc/loadavg)" >>"$logs/machine.txt"
    # shellcheck disable=SC2086
    timeout 200 "$py" tools/check_gpu_pipeline.py "${common[@]}" --seconds 8 \
        --parts mixed,dali,dali-sink ${DALI_ARGS:-} 2>&1 | tee "$logs/dali.log"
    echo "load after DALI: $(cat /proc/loadavg)" >>"$logs/machine.txt"
else
    echo "DALI: SKIP: no parts in $parts (bash tools/dali_carry.sh pack)" | tee "$logs/dali.log"
fi
