"""An agent command's defaults and choices, in a module of their own so that `run`'s options can
show them without loading the command and its seal (what a run of a model never needs)."""

from __future__ import annotations

#: The choices of `--agent-sandbox` (and a sweep's `sandbox`).
SANDBOXES = ("bwrap", "none")
#: Default wall-clock limit of one agent process, in seconds (`--agent-timeout`).
DEFAULT_TIMEOUT = 600.0
#: Default data-memory limit of each agent process, in bytes (`--agent-memory`).
DEFAULT_MEMORY = 4 * 1024**3
#: Default limit on the processes alive at once in one agent's seal (`--agent-processes`).
DEFAULT_PROCESSES = 256
