"""pytest-playwright's `page` on the system's Chromium (see `benchmark_core.testing.browser`)."""

from benchmark_core.testing.browser_fixtures import browser_type_launch_args, pytest_collection_modifyitems

__all__ = ["browser_type_launch_args", "pytest_collection_modifyitems"]
