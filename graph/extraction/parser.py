"""The default extractor: entities and relationships read off spaCy's parse of the text
(``memoryhub.nlp``: one parse per text, shared with the claim comparison).

Entities, in order of trust (a later source never overrides an earlier one's span):
1. the speaker of a dialogue turn ("Caroline (1:56 pm ...): ...") — a person;
2. identifiers the parser would split: hosts and services (``orders-api``,
   ``db-replica-3``), regions (``eu-west-1``), code names (``user_sessions``,
   ``billing.tasks``), files and tickets;
3. the technology gazetteer (``memoryhub.lexicon``), case-insensitive where unambiguous;
4. named entities (PERSON, ORG, GPE, LOC, FAC, PRODUCT, EVENT, WORK_OF_ART, LAW),
   trimmed of greetings, determiners and possessives and split at "and"/"at";
5. proper-noun runs the named-entity model missed, typed by their cue words;
6. noun chunks ending in a cue noun ("billing service", "data team", "Q3 offsite"), and
   the objects of taste and use verbs ("likes dark mode", "drinks oat milk").
Never an entity: pronouns, greetings and fillers, dates, times, amounts, versions, and a
lone capitalised word that the model does not call a name.

Relationships come from the dependency parse: a verb's subjects and objects (direct,
prepositional, passive agent, through "started using", "wants to visit"), copular phrases
("X is the CTO of Y", "X is based in Y") and possessive kinship ("my wife Anna"), mapped
onto the relation vocabulary by the verb's lemma, its preposition and the types of both
ends. "I" in a dialogue turn is the speaker. A negated verb states nothing, except "no
longer uses" / "stopped using" (STOPPED_USING). Each relationship carries its sentence
as evidence.
"""

import re
from dataclasses import dataclass

from graph.extraction.base import ExtractedEntity, ExtractedRelationship, Extraction, Extractor
from graph.extraction.cues import (
    COMPONENT_NOUNS,
    DOCUMENT_WORDS,
    EVENT_WORDS,
    ORG_WORDS,
    PROJECT_WORDS,
)
from graph.vocabulary import normalize_name
from memoryhub import lexicon
from memoryhub.nlp import parse, parse_many

NER_TYPES = {
    "PERSON": "person",
    "ORG": "organization",
    "GPE": "location",
    "LOC": "location",
    "FAC": "location",
    "PRODUCT": "technology",
    "EVENT": "event",
    "WORK_OF_ART": "document",
    "LAW": "document",
}
IDENTIFIER_TYPES = {
    "identifier": "component",
    "region": "location",
    "file": "document",
    "ticket": "document",
}
SPLIT_WORDS = {"and", "&", "at", "in", "from", "with", "of", ",", "or", "for"}
# Nouns that name a part of a software system in any text ("billing service"); the other
# component nouns ("store", "app", "engine") do only in a technical one.
SYSTEM_NOUNS = {
    "service",
    "api",
    "gateway",
    "database",
    "db",
    "pipeline",
    "cluster",
    "queue",
    "endpoint",
    "microservice",
    "sdk",
    "cli",
    "repo",
    "bucket",
    "topic",
    "table",
    "indexer",
    "scheduler",
}
TEAM_WORDS = {"team", "squad", "guild", "group", "club", "crew", "band", "committee", "board"}
# "the user_sessions table", "the events topic": the name is the modifier.
NAMED_BY_MODIFIER = {"table", "topic", "bucket", "index", "repo", "repository", "job", "dag"}
TASTE_VERBS = {"like", "love", "enjoy", "hate", "dislike", "prefer", "adore", "stand", "miss"}
FOODS = set(
    """milk coffee tea latte espresso cappuccino matcha juice water wine beer whisky pizza
    pasta sushi ramen tacos burger burgers salad bread cheese chocolate cake cookies
    pie soup curry rice noodles chicken beef pork fish tofu vegan vegetarian""".split()
)
PET_WORDS = {"pet", "puppy", "kitten", "pup"}
ANIMALS = set("dog dogs cat cats puppy kitten horse bird parrot rabbit hamster fish turtle".split())
TRIM_WORDS = lexicon.NEVER_NAMES | {"the", "a", "an", "dear", "mr", "mrs", "ms", "dr", "prof"}
GENERIC_HEADS = set(
    """thing things stuff time times way lot lots bit day days week weeks year years month
    months people person guy guys place places idea ideas part parts kind sort one ones
    work job jobs life home house moment end start today tomorrow yesterday""".split()
)
SUBJECT_PRONOUNS = {"i", "me", "myself", "we", "us"}
KIN_MARRIED = {"wife", "husband", "spouse", "fiance", "fiancee", "fiancé", "fiancée"}
KIN_KNOWS = set(
    """friend buddy pal mate bestie colleague coworker co-worker teammate neighbor neighbour
    sister brother sibling cousin mom mother dad father son daughter aunt uncle niece nephew
    partner boyfriend girlfriend abuela abuelo nana
    grandma grandpa grandmother grandfather roommate mentor mentee classmate""".split()
)
KIN_REPORTS = {"manager", "boss", "lead", "supervisor"}
ROLE_WORK = set(
    """cto ceo cfo coo cio vp engineer developer designer manager director head lead founder
    cofounder co-founder analyst scientist researcher intern consultant contractor employee
    architect admin administrator sre owner maintainer member president chair officer
    product-manager pm tpm recruiter accountant lawyer teacher professor nurse doctor""".split()
)


@dataclass
class Mention:
    start: int  # character offsets in the source text
    end: int
    name: str
    type: str
    confidence: float
    origin: str = ""  # speaker, identifier, technology, ner, propn, chunk
    cued: bool = False  # typed by a cue word ("Labs", "team", "service"): keep the type
    root: int = -1  # index of the span's syntactic head


def _clean(name: str) -> str:
    name = name.strip().strip("`'\"*_()[]{}<>,;:!?")
    if name.endswith(("'s", "’s")):
        name = name[:-2]
    return name.rstrip(".").strip() if not name.endswith((".js", ".NET")) else name.strip()


class _Reader:
    """One text's mentions and relationships."""

    def __init__(self, doc):
        self.doc = doc
        self.source = doc.user_data.get("source", doc.text)
        self.mentions: list[Mention] = []
        self.by_token: dict[int, Mention] = {}
        self.speaker: Mention | None = None
        self.relationships: dict[tuple, ExtractedRelationship] = {}

    # ----- entities -------------------------------------------------------------------

    def _text(self, start: int, end: int) -> str:
        return self.source[start:end]

    def _free(self, tokens) -> bool:
        return all(t.i not in self.by_token for t in tokens)

    def _add(
        self,
        tokens,
        type_: str,
        confidence: float,
        *,
        name: str | None = None,
        origin: str = "",
        cued: bool = False,
    ):
        tokens = [t for t in tokens if not t.is_space]
        while len(tokens) > 1 and (  # "memd 7.2", "Postgres 16": the version is a value
            tokens[-1].like_num or lexicon.VERSION.match(tokens[-1].text)
        ):
            tokens = tokens[:-1]
        if not tokens:
            return None
        start, end = tokens[0].idx, tokens[-1].idx + len(tokens[-1])
        name = _clean(name if name is not None else self._text(start, end))
        if not name or not any(ch.isalnum() for ch in name) or not normalize_name(name):
            return None
        if name.casefold() in lexicon.NEVER_NAMES or normalize_name(name) in lexicon.NEVER_NAMES:
            return None
        inside = {t.i for t in tokens}
        root = next((t.i for t in tokens if t.head.i not in inside or t.head == t), tokens[-1].i)
        mention = Mention(start, end, name, type_, confidence, origin, cued, root)
        self.mentions.append(mention)
        for token in tokens:
            self.by_token[token.i] = mention
        return mention

    def _trim(self, tokens):
        """Drop greetings, determiners, possessives and fillers at the edges."""
        tokens = [t for t in tokens if not t.is_space]
        while tokens and (
            tokens[0].lower_.rstrip(".") in TRIM_WORDS
            or tokens[0].pos_ in {"DET", "PRON", "INTJ", "PUNCT", "ADP", "CCONJ"}
            or (tokens[0].dep_ == "poss" and tokens[0].pos_ == "PRON")
        ):
            tokens = tokens[1:]
        while tokens and (
            tokens[-1].pos_ in {"PUNCT", "PART", "ADP", "CCONJ", "DET"}
            or tokens[-1].lower_ in {"'s", "’s"}
        ):
            tokens = tokens[:-1]
        return tokens

    def _split(self, tokens):
        """Split a span at "and"/"at"/"in"/"from"/"with"/"," ("Marco at Acme Corp")."""
        parts, current = [], []
        for token in tokens:
            if token.lower_ in {
                "and",
                "&",
                "at",
                "in",
                "from",
                "with",
                "of",
                ",",
                "or",
                "for",
            } and (token.lower_ not in {"of", "&", "for"} or not current):
                if current:
                    parts.append(current)
                current = []
            else:
                current.append(token)
        if current:
            parts.append(current)
        return parts

    def _speaker(self):
        name = self.doc.user_data.get("speaker")
        if name:
            start = self.source.find(name)
            self.speaker = Mention(start, start + len(name), name, "person", 0.9, "speaker")
            self.mentions.append(self.speaker)

    def _identifiers(self):
        for start, end, kind in self.doc.user_data.get("identifiers", []):
            type_ = IDENTIFIER_TYPES.get(kind)
            if type_ is None:
                continue
            span = self.doc.char_span(start, end, alignment_mode="expand")
            if span is None or not self._free(span):
                continue
            name = self._text(start, end)
            if kind == "ticket" and not any(ch.isdigit() for ch in name):
                continue
            self._add(list(span), type_, 0.8, name=name, origin="identifier", cued=True)

    def _technologies(self):
        doc = self.doc
        index = 0
        while index < len(doc):
            found = None
            for width in range(lexicon.MAX_TECH_WORDS, 0, -1):
                if index + width > len(doc):
                    continue
                span = doc[index : index + width]
                text = self._text(span.start_char, span.end_char)
                canonical = lexicon.TECHNOLOGIES.get(text.casefold())
                if canonical is None:
                    continue
                lowered = text.casefold()
                if text.islower() and lowered in lexicon.AMBIGUOUS_TECH:
                    continue
                if width == 1 and lowered in lexicon.AMBIGUOUS_TECH and span[0].is_sent_start:
                    continue  # "Go ahead", "Rust never sleeps": ambiguous at a sentence start
                if width == 1 and span[0].pos_ in {"VERB", "AUX"} and text.islower():
                    continue
                found = span
                break
            if found is not None and self._free(found):
                tokens = list(found)
                while (  # "Docker Desktop", "MacBook Pro"
                    len(tokens) < len(found) + 2
                    and tokens[-1].i + 1 < len(doc)
                    and doc[tokens[-1].i + 1].pos_ == "PROPN"
                    and doc[tokens[-1].i + 1].text[:1].isupper()
                    and doc[tokens[-1].i + 1].lower_ not in lexicon.TECHNOLOGIES
                    and doc[tokens[-1].i + 1].lower_ not in TRIM_WORDS
                    and doc[tokens[-1].i + 1].i not in self.by_token
                ):
                    tokens.append(doc[tokens[-1].i + 1])
                self._add(tokens, "technology", 0.9, origin="technology", cued=True)
                index = tokens[-1].i + 1
            else:
                index += 1

    def _cue_type(self, tokens, default: str) -> str:
        words = [t.lower_ for t in tokens]
        if len(words) > 1 and words[0] in TEAM_WORDS:
            return "organization"  # "Team Falcon"
        last = words[-1]
        following = tokens[-1].nbor(1).lower_ if tokens[-1].i + 1 < len(self.doc) else ""
        if last in ORG_WORDS or last in TEAM_WORDS or following in ORG_WORDS:
            return "organization"
        if words[0] in PROJECT_WORDS or following in PROJECT_WORDS:
            return "project"
        if last in DOCUMENT_WORDS or following in DOCUMENT_WORDS:
            return "document"
        if last in EVENT_WORDS or following in EVENT_WORDS:
            return "event"
        if last in COMPONENT_NOUNS:
            return "component"
        return default

    def _named_entities(self):
        for ent in self.doc.ents:
            type_ = NER_TYPES.get(ent.label_)
            if type_ is None:
                continue
            for part in self._split(self._widen(list(ent))):
                tokens = self._trim(part)
                if not tokens or not self._free(tokens):
                    continue
                if not any(t.text[:1].isupper() or t.like_num for t in tokens):
                    continue  # the model named a lower-case phrase: not a name
                if len(tokens) == 1 and tokens[0].lower_ in lexicon.NEVER_NAMES:
                    continue
                if len(tokens) == 1 and tokens[0].pos_ not in {"PROPN", "NOUN", "X"}:
                    continue
                if all(t.like_num for t in tokens):
                    continue
                tokens = self._with_cue_noun(tokens)
                cue = self._cue_type(tokens, "")
                if cue:
                    type_ = cue
                self._add(tokens, type_, 0.85, origin="ner", cued=bool(cue))

    def _widen(self, tokens):
        """Take in the proper nouns just before a named entity ("Amara" of "Amara Nwosu"
        when the model named only "Nwosu")."""
        doc, first = self.doc, tokens[0]
        while first.i > 0:
            previous = doc[first.i - 1]
            if previous.i in self.by_token or previous.is_space:
                break
            glued = previous.text == "-" and not previous.whitespace_ and first.i > 1
            if glued and not doc[first.i - 2].whitespace_ and doc[first.i - 2].text[:1].isupper():
                first = doc[first.i - 2]  # "Ji-woo Park": "Ji" across the hyphen
            elif self._hyphen_join(previous) and first.i > 1 and doc[first.i - 2].text == "-":
                first = previous  # "woo" of "Ji-woo"
            elif (
                previous.pos_ == "PROPN"
                and previous.text[:1].isupper()
                and previous.lower_ not in TRIM_WORDS
            ):
                first = previous
            else:
                break
        return list(self.doc[first.i : tokens[-1].i + 1])

    def _with_cue_noun(self, tokens):
        """ "Orbit scheduler", "Data Platform group", "ledger DB": a name and the cue noun
        right after it are one entity."""
        after = tokens[-1].i + 1
        if (
            after < len(self.doc)
            and after not in self.by_token
            and self.doc[after].lower_ in COMPONENT_NOUNS | TEAM_WORDS | ORG_WORDS | EVENT_WORDS
            and self.doc[after].pos_ in {"NOUN", "PROPN"}
        ):
            return tokens + [self.doc[after]]
        return tokens

    def _proper_nouns(self):
        """Runs of proper nouns the named-entity model missed ("Phoenix rewrite")."""
        run: list = []
        for token in list(self.doc) + [None]:
            if (
                token is not None
                and token.i not in self.by_token
                and token.pos_ == "PROPN"
                and token.text[:1].isupper()
                and token.lower_ not in TRIM_WORDS
            ) or (token is not None and run and self._hyphen_join(token)):
                run.append(token)
                continue
            if run:
                tokens = self._trim(run)
                project_at = [i for i, t in enumerate(tokens) if t.lower_ in PROJECT_WORDS]
                if project_at and project_at[0] > 0:  # "Launch Project Marigold"
                    tokens = tokens[project_at[0] :]
                if tokens:
                    alone = (
                        len(tokens) == 1
                        and self._starts_sentence(tokens[0])
                        and tokens[0].lower_ not in lexicon.FIRST_NAMES
                    )
                    cue = self._cue_type(tokens, "")
                    nxt = tokens[-1].i + 1
                    if (
                        not cue
                        and nxt < len(self.doc)
                        and self.doc[nxt].lower_ in COMPONENT_NOUNS | TEAM_WORDS
                    ):
                        tokens = tokens + [self.doc[nxt]]
                        cue = self._cue_type(tokens, "")
                    if cue:
                        self._add(tokens, cue, 0.7, origin="propn", cued=True)
                    elif not alone and len(tokens) <= 4:
                        self._add(tokens, self._guess(tokens), 0.55, origin="propn")
                run = []

    def _hyphen_join(self, token) -> bool:
        """The hyphen of "Ji-woo" or the second part after it."""
        doc = self.doc
        if token.text == "-" and not token.whitespace_ and token.i + 1 < len(doc):
            return doc[token.i - 1].text[:1].isupper() and not doc[token.i - 1].whitespace_
        return token.i > 0 and doc[token.i - 1].text == "-" and not doc[token.i - 1].whitespace_

    def _starts_sentence(self, token) -> bool:
        return token.is_sent_start or token.i == 0 or self.doc[token.i - 1].is_space

    def _guess(self, tokens) -> str:
        """A proper noun with no cue word: read its role in the sentence."""
        head = tokens[-1]
        verb = head.head
        preposition = verb.lower_ if head.dep_ == "pobj" else ""
        if preposition in {"in", "to", "from", "near"} and verb.head.lemma_ in {
            "live",
            "move",
            "travel",
            "go",
            "fly",
            "visit",
            "base",
            "be",
            "stay",
        }:
            return "location"
        if preposition in {"at", "for"} and verb.head.lemma_ in {"work", "join", "intern"}:
            return "organization"
        if preposition in {"in", "near", "around", "across", "to"}:
            return "location"
        if head.dep_ in {"nsubj", "nsubjpass"} and verb.lemma_ in {
            "say",
            "tell",
            "think",
            "feel",
            "want",
            "love",
            "like",
            "live",
            "marry",
        }:
            return "person"
        return "concept"

    def _activities(self):
        """ "loves hiking", "can't stand running", "enjoys rock climbing": an activity named
        by a gerund that a taste verb takes is a concept."""
        for token in self.doc:
            if token.tag_ != "VBG" or token.i in self.by_token or token.lemma_ in {"be", "have"}:
                continue
            if any(c.dep_ in {"dobj", "ccomp", "xcomp", "attr"} for c in token.children):
                continue  # "loves painting landscapes": the activity has an object
            verb = token.head
            if token.dep_ not in {"xcomp", "dobj", "pcomp", "conj"}:
                continue
            if token.dep_ == "conj":
                verb = verb.head
            if verb.lemma_.lower() not in TASTE_VERBS:
                continue
            tokens = [c for c in token.children if c.dep_ == "compound"] + [token]
            self._add(sorted(tokens, key=lambda t: t.i), "concept", 0.6, origin="chunk", cued=True)

    def _chunks(self):
        """Common-noun phrases that name a thing: "billing service", "data team",
        "dark mode" as an object of a taste or use verb."""
        for chunk in self.doc.noun_chunks:
            tokens = self._trim(
                [
                    t
                    for t in chunk
                    if t.pos_ not in {"ADJ", "NUM"}
                    or t.dep_ == "compound"
                    or (t.dep_ == "amod" and t.head.lower_ in {"mode", "milk", "learning"})
                ]
            )
            if not tokens:
                continue
            head = chunk.root
            if head.i in self.by_token:
                continue
            modifiers = [t for t in tokens if t.i != head.i]
            if modifiers and any(t.i in self.by_token for t in modifiers):
                continue  # "the orders-api service": the identifier is the entity
            if not self._free(tokens):
                continue
            lowered = head.lower_
            if head.pos_ == "PRON" or lowered in GENERIC_HEADS | lexicon.NEVER_NAMES:
                continue
            if (
                modifiers
                and lowered in COMPONENT_NOUNS
                and head.pos_ in {"NOUN", "PROPN"}
                and (self._technical or lowered in SYSTEM_NOUNS)
            ):
                if any(m.lower_ in GENERIC_HEADS or m.like_num for m in modifiers):
                    continue
                if lowered in {"sdk", "api", "cli"} and all(
                    m.text[:1].isupper() for m in modifiers
                ):
                    self._add(tokens, "technology", 0.7, origin="chunk", cued=True)
                elif lowered in NAMED_BY_MODIFIER and tokens[-1].i == head.i:
                    self._add(tokens[:-1], "component", 0.7, origin="chunk", cued=True)
                    self.by_token[head.i] = self.by_token.get(tokens[0].i)
                else:
                    self._add(tokens, "component", 0.7, origin="chunk", cued=True)
            elif modifiers and lowered in TEAM_WORDS | ORG_WORDS:
                self._add(tokens, "organization", 0.7)
            elif modifiers and lowered in EVENT_WORDS and any(m.pos_ == "PROPN" for m in modifiers):
                self._add(tokens, "event", 0.65)
            elif self._taste_object(head):
                kind = "other" if lowered in FOODS or lowered in ANIMALS else "concept"
                self._add(tokens, kind, 0.6)

    @staticmethod
    def _taste_object(token) -> bool:
        verb = token.head
        if token.dep_ == "conj":
            while token.dep_ == "conj":
                token = token.head
            verb = token.head
        if token.dep_ not in {"dobj", "pobj", "xcomp"}:
            return False
        if token.dep_ == "pobj":
            if verb.lower_ not in {"of", "for", "with"}:
                return False
            verb = verb.head
        return verb.lemma_.lower() in {
            "like",
            "love",
            "enjoy",
            "prefer",
            "hate",
            "dislike",
            "adore",
            "drink",
            "eat",
            "play",
            "practice",
            "practise",
            "learn",
            "study",
            "fan",
        }

    def _retype(self):
        """Type the names the model typed by guess from what the sentence does with them:
        a known given name, the subject of a human verb, the one met with or mentored is a
        person; the place one works at, joins or leaves is an organization."""
        for mention in self.mentions:
            if mention.cued or mention.origin not in {"ner", "propn"} or mention.root < 0:
                continue
            head = self.doc[mention.root]
            verb, dep = head.head, head.dep_
            lemma = verb.lemma_.lower()
            if dep == "pobj":
                preposition, lemma = verb.lower_, verb.head.lemma_.lower()
            else:
                preposition = ""
            first = mention.name.split()[0].casefold()
            described = self._described_as(head)
            if described:
                mention.type = described
                continue
            if (
                first not in lexicon.FIRST_NAMES
                and mention.type != "person"
                or (mention.type == "person" and mention.origin == "propn")
            ):
                if (dep == "dobj" and lemma in TECH_OBJECT_VERBS) or (
                    preposition in {"with", "via", "through", "on", "onto", "to", "from", "in"}
                    and lemma in TECH_PREP_VERBS
                    and self._technical
                ):
                    mention.type = "technology"
                    continue
                if dep == "dobj" and lemma in WORK_VERBS:
                    mention.type = "document"  # "finished Norwegian Wood", "watched Dune"
                    continue
                if dep == "dobj" and lemma in PLACE_OBJECT_VERBS:
                    mention.type = "location"
                    continue
            if mention.type == "person":
                if (dep == "dobj" and lemma in {"join", "leave"}) or (
                    preposition in {"at", "for", "from"} and lemma in {"work", "intern", "join"}
                ):
                    if first not in lexicon.FIRST_NAMES:
                        mention.type = "organization"
                elif (
                    preposition in {"to", "in", "into", "from", "near"}
                    and lemma in PLACE_VERBS
                    and first not in lexicon.FIRST_NAMES
                ):
                    mention.type = "location"
                continue
            if mention.type == "technology":
                continue
            if (
                preposition in {"to", "in", "into", "from", "near", "around"}
                and lemma in PLACE_VERBS
                and first not in lexicon.FIRST_NAMES
            ):
                mention.type = "location"
                continue
            if preposition == "with" and mention.type in {"location", "concept", "other"}:
                mention.type = "person"
                continue
            if (
                first in lexicon.FIRST_NAMES
                or (dep in {"nsubj", "nsubjpass"} and lemma in HUMAN_VERBS)
                or (dep == "dobj" and lemma in HUMAN_OBJECT_VERBS)
                or (preposition == "with" and lemma in MEET_VERBS)
                or (preposition == "by" and lemma in HUMAN_AGENT_VERBS)
                or (dep == "appos" and verb.lower_ in KIN_KNOWS | KIN_MARRIED | KIN_REPORTS)
            ):
                mention.type = "person"
            elif (dep == "dobj" and lemma in {"join", "leave"}) or (
                preposition in {"at", "for", "from"} and lemma in {"work", "intern", "join"}
            ):
                mention.type = "organization"

    @property
    def _technical(self) -> bool:
        return bool(self.doc.user_data.get("technical"))

    def _described_as(self, head) -> str:
        """The type a common noun beside the name gives it: "Boulangerie Roux, a small
        bakery", "the company is Verdant Bio", "our dog Churro", "the city of Lyon"."""
        nouns = [c for c in head.children if c.dep_ == "appos"]
        if head.dep_ == "appos" or (head.dep_ == "attr" and head.head.lemma_ == "be"):
            nouns.append(head.head)
        if head.dep_ == "attr":
            nouns.extend(c for c in head.head.children if c.dep_ == "nsubj")
        if head.head.lower_ in {"named", "called"} and head.head.dep_ == "acl":
            nouns.append(head.head.head)  # "a dog named Juniper"
        if head.dep_ == "compound" or head.dep_ == "pobj" and head.head.lower_ == "of":
            nouns.append(head.head if head.dep_ == "compound" else head.head.head)
        for noun in nouns:
            lemma = noun.lemma_.lower()
            if noun.i in self.by_token or noun.pos_ not in {"NOUN"}:
                continue
            if lemma in ORG_NOUNS:
                return "organization"
            if lemma in PLACE_NOUNS:
                return "location"
            if lemma in ANIMALS or lemma in PET_WORDS:
                return "other"
        return ""

    def _topics(self):
        """A person named in a heading ("## Nadia's preferences", "Goals for Isaac:") is
        the subject of the list below it."""
        self.topics: list[tuple[int, Mention]] = []
        self.items: list[tuple[int, int, Mention]] = []
        offset = 0
        for line in self.source.splitlines(keepends=True):
            stripped = line.strip()
            item = LIST_ITEM.match(line)
            if item:
                self._list_item(line, offset, item)
            if stripped.startswith("#") or stripped.endswith(":"):
                named = [m for m in self.mentions if offset <= m.start < offset + len(line)]
                people = [m for m in named if m.type == "person"]
                topic = people[0] if len(people) == 1 else named[0] if len(named) == 1 else None
                self.topics.append((offset, topic))
            field = FIELD_LINE.match(line)
            if field and field.group(1).strip().casefold() in FIELDS:
                self._field(line, offset, field)
            offset += len(line)

    def _list_item(self, line: str, offset: int, item: re.Match):
        """ "- `edge-proxy` — Envoy, deployed in us-west-2": the name that opens a list item
        is the subject of the rest of the item; a technology right after the dash is what
        it is built with."""
        start = offset + item.start(2)
        subject = next((m for m in self.mentions if m.start == start), None)
        if subject is None or subject.type == "person" and self.speaker is subject:
            return
        rest_start = offset + item.end()
        if not SEPARATOR.match(self.source, subject.end):
            return
        self.items.append((subject.end, offset + len(line), subject))
        first_segment = self.source[rest_start : offset + len(line)].split(",")[0]
        for mention in self.mentions:
            if (
                subject.end < mention.start <= rest_start + len(first_segment)
                and mention.type == "technology"
                and subject.type in {"component", "project"}
            ):
                self._relate(subject, mention, "USES", line.strip())

    def _field(self, line: str, offset: int, field: re.Match):
        """A "Key: values" line of a structured memory ("- Lives in: Utrecht", "- Stack:
        Swift, Kotlin", "- Members: Ana, Ben", "- Owner: Thabo"): each value is an entity of
        the key's kind, related to the subject of the section (the name in its heading)."""
        key = field.group(1).strip().casefold()
        direction, relation, kind = FIELDS[key]
        topic = self._topic_at(offset)
        if (
            topic is not None
            and relation in PERSONAL_RELATIONS
            and not topic.cued
            and topic.type in {"organization", "location", "concept", "other"}
        ):
            topic.type = "person"  # "### Profile: Anouk de Vries" / "- Lives in: Utrecht"
        start = offset + field.start(2)
        for piece in VALUE_SPLIT.finditer(self.source[start : offset + field.end(2)]):
            value = self._value(start + piece.start(), start + piece.end(), kind)
            if value is None or topic is None or value is topic:
                continue
            if relation == "LIVES_IN" and topic.type != "person":
                type_ = "LOCATED_IN"
            elif relation == "MANAGER":
                type_ = "REPORTS_TO" if topic.type == "person" else "LEADS"
                if type_ == "LEADS":
                    self._relate(value, topic, type_, line.strip())
                    continue
            else:
                type_ = relation
            if direction == "value":
                self._relate(value, topic, type_, line.strip())
            else:
                self._relate(topic, value, type_, line.strip())

    def _drop(self, mention: Mention) -> None:
        self.mentions.remove(mention)
        for index in [i for i, m in self.by_token.items() if m is mention]:
            del self.by_token[index]

    def _value(self, start: int, end: int, kind: str):
        """The entity one value of a field line names: a mention already there, or a new
        one of the key's kind over the value's words."""
        text = self.source[start:end].strip()
        inside = [m for m in self.mentions if start <= m.start < end]
        if inside and len(inside) == 1 and " " not in text and len(inside[0].name) < len(text):
            self._drop(inside[0])  # "user-prefs" is one name, not "prefs"
            inside = []
        if inside:
            mention = inside[0]
            last = mention.name.casefold().split()[-1]
            if (
                kind in {"person", "location", "organization"}
                and mention.type != kind
                and not mention.cued
                and last not in TEAM_WORDS | ORG_WORDS
            ):
                mention.type = kind
            return mention
        span = self.doc.char_span(start, end, alignment_mode="contract")
        if span is None:
            return None
        tokens = self._trim([t for t in span if t.ent_type_ not in VALUE_ENTS])
        tokens = [t for t in tokens if not t.like_num]
        if not tokens or len(tokens) > 4 or not self._free(tokens):
            return None
        if any(t.pos_ in {"VERB", "AUX", "PRON"} for t in tokens):
            return None
        return self._add(tokens, kind, 0.6, origin="field", cued=True)

    def _topic_at(self, char: int):
        for start, end, subject in getattr(self, "items", []):
            if start <= char < end:
                return subject
        current = None
        for start, person in getattr(self, "topics", []):
            if start <= char:
                current = person
        return current

    # ----- relationships --------------------------------------------------------------

    def _mention_of(self, token):
        """The entity a subject/object token stands for."""
        if token is None:
            return None
        if token.lower_ in SUBJECT_PRONOUNS and self.speaker is not None:
            return self.speaker
        if token.lower_ in {"which", "that", "who", "whom"} and token.head.dep_ == "relcl":
            noun = token.head.head
            if noun.dep_ == "attr" and noun.i not in self.by_token:  # "X is a service that"
                subjects = [c for c in noun.head.children if c.dep_ == "nsubj"]
                if subjects:
                    return self._mention_of(subjects[0])
            return self._mention_of(noun)
        if token.lower_ in {"he", "she", "him", "her"} and token.pos_ == "PRON":
            people = [
                m
                for m in self.mentions
                if m.type == "person" and m.end <= token.idx and m is not self.speaker
            ]
            return max(people, key=lambda m: m.start) if people else None
        if token.lower_ in {"it", "its"} and token.pos_ == "PRON":
            things = [
                m
                for m in self.mentions
                if m.type not in {"person", "location"} and m.end <= token.idx and m.origin
            ]
            return max(things, key=lambda m: m.start) if things else None
        mention = self.by_token.get(token.i)
        if mention is not None:
            return mention
        for child in token.children:  # "my sister Kasia": the name in apposition
            if child.dep_ == "appos" and child.i in self.by_token:
                return self.by_token[child.i]
            if child.dep_ == "acl" and child.lower_ in {"named", "called"}:  # "a cat named Pickles"
                for name in child.children:
                    if (
                        name.dep_ in {"oprd", "dobj", "attr", "npadvmod"}
                        and name.i in self.by_token
                    ):
                        return self.by_token[name.i]
        for child in token.children:  # "the billing service": compound children
            if child.dep_ in {"compound", "amod"} and child.i in self.by_token:
                return self.by_token[child.i]
        return None

    @staticmethod
    def _with_conjuncts(token):
        found = [token]
        for child in token.children:
            if child.dep_ == "conj":
                found.extend(_Reader._with_conjuncts(child))
            elif child.dep_ == "appos":
                continue
        return found

    def _subjects(self, verb):
        subjects = [c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass", "csubj"}]
        if (
            not subjects
            and verb.dep_ in {"conj", "xcomp", "advcl", "relcl", "pcomp"}
            and verb.head != verb
        ):
            if verb.dep_ == "relcl":
                return [verb.head]
            if verb.dep_ == "pcomp":  # "before moving to Seattle"
                return self._subjects(verb.head.head)
            return self._subjects(verb.head)
        if not subjects:
            first = next((t for t in verb.sent if not t.is_space), verb)
            if verb.i == first.i or (verb.i > 0 and verb.nbor(-1).text in {";", ","}):
                topic = self._topic_at(verb.idx)
                if topic is not None:
                    return [topic]
                if self.speaker is not None:
                    return ["SPEAKER"]
        out = []
        for subject in subjects:
            out.extend(self._with_conjuncts(subject))
        return out

    def _relate(self, source, target, type_: str, sentence, confidence: float = 0.7):
        if source is None or target is None or source is target:
            return
        if normalize_name(source.name) == normalize_name(target.name):
            return
        key = (normalize_name(source.name), type_, normalize_name(target.name))
        if key in self.relationships:
            return
        self.relationships[key] = ExtractedRelationship(
            source=source.name,
            target=target.name,
            type=type_,
            description=sentence.text.strip()[:300]
            if hasattr(sentence, "text")
            else str(sentence)[:300],
            confidence=round(min(confidence, source.confidence, target.confidence) + 0.1, 2),
            strength=0.6,
        )

    def _sentence_text(self, sent) -> str:
        return self.source[sent.start_char : sent.end_char].strip()

    def _relations(self):
        for token in self.doc:
            if token.pos_ in {"VERB", "AUX"} or _verb_lemma(token) in VERB_RULES:
                self._verb(token)
            if token.dep_ in {"attr", "appos"} and token.lower_ in ROLE_WORK | KIN_KNOWS | {
                "student",
                "wrapper",
                "fork",
                "friend",
                "fan",
                "wife",
                "husband",
                "part",
                "member",
                "owner",
                "maintainer",
                "author",
                "founder",
                "creator",
            }:
                self._role(token)
            if token.dep_ == "attr":
                self._kind_of(token)
            if token.dep_ == "poss" and (
                token.lower_ in {"my", "his", "her", "their"}
                or (token.i in self.by_token and self.by_token[token.i].type == "person")
            ):
                self._kin(token)

    def _attached(self):
        """A place, host, parent organisation or author attached to a name by a
        preposition, directly or through an apposition: "rmq-prod, the cluster in
        Frankfurt", "Palmline, a startup based in Accra", "the backup job on pg-main-1",
        "the Data Platform group at Meridian Bank", "Bongani from the data team",
        "Staff Engineer by Will Larson"."""
        for mention in list(self.mentions):
            if mention.root < 0:
                continue
            head = self.doc[mention.root]
            heads = [head] + [c for c in head.children if c.dep_ == "appos"]
            for noun in heads:
                for prep, obj in self._noun_preps(noun):
                    target = self._mention_of(obj)
                    if target is None or target is mention:
                        continue
                    type_ = _attachment(mention, prep, target)
                    if type_ is not None:
                        source, target = (
                            (target, mention) if type_ == "CREATED" else (mention, target)
                        )
                        self._relate(source, target, type_, self._sentence_text(head.sent))

    def _noun_preps(self, noun):
        """(preposition, object) pairs hanging off a noun, also through "based in"."""
        for child in noun.children:
            if child.dep_ == "prep":
                for pobj in child.children:
                    if pobj.dep_ == "pobj":
                        for obj in self._with_conjuncts(pobj):
                            yield child.lower_, obj
            elif child.dep_ == "acl" and child.lemma_.lower() in {"base", "locate", "headquarter"}:
                for prep in child.children:
                    if prep.dep_ == "prep" and prep.lower_ in {"in", "at"}:
                        for pobj in prep.children:
                            if pobj.dep_ == "pobj":
                                for obj in self._with_conjuncts(pobj):
                                    yield "in", obj

    def _objects(self, verb):
        """(object token, preposition) pairs of ``verb``: direct objects, prepositional
        objects, passive agents, and objects of an open complement ("started using X")."""
        out = []
        for child in verb.children:
            if child.dep_ in {"dobj", "attr", "oprd", "dative"}:
                out.extend((o, "") for o in self._with_conjuncts(child))
                for grand in child.children:  # "sends events to X"
                    if grand.dep_ == "prep":
                        out.extend(
                            (o, grand.lower_)
                            for p in grand.children
                            if p.dep_ == "pobj"
                            for o in self._with_conjuncts(p)
                        )
            elif child.dep_ in {"prep", "agent", "dative"}:
                objects = [p for p in child.children if p.dep_ in {"pobj", "pcomp"}]
                for pobj in objects:
                    out.extend((o, child.lower_) for o in self._with_conjuncts(pobj))
                if not objects and child.i + 1 < len(self.doc):  # "at Acme Corp." misparsed
                    following = self.by_token.get(child.i + 1)
                    if following is not None and following.root >= 0:
                        out.append((self.doc[following.root], child.lower_))
            elif child.dep_ == "xcomp" and child.tag_ == "VBG" and child.i in self.by_token:
                out.append((child, ""))  # "loves hiking"
            elif child.dep_ == "prt":  # "grew up in", "took over X"
                for pobj in child.children:
                    if pobj.dep_ == "pobj":
                        out.extend((o, child.lower_) for o in self._with_conjuncts(pobj))
            elif child.dep_ in {"acomp"}:  # "is married to X", "is responsible for X"
                for prep in child.children:
                    if prep.dep_ == "prep":
                        out.extend(
                            (o, f"{child.lower_} {prep.lower_}")
                            for p in prep.children
                            if p.dep_ == "pobj"
                            for o in self._with_conjuncts(p)
                        )
        return out

    def _verb(self, verb):
        lemma = _verb_lemma(verb)
        no_longer = any(
            c.lower_ in {"longer", "anymore"} and c.dep_ in {"advmod", "npadvmod"}
            for c in verb.children
        )
        negated = no_longer or any(c.dep_ == "neg" for c in verb.children)
        if lemma in {"stop", "quit"}:
            for child in verb.children:
                if child.dep_ in {"xcomp", "dobj"} and child.lemma_ in {"use", "using"}:
                    self._link(verb, child, "STOPPED_USING")
            return
        if lemma == "keep" and negated:
            return
        if lemma == "stand" and negated and not no_longer:  # "can't stand running"
            lemma, negated = "hate", False
        if lemma == "get" and any(c.dep_ == "prt" and c.lower_ == "back" for c in verb.children):
            lemma = "return"  # "got back from Lisbon"
        rule = VERB_RULES.get(lemma, _NO_RULE)
        if not negated:
            self._job_at(verb)
        if negated and not no_longer:
            return
        subjects = self._subjects(verb)
        passive = any(c.dep_ in {"nsubjpass", "auxpass"} for c in verb.children) or (
            verb.tag_ == "VBN" and not any(c.dep_ in {"aux", "nsubj"} for c in verb.children)
        )
        sentence = self._sentence_text(verb.sent)
        for obj, prep in self._objects(verb):
            target = self._mention_of(obj)
            if target is None:
                continue
            if passive and prep == "by" and rule.by_subject:  # "backed by", "powered by"
                for subject in subjects:
                    source = self._resolve(subject)
                    type_ = rule(source, target, "by", no_longer) if source else None
                    if type_:
                        self._relate(source, target, type_, sentence)
                continue
            if passive and prep == "by":  # "A was replaced by B", "X is owned by Y"
                for subject in subjects:
                    source = self._resolve(subject)
                    if source is None:
                        continue
                    type_ = rule(target, source, "", no_longer)
                    if type_:
                        self._relate(target, source, type_, sentence)
                continue
            if lemma in MOVE_VERBS and prep in {"to", "onto", "into"} and target.type != "location":
                moved = [
                    self._mention_of(o)
                    for c in verb.children
                    if c.dep_ == "dobj"
                    for o in self._with_conjuncts(c)
                ]
                moved = [m for m in moved if m is not None and m.type != "person"]
                for thing in moved:  # "migrated staging-web from Heroku to Fly.io"
                    self._relate(thing, target, "MIGRATED_TO", sentence)
                if moved:
                    continue
            if lemma == "replace" and prep == "with":  # "we replaced A with B"
                for child in verb.children:
                    if child.dep_ == "dobj":
                        self._relate(target, self._mention_of(child), "REPLACES", sentence)
                continue
            for subject in subjects:
                source = self._resolve(subject)
                if source is None:
                    continue
                type_ = rule(source, target, prep, no_longer)
                if (
                    type_ is None
                    and prep in {"with", "via", "through", "on"}
                    and target.type == "technology"
                    and source.type in {"component", "project", "technology", "organization"}
                ):
                    type_ = "USES"  # "serves models with Triton", "runs on Kubernetes"
                if type_:
                    self._relate(source, target, type_, sentence)
                    if type_ in {"VISITED", "ATTENDED", "LIVES_IN"}:
                        for companion in self._companions(verb):
                            self._relate(companion, target, type_, sentence)

    def _job_at(self, verb):
        """ "moved to Dublin for a job at Fernleaf Games", "took a role with Acme"."""
        for token in verb.subtree:
            if token.lemma_.lower() not in {
                "job",
                "position",
                "role",
                "internship",
                "gig",
                "offer",
            }:
                continue
            for prep in token.children:
                if prep.dep_ == "prep" and prep.lower_ in {"at", "with", "from"}:
                    for pobj in prep.children:
                        target = self._mention_of(pobj) if pobj.dep_ == "pobj" else None
                        if target is not None and target.type in {"organization", "event"}:
                            target.type = "organization"
                            sentence = self._sentence_text(verb.sent)
                            for subject in self._subjects(verb):
                                source = self._resolve(subject)
                                if source is not None and source.type == "person":
                                    self._relate(source, target, "WORKS_FOR", sentence)

    def _companions(self, verb):
        """ "went to the parade with Jess": the people who went along."""
        found = []
        for child in verb.children:
            if child.dep_ == "prep" and child.lower_ == "with":
                for pobj in child.children:
                    for obj in self._with_conjuncts(pobj) if pobj.dep_ == "pobj" else []:
                        mention = self._mention_of(obj)
                        if mention is not None and mention.type == "person":
                            found.append(mention)
        return found

    def _link(self, verb, using, type_):
        sentence = self._sentence_text(verb.sent)
        for subject in self._subjects(verb):
            source = self._resolve(subject)
            for obj, _prep in self._objects(using):
                self._relate(source, self._mention_of(obj), type_, sentence)

    def _resolve(self, subject):
        if subject == "SPEAKER":
            return self.speaker
        if isinstance(subject, Mention):
            return subject
        return self._mention_of(subject)

    def _kind_of(self, token):
        """ "orders-api is a Spring Boot service": the thing is built with the technology."""
        if token.dep_ != "attr" or token.i in self.by_token:
            return
        sentence = self._sentence_text(token.sent)
        for child in token.children:
            target = self.by_token.get(child.i)
            if child.dep_ == "compound" and target is not None and target.type == "technology":
                for subject in self._subjects(token.head):
                    source = self._resolve(subject)
                    if source is not None and source.type in {"component", "project"}:
                        self._relate(source, target, "USES", sentence)

    def _role(self, token):
        """ "X is the CTO of Y", "X, a friend of Y", "X is part of Y"."""
        if token.dep_ == "attr":
            verb = token.head
            subjects = [self._resolve(s) for s in self._subjects(verb)]
        else:
            subjects = [self._mention_of(token.head)]
        word = token.lower_
        sentence = self._sentence_text(token.sent)
        for poss in token.children:  # "Rosa is Tomás's sister"
            target = self._mention_of(poss) if poss.dep_ == "poss" else None
            for source in subjects:
                if source is not None and target is not None:
                    type_ = _role_type(word, source, target)
                    if type_ and type_ in {"KNOWS", "MARRIED_TO"}:
                        self._relate(source, target, type_, sentence)
        for prep in token.children:
            if prep.dep_ != "prep" or prep.lower_ not in {"of", "at", "for", "in", "with", "over"}:
                continue
            for pobj in prep.children:
                if pobj.dep_ != "pobj":
                    continue
                for obj in self._with_conjuncts(pobj):
                    target = self._mention_of(obj)
                    for source in subjects:
                        if source is None or target is None:
                            continue
                        type_ = _role_type(word, source, target)
                        if type_:
                            self._relate(source, target, type_, sentence)

    def _kin(self, token):
        """ "my wife Anna", "my friend Ben", "my manager Sunita", "with his wife Juliana"."""
        noun = token.head
        word = noun.lower_
        owner = self.speaker if token.lower_ == "my" else self.by_token.get(token.i)
        if owner is None and token.lower_ != "my":
            verb = noun
            while verb.pos_ not in {"VERB", "AUX"} and verb.head != verb:
                verb = verb.head
            people = [self._resolve(s) for s in self._subjects(verb)]
            people = [p for p in people if p is not None and p.type == "person"]
            owner = people[0] if people else None
        if owner is None:
            return
        names = [c for c in noun.children if c.dep_ in {"appos", "compound"}]
        if noun.i in self.by_token:  # "my Anna"? no relation
            return
        if noun.i + 1 < len(self.doc) and self.doc[noun.i + 1].i in self.by_token:
            names.append(self.doc[noun.i + 1])
        for name in names:
            target = self._mention_of(name)
            if target is not None and word in ANIMALS | PET_WORDS:
                if not target.cued:
                    target.type = "other"  # "my cat Mochi"
                self._relate(owner, target, "OWNS", self._sentence_text(token.sent))
                continue
            if target is None or target.type != "person":
                continue
            sentence = self._sentence_text(token.sent)
            if word in KIN_MARRIED:
                self._relate(owner, target, "MARRIED_TO", sentence)
            elif word in KIN_REPORTS:
                self._relate(owner, target, "REPORTS_TO", sentence)
            elif word in KIN_KNOWS:
                self._relate(owner, target, "KNOWS", sentence)

    def _one_type_per_name(self):
        """A name is one thing within a text: every mention of it takes the type most of
        its mentions have, a cue word's type first ("Alice Chen" a person in one sentence
        and guessed an organization in another is a person)."""
        groups: dict[str, list[Mention]] = {}
        for mention in self.mentions:
            groups.setdefault(normalize_name(mention.name), []).append(mention)
        for group in groups.values():
            if len({m.type for m in group}) < 2:
                continue
            votes: dict[str, float] = {}
            for m in group:
                votes[m.type] = votes.get(m.type, 0) + (2 if m.cued else 1) + m.confidence
            chosen = max(votes, key=votes.get)
            for m in group:
                m.type = chosen

    # ----- all together ---------------------------------------------------------------

    def read(self) -> Extraction:
        self._speaker()
        self._identifiers()
        self._technologies()
        self._named_entities()
        self._proper_nouns()
        self._chunks()
        self._activities()
        self._retype()
        self._topics()
        self._relations()
        self._attached()
        self._one_type_per_name()
        entities: dict[tuple, ExtractedEntity] = {}
        for mention in self.mentions:
            key = (normalize_name(mention.name), mention.type)
            if key[0] and key not in entities:
                sentence = (
                    self.doc.char_span(mention.start, mention.end, alignment_mode="expand")
                    if mention is not self.speaker
                    else None
                )
                entities[key] = ExtractedEntity(
                    name=mention.name,
                    type=mention.type,
                    description=self._sentence_text(sentence.sent)[:300] if sentence else "",
                    confidence=mention.confidence,
                )
        return Extraction(
            entities=list(entities.values()), relationships=list(self.relationships.values())
        )


LIST_ITEM = re.compile(r"^([ \t]*(?:[-*+\u2022]|\d{1,2}[.)])[ \t]+(?:`|\*\*|__)?)(\S)")
SEPARATOR = re.compile(r"(?:`|\*\*|__)?\s*(?:\([^)\n]{0,40}\)\s*)?(?:\u2014|\u2013|-{1,2}|:)\s+")
FIELD_LINE = re.compile(
    r"^[ \t]*(?:[-*+\u2022][ \t]+)?(?:\*\*)?([A-Za-z][A-Za-z /'-]{0,24}?)(?:\*\*)?[ \t]*:"
    r"(?:\*\*)?[ \t]*(.+?)\s*$"
)
VALUE_SPLIT = re.compile(r"[^,;&/]+(?<!\s)")
PERSONAL_RELATIONS = {
    "LIVES_IN",
    "WORKS_FOR",
    "LIKES",
    "DISLIKES",
    "MARRIED_TO",
    "KNOWS",
    "STUDIES_AT",
    "REPORTS_TO",
}
# Values never named as entities: dates, times, amounts.
VALUE_ENTS = {"DATE", "TIME", "MONEY", "PERCENT", "QUANTITY", "CARDINAL", "ORDINAL"}
# key -> (who is the subject: the section's "topic" or the "value", relation, value kind)
FIELDS = {
    **dict.fromkeys(
        ["lives in", "lives", "home", "city", "hometown"], ("topic", "LIVES_IN", "location")
    ),
    **dict.fromkeys(
        [
            "location",
            "based in",
            "region",
            "regions",
            "deployed to",
            "deployed in",
            "hosted in",
            "runs in",
            "datacenter",
            "data centre",
        ],
        ("topic", "LIVES_IN", "location"),
    ),
    **dict.fromkeys(
        ["works at", "works for", "employer", "company", "org"],
        ("topic", "WORKS_FOR", "organization"),
    ),
    **dict.fromkeys(
        [
            "likes",
            "loves",
            "hobbies",
            "hobby",
            "interests",
            "enjoys",
            "favourite",
            "favorite",
            "favourites",
            "favorites",
            "fan of",
        ],
        ("topic", "LIKES", "concept"),
    ),
    **dict.fromkeys(["dislikes", "hates", "avoid", "avoids"], ("topic", "DISLIKES", "concept")),
    **dict.fromkeys(["prefers", "preferred", "preference"], ("topic", "PREFERS", "concept")),
    **dict.fromkeys(
        [
            "uses",
            "stack",
            "tools",
            "tooling",
            "language",
            "languages",
            "framework",
            "frameworks",
            "database",
            "databases",
            "db",
            "tech",
            "runtime",
            "editor",
            "ide",
            "platform",
            "queue",
            "cache",
            "storage",
        ],
        ("topic", "USES", "technology"),
    ),
    **dict.fromkeys(
        ["members", "member", "engineers", "team members"], ("value", "PART_OF", "person")
    ),
    **dict.fromkeys(
        ["lead", "leads", "tech lead", "chair", "head", "pm", "product manager", "led by"],
        ("value", "LEADS", "person"),
    ),
    "manager": ("value", "MANAGER", "person"),
    **dict.fromkeys(
        [
            "owner",
            "owners",
            "owned by",
            "maintainer",
            "maintainers",
            "maintained by",
            "dri",
            "assignee",
            "on-call",
            "oncall",
        ],
        ("value", "OWNS", "person"),
    ),
    "owns": ("topic", "OWNS", "component"),
    **dict.fromkeys(
        ["depends on", "dependencies", "deps", "requires", "backed by"],
        ("topic", "DEPENDS_ON", "component"),
    ),
    **dict.fromkeys(
        ["sends via", "integrates with", "calls", "talks to", "publishes to", "notifies"],
        ("topic", "INTEGRATES_WITH", "component"),
    ),
    **dict.fromkeys(["married to", "spouse", "wife", "husband"], ("topic", "MARRIED_TO", "person")),
    "reports to": ("topic", "REPORTS_TO", "person"),
    **dict.fromkeys(
        ["studied at", "studies at", "school", "university", "education", "alma mater"],
        ("topic", "STUDIES_AT", "organization"),
    ),
    **dict.fromkeys(
        ["author", "authors", "written by", "authored by", "created by"],
        ("value", "CREATED", "person"),
    ),
    **dict.fromkeys(
        ["reviewer", "reviewers", "reviewed by", "approved by", "approver"],
        ("value", "REVIEWED", "person"),
    ),
    **dict.fromkeys(
        [
            "sister",
            "brother",
            "mother",
            "mom",
            "mum",
            "dad",
            "father",
            "son",
            "daughter",
            "kids",
            "children",
            "child",
            "friend",
            "friends",
            "best friend",
            "cousin",
            "aunt",
            "uncle",
            "grandma",
            "grandpa",
            "parents",
            "siblings",
            "colleague",
            "colleagues",
            "mentor",
            "buddy",
        ],
        ("topic", "KNOWS", "person"),
    ),
    **dict.fromkeys(["dog", "cat", "pet", "pets", "dogs", "cats"], ("topic", "OWNS", "other")),
}
HUMAN_VERBS = set(
    """say ask want think feel tell mentor agree decide suggest prefer like love hate enjoy
    live marry report lead manage write join leave plan spend visit meet mention promise
    hope know speak travel move grow study graduate adopt quit retire sign approve review
    own maintain propose volunteer insist complain explain recommend confirm note reply
    pair present hire interview attend""".split()
)
HUMAN_OBJECT_VERBS = set(
    """mentor ask cc ping tell thank meet call hire email message invite remind congratulate
    introduce pair onboard""".split()
)
MOVE_VERBS = {"migrate", "move", "switch", "port", "rewrite", "shift"}
TECH_OBJECT_VERBS = set(
    """use adopt install configure deploy upgrade downgrade integrate wrap evaluate benchmark
    replace drop deprecate migrate""".split()
)
TECH_PREP_VERBS = set(
    """use build write run host deploy migrate switch move integrate replace port rewrite
    depend rely store log track validate cache queue publish train serve""".split()
)
WORK_VERBS = set("read reread finish watch rewatch binge recommend".split())
PLACE_OBJECT_VERBS = set("visit see explore tour hike climb".split())
ORG_NOUNS = set(
    """company startup firm employer business bakery restaurant cafe shop store agency
    studio bank school university college lab nonprofit charity club band brand vendor
    supplier client customer team org organization organisation""".split()
)
PLACE_NOUNS = set(
    """city town village country region state province island neighbourhood neighborhood
    district capital suburb mountain mountains lake river park beach coast""".split()
)
PLACE_VERBS = set(
    """move live fly travel go visit base stay drive relocate head return arrive land
    settle grow moving trip hike hiking ski skiing""".split()
)
MEET_VERBS = set("meet speak talk pair chat sync meeting call work spoke catch".split())
HUMAN_AGENT_VERBS = set(
    "lead roll review approve write own manage fix found author sign maintain run".split()
)


PLACED_KINDS = {"component", "organization", "project", "technology", "event"}


def _attachment(mention: Mention, prep: str, target: Mention) -> str | None:
    """The relation a preposition attaching ``target`` to ``mention`` states."""
    kind = mention.type
    if prep == "in" and target.type == "location" and kind in PLACED_KINDS:
        return "LOCATED_IN"
    if prep == "in" and target.type == "location" and kind == "person":
        return "LIVES_IN"  # "my abuela Carmen in Guadalajara"
    if prep == "on" and kind in {"component", "technology"} and target.type == "component":
        return "LOCATED_IN"  # "the nightly-backup job on pg-main-1"
    if prep in {"at", "of", "within"} and kind == "organization" == target.type:
        return "PART_OF"
    if prep in {"from", "on", "at"} and kind == "person" and target.type == "organization":
        words = target.name.casefold().split()
        return "PART_OF" if words and words[-1] in TEAM_WORDS else "WORKS_FOR"
    if prep == "by" and kind == "document" and target.type == "person":
        return "CREATED"
    if prep == "in" and kind == "component" and target.type == "component":
        return "PART_OF"  # "CartRepository in checkout-service"
    return None


def _role_type(word: str, source: Mention, target: Mention) -> str | None:
    if word in {"wife", "husband", "spouse"} and target.type == "person":
        return "MARRIED_TO"
    if word in KIN_KNOWS and target.type == "person" and source.type == "person":
        return "KNOWS"
    if word in {"fan"}:
        return "LIKES"
    if word in {"wrapper", "fork"} and target.type == "technology":
        return "USES"
    if word in {"part", "member"}:
        return "PART_OF"
    if word in {"owner", "maintainer"}:
        return "OWNS"
    if word in {"author", "founder", "creator", "cofounder", "co-founder"}:
        return "CREATED"
    if word in {"lead", "head", "manager", "director"} and target.type in {
        "project",
        "organization",
        "component",
    }:
        return "LEADS" if target.type != "organization" or word != "manager" else "LEADS"
    if word in {"student", "alumnus", "alumna", "graduate", "undergrad", "undergraduate"}:
        return "STUDIES_AT" if target.type == "organization" else None
    if word in ROLE_WORK and target.type == "organization":
        return "WORKS_FOR"
    return None


def _verb_lemma(token) -> str:
    """The verb's lemma, also when the tagger took a verb for a noun ("; lives in Austin",
    "and talks to X")."""
    if token.pos_ in {"VERB", "AUX"} or not token.lower_.endswith("s"):
        return token.lemma_.lower()
    if token.dep_ in {"conj", "ROOT"} and any(c.dep_ in {"prep", "dobj"} for c in token.children):
        for stem in (token.lower_[:-1], token.lower_[:-2]):
            if stem in VERB_RULES:
                return stem
    return token.lemma_.lower()


def _person(m: Mention) -> bool:
    return m.type == "person"


def _place(m: Mention) -> bool:
    return m.type == "location"


def _rule(default: str | None = None, **by_prep):
    """A verb's rule: relation by preposition ("" = direct object), else ``default``."""

    rules = {key.rstrip("_"): value for key, value in by_prep.items()}

    def decide(source: Mention, target: Mention, prep: str, no_longer: bool) -> str | None:
        if no_longer:
            return "STOPPED_USING" if default in {"USES", "DEPENDS_ON", _use} else None
        choice = rules.get(prep.replace(" ", "_"), default if not prep else None)
        if callable(choice):
            return choice(source, target)
        return choice

    decide.by_subject = "by" in rules  # "X is backed by Y": X is the subject of the relation
    return decide


def _move(source, target):
    if _person(source) and _place(target):
        return "LIVES_IN"
    if _person(source):
        return None
    return "MIGRATED_TO"


def _go(source, target):
    if target.type == "event":
        return "ATTENDED"
    if target.type == "location":
        return "VISITED"
    return None


def _locate(source, target):
    if target.type != "location":
        return None
    return "LIVES_IN" if _person(source) else "LOCATED_IN"


def _join(source, target):
    if target.type != "organization":
        return None
    words = target.name.casefold().split()
    return "PART_OF" if words and words[-1] in TEAM_WORDS else "WORKS_FOR"


def _attend(source, target):
    if target.type == "organization":
        return "STUDIES_AT"
    if target.type in {"event", "location"}:
        return "ATTENDED"
    return None


def _work(source, target):
    if target.type == "organization":
        return "PART_OF" if target.name.casefold().split()[-1] in TEAM_WORDS else "WORKS_FOR"
    return None


def _have(source, target):
    return "OWNS" if target.type in {"other", "component", "project"} else None


def _run(source, target):
    if _person(source) and target.type in {"project", "organization", "event"}:
        return "LEADS"
    if not _person(source) and target.type == "technology":
        return "USES"
    return None


def _join_on(source, target):
    """ "I'll be on the data team"; "cart-svc is still on MongoDB"."""
    if _person(source) and target.type == "organization":
        return "PART_OF"
    if not _person(source) and target.type == "technology":
        return "USES"
    return None


def _team_or_org(source, target):
    return "PART_OF" if target.type == "organization" else None


def _run_on(source, target):
    """ "runs on Kubernetes" uses it; "runs on analytics-prod" is hosted there."""
    if target.type == "technology":
        return "USES"
    if target.type == "component" and source.type != "person":
        return "LOCATED_IN"
    return None


def _create(source, target):
    return "CREATED" if target.type != "person" else None


def _meet(source, target):
    return "KNOWS" if _person(source) and _person(target) else None


def _data(source, target):
    """Reading or writing a store is using it; a service is integrated with."""
    if target.type == "technology":
        return "USES"
    if target.type == "component":
        words = target.name.casefold().replace("-", " ").replace("_", " ").split()
        stores = {"db", "database", "table", "bucket", "topic", "queue", "index", "cache", "store"}
        return (
            "USES" if words and (words[-1] in stores or words[0] in stores) else "INTEGRATES_WITH"
        )
    return None


def _use(source, target):
    return "USES" if target.type != "person" else None


_NO_RULE = _rule(None)  # a verb of no kind: only "with/via/on <technology>" says USES

VERB_RULES = {
    "use": _rule(_use),
    "rely": _rule(None, on="USES"),
    "build": _rule(_create, on="USES", with_="USES"),
    "write": _rule(_create, **{"in": "USES", "to": _data}),
    "power": _rule(None, by="USES"),
    "back": _rule(None, by="DEPENDS_ON"),
    "teach": _rule(None, at=_work),
    "volunteer": _rule(None, at=_team_or_org, with_=_team_or_org),
    "run": _rule(_run, on=_run_on, **{"in": _locate}),
    "fan": _rule(None, to="INTEGRATES_WITH", out="INTEGRATES_WITH"),
    "depend": _rule(None, on="DEPENDS_ON"),
    "require": _rule("DEPENDS_ON"),
    "need": _rule("DEPENDS_ON"),
    "call": _rule("INTEGRATES_WITH"),
    "query": _rule(_data),
    "talk": _rule(None, to="INTEGRATES_WITH"),
    "connect": _rule(None, to="INTEGRATES_WITH"),
    "send": _rule(None, to="INTEGRATES_WITH", through="INTEGRATES_WITH", via="INTEGRATES_WITH"),
    "publish": _rule(None, to="INTEGRATES_WITH"),
    "push": _rule(None, to="INTEGRATES_WITH"),
    "integrate": _rule(None, with_="INTEGRATES_WITH"),
    "read": _rule(_data, **{"from": _data}),
    "wrap": _rule(_use),
    "expose": _rule(_use),
    "serve": _rule(None),
    "draft": _rule(_create),
    "adopt": _rule(_have),
    "consume": _rule(None, **{"from": _data}),
    "load": _rule(_data, into=_data),
    "upsert": _rule(None, into=_data),
    "store": _rule(None, **{"in": _data}),
    "pull": _rule(None, **{"from": "INTEGRATES_WITH"}),
    "fetch": _rule(None, **{"from": "INTEGRATES_WITH"}),
    "acquire": _rule(lambda s, t: "OWNS" if t.type == "organization" else None),
    "buy": _rule(lambda s, t: "OWNS" if t.type in {"organization", "other"} else None),
    "headquarter": _rule(None, **{"in": _locate}),
    "rewrite": _rule(None, to="MIGRATED_TO", **{"in": "USES"}),
    "port": _rule(None, to="MIGRATED_TO"),
    "return": _rule(None, **{"from": _go}),
    "migrate": _rule(None, to="MIGRATED_TO"),
    "switch": _rule(None, to="MIGRATED_TO"),
    "move": _rule(None, to=_move, **{"in": _move}),
    "relocate": _rule(None, to=_move),
    "replace": _rule("REPLACES"),
    "supersede": _rule("REPLACES"),
    "own": _rule("OWNS"),
    "maintain": _rule("OWNS"),
    "have": _rule(_have),
    "adopt_pet": _rule("OWNS"),
    "lead": _rule("LEADS"),
    "manage": _rule("LEADS"),
    "head": _rule("LEADS"),
    "report": _rule(None, to="REPORTS_TO"),
    "work": _rule(None, at=_work, **{"for": _work}),
    "join": _rule(_join),
    "employ": _rule(None, by="WORKS_FOR"),
    "intern": _rule(None, at="WORKS_FOR"),
    "belong": _rule(None, to="PART_OF"),
    "host": _rule(None, **{"in": "LOCATED_IN", "on": "USES"}),
    "deploy": _rule(None, to=_locate, **{"in": _locate, "on": "USES"}),
    "base": _rule(None, **{"in": _locate}),
    "locate": _rule(None, **{"in": _locate}),
    "live": _rule(None, **{"in": _locate}),
    "grow": _rule(None, **{"in": _locate, "up": _locate}),
    "stay": _rule(None, **{"in": _locate}),
    "be": _rule(
        None,
        **{
            "in": _locate,
            "at": _work,
            "married_to": "MARRIED_TO",
            "obsessed_with": "LIKES",
            "into": "LIKES",
            "crazy_about": "LIKES",
            "passionate_about": "LIKES",
            "hooked_on": "LIKES",
            "on": _join_on,
            "responsible_for": "OWNS",
            "based_in": _locate,
            "part_of": "PART_OF",
        },
    ),
    "visit": _rule(_go),
    "go": _rule(None, to=_go),
    "travel": _rule(None, to=_go),
    "fly": _rule(None, to=_go),
    "attend": _rule(_attend),
    "marry": _rule("MARRIED_TO", to="MARRIED_TO"),
    "know": _rule(_meet),
    "meet": _rule(_meet, with_=_meet),
    "like": _rule("LIKES"),
    "love": _rule("LIKES"),
    "enjoy": _rule("LIKES"),
    "adore": _rule("LIKES"),
    "hate": _rule("DISLIKES"),
    "dislike": _rule("DISLIKES"),
    "detest": _rule("DISLIKES"),
    "prefer": _rule("PREFERS"),
    "study": _rule(None, at="STUDIES_AT"),
    "graduate": _rule(None, **{"from": "STUDIES_AT"}),
    "enroll": _rule(None, at="STUDIES_AT", **{"in": "STUDIES_AT"}),
    "create": _rule(_create),
    "found": _rule(_create),
    "design": _rule(_create),
    "author": _rule(_create),
    "develop": _rule(_create),
    "start": _rule(lambda s, t: "CREATED" if t.type in {"organization", "project"} else None),
    "co-author": _rule(_create),
    "coauthor": _rule(_create),
    "present": _rule(None, at=_attend),
    "speak": _rule(None, at=_attend),
    "give": _rule(None, at=_attend),
    "review": _rule("REVIEWED"),
    "approve": _rule("REVIEWED"),
}


class ParserExtractor(Extractor):
    name = "parser"

    def extract(self, text: str) -> Extraction:
        return _Reader(parse(text)).read()

    def extract_many(self, texts: list[str]) -> list[Extraction]:
        return [_Reader(doc).read() for doc in parse_many(texts)]
