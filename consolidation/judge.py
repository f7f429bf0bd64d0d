"""The LLM's part in consolidation, when an LLM is configured: a verdict on a pair of
notes (consistent, contradiction, other subject) and a merged text. Each call raises
``LLMError`` when the endpoint fails; the callers fall back to the deterministic rules."""

from memoryhub.providers.llm import LLMError, chat_json, llm_configured

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
    "You compare two notes kept by an AI agent. EXISTING is stored memory; INCOMING is newer "
    "working memory. "
    "Answer 'contradiction' when INCOMING states something about the same subject that cannot "
    "be true together with EXISTING (a changed number, amount, date, version, owner, location, "
    "preference; a negation). "
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
    if answer.get("verdict") not in ("consistent", "contradiction", "other_subject"):
        raise LLMError(f"the judge answered an unknown verdict {answer.get('verdict')!r}")
    return {"verdict": answer["verdict"], "explanation": str(answer.get("explanation", ""))[:1000]}


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
