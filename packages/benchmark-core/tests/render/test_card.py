"""The SVG share card: a valid standalone 1200x630 document with escaped text."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest
from benchmark_core import Benchmark, RunReport
from benchmark_core.reports import ConfidenceInterval, Totals, Usage
from benchmark_core.reports._card import render_card

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "evil<&>\"'model"
MakeBenchmark = Callable[..., Benchmark]


def make_report(**overrides: Any) -> RunReport:
    values: dict[str, Any] = {
        "benchmark": "tiny",
        "version": "0.0.1",
        "model": "vendor/model-x",
        "provider": "openrouter",
        "seed": 7,
        "mean": 0.5238,
        "confidence_interval95": ConfidenceInterval(low=0.3333, high=0.7143),
        "totals": Totals(tasks=21, passed=11, failed=2),
        "usage": Usage(),
        "rows": [],
    }
    values.update(overrides)
    return RunReport(**values)


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(element.itertext()) for element in root.iter(f"{SVG}text")]


def test_card_is_a_1200_by_630_svg() -> None:
    svg = render_card(make_report())
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("1200", "630", "0 0 1200 630")
    assert svg.endswith("</svg>\n")


def test_card_shows_the_run() -> None:
    shown = texts(render_card(make_report()))
    assert "tiny" in shown
    assert "vendor/model-x" in shown
    assert "via openrouter" in shown
    assert "52.4%" in shown
    assert "33.3% \u2013 71.4%" in shown
    assert [t for t in shown if t.endswith(("tasks", "passed", "errored"))] == ["21tasks", "11passed", "2errored"]
    assert "v0.0.1 · seed 7" in shown


def test_card_uses_the_benchmark_name_and_tagline(make_benchmark: MakeBenchmark) -> None:
    shown = texts(render_card(make_report(), make_benchmark()))
    assert "Tiny" in shown
    assert "A tiny benchmark for tests." in shown
    assert "tiny" not in shown


def test_card_escapes_every_text() -> None:
    report = make_report(model=HOSTILE, provider=HOSTILE, version=HOSTILE, benchmark=HOSTILE)
    svg = render_card(report)
    root = ET.fromstring(svg)
    shown = texts(svg)
    assert HOSTILE in shown
    assert f"via {HOSTILE}" in shown
    assert f"v{HOSTILE} · seed 7" in shown
    title = root.find(f"{SVG}title")
    assert title is not None
    assert title.text is not None
    assert title.text.startswith(f"{HOSTILE}: {HOSTILE} ({HOSTILE}) scored 52.4%")
    assert "evil&lt;&amp;&gt;&quot;&apos;model" in svg
    assert "<&>" not in svg


def test_card_stays_valid_xml_with_control_characters(make_benchmark: MakeBenchmark) -> None:
    benchmark = make_benchmark(name="Tiny\x00\x1b[31m", tagline="line\x0bbreak\ud800")
    svg = render_card(make_report(model="m\x08odel"), benchmark)
    shown = texts(svg)
    assert "Tiny\ufffd\ufffd[31m" in shown
    assert "m\ufffdodel" in shown
    svg.encode("utf-8")


def test_card_has_no_external_references_and_only_system_fonts() -> None:
    svg = render_card(make_report())
    assert re.findall(r"https?://[^\"]*", svg) == ["http://www.w3.org/2000/svg"]
    assert re.findall(r"url\(([^)]*)\)", svg) == ["#card-bg"]
    for forbidden in ("href", "<image", "@import", "@font-face", "<script", "<foreignObject", "<style"):
        assert forbidden not in svg
    root = ET.fromstring(svg)
    families = [family for e in root.iter() if (family := e.get("font-family"))]
    assert len(families) == 1
    safe = {"-apple-system", "BlinkMacSystemFont", "Segoe UI", "Roboto", "Helvetica", "Arial", "sans-serif"}
    assert {font.strip().strip("'") for font in families[0].split(",")} <= safe


def test_card_fits_long_names() -> None:
    model = "provider/" + "a-very-long-model-name-" * 10
    shown = texts(render_card(make_report(model=model, benchmark="b" * 200)))
    cut = [t for t in shown if t.startswith("provider/")]
    assert len(cut) == 1
    assert cut[0].endswith("…")
    assert len(cut[0]) < 40
    assert any(t.startswith("bbbb") and t.endswith("…") and len(t) < 60 for t in shown)


def ci_geometry(svg: str) -> tuple[float, float, float]:
    root = ET.fromstring(svg)
    rects = [r for r in root.iter(f"{SVG}rect") if r.get("y") == "446"]
    track, band = rects
    circle = root.find(f"{SVG}circle")
    assert circle is not None
    left, width = float(track.get("x", "")), float(track.get("width", ""))
    low = (float(band.get("x", "")) - left) / width
    high = low + float(band.get("width", "")) / width
    mean = (float(circle.get("cx", "")) - left) / width
    return low, high, mean


@pytest.mark.parametrize(
    ("mean", "low", "high"),
    [(0.5238, 0.3333, 0.7143), (0.0, 0.0, 0.0), (1.0, 0.9, 1.0), (0.25, 0.1, 0.5)],
)
def test_card_draws_the_interval_to_scale(mean: float, low: float, high: float) -> None:
    svg = render_card(make_report(mean=mean, confidence_interval95=ConfidenceInterval(low=low, high=high)))
    drawn_low, drawn_high, drawn_mean = ci_geometry(svg)
    assert drawn_low == pytest.approx(low, abs=0.001)
    assert drawn_mean == pytest.approx(mean, abs=0.001)
    assert drawn_high == pytest.approx(max(high, low + 2 / 488), abs=0.001)


def test_card_survives_out_of_range_numbers() -> None:
    report = make_report(mean=float("nan"), confidence_interval95=ConfidenceInterval(low=1.5, high=-0.5))
    svg = render_card(report)
    low, high, mean = ci_geometry(svg)
    assert (low, high, mean) == (0.0, 1.0, 0.0)
    assert "n/a" in texts(svg)


def test_card_is_deterministic(make_benchmark: MakeBenchmark) -> None:
    benchmark = make_benchmark()
    assert render_card(make_report(), benchmark) == render_card(make_report(), benchmark)
