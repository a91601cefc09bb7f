"""Run each chapter notebook top to bottom in a fresh kernel; store outputs.

Run by ``make notebooks`` after ``make export``.  Each notebook runs in its
own new kernel of the interpreter running this script (the kernel nbval's
``--nbval-current-env`` starts), with the notebook's folder as the working
directory, exactly as the tests will run it. ``python tools/run_notebooks.py
chapters/margins.ipynb`` runs only the notebooks named.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from jupyter_client import KernelManager
from nbclient import NotebookClient
from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export import notebooks_in_toc_order  # noqa: E402

TIMEOUT_SECONDS = 600


def run(path: Path) -> float:
    notebook = nbformat.read(path, as_version=4)
    kernel = KernelManager(
        kernel_name=CURRENT_ENV_KERNEL_NAME,
        kernel_spec_manager=NbvalKernelspecManager(),
    )
    client = NotebookClient(
        notebook,
        km=kernel,
        timeout=TIMEOUT_SECONDS,
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    nbformat.write(notebook, path)
    return elapsed


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or notebooks_in_toc_order()
    for path in paths:
        print(f"{path.name}: {run(path):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
