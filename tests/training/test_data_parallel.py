"""Data-parallel training under `torchrun --nproc_per_node=2` (gloo on CPU): the ranks see
disjoint shards covering the data and finish with equal weights."""
import os
import socket
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("torch")

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dist_train_script.py")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow  # two torch processes: ~100 s on the shared 2-core machine
@pytest.mark.timeout(300)
def test_two_rank_data_parallel_training(tmp_path):
    env = dict(os.environ, OMP_NUM_THREADS="1", GLOG_v="2")
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=2",
           f"--master_port={_free_port()}", "--master_addr=127.0.0.1", SCRIPT, str(tmp_path)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=280)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    r0, r1 = (np.load(tmp_path / f"rank_{r}.npz") for r in (0, 1))
    assert int(r0["size"]) == 2
    ids0, ids1 = set(r0["ids"].tolist()), set(r1["ids"].tolist())
    assert ids0.isdisjoint(ids1)
    assert ids0 | ids1 == set(range(64))
    np.testing.assert_array_equal(r0["weights"], r1["weights"])


def test_init_outside_a_launcher_names_torchrun(monkeypatch):
    from training import communication
    for var in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(RuntimeError, match="torchrun"):
        communication.init()
    with pytest.raises(RuntimeError, match="init"):
        communication.get_rank()
    with pytest.raises(ValueError, match="backend_name"):
        communication.init("tcp")
