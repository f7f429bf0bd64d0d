"""Text utilities shared by the tiers and the graph: token counting, sentence splitting and
sentence-aware chunking.

Tokens are counted the way a WordPiece tokenizer roughly splits text: words and single
punctuation marks (``\\w+|[^\\w\\s]``). That keeps chunk sizes close to model tokens
without loading a tokenizer.
"""

import difflib
import re
import unicodedata
from functools import lru_cache

TOKEN_RE = re.compile(r"\w+|[^\w\s]")
# A sentence ends at . ! ? (optionally followed by quotes/brackets) before whitespace,
# or at a blank line / markdown line break.
SENTENCE_RE = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][\"')\]]))\s+|\n\s*\n|\n(?=\s*(?:[-*+] |\d+\. |#))"
)


def count_tokens(text: str) -> int:
    return len(TOKEN_RE.findall(text))


def split_sentences(text: str) -> list[str]:
    return [part.strip() for part in SENTENCE_RE.split(text) if part and part.strip()]


def _split_long_sentence(sentence: str, max_tokens: int) -> list[str]:
    """A sentence longer than a chunk is cut between words."""
    words = sentence.split()
    pieces, current, current_tokens = [], [], 0
    for word in words:
        tokens = count_tokens(word)
        if current and current_tokens + tokens > max_tokens:
            pieces.append(" ".join(current))
            current, current_tokens = [], 0
        current.append(word)
        current_tokens += tokens
    if current:
        pieces.append(" ".join(current))
    return pieces


def chunk_text(text: str, *, split_above: int, chunk_tokens: int, overlap_tokens: int) -> list[str]:
    """Split ``text`` into chunks of about ``chunk_tokens`` tokens at sentence boundaries,
    each starting with up to ``overlap_tokens`` tokens of the sentences before it.

    Text of at most ``split_above`` tokens is returned whole.
    """
    text = text.strip()
    if not text:
        return []
    if count_tokens(text) <= split_above:
        return [text]
    sentences: list[tuple[str, int]] = []
    for sentence in split_sentences(text):
        size = count_tokens(sentence)
        if size > chunk_tokens:
            sentences.extend(
                (piece, count_tokens(piece))
                for piece in _split_long_sentence(sentence, chunk_tokens)
            )
        else:
            sentences.append((sentence, size))

    chunks: list[str] = []
    current: list[tuple[str, int]] = []
    current_tokens = 0
    fresh = 0  # sentences in `current` that no earlier chunk holds
    for sentence, size in sentences:
        if current and current_tokens + size > chunk_tokens and fresh:
            chunks.append(" ".join(s for s, _ in current))
            # Carry the tail sentences (up to overlap_tokens) into the next chunk.
            carried: list[tuple[str, int]] = []
            carried_tokens = 0
            for previous in reversed(current):
                if carried_tokens + previous[1] > overlap_tokens:
                    break
                carried.insert(0, previous)
                carried_tokens += previous[1]
            if carried_tokens + size > chunk_tokens:
                carried, carried_tokens = [], 0
            current, current_tokens, fresh = carried, carried_tokens, 0
        current.append((sentence, size))
        current_tokens += size
        fresh += 1
    if current and fresh:
        chunks.append(" ".join(s for s, _ in current))
    return chunks


# Words, whole figures ("$50,000", "14.5%", "2026-03-14") and single punctuation marks: the
# units a word diff compares.
DIFF_TOKEN = re.compile(r"\s+|[$€£]?\d+(?:[.,:/-]\d+)*%?|\w+(?:['’-]\w+)*|[^\w\s]")


def _word_opcodes(before: str, after: str):
    a, b = DIFF_TOKEN.findall(before or ""), DIFF_TOKEN.findall(after or "")
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        yield op, "".join(a[i1:i2]), "".join(b[j1:j2])


def word_diff(before: str, after: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Two texts side by side, cut into ``(kind, text)`` segments, kind ``same``, ``del``
    (only in ``before``) or ``ins`` (only in ``after``), word by word."""
    left: list[tuple[str, str]] = []
    right: list[tuple[str, str]] = []
    for op, old, new in _word_opcodes(before, after):
        if op == "equal":
            left.append(("same", old))
            right.append(("same", new))
            continue
        if old:
            left.append(("del", old))
        if new:
            right.append(("ins", new))
    return left, right


def inline_word_diff(before: str, after: str) -> list[tuple[str, str]]:
    """The same segments in one text: each deletion before the insertion replacing it."""
    segments: list[tuple[str, str]] = []
    for op, old, new in _word_opcodes(before, after):
        if op == "equal":
            segments.append(("same", old))
            continue
        segments += [("del", old)] if old else []
        segments += [("ins", new)] if new else []
    return segments


def jaccard(a: set, b: set) -> float:
    """Size of the intersection over size of the union; 0 for two empty sets."""
    return len(a & b) / len(a | b) if a | b else 0.0


def has_word(text: str, word: str) -> bool:
    """``word`` (any text) occurs in ``text`` as a whole word, not inside a longer one: what
    ``(?<!\\w)word(?!\\w)`` finds, without compiling a pattern for every name a section
    brings."""
    start = text.find(word)
    while start != -1:
        end = start + len(word)
        if not (start and _word_char(text[start - 1])) and not (
            end < len(text) and _word_char(text[end])
        ):
            return True
        start = text.find(word, start + 1)
    return False


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


# Letters that no Unicode decomposition takes apart, written the way an English keyboard does.
_UNDECOMPOSED = str.maketrans(
    {"ø": "o", "ł": "l", "đ": "d", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th", "ð": "d"}
)


@lru_cache(maxsize=8192)
def plain_letters(text: str) -> str:
    """``text`` in lower case without its accents: "Søren Ødegård" and "soren odegard",
    "Łukasz" and "lukasz", "Ayşe" and "ayse" read the same."""
    decomposed = unicodedata.normalize("NFKD", text.casefold()).translate(_UNDECOMPOSED)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# British spellings and the American ones they compare as ("paediatric" / "pediatric",
# "colour" / "color", "organise" / "organize", "centre" / "center", "travelled" /
# "traveled"; "yearly" / "annual", "petrol" / "gasoline"): whole words first, then
# endings and digraphs.
US_WORDS = {
    "grey": "gray", "tyre": "tire", "tyres": "tires", "cheque": "check", "cheques": "checks",
    "programme": "program", "programmes": "programs", "aluminium": "aluminum",
    "licence": "license", "defence": "defense", "offence": "offense", "pretence": "pretense",
    "practise": "practice", "kerb": "curb", "plough": "plow", "sceptical": "skeptical",
    "aeroplane": "airplane", "jewellery": "jewelry", "pyjamas": "pajamas", "mould": "mold",
    "storey": "story", "enrol": "enroll", "fulfil": "fulfill", "manoeuvre": "maneuver",
    "moustache": "mustache", "draught": "draft", "cosy": "cozy", "foetus": "fetus",
    "oestrogen": "estrogen", "diarrhoea": "diarrhea", "oesophagus": "esophagus",
    # and the words each side says for one thing
    "yearly": "annual", "annually": "annual", "fortnightly": "biweekly", "autumn": "fall",
    "petrol": "gasoline", "motorway": "highway", "postcode": "zipcode", "film": "movie",
    "films": "movies",
}  # fmt: skip
# Words ending in "our" that are not British spellings of "-or" ("four", "hour").
NOT_OUR = frozenset("four hour your tour pour sour flour devour contour detour velour dour".split())
US_ENDINGS = (
    (re.compile(r"(?<=[a-z]{3})is(e|ed|es|ing|ation|ations|er|ers)$"), r"iz\1"),
    (re.compile(r"(?<=[a-z]{2})ys(e|ed|es|ing)$"), r"yz\1"),
    (re.compile(r"(?<=[a-z]{2}(?:[^aeiou]|i))our(s|ed|ing|ite|ites|able|er)?$"), r"or\1"),
    (re.compile(r"(?<=[a-z]{2})([tb])re(s|d)?$"), r"\1er\2"),
    (re.compile(r"(?<=[a-z]{2}e)ll(ed|ing|er|ers)$"), r"l\1"),
    (re.compile(r"(?<=[a-z]{3})ogue(s)?$"), r"og\1"),
)
# The "ae" of medical and learned words ("paediatric", "haemoglobin", "anaesthetist",
# "palaeontology"), not of names ("Michael", "Raphael").
US_DIGRAPH = re.compile(r"(?<=p|h)aem|paed|anaes|gynaec|(?<=[kc])aem|archaeo|palaeo|mediaev")


@lru_cache(maxsize=65536)
def us_spelling(word: str) -> str:
    """``word`` (lower case) in American spelling, as two texts' words compare: a British
    and an American spelling of one word give one form."""
    if word in US_WORDS:
        return US_WORDS[word]
    if len(word) < 5 or word in NOT_OUR:
        return word
    for pattern, replacement in US_ENDINGS:
        spelled = pattern.sub(replacement, word)
        if spelled != word:
            word = spelled
            break
    return US_DIGRAPH.sub(lambda match: match.group().replace("ae", "e", 1), word)
