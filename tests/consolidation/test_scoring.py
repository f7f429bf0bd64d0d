"""Promotion scoring (seed 001): components, triggers, minimums, fallback, and the seed's
worked examples."""

from datetime import UTC, datetime, timedelta

import pytest

from consolidation.scoring import (
    UsageFacts,
    access_pattern_score,
    content_markers,
    content_stability_score,
    decide,
    emotional_weight,
    memory_type_of,
    semantic_importance_score,
    time_spread_bonus,
    user_engagement_score,
)

T0 = datetime(2025, 1, 31, 10, tzinfo=UTC)


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


@pytest.fixture
def config(settings):
    return settings.MEMORYHUB_PROMOTION


def facts(now: float, accesses=(), sessions=0, **kw) -> UsageFacts:
    times = tuple(at(h) for h in accesses)
    return UsageFacts(
        now=at(now),
        created_at=T0,
        access_count=len(times),
        access_times=times,
        last_accessed_at=max(times) if times else None,
        session_count=sessions,
        **kw,
    )


def test_access_pattern_has_diminishing_returns_and_rewards_spread_and_sessions(config):
    clustered, _ = access_pattern_score(facts(2, [0, 0.2, 0.4, 0.6, 0.8], 1), config)
    spread, details = access_pattern_score(facts(80, [0, 24, 48, 72], 3), config)
    assert details["base"] == 6.0  # 4 accesses x 1.5, the cap
    assert access_pattern_score(facts(80, [0] * 12, 0), config)[1]["base"] == 6.0
    assert spread > clustered
    assert details["sessions"] == 1.5
    assert time_spread_bonus([at(0), at(0.5)]) < time_spread_bonus([at(0), at(48)]) == 2.0


def test_stale_accesses_weigh_less(config):
    recent, _ = access_pattern_score(facts(30, [0, 10, 20, 29], 2), config)
    stale, details = access_pattern_score(facts(31 * 24 + 29, [0, 10, 20, 29], 2), config)
    assert stale < recent and details["recency"] == 0.5


def test_stability_grows_with_age_and_reinforcement_and_falls_with_contradictions(config):
    young, _ = content_stability_score(facts(1), config)
    old, details = content_stability_score(facts(100, reinforcement_count=2), config)
    assert details == {"age": 3.0, "reinforcement": 2.0, "consistency": 2.0, "contradictions": 0.0}
    contradicted, details = content_stability_score(
        facts(100, reinforcement_count=2, contradictions=2, last_contradiction_at=at(99)), config
    )
    assert young < old and contradicted < old
    assert details["consistency"] == 0.0 and details["contradictions"] == -4.0
    assert content_stability_score(facts(100, contradictions=9), config)[0] == 0.0  # floor


def test_engagement_counts_confirmations_mentions_corrections_and_emotion(config):
    score, details = user_engagement_score(
        facts(5, confirmations=1, user_mentions=2, corrections=1), "plain", config
    )
    assert details == {"confirmations": 2.0, "mentions": 3.0, "corrections": 3.0, "emotion": 0.0}
    assert score == 8.0
    assert user_engagement_score(facts(5, corrections=5), "x", config)[0] == 10.0  # capped


def test_semantic_markers_in_first_and_third_person(config):
    first = content_markers("My name is Ana and I prefer tea. I believe in rest days.")
    assert first["identity"] == 1 and first["preference"] == 1 and first["belief"] == 1
    third = content_markers("The user prefers dark mode and lives in Lisbon with her wife.")
    assert third["preference"] == 1 and third["factual"] >= 1
    plain, _ = semantic_importance_score("The build runs at noon.", config)
    personal, _ = semantic_importance_score(
        "I am a nurse. I love hiking and I think rest matters.", config
    )
    assert plain < personal <= 10.0


def test_emotion_is_zero_to_two():
    assert emotional_weight("The cron job runs hourly.") == 0.0
    mild = emotional_weight("I was happy with the trip.")
    strong = emotional_weight("I was so devastated and heartbroken when she passed away!!")
    assert 0 < mild < strong <= 2.0


def test_minimums_block_the_threshold_but_not_triggers(config):
    young = decide(facts(1, [0, 0.5, 0.9], 1), "I prefer tea.", config)
    assert not young.promote and young.decided_by == "not_eligible" and "h old" in young.reason
    corrected = decide(facts(0.1, [0], 1, corrections=1), "I prefer React.", config)
    assert corrected.promote and corrected.decided_by == "trigger_correction"
    marked = decide(facts(0.1, [], 0, importance_marks=1), "Deploy key rotates monthly.", config)
    assert marked.promote and marked.decided_by == "trigger_important"
    sessions = decide(facts(2, [0, 1, 2], 3), "Uses Postgres 16.", config)
    assert sessions.promote and sessions.decided_by == "trigger_sessions"
    emotional = decide(
        facts(1, [0, 0.5], 1), "I was so devastated and heartbroken when Rex died!", config
    )
    assert emotional.promote and emotional.decided_by == "trigger_emotion"


def test_a_pending_conflict_blocks_every_path(config):
    decision = decide(
        facts(100, [0, 30, 60, 90], 2, corrections=1, pending_conflict=True), "x", config
    )
    assert not decision.promote and "reviewer" in decision.reason


def test_a_failing_component_falls_back_to_the_simple_rule(config):
    def broken(*args):
        raise ValueError("emotion model unavailable")

    ready = facts(30, [0, 1, 2, 3, 4, 5, 6], 1, reinforcement_count=3, importance=6.0)
    decision = decide(ready, "text", config, scorer=broken)
    assert decision.promote and decision.decided_by == "fallback"
    assert "emotion model unavailable" in decision.error and decision.score is None
    young = facts(10, [0, 1, 2, 3, 4, 5, 6], 1, reinforcement_count=3, importance=6.0)
    assert not decide(young, "text", config, scorer=broken).promote  # age < 24 h


def test_seed_example_1_python_preference_is_promoted_on_day_3_by_the_threshold(config):
    """Seed 001, example 1: mentioned on day 1, referenced again (and the agent's section
    restating it merged) on day 2, confirmed on day 3 — the score rises each day and
    crosses 7.0 on day 3."""
    said = "I like programming in Python."
    day1 = facts(8, [0, 0.5], 1, user_mentions=1, reinforcement_count=1)
    day2_accesses = [0, 0.5, 26, 26.5]
    day2 = facts(30, day2_accesses, 2, user_mentions=2, reinforcement_count=3)
    day3 = facts(
        54,
        day2_accesses + [52, 52.5],
        2,
        user_mentions=2,
        confirmations=1,
        reinforcement_count=4,
    )
    one = decide(day1, said, config)
    two = decide(day2, said, config)
    three = decide(day3, said + " Yes, Python is my favorite, I love it!", config)
    assert not one.promote and one.decided_by == "not_eligible"  # 2 accesses, 8 h
    assert not two.promote and two.decided_by == "below"
    assert three.promote and three.decided_by == "threshold"
    assert one.score.composite < two.score.composite < 7.0 <= three.score.composite
    assert three.score.details["user_engagement"]["confirmations"] == 2.0


def test_seed_example_2_a_correction_promotes_at_once_and_blocks_the_contradicted(config):
    """Seed 001, example 2: "Actually, I prefer React over Vue" — the correction is
    promoted at once; the Vue preference, contradicted, is blocked."""
    react = decide(facts(0.05, [0], 1, corrections=1), "Actually, I prefer React over Vue.", config)
    assert react.promote and react.decided_by == "trigger_correction"
    vue = decide(
        facts(
            60,
            [0, 20, 40, 58],
            2,
            user_mentions=2,
            reinforcement_count=2,
            contradictions=1,
            last_contradiction_at=at(59.9),
        ),
        "I prefer Vue over React.",
        config,
    )
    assert not vue.promote and "cooldown" in vue.reason
    assert vue.score.details["content_stability"]["contradictions"] == -2.0


def test_memory_types_from_metadata_then_text():
    assert memory_type_of("anything", {"memory_type": "procedural"}) == "procedural"
    assert memory_type_of("anything", {"location": "Lisbon"}) == "episodic"
    assert memory_type_of("anything", {"steps": [1, 2]}) == "procedural"
    assert memory_type_of("1. Stop the service\n2. Run `make restore`\n3. Start it") == (
        "procedural"
    )
    assert memory_type_of("Yesterday we visited the museum in Porto.") == "episodic"
    assert memory_type_of("Ana prefers tea and works at Acme.") == "semantic"
