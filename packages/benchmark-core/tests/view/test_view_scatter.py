"""The group page's score-vs-cost scatter (the view's, and the static leaderboard's): one point per
ranked model, names that never overlap nor leave the plot, and axis labels that stay inside their
chart (the end ticks anchored inward, not cut off as "+90.(")."""

from __future__ import annotations

import re
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from benchmark_core import mock_adapter, run
from benchmark_core.example import benchmark as example
from benchmark_core.reports._html_page import Axis, interval_svg
from benchmark_core.sweep._scatter import place_names
from benchmark_core.view._app import create_view_app
from benchmark_core.view._catalog import ResultsCatalog
from benchmark_core.view._paths import group_page
from benchmark_core.wire import dumps, to_wire

CHAR, LINE = 7.0, 14.0


def _boxes(names: list[str], spots: list[tuple[float, float, str]]) -> list[tuple[float, float, float, float]]:
    boxes = []
    for name, (x, y, anchor) in zip(names, spots):
        wide = CHAR * len(name)
        low = x if anchor == "start" else x - wide
        boxes.append((low, y - LINE + 3, low + wide, y + 3))
    return boxes


def _clear(boxes: list[tuple[float, float, float, float]], bounds: tuple[float, float, float, float]) -> bool:
    inside = all(bounds[0] <= b[0] and b[2] <= bounds[2] and bounds[1] <= b[1] and b[3] <= bounds[3] for b in boxes)
    apart = all(
        not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
    )
    return inside and apart


def test_names_on_one_spot_are_stacked_apart_inside_the_plot() -> None:
    names = ["alpha", "bravo-with-a-long-name", "charlie", "delta", "echo"]
    bounds = (0.0, 4.0, 640.0, 224.0)
    # Every point on one spot, then every point at the right edge: the names still part.
    for point in ((300.0, 100.0), (616.0, 20.0)):
        spots = place_names(names, [point] * len(names), bounds)
        assert _clear(_boxes(names, spots), bounds), spots


async def test_the_view_s_group_page_draws_the_scatter_with_names_apart(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    labels = ["alpha", "bravo", "charlie", "delta-model-with-a-long-label"]
    for label in labels:  # one skill: four points on the same spot, the labels' worst case
        report = await run(example, mock_adapter(skill=0.5, model=label), cache=False)
        (folder / label).mkdir(parents=True)
        (folder / label / "report.json").write_text(dumps(to_wire(report)), encoding="utf-8")
    view = ResultsCatalog([folder], resamples=200).groups[0]
    client = TestClient(TestServer(create_view_app([folder], resamples=200), host="127.0.0.1"))
    await client.start_server()
    try:
        text = await (await client.get(f"/{group_page(view.id)}")).text()
    finally:
        await client.close()
    svg = re.search(r'<svg class="scatter"[^>]*viewBox="0 0 (\d+) (\d+)"(.*?)</svg>', text, re.S)
    assert svg is not None
    width, height = int(svg.group(1)), int(svg.group(2))
    names = re.findall(
        r'<g class="entry" data-label="([^"]+)">.*?<text class="name" x="([\d.-]+)" y="([\d.-]+)" text-anchor="(\w+)">',
        svg.group(3),
        re.S,
    )
    assert sorted(n for n, *_ in names) == sorted(labels)
    spots = [(float(x), float(y), anchor) for _, x, y, anchor in names]
    assert _clear(_boxes([n for n, *_ in names], spots), (0.0, 0.0, float(width), float(height)))


def test_an_interval_chart_s_end_ticks_stay_inside_it() -> None:
    axis = Axis.difference(0.9, lambda v: f"{v * 100:+.1f} pts")
    chart = interval_svg(0.1, -0.2, 0.4, axis, "a difference", width=240)
    ticks = re.findall(r'<text x="([\d.]+)" y="[\d.]+" text-anchor="(\w+)">([^<]+)</text>', chart)
    assert [t[2] for t in ticks] == ["-90.0 pts", "-45.0 pts", "+0.0 pts", "+45.0 pts", "+90.0 pts"]
    # Each label's extent (about 6 px a character at 11 px) from its anchor stays in the 240 px box.
    for x, anchor, label in ticks:
        wide = 6.0 * len(label)
        low = {"start": float(x), "middle": float(x) - wide / 2, "end": float(x) - wide}[anchor]
        assert low >= 0 and low + wide <= 240, (label, anchor)


def test_names_keep_off_what_the_chart_already_draws() -> None:
    names = ["alpha", "bravo", "charlie"]
    bounds = (0.0, 4.0, 640.0, 224.0)
    points = [(300.0, 100.0)] * 3
    # The three points and a tick label just right of them: the names go around both.
    taken = [(295.0, 95.0, 305.0, 105.0), (308.0, 80.0, 360.0, 100.0)]
    boxes = _boxes(names, place_names(names, points, bounds, taken))
    assert _clear(boxes + taken, bounds)
