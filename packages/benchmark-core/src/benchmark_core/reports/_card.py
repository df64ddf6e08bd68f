"""The 1200x630 SVG share card of a run.

A standalone document: no external references, no embedded fonts or images, only system font
stacks, so it renders the same in a browser, an image converter or a social-media preview. SVG has
no text measurement, so long names are fitted by an estimate of their width (shrunk, then cut with
an ellipsis) rather than measured.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Optional
from xml.sax.saxutils import escape

from .._model import RunReport
from ._report import percent

if TYPE_CHECKING:
    from .._benchmark.definition import Benchmark

__all__ = ["render_card"]

WIDTH = 1200
HEIGHT = 630
_MARGIN = 72
_FONT = "-apple-system, BlinkMacSystemFont, &apos;Segoe UI&apos;, Roboto, Helvetica, Arial, sans-serif"
_BACKGROUND = ("#0f172a", "#1e293b")
_TEXT = "#f8fafc"
_MUTED = "#94a3b8"
_TRACK = "#334155"
_ACCENT = "#38bdf8"
_WARN = "#fbbf24"

# Characters XML 1.0 forbids even when escaped (controls, lone surrogates, U+FFFE/U+FFFF).
_NOT_XML_RE = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_NARROW = set("il.,:;'|!()[]{}jtfrI1 ")
_WIDE = set("mwMW@%")


def _xml(text: str) -> str:
    """Text safe for element content and attribute values alike."""
    return escape(_NOT_XML_RE.sub("\ufffd", text), {'"': "&quot;", "'": "&apos;"})


def _estimate(text: str, size: float, bold: bool) -> float:
    """Approximate rendered width in pixels; errs wide, as fallback fonts (DejaVu Sans) are wide."""
    units = sum(0.34 if c in _NARROW else 0.9 if c in _WIDE else 0.74 if c.isupper() else 0.6 for c in text)
    return units * size * (1.15 if bold else 1.0)


def _fit(text: str, width: float, size: float, min_size: float, *, bold: bool = False) -> tuple[str, float]:
    """Shrink the font towards `min_size`, then cut the text with an ellipsis, until it fits `width`."""
    text = " ".join(text.split())
    scaled = size * width / max(_estimate(text, size, bold), 1.0)
    if scaled >= size:
        return text, size
    if scaled >= min_size:
        return text, math.floor(scaled)
    while len(text) > 1 and _estimate(text + "…", min_size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…", min_size


def _text(
    x: float,
    y: float,
    content: str,
    *,
    size: float,
    fill: str = _TEXT,
    weight: int = 400,
    anchor: str = "start",
    spacing: float = 0,
) -> str:
    extra = f' letter-spacing="{spacing:g}"' if spacing else ""
    extra += f' text-anchor="{anchor}"' if anchor != "start" else ""
    extra += f' font-weight="{weight}"' if weight != 400 else ""
    return f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}"{extra}>{_xml(content)}</text>'


def _stat(x: float, value: int | str, label: str, *, highlight: bool = False) -> str:
    fill = _WARN if highlight else _TEXT
    shown = f"{value:,}" if isinstance(value, int) else _xml(value)
    return (
        f'<text x="{x:g}" y="590"><tspan font-size="40" font-weight="700" fill="{fill}">{shown}</tspan>'
        f'<tspan dx="12" font-size="24" fill="{_MUTED}">{_xml(label)}</tspan></text>'
    )


def _stats(report: RunReport) -> list[str]:
    """Task totals; with several epochs, pass^k and the flip rate instead of passed rows."""
    totals = report.totals
    if report.epochs > 1 and report.pass_hat_k is not None and report.flip_rate is not None:
        k = report.epochs
        return [
            _stat(_MARGIN, len({row.task_id for row in report.rows}) or totals.tasks // k, f"tasks × {k}"),
            _stat(300, percent(report.pass_hat_k), f"pass^{k}"),
            _stat(560, percent(report.flip_rate), "flip rate"),
        ]
    return [
        _stat(_MARGIN, totals.tasks, "tasks"),
        _stat(340, totals.passed, "passed"),
        _stat(608, totals.failed, "errored", highlight=totals.failed > 0),
    ]


def _fraction(value: float) -> float:
    return min(1.0, max(0.0, value)) if math.isfinite(value) else 0.0


def render_card(report: RunReport, benchmark: Optional[Benchmark] = None) -> str:
    """The run as a 1200x630 SVG: benchmark, model and provider, the score, its 95% CI as a bar with
    whiskers, task totals, version and seed. Every piece of text is XML-escaped."""
    title = benchmark.name if benchmark is not None else report.benchmark
    inner = WIDTH - 2 * _MARGIN
    name, name_size = _fit(title, inner, 60, 38, bold=True)
    model, model_size = _fit(report.model, 488, 40, 24, bold=True)
    provider, _ = _fit(f"via {report.provider}", 488, 24, 24)
    version, _ = _fit(f"v{report.version} · seed {report.seed}", 600, 20, 20)
    ci = report.confidence_interval95
    low, high = sorted((_fraction(ci.low), _fraction(ci.high)))
    track_x, track_w = 640, 488
    low_x, high_x = track_x + low * track_w, track_x + high * track_w
    mean_x = track_x + _fraction(report.mean) * track_w
    score = percent(report.mean)
    label = (
        f"{title}: {report.model} ({report.provider}) scored {score}, 95% CI {percent(ci.low)} to {percent(ci.high)}"
    )

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="card-title" '
        f'font-family="{_FONT}">',
        f'<title id="card-title">{_xml(label)}</title>',
        "<defs>",
        '<linearGradient id="card-bg" x1="0" y1="0" x2="1" y2="1">',
        f'<stop offset="0" stop-color="{_BACKGROUND[0]}"/><stop offset="1" stop-color="{_BACKGROUND[1]}"/>',
        "</linearGradient>",
        "</defs>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="url(#card-bg)"/>',
        f'<rect width="{WIDTH}" height="8" fill="{_ACCENT}"/>',
        _text(_MARGIN, 100, "BENCHMARK RESULT", size=20, fill=_ACCENT, weight=700, spacing=3),
        _text(WIDTH - _MARGIN, 100, version, size=20, fill=_MUTED, anchor="end"),
        _text(_MARGIN, 172, name, size=name_size, weight=700),
    ]
    if benchmark is not None and benchmark.tagline.strip():
        tagline, _ = _fit(benchmark.tagline, inner, 26, 26)
        parts.append(_text(_MARGIN, 218, tagline, size=26, fill=_MUTED))
    parts += [
        _text(_MARGIN, 412, score, size=150 if len(score) <= 5 else 124, weight=800, spacing=-3),
        _text(_MARGIN, 464, f"mean score · {report.mode} mode", size=24, fill=_MUTED),
        _text(track_x, 288, "MODEL", size=18, fill=_MUTED, weight=700, spacing=3),
        _text(track_x, 336, model, size=model_size, weight=700),
        _text(track_x, 372, provider, size=24, fill=_MUTED),
        _text(track_x, 430, "95% CI", size=18, fill=_MUTED, weight=700, spacing=3),
        _text(WIDTH - _MARGIN, 430, f"{percent(ci.low)} \u2013 {percent(ci.high)}", size=24, weight=700, anchor="end"),
        f'<rect x="{track_x}" y="446" width="{track_w}" height="12" rx="6" fill="{_TRACK}"/>',
        f'<rect x="{low_x:.1f}" y="446" width="{max(high_x - low_x, 2):.1f}" height="12" rx="6" '
        f'fill="{_ACCENT}" fill-opacity="0.55"/>',
        f'<path d="M{low_x:.1f} 438V466M{high_x:.1f} 438V466" stroke="{_ACCENT}" stroke-width="4" '
        'stroke-linecap="round"/>',
        f'<circle cx="{mean_x:.1f}" cy="452" r="10" fill="{_TEXT}" stroke="{_ACCENT}" stroke-width="4"/>',
        _text(track_x, 492, "0%", size=16, fill=_MUTED),
        _text(WIDTH - _MARGIN, 492, "100%", size=16, fill=_MUTED, anchor="end"),
        f'<path d="M{_MARGIN} 530H{WIDTH - _MARGIN}" stroke="{_TRACK}" stroke-width="2"/>',
        *_stats(report),
        _text(WIDTH - _MARGIN, 590, "benchmark-core", size=22, fill=_MUTED, anchor="end"),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"
