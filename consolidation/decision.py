"""What to do with one active section given its most similar shortterm chunks: merge,
conflict or create. Pure functions over texts, extractions and similarities, so
consolidation and the calibration command (``manage.py calibrate_migration``) decide
the same way.

A candidate is a chunk whose cosine similarity reaches ``candidate_similarity``. Each
candidate is assessed by the claim judge (``consolidation.claim_judge``: claim-level
comparison and the rule checks as features of a fitted model; ``judge: rules`` keeps the
rule checks of ``consolidation.checks`` alone) and, when
``MEMORYHUB_MIGRATION_LLM_JUDGE`` is on and an LLM is configured, by the LLM judge too.
Then:

- any candidate contradicted (a reason other than "another subject") → **conflict**;
- else the most similar candidate about the same subject → **merged** into it;
- else, when every candidate is about another subject → ``other_subject_outcome``
  (``created`` by default: similar wording about different things is a new memory;
  ``conflict`` sends it to a reviewer);
- no candidate → **created**.
"""

import logging

from consolidation import claim_judge
from consolidation.checks import check_conflict
from consolidation.judge import llm_judge, use_llm
from graph.differences import entity_containment, entity_overlap, relationship_overlap
from graph.extraction.base import Extraction
from memoryhub.providers.llm import LLMError

logger = logging.getLogger(__name__)

OTHER_SUBJECT = {"low_entity_overlap", "other_subject", "llm_other_subject"}
# Claim signals that speak for another subject, never a reason for a conflict.
SUBJECT_SIGNALS = {"qualifier_swap"}


def claims_judged(config: dict) -> bool:
    """Whether the claim judge decides (the default, with a fitted model): the claims of the
    section and its candidates are then read."""
    return config.get("judge", "claims") == "claims" and claim_judge.load_model() is not None


def assess_candidate(
    *,
    content: str,
    incoming_graph: Extraction,
    candidate: dict,
    existing_graph: Extraction,
    config: dict,
) -> dict:
    """The candidate with its entity overlap figures, the judge's verdict and evidence, and
    every conflict reason."""
    judged = None
    if claims_judged(config):
        signals = claim_judge.pair_signals(
            incoming=content,
            existing=candidate["content"],
            similarity=candidate["similarity"],
            incoming_graph=incoming_graph,
            existing_graph=existing_graph,
        )
        judged = claim_judge.judge(signals) | {"evidence": signals["evidence"]}
        reasons = judge_reasons(judged, signals["rules"])
    else:
        reasons = check_conflict(
            incoming=content,
            existing=candidate["content"],
            incoming_graph=incoming_graph,
            existing_graph=existing_graph,
            similarity=candidate["similarity"],
            high_similarity=config["high_similarity"],
            min_entity_overlap=config["min_entity_overlap"],
        )
    assessed = candidate | {
        "entity_overlap": round(entity_overlap(incoming_graph, existing_graph), 3),
        "entity_containment": round(entity_containment(incoming_graph, existing_graph), 3),
        "relationship_overlap": round(relationship_overlap(incoming_graph, existing_graph), 3),
        "reasons": reasons,
    }
    if judged is not None:
        assessed["judge"] = judged
    if use_llm(config, "llm_judge"):
        try:
            verdict = llm_judge(incoming=content, existing=candidate["content"])
        except LLMError as exc:
            logger.warning("LLM judge unavailable, deterministic checks only: %s", exc)
            assessed["llm"] = {"error": str(exc)}
        else:
            assessed["llm"] = verdict
            if verdict["verdict"] == "contradiction":
                reasons.append(
                    {
                        "code": "llm_contradiction",
                        "detail": verdict["explanation"],
                        "incoming": None,
                        "existing": None,
                    }
                )
            elif verdict["verdict"] == "other_subject" and not any(
                r["code"] in OTHER_SUBJECT for r in reasons
            ):
                reasons.append(
                    {
                        "code": "llm_other_subject",
                        "detail": verdict["explanation"],
                        "incoming": None,
                        "existing": None,
                    }
                )
    return assessed


def judge_reasons(judged: dict, rules: list[dict]) -> list[dict]:
    """The reasons that stand for the claim judge's verdict: none for a merge; "another
    subject" for new; for a conflict, each signal that fired on aligned claims (with both
    claims' spans) and the rule checks that agree, or the judge's probability alone."""
    probability = judged["probabilities"][judged["label"]]
    if judged["label"] == "merge":
        return []
    if judged["label"] == "new":
        return [
            {
                "code": "other_subject",
                "detail": f"claim judge: another subject (p={probability:.2f})",
                "incoming": None,
                "existing": None,
            }
        ]
    reasons = [
        {
            "code": f"claim_{item['signal']}",
            "detail": item["detail"],
            "incoming": (item.get("incoming") or {}).get("span"),
            "existing": (item.get("existing") or {}).get("span"),
        }
        for item in judged["evidence"]
        if item["signal"] not in SUBJECT_SIGNALS
    ]
    reasons += [r for r in rules if r["code"] not in OTHER_SUBJECT]
    if not reasons:
        reasons.append(
            {
                "code": "claim_judge",
                "detail": f"claim judge: contradiction (p={probability:.2f})",
                "incoming": None,
                "existing": None,
            }
        )
    return reasons


def decide(candidates: list[dict], config: dict) -> dict:
    """The plan for a section from its assessed candidates (most similar first):
    ``{"outcome": "conflict", "conflicting": [...]}``, ``{"outcome": "merged", "target": c}``
    or ``{"outcome": "created", "detail": ...}``."""
    considered = [c for c in candidates if c["similarity"] >= config["candidate_similarity"]]
    contradicted = [
        c for c in considered if any(r["code"] not in OTHER_SUBJECT for r in c["reasons"])
    ]
    if contradicted:
        return {"outcome": "conflict", "conflicting": contradicted}
    same_subject = [c for c in considered if not c["reasons"]]
    if same_subject:
        return {"outcome": "merged", "target": max(same_subject, key=lambda c: c["similarity"])}
    if considered and config.get("other_subject_outcome", "created") == "conflict":
        return {"outcome": "conflict", "conflicting": considered}
    if considered:
        return {"outcome": "created", "detail": "similar text about other entities"}
    return {"outcome": "created"}
