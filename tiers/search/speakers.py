"""Who said it: a question about a person is mostly answered by what that person said.

Chunks of a conversation carry their speaker (or author) in metadata. When the query
names one of the speakers among the candidates ("What did Melanie paint?"), the chunks
that person said get their fused score raised by ``speaker_weight`` (a factor of
``1 + weight``); when it names several, the first named (usually the grammatical subject)
gets the full share and the others half. Measured on the LoCoMo development conversations:
of the evidence turns of questions naming one speaker, 96 % were said by that speaker.
Queries naming nobody, and chunks without a speaker, are left as they were.
"""

import re

from django.conf import settings

from tiers.search.corpus import Corpus


def chunk_speakers(chunk_ids: list[int], corpus: Corpus, cursor) -> dict[int, set[str]]:
    """chunk id → the lower-cased speaker/author names in its metadata (one round trip)."""
    keys = settings.MEMORYHUB_SEARCH["speaker_metadata_keys"]
    if not chunk_ids or not keys:
        return {}
    columns = ", ".join("c.metadata ->> %s" for _ in keys)
    cursor.execute(
        f"SELECT c.id, {columns} FROM {corpus.chunks} c WHERE c.id = ANY(%s)",
        [*keys, list(chunk_ids)],
    )
    out: dict[int, set[str]] = {}
    for cid, *values in cursor.fetchall():
        names = {v.strip().lower() for v in values if isinstance(v, str) and v.strip()}
        if names:
            out[cid] = names
    return out


def named_in_query(query: str, names: set[str]) -> dict[str, float]:
    """The speakers the query names, each with its share: 1 for the first named, 0.5 for
    the others. A name matches as whole words (possessives included); a multi-word name
    also by its first word ("Jon" for "Jon Smith") when that word names no one else."""
    text = query.lower()
    firsts: dict[str, list[str]] = {}
    for name in names:
        firsts.setdefault(name.split()[0], []).append(name)
    found: dict[str, int] = {}
    for name in names:
        forms = [name]
        first = name.split()[0]
        if first != name and len(firsts[first]) == 1 and len(first) > 2:
            forms.append(first)
        for form in forms:
            match = re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text)
            if match and (name not in found or match.start() < found[name]):
                found[name] = match.start()
    order = sorted(found, key=lambda n: found[n])
    return {name: (1.0 if i == 0 else 0.5) for i, name in enumerate(order)}


def favour_speakers(
    fused: dict[int, float], query: str, corpus: Corpus, cursor, *, weight: float
) -> dict[int, float]:
    """The fused scores with the chunks said by a speaker the query names raised."""
    if weight <= 0 or not fused:
        return fused
    speakers = chunk_speakers(list(fused), corpus, cursor)
    if not speakers:
        return fused
    shares = named_in_query(query, set().union(*speakers.values()))
    if not shares:
        return fused
    out = dict(fused)
    for cid, names in speakers.items():
        share = max((shares.get(name, 0.0) for name in names), default=0.0)
        if share:
            out[cid] = fused[cid] * (1.0 + weight * share)
    return out
