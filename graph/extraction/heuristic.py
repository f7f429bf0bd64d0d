"""Deterministic, offline entity and relationship extraction (DESIGN.md §5).

Rules over the text, sentence by sentence:
- entities: a technology gazetteer; capitalised phrases (people, organisations, places,
  projects, events, documents by their cue words); lower-case component phrases ending in
  a component noun ("billing service", "auth gateway"); code identifiers (snake_case,
  CamelCase, dotted.names);
- relationships: a verb pattern between two entity mentions of one sentence ("A uses B",
  "A depends on B", "A owns B", "A no longer uses B", ...). Entities that merely co-occur
  are not related: precision first.
"""

import re

from graph.extraction.base import ExtractedEntity, ExtractedRelationship, Extraction, Extractor
from graph.extraction.cues import (
    COMPONENT_NOUNS,
    DOCUMENT_WORDS,
    EVENT_WORDS,
    ORG_WORDS,
    PROJECT_WORDS,
)
from graph.vocabulary import normalize_name
from memoryhub.text import split_sentences

TECHNOLOGIES = {
    name.casefold(): name
    for name in (
        "PostgreSQL Postgres Redis Kafka Kubernetes Docker Terraform gRPC GraphQL Rust Python Java "
        "JavaScript TypeScript React Django Flask FastAPI Elasticsearch OpenSearch RabbitMQ S3 AWS "
        "GCP Azure JWT OAuth OAuth2 SAML Neo4j pgvector Nginx Envoy Prometheus Grafana "
        "OpenTelemetry Vault Linux Git GitHub GitLab Jenkins Celery MySQL MongoDB SQLite Node.js "
        "Vue Angular Spark Airflow Snowflake BigQuery Slack Jira REST TLS SSO LDAP OpenAI Ollama "
        "vLLM Gemini HTMX Playwright Chromium CloudFront Lambda DynamoDB Cassandra ClickHouse "
        "Datadog Sentry PagerDuty Stripe Twilio Okta Auth0 Webpack Vite Kotlin Swift Scala Ruby "
        "Rails PHP Laravel Go Helm ArgoCD Istio Consul Nomad Ansible Pulumi BM25 HNSW Memcached"
    ).split()
}
FIRST_NAMES = set(
    "alice bob carol carla dave david deepak elena emma farid grace hiro ines jonas kemal lena "
    "marco nadia oscar priya quentin rosa sven tara maria john james mary anna peter paul laura "
    "sara sarah tom mike michael linda kevin nina omar yuki chen wei li raj amir fatima hans jan "
    "lucas sophie julia daniel caroline melanie jon gina joanna nate evan sam max leo mia noah "
    "olivia liam ava ethan zoe".split()
)
PLACES = set(
    "berlin paris london tokyo madrid lisbon amsterdam dublin zurich vienna munich new york boston "
    "seattle austin chicago toronto vancouver sydney singapore bangalore mumbai delhi nairobi "
    "lagos cairo germany france spain portugal japan india canada brazil mexico italy poland "
    "sweden norway ireland europe asia africa us-east us-west eu-west eu-central ap-south".split()
)
STARTERS = set(
    "the a an we our it this that these those they he she i you my your their his her its in on at "
    "after before when if last next today yesterday tomorrow also then so but and or for from with "
    "by to of as please note there here what who why how all some any each every no not yes".split()
)
CALENDAR = set(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may "
    "june july august september october november december".split()
)
STOP_INNER = {"of", "and", "&", "the", "de", "for"}
VERBISH = {
    "using",
    "running",
    "calling",
    "building",
    "adding",
    "moving",
    "keeping",
    "use",
    "uses",
    "new",
    "old",
    "main",
    "same",
    "other",
    "own",
    "one",
    "two",
    "is",
    "are",
    "was",
    "be",
    "has",
    "have",
    "call",
    "calls",
    "hit",
    "hits",
    "every",
    "each",
    "more",
    "less",
    "whole",
}

RELATIONS = [
    # (type, pattern matched against the text between two mentions)
    (
        "STOPPED_USING",
        r"\b(?:no longer uses?|stopped using|does not use|doesn't use|dropped|moved away from)\b",
    ),
    ("MIGRATED_TO", r"\b(?:migrated|migrates|moved|moves|switched|switches)\b.*\bto\b"),
    ("REPLACES", r"\b(?:replaced|replaces|supersedes|instead of)\b"),
    ("DEPENDS_ON", r"\b(?:depends on|depend on|requires|require|needs)\b"),
    (
        "USES",
        r"\b(?:uses|use|using|relies on|rely on|built (?:with|on)|runs on|run on|written in|"
        r"powered by|stores? (?:\w+ )?in)\b",
    ),
    (
        "OWNS",
        r"\b(?:owns|own|maintains|maintain|is responsible for|are responsible for|"
        r"is the owner of)\b",
    ),
    ("LEADS", r"\b(?:leads|lead|manages|manage|heads|runs)\b"),
    ("REPORTS_TO", r"\breports? to\b"),
    ("WORKS_FOR", r"\b(?:works (?:at|for)|work (?:at|for)|joined|employed by|is at)\b"),
    ("PART_OF", r"\b(?:is part of|are part of|belongs to|belong to|is a member of|member of)\b"),
    (
        "LOCATED_IN",
        r"\b(?:located in|based in|lives in|live in|hosted in|deployed (?:to|in)|runs in)\b",
    ),
    (
        "INTEGRATES_WITH",
        r"\b(?:integrates with|integrate with|talks to|calls|connects to|sends \w+ to)\b",
    ),
    ("CREATED", r"\b(?:created|wrote|authored|built|developed|designed|founded)\b"),
    ("PREFERS", r"\b(?:prefers|prefer|likes|favou?rs)\b"),
    ("REVIEWED", r"\b(?:reviewed|reviews|approved|approves)\b"),
]
_RELATIONS = [(name, re.compile(pattern, re.IGNORECASE)) for name, pattern in RELATIONS]

WORD_RE = re.compile(r"[A-Za-z0-9][\w.+#'-]*[\w+#]|[A-Za-z0-9]")
IDENTIFIER_RE = re.compile(
    r"\b(?:[a-z]+_[a-z0-9_]+|[a-z]+[A-Z][A-Za-z0-9]+|[A-Z][a-z]+[A-Z][A-Za-z0-9]*|[a-z]+(?:\.[a-z_]+){1,3}\(\)?)\b"
)


class _Mention:
    __slots__ = ("name", "type", "start", "end", "confidence")

    def __init__(self, name, type_, start, end, confidence):
        self.name, self.type, self.start, self.end, self.confidence = (
            name,
            type_,
            start,
            end,
            confidence,
        )


def _is_cap(word: str) -> bool:
    """A capitalised word ("Alice", "AWS"); figures such as "2.5M" are values, not names."""
    return word[:1].isupper() or (word[:1].isalpha() and word.isupper() and len(word) > 1)


def _calendar(word: str) -> bool:
    lowered = word.casefold()
    return lowered in CALENDAR or (lowered.endswith("s") and lowered[:-1] in CALENDAR)


def _capitalised_type(words: list[str], before: str, after: str) -> tuple[str, float]:
    lowered = [w.casefold().strip(".") for w in words]
    if lowered[-1] in ORG_WORDS or (after.casefold() in ORG_WORDS):
        return "organization", 0.8
    if (
        lowered[0] in PROJECT_WORDS
        or after.casefold() in PROJECT_WORDS
        or before.casefold() == "project"
    ):
        return "project", 0.75
    if any(w in DOCUMENT_WORDS for w in lowered) or after.casefold() in DOCUMENT_WORDS:
        return "document", 0.7
    if any(w in EVENT_WORDS for w in lowered) or after.casefold() in EVENT_WORDS:
        return "event", 0.7
    if " ".join(lowered) in PLACES or lowered[0] in PLACES:
        return "location", 0.8
    if lowered[0] in FIRST_NAMES and len(words) <= 3:
        return "person", 0.85
    if before.casefold() in {"in", "from"} and len(words) == 1:
        return "location", 0.5
    if len(words) == 2 and all(w[:1].isupper() and w[1:].islower() for w in words):
        return "person", 0.55
    return "concept", 0.45


def _mentions(sentence: str) -> list[_Mention]:
    tokens = [(m.group(0), m.start(), m.end()) for m in WORD_RE.finditer(sentence)]
    mentions: list[_Mention] = []
    taken: set[int] = set()

    # 1. technologies
    for index, (word, start, _end) in enumerate(tokens):
        canonical = TECHNOLOGIES.get(word.casefold().rstrip("."))
        if (
            canonical
            and (word != "Go" or index > 0)
            and not (
                word.islower()
                and canonical.casefold() in {"go", "rest", "spark", "vault", "helm", "lambda"}
            )
        ):
            name, last = canonical, index
            while (
                last + 1 < len(tokens)
                and _is_cap(tokens[last + 1][0])
                and tokens[last + 1][0].casefold() not in TECHNOLOGIES
                and last - index < 2
            ):
                last += 1
                name += " " + tokens[last][0]
            mentions.append(_Mention(name, "technology", start, tokens[last][2], 0.9))
            taken.update(range(index, last + 1))

    # 2. lower-case place and region names ("eu-west")
    for index, (word, start, end) in enumerate(tokens):
        if index not in taken and word.islower() and word in PLACES:
            mentions.append(_Mention(word, "location", start, end, 0.75))
            taken.add(index)

    # 3. capitalised phrases
    index = 0
    while index < len(tokens):
        word, start, _ = tokens[index]
        if index in taken or not _is_cap(word) or _calendar(word):
            index += 1
            continue
        phrase = [index]
        cursor = index + 1
        while cursor < len(tokens) and len(phrase) < 4 and cursor not in taken:
            nxt = tokens[cursor][0]
            if sentence[tokens[cursor - 1][2] : tokens[cursor][1]].strip():
                break  # punctuation between the words ("Notes: Marco") ends the phrase
            if _is_cap(nxt) and not _calendar(nxt):
                phrase.append(cursor)
                cursor += 1
            elif (
                nxt.casefold() in STOP_INNER
                and cursor + 1 < len(tokens)
                and _is_cap(tokens[cursor + 1][0])
                and tokens[phrase[0]][0].casefold() not in FIRST_NAMES
            ):
                phrase += [cursor, cursor + 1]
                cursor += 2
            else:
                break
        words = [tokens[i][0] for i in phrase]
        if index == 0 and len(words) == 1 and words[0].casefold() in STARTERS:
            index = cursor
            continue
        if words[0].casefold() in STARTERS:
            words, phrase = words[1:], phrase[1:]
        if not words or (len(words) == 1 and len(words[0]) < 2):
            index = cursor
            continue
        before = tokens[phrase[0] - 1][0] if phrase[0] > 0 else ""
        after = tokens[phrase[-1] + 1][0] if phrase[-1] + 1 < len(tokens) else ""
        type_, confidence = _capitalised_type(words, before, after)
        name = " ".join(words)
        end = tokens[phrase[-1]][2]
        if type_ in {"organization", "project", "document", "event"} and after.casefold() in (
            ORG_WORDS | PROJECT_WORDS | DOCUMENT_WORDS | EVENT_WORDS
        ):
            name = f"{name} {after}"
            end = tokens[phrase[-1] + 1][2]
            taken.add(phrase[-1] + 1)
        mentions.append(_Mention(name, type_, tokens[phrase[0]][1], end, confidence))
        taken.update(phrase)
        index = cursor

    # 4. lower-case component phrases: up to two modifiers + a component noun
    for index, (word, _start, end) in enumerate(tokens):
        if index in taken or word.casefold() not in COMPONENT_NOUNS or not word.islower():
            continue
        modifiers = []
        cursor = index - 1
        while cursor >= 0 and len(modifiers) < 2 and cursor not in taken:
            candidate = tokens[cursor][0]
            if (
                candidate.casefold() in STARTERS
                or candidate.casefold() in CALENDAR
                or not candidate.isalpha()
                or candidate.casefold() in COMPONENT_NOUNS
                or candidate.casefold() in VERBISH
                or candidate.endswith("ed")
            ):
                break
            modifiers.insert(0, cursor)
            cursor -= 1
        if not modifiers:
            continue
        first = tokens[modifiers[0]]
        mentions.append(_Mention(sentence[first[1] : end], "component", first[1], end, 0.7))
        taken.update(modifiers + [index])

    # 5. lower-case teams: "the data team"
    for index, (word, _start, end) in enumerate(tokens):
        if (
            word.casefold() in {"team", "squad", "guild"}
            and index > 0
            and index not in taken
            and index - 1 not in taken
            and tokens[index - 1][0].isalpha()
            and tokens[index - 1][0].casefold() not in STARTERS | VERBISH
        ):
            first = tokens[index - 1]
            mentions.append(_Mention(sentence[first[1] : end], "organization", first[1], end, 0.7))
            taken.update({index - 1, index})

    # 6. code identifiers
    for match in IDENTIFIER_RE.finditer(sentence):
        if any(m.start <= match.start() < m.end for m in mentions):
            continue
        mentions.append(_Mention(match.group(0), "component", match.start(), match.end(), 0.6))

    return sorted(mentions, key=lambda m: m.start)


def _relation(between: str) -> str | None:
    if len(between.split()) > 8 or re.search(r"[;:]|\bwhile\b|\bbut\b", between):
        return None
    for name, pattern in _RELATIONS:
        if pattern.search(between):
            return name
    return None


class HeuristicExtractor(Extractor):
    name = "heuristic"

    def extract(self, text: str) -> Extraction:
        entities: dict[tuple[str, str], ExtractedEntity] = {}
        relationships: dict[tuple[str, str, str], ExtractedRelationship] = {}
        for sentence in split_sentences(text):
            mentions = _mentions(sentence)
            for mention in mentions:
                key = (normalize_name(mention.name), mention.type)
                if key[0] and key not in entities:
                    entities[key] = ExtractedEntity(
                        name=mention.name,
                        type=mention.type,
                        confidence=mention.confidence,
                        description=sentence[:300],
                    )
            previous = None  # (source mention, relation) of the last pair, for "A uses B and C"
            for left, right in zip(mentions, mentions[1:], strict=False):
                between = sentence[left.end : right.start]
                relation = _relation(between)
                source = left
                if (
                    relation is None
                    and previous
                    and re.fullmatch(r"\s*(?:,|and|or|, and|as well as)\s*", between)
                ):
                    source, relation = previous  # "A uses B and C"
                elif relation and previous and re.match(r"\s*(?:,\s*)?and\s+\w", between):
                    source = previous[0]  # "A is written in B and runs on C"
                previous = (source, relation) if relation else None
                if relation is None or normalize_name(source.name) == normalize_name(right.name):
                    continue
                left = source
                key = (normalize_name(left.name), relation, normalize_name(right.name))
                if key not in relationships:
                    relationships[key] = ExtractedRelationship(
                        source=left.name,
                        target=right.name,
                        type=relation,
                        description=sentence[:300],
                        confidence=round(min(left.confidence, right.confidence), 2),
                        strength=0.6,
                    )
            self._migration(sentence, mentions, relationships)
        return Extraction(
            entities=list(entities.values()), relationships=list(relationships.values())
        )

    @staticmethod
    def _migration(sentence: str, mentions: list, relationships: dict) -> None:
        """ "X moved from A to B" → X MIGRATED_TO B."""
        match = re.search(
            r"\b(?:migrated|moved|switched|migrates|moves)\s+(?:\w+\s+)?from\b.*?\bto\b", sentence
        )
        if not match:
            return
        before = [m for m in mentions if m.end <= match.start()]
        after = [m for m in mentions if m.start >= match.end()]
        if before and after:
            source, target = before[-1], after[0]
            key = (normalize_name(source.name), "MIGRATED_TO", normalize_name(target.name))
            relationships.setdefault(
                key,
                ExtractedRelationship(
                    source=source.name,
                    target=target.name,
                    type="MIGRATED_TO",
                    description=sentence[:300],
                    confidence=round(min(source.confidence, target.confidence), 2),
                    strength=0.6,
                ),
            )
