# Generated from chapters/fast_default.ipynb by tools/export.py. Do not edit: change the notebook, then run `make export`.
"""numba's compiled code, cached where it can be written, and numba
imported only when a compiled function is first used (chapter "Fast by
default")."""

import contextlib
import functools
import os
import stat
import tempfile
import threading
import warnings


def private_cache_dir():
    """A folder of this user's own in the temporary directory, for numba's
    cache when neither the package's folder nor the user's cache folder
    can be written (a read-only install in a container, say); None if it
    cannot be made safely: it must be a real folder of this user that no
    one else can write, since numba loads code from it."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    name = "svmlib-numba" if uid is None else f"svmlib-numba-{uid}"
    path = os.path.join(tempfile.gettempdir(), name)
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        return None
    if uid is not None and (info.st_uid != uid or info.st_mode & 0o022):
        return None
    return path if os.access(path, os.W_OK) else None


@contextlib.contextmanager
def numba_cache_dir(path):
    """numba's cache folder set to ``path`` for the functions decorated
    inside the block (numba reads it when it decorates), and restored."""
    import numba

    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = path
    try:
        yield
    finally:
        numba.config.CACHE_DIR = previous


@functools.cache
def warn_uncached():
    """Said once per process: the compiled code will not be kept."""
    warnings.warn(
        "svmlib found no writable folder for numba's cache (its own "
        "folder, the user's cache folder and the temporary directory are "
        "read-only): its solvers are compiled again in every process, "
        "which costs seconds at the first fit; set NUMBA_CACHE_DIR to a "
        "writable folder to keep them",
        RuntimeWarning,
        stacklevel=4,
    )


def njit(*args, **options):
    """numba.njit, with numba imported when first needed."""
    import numba

    return numba.njit(*args, **options)


def jit_with_cache(function):
    """numba.njit with the compiled code cached on disk: next to the
    module if that folder can be written, else where NUMBA_CACHE_DIR or
    the user's cache folder say (numba's own choices), else in
    private_cache_dir; with no writable place at all, compiled in every
    process (and a warning), never an import error."""
    try:
        return njit(cache=True)(function)
    except RuntimeError:  # numba: "no locator available"
        pass
    path = private_cache_dir()
    if path is not None:
        with numba_cache_dir(path):
            try:
                return njit(cache=True)(function)
            except RuntimeError:
                pass
    warn_uncached()
    return njit(function)


class LazyCompiled:
    """Stands in for a function numba will compile.  At the first call of
    any LazyCompiled, or the first look at an attribute of numba's (py_func,
    stats, ...), compile_all imports numba and makes every one numba's
    dispatcher; until then, importing svmlib does not import numba."""

    def __init__(self, function):
        functools.update_wrapper(self, function)
        self.function, self.compiled = function, None

    def __call__(self, *args, **kwargs):
        if self.compiled is None:
            compile_all()
        return self.compiled(*args, **kwargs)

    def __getattr__(self, name):  # only for what the stand-in lacks
        if name in ("function", "compiled") or name.startswith("__"):
            raise AttributeError(name)
        if self.compiled is None:
            compile_all()
        return getattr(self.compiled, name)


LAZY = []  # every LazyCompiled made so far
COMPILING = threading.Lock()


def put_in_place(namespace):
    """Replace every LazyCompiled in ``namespace`` (a module's globals) by
    its dispatcher: numba compiles a call to another function only if that
    function is numba's when the caller compiles."""
    for name, value in list(namespace.items()):
        if isinstance(value, LazyCompiled):
            namespace[name] = value.compiled


def compile_all():
    """Import numba, make every LazyCompiled its dispatcher
    (jit_with_cache; numba still compiles each at its first call), and put
    the dispatchers in place in the modules that define them."""
    with COMPILING:
        for lazy in LAZY:
            if lazy.compiled is None:
                lazy.compiled = jit_with_cache(lazy.function)
        for lazy in LAZY:
            put_in_place(lazy.function.__globals__)


def cached_jit(function):
    """The decorator of svmlib's compiled functions: a LazyCompiled for
    ``function`` (numba's cached dispatcher, jit_with_cache, once
    compile_all has run)."""
    if LAZY and LAZY[0].compiled is not None:  # numba is in use already
        put_in_place(function.__globals__)
        return jit_with_cache(function)
    lazy = LazyCompiled(function)
    LAZY.append(lazy)
    return lazy
