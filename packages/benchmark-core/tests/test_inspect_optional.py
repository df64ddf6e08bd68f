"""Inspect AI is an optional extra: nothing public in benchmark-core imports it. Runs in every test
session; it matters most in `nox -s inspect`, where inspect_ai is installed."""

from __future__ import annotations

import subprocess
import sys

# Every public name and every module, except the three that exist for the extra.
_SCRIPT = """
import importlib, pkgutil, sys
import benchmark_core
for name in benchmark_core.__all__:
    getattr(benchmark_core, name)
extra = {"benchmark_core.inspect_task", "benchmark_core.example.inspect_tasks", "benchmark_core.testing.inspect_eval"}
imported = []
def walk(package):
    # pkgutil.walk_packages would import the extra's package itself to look inside it
    for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if module.name in extra or module.name.endswith("__main__"):
            continue
        loaded = importlib.import_module(module.name)
        imported.append(module.name)
        if module.ispkg:
            walk(loaded)
walk(benchmark_core)
assert len(imported) > 30, imported
print("inspect_ai" in sys.modules, len(imported))
"""


def test_nothing_public_in_benchmark_core_imports_inspect_ai() -> None:
    finished = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True, check=False)
    assert finished.returncode == 0, finished.stderr
    loaded, count = finished.stdout.split()
    assert loaded == "False", f"importing benchmark_core's {count} modules imported inspect_ai"
