"""What to do with one active section given its most similar shortterm chunks: merge,
conflict or create (issue 5). Pure functions over texts, extractions and similarities, so
the migration and the calibration benchmark (``manage.py calibrate_migration``) decide
the same way.

A candidate is a chunk whose cosine similarity reaches ``candidate_similarity``. Each
candidate is assessed by the deterministic checks of ``tiers.conflict_check`` and, when
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

from graph.extraction.base import Extraction
from memoryhub.providers.llm import LLMError, chat_json, llm_configured
from tiers.conflict_check import check_conflict, entity_containment, entity_overlap, relationship_overlap

logger = logging.getLogger(__name__)

OTHER_SUBJECT = {"low_entity_overlap", "other_subject", "llm_other_subject"}

JUDGE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["verdict", "explanation"],
    "properties": {
        "verdict": {"type": "string", "enum": ["consistent", "contradiction", "other_subject"]},
        "explanation": {"type": "string"},
    },
}
JUDGE_PROMPT = (
    "You compare two notes kept by an AI agent. EXISTING is stored memory; INCOMING is newer working memory. "
    "Answer 'contradiction' when INCOMING states something about the same subject that cannot be true together "
    "with EXISTING (a changed number, amount, date, version, owner, location, preference; a negation). "
    "Answer 'consistent' when INCOMING restates or adds to EXISTING about the same subject. "
    "Answer 'other_subject' when the notes are about different people, things or projects. "
    "Explain in one sentence."
)
MERGE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["merged"],
    "properties": {"merged": {"type": "string"}},
}
MERGE_PROMPT = (
    "Merge two notes about the same subject into one note. Keep every fact of both, keep the order of "
    "EXISTING, add what INCOMING adds, do not repeat a fact, do not invent anything. Answer the merged text."
)


def llm_judge(*, incoming: str, existing: str) -> dict:
    """The LLM's verdict on a pair; raises LLMError when the endpoint fails."""
    answer = chat_json(system=JUDGE_PROMPT, user=f"EXISTING:\n{existing}\n\nINCOMING:\n{incoming}",
                       schema=JUDGE_SCHEMA, schema_name="memory_conflict_judgement")
    if answer.get("verdict") not in ("consistent", "contradiction", "other_subject"):
        raise LLMError(f"the judge answered an unknown verdict {answer.get('verdict')!r}")
    return {"verdict": answer["verdict"], "explanation": str(answer.get("explanation", ""))[:1000]}


def llm_merge(*, existing: str, incoming: str) -> str:
    answer = chat_json(system=MERGE_PROMPT, user=f"EXISTING:\n{existing}\n\nINCOMING:\n{incoming}",
                       schema=MERGE_SCHEMA, schema_name="memory_merge")
    merged = answer.get("merged")
    if not isinstance(merged, str) or not merged.strip():
        raise LLMError("the merge answer has no merged text")
    return merged.strip()


def use_llm(config: dict, key: str) -> bool:
    return bool(config.get(key)) and llm_configured()


def assess_candidate(*, content: str, incoming_graph: Extraction, candidate: dict, existing_graph: Extraction,
                     config: dict) -> dict:
    """The candidate with its entity overlap figures and every conflict reason."""
    reasons = check_conflict(
        incoming=content, existing=candidate["content"], incoming_graph=incoming_graph,
        existing_graph=existing_graph, similarity=candidate["similarity"],
        high_similarity=config["high_similarity"], min_entity_overlap=config["min_entity_overlap"],
    )
    assessed = candidate | {
        "entity_overlap": round(entity_overlap(incoming_graph, existing_graph), 3),
        "entity_containment": round(entity_containment(incoming_graph, existing_graph), 3),
        "relationship_overlap": round(relationship_overlap(incoming_graph, existing_graph), 3),
        "reasons": reasons,
    }
    if use_llm(config, "llm_judge"):
        try:
            verdict = llm_judge(incoming=content, existing=candidate["content"])
        except LLMError as exc:
            logger.warning("LLM judge unavailable, deterministic checks only: %s", exc)
            assessed["llm"] = {"error": str(exc)}
        else:
            assessed["llm"] = verdict
            if verdict["verdict"] == "contradiction":
                reasons.append({"code": "llm_contradiction", "detail": verdict["explanation"],
                                "incoming": None, "existing": None})
            elif verdict["verdict"] == "other_subject" and not any(r["code"] in OTHER_SUBJECT for r in reasons):
                reasons.append({"code": "llm_other_subject", "detail": verdict["explanation"],
                                "incoming": None, "existing": None})
    return assessed


def decide(candidates: list[dict], config: dict) -> dict:
    """The plan for a section from its assessed candidates (most similar first):
    ``{"outcome": "conflict", "conflicting": [...]}``, ``{"outcome": "merged", "target": c}``
    or ``{"outcome": "created", "detail": ...}``."""
    considered = [c for c in candidates if c["similarity"] >= config["candidate_similarity"]]
    contradicted = [c for c in considered if any(r["code"] not in OTHER_SUBJECT for r in c["reasons"])]
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
