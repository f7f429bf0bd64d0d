"""The deterministic conflict checks, on the seed's examples and the issue's cases."""

import pytest

from consolidation.checks import check_conflict
from graph.extraction.heuristic import HeuristicExtractor

extract = HeuristicExtractor().extract


def check(incoming, existing, similarity=0.9):
    return check_conflict(
        incoming=incoming,
        existing=existing,
        incoming_graph=extract(incoming),
        existing_graph=extract(existing),
        similarity=similarity,
    )


def codes(reasons):
    return {r["code"] for r in reasons}


def test_the_q3_budget_change_is_a_conflict_with_spans():
    existing = "The Q3 budget for the marketing team is $50,000."
    incoming = "The Q3 budget for the marketing team is $65,000."
    reasons = check(incoming, existing)
    assert codes(reasons) == {"number_changed"}
    reason = reasons[0]
    assert (
        incoming[slice(*reason["incoming"])] == "$65,000"
        and existing[slice(*reason["existing"])] == "$50,000"
    )
    assert "$50,000 → $65,000" in reason["detail"]


def test_a_restatement_is_not_a_conflict():
    existing = "We use JWT tokens for token-based authentication at the API gateway."
    incoming = "Token-based authentication at the API gateway uses JWT tokens, signed with RS256."
    assert check(incoming, existing) == []


@pytest.mark.parametrize(
    ("existing", "incoming", "code"),
    [
        (
            "The billing service uses Redis.",
            "The billing service no longer uses Redis.",
            "negation_flip",
        ),
        (
            "The launch review is on March 3, 2026.",
            "The launch review is on March 10, 2026.",
            "date_changed",
        ),
        (
            "The search indexer runs version 2.3.1 in production.",
            "The search indexer runs version 2.4.0 in production.",
            "version_changed",
        ),
        (
            "Marco Rossi reports to Elena Petrova.",
            "Marco Rossi reports to Grace Okafor.",
            "functional_relationship_changed",
        ),
        ("Deploys take 40 ms at p95.", "Deploys take 90 ms at p95.", "number_changed"),
        ("The cluster has three node pools.", "The cluster has 5 node pools.", "number_changed"),
        (
            "The contract with Stripe renews in January.",
            "The contract with Stripe renews in June.",
            "date_changed",
        ),
        ("Deploys happen every Tuesday.", "Deploys happen every Thursday.", "date_changed"),
        ("Caroline moved to Boston in 2019.", "Caroline moved to Boston in 2021.", "date_changed"),
        ("The user likes dark mode.", "The user dislikes dark mode.", "negation_flip"),
        (
            "Caroline is vegetarian and avoids dairy.",
            "Caroline is not vegetarian anymore, though she avoids dairy.",
            "negation_flip",
        ),
        (
            "Marco prefers meetings in the morning.",
            "Marco prefers meetings in the afternoon.",
            "value_replaced",
        ),
        (
            "The on-call rotation is owned by Alice Chen.",
            "The on-call rotation is owned by Bob Martin.",
            "value_replaced",
        ),
    ],
)
def test_each_kind_of_change_is_named(existing, incoming, code):
    assert code in codes(check(incoming, existing))


def test_similar_wording_about_other_entities():
    existing = "Alice Chen owns the billing service and the ledger."
    incoming = "Bob Martins owns the notification service and the audit log."
    assert "low_entity_overlap" in codes(check(incoming, existing, similarity=0.9))
    assert "low_entity_overlap" not in codes(check(incoming, existing, similarity=0.5))


def test_an_addition_is_not_a_conflict():
    existing = "The billing service uses PostgreSQL."
    incoming = "The billing service uses PostgreSQL. Backups run nightly at 02:00 UTC."
    assert check(incoming, existing) == []


def test_a_preference_that_only_grows_is_not_replaced():
    existing = "The user prefers concise answers with code examples."
    incoming = (
        "The user prefers concise answers with code examples, and wants type hints in Python code."
    )
    assert check(incoming, existing) == []


def test_a_replaced_value_names_both_words_and_spans():
    existing, incoming = (
        "Elena prefers tabs for indentation.",
        "Elena prefers spaces for indentation.",
    )
    [reason] = check(incoming, existing)
    assert reason["code"] == "value_replaced" and reason["detail"] == "prefers: tabs → spaces"
    assert (
        incoming[slice(*reason["incoming"])] == incoming
        and existing[slice(*reason["existing"])] == existing
    )


def test_the_same_statement_about_other_things_is_another_subject():
    existing = "The growth team budget for Q3 is $50,000."
    incoming = "The data team budget for Q3 is $80,000."
    assert codes(check(incoming, existing, similarity=0.8)) == {"other_subject"}


def test_nothing_shared_but_wording_is_another_subject():
    existing = (
        "Quentin Blake moved the checkout flow deploy to Monday after the memory leak review."
    )
    incoming = "Tara Singh moved the inventory sync deploy to Monday after the deadlock review."
    assert "other_subject" in codes(check(incoming, existing, similarity=0.7))


def test_a_technology_whose_release_changed_is_the_same_thing_not_another_subject():
    from graph.extraction.base import ExtractedEntity, Extraction

    def graph(name):
        return Extraction(entities=[ExtractedEntity(name=name, type="technology")])

    existing = "Mobile toolchain: Xcode 15.3 and Swift 5.10."
    incoming = "Mobile toolchain: Xcode 15.3 and Swift 5.9."
    reasons = check_conflict(
        incoming=incoming,
        existing=existing,
        incoming_graph=graph("Swift 5.9"),
        existing_graph=graph("Swift 5.10"),
        similarity=0.93,
    )
    assert "other_subject" not in codes(reasons)
