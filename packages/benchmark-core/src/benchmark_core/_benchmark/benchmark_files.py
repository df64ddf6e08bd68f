"""Benchmarks defined in one Python file, run without packaging: `--benchmark path/to/file.py:benchmark`.

The file is imported as a module of its own (not through `sys.path`, so a file named `json.py`
shadows nothing) once per process. What goes wrong is reported against the file: a syntax error or
an exception raised while it runs names the file and the line, and a missing attribute lists the
names the file does define.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import sys
import traceback
from pathlib import Path
from types import ModuleType

from ..errors._base import BenchmarkError, describe_error
from ..errors._usage import BenchmarkFileError
from .definition import Benchmark

#: The attribute read when the spec names no attribute (`file.py` alone).
DEFAULT_ATTRIBUTE = "benchmark"
_ATTRIBUTE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def is_benchmark_file_spec(spec: str) -> bool:
    """Whether `--benchmark` names a file rather than an installed benchmark. Installed ids are
    lowercase letters, digits and '-', so a '/', '\\', ':' or '.py' can only mean a file."""
    return any(ch in spec for ch in "/\\:") or spec.endswith(".py")


def split_benchmark_file_spec(spec: str) -> tuple[Path, str]:
    """`path/to/file.py:name` -> (path, name); `path/to/file.py` -> (path, "benchmark")."""
    head, sep, tail = spec.rpartition(":")
    if sep and head.endswith(".py") and _ATTRIBUTE_RE.match(tail):
        return Path(head), tail
    if spec.endswith(".py"):
        return Path(spec), DEFAULT_ATTRIBUTE
    raise BenchmarkFileError(
        f"--benchmark {spec!r}: expected an installed benchmark id or path/to/file.py[:attribute] "
        "(a Python file, optionally followed by the name of its Benchmark object)"
    )


def load_benchmark_file(spec: str) -> Benchmark:
    """The `Benchmark` object a file spec names. Raises `BenchmarkFileError` naming the file (and
    the line, for an error raised while the file runs)."""
    path, attribute = split_benchmark_file_spec(spec)
    module = _import_file(path.expanduser().resolve())
    if not hasattr(module, attribute):
        raise BenchmarkFileError(f"{path} defines no {attribute!r}; {_defined_names(module)}")
    value = getattr(module, attribute)
    if not isinstance(value, Benchmark):
        raise BenchmarkFileError(
            f"{path}:{attribute} is a {type(value).__name__}, not a benchmark_core.Benchmark "
            "(build it with define_benchmark); " + _defined_names(module)
        )
    return value


@functools.cache
def _import_file(path: Path) -> ModuleType:
    if not path.is_file():
        raise BenchmarkFileError(f"benchmark file not found: {path}")
    name = "benchmark_file_" + re.sub(r"\W", "_", path.stem)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise BenchmarkFileError(f"{path} cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    # Registered before it runs, as an import would be: attrs and dataclasses look their class's
    # module up in sys.modules.
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        del sys.modules[name]
        raise BenchmarkFileError(f"{exc.filename or path}:{exc.lineno}: SyntaxError: {exc.msg}") from None
    except BenchmarkError as exc:
        del sys.modules[name]
        raise BenchmarkFileError(f"{path}:{_line_in(path, exc)}: {exc.code}: {exc.message}") from None
    except Exception as exc:
        del sys.modules[name]
        raise BenchmarkFileError(f"{path}:{_line_in(path, exc)}: {describe_error(exc)}") from None
    return module


def _line_in(path: Path, exc: BaseException) -> str:
    """The line of `path` the exception passed through last (the call into a library, the import
    that failed), or "?" when it never ran through the file."""
    line = "?"
    for frame in traceback.extract_tb(exc.__traceback__):
        if Path(frame.filename) == path and frame.lineno is not None:
            line = str(frame.lineno)
    return line


def _defined_names(module: ModuleType) -> str:
    benchmarks = sorted(k for k, v in vars(module).items() if isinstance(v, Benchmark))
    if benchmarks:
        return "its Benchmark objects: " + ", ".join(benchmarks)
    public = sorted(k for k in vars(module) if not k.startswith("_"))
    return "it defines no Benchmark; its names: " + (", ".join(public) if public else "(none)")
