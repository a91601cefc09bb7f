"""svmlib installed as a dependency: from a wheel into a read-only folder,
imported and trained by a process that cannot write there nor in its home
(a container's unprivileged user), and numba's cache falling back safely
(chapter "Fast by default", svmlib.numba_cache)."""

import os
import shutil
import stat
import subprocess
import sys
import warnings
from pathlib import Path

import numba
import numpy as np
import pytest

from svmlib import numba_cache

ROOT = Path(__file__).resolve().parent.parent
# drop root's power to ignore file permissions, so that a read-only folder
# is read-only for the process too (setpriv, util-linux)
NO_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
TRAIN = """
import numpy as np, svmlib, sys
assert svmlib.__file__.startswith(sys.argv[1]), svmlib.__file__
rng = np.random.default_rng(0)
X = rng.normal(size=(60, 3))
y = (X[:, 0] > 0).astype(int)
print("accuracy", svmlib.SVC().fit(X, y).score(X, y))
"""


# the installed command svmlib-warm-up, then what a new process compiles
WARM_UP = """
import subprocess, sys
command = [sys.argv[1] + "/bin/svmlib-warm-up"]
print(subprocess.run(command, check=True, capture_output=True,
                     text=True).stdout)
"""
FIT_EVERYTHING = """
import sys
import numpy as np
from numba.core.registry import CPUDispatcher
import svmlib
rng = np.random.default_rng(1)
X = rng.normal(size=(200, 4))
y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1)
svmlib.SVC(C=10).fit(X, y)
svmlib.LinearSVC(dual=True).fit(X, y)
svmlib.LinearSVC(penalty="l1", dual=False).fit(X, y)
svmlib.LinearSVC(multi_class="crammer_singer").fit(X, y)
svmlib.LinearSVR(dual=True).fit(X, X[:, 0])
compiled = sorted(
    name
    for module in list(sys.modules.values())
    if getattr(module, "__name__", "").startswith("svmlib")
    for name, function in vars(module).items()
    if isinstance(function, CPUDispatcher)
    and sum(function.stats.cache_misses.values())
)
print("compiled:", compiled)
"""


def make_read_only(path):
    for folder, _, files in os.walk(path):
        for name in files:  # no one writes; scripts stay executable
            file = os.path.join(folder, name)
            os.chmod(file, stat.S_IMODE(os.stat(file).st_mode) & 0o555)
        os.chmod(folder, 0o555)


def unprivileged(command):
    """``command`` as a process that file permissions bind, or None if
    this machine cannot start one (no setpriv, or no right to drop)."""
    if os.geteuid() != 0:
        return command
    if shutil.which("setpriv") is None:
        return None
    probe = subprocess.run([*NO_OVERRIDE, "true"], capture_output=True)
    return [*NO_OVERRIDE, *command] if probe.returncode == 0 else None


@pytest.fixture(scope="module")
def read_only_install(tmp_path_factory):
    """svmlib's wheel, built from a copy of the sources, installed into a
    folder then made read-only."""
    if unprivileged(["true"]) is None:
        pytest.skip("cannot start a process bound by file permissions here")
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source)
    shutil.copytree(
        ROOT / "svmlib",
        source / "svmlib",
        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"),
    )
    wheels = tmp_path_factory.mktemp("wheels")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(source),
        ],
        check=True,
    )
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            *pip,
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            *map(str, wheels.glob("*.whl")),
        ],
        check=True,
    )
    make_read_only(target)
    return target


def run_unprivileged(target, tmp, home, script=TRAIN, cache=None):
    """``script`` run by Python as a process that file permissions bind,
    with ``target`` on its path, and numba's cache in ``cache`` if
    given."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("NUMBA_")
    }
    environment.update(
        PYTHONPATH=str(target), HOME=str(home), TMPDIR=str(tmp)
    )
    if cache is not None:
        environment["NUMBA_CACHE_DIR"] = str(cache)
    command = unprivileged(
        [
            sys.executable,
            "-W",
            "error::RuntimeWarning",
            "-c",
            script,
            str(target),
        ]
    )
    return subprocess.run(
        command, env=environment, capture_output=True, text=True, cwd=tmp
    )


def test_a_read_only_install_imports_trains_and_caches(
    read_only_install, tmp_path
):
    home = tmp_path / "home"
    home.mkdir()
    os.chmod(home, 0o555)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    # the package's folder is read-only for the process: no __pycache__
    touch = subprocess.run(
        unprivileged(["touch", str(read_only_install / "x")]),
        capture_output=True,
    )
    assert touch.returncode != 0
    first = run_unprivileged(read_only_install, tmp, home)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "accuracy" in first.stdout
    caches = list(tmp.glob("svmlib-numba*"))
    assert len(caches) == 1
    assert stat.S_IMODE(caches[0].stat().st_mode) == 0o700
    assert any(caches[0].rglob("*.nbi")), "nothing was cached"
    second = run_unprivileged(read_only_install, tmp, home)
    assert second.returncode == 0, second.stderr[-2000:]
    assert second.stdout == first.stdout


def test_no_writable_place_compiles_uncached_with_one_warning(monkeypatch):
    def refusing_njit(*args, cache=False, **options):
        if cache:
            raise RuntimeError(
                "cannot cache function: no locator available"
            )
        return numba.njit(*args, **options)

    monkeypatch.setattr(numba_cache, "njit", refusing_njit)
    monkeypatch.setattr(numba_cache, "private_cache_dir", lambda: None)
    numba_cache.warn_uncached.cache_clear()
    with pytest.warns(RuntimeWarning, match="no writable folder"):
        first = numba_cache.jit_with_cache(lambda x: x + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        second = numba_cache.jit_with_cache(lambda x: 2 * x)  # said once
    assert first(1) == 2 and second(np.float64(3)) == 6.0
    numba_cache.warn_uncached.cache_clear()


def words_printed_by(script):
    """What ``script`` prints, split into words, run in a new process
    (which must succeed)."""
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.split()


def test_importing_svmlib_does_not_import_numba_until_a_fit():
    script = (
        "import sys, numpy as np, svmlib\n"
        "print('numba' in sys.modules)\n"
        "X = np.arange(20.0).reshape(10, 2); y = np.arange(10) % 2\n"
        "svmlib.SVC().fit(X, y)\n"
        "print('numba' in sys.modules)\n"
    )
    assert words_printed_by(script) == ["False", "True"]


def test_stand_ins_that_call_each_other_compile_in_place():
    """What a notebook does: compiled functions defined in one namespace,
    one calling the other, first used after both are defined (in a new
    process, where nothing has made numba's dispatchers yet)."""
    script = (
        "from numba.core.registry import CPUDispatcher\n"
        "from svmlib.numba_cache import LazyCompiled, cached_jit\n"
        "@cached_jit\n"
        "def inner(x):\n"
        "    return 2.0 * x\n"
        "@cached_jit\n"
        "def outer(x):\n"
        "    return inner(x) + 1.0\n"
        "print(isinstance(inner, LazyCompiled), outer(3.0),\n"
        "      isinstance(inner, CPUDispatcher))\n"
    )
    assert words_printed_by(script) == ["True", "7.0", "True"]


def test_a_folder_others_can_write_is_not_used(tmp_path, monkeypatch):
    if not hasattr(os, "getuid"):
        pytest.skip("no user ids here")
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(tmp_path))
    shared = tmp_path / f"svmlib-numba-{os.getuid()}"
    shared.mkdir()
    os.chmod(shared, 0o777)
    assert numba_cache.private_cache_dir() is None
    os.chmod(shared, 0o700)
    assert numba_cache.private_cache_dir() == str(shared)


# import name -> distribution name, where they differ
DISTRIBUTIONS = {"sklearn": "scikit-learn"}


def test_the_declared_dependencies_are_what_svmlib_imports():
    """Every third-party package an svmlib module imports is declared in
    pyproject.toml, and every declared one is imported."""
    import ast
    import tomllib

    from packaging.requirements import Requirement

    imported = set()
    for module in (ROOT / "svmlib").rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Import):
                imported |= {
                    alias.name.split(".")[0] for alias in node.names
                }
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                imported.add(node.module.split(".")[0])
    third_party = {
        DISTRIBUTIONS.get(name, name)
        for name in imported - set(sys.stdlib_module_names) - {"svmlib"}
    }
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "project"
    ]
    declared = {Requirement(r).name for r in project["dependencies"]}
    assert third_party == declared
    extras = project["optional-dependencies"]["plotting"]
    assert {Requirement(r).name for r in extras} == {"matplotlib"}


def test_after_warm_up_a_new_process_compiles_nothing(
    read_only_install, tmp_path
):
    home, tmp, cache = (
        tmp_path / name for name in ("home", "tmp", "cache")
    )
    for folder in (home, tmp, cache):
        folder.mkdir()
    os.chmod(home, 0o555)
    cold = run_unprivileged(
        read_only_install, tmp, home, FIT_EVERYTHING, tmp_path / "empty"
    )
    assert cold.returncode == 0, cold.stderr[-2000:]
    assert "signed_smo" in cold.stdout  # without it, the fits compile
    warm = run_unprivileged(read_only_install, tmp, home, WARM_UP, cache)
    assert warm.returncode == 0, warm.stderr[-2000:]
    assert "compiled solvers are cached" in warm.stdout
    after = run_unprivileged(
        read_only_install, tmp, home, FIT_EVERYTHING, cache
    )
    assert after.returncode == 0, after.stderr[-2000:]
    assert after.stdout.strip() == "compiled: []"
