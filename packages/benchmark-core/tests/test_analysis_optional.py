"""The `analysis` and `ray` extras are optional: importing benchmark_core, its analysis and
distributed packages and every public name loads none of pandas, pyarrow, msgspec or ray, and
without them `export` and the frames fail with exit 1 and the extra's name. Runs in every session
(the libraries are hidden from the child process where they are installed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmark_core import mock_adapter
from benchmark_core.example import benchmark as example
from benchmark_core.wire import dumps

HEAVY = ("pandas", "pyarrow", "msgspec", "ray")

_IMPORTS = """
import sys
import benchmark_core, benchmark_core.analysis, benchmark_core.distributed
for package in (benchmark_core, benchmark_core.analysis, benchmark_core.distributed):
    for name in package.__all__:
        getattr(package, name)
print(" ".join(m for m in ("pandas", "pyarrow", "msgspec", "ray") if m in sys.modules))
"""

# Hide the extras' libraries as an installation without them would: `import pandas` raises ImportError.
_HIDDEN = "import sys\nfor name in ('pandas', 'pyarrow', 'msgspec', 'ray'):\n    sys.modules[name] = None\n"


def test_importing_every_public_name_loads_no_extra_library() -> None:
    done = subprocess.run([sys.executable, "-c", _IMPORTS], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_export_without_the_extra_exits_1_naming_it(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text(dumps(example.run(mock_adapter()), indent=2), encoding="utf-8")
    script = _HIDDEN + "from benchmark_core.cli import main\nmain()\n"
    for fmt in ("parquet", "csv", "jsonl"):
        out = tmp_path / f"rows.{fmt}"
        command = [sys.executable, "-c", script, "export", str(report), "--format", fmt, "--output", str(out)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        assert done.returncode == 1, done.stderr
        assert "the `analysis` extra" in done.stderr and "pip install 'benchmark-core[analysis]'" in done.stderr
        assert "Traceback" not in done.stderr and not out.exists()
    done = subprocess.run([*command, "--json"], capture_output=True, text=True, check=False)
    assert json.loads(done.stdout)["error"]["code"] == "EXTRA_NOT_INSTALLED"


def test_the_sdk_without_the_extra_raises_missing_extra() -> None:
    script = _HIDDEN + (
        "from benchmark_core.errors import MissingExtraError\n"
        "from benchmark_core.analysis import rows_frame, runs_frame\n"
        "for frame in (rows_frame, runs_frame):\n"
        "    try:\n        frame([])\n    except MissingExtraError as exc:\n        print(exc.code)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["EXTRA_NOT_INSTALLED", "EXTRA_NOT_INSTALLED"]
