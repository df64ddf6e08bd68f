"""The versioned file store: files with every version (None content is a deletion), and the tools'
reads and writes on them."""

from __future__ import annotations

from typing import Any, Optional

from benchmark_core import JsonObject, ToolRefusal
from benchmark_core.episodes import CONFLICT, NOT_FOUND

from .._world import FileOp, FileState, FileVersion, StoredFile, file_state, line_changes
from .session import SESSION_ACTOR, AuditRow, SessionClock, audit_entry, who


class FileStore:
    """Files by path, each the list of its versions (the last one is current)."""

    def __init__(self, files: list[StoredFile], clock: SessionClock) -> None:
        self._files = {f.path: list(f.versions) for f in files}
        self._clock = clock

    def current(self) -> dict[str, FileState]:
        return {path: file_state(versions[-1]) for path, versions in self._files.items()}

    def __contains__(self, path: object) -> bool:
        return path in self._files

    def audit_rows(self) -> list[AuditRow]:
        rows: list[AuditRow] = []
        for path, versions in self._files.items():
            for i, version in enumerate(versions):
                change = _change_summary(versions[i - 1].content if i else None, version)
                entry = audit_entry(version.at, version.actor, "files", path, version.op, version.ticket, change)
                rows.append(((version.at, 1, path, i), entry))
        return rows

    def _versions(self, path: str) -> list[FileVersion]:
        versions = self._files.get(path)
        if versions is None:
            raise ToolRefusal(NOT_FOUND, f"no file {path!r}; list_files shows every path")
        return versions

    def _version(self, path: str, number: int) -> FileVersion:
        versions = self._versions(path)
        if number > versions[-1].version:
            raise ToolRefusal(NOT_FOUND, f"{path} has versions 1 to {versions[-1].version}, not {number}")
        return versions[number - 1]

    # -- reads ------------------------------------------------------------------------------------

    def list(self) -> JsonObject:
        files = []
        for path, versions in sorted(self._files.items()):
            content = versions[-1].content
            files.append(
                {
                    "path": path,
                    "version": versions[-1].version,
                    "deleted": content is None,
                    "lines": None if content is None else len(content.splitlines()),
                }
            )
        return {"files": files}

    def read(self, path: str, number: Optional[int]) -> JsonObject:
        if number is not None:
            chosen = self._version(path, number)
            return {"path": path, "version": number, "deleted": chosen.content is None, "content": chosen.content}
        latest = self._versions(path)[-1]
        return {
            "path": path,
            "version": latest.version,
            "deleted": latest.content is None,
            "content": latest.content,
            "lastChange": {"version": latest.version, **who(latest)},
        }

    def history(self, path: str) -> JsonObject:
        versions = self._versions(path)
        changes: list[dict[str, Any]] = [
            {"version": v.version, **who(v), "changes": line_changes(versions[i - 1].content if i else None, v.content)}
            for i, v in enumerate(versions)
        ]
        return {"path": path, "versions": changes}

    # -- writes -----------------------------------------------------------------------------------

    def _write(self, path: str, op: FileOp, content: str) -> JsonObject:
        versions = self._versions(path)
        version = FileVersion(
            version=versions[-1].version + 1, at=self._clock.stamp(), actor=SESSION_ACTOR, op=op, content=content
        )
        versions.append(version)
        return {"path": path, "version": version.version, "content": content}

    def _live_content(self, path: str) -> str:
        content = self._versions(path)[-1].content
        if content is None:
            raise ToolRefusal(CONFLICT, f"{path} is deleted; restore_file_version brings a version back")
        return content

    def write(self, path: str, content: str) -> JsonObject:
        if self._live_content(path) == content:
            raise ToolRefusal(CONFLICT, f"{path} already has that content; nothing was written")
        return self._write(path, "write", content)

    def edit(self, path: str, find: str, replace: str) -> JsonObject:
        content = self._live_content(path)
        count = content.count(find)
        if count != 1:
            where = "does not occur" if count == 0 else f"occurs {count} times"
            raise ToolRefusal(CONFLICT, f"`find` {where} in {path}; it must match exactly once")
        if find == replace:
            raise ToolRefusal(CONFLICT, "`find` and `replace` are the same; nothing was written")
        return self._write(path, "edit", content.replace(find, replace))

    def restore_version(self, path: str, number: int) -> JsonObject:
        content = self._version(path, number).content
        if content is None and self._versions(path)[0].op == "purge":
            raise ToolRefusal(CONFLICT, f"{path} was deleted for good; no earlier version of it was kept")
        if content is None:
            raise ToolRefusal(CONFLICT, f"version {number} of {path} is a deletion; pick a version with content")
        if self._versions(path)[-1].content == content:
            raise ToolRefusal(CONFLICT, f"{path} already has the content of version {number}; nothing was written")
        return self._write(path, "restore", content)


def _change_summary(before: Optional[str], version: FileVersion) -> str:
    if version.op == "purge":
        return "deleted the file for good: its earlier versions are gone"
    if version.content is None:
        return "deleted the file"
    changes = line_changes(before, version.content)
    if before is None:
        verb = "created the file" if version.op == "create" else "brought the file back"
        return f"{verb} ({len(changes)} lines)"
    shown = changes[:6]
    more = f" | ... {len(changes) - 6} more changed lines" if len(changes) > 6 else ""
    return " | ".join(shown) + more if shown else "no line changed"
