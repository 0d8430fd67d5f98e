"""A Ray cluster of several nodes on this machine, on loopback (tests and benchmarks).

``ray start --head`` and ``ray start --address`` with ``--num-cpus``, as on a real cluster;
``stop()`` ends only this cluster's processes (found by its GCS port and its nodes' manager
ports), never other Ray instances of the machine, as ``ray stop`` would.
"""
import os
import re
import signal
import socket
import subprocess
import sys
import time


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalRayCluster:
    def __init__(self, num_nodes=2, cpus_per_node=1, object_store_mb=192, node_cores=None):
        """``node_cores``: per node, the CPU cores (e.g. "0" or "0,1") its processes may run on
        (``taskset``), or None to leave them unpinned."""
        self.num_nodes = num_nodes
        self.cpus_per_node = cpus_per_node
        self.object_store_mb = object_store_mb
        self.node_cores = list(node_cores) if node_cores is not None else [None] * num_nodes
        self.port = None
        self.node_ports = []
        self._ray = os.path.join(os.path.dirname(sys.executable), "ray")

    @property
    def address(self):
        return f"127.0.0.1:{self.port}"

    def _env(self):
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
        env["RAY_USAGE_STATS_ENABLED"] = "0"
        # A loopback cluster needs no token; without this, `ray start --head` turns token
        # authentication on when any earlier local ray.init() left ~/.ray/auth_token, and
        # the second node then cannot join.
        env.setdefault("RAY_AUTH_MODE", "disabled")
        env.pop("RAY_ADDRESS", None)
        return env

    def _start_node(self, k):
        head = k == 0
        nm_port = _free_port()
        pin = ["taskset", "-c", self.node_cores[k]] if self.node_cores[k] is not None else []
        cmd = pin + [self._ray, "start", "--num-cpus", str(self.cpus_per_node),
               "--node-ip-address", "127.0.0.1", "--node-manager-port", str(nm_port),
               "--object-store-memory", str(self.object_store_mb * 1024 * 1024),
               "--disable-usage-stats",
               # RayService does not forward the actors' logs (log_to_driver=False): the
               # per-node log monitor would poll the log files for nothing (~1% of a core).
               "--include-log-monitor=false"]
        if head:
            cmd += ["--head", "--port", str(self.port), "--include-dashboard=false"]
        else:
            cmd += ["--address", self.address]
        self.node_ports.append(nm_port)
        res = subprocess.run(cmd, env=self._env(), capture_output=True, text=True, timeout=180)
        if res.returncode != 0:
            raise RuntimeError(f"ray start failed ({' '.join(cmd)}):\n{res.stdout}\n{res.stderr}")

    def start(self):
        self.port = _free_port()
        try:
            for k in range(self.num_nodes):
                self._start_node(k)
            self._wait_nodes(self.num_nodes)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_nodes(self, n, timeout=120):
        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            res = subprocess.run([self._ray, "status", "--address", self.address],
                                 env=self._env(), capture_output=True, text=True, timeout=60)
            if res.stdout.count("node_") >= n:
                return
            time.sleep(1)
        raise RuntimeError(f"the local Ray cluster did not reach {n} nodes in {timeout} s")

    # -- processes ----------------------------------------------------------------------------
    def _procs(self, marks):
        """Processes whose command line holds one of ``marks`` (regexes), and their children."""
        import psutil
        found = {}
        for p in psutil.process_iter(["pid", "cmdline"]):
            cmd = " ".join(p.info["cmdline"] or [])
            if any(re.search(m, cmd) for m in marks):
                found[p.pid] = p
        for p in list(found.values()):
            try:
                for c in p.children(recursive=True):
                    found[c.pid] = c
            except psutil.NoSuchProcess:
                pass
        return list(found.values())

    def node_processes(self, k):
        """Node k's raylet and everything it started (its workers)."""
        return self._procs([f"--node_manager_port={self.node_ports[k]}\\b"])

    def kill_node(self, k):
        """SIGKILL node k's raylet and workers (a node failure)."""
        for p in self.node_processes(k):
            try:
                p.send_signal(signal.SIGKILL)
            except Exception:
                pass

    def processes(self):
        """Every process of this cluster (GCS, raylets, their workers and agents)."""
        # Every process of the cluster names its GCS (the head's port), whatever the address
        # Ray chose for it; raylets also name their own node manager port.
        marks = [f"(gcs[-_])?address[= ][0-9.]+:{self.port}\\b",
                 f"--gcs_server_port={self.port}\\b"]
        marks += [f"--node_manager_port={p}\\b" for p in self.node_ports]
        return self._procs(marks)

    def stop(self):
        """Disconnect this process, then kill this cluster's processes."""
        try:
            import ray
            if ray.is_initialized():
                ray.shutdown()
        except ImportError:
            pass
        if self.port is None:
            return
        for _ in range(3):
            procs = self.processes()
            if not procs:
                break
            for p in procs:
                try:
                    p.send_signal(signal.SIGKILL)
                except Exception:
                    pass
            time.sleep(0.5)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False
