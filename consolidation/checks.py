"""Deterministic conflict checks between an incoming section and an existing chunk
(issue 5, "Conflict check"). Each conflict carries a machine-readable reason and the spans
involved: ``{"code", "detail", "incoming": [start, end], "existing": [start, end]}``.

- number/amount/date/version changed in otherwise matching sentences;
- a negation flip ("uses X" / "no longer uses X");
- a functional relationship (one object per subject: REPORTS_TO, WORKS_FOR, LOCATED_IN,
  MIGRATED_TO, PREFERS) pointing elsewhere, or USES against STOPPED_USING;
- an entity whose type changed;
- high similarity but low entity overlap (the same wording about different things).
"""

import re
from dataclasses import asdict, dataclass
from functools import lru_cache

from consolidation.claims import COMPARATIVES, NO_LONGER, NUMBER_NO
from graph.differences import entity_containment, graph_differences
from graph.extraction.base import Extraction
from graph.vocabulary import product_name, unordered_name
from memoryhub import lexicon
from memoryhub.text import has_word, jaccard, split_sentences
from memoryhub.values import find_values

# Not "no more than 3" (a bound) nor "member no. T-448120" (a number).
NEGATION = re.compile(
    rf"\b(?:{NO_LONGER}|not|never|stopped|doesn't|does not|don't|do not|isn't|is not|won't|"
    r"will not|without|cancel(?:l?ed)?|dropped|dislikes?|hates?"
    rf"|(?!{NUMBER_NO})no(?!\s+{COMPARATIVES}\s+than\b))\b",
    re.IGNORECASE,
)
NEGATION_WORDS = {
    "no",
    "not",
    "never",
    "longer",
    "anymore",
    "stopped",
    "doesn't",
    "don't",
    "isn't",
    "won't",
    "without",
    "dropped",
    "cancelled",
    "canceled",
    "cancel",
}
# Attributes with one value at a time: a preference, an employer, a manager, an owner, a
# home, a primary choice. Two matching sentences that both state one and replace a word
# (not only add some) disagree about its value.
SINGLE_VALUED = re.compile(
    r"\b(?:prefers?|preferred|preference|favou?rite|likes?|loves?|wants?|works? (?:for|at)|"
    r"reports? to|lives? in|located in|based in|moved to|migrated to|switched to|owned by|"
    r"owner of|owns|primary|default|main|led by|headed by|managed by|assigned to|"
    r"is (?:the|our) (?:\w+ ){0,2}(?:lead|owner|manager|contact))\b",
    re.IGNORECASE,
)
NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
} | {"twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "hundred": "100", "dozen": "12"}

MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
).split()
FULL_MONTHS = [m for m in MONTHS[:12] if m != "may"]  # "may" alone is a verb more often than not
DATE = re.compile(
    r"\b(?:\d{4}-\d{2}-\d{2}|(?:"
    + "|".join(MONTHS)
    + r")\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?|"
    r"\d{1,2}(?:st|nd|rd|th)?\s+(?:"
    + "|".join(MONTHS)
    + r")(?:,?\s+\d{4})?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|"
    r"(?:"
    + "|".join(FULL_MONTHS)
    + r")(?:\s+\d{4})?|(?:in|since|from|until|by)\s+(?:19|20)\d{2})\b",
    re.IGNORECASE,
)
VERSION = re.compile(
    r"\bv?\d+\.\d+(?:\.\d+)+\b|\bv\d+(?:\.\d+)?\b|\bversion\s+\d+(?:\.\d+)*\b", re.IGNORECASE
)
NUMBER = re.compile(
    r"[$€£]?\d[\d,]*(?:\.\d+)?\s?(?:%|k\b|m\b|bn\b|ms\b|s\b|gb\b|mb\b|tb\b|x\b)?|\b(?:"
    + "|".join(NUMBER_WORDS)
    + r")\b",
    re.IGNORECASE,
)
WORD = re.compile(r"[a-z][a-z'-]+")
DAY_WORD = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?")
STOP = set(
    "the a an of to in on at for and or is are was were be been it this that with by from as our "
    "we their its has have had will would should can".split()
)


@dataclass
class Reason:
    code: str
    detail: str
    incoming: list[int] | None = None
    existing: list[int] | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def _sentences_with_offsets(text: str) -> list[tuple[str, int]]:
    out, cursor = [], 0
    for sentence in split_sentences(text):
        start = text.find(sentence, cursor)
        start = start if start >= 0 else cursor
        out.append((sentence, start))
        cursor = start + len(sentence)
    return out


@lru_cache(maxsize=8192)
def _content_words(sentence: str) -> frozenset[str]:
    """Words that say what a sentence is about: no stop words, dates, numbers or negation
    (the checks compare those, so they must not keep two sentences from matching). Cached:
    each stored sentence is read against every incoming one."""
    return frozenset(
        w
        for w in WORD.findall(sentence.lower())
        if w not in STOP
        and w not in MONTHS
        and w not in NEGATION_WORDS
        and w not in NUMBER_WORDS
        and not DAY_WORD.fullmatch(w)
    )


def forget_sentences() -> None:
    """Empty the cache of sentences' content words (benchmarks time texts never seen)."""
    _content_words.cache_clear()


def _values(
    pattern: re.Pattern, sentence: str, exclude: list[tuple[int, int]] = ()
) -> list[tuple[str, int, int]]:
    found = []
    for match in pattern.finditer(sentence):
        if any(s <= match.start() < e for s, e in exclude):
            continue
        value = re.sub(r"[\s,]", "", match.group(0).lower())
        value = NUMBER_WORDS.get(value, value)
        value = re.sub(r"^(?:in|since|from|until|by)(?=\d)", "", re.sub(r"days$", "day", value))
        if value:
            found.append((value, match.start(), match.end()))
    return found


def _matching_pairs(incoming: str, existing: str, threshold: float):
    existing_sentences = _sentences_with_offsets(existing)
    for sentence, offset in _sentences_with_offsets(incoming):
        words = _content_words(sentence)
        best, best_score = None, 0.0
        for other, other_offset in existing_sentences:
            theirs = _content_words(other)
            score = jaccard(words, theirs)
            if min(len(words), len(theirs)) >= 3:  # one sentence repeats the other and goes on
                score = max(score, 0.8 * len(words & theirs) / min(len(words), len(theirs)))
            if score > best_score:
                best, best_score = (other, other_offset), score
        if best and best_score >= threshold:
            yield (sentence, offset), best


def _compare_values(code, label, pattern, pair, exclude_in=(), exclude_ex=()) -> Reason | None:
    (sentence, offset), (other, other_offset) = pair
    mine = _values(pattern, sentence, exclude_in)
    theirs = _values(pattern, other, exclude_ex)
    if not mine or not theirs or sorted(v for v, _, _ in mine) == sorted(v for v, _, _ in theirs):
        return None
    changed_in = [m for m in mine if m[0] not in {v for v, _, _ in theirs}] or mine
    changed_ex = [t for t in theirs if t[0] not in {v for v, _, _ in mine}] or theirs
    a, b = changed_ex[0], changed_in[0]
    return Reason(
        code=code,
        detail=f"{label} changed: {other[a[1] : a[2]].strip()} → {sentence[b[1] : b[2]].strip()}",
        incoming=[offset + b[1], offset + b[2]],
        existing=[other_offset + a[1], other_offset + a[2]],
    )


def _same_subject_pairs(incoming: str, existing: str):
    """Sentence pairs stating the same single-valued attribute ("… is owned by", "… prefers")
    of the same subject (the words before the cue), whatever follows: short sentences whose
    value is half their words do not match as a whole."""
    existing_sentences = [
        (s, o, SINGLE_VALUED.search(s)) for s, o in _sentences_with_offsets(existing)
    ]
    for sentence, offset in _sentences_with_offsets(incoming):
        cue = SINGLE_VALUED.search(sentence)
        if not cue:
            continue
        subject = _content_words(sentence[: cue.start()])
        for other, other_offset, other_cue in existing_sentences:
            if (
                other_cue
                and other_cue.group(0).lower() == cue.group(0).lower()
                and subject
                and jaccard(subject, _content_words(other[: other_cue.start()])) >= 0.5
            ):
                yield (sentence, offset), (other, other_offset)


def _value_replaced(pair) -> Reason | None:
    """Both sentences state a single-valued attribute and the incoming one swaps a word of
    the existing one for another ("prefers Python" → "prefers Rust"), rather than adding."""
    (sentence, offset), (other, other_offset) = pair
    cue_in, cue_ex = SINGLE_VALUED.search(sentence), SINGLE_VALUED.search(other)
    if not cue_in or not cue_ex:
        return None
    cue_words = set(WORD.findall(cue_in.group(0).lower())) | set(
        WORD.findall(cue_ex.group(0).lower())
    )
    mine, theirs = _content_words(sentence) - cue_words, _content_words(other) - cue_words
    gone, new = sorted(theirs - mine), sorted(mine - theirs)
    if not gone or not new:
        return None
    return Reason(
        code="value_replaced",
        detail=f"{cue_ex.group(0)}: {' '.join(gone)} → {' '.join(new)}",
        incoming=[offset, offset + len(sentence)],
        existing=[other_offset, other_offset + len(other)],
    )


GROUP = re.compile(
    r"\b([a-z][\w-]*) (?:team|squad|department|group|project|region|account|customer|client)\b",
    re.IGNORECASE,
)


def _mentions(sentence: str, names: set[str]) -> set[str]:
    """The entities a sentence names: the extraction's entities found in it, and groups
    named by a modifier ("the growth team", "the Falcon project")."""
    lowered = sentence.lower()
    found = {name for name in names if has_word(lowered, name)}
    found |= {
        m.group(0).lower()
        for m in GROUP.finditer(sentence)
        if m.group(1).lower() not in STOP | STOP_GROUP
    }
    return {  # "22 rua das flores" is "rua das flores 22"
        unordered_name(name)
        for name in found
        if not any(name != other and name in other for other in found)
    }


STOP_GROUP = {
    "same",
    "other",
    "new",
    "whole",
    "entire",
    "one",
    "each",
    "every",
    "this",
    "that",
    "my",
    "your",
}


def _other_subject(sentence: str, other: str, names: set[str]) -> bool:
    """The two sentences name different things in the same place ("the growth team budget"
    / "the data team budget", "payments api latency" / "search indexer latency"): a change
    of figures between them is not a contradiction."""
    mine, theirs = _mentions(sentence, names), _mentions(other, names)
    return bool(mine - theirs) and bool(theirs - mine)


def check_text(
    incoming: str,
    existing: str,
    *,
    sentence_match: float = 0.5,
    entity_names: set[str] = frozenset(),
) -> tuple[list[Reason], bool]:
    """The text's conflict reasons, and whether a statement of one text matches one of the
    other about the same things (evidence of one subject)."""
    reasons: list[Reason] = []
    matched = list(_matching_pairs(incoming, existing, sentence_match))
    for pair in _same_subject_pairs(incoming, existing):
        if pair not in matched and (replaced := _value_replaced(pair)):
            reasons.append(replaced)
    elsewhere = [pair for pair in matched if _other_subject(pair[0][0], pair[1][0], entity_names)]
    if matched and len(elsewhere) == len(matched):
        (sentence, _), (other, _) = matched[0]
        mine, theirs = _mentions(sentence, entity_names), _mentions(other, entity_names)
        reasons.append(
            Reason(
                code="other_subject",
                detail=f"the same statement about other things: "
                f"{', '.join(sorted(theirs - mine))} → {', '.join(sorted(mine - theirs))}",
            )
        )
    for pair in matched:
        (sentence, offset), (other, other_offset) = pair
        if pair in elsewhere:
            if replaced := _value_replaced(pair):
                reasons.append(replaced)
            continue
        dates_in = [(s, e) for _, s, e in _values(DATE, sentence)]
        dates_ex = [(s, e) for _, s, e in _values(DATE, other)]
        versions_in = [(s, e) for _, s, e in _values(VERSION, sentence)]
        versions_ex = [(s, e) for _, s, e in _values(VERSION, other)]
        for reason in (
            _compare_values("date_changed", "date", DATE, pair),
            _compare_values("version_changed", "version", VERSION, pair),
            _compare_values(
                "number_changed",
                "number",
                NUMBER,
                pair,
                dates_in + versions_in,
                dates_ex + versions_ex,
            ),
        ):
            if reason:
                reasons.append(reason)
        replaced = _value_replaced(pair)
        if replaced:
            reasons.append(replaced)
        negated_in, negated_ex = NEGATION.search(sentence), NEGATION.search(other)
        if bool(negated_in) != bool(negated_ex):
            cue = negated_in or negated_ex
            span = [offset + cue.start(), offset + cue.end()] if negated_in else None
            reasons.append(
                Reason(
                    code="negation_flip",
                    detail=f"negation {'added' if negated_in else 'removed'}: “{cue.group(0)}”",
                    incoming=span or [offset, offset + len(sentence)],
                    existing=[other_offset + cue.start(), other_offset + cue.end()]
                    if negated_ex
                    else [other_offset, other_offset + len(other)],
                )
            )
    return reasons, len(elsewhere) < len(matched)


def check_graph(incoming: Extraction, existing: Extraction) -> list[Reason]:
    """The graph's conflicts (``graph_differences``) as reasons."""
    entities, relationships = graph_differences(incoming, existing)
    reasons = [
        Reason(
            code="entity_type_changed",
            detail=f"{e['name']}: {e['existing_type']} → {e['incoming_type']}",
        )
        for e in entities["conflicts"]
    ]
    for conflict in relationships["conflicts"]:
        new, old = conflict["incoming"], conflict["existing"]
        if conflict["reason"] == "functional_relationship_changed":
            detail = f"{new['from']} {new['type']}: {old['to']} → {new['to']}"
        else:
            detail = f"{new['from']}: {old['type']} → {new['type']} {new['to']}"
        reasons.append(Reason(code=conflict["reason"], detail=detail))
    return reasons


@lru_cache(maxsize=4096)
def _a_value(name: str) -> bool:
    """A name that is a value of an attribute, not a thing a statement is about: a date or
    a quarter ("Q3 2026"), a number, a cloud region ("eu-west-1")."""
    if lexicon.REGION.fullmatch(name):
        return True
    return any(v.start == 0 and v.end == len(name) for v in find_values(name))


def check_conflict(
    *,
    incoming: str,
    existing: str,
    incoming_graph: Extraction,
    existing_graph: Extraction,
    similarity: float,
    high_similarity: float = 0.85,
    min_entity_overlap: float = 0.7,
) -> list[dict]:
    """All reasons why ``incoming`` contradicts ``existing`` (empty: no conflict)."""
    # a technology by its product, not its release: "Swift 5.10" and "Swift 5.9" name one
    # thing, whose version changed
    names = {
        product_name(e.name.strip().lower(), e.type)
        for e in incoming_graph.entities + existing_graph.entities
        if not _a_value(e.name.strip())
    } - {""}
    reasons, shares_statement = check_text(incoming, existing, entity_names=names)
    reasons += check_graph(incoming_graph, existing_graph)
    overlap = entity_containment(incoming_graph, existing_graph)
    if similarity >= high_similarity and overlap < min_entity_overlap:
        reasons.append(
            Reason(
                code="low_entity_overlap",
                detail=(
                    f"similar text (cosine {similarity:.2f}) "
                    f"about other entities (overlap {overlap:.2f})"
                ),
            )
        )
    elif not reasons and overlap < min_entity_overlap and not shares_statement:
        # Merging needs evidence of one subject: a shared statement, shared entities or
        # near-identical text. Templates of the same kind of fact about other things
        # ("X moved the Y deploy to Monday") are only alike in wording.
        reasons.append(
            Reason(
                code="other_subject",
                detail=f"no statement in common and entity overlap {overlap:.2f} "
                f"(cosine {similarity:.2f})",
            )
        )
    unique, seen = [], set()
    for reason in reasons:
        key = (reason.code, reason.detail)
        if key not in seen:
            seen.add(key)
            unique.append(reason.as_dict())
    return unique
