"""Reads of the tier browser's longterm pages (``review.views.browser``): a source's
versions drawn on a timeline with the word diff between consecutive versions, and a
shortterm memory's promotion score drawn as a bar chart and a sparkline. The drawings'
geometry is computed here; the templates only place it. Nothing here writes."""

from datetime import datetime, timedelta
from itertools import pairwise

from django.utils import timezone

from consolidation.selectors.promotion import promotion_summary
from memoryhub.models import Worker
from memoryhub.text import word_diff
from review.selectors.queue import emphasised
from tiers.models import ShorttermMemory
from tiers.selectors.longterm import longterm_chunk_history

# The history timeline: a lane per chunk position, a bar per version.
TIMELINE_WIDTH = 880
TIMELINE_LABELS = 90  # the lanes' labels on the left
TIMELINE_RIGHT = 20
LANE_HEIGHT = 34
BAR_HEIGHT = 20
AXIS_HEIGHT = 30
MIN_BAR = 4  # a version that lasted an instant still shows
TICKS = 5

# The score chart: a row per component and one for the composite, 0-10.
CHART_LABELS = 150
CHART_SCALE = 22  # pixels per point
CHART_ROW = 24
CHART_BAR = 14
SPARK_WIDTH = 240
SPARK_HEIGHT = 60
SPARK_PAD = 5


def _opacity(confidence: float | None) -> float:
    """0.25 (no confidence) to 1 (full): a faint bar is a doubtful version."""
    value = min(1.0, max(0.0, confidence or 0.0))
    return round(0.25 + 0.75 * value, 3)


def _timeline(lanes: dict[int, list], now: datetime) -> dict:
    """Bars from start to end (or now) on one time axis, a lane per chunk position."""
    versions = [v for lane in lanes.values() for v in lane]
    start = min(v.start_date for v in versions)
    end = max([now, *(v.end_date for v in versions if v.end_date)])
    span = max((end - start).total_seconds(), 1.0)
    plot = TIMELINE_WIDTH - TIMELINE_LABELS - TIMELINE_RIGHT

    def x(moment: datetime) -> float:
        return round(TIMELINE_LABELS + plot * (moment - start).total_seconds() / span, 1)

    bars, rows = [], []
    for index, (order, lane) in enumerate(sorted(lanes.items())):
        top = index * LANE_HEIGHT
        rows.append({"order": order, "y": top, "label_y": top + LANE_HEIGHT / 2 + 4})
        for number, version in enumerate(lane, start=1):
            left = x(version.start_date)
            right = x(version.end_date or now)
            bars.append(
                {
                    "id": version.pk,
                    "order": order,
                    "number": number,
                    "x": left,
                    "y": top + (LANE_HEIGHT - BAR_HEIGHT) / 2,
                    "width": round(max(right - left, MIN_BAR), 1),
                    "height": BAR_HEIGHT,
                    "opacity": _opacity(version.confidence),
                    "confidence": version.confidence,
                    "current": version.end_date is None,
                    "start": version.start_date,
                    "end": version.end_date,
                    "label_x": left + 5,
                    "label_y": top + LANE_HEIGHT / 2 + 4,
                }
            )
    height = len(lanes) * LANE_HEIGHT
    step = (end - start) / (TICKS - 1)
    ticks = [
        {"at": start + step * i, "x": x(start + step * i)}
        for i in range(TICKS)
        if step > timedelta(0) or i == 0
    ]
    return {
        "width": TIMELINE_WIDTH,
        "height": height + AXIS_HEIGHT,
        "plot_height": height,
        "left": TIMELINE_LABELS,
        "right": TIMELINE_WIDTH - TIMELINE_RIGHT,
        "plot_width": plot,
        "lane_height": LANE_HEIGHT,
        "now_x": x(now),
        "lanes": rows,
        "bars": bars,
        "ticks": ticks,
        "tick_y": height + 18,
        "precise": (end - start) < timedelta(days=4),  # ticks with the time of day
    }


def browser_chunk_history(*, worker: Worker, shortterm_memory_id, now=None) -> dict:
    """Every version promoted from one of the worker's shortterm sources: the timeline,
    the versions newest first, and per chunk position the word diff between each version
    and the one before it (newest change first). ``NotFoundError`` when the worker has
    no version of that source."""
    now = now or timezone.now()
    newest_first = longterm_chunk_history(worker=worker, shortterm_memory_id=shortterm_memory_id)
    lanes: dict[int, list] = {}
    for version in sorted(newest_first, key=lambda v: (v.start_date, v.pk)):
        lanes.setdefault(version.chunk_order, []).append(version)
    numbers = {v.pk: n for lane in lanes.values() for n, v in enumerate(lane, start=1)}
    changes = []
    for order, lane in sorted(lanes.items()):
        for before, after in pairwise(lane):
            left, right = word_diff(before.content, after.content)
            changes.append(
                {
                    "order": order,
                    "before": before,
                    "after": after,
                    "before_number": numbers[before.pk],
                    "after_number": numbers[after.pk],
                    "before_segments": emphasised(left),
                    "after_segments": emphasised(right),
                }
            )
    changes.sort(key=lambda c: (c["after"].start_date, c["order"]), reverse=True)
    source_id = newest_first[0].shortterm_memory_id
    return {
        "source_id": source_id,
        "title": newest_first[0].title,
        "source_exists": ShorttermMemory.objects.filter(worker=worker, pk=source_id).exists(),
        "versions": [{"version": v, "number": numbers[v.pk]} for v in newest_first],
        "current": sum(1 for v in newest_first if v.end_date is None),
        "lanes": len(lanes),
        "timeline": _timeline(lanes, now),
        "changes": changes,
        "now": now,
    }


def _spark(history: list[dict], threshold: float) -> dict | None:
    """The composite scores of the checks, oldest first, as a polyline on 0-10."""
    scored = [entry for entry in history if entry["score"] is not None]
    if not scored:
        return None
    inner_w, inner_h = SPARK_WIDTH - 2 * SPARK_PAD, SPARK_HEIGHT - 2 * SPARK_PAD

    def y(score: float) -> float:
        return round(SPARK_PAD + inner_h * (1 - min(10.0, max(0.0, score)) / 10), 1)

    points = []
    for index, entry in enumerate(scored):
        share = index / (len(scored) - 1) if len(scored) > 1 else 0.5
        points.append(entry | {"x": round(SPARK_PAD + inner_w * share, 1), "y": y(entry["score"])})
    return {
        "width": SPARK_WIDTH,
        "height": SPARK_HEIGHT,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
        "threshold_y": y(threshold),
        "first": scored[0]["score"],
        "last": scored[-1]["score"],
    }


def browser_promotion(*, memory) -> dict | None:
    """A shortterm memory's promotion summary (``promotion_summary``; None: not scored
    yet) with its drawings: a bar per component and the composite on 0-10 with the
    threshold line, and the score history as a sparkline."""
    summary = promotion_summary(memory=memory)
    if summary is None:
        return None
    threshold = summary["threshold"]
    rows = [
        *(
            {"key": c["key"], "label": c["label"], "value": c["value"]}
            for c in summary["components"]
        ),
        {"key": "composite", "label": "Composite", "value": summary["composite"]},
    ]
    bars = []
    for index, row in enumerate(rows):
        value = row["value"]
        width = 0.0 if value is None else min(10.0, max(0.0, value)) * CHART_SCALE
        top = index * CHART_ROW
        bars.append(
            row
            | {
                "y": top + (CHART_ROW - CHART_BAR) / 2,
                "text_y": top + CHART_ROW / 2 + 4,
                "width": round(width, 1),
                "value_x": CHART_LABELS + round(width, 1) + 6,
                "above": value is not None and value >= threshold,
            }
        )
    height = len(rows) * CHART_ROW
    return summary | {
        "chart": {
            "width": CHART_LABELS + 10 * CHART_SCALE + 50,
            "height": height + 18,
            "left": CHART_LABELS,
            "full": 10 * CHART_SCALE,
            "bars": bars,
            "threshold_x": CHART_LABELS + threshold * CHART_SCALE,
            "plot_height": height,
            "label_y": height + 13,
        },
        "spark": _spark(summary["history"], threshold),
    }
