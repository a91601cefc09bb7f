"""`make lab`, the README's way to run the notebooks yourself: JupyterLab
starts in the project's environment, answers on localhost, serves the
chapters, runs kernels that import svmlib, and stops."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
import websocket

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "svmbook-lab-test"
START_TIMEOUT_SECONDS = 120


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


@pytest.mark.slow
def test_make_lab_serves_the_chapters_with_svmlib_importable(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    arguments = (
        "LAB_ARGS=--no-browser --ip=127.0.0.1 "
        f"--port={port} --port-retries=0 "
        f"--IdentityProvider.token={TOKEN}"
    )
    environment = dict(
        os.environ,
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"),
    )
    server = subprocess.Popen(
        ["make", "--no-print-directory", "lab", arguments],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while True:
            assert server.poll() is None, server.stdout.read().decode(
                errors="replace"
            )[-3000:]
            try:
                status = get_json(f"{base}/api/status?token={TOKEN}")
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, (
                    "JupyterLab did not answer"
                )
                time.sleep(0.5)
        assert "started" in status
        with urllib.request.urlopen(
            f"{base}/lab?token={TOKEN}", timeout=10
        ) as response:
            assert (
                response.status == 200 and b"JupyterLab" in response.read()
            )
        chapters = get_json(f"{base}/api/contents/chapters?token={TOKEN}")
        names = {item["name"] for item in chapters["content"]}
        assert {
            path.name for path in (ROOT / "chapters").glob("*.ipynb")
        } <= names
        printed = run_in_new_kernel(
            base,
            "import svmlib, sys; "
            "print(svmlib.__file__); print(sys.executable)",
        )
        module_file, kernel_python = printed.split()
        assert Path(module_file).resolve().parent == ROOT / "svmlib"
        assert (
            Path(kernel_python).resolve() == Path(sys.executable).resolve()
        )
    finally:
        stop(server)
    assert server.returncode is not None


def run_in_new_kernel(base, code):
    """Start a kernel through the server's REST API, run ``code`` in it over
    the kernel's websocket (Jupyter's messaging protocol), and return what
    it printed."""
    request = urllib.request.Request(
        f"{base}/api/kernels?token={TOKEN}",
        data=b"{}",
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        kernel_id = json.loads(response.read())["id"]
    channel = websocket.create_connection(
        f"ws://{base.removeprefix('http://')}/api/kernels/{kernel_id}/channels?token={TOKEN}",
        timeout=60,
    )
    try:
        message_id = uuid.uuid4().hex
        channel.send(
            json.dumps(
                {
                    "header": {
                        "msg_id": message_id,
                        "msg_type": "execute_request",
                        "username": "test",
                        "session": uuid.uuid4().hex,
                        "version": "5.3",
                    },
                    "parent_header": {},
                    "metadata": {},
                    "channel": "shell",
                    "buffers": [],
                    "content": {
                        "code": code,
                        "silent": False,
                        "store_history": False,
                        "user_expressions": {},
                        "allow_stdin": False,
                        "stop_on_error": True,
                    },
                }
            )
        )
        printed = []
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            message = json.loads(channel.recv())
            if message.get("parent_header", {}).get("msg_id") != message_id:
                continue
            kind = message["header"]["msg_type"]
            if kind == "stream":
                printed.append(message["content"]["text"])
            elif kind == "error":
                raise AssertionError(
                    "\n".join(message["content"]["traceback"])
                )
            elif (
                kind == "status"
                and message["content"]["execution_state"] == "idle"
            ):
                return "".join(printed)
        raise AssertionError("the kernel did not finish")
    finally:
        channel.close()


def stop(process):
    """Stop the process group of ``process`` (make and the server it
    started)."""
    for sig, wait in ((signal.SIGTERM, 30), (signal.SIGKILL, None)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    process.wait()


def test_lab_renders_myst_and_folds_what_the_book_folds():
    """jupyterlab-myst is installed, enabled and compatible with this
    JupyterLab (an incompatible extension is listed with an X and may not
    load), and every folded cell of the book is folded in Lab too."""
    listing = subprocess.run(
        [
            str(Path(sys.executable).with_name("jupyter")),
            "labextension",
            "list",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )
    text = listing.stdout + listing.stderr
    line = next(
        (row for row in text.splitlines() if "jupyterlab-myst" in row), ""
    )
    assert "enabled" in line and "OK" in line, text
    assert "not compatible" not in text, text
    for notebook in sorted((ROOT / "chapters").glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            tags = set(cell.get("metadata", {}).get("tags", []))
            if tags & {"hide-input", "hide-cell"}:
                lab = cell["metadata"].get("jupyter", {})
                assert lab.get("source_hidden") is True, notebook.name
