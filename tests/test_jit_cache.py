"""The kernel cache directory: versioned by the kernels' source, old versions pruned."""
import os

from boardsim import _jit


def test_cache_directory_is_named_by_the_kernel_source_hash():
    if _jit.CACHE_ENABLED:
        assert _jit.CACHE_DIR.name == f"boardsim-{_jit.kernel_source_hash()}"


def test_old_cache_versions_are_pruned_but_recent_ones_kept(tmp_path):
    current = tmp_path / "boardsim-current"
    current.mkdir()
    now = 2_000_000_000.0                 # a fixed instant: the test never reads the clock
    ages_days = {"a": 0.1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7}
    for name, days in ages_days.items():
        d = tmp_path / f"boardsim-{name}"
        d.mkdir()
        os.utime(d, (now - days * 86_400, now - days * 86_400))
    (tmp_path / "unrelated").mkdir()
    _jit._prune_old_versions(current, keep=4, idle_seconds=86_400, now=now)
    left = sorted(p.name for p in tmp_path.iterdir())
    # the four most recently used versions stay (even if idle), older idle ones go, others untouched
    assert left == ["boardsim-a", "boardsim-b", "boardsim-c", "boardsim-current", "boardsim-d", "unrelated"]
