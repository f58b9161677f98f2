"""A real JupyterHub on localhost, and learners who go through its REST API.

Used by ``benchmarks/classroom.py --hub``.  The hub runs as it would on a small course
machine: ``configurable-http-proxy`` (npm) in front, a shared-password authenticator (the
successor of the dummy authenticator with a password), and the simple local-process spawner,
which starts each learner's Jupyter server as a local process with a home folder of its own
(here under a temporary folder).  A "teacher" service holds an API token from the hub's
config and creates the learners; everything else each learner does with their own token:

    POST /hub/api/users/NAME/tokens            (username + password: the learner's token)
    POST /hub/api/users/NAME/server            (spawn), then GET /hub/api/users/NAME until ready
    PUT  /user/NAME/api/contents/...           (the tutorials copied in)
    POST /user/NAME/api/sessions               (a notebook opened: a fresh kernel)
    WS   /user/NAME/api/kernels/ID/channels    (every code cell run; each must reply "ok")
    DELETE /user/NAME/api/sessions/ID, DELETE /hub/api/users/NAME/server

Nothing here listens beyond 127.0.0.1.  ``make classroom`` installs what it needs.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _proc import cpu_seconds, peak_mib

ROOT = Path(__file__).resolve().parents[1]
LOCAL_PROXY = ROOT / ".classroom" / "node_modules" / ".bin" / "configurable-http-proxy"
TIMEOUT = 600  # seconds for a spawn, a cell or a request on a machine shared with other jobs


def find_proxy() -> str | None:
    """``configurable-http-proxy`` from ``make classroom``'s folder, else from the PATH."""
    if LOCAL_PROXY.exists():
        return str(LOCAL_PROXY)
    return shutil.which("configurable-http-proxy")


def missing() -> str | None:
    """Why the hub cannot run here, in one sentence with the fix, or None."""
    try:
        import jupyterhub  # noqa: F401
        import psutil  # noqa: F401
        import requests  # noqa: F401
        import websocket  # noqa: F401
    except ImportError as exc:
        return f"{exc.name} is not installed: run `make classroom` (pip extra [classroom])."
    if find_proxy() is None:
        return ("configurable-http-proxy (npm) is not installed: run `make classroom`, which "
                "puts it in .classroom/node_modules.")
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LocalHub:
    """JupyterHub + proxy as child processes; everything they started is stopped on exit."""

    def __init__(self, pythonpath: str):
        import psutil
        import requests

        self._psutil = psutil
        self.dir = Path(tempfile.mkdtemp(prefix="classroom-hub-"))
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.password = secrets.token_hex(16)
        self._teacher_token = secrets.token_hex(32)
        self.teacher = requests.Session()
        self.teacher.headers["Authorization"] = f"token {self._teacher_token}"
        self._seen: dict[int, object] = {}  # every descendant ever seen, to stop them all
        spawner = {
            "cmd": [sys.executable, "-m", "jupyterhub.singleuser"],
            # a kernel starting on a busy machine (20 at once, other jobs) took over the
            # server's 60 s to answer its first kernel_info and the websocket was dropped
            "args": [f"--MappingKernelManager.kernel_info_timeout={TIMEOUT}"]
                    + (["--allow-root"] if os.geteuid() == 0 else []),
            "environment": {"PYTHONPATH": pythonpath},
            "start_timeout": TIMEOUT,
            "http_timeout": TIMEOUT,
        }
        config = {
            "JupyterHub": {
                "bind_url": self.url,
                "hub_ip": "127.0.0.1",
                "hub_port": _free_port(),
                "authenticator_class": "shared-password",
                "spawner_class": "simple",
                "db_url": f"sqlite:///{self.dir / 'jupyterhub.sqlite'}",
                "cookie_secret_file": str(self.dir / "cookie_secret"),
                "pid_file": str(self.dir / "jupyterhub.pid"),
                "cleanup_servers": True,
                "cleanup_proxy": True,
                "services": [{"name": "classroom-teacher", "api_token": self._teacher_token}],
                "load_roles": [{"name": "classroom-teacher",
                                "scopes": ["admin:users", "admin:servers", "list:users"],
                                "services": ["classroom-teacher"]}],
            },
            "ConfigurableHTTPProxy": {
                "command": [find_proxy()],
                "api_url": f"http://127.0.0.1:{_free_port()}",
            },
            "SharedPasswordAuthenticator": {"user_password": self.password},
            "Authenticator": {"allow_all": True},
            "Spawner": spawner,
            "SimpleLocalProcessSpawner": {
                "home_dir_template": str(self.dir / "home" / "{username}")},
        }
        # a JSON config file (traitlets reads it as it reads a .py one): the config stays data
        (self.dir / "jupyterhub_config.json").write_text(json.dumps(config, indent=1))
        self.log = self.dir / "jupyterhub.log"
        self.proc = None

    def __enter__(self) -> LocalHub:
        # `timeout` or `kill` stop the benchmark with SIGTERM: unwind, so __exit__ runs
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
        env = dict(os.environ, PATH=os.pathsep.join(
            [str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "jupyterhub",
                 "-f", str(self.dir / "jupyterhub_config.json")],
                cwd=self.dir, stdout=log, stderr=subprocess.STDOUT, env=env,
                start_new_session=True)
        self._seen[self.proc.pid] = self._psutil.Process(self.proc.pid)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"JupyterHub exited at start:\n{self.tail()}")
            try:
                if self.teacher.get(f"{self.url}/hub/api/", timeout=5).status_code == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.5)
        self.__exit__(None, None, None)
        raise TimeoutError(f"JupyterHub did not answer within 120 s:\n{self.tail()}")

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def processes(self) -> list:
        """The hub's live descendants (proxy, learners' servers, kernels), remembered."""
        try:
            children = self._seen[self.proc.pid].children(recursive=True)
        except self._psutil.NoSuchProcess:
            return []
        for p in children:
            self._seen.setdefault(p.pid, p)
        return children

    def kernel_pid(self, kernel_id: str) -> int:
        """The process of a kernel, by its connection file ``kernel-ID.json``."""
        needle = f"kernel-{kernel_id}.json"
        for p in self.processes():
            try:
                if any(needle in arg for arg in p.cmdline()):
                    return p.pid
            except self._psutil.Error:
                continue
        raise RuntimeError(f"no process found for kernel {kernel_id}")

    def server_pid(self, user: str) -> int:
        """The process of a learner's Jupyter server (the hub sets JUPYTERHUB_USER in it)."""
        for p in self.processes():
            try:
                if ("jupyterhub.singleuser" in p.cmdline()
                        and p.environ().get("JUPYTERHUB_USER") == user):
                    return p.pid
            except self._psutil.Error:
                continue
        raise RuntimeError(f"no server process found for {user}")

    def own_usage(self) -> dict:
        """Peak memory and CPU seconds so far of the hub and of the proxy."""
        usage = {"hub_mib": peak_mib(self.proc.pid),
                 "hub_cpu_s": cpu_seconds(self.proc.pid, children=False),  # its own only
                 "proxy_mib": 0.0, "proxy_cpu_s": 0.0}
        for p in self.processes():
            try:
                if "configurable-http-proxy" in " ".join(p.cmdline()):
                    usage["proxy_mib"] = peak_mib(p.pid)
                    usage["proxy_cpu_s"] = cpu_seconds(p.pid, children=False)
            except (self._psutil.Error, OSError):
                continue
        return usage

    def __exit__(self, *exc) -> None:
        """SIGTERM to the hub (it stops the servers and the proxy), then anything left over."""
        if self.proc is None:
            return
        self.processes()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for p in self._seen.values():  # servers are in their own sessions: one by one
            try:
                if p.is_running():
                    p.terminate()
            except self._psutil.Error:
                continue
        gone, alive = self._psutil.wait_procs(list(self._seen.values()), timeout=10)
        for p in alive:
            try:
                p.kill()
            except self._psutil.Error:
                pass
        if exc and exc[0] is not None:
            print(f"JupyterHub's log is kept in {self.log}; its last lines:\n{self.tail()}",
                  file=sys.stderr)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


def _message(msg_type: str, content: dict, session: str) -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "session": session,
                       "username": "learner", "version": "5.3",
                       "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
            "parent_header": {}, "metadata": {}, "content": content, "buffers": [],
            "channel": "shell"}


def _decode(frame) -> dict:
    """A message of the kernel websocket (the default JSON protocol; binary when it has
    buffers: a count, offsets, then the JSON message first)."""
    if isinstance(frame, str):
        return json.loads(frame)
    count = int.from_bytes(frame[:4], "big")
    offsets = [int.from_bytes(frame[4 + 4 * i: 8 + 4 * i], "big") for i in range(count)]
    end = offsets[1] if count > 1 else len(frame)
    return json.loads(frame[offsets[0]:end].decode())


def _request(ws, msg_type: str, content: dict, session: str) -> dict:
    """Send one shell request; its reply's content once the kernel is idle again."""
    msg = _message(msg_type, content, session)
    ws.send(json.dumps(msg))
    msg_id, reply, idle = msg["header"]["msg_id"], None, False
    while reply is None or not idle:
        incoming = _decode(ws.recv())
        if incoming.get("parent_header", {}).get("msg_id") != msg_id:
            continue
        kind = incoming["header"]["msg_type"]
        if kind == msg_type.replace("_request", "_reply"):
            reply = incoming["content"]
        elif kind == "status" and incoming["content"]["execution_state"] == "idle":
            idle = True
        elif kind == "input_request":
            raise RuntimeError("a cell asked for input()")
    return reply


class Learner:
    """One learner of the class, talking to the hub and to their server over HTTP."""

    def __init__(self, hub: LocalHub, name: str):
        import requests

        self.hub, self.name = hub, name
        self.http = requests.Session()

    def _ok(self, response, *codes):
        if response.status_code not in codes:
            raise RuntimeError(f"{self.name}: {response.request.method} {response.url} -> "
                               f"{response.status_code} {response.text[:300]}")
        return response

    def join(self) -> float:
        """Created by the teacher, log in with the password, spawn; seconds until ready."""
        hub = self.hub
        self._ok(hub.teacher.post(f"{hub.url}/hub/api/users/{self.name}", timeout=TIMEOUT), 201)
        token = self._ok(self.http.post(
            f"{hub.url}/hub/api/users/{self.name}/tokens", timeout=TIMEOUT,
            json={"auth": {"username": self.name, "password": hub.password},
                  "note": "classroom benchmark"}), 200, 201).json()["token"]
        self.token = token
        self.http.headers["Authorization"] = f"token {token}"
        start = time.perf_counter()
        self._ok(self.http.post(f"{hub.url}/hub/api/users/{self.name}/server",
                                timeout=TIMEOUT), 201, 202)
        while True:
            user = self._ok(self.http.get(f"{hub.url}/hub/api/users/{self.name}",
                                          timeout=TIMEOUT), 200).json()
            server = user.get("servers", {}).get("")
            if server and server.get("ready"):
                break
            if not server and not user.get("pending"):
                raise RuntimeError(f"{self.name}: the server stopped while starting:\n"
                                   f"{hub.tail()}")
            if time.perf_counter() - start > TIMEOUT:
                raise TimeoutError(f"{self.name}: no server after {TIMEOUT} s")
            time.sleep(0.5)
        self.api = f"{hub.url}{server['url'].rstrip('/')}/api"
        spawn_s = time.perf_counter() - start
        self.server_pid = hub.server_pid(self.name)
        self.start_cpu_s = cpu_seconds(self.server_pid, children=False)
        return spawn_s

    def copy_in(self, paths: list[Path]) -> None:
        """The tutorials into the learner's home, as nbgitpuller would put them."""
        self._ok(self.http.put(f"{self.api}/contents/tutorials", json={"type": "directory"},
                               timeout=TIMEOUT), 200, 201)
        for path in paths:
            self._ok(self.http.put(
                f"{self.api}/contents/tutorials/{path.name}", timeout=TIMEOUT,
                json={"type": "notebook", "format": "json",
                      "content": json.loads(path.read_text(encoding="utf-8"))}), 200, 201)

    def run_notebook(self, path: Path) -> dict:
        """Open the notebook (a fresh kernel), run its code cells in order, close it."""
        import websocket

        nb = json.loads(path.read_text(encoding="utf-8"))
        start = time.perf_counter()
        session = self._ok(self.http.post(
            f"{self.api}/sessions", timeout=TIMEOUT,
            json={"path": f"tutorials/{path.name}", "name": path.name, "type": "notebook",
                  "kernel": {"name": "python3"}}), 201).json()
        kernel_id, client_session = session["kernel"]["id"], uuid.uuid4().hex
        try:
            ws_url = self.api.replace("http://", "ws://", 1)
            ws = websocket.create_connection(
                f"{ws_url}/kernels/{kernel_id}/channels?session_id={client_session}",
                header=[f"Authorization: token {self.token}"], timeout=TIMEOUT)
            try:
                _request(ws, "kernel_info_request", {}, client_session)
                code_cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
                for index, cell in enumerate(code_cells):
                    source = "".join(cell["source"]) if isinstance(cell["source"], list) \
                        else cell["source"]
                    reply = _request(ws, "execute_request", {
                        "code": source, "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True},
                        client_session)
                    if reply["status"] != "ok":
                        raise RuntimeError(
                            f"{self.name}: {path.name}, code cell {index + 1}: "
                            f"{reply.get('ename')}: {reply.get('evalue')}")
                pid = self.hub.kernel_pid(kernel_id)
                usage = {"peak_mib": peak_mib(pid), "cpu_s": cpu_seconds(pid),
                         "cells": len(code_cells)}
                assert self.hub._psutil.Process(pid).ppid() == self.server_pid, \
                    f"{self.name}'s kernel was not started by their server"
            finally:
                ws.close()
        finally:
            self._ok(self.http.delete(f"{self.api}/sessions/{session['id']}",
                                      timeout=TIMEOUT), 204)
        usage["wall_s"] = time.perf_counter() - start
        return usage

    def leave(self) -> None:
        """Stop the server (as the learner), then the teacher removes the user."""
        hub = self.hub
        self._ok(self.http.delete(f"{hub.url}/hub/api/users/{self.name}/server",
                                  timeout=TIMEOUT), 202, 204)
        start = time.perf_counter()
        while self._ok(self.http.get(f"{hub.url}/hub/api/users/{self.name}", timeout=TIMEOUT),
                       200).json().get("pending"):
            if time.perf_counter() - start > TIMEOUT:
                raise TimeoutError(f"{self.name}: the server did not stop")
            time.sleep(0.5)
        self._ok(hub.teacher.delete(f"{hub.url}/hub/api/users/{self.name}", timeout=TIMEOUT),
                 204)


def learner(hub: LocalHub, name: str, paths: list[Path], ready: threading.Barrier) -> dict:
    """One learner: join the hub, copy the tutorials in, run each in its own kernel."""
    me = Learner(hub, name)
    try:
        spawn_s = me.join()
        me.copy_in(paths)
        ready.wait(timeout=TIMEOUT)  # then the whole class starts the course together
        start = time.perf_counter()
        runs = [me.run_notebook(p) for p in paths]
        wall_s = time.perf_counter() - start
        server = {"server_mib": peak_mib(me.server_pid),  # its kernels are counted above
                  "server_cpu_s": cpu_seconds(me.server_pid, children=False),
                  "server_start_cpu_s": me.start_cpu_s}
    except BaseException:
        ready.abort()
        if hasattr(me, "api"):
            with contextlib.suppress(Exception):  # the first error is the one to see
                me.leave()
        raise
    me.leave()
    return {"peak_mib": max(r["peak_mib"] for r in runs),
            "all_open_mib": sum(r["peak_mib"] for r in runs),
            "cpu_s": sum(r["cpu_s"] for r in runs), "wall_s": wall_s, "spawn_s": spawn_s,
            "cells": sum(r["cells"] for r in runs), **server, "per_notebook": runs}


def classroom(hub: LocalHub, n: int, paths: list[str], round_name: str) -> list[dict]:
    """N learners at once through the hub; every cell of every tutorial must run."""
    ready = threading.Barrier(n)
    with ThreadPoolExecutor(max_workers=n) as pool:
        futures = [pool.submit(learner, hub, f"{round_name}-{i}", [Path(p) for p in paths],
                               ready) for i in range(n)]
        return [f.result() for f in futures]
