"""The LLM's part in consolidation, when an LLM is configured: a verdict on a pair of
notes and a merged text. Each call raises ``LLMError`` when the endpoint fails; the callers
fall back to the deterministic judge.

The LLM answers ADD (another subject: a memory of its own), UPDATE (the same subject with
compatible new detail), CONFLICT (a fact of INCOMING contradicts EXISTING) or NOOP (nothing
new), with a short reason and the claims involved. Consolidation reads these as
``other_subject``, ``consistent`` (UPDATE, NOOP) and ``contradiction``; the LLM's own
verdict and claims go with the candidate to the review pages."""

from memoryhub.providers.llm import LLMError, chat_json, llm_configured

VERDICTS = {
    "ADD": "other_subject",
    "UPDATE": "consistent",
    "NOOP": "consistent",
    "CONFLICT": "contradiction",
    # the names of the earlier schema, still read
    "consistent": "consistent",
    "contradiction": "contradiction",
    "other_subject": "other_subject",
}
JUDGE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["verdict", "reason", "claims"],
    "properties": {
        "verdict": {"type": "string", "enum": ["ADD", "UPDATE", "CONFLICT", "NOOP"]},
        "reason": {"type": "string"},
        "claims": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["existing", "incoming"],
                "properties": {"existing": {"type": "string"}, "incoming": {"type": "string"}},
            },
        },
    },
}
JUDGE_PROMPT = (
    "You compare two notes kept by an AI agent. EXISTING is stored memory; INCOMING is newer "
    "working memory. Answer one verdict:\n"
    "CONFLICT: about the same subject, INCOMING states a fact that cannot be true together "
    "with EXISTING: another number, amount, date, time or version for the same thing; a "
    "negation or reversal; another owner, assignee, region, host, employer, home, chosen "
    "library or other single value; a changed preference; a changed type (REST to gRPC, "
    "employee to contractor). A moved deadline is a CONFLICT even when INCOMING says it "
    "moved. Other units or date formats for the same value are not a conflict.\n"
    "UPDATE: the same subject, INCOMING adds compatible detail (another value of something "
    "that has several, a status moving forward).\n"
    "NOOP: INCOMING only restates EXISTING.\n"
    "ADD: the notes are about different people, things or projects, even with shared words.\n"
    "Give a one-sentence reason and, for CONFLICT or UPDATE, the claims involved: the "
    "sentence of EXISTING and the sentence of INCOMING, quoted."
)
MERGE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "required": ["merged"],
    "properties": {"merged": {"type": "string"}},
}
MERGE_PROMPT = (
    "Merge two notes about the same subject into one note. Keep every fact of both, "
    "keep the order of EXISTING, add what INCOMING adds, do not repeat a fact, do not invent "
    "anything. Answer the merged text."
)


def llm_judge(*, incoming: str, existing: str) -> dict:
    """The LLM's verdict on a pair; raises LLMError when the endpoint fails."""
    answer = chat_json(
        system=JUDGE_PROMPT,
        user=f"EXISTING:\n{existing}\n\nINCOMING:\n{incoming}",
        schema=JUDGE_SCHEMA,
        schema_name="memory_conflict_judgement",
    )
    verdict = VERDICTS.get(answer.get("verdict"))
    if verdict is None:
        raise LLMError(f"the judge answered an unknown verdict {answer.get('verdict')!r}")
    claims = answer.get("claims") if isinstance(answer.get("claims"), list) else []
    return {
        "verdict": verdict,
        "llm_verdict": answer["verdict"],
        "explanation": str(answer.get("reason") or answer.get("explanation") or "")[:1000],
        "claims": [
            {
                "existing": str(c.get("existing", ""))[:500],
                "incoming": str(c.get("incoming", ""))[:500],
            }
            for c in claims[:10]
            if isinstance(c, dict)
        ],
    }


def llm_merge(*, existing: str, incoming: str) -> str:
    answer = chat_json(
        system=MERGE_PROMPT,
        user=f"EXISTING:\n{existing}\n\nINCOMING:\n{incoming}",
        schema=MERGE_SCHEMA,
        schema_name="memory_merge",
    )
    merged = answer.get("merged")
    if not isinstance(merged, str) or not merged.strip():
        raise LLMError("the merge answer has no merged text")
    return merged.strip()


def use_llm(config: dict, key: str) -> bool:
    return bool(config.get(key)) and llm_configured()
