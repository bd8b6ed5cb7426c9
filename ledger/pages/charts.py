"""The ledger pages' charts: inline SVG line charts drawn on the server, with round ticks."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.formats import number_format

# Distinct at a glance, also for the common colour blindnesses (Okabe–Ito, then darker).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B")


def line_chart(
    series: Mapping[str, Sequence[float]],
    *,
    labels: Mapping[str, str],
    colors: Mapping[str, str] | None = None,
    width: int = 360,
    height: int = 190,
) -> dict[str, Any] | None:
    """Polylines for an inline SVG: one line per key, x = index, y scaled to fit.

    Returns None when there is nothing to draw (no series, or fewer than two points).
    """
    lengths = [len(values) for values in series.values() if values]
    if not lengths or max(lengths) < 2:
        return None
    left, right, top, bottom = 34, 8, 10, 20
    low = min(min(v) for v in series.values() if v)
    high = max(max(v) for v in series.values() if v)
    marks = round_ticks(low, high)
    low, high = marks[0], marks[-1]
    n = max(lengths)
    plot_w, plot_h = width - left - right, height - top - bottom

    # Coordinates are strings: a float in a template would be localised ("116,7" in German).
    def x(i: int) -> str:
        return f"{left + plot_w * i / (n - 1):.1f}"

    def y(v: float) -> str:
        return f"{top + plot_h * (high - v) / (high - low):.1f}"

    lines = []
    for i, (key, values) in enumerate(series.items()):
        if not values:
            continue
        points = " ".join(f"{x(j)},{y(v)}" for j, v in enumerate(values))
        lines.append(
            {
                "key": key,
                "label": labels.get(key, key),
                "color": (colors or {}).get(key) or PALETTE[i % len(PALETTE)],
                "points": points,
                "last": values[-1],
                "end_x": x(len(values) - 1),
                "end_y": y(values[-1]),
            }
        )
    ticks = [{"y": y(v), "label": _format_tick(v)} for v in marks]
    return {
        "width": width,
        "height": height,
        "lines": lines,
        "ticks": ticks,
        "zero": y(0),
        "left": str(left),
        "label_x": str(left - 4),
        "right": str(width - right),
        "bottom": str(height - bottom),
        "caption_y": str(height - 4),
        "n": n,
    }


def round_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round axis marks from at most ``low`` to at least ``high``, 0 among them.

    The step is 1, 2 or 5 times a power of ten, at least 0.1 (the charts show cents
    and ratings to a tenth), the smallest that needs at most ``most`` marks; the
    first and last mark bound the axis.
    """
    low, high = min(low, 0.0), max(high, 0.0)
    if high == low:
        high = low + 1
    span = high - low
    raw = span / (most - 1)
    power = 10.0 ** math.floor(math.log10(raw)) if raw > 0.1 else 0.1
    for factor in (1, 2, 5, 10, 20):
        step = factor * power
        first, last = math.floor(low / step), math.ceil(high / step)
        if last - first + 1 <= most:
            break
    # Whole steps times the step: 0 is a mark, and no float drift (0.30000000000000004).
    return [round(k * step, 10) for k in range(first, last + 1)]


def _format_tick(v: float) -> str:
    """A tick label the local way (7,6 in German)."""
    whole = abs(v) >= 10 or float(v).is_integer()
    return str(number_format(v, decimal_pos=0 if whole else 1))
