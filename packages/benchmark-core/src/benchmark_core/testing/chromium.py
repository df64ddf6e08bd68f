"""Headless Chromium driven over the Chrome DevTools Protocol, for tests that check what a browser
renders (the HTML report, the `serve` page) and for scripts that time it.

    async with Chromium.launch() as browser:
        await browser.open("file:///tmp/report.html")
        rows = await browser.evaluate("document.querySelectorAll('tbody.task').length")
        await browser.screenshot(Path("artifacts/report.png"))

The browser is the system's (`chromium`, `chromium-browser`, `google-chrome`..., or `$CHROMIUM`),
started with a throwaway profile and no network features, and spoken to through aiohttp's websocket
client. `ChromiumMissing` names what to install when none is found.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Optional

import aiohttp

__all__ = ["CHROMIUM_FLAGS", "Chromium", "ChromiumError", "ChromiumMissing", "find_chromium"]

#: How the browser is started, besides its profile folder and debugging port.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--hide-scrollbars",
    "--mute-audio",
)
_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
_START_TIMEOUT = 60.0


class ChromiumError(Exception):
    """The browser failed to start, or a DevTools command failed."""


class ChromiumMissing(ChromiumError):
    """No Chromium or Chrome executable was found."""


def find_chromium() -> str:
    """The browser executable: `$CHROMIUM` when set, else the first of the usual names on PATH."""
    given = os.environ.get("CHROMIUM")
    if given:
        if shutil.which(given) is None:
            raise ChromiumMissing(f"$CHROMIUM is {given!r}, which is not an executable")
        return given
    for name in _NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise ChromiumMissing(
        "no Chromium found (looked for $CHROMIUM and " + ", ".join(_NAMES) + " on PATH); "
        "install it, e.g. `apt-get install -y chromium` on Debian (`bash tools/gate.sh` does this)"
    )


class Chromium:
    """One headless browser with one page. Use `Chromium.launch()`."""

    def __init__(self, process: asyncio.subprocess.Process, socket: aiohttp.ClientWebSocketResponse[bool]) -> None:
        self._process = process
        self._socket = socket
        self._ids = itertools.count(1)
        self._events: list[dict[str, Any]] = []

    @classmethod
    @contextlib.asynccontextmanager
    async def launch(cls, width: int = 1280, height: int = 900) -> AsyncIterator[Chromium]:
        executable = find_chromium()
        # Chromium's helper processes may still be writing to the profile as the folder goes.
        with (
            tempfile.TemporaryDirectory(prefix="chromium-", ignore_cleanup_errors=True) as tmp,
            (Path(tmp) / "stderr.log").open("wb") as log,
        ):
            profile = Path(tmp) / "profile"
            process = await asyncio.create_subprocess_exec(
                executable,
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                "--remote-debugging-port=0",
                f"--window-size={width},{height}",
                "about:blank",
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=log,
            )
            try:
                port = await _debugging_port(profile, process, Path(log.name))
                async with aiohttp.ClientSession() as session:
                    page = await _page_socket_url(session, port)
                    async with session.ws_connect(page, max_msg_size=0) as socket:
                        browser = cls(process, socket)
                        await browser.send("Page.enable")
                        await browser.send("Runtime.enable")
                        await browser.send(
                            "Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                        )
                        yield browser
            finally:
                if process.returncode is None:
                    process.terminate()
                    try:
                        await asyncio.wait_for(process.wait(), 10)
                    except asyncio.TimeoutError:
                        process.kill()
                        await process.wait()

    async def send(self, method: str, params: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        """Send one DevTools command and return its result; events that arrive meanwhile are kept."""
        command_id = next(self._ids)
        await self._socket.send_str(json.dumps({"id": command_id, "method": method, "params": params or {}}))
        while True:
            message = await self._receive()
            if message.get("id") == command_id:
                if "error" in message:
                    raise ChromiumError(f"{method}: {message['error'].get('message', message['error'])}")
                result: dict[str, Any] = message.get("result", {})
                return result
            self._events.append(message)

    async def wait_for_event(self, method: str, timeout: float = 60.0) -> dict[str, Any]:
        """The first event named `method` (kept from earlier, or still to come)."""
        deadline = time.monotonic() + timeout
        while True:
            for index, event in enumerate(self._events):
                if event.get("method") == method:
                    del self._events[index]
                    return event
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ChromiumError(f"no {method} within {timeout:g}s")
            self._events.append(await asyncio.wait_for(self._receive(), remaining))

    async def open(self, url: str) -> None:
        """Navigate and wait until the page's load event (scripts have run)."""
        self._events = [e for e in self._events if e.get("method") != "Page.loadEventFired"]
        navigated = await self.send("Page.navigate", {"url": url})
        if navigated.get("errorText"):
            raise ChromiumError(f"cannot open {url}: {navigated['errorText']}")
        await self.wait_for_event("Page.loadEventFired")

    async def follow(self, expression: str) -> None:
        """Run JavaScript that navigates (a click on a link) and wait for the next page's load event."""
        self._events = [e for e in self._events if e.get("method") != "Page.loadEventFired"]
        await self.evaluate(expression)
        await self.wait_for_event("Page.loadEventFired")

    def events(self, method: str) -> list[dict[str, Any]]:
        """The events named `method` received so far (kept until read), e.g. `Network.requestWillBeSent`
        after `send("Network.enable")`; reading them removes them."""
        found = [e for e in self._events if e.get("method") == method]
        self._events = [e for e in self._events if e.get("method") != method]
        return found

    async def evaluate(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression in the page (promises are awaited)."""
        answer = await self.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}
        )
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise ChromiumError(f"JavaScript error: {text}")
        return answer.get("result", {}).get("value")

    async def screenshot(self, path: Path, *, full_page: bool = False) -> None:
        """A PNG of the viewport (or of the whole page)."""
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            metrics = await self.send("Page.getLayoutMetrics")
            size = metrics["cssContentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
            params["captureBeyondViewport"] = True
        shot = await self.send("Page.captureScreenshot", params)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))

    async def _receive(self) -> dict[str, Any]:
        message = await self._socket.receive()
        if message.type != aiohttp.WSMsgType.TEXT:
            raise ChromiumError(f"the DevTools connection closed ({message.type.name})")
        data: dict[str, Any] = json.loads(message.data)
        return data


async def _debugging_port(profile: Path, process: asyncio.subprocess.Process, log: Path) -> int:
    """Chromium writes its chosen port to DevToolsActivePort in the profile once it listens."""
    marker = profile / "DevToolsActivePort"
    deadline = time.monotonic() + _START_TIMEOUT
    while time.monotonic() < deadline:
        if process.returncode is not None:
            err = log.read_text(encoding="utf-8", errors="replace")[-2000:]
            raise ChromiumError(f"Chromium exited {process.returncode}: {err}")
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int(marker.read_text(encoding="utf-8").splitlines()[0])
        await asyncio.sleep(0.05)
    raise ChromiumError(f"Chromium did not open its debugging port within {_START_TIMEOUT:g}s")


async def _page_socket_url(session: aiohttp.ClientSession, port: int) -> str:
    async with session.get(f"http://127.0.0.1:{port}/json/list") as response:
        targets = await response.json()
    for target in targets:
        if target.get("type") == "page":
            url: str = target["webSocketDebuggerUrl"]
            return url
    raise ChromiumError("Chromium has no page to drive")
