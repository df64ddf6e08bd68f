"""`benchmark-core new NAME`: scaffold a benchmark package (see `scaffold.py`)."""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import Optional

import click

from .base import command, echo_json


@click.command("new")
@click.argument("name")
@click.option(
    "--directory",
    "-C",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Create the package folder NAME inside this folder.",
)
@click.option(
    "--date",
    "created",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="The creation date written into the provenance (retrieved_at); the same NAME, --date and --seed "
    "give the same files byte for byte.  [default: today, UTC]",
)
@click.option("--seed", type=int, default=None, help="The generator's public seed.  [default: the date, as YYYYMMDD]")
@command(tasks=False, json_help="Print what was created as one JSON document.")
def new_cmd(
    name: str, directory: Path, created: Optional[datetime.datetime], seed: Optional[int], as_json: bool
) -> None:
    """Create a benchmark package NAME: definition, seeded generator with its data generated, grader,
    a tool-use episode, mock policies, summary, provenance, tests and README.

    NAME is the distribution, the benchmark id and the command (lowercase letters, digits, '-'); the
    import name is NAME with '_' for '-'. Then: pip install -e "./NAME[test]" (editable, so that the
    generator writes into the sources) && NAME run --model offline --provider mock.
    """
    from ..packaging._scaffold import scaffold_package

    result = scaffold_package(name, directory, seed=seed, date=created.date() if created is not None else None)
    if as_json:
        echo_json(
            {
                "path": str(result.path),
                "name": result.name,
                "module": result.module,
                "seed": result.seed,
                "date": result.date.isoformat(),
                "files": result.files,
            }
        )
        return
    # pip reads a bare name as a project on the index: a local folder needs a path separator.
    local = str(result.path) if result.path.is_absolute() else f".{os.sep}{result.path}"
    click.echo(
        f"Created {local} ({len(result.files)} files, dated {result.date.isoformat()}; "
        f"data generated with seed {result.seed}). Next:"
    )
    click.echo(f'  pip install -e "{local}[test]"')
    click.echo(f"  {result.name} run --model offline --provider mock")
    click.echo(f"  pytest {local}{os.sep}tests")
