"""tools/sync_guide.py: a template change is one command. Its `--check` names a stale block or
output; without it, the guide's blocks are rewritten from what `benchmark-core new` writes; a file
the guide has no block for is an error, and the guide is left as it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "writing-a-benchmark.md"
SYNC = ROOT / "tools" / "sync_guide.py"
ENVIRONMENT_BLOCK = "letter-bench/src/letter_bench/_environment.py"


def _sync(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SYNC), *args], capture_output=True, text=True, check=False)


def test_a_stale_block_and_a_stale_output_are_found_then_rewritten(tmp_path: Path) -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    call = "        return TOOLS.call(self, name, arguments)\n"
    stale = guide.replace(call, call.replace("\n", "  # a local edit\n"), 1)
    stale = stale.replace("- Score: 50.0%\n", "- Score: 62.5%\n", 1)  # the first run's output, in section 1
    assert stale.count("# a local edit") == 1 and stale.count("62.5%") == 1
    copy = tmp_path / "guide.md"
    copy.write_text(stale, encoding="utf-8")

    checked = _sync("--check", "--guide", str(copy))
    assert checked.returncode == 1, checked.stderr
    assert f"block {ENVIRONMENT_BLOCK} is stale" in checked.stderr
    assert "output of `letter-bench run --model offline --provider mock` is stale" in checked.stderr
    assert "2 block(s) stale" in checked.stderr
    assert copy.read_text(encoding="utf-8") == stale  # --check writes nothing

    synced = _sync("--guide", str(copy))
    assert synced.returncode == 0, synced.stderr
    assert copy.read_text(encoding="utf-8") == guide
    assert _sync("--check", "--guide", str(copy)).returncode == 0


def test_a_file_without_a_block_is_an_error_and_nothing_is_written(tmp_path: Path) -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    start = guide.index(f'```python title="{ENVIRONMENT_BLOCK}"')
    end = guide.index("\n```\n", start) + len("\n```\n")
    copy = tmp_path / "guide.md"
    copy.write_text(guide[:start] + guide[end:], encoding="utf-8")
    done = _sync("--guide", str(copy))
    assert done.returncode == 2
    assert f"no block for {ENVIRONMENT_BLOCK}; blocks for files `new` does not write: none" in done.stderr
    assert copy.read_text(encoding="utf-8") == guide[:start] + guide[end:]
