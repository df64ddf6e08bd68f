"""Deprecated: moved to `benchmark_core.adapters._ratelimits` (see `_moved`)."""

from ._moved import moved

__getattr__ = moved(__name__, "benchmark_core.adapters._ratelimits")
