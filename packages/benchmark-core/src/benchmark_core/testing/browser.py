"""The system's Chromium for Playwright, in tests (through pytest-playwright) and in the scripts of
tools/ that screenshot or time the results browser.

    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**launch_options())

The browser is the system's (`$CHROMIUM`, else `chromium`, `chromium-browser`, `google-chrome`...
on PATH), so nothing is downloaded (no `playwright install`); it starts headless with no network
features of its own. `ChromiumMissing` names what to install when none is found. pytest-playwright's
fixtures (`page`, `browser`) use it once a conftest imports `browser_type_launch_args` from
`benchmark_core.testing.browser_fixtures`.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

__all__ = ["CHROMIUM_ARGS", "ChromiumMissing", "find_chromium", "launch_options"]

#: Flags besides those Playwright passes itself: no background traffic (updates, sync, QUIC probes)
#: from a browser that should only ever talk to 127.0.0.1 or read file://.
CHROMIUM_ARGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-gpu",
    "--hide-scrollbars",
    "--mute-audio",
)
_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


class ChromiumMissing(Exception):
    """No Chromium or Chrome executable was found."""


def find_chromium() -> str:
    """The browser executable: `$CHROMIUM` when set, else the first of the usual names on PATH."""
    given = os.environ.get("CHROMIUM")
    if given:
        found = shutil.which(given)
        if found is None:
            raise ChromiumMissing(f"$CHROMIUM is {given!r}, which is not an executable")
        return found
    for name in _NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise ChromiumMissing(
        "no Chromium found (looked for $CHROMIUM and " + ", ".join(_NAMES) + " on PATH); "
        "install it, e.g. `apt-get install -y chromium` on Debian (`bash tools/gate.sh` does this)"
    )


def launch_options(*, headless: bool = True) -> dict[str, Any]:
    """Keyword arguments for Playwright's `chromium.launch()`: the system browser and its flags."""
    # Chromium will not start as root (containers, CI) with its sandbox on.
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    args = [*CHROMIUM_ARGS, *(["--no-sandbox"] if root else [])]
    return {"executable_path": find_chromium(), "headless": headless, "args": args}
