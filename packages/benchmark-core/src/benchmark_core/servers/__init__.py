"""Two of the four surfaces as servers: the HTTP API (`create_app`, `serve`, aiohttp) and the MCP
server (`create_mcp_server`, `start_mcp`, the official `mcp` SDK). Importing this package imports
neither aiohttp nor mcp.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._util.lazy import lazy_attributes

#: The public names, by the module that defines them: the one list (see `benchmark_core`'s docstring).
_EXPORTS = {
    "._http": (
        "create_app",
        "serve",
    ),
    "._mcp": (
        "create_mcp_server",
        "start_mcp",
    ),
}

__getattr__ = lazy_attributes(__name__, _EXPORTS)

# Generated from _EXPORTS by `python tools/sync_exports.py`: what type checkers, IDEs and the API docs read.
if TYPE_CHECKING:
    from ._http import create_app, serve
    from ._mcp import create_mcp_server, start_mcp
__all__ = [
    "create_app",
    "create_mcp_server",
    "serve",
    "start_mcp",
]
# End of the generated block.
