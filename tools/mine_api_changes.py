"""Mine the request-parameter changes of Twilio's OpenAPI descriptions into schema-mutation's data.

A developer tool (not part of any package): it reads a local clone of `twilio/twilio-oai` and
writes `packages/benchmark-schema-mutation/src/benchmark_schema_mutation/data/real-changes.json`,
the data the real split (`--tasks real`) is generated from.

    git clone https://github.com/twilio/twilio-oai /tmp/twilio-oai
    python tools/mine_api_changes.py --repo /tmp/twilio-oai            # refresh: append new changes
    python tools/mine_api_changes.py --repo /tmp/twilio-oai --check    # reproduce the file byte for byte

How it mines:

- the releases are the repository's final release tags (`X.Y.Z`, release candidates left out: they
  sit on a side branch), in version order, each with its commit and the date its `CHANGES.md`
  section gives;
- for each release it diffs every operation of every changed `spec/json/*.json` file against the
  previous release, by file and operation id, over the operation's request parameters (query,
  header and form-body; path parameters are kept in the schemas but never diffed): parameters
  removed (`removedField`), renamed (`renamedField`: a removal and an addition of the same type in
  one operation that one changelog entry names both of), newly required (`newRequired`: added as
  required, or made required), enum values removed (`enumChange`), type or format changes
  (`typeChange`), operations removed (`removedOperation`), and new optional parameters
  (`addedOptional`, the additive changes the split's controls are built from);
- each change is linked to the entry of the release's `CHANGES.md` section that names its
  parameter (or, for a removed operation, its resource), preferring the entry under the change's
  product heading; a change without such an entry is dropped, so every kept change traces to an
  entry, recorded as the release and the entry's position in that section, never its words;
- it keeps facts only: parameter names, types, formats, enums, patterns, item types, required
  sets, operation ids, methods, paths, tags, commits and dates. No description text.

Refresh: run on a newer clone, the tool keeps every change already in the file as it is (ids,
order, bytes), mines only the releases after the file's last one, and appends their changes with
new ids. Mining from scratch gives the same file, because ids follow release order.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parent.parent
DATA_FILE = ROOT / "packages/benchmark-schema-mutation/src/benchmark_schema_mutation/data/real-changes.json"
SOURCE = "https://github.com/twilio/twilio-oai"
SPEC_DIR = "spec/json"
FORM = "application/x-www-form-urlencoded"
#: The schema keys kept for a parameter: facts only.
KEPT_KEYS = ("type", "format", "enum", "pattern", "items")
#: The kinds the miner emits; `addedOptional` is additive, the others break a caller.
BREAKING_KINDS = ("removedField", "renamedField", "newRequired", "enumChange", "typeChange", "removedOperation")
KINDS = (*BREAKING_KINDS, "addedOptional")
#: Additive changes kept per release (a release adds many optional parameters; the split needs a
#: few dozen controls, not hundreds).
ADDITIVE_PER_RELEASE = 1
_RELEASE = re.compile(r"^\[(\d{4}-\d{2}-\d{2})\] Version (\S+)\s*$")
_HEADING = re.compile(r"^\*\*(.+?)\*\*\s*$")
_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")
_WORD = re.compile(r"[A-Za-z0-9]+(?:[_.\-][A-Za-z0-9]+)*")
_CODE = re.compile(r"`([^`]+)`")
#: Plain words (outside backticks, with no `_`, `-`, `.` or inner capital) shorter than this never
#: link a change: `To`, `From` and `State` are English before they are parameter names.
MIN_PLAIN = 6
_REMOVAL = ("remov", "delet", "deprecat", "drop")
#: The verbs an operation id starts with; what follows names the resource.
_VERBS = re.compile(r"^(Create|Fetch|List|Update|Delete)")

Json = dict[str, Any]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


# -- the changelog ----------------------------------------------------------------------------------


def parse_changelog(text: str) -> dict[str, Json]:
    """Version -> {"date", "entries": [{"position", "product", "words"}]}: the entries of each
    release section, numbered from 1 in the order they appear, with the product heading above them
    and the normalised words they contain (never written to the data file)."""
    releases: dict[str, Json] = {}
    current: Optional[Json] = None
    product = ""
    for line in text.splitlines():
        release = _RELEASE.match(line)
        if release:
            current = {"date": release.group(1), "entries": []}
            releases.setdefault(release.group(2), current)
            product = ""
            continue
        if current is None:
            continue
        heading = _HEADING.match(line.strip())
        if heading:
            product = norm(heading.group(1))
        elif line.startswith("- "):
            current["entries"].append(
                {"position": len(current["entries"]) + 1, "product": product, **entry_words(line)}
            )
    return releases


def entry_words(line: str) -> Json:
    """The names an entry gives: `code` (in backticks, or spelt like an identifier: `sink_sid`,
    `If-Match`, `SinkSid`), `plain` (every other word) and whether it says something was removed."""
    code = {singular(norm(w)) for span in _CODE.findall(line) for w in _WORD.findall(span)}
    plain: set[str] = set()
    for word in _WORD.findall(_CODE.sub(" ", line)):
        looks_like_code = bool(re.search(r"[_.\-]|[a-z][A-Z]", word))
        (code if looks_like_code else plain).add(singular(norm(word)))
    return {"code": code, "plain": plain, "removal": any(verb in line.lower() for verb in _REMOVAL)}


def singular(word: str) -> str:
    """`Commands` and `command` name one resource: a trailing `s` is dropped (not from `ss`)."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _names(entry: Json, word: str) -> bool:
    return word in entry["code"] or (len(word) >= MIN_PLAIN and word in entry["plain"])


def norm(word: str) -> str:
    """A name as the changelog may spell it: `SinkSid`, `sink_sid` and `Sink-Sid` all give `sinksid`."""
    return re.sub(r"[^a-z0-9]", "", word.lower())


def link(release: Json, product: str, names: Iterable[str], *, removal: bool = False) -> Optional[int]:
    """The position of the first entry naming every one of `names` (with `removal`, an entry that
    also says something was removed, in which a resource may be named by a plain word), under the
    product's heading when there is one, else under any heading; None when no entry names them."""
    wanted = {singular(norm(name)) for name in names}
    entries = release["entries"]
    for candidates in ([e for e in entries if _same_product(e["product"], product)], entries):
        for entry in candidates:
            if removal and entry["removal"] and all(w in entry["code"] | entry["plain"] for w in wanted):
                return int(entry["position"])
            if not removal and all(_names(entry, w) for w in wanted):
                return int(entry["position"])
    return None


def _same_product(heading: str, product: str) -> bool:
    return bool(heading) and (heading == norm(product) or heading.startswith(norm(product)))


# -- the specs --------------------------------------------------------------------------------------


def product_of(file: str) -> str:
    """`spec/json/twilio_events_v1.json` -> `events`; `twilio_iam_organizations.json` -> `iam`."""
    stem = Path(file).stem.removeprefix("twilio_")
    return re.sub(r"_(v\d+|organizations|scim)$", "", stem)


def api_of(file: str) -> str:
    """`spec/json/twilio_events_v1.json` -> `events_v1` (the tools' name prefix)."""
    return Path(file).stem.removeprefix("twilio_")


def _resolve(spec: Json, schema: Any, depth: int = 0) -> Any:
    if isinstance(schema, dict) and "$ref" in schema and depth < 5:
        target: Any = spec
        for part in str(schema["$ref"]).removeprefix("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        return _resolve(spec, target, depth + 1)
    return schema


def fact_schema(spec: Json, schema: Any) -> Json:
    """The facts of a parameter's schema: type, format, enum, pattern and item type."""
    schema = _resolve(spec, schema)
    if not isinstance(schema, dict):
        return {}
    kept: Json = {}
    for key in KEPT_KEYS:
        if key not in schema:
            continue
        value = schema[key]
        if key == "items":
            value = fact_schema(spec, value)
        elif key == "enum":
            value = [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
        if value not in (None, "", [], {}):
            kept[key] = value
    return kept


def operations(spec: Json) -> dict[str, Json]:
    """Operation id -> {"method", "path", "tags", "properties", "required", "in"} of a spec."""
    found: dict[str, Json] = {}
    paths = spec.get("paths")
    for path, item in sorted(paths.items()) if isinstance(paths, dict) else []:
        for method, op in sorted(item.items()) if isinstance(item, dict) else []:
            if not isinstance(op, dict) or not isinstance(op.get("operationId"), str):
                continue
            properties: Json = {}
            located: dict[str, str] = {}
            required: list[str] = []
            for param in [*(item.get("parameters") or []), *(op.get("parameters") or [])]:
                param = _resolve(spec, param)
                if not isinstance(param, dict) or not isinstance(param.get("name"), str):
                    continue
                name = param["name"]
                properties[name] = fact_schema(spec, param.get("schema"))
                located[name] = str(param.get("in", "query"))
                if param.get("required") is True and name not in required:
                    required.append(name)
            body = _resolve(spec, ((op.get("requestBody") or {}).get("content") or {}).get(FORM, {}).get("schema"))
            if isinstance(body, dict):
                for name, schema in (body.get("properties") or {}).items():
                    properties[name] = fact_schema(spec, schema)
                    located[name] = "body"
                required += [n for n in body.get("required") or [] if n in properties and n not in required]
            found[op["operationId"]] = {
                "method": method,
                "path": path,
                "tags": [t for t in op.get("tags") or [] if isinstance(t, str)],
                "properties": properties,
                "required": required,
                "in": located,
            }
    return found


def _shape(schema: Json) -> tuple[Any, Any, Any]:
    items = schema.get("items") or {}
    return schema.get("type"), schema.get("format"), items.get("type") if isinstance(items, dict) else None


def diff_operation(before: Json, after: Json) -> list[Json]:
    """The raw changes of one operation's request parameters (path parameters are not diffed), in
    a fixed order: by kind, then by parameter name. Renames are decided later, with the changelog."""
    changes: list[Json] = []
    old, new = before["properties"], after["properties"]

    def diffed(op: Json, name: str) -> bool:
        return bool(op["in"].get(name) != "path")

    for name in sorted(old):
        if name not in new and diffed(before, name):
            changes.append({"kind": "removedField", "field": name})
    for name in sorted(new):
        if name in old or not diffed(after, name):
            continue
        kind = "newRequired" if name in after["required"] else "addedOptional"
        changes.append({"kind": kind, "field": name})
    for name in sorted(set(old) & set(new)):
        if not diffed(after, name):
            continue
        if name in after["required"] and name not in before["required"]:
            changes.append({"kind": "newRequired", "field": name, "madeRequired": True})
        removed = [v for v in old[name].get("enum", []) if v not in new[name].get("enum", [])]
        if removed and new[name].get("enum"):
            added = [v for v in new[name]["enum"] if v not in old[name].get("enum", [])]
            changes.append({"kind": "enumChange", "field": name, "removedValues": removed, "addedValues": added})
        if _retyped(old[name], new[name]):
            changes.append({"kind": "typeChange", "field": name})
    return changes


def _retyped(old: Json, new: Json) -> bool:
    """A type change that breaks a caller: another type, another item type, or one format for
    another. A format added to or dropped from a string, or a schema loosened to any value, is not."""
    (old_type, old_format, old_items), (new_type, new_format, new_items) = _shape(old), _shape(new)
    if None in (old_type, new_type):
        return False
    if old_type != new_type:
        return True
    if old_items is not None and new_items is not None and old_items != new_items:
        return True
    return old_format is not None and new_format is not None and old_format != new_format


def pair_renames(raw: list[Json], before: Json, after: Json, release: Json, product: str) -> list[Json]:
    """A removal and an addition of the same shape that one changelog entry names both of become
    one `renamedField` change (`field` the old name, `newField` the new one)."""
    removed = [c for c in raw if c["kind"] == "removedField"]
    added = [c for c in raw if c["kind"] in ("newRequired", "addedOptional") and not c.get("madeRequired")]
    used: set[int] = set()
    renames: list[Json] = []
    for gone in removed:
        for index, new in enumerate(added):
            same = _shape(before["properties"][gone["field"]]) == _shape(after["properties"][new["field"]])
            if index in used or not same:
                continue
            if link(release, product, (gone["field"], new["field"])) is not None:
                used.add(index)
                renames.append({"kind": "renamedField", "field": gone["field"], "newField": new["field"]})
                gone["renamed"] = True
                break
    kept = [c for c in raw if not c.get("renamed") and not (c in added and added.index(c) in used)]
    for change in kept:
        change.pop("renamed", None)
    return renames + kept


def _schema_facts(op: Json) -> Json:
    return {"properties": op["properties"], "required": op["required"]}


#: The operations kept beside a removed one: what its noCall task shows as the current tools.
NEIGHBOURS = 2


def _neighbours(path: str, after_ops: dict[str, Json]) -> list[Json]:
    """The operations of the release after that share the longest path prefix with a removed one
    (any operation of the file when none shares more than the root), at most `NEIGHBOURS`, with their
    facts; none when the release deleted the whole file."""
    parts = path.split("/")

    def shared(other: str) -> int:
        count = 0
        for mine, theirs in zip(parts, other.split("/")):
            if mine != theirs:
                break
            count += 1
        return count

    ranked = sorted(after_ops.items(), key=lambda item: (-shared(item[1]["path"]), item[0]))
    return [
        {"operationId": op_id, "method": op["method"], "path": op["path"], **_schema_facts(op)}
        for op_id, op in ranked[:NEIGHBOURS]
        if shared(op["path"]) >= 1
    ]


def _resource_names(op_id: str, path: str) -> list[str]:
    """What a changelog entry may name a removed operation's resource by: the operation id without
    its verb, then the path's last static segment."""
    segments = [s.removesuffix(".json") for s in reversed(path.split("/")) if s and not s.startswith("{")]
    return [_VERBS.sub("", op_id), *segments[:1]]


def release_changes(
    repo: Path, previous: Json, current: Json, releases: dict[str, Json]
) -> tuple[list[Json], list[Json]]:
    """The linked changes between two releases and the unlinked ones (for the summary line)."""
    release = releases.get(current["tag"])
    if release is None:
        return [], []
    files = [
        f
        for f in git(repo, "diff", "--name-only", previous["commit"], current["commit"], "--", SPEC_DIR).split()
        if f.endswith(".json")
    ]
    linked: list[Json] = []
    unlinked: list[Json] = []
    for file in sorted(files):
        before_spec, after_spec = _spec_at(repo, previous["commit"], file), _spec_at(repo, current["commit"], file)
        if before_spec is None:
            continue
        # A deleted file removed every operation it had.
        before_ops, after_ops = operations(before_spec), operations(after_spec or {})
        product = product_of(file)
        for op_id in sorted(before_ops):
            before = before_ops[op_id]
            common: Json = {"product": product, "api": api_of(file), "file": file, "operationId": op_id}
            if op_id not in after_ops:
                names = _resource_names(op_id, before["path"])
                position = next((p for w in names if (p := link(release, product, [w], removal=True))), None)
                change = {"kind": "removedOperation", **common, "method": before["method"], "path": before["path"]}
                change |= {"tags": before["tags"], "before": _schema_facts(before), "after": None}
                change["remaining"] = _neighbours(before["path"], after_ops)
                (linked if position is not None else unlinked).append({**change, "position": position})
                continue
            after = after_ops[op_id]
            raw = diff_operation(before, after)
            for change in pair_renames(raw, before, after, release, product):
                names = [change["field"], *([change["newField"]] if "newField" in change else [])]
                position = link(release, product, names)
                full = {**change, **common, "method": after["method"], "path": after["path"], "tags": after["tags"]}
                full |= {"before": _schema_facts(before), "after": _schema_facts(after), "position": position}
                (linked if position is not None else unlinked).append(full)
    for change in linked:
        position = change.pop("position")
        change.update(
            fromTag=previous["tag"],
            toTag=current["tag"],
            fromCommit=previous["commit"],
            toCommit=current["commit"],
            releaseDate=release["date"],
            changelog={"file": "CHANGES.md", "release": current["tag"], "position": position},
            breaking=change["kind"] in BREAKING_KINDS,
        )
    return linked, unlinked


def _spec_at(repo: Path, commit: str, file: str) -> Optional[Json]:
    try:
        text = git(repo, "show", f"{commit}:{file}")
    except subprocess.CalledProcessError:
        return None
    loaded = json.loads(text)
    return loaded if isinstance(loaded, dict) else None


def kept_changes(linked: list[Json]) -> list[Json]:
    """Every breaking change of a release, and `ADDITIVE_PER_RELEASE` of its additive ones (drawn by
    a hash of file, operation and parameter, so a refresh draws the same), in their mined order."""
    additive = sorted((c for c in linked if not c["breaking"]), key=_draw_key)[:ADDITIVE_PER_RELEASE]
    return [c for c in linked if c["breaking"] or any(c is a for a in additive)]


def _draw_key(change: Json) -> str:
    return hashlib.sha256(f"{change['file']}/{change['operationId']}/{change['field']}".encode()).hexdigest()


def release_tags(repo: Path) -> list[Json]:
    """The final release tags in version order, each with its commit."""
    tags = [t for t in git(repo, "tag", "--list").split() if _VERSION.match(t)]
    tags.sort(key=lambda t: tuple(int(p) for p in t.split(".")))
    return [{"tag": t, "commit": git(repo, "rev-list", "-n", "1", t).strip()} for t in tags]


# -- the data file ----------------------------------------------------------------------------------


def mine(repo: Path, existing: Optional[Json] = None) -> Json:
    """The data file's content: `existing` kept as it is, with the changes of the releases after its
    last one appended under new ids (everything, from the first release, when there is none)."""
    releases = parse_changelog(git(repo, "show", "HEAD:CHANGES.md"))
    tags = release_tags(repo)
    if not tags:
        raise SystemExit(f"{repo}: no release tags")
    changes: list[Json] = list(existing["changes"]) if existing else []
    start = 0
    if existing:
        last = existing["mined"]["lastTag"]
        names = [t["tag"] for t in tags]
        if last not in names:
            raise SystemExit(f"{repo}: the data file's last release {last} is not a tag of this clone")
        start = names.index(last)
    counted = len(changes)
    for previous, current in zip(tags[start:], tags[start + 1 :]):
        linked, _ = release_changes(repo, previous, current, releases)
        for change in kept_changes(linked):
            counted += 1
            changes.append({"id": f"tw-{counted:04d}", **change})
    first = existing["mined"] if existing else {"firstTag": tags[0]["tag"], "firstCommit": tags[0]["commit"]}
    return {
        "source": SOURCE,
        "licence": "MIT",
        "mined": {
            "firstTag": first["firstTag"],
            "firstCommit": first["firstCommit"],
            "lastTag": tags[-1]["tag"],
            "lastCommit": tags[-1]["commit"],
            "lastReleaseDate": releases.get(tags[-1]["tag"], {}).get("date"),
            "releases": len(tags),
        },
        "changes": changes,
    }


def render(data: Json) -> str:
    """The file's text: one change per line, keys sorted, each line after the first opening with
    the comma, so that a refresh only appends lines and every old line stays byte for byte."""
    head = {key: value for key, value in data.items() if key != "changes"}
    lines = [
        json.dumps(change, sort_keys=True, ensure_ascii=False, separators=(",", ":")) for change in data["changes"]
    ]
    text = json.dumps(head, sort_keys=True, ensure_ascii=False, separators=(",", ":"))[:-1]
    return text + ',"changes":[\n' + "\n,".join(lines) + "\n]}\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/mine_api_changes.py", description=__doc__.split("\n")[0])
    parser.add_argument("--repo", type=Path, required=True, help="a local clone of twilio/twilio-oai")
    parser.add_argument("--out", type=Path, default=DATA_FILE, help="the data file (default: the package's)")
    parser.add_argument("--from-scratch", action="store_true", help="ignore the existing file and mine every release")
    parser.add_argument(
        "--check", action="store_true", help="mine from scratch and compare with --out byte for byte; write nothing"
    )
    args = parser.parse_args(argv)
    existing = None
    if args.out.exists() and not (args.from_scratch or args.check):
        existing = json.loads(args.out.read_text(encoding="utf-8"))
    text = render(mine(args.repo, existing))
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out}: {'reproduced byte for byte' if same else 'DIFFERS from a fresh mine'}", file=sys.stderr)
        return 0 if same else 1
    before = len(existing["changes"]) if existing else 0
    args.out.write_text(text, encoding="utf-8")
    after = text.count('"id":"tw-')
    print(f"wrote {args.out}: {after} changes ({after - before} new)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
