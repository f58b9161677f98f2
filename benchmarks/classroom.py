"""A class of learners at once: N real Jupyter kernels, each running every tutorial.

Each simulated learner is one process that opens the tutorials one after the other, each in a
fresh kernel (as Jupyter does when a learner opens a notebook), and runs it top to bottom with
nbclient.  All N learners start together.  Per learner it reports the peak resident memory of
its kernels (the kernel's own high-water mark, ``VmHWM`` in ``/proc``, not a sample), the CPU
seconds its kernels used (user + system, including the ``dot`` processes they ran) and the wall
time, then how these grow with N.

    python benchmarks/classroom.py                    # 2 learners (what `make bench` runs)
    python benchmarks/classroom.py -n 5,10,20         # the figures in docs/teaching.md
    python benchmarks/classroom.py -n 5 --lang zh-Hant
    python benchmarks/classroom.py --hub -n 5,10,20   # through a real JupyterHub (`make classroom`)

With ``--hub`` the same learners go through a real JupyterHub on localhost instead (see
``_hub.py``): each is created through the Hub's REST API, logs in with a password, spawns
their own Jupyter server, gets the tutorials copied in through the contents API and runs
every code cell through the kernel websocket; the spawn time and the peak memory of each
learner's server are reported too.  Every cell must reply "ok", or the benchmark fails.

Linux only (reads /proc).  The stored outputs of the notebooks are not touched.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from _proc import cpu_seconds, peak_mib

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"


def run_notebook(path: Path) -> dict:
    """Run one notebook in a fresh kernel; the kernel's peak RSS and CPU time, and wall time."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=300, startup_timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    # IPC sockets (files) instead of TCP ports: many kernels starting in the same instant
    # cannot pick the same free port, which made some die at start.
    client.km = client.create_kernel_manager()
    client.km.transport = "ipc"
    with tempfile.TemporaryDirectory(prefix="classroom-") as sockets:
        client.km.ip = str(Path(sockets) / "kernel")
        start = time.perf_counter()
        with client.setup_kernel(stderr=subprocess.DEVNULL):  # the kernel's own log lines
            pid = client.km.provisioner.pid
            for index, cell in enumerate(nb.cells):
                client.execute_cell(cell, index)
            peak, cpu = peak_mib(pid), cpu_seconds(pid)
    return {"peak_mib": peak, "cpu_s": cpu, "wall_s": time.perf_counter() - start}


def _run_with_retry(path: Path, attempts: int = 3) -> dict:
    """A kernel that dies before answering (an overloaded machine) is started again; the
    notebook had not run yet, so nothing is counted twice."""
    for attempt in range(attempts):
        try:
            return run_notebook(path)
        except RuntimeError as exc:
            if "before replying to kernel_info" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.5 + attempt)
    raise AssertionError("unreachable")


def learner(paths: list[str]) -> dict:
    """One learner: every tutorial in order, each in its own kernel."""
    start = time.perf_counter()
    runs = [_run_with_retry(Path(p)) for p in paths]
    return {"peak_mib": max(r["peak_mib"] for r in runs),
            "all_open_mib": sum(r["peak_mib"] for r in runs),
            "cpu_s": sum(r["cpu_s"] for r in runs),
            "wall_s": time.perf_counter() - start,
            "per_notebook": runs}


def classroom(n: int, paths: list[str]) -> list[dict]:
    with ProcessPoolExecutor(max_workers=n) as pool:
        return list(pool.map(learner, [paths] * n))


def _summary(values: list[float]) -> str:
    return f"{statistics.median(values):7.1f} {max(values):7.1f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--learners", default="2",
                        help="comma-separated class sizes to run, e.g. 5,10,20 (default 2)")
    parser.add_argument("--lang", default="en", choices=["en", "zh-Hant", "zh-Hans"])
    parser.add_argument("--only", default=None,
                        help="comma-separated notebook name prefixes (e.g. 01,05); default all")
    parser.add_argument("--node-gib", type=float, default=24.0,
                        help="memory of the node for the capacity estimate (default 24)")
    parser.add_argument("--node-cores", type=int, default=2,
                        help="cores of the node for the capacity estimate (default 2)")
    parser.add_argument("--hub", action="store_true",
                        help="go through a real local JupyterHub (installed by `make classroom`)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.learners.split(",") if s.strip()]
    paths = sorted((NOTEBOOKS / args.lang).glob("[0-9][0-9]_*.ipynb"))
    if args.only:
        prefixes = tuple(p.strip() for p in args.only.split(","))
        paths = [p for p in paths if p.name.startswith(prefixes)]
    if not paths:
        print(f"no tutorials found in {NOTEBOOKS / args.lang}", file=sys.stderr)
        return 1
    env_path = os.environ.get("PYTHONPATH", "")
    if str(ROOT) not in env_path.split(os.pathsep):  # kernels import this checkout
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env_path) if p)

    if not args.hub:
        return report(sizes, lambda n: classroom(n, [str(p) for p in paths]), paths, args)
    import _hub

    reason = _hub.missing()
    if reason:
        print(f"--hub cannot run: {reason}", file=sys.stderr)
        return 2
    with _hub.LocalHub(pythonpath=os.environ["PYTHONPATH"]) as hub:
        print(f"JupyterHub at {hub.url} (proxy: {_hub.find_proxy()}), one Jupyter server per "
              f"learner (SimpleLocalProcessSpawner)")
        status = report(sizes, lambda n: _hub.classroom(hub, n, [str(p) for p in paths],
                                                        f"learner-n{n}"), paths, args)
        own = hub.own_usage()
        print(f"\nThe hub itself peaked at {own['hub_mib']:.0f} MiB and used "
              f"{own['hub_cpu_s']:.0f} CPU-seconds in all; the proxy {own['proxy_mib']:.0f} MiB, "
              f"{own['proxy_cpu_s']:.0f} CPU-seconds.")
    return status


def report(sizes: list[int], run_round, paths: list[Path], args) -> int:
    """Run one round per class size and print the figures (with the hub's when present)."""
    print(f"{len(paths)} tutorials ({args.lang}), each in a fresh kernel, per learner; "
          f"{os.cpu_count()} cores here")
    hub = args.hub
    extra_head = f" | {'spawn s':>15} | {'server MiB':>15}" if hub else ""
    extra_sub = f" | {'median     max':>15} | {'median     max':>15}" if hub else ""
    print(f"{'N':>3} | {'kernel peak MiB':>15} | {'CPU s':>15} | {'wall s':>15}{extra_head}"
          f" | round s")
    print(f"{'':>3} | {'median     max':>15} | {'median     max':>15} | "
          f"{'median     max':>15}{extra_sub} |")
    rows, spawn = [], {}
    for n in sizes:
        start = time.perf_counter()
        results = run_round(n)
        round_s = time.perf_counter() - start
        assert len(results) == n, f"{len(results)} of {n} learners finished"
        peak = [r["peak_mib"] for r in results]
        cpu = [r["cpu_s"] for r in results]
        wall = [r["wall_s"] for r in results]
        rows.append((n, peak, cpu, wall, round_s))
        last = results
        extra = ""
        if hub:
            cells = {r["cells"] for r in results}
            assert len(cells) == 1, f"learners ran different numbers of cells: {cells}"
            spawn[n] = [r["spawn_s"] for r in results]
            extra = (f" | {_summary(spawn[n])}"
                     f" | {_summary([r['server_mib'] for r in results])}")
        print(f"{n:>3} | {_summary(peak)} | {_summary(cpu)} | {_summary(wall)}{extra} | "
              f"{round_s:7.1f}")
    if hub:
        print(f"(every learner: {last[0]['cells']} code cells through the kernel websocket, "
              f"each replied ok; wall s is the course after the spawn; a server's own CPU s, "
              f"median: {statistics.median(r['server_start_cpu_s'] for r in last):.1f} to "
              f"start, {statistics.median(r['server_cpu_s'] for r in last):.1f} in all)")

    n0, peak0, cpu0, wall0, _ = rows[0]
    print("\nGrowth with N (relative to the first size):")
    for n, peak, cpu, wall, _ in rows:
        print(f"  N={n:<3} peak RSS x{statistics.median(peak) / statistics.median(peak0):.2f}, "
              f"CPU s x{statistics.median(cpu) / statistics.median(cpu0):.2f}, "
              f"wall s x{statistics.median(wall) / statistics.median(wall0):.2f}"
              + (f", spawn s x{statistics.median(spawn[n]) / statistics.median(spawn[n0]):.2f}"
                 if hub else ""))
    worst_peak = max(max(p) for _, p, _, _, _ in rows)
    all_open = max(r["all_open_mib"] for r in last)
    cpu_per_learner = statistics.median(cpu0)
    by_memory = int(args.node_gib * 1024 * 0.8 / worst_peak)
    print(f"\nCapacity of a {args.node_cores}-core, {args.node_gib:g} GiB node:")
    print(f"  memory: 80% of the node / worst kernel peak ({worst_peak:.0f} MiB) = "
          f"{by_memory} kernels open at once; a learner who leaves every tutorial's kernel "
          f"running holds up to {all_open:.0f} MiB ({int(args.node_gib * 1024 * 0.8 / all_open)} "
          f"such learners)")
    if hub:
        server = max(r["server_mib"] for r in last)
        learner_mib = worst_peak + server
        print(f"  with the hub: a learner with one kernel open holds kernel + server = "
              f"{learner_mib:.0f} MiB, i.e. {int(args.node_gib * 1024 * 0.8 / learner_mib)} "
              f"such learners")
    print(f"  CPU: one learner's whole course costs {cpu_per_learner:.0f} CPU-seconds; "
          f"{args.node_cores} cores give {args.node_cores * 3600:.0f} CPU-seconds an hour, "
          f"i.e. about {args.node_cores * 3600 / cpu_per_learner:.0f} complete runs of the "
          f"course per hour")
    return 0


if __name__ == "__main__":
    sys.exit(main())
