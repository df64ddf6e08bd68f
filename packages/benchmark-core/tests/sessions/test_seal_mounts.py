"""Which kept folders the seal mounts again: only those a private folder (an empty tmpfs) would
hide, and not one inside another such mount, unless a private folder lies between them."""

from __future__ import annotations

from pathlib import Path

from benchmark_core.agents._sandbox import _rebound

PRIVATE = [Path("/tmp"), Path("/home/u"), Path("/home/u/project")]


def test_only_kept_folders_a_private_folder_hides_are_mounted_again() -> None:
    keep = [
        Path("/usr/lib/python3.11"),  # visible through the read-only `/`: no mount
        Path("/home/u/.pyenv/versions/3.11"),  # under HOME's tmpfs
        Path("/home/u/.pyenv/versions/3.11/lib/python3.11"),  # inside the mount above
        Path("/home/u/project/.venv"),  # under the working folder's tmpfs, which is below HOME's
        Path("/home/u/project"),  # a private folder itself stays private
    ]
    assert set(_rebound(keep, PRIVATE)) == {Path("/home/u/.pyenv/versions/3.11"), Path("/home/u/project/.venv")}


def test_a_private_folder_between_two_kept_ones_needs_both_mounts() -> None:
    keep = [Path("/home/u/venv"), Path("/home/u/venv/work/src")]
    private = [Path("/home/u"), Path("/home/u/venv/work")]  # the working folder inside a kept venv
    assert _rebound(keep, private) == keep
