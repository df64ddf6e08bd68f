"""pytest-playwright on the system's Chromium (see `benchmark_core.testing.browser`). A conftest
imports both names, which pytest then finds there:

    from benchmark_core.testing.browser_fixtures import browser_type_launch_args, pytest_collection_modifyitems

Playwright's sync API keeps its event loop marked as running in the main thread for as long as
its session-scoped `playwright` fixture lives, so no asyncio test (nor async fixture) can run after
the first browser test: the hook moves the tests that use Playwright after all the others, and a
browser test takes only synchronous fixtures (`serve_app_in_thread`, `run_in_thread`).
"""

from __future__ import annotations

from typing import Any

import pytest

from .browser import launch_options

__all__ = ["browser_type_launch_args", "pytest_collection_modifyitems"]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's own arguments (`--headed`, `--slowmo`), on the system browser."""
    return {**browser_type_launch_args, **launch_options(headless=browser_type_launch_args.get("headless", True))}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests last, in their order (a stable sort: several conftests may run it)."""
    items.sort(key=lambda item: "playwright" in getattr(item, "fixturenames", ()))
