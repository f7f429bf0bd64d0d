"""Promotion scoring (seed 001): should a shortterm memory move to the longterm tier?

Four components, each 0-10, weighted into a composite (defaults: access pattern 30 %,
content stability 25 %, user engagement 25 %, semantic importance 20 %) and compared
with the threshold (7.0) once the minimum requirements hold (age ≥ 6 h, ≥ 3 accesses,
no contradiction in the last 24 h). Immediate triggers bypass threshold and minimums (a
user correction, an explicit importance mark, use in 3+ sessions, strong emotion with
repeated access). Nothing is promoted while a reviewer has a conflict about the memory
to settle. When a component fails, seed 001's simple rule decides (access ≥ 7,
importance ≥ 5, reinforcement ≥ 3, age ≥ 24 h) and the failure is reported.

Pure functions of ``UsageFacts`` and the memory's text: the service reads the facts,
these decide, the service writes.
"""

import re
from dataclasses import dataclass, field
from datetime import datetime

# --- Content analysis -------------------------------------------------------------------
# First person ("I prefer") and the third person of agent notes ("the user prefers",
# "Maria prefers") both count: memories are written either way.

_IDENTITY = re.compile(
    r"\b(?:my name is|name is|call me|i am an? |i'm an? |i was born|was born|born in|"
    r"i grew up|grew up in|i come from|comes from|is from|i'm from|i am from|"
    r"works? as an?|my (?:job|role|profession) is|(?:her|his|their) (?:job|role) is|"
    r"identif(?:y|ies) as|my pronouns|years old)\b",
    re.I,
)
_PREFERENCE = re.compile(
    r"\b(?:i|we|(?:s?he|they|user|customer)|\w+)\s+(?:really\s+|much\s+|strongly\s+)?"
    r"(?:like[sd]?|love[sd]?|prefer(?:s|red)?|enjoy(?:s|ed)?|hate[sd]?|dislike[sd]?|adore[sd]?|"
    r"can't stand|cannot stand|would rather)\b|\bfavou?rite\b|\brather than\b|\bover\b(?= \w+ for)",
    re.I,
)
_BELIEF = re.compile(
    r"\b(?:i|we|(?:s?he|they|user)|\w+)\s+(?:strongly\s+|really\s+)?"
    r"(?:believe[sd]?|think[s]?|feel[s]? that|am convinced|is convinced|doubt[s]?|trust[s]?)\b|"
    r"\bin (?:my|her|his|their) (?:opinion|view)\b|\bto me,|\bvalues?\b",
    re.I,
)
_FACTUAL = re.compile(
    r"\b(?:works? (?:at|for|on|with)|lives? in|living in|moved to|based in|"
    r"my (?:wife|husband|partner|son|daughter|kids?|children|mother|father|mom|dad|"
    r"brother|sister|dog|cat|team|manager|boss|company|home|birthday)|"
    r"(?:his|her|their) (?:wife|husband|partner|son|daughter|kids?|children|team|manager)|"
    r"married|allergic|studies at|graduated|owns?|manages?|reports? to|is responsible for|"
    r"speaks?|birthday|anniversary)\b",
    re.I,
)
_PRONOUNS = re.compile(r"\b(?:i|my|me|mine|myself|i'm|i've|i'll|i'd)\b", re.I)
_EMOTION = re.compile(
    r"\b(?:love[sd]?|hate[sd]?|happy|happiest|sad|upset|angry|furious|excited|thrilled|"
    r"scared|afraid|terrified|anxious|worried|nervous|stressed|overwhelmed|frustrat\w*|"
    r"proud|grateful|thankful|heartbroken|devastated|lonely|depress\w*|joy\w*|"
    r"amazing|awful|terrible|wonderful|painful|cried|crying|tears|grief|grieving|"
    r"miss(?:ed)? (?:her|him|them)|passed away|died|divorce\w*|diagnos\w*|"
    r"can't wait|so much|means a lot|dream)\b",
    re.I,
)
_INTENSIFIER = re.compile(r"\b(?:so|really|very|extremely|incredibly|deeply|truly)\b|!", re.I)

MARKER_CAP = 2  # occurrences of a kind of marker that count (diminishing returns)
PRONOUN_CAP = 4


def content_markers(content: str) -> dict[str, int]:
    """How many identity, preference, belief, factual and personal-pronoun markers the
    text holds (each capped: one more "I like" says little more)."""
    return {
        "identity": min(len(_IDENTITY.findall(content)), MARKER_CAP),
        "preference": min(len(_PREFERENCE.findall(content)), MARKER_CAP),
        "belief": min(len(_BELIEF.findall(content)), MARKER_CAP),
        "factual": min(len(_FACTUAL.findall(content)), MARKER_CAP),
        "pronoun": min(len(_PRONOUNS.findall(content)), PRONOUN_CAP),
    }


def emotional_weight(content: str) -> float:
    """0-2: emotional words, more with intensifiers and exclamation marks."""
    words = len(_EMOTION.findall(content))
    if not words:
        return 0.0
    boost = min(len(_INTENSIFIER.findall(content)), 4) * 0.15
    return round(min(2.0, 0.6 * words + boost), 2)


# --- Memory type (seed 004) ------------------------------------------------------------

_EPISODIC_KEYS = {
    "time_sequence",
    "timesequence",
    "location",
    "context_switches",
    "event",
    "session_date",
    "date",
    "occurred_at",
    "episode",
}
_SEMANTIC_KEYS = {"concept", "relations", "fact", "facts"}
_PROCEDURAL_KEYS = {"procedure", "steps", "task_related", "taskrelated", "how_to", "runbook"}
_PROCEDURAL_TEXT = re.compile(
    r"(?m)^\s*(?:\d+[.)]|step \d+)\s|\b(?:how to|first,|then run|run `|make sure to|"
    r"to deploy|to restore|to set up|runbook|procedure|checklist)\b",
    re.I,
)
_EPISODIC_TEXT = re.compile(
    r"\b(?:yesterday|today|last (?:week|month|year|night|weekend|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)|this morning|on (?:monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday)|\d{4}-\d{2}-\d{2}|went to|visited|met (?:with )?|happened|"
    r"we had|i had|attended|incident|outage)\b",
    re.I,
)


def memory_type_of(content: str, metadata: dict | None = None) -> str:
    """episodic (events in time and place), procedural (how to do something) or semantic
    (what is known; the default), from the metadata first (an explicit ``memory_type``,
    then seed 004's keys), then from the text."""
    metadata = metadata or {}
    explicit = str(metadata.get("memory_type", "")).lower()
    if explicit in ("episodic", "semantic", "procedural"):
        return explicit
    keys = {str(key).lower() for key in metadata}
    if keys & _EPISODIC_KEYS:
        return "episodic"
    if keys & _SEMANTIC_KEYS:
        return "semantic"
    if keys & _PROCEDURAL_KEYS:
        return "procedural"
    procedural = len(_PROCEDURAL_TEXT.findall(content))
    episodic = len(_EPISODIC_TEXT.findall(content))
    if procedural >= 2 and procedural >= episodic:
        return "procedural"
    if episodic >= 1:
        return "episodic"
    return "semantic"


# --- Facts, scores, decisions ---------------------------------------------------------


@dataclass(frozen=True)
class UsageFacts:
    """What scoring reads about a memory (its ``MemoryUsage`` and its age)."""

    now: datetime
    created_at: datetime
    access_count: int = 0
    access_times: tuple[datetime, ...] = ()
    last_accessed_at: datetime | None = None
    session_count: int = 0
    confirmations: int = 0
    corrections: int = 0
    contradictions: int = 0
    last_contradiction_at: datetime | None = None
    reinforcement_count: int = 0  # restated: merged sections, confirmations, user mentions
    user_mentions: int = 0
    importance_marks: int = 0
    importance: float = 5.0
    pending_conflict: bool = False

    @property
    def age_hours(self) -> float:
        return max(0.0, (self.now - self.created_at).total_seconds() / 3600)

    def hours_since(self, moment: datetime | None) -> float | None:
        if moment is None:
            return None
        return max(0.0, (self.now - moment).total_seconds() / 3600)


@dataclass
class Score:
    access_pattern: float
    content_stability: float
    user_engagement: float
    semantic_importance: float
    composite: float
    details: dict = field(default_factory=dict)

    def breakdown(self) -> dict:
        return {
            "access_pattern": self.access_pattern,
            "content_stability": self.content_stability,
            "user_engagement": self.user_engagement,
            "semantic_importance": self.semantic_importance,
            "composite_score": self.composite,
            "details": self.details,
        }


def _clamp(value: float) -> float:
    return round(min(10.0, max(0.0, value)), 2)


def time_spread_bonus(times, *, hours_for_full: float = 48.0) -> float:
    """0-2: accesses spread over days score more than the same number in one sitting."""
    times = sorted(times)
    if len(times) < 2:
        return 0.0
    span = (times[-1] - times[0]).total_seconds() / 3600
    return round(2.0 * min(1.0, span / hours_for_full), 2)


def recency_factor(hours_since_last: float | None) -> float:
    """Recent accesses weigh more: 1 within a week, falling to 0.5 at 30 days."""
    if hours_since_last is None:
        return 1.0
    days = hours_since_last / 24
    if days <= 7:
        return 1.0
    return round(max(0.5, 1.0 - 0.5 * (days - 7) / 23), 3)


def access_pattern_score(facts: UsageFacts, config: dict) -> tuple[float, dict]:
    cap = config["access_diminishing_returns_threshold"] * config["access_count_multiplier"]
    base = min(facts.access_count * config["access_count_multiplier"], cap)
    spread = time_spread_bonus(facts.access_times)
    sessions = min(facts.session_count * config["cross_session_bonus_multiplier"], 2.0)
    recency = recency_factor(facts.hours_since(facts.last_accessed_at))
    total = _clamp((base + spread + sessions) * recency)
    return total, {"base": base, "time_spread": spread, "sessions": sessions, "recency": recency}


def content_stability_score(facts: UsageFacts, config: dict) -> tuple[float, dict]:
    age = min(facts.age_hours / 24, 3.0)
    penalty = facts.contradictions * config["contradiction_penalty"]
    reinforcement = facts.reinforcement_count * config["reinforcement_bonus"]
    since = facts.hours_since(facts.last_contradiction_at)
    if facts.pending_conflict or (
        since is not None and since < config["contradiction_cooldown_hours"]
    ):
        consistency = 0.0
    elif facts.contradictions:
        consistency = 1.0
    else:
        consistency = 2.0
    total = _clamp(age + reinforcement + consistency + penalty)
    return total, {
        "age": round(age, 2),
        "reinforcement": reinforcement,
        "consistency": consistency,
        "contradictions": penalty,
    }


def user_engagement_score(facts: UsageFacts, content: str, config: dict) -> tuple[float, dict]:
    confirmations = facts.confirmations * config["confirmation_bonus"]
    mentions = facts.user_mentions * config["user_mention_bonus"]
    corrections = facts.corrections * config["correction_bonus"]
    emotion = emotional_weight(content)
    total = _clamp(confirmations + mentions + corrections + emotion)
    return total, {
        "confirmations": confirmations,
        "mentions": mentions,
        "corrections": corrections,
        "emotion": emotion,
    }


def semantic_importance_score(content: str, config: dict) -> tuple[float, dict]:
    markers = content_markers(content)
    weights = {
        "identity": config["identity_marker_weight"],
        "preference": config["preference_weight"],
        "belief": config["belief_weight"],
        "factual": config["factual_weight"],
        "pronoun": config["pronoun_weight"],
    }
    total = _clamp(sum(markers[kind] * weights[kind] for kind in markers))
    return total, {"markers": markers}


def promotion_score(facts: UsageFacts, content: str, config: dict) -> Score:
    """The four components and the composite. Raises when a component cannot be computed
    (the caller falls back to the simple rule)."""
    access, access_details = access_pattern_score(facts, config)
    stability, stability_details = content_stability_score(facts, config)
    engagement, engagement_details = user_engagement_score(facts, content, config)
    semantic, semantic_details = semantic_importance_score(content, config)
    composite = round(
        access * config["access_pattern_weight"]
        + stability * config["content_stability_weight"]
        + engagement * config["user_engagement_weight"]
        + semantic * config["semantic_importance_weight"],
        2,
    )
    return Score(
        access_pattern=access,
        content_stability=stability,
        user_engagement=engagement,
        semantic_importance=semantic,
        composite=composite,
        details={
            "access_pattern": access_details,
            "content_stability": stability_details,
            "user_engagement": engagement_details,
            "semantic_importance": semantic_details,
        },
    )


@dataclass
class PromotionDecision:
    promote: bool
    decided_by: str  # a consolidation.models.PromotionDecider value
    reason: str
    score: Score | None = None
    error: str = ""


def immediate_trigger(facts: UsageFacts, content: str, config: dict) -> tuple[str, str] | None:
    """(decider, reason) of the first fast-track condition that holds, or None."""
    if facts.corrections:
        return "trigger_correction", f"corrected by the user {facts.corrections}×"
    if facts.importance_marks:
        return "trigger_important", "marked important"
    if facts.session_count >= config["trigger_sessions"]:
        return "trigger_sessions", f"used in {facts.session_count} sessions"
    emotion = emotional_weight(content)
    if (
        emotion >= config["trigger_emotion"]
        and facts.access_count >= config["trigger_emotion_accesses"]
    ):
        return "trigger_emotion", f"emotional weight {emotion} and {facts.access_count} accesses"
    return None


def minimum_requirements(facts: UsageFacts, config: dict) -> str:
    """Why the memory is not eligible yet ("" when it is)."""
    if facts.age_hours < config["minimum_age_hours"]:
        return f"{facts.age_hours:.1f} h old; at least {config['minimum_age_hours']:g} h"
    if facts.access_count < config["minimum_access_count"]:
        return f"{facts.access_count} accesses; at least {config['minimum_access_count']}"
    since = facts.hours_since(facts.last_contradiction_at)
    if since is not None and since < config["contradiction_cooldown_hours"]:
        return (
            f"contradicted {since:.1f} h ago; cooldown {config['contradiction_cooldown_hours']:g} h"
        )
    return ""


def fallback_rule(facts: UsageFacts, config: dict) -> bool:
    """Seed 001's simple rule, used when a component fails."""
    return (
        facts.access_count >= config["fallback_access_count"]
        and facts.importance >= config["fallback_importance"]
        and facts.reinforcement_count >= config["fallback_reinforcement"]
        and facts.age_hours >= config["fallback_age_hours"]
    )


def decide(
    facts: UsageFacts, content: str, config: dict, *, scorer=promotion_score
) -> PromotionDecision:
    """Promote or not, what decided, why, and the score (None when scoring failed)."""
    if facts.pending_conflict:
        score = _safe(scorer, facts, content, config)
        return PromotionDecision(
            False, "not_eligible", "a conflict about it awaits a reviewer", score
        )
    try:
        score = scorer(facts, content, config)
    except Exception as exc:  # any component's failure: the simple rule decides
        promote = fallback_rule(facts, config)
        return PromotionDecision(
            promote,
            "fallback",
            "fallback rule "
            + ("met" if promote else "not met")
            + f" (access {facts.access_count}, importance {facts.importance:g}, "
            f"reinforcement {facts.reinforcement_count}, age {facts.age_hours:.0f} h)",
            None,
            error=f"{type(exc).__name__}: {exc}",
        )
    trigger = immediate_trigger(facts, content, config)
    if trigger is not None:
        return PromotionDecision(True, trigger[0], trigger[1], score)
    missing = minimum_requirements(facts, config)
    if missing:
        return PromotionDecision(False, "not_eligible", missing, score)
    threshold = config["promotion_threshold"]
    if score.composite >= threshold:
        return PromotionDecision(
            True, "threshold", f"score {score.composite} ≥ {threshold:g}", score
        )
    return PromotionDecision(False, "below", f"score {score.composite} < {threshold:g}", score)


def _safe(scorer, facts, content, config) -> Score | None:
    try:
        return scorer(facts, content, config)
    except Exception:
        return None
