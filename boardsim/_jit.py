"""One switch for numba's on-disk cache, versioned by the kernels' source.

Numba checks only the timestamp of the file that holds a cached function, so a kernel whose callee in
another module changed would load stale machine code. The cache directory therefore carries a hash of
every kernel source file (`*_nb.py` and rng.py) in the package: any edit gets a fresh directory.

BOARDSIM_JIT_CACHE=0 turns the cache off. NUMBA_CACHE_DIR, if set, is the base directory; otherwise
~/.cache/boardsim/numba. An unwritable cache directory is reported at import, not as a late crash.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

import numba

from .errors import BoardsimError

_PACKAGE = Path(__file__).resolve().parent


def kernel_source_hash(folder: Path | None = None) -> str:
    """Hash of the kernel sources: every `*_nb.py` under `folder` (default: the whole package)
    plus rng.py. A game's own folder gives that game's code version for the result store."""
    digest = hashlib.sha256()
    root = _PACKAGE if folder is None else Path(folder).resolve()
    for path in sorted(root.rglob("*_nb.py")) + [_PACKAGE / "rng.py"]:
        digest.update(path.relative_to(_PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _prune_old_versions(current: Path, keep: int = 4, idle_seconds: float = 86_400,
                        now: float | None = None) -> None:
    """Each kernel edit gets a fresh ~20 MB cache directory; drop old versions that nobody has
    used for a day, keeping the few most recent (a cache is only ever a saving, never needed)."""
    now = time.time() if now is None else now
    os.utime(current, (now, now))
    others = sorted((p for p in current.parent.glob("boardsim-*") if p.is_dir() and p != current),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in others[keep:]:
        if now - old.stat().st_mtime > idle_seconds:
            shutil.rmtree(old, ignore_errors=True)


CACHE_ENABLED = os.environ.get("BOARDSIM_JIT_CACHE", "1") != "0"

if CACHE_ENABLED:
    _base = Path(os.environ.get("NUMBA_CACHE_DIR") or Path.home() / ".cache" / "boardsim" / "numba")
    CACHE_DIR = _base / f"boardsim-{kernel_source_hash()}"
    try:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        probe = CACHE_DIR / ".write-test"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise BoardsimError(
            f"numba cache directory {CACHE_DIR} is not writable ({exc.strerror}); "
            "set NUMBA_CACHE_DIR to a writable directory or BOARDSIM_JIT_CACHE=0"
        ) from None
    # The cache locator reads this when each @njit(cache=True) function is decorated.
    numba.config.CACHE_DIR = str(CACHE_DIR)
    _prune_old_versions(CACHE_DIR)
else:
    CACHE_DIR = None


def cache_is_warm() -> bool:
    """Whether compiled kernels for this source version are already on disk."""
    return CACHE_DIR is not None and any(CACHE_DIR.rglob("*.nbi"))


def njit(*args, **kwargs):
    """numba.njit with the project's cache setting."""
    kwargs.setdefault("cache", CACHE_ENABLED)
    return numba.njit(*args, **kwargs)
