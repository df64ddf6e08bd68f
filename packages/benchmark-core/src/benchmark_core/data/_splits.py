"""The command line every benchmark's generator shares: which split to write, from which seed, where.

The rules are the same for every benchmark, so they live here once:
- a committed split (`public`, or another one the package ships, such as `extended`) is always written
  from the public seed, because the package's data/ and PROVENANCE.md describe that seed only;
- a hidden split needs its own explicit seed, never the public one (that would write the public tasks
  again under other ids), and it goes to `.hidden/` with a `.gitignore` that keeps it out of git. A
  benchmark may have several hidden splits (`hidden`, and `hidden-full` held out from a full split):
  each follows these rules;
- a committed split is written into the package's source tree, never into an installed copy: run
  from a copy that pip installed (not editable), the generator would rewrite files in site-packages
  and leave the source's data/ as it was, so it refuses and names the fix (`pip install -e`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Optional

HIDDEN = "hidden"
HIDDEN_DIR = Path(".hidden")
HIDDEN_GITIGNORE = "# A held-out split written by the generator: keep it out of version control.\n*\n"

#: `render(split, seed)` returns the files of that split: {file name: text}.
SplitRenderer = Callable[[str, int], Mapping[str, str]]


def split_generator_main(
    argv: Optional[Sequence[str]],
    *,
    prog: str,
    description: str,
    public_seed: int,
    data_dir: Path,
    render: SplitRenderer,
    committed_splits: Sequence[str] = ("public",),
    hidden_splits: Sequence[str] = (HIDDEN,),
) -> list[Path]:
    """Parse `--split`, `--seed` and `--out`, apply the rules above (a usage error exits 2 before
    anything is written), write the files `render` returns and say so on stderr. Returns the paths."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--split", choices=(*committed_splits, *hidden_splits), default=committed_splits[0])
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help=f"the committed splits use {public_seed}; required for --split {' and '.join(hidden_splits)}",
    )
    parser.add_argument(
        "--out", type=Path, default=None, help=f"output folder (default: data/, or {HIDDEN_DIR}/ for a hidden split)"
    )
    args = parser.parse_args(argv)
    hidden = args.split in hidden_splits
    if hidden:
        if args.seed is None:
            parser.error(f"--split {args.split} needs an explicit --seed (keep it private)")
        if args.seed == public_seed:
            parser.error(f"--split {args.split} cannot use the public seed {public_seed}; choose a private one")
        seed, out = args.seed, args.out or HIDDEN_DIR
    else:
        if args.seed not in (None, public_seed):
            parser.error(f"the {args.split} split always uses seed {public_seed}; use --split hidden for another seed")
        if args.out is None:
            refusal = installed_copy_refusal(data_dir)
            if refusal is not None:
                parser.error(refusal)
        seed, out = public_seed, args.out or data_dir
    files = dict(render(args.split, seed))
    if hidden and not (out / ".gitignore").exists():
        files[".gitignore"] = HIDDEN_GITIGNORE  # an existing one is the user's: left alone
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
        print(f"wrote {path}", file=sys.stderr)
    return written


def installed_copy_refusal(data_dir: Path) -> Optional[str]:
    """Why `data_dir` is no place to write committed data (it is in a copy pip installed, not in the
    package's sources), with the fix; None when it is in a source tree (or an editable install's)."""
    package = data_dir.resolve().parent
    folder = package.parent
    records = sorted(folder.glob(f"{package.name}-*.dist-info"))
    if not records and folder.name not in ("site-packages", "dist-packages"):
        return None
    source = _installed_from(records[0]) if records else None
    fix = f"pip install -e {source}" if source is not None else "pip install -e PATH/TO/THE/PROJECT"
    return (
        f"{data_dir} is in an installed copy of {package.name}, not in its source: the source's data/ would "
        f"not change. Install the project editable ({fix}) and run this again, or give --out FOLDER"
    )


def _installed_from(dist_info: Path) -> Optional[str]:
    """The local folder pip installed a distribution from (its direct_url.json), if it says."""
    import json
    import shlex
    from urllib.parse import unquote, urlparse

    try:
        info = json.loads((dist_info / "direct_url.json").read_text(encoding="utf-8"))
        url = info["url"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    parsed = urlparse(url) if isinstance(url, str) else None
    if parsed is None or parsed.scheme != "file" or "dir_info" not in info:
        return None  # an archive (a wheel, an sdist) or an index: no source folder to point to
    return shlex.quote(unquote(parsed.path))
