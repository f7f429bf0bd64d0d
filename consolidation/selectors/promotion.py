"""Reads of a shortterm memory's promotion score: the four components, the composite
against the threshold, the score history and what decided the last check, as plain
values for pages and reports."""

from datetime import datetime

from django.conf import settings

from consolidation.models import PromotionDecider, PromotionState

# The four components of seed 001's score, in the order they are weighted and shown.
COMPONENTS = (
    ("access_pattern", "Access pattern", "access_pattern_weight"),
    ("content_stability", "Content stability", "content_stability_weight"),
    ("user_engagement", "User engagement", "user_engagement_weight"),
    ("semantic_importance", "Semantic importance", "semantic_importance_weight"),
)
TRIGGERS = {
    PromotionDecider.TRIGGER_CORRECTION,
    PromotionDecider.TRIGGER_IMPORTANT,
    PromotionDecider.TRIGGER_SESSIONS,
    PromotionDecider.TRIGGER_EMOTION,
}


def _decider_kind(decided_by: str) -> str:
    """trigger, fallback, threshold (a score against the threshold), manual or ''."""
    if decided_by in TRIGGERS:
        return "trigger"
    if decided_by == PromotionDecider.FALLBACK:
        return "fallback"
    if decided_by in (
        PromotionDecider.THRESHOLD,
        PromotionDecider.BELOW,
        PromotionDecider.NOT_ELIGIBLE,
    ):
        return "threshold"
    return "manual" if decided_by == PromotionDecider.MANUAL else ""


def _moment(stamp) -> datetime | None:
    try:
        return datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None


def promotion_summary(*, memory) -> dict | None:
    """A shortterm memory's last promotion check (None: never scored): ``components`` (key,
    label, 0-10 value, weight), ``composite`` and ``threshold``, ``decided_by`` with its
    label and kind (trigger, fallback, threshold, manual), ``reason``, ``error`` (a
    failed component), ``history`` oldest first (at, score, decided_by, promoted), when it
    was checked and last promoted, and how many times it was."""
    state = PromotionState.objects.filter(memory=memory).first()
    if state is None:
        return None
    config = settings.MEMORYHUB_PROMOTION
    breakdown = state.breakdown or {}
    components = [
        {
            "key": key,
            "label": label,
            "value": breakdown.get(key),
            "weight": config[weight],
        }
        for key, label, weight in COMPONENTS
    ]
    history = [
        {
            "at": _moment(entry.get("at")),
            "score": entry.get("score"),
            "decided_by": entry.get("decided_by", ""),
            "promoted": bool(entry.get("promoted")),
        }
        for entry in state.history or []
        if isinstance(entry, dict)
    ]
    return {
        "memory_id": state.memory_id,
        "components": components,
        "composite": state.score,
        "threshold": config["promotion_threshold"],
        "details": breakdown.get("details") or {},
        "decided_by": state.decided_by,
        "decided_by_label": dict(PromotionDecider.choices).get(state.decided_by, state.decided_by),
        "decider_kind": _decider_kind(state.decided_by),
        "reason": state.reason,
        "error": state.error,
        "checked_at": state.checked_at,
        "promoted_at": state.promoted_at,
        "promotions": state.promotions,
        "history": history,
    }
