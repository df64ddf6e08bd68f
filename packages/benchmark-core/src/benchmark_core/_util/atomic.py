"""Writing a file whole or not at all: reports, a run's other output files, response-cache entries.

`write_atomic` writes a temporary file in the target's own folder, fsyncs it and renames it over the
target, so a full disk or a killed process leaves the previous file (or none), never half of one.
The temporary file is created with mode 0666, so the kernel applies the process's umask as it does
for any file an editor or `open()` creates (0644 under the usual umask 022), rather than the 0600 of
`tempfile.mkstemp`, which would make every report unreadable to the rest of a shared team.

A temporary file is named `.<target name>.<8 hex digits>.tmp`: hidden, so no reader of a folder
takes one left by a killed process for a report or a cache entry.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def temporary_glob(target_glob: str) -> str:
    """The glob of the temporary files a killed `write_atomic` may leave for targets matching
    `target_glob`."""
    return f".{target_glob}.*.tmp"


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all (see the module docstring); `OSError` on failure,
    with no temporary file left behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    fd, tmp = _temporary(path)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _temporary(path: Path) -> tuple[int, Path]:
    """A new file beside `path`, created with mode 0666 (the umask applies), open for writing."""
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
