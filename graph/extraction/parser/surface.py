"""Relations the dependency parse loses but the words still state: who "the user" of an
agent's notes is, "the owner of X is Y", a migration whose target the parser misread
("moved from Heroku to Render"), a hand-over ("hands the pipeline over to the Data
team"), a service placed on a host by any verb ("keeps crashing on node-7")."""

import re

from graph.extraction.parser.rules import VERB_RULES, Mention
from graph.extraction.parser.words import (
    BOLD_LINE,
    MOVE_VERBS,
    ROLE_OWNERS,
    TEAM_WORDS,
    TRIP_NOUNS,
)
from graph.vocabulary import WORD_ABBREVIATIONS, normalize_name
from memoryhub.nlp import english_word

# "the user is Kwame Asante", "User's name is Paul Grant", "the user (Ama Boateng)".
USER_WORDS = {"user", "customer", "client"}
# "Name: Olamide", "User name Leah Goldberg", "Name — Pieter", "User = Tariq Haddad", "User
# Marta Nowak: data engineer": the person a note is about.
NAME_FIELD = re.compile(
    r"\b(?:name\s*(?:is\s*)?[:\u2014\u2013=-]?|user\s*[:=]?)\s*\Z", re.IGNORECASE
)
# "Summary of user (Sreymom):", "About the client (Ana Lima)": the name in brackets.
USER_BRACKETED = re.compile(
    r"\b(?i:user|customer|client)\s*\(\s*([A-Z][\w'\u2019.-]*(?:\s[A-Z][\w'\u2019.-]*){0,3})\s*\)"
)
# "user mkhize is debugging …", "the user @li.na": a handle right after "user".
USER_HANDLE = re.compile(
    r"\b(?i:user|customer|client)\s+@?([a-z][a-z0-9_.]*[a-z0-9])(?=[\s,;:)]|$)"
)
HOST_PARTS = {"node", "host", "vm", "box", "server", "instance", "machine", "bastion", "ip"}
HOME_NOUNS = {"flat", "apartment", "house", "home", "farm", "condo", "place", "loft"}
MIGRATION_NOUNS = {"migration", "move", "switch", "port", "cutover", "transition", "rewrite"}
# Kinds of thing a technology's name may precede before a system's own name.
KIND_NOUNS = set(
    """cluster clusters instance instances group consumer producer dashboard distribution
    bucket topic queue database db replica node nodes broker brokers server service app
    function job pipeline index table stream project repo registry namespace""".split()
)
# "Owner: netops." inside a prose note, after a sentence's end.
INLINE_OWNER = re.compile(
    r"(?:(?<=[.;!?] )|(?<=[.;!?]  ))(Owner|Owners|Owned by|Owning team|Team|DRI|Lead)\s*:\s*"
    r"([A-Za-z][\w .&'-]{0,40}?)(?=\s*(?:[.;(\n]|$))"
)
OFFICE_NOUNS = {"office", "hq", "headquarters", "branch", "campus", "plant", "factory"}
HAND_VERBS = {"hand", "transfer", "give", "pass", "reassign", "assign"}
MOVE_LEMMAS = MOVE_VERBS | {"cut", "transition", "swap"}
# A deploy arrow; "on" (with "node", "host", "the") right before a host's name.
ARROW = re.compile(r"\s(?:\u2192|->|=>)\s")
# What may stand between a name and the arrow beside it: quotes, a brace.
ADJACENT_LEFT = re.compile(r"[`'\"}\s]*")
ADJACENT_RIGHT = re.compile(r"[`'\"{\s]*")
ON_HOST = re.compile(r"\bon\s+(?:the\s+)?(?:(?:node|host|box|vm|server|instance)\s+)?`?\Z")


# The words between two systems where the second takes the first's place: "from A to B"
# (after a change word), "B instead of A", "A in favour of B", "A replaced by B", "swap A
# for B", "replace A w/ B". Each: (words before the first name, words between, whether
# the second name is the newcomer).
CHANGE_WORDS = re.compile(
    r"\b(?:switch\w*|mov\w*|migrat\w*|swap\w*|upgrad\w*|bump\w*|port\w*|transition\w*|"
    r"chang\w*|convert\w*|rewr\w*|cut\s*over|replac\w*|went|go(?:es|ing)?)\b",
    re.IGNORECASE,
)
SYSTEM_TYPES = {"technology", "component"}
# A note's clause of taste or use with no subject ("Dislikes Jira, prefers Linear"): the
# verb as written, the verb whose rule (``VERB_RULES``) relates it, and whether it stopped.
TASTE_VERBS = {
    "prefers": ("prefer", False), "likes": ("like", False), "loves": ("love", False),
    "enjoys": ("enjoy", False), "adores": ("adore", False), "dislikes": ("dislike", False),
    "hates": ("hate", False), "detests": ("detest", False), "can't stand": ("hate", False),
    "cannot stand": ("hate", False), "uses": ("use", False), "stopped using": ("use", True),
    "no longer uses": ("use", True),
}  # fmt: skip
_TASTE_WORDS = (
    "("
    + "|".join(
        re.escape(word).replace("'", "['’]").replace(r"\ ", " ")
        for word in sorted(TASTE_VERBS, key=len, reverse=True)
    )
    + ")"
)
TASTE_OPENING = re.compile(_TASTE_WORDS + r"\s", re.IGNORECASE)
TASTE_CLAUSE = re.compile(
    r"\b" + _TASTE_WORDS + r"\s+(?:the\s+|his\s+|her\s+|their\s+)?", re.IGNORECASE
)
# Verbs of a wish between two things: "wants Kotlin rather than Java".
PREFERENCE_VERBS = {"want", "prefer", "ask", "request", "like", "love", "choose", "pick"}
# A replacement's names: systems, and a vendor the parser took for a company beside one.
REPLACEMENT_TYPES = SYSTEM_TYPES | {"organization"}
VERSION_OR_NOTE = r"(?:\s*v?\d[\w.]*)?(?:\s*\([^()]{0,40}\))?"
A_FEW_WORDS = r"(?:\s+[a-z][\w-]*){0,3}?"
FROM = re.compile(r"\bfrom\s+(?:the\s+)?(?:old\s+|legacy\s+|self-managed\s+)?\Z", re.I)
REPLACEMENTS = (
    (
        FROM,
        re.compile(VERSION_OR_NOTE + r"(?:\s+\w+)?\s+to\s+(?:the\s+)?(?:new\s+)?\Z", re.I),
        True,
    ),
    (
        None,
        re.compile(
            VERSION_OR_NOTE + A_FEW_WORDS + r"\s+(?:instead\s+of|rather\s+than)\s+(?:the\s+)?"
            r"(?:old\s+|legacy\s+|home-grown\s+|previous\s+)?\Z",
            re.I,
        ),
        False,
    ),
    (
        None,
        re.compile(
            VERSION_OR_NOTE + A_FEW_WORDS + r"\s+in\s+fa[vu]ou?r\s+of\s+(?:the\s+)?\Z", re.I
        ),
        True,
    ),
    (
        None,
        re.compile(
            VERSION_OR_NOTE + r",?\s+(?:(?:is|was|were|got|has\s+been|have\s+been|"
            r"being)\s+)*replaced\s+by\s+(?:the\s+)?\Z",
            re.I,
        ),
        True,
    ),
    (
        re.compile(r"\b(?:swap\w*|replac\w*|trad\w*)\s+(?:out\s+)?(?:the\s+)?\Z", re.I),
        re.compile(VERSION_OR_NOTE + r"\s+(?:for|with|w/)\s+(?:the\s+)?\Z", re.I),
        True,
    ),
)


def host_like(mention: Mention) -> bool:
    """ "node-7", "worker-9", "ip-10-4-2-17", "db-host-4": a machine's name."""
    if mention.type != "component":
        return False
    parts = mention.name.casefold().replace("_", "-").split("-")
    return parts[-1].isdigit() or any(p in HOST_PARTS for p in parts)


# Pronouns that stand for people who move ("she moved from Deloitte to Accenture").
MOVERS = frozenset("i we he she they".split())


# What may stand before the name a note is about, ahead of its colon: nothing, or a short
# label and a comma, a dash or a preposition ("Fact sheet, Kalani:", "Profile — Ana:",
# "Preferences for Callum Reid:", "Notes on Ikaika:").
NOTE_LABEL = re.compile(r"(?:[\w'’ ]{1,30}?(?:\s*[,—–-]|\s(?:for|on|about|re))\s+)?", re.IGNORECASE)


class SurfaceReading:
    """Relations read from the words around two names when the parse does not link them."""

    # ----- the user of an agent's notes ------------------------------------------------

    def _user(self):
        """The person an agent's notes call "the user", when the notes name them."""
        self.user = None
        for token in self.doc:
            if token.lower_ not in USER_WORDS:
                continue
            named = None
            if token.dep_ == "nsubj" and token.head.lemma_ == "be":  # "the user is Kwame"
                named = [c for c in token.head.children if c.dep_ == "attr"]
            elif token.dep_ == "poss" and token.head.lemma_.lower() == "name":
                verb = token.head.head  # "User's name is Paul Grant"
                if token.head.dep_ == "nsubj" and verb.lemma_ == "be":
                    named = [c for c in verb.children if c.dep_ == "attr"]
            if not named:
                named = [c for c in token.children if c.dep_ == "appos"]
            for candidate in named or []:
                mention = self.by_token.get(candidate.i)
                if mention is not None and mention.type == "person":
                    self.user = mention
                    return
        found = USER_HANDLE.search(self.source)
        if found and self._handle_word(found):
            span = self.doc.char_span(*found.span(1), alignment_mode="expand")
            for mention in [m for m in self.mentions if m.start < found.end(1) <= m.end]:
                if mention.origin in {"chunk", "propn"} and mention.type != "person":
                    self._drop(mention)  # "user mkhize" read as one thing
            if span is not None and self._free(span):
                self.user = self._add(list(span), "person", 0.7, origin="handle", cued=True)
                if self.user is not None:
                    return
        found = USER_BRACKETED.search(self.source)
        span = found and self.doc.char_span(*found.span(1), alignment_mode="expand")
        if span:
            named = [self.by_token[t.i] for t in span if t.i in self.by_token]
            if not named and self._free(span):
                named = [self._add(list(span), "person", 0.7, origin="propn", cued=True)]
            if named and named[0] is not None and all(m is named[0] for m in named):
                named[0].type = "person"
                self.user = named[0]

    def _handle_word(self, found) -> bool:
        """Whether the word after "user" / "customer" / "client" is the person's handle
        ("user mkhize", "customer @ana.r"): not an English word, a function word ("the
        user to upload", "customer since 2021", "client and"), a plural or a clipped noun
        the word names a kind of ("client libs", "customer comms")."""
        word = found.group(1)
        if english_word(word.casefold()) or word.casefold() in WORD_ABBREVIATIONS:
            return False
        if any(c.isdigit() or c in "_." for c in word):
            return True
        span = self.doc.char_span(*found.span(1), alignment_mode="expand")
        if span is None:
            return False
        token = span[0]
        return (
            not token.is_stop
            and token.tag_ not in {"NNS", "IN", "CC", "TO", "VBZ", "VBD"}
            and not (token.pos_ == "NOUN" and token.i > 0 and token.nbor(-1).dep_ == "compound")
        )

    def _note_person(self):
        """The person a note without speakers is about, for its sentences that open with
        their verb ("Uses Neovim.", "Works at Paystack on the payouts team"): the user the
        notes name, the person a "Name: X" field gives, or the first sentence's person when
        the note opens on them ("Daniela Ruiz is a data engineer ...", "User context: Omar
        Haddad, ...", "Preferences for Callum Reid: ..."). None for a note written in the
        first person about others ("same team as my friend Tunde")."""
        if "note_person" not in self.__dict__:
            if not self.speakers:
                self.note_person = self._named_note_person()
            else:  # "Ravi Shankar here. Product manager at Zoho": the writer alone speaks
                self.note_person = self.writer if self.speakers == [self.writer] else None
        return self.note_person

    def _named_note_person(self):
        if getattr(self, "user", None) is not None:
            return self.user
        people = sorted((m for m in self.mentions if m.type == "person"), key=lambda m: m.start)
        for person in people:
            if NAME_FIELD.search(self.source[max(0, person.start - 16) : person.start]):
                return person
        first = self._opening_sentence()
        if first is None:
            return None
        end = first[-1].idx + len(first[-1])
        opening = [m for m in people if first[0].idx <= m.start < end]
        for person in opening:
            token = self.doc.char_span(person.start, person.end, alignment_mode="expand")
            head = token.root if token is not None else None
            if head is not None and head.dep_ == "poss":
                head = head.head  # "Juliette's thesis is on federated learning"
            if (
                head is not None
                and head.dep_ == "nsubj"
                and (
                    head.head.dep_ == "ROOT"
                    or (head.head.dep_ in {"ccomp", "conj"} and head.head.head.dep_ == "ROOT")
                )
            ):  # "Daniela Ruiz is a data engineer at Klarna", "Thiago's language is
                return person  # Portuguese; keep replies informal"
            if (
                head is not None
                and head.dep_ == "ROOT"
                and person is opening[0]
                and person.start <= first[0].idx + len(first[0].whitespace_) + 1
                and any(c.dep_ == "appos" for c in head.children)
            ):  # "Tinashe Moyo, indie game developer based in Harare."
                return person
        if len(opening) == 1:
            before = self.source[first[0].idx : opening[0].start]
            after = self.source[opening[0].end : opening[0].end + 2]
            if re.search(r":\s*\Z", before) or (
                after.startswith(":") and NOTE_LABEL.fullmatch(before)
            ):  # "About me: Bartek, 34", "Preferences for Callum Reid:", "Fact sheet, Kalani:"
                return opening[0]
            if "\n" in self.source[end - 1 : end + 2] and not any(
                t.pos_ in {"VERB", "AUX"} for t in first
            ):  # "Profile — Nadine Charles-Baptiste (Grenada)" on a line of its own
                return opening[0]
        return None

    def _opening_sentence(self):
        """The note's first sentence, past a heading that names no one ("## About the
        user", "**Profile**")."""
        sentences = iter(self.doc.sents)
        first = next(sentences, None)
        if first is None:
            return None
        line = self.source[first.start_char : first.end_char].strip()
        heading = self.source[first.start_char :].lstrip().startswith("#") or BOLD_LINE.match(line)
        if heading and not any(first.start_char <= m.start < first.end_char for m in self.mentions):
            return next(sentences, None)
        return first

    def _user_mention(self, token):
        if getattr(self, "user", None) is None or token.lower_ not in USER_WORDS:
            return None
        if token.dep_ not in {"nsubj", "nsubjpass", "poss", "dobj", "pobj"}:
            return None
        return self.user

    # ----- fallbacks over the words -----------------------------------------------------

    def _kind_before(self):
        """ "Kafka cluster kf-prod-east", "kafka consumer group `notif-dispatch`", "Grafana
        dashboard indexer-health": a system named after a technology and a kind of thing
        is built on that technology."""
        for mention in self.mentions:
            if mention.type != "component" or mention.origin != "identifier":
                continue
            span = self.doc.char_span(mention.start, mention.end, alignment_mode="expand")
            if span is None:
                continue
            index = span.start - 1
            while index >= 0 and self.doc[index].text in {"`", "'", '"'}:
                index -= 1
            kinds = 0
            while index >= 0 and self.doc[index].lower_ in KIND_NOUNS and kinds < 3:
                index -= 1
                kinds += 1
            tool = self.by_token.get(index) if kinds and index >= 0 else None
            if tool is not None and tool.type == "technology":
                self._relate(mention, tool, "USES", self._sentence_text(span.sent))

    def _inline_owner(self):
        """ "... restarted during the upgrade. Owner: netops." — an owner named inside a
        prose note owns the systems the note is about."""
        for found in INLINE_OWNER.finditer(self.source):
            start, end = found.start(2), found.end(2)
            text = found.group(2).strip()
            kind = "person" if text[:1].isupper() and " " not in text else "organization"
            if text.split()[-1].casefold() in TEAM_WORDS or text.islower():
                kind = "organization"
            inside = [m for m in self.mentions if start <= m.start < end]
            owner = inside[0] if len(inside) == 1 else self._value(start, end, kind)
            if owner is None or owner.type not in {"person", "organization"}:
                continue
            relation = "LEADS" if found.group(1).casefold().startswith("lead") else "OWNS"
            for system in self._note_subjects(found.start()):
                if system is not owner:
                    self._relate(owner, system, relation, found.group(0).strip())

    def _surface(self):
        self._surface_lines()
        self._subjectless_tastes()
        self._replacements()
        self._kind_before()
        self._inline_owner()
        for sent in self.doc.sents:
            for token in sent:
                lemma = token.lemma_.lower()
                if lemma in MOVE_LEMMAS and token.pos_ in {"VERB", "NOUN"}:
                    self._moved_to(token, sent)
                elif lemma in HAND_VERBS and token.pos_ == "VERB":
                    self._handed_over(token, sent)
                if token.dep_ == "nsubj" and token.head.lemma_ == "be":
                    self._owner_is(token)
                if lemma in HOME_NOUNS and token.pos_ == "NOUN":
                    self._home(token)
                if lemma in MIGRATION_NOUNS and token.pos_ == "NOUN":
                    self._migration(token)
                if lemma in TRIP_NOUNS and token.pos_ == "NOUN":
                    self._trip(token)
                if lemma in OFFICE_NOUNS and token.pos_ == "NOUN":
                    self._office(token)
                if token.lower_ == "back" and token.i + 2 < len(self.doc):
                    self._back_from(token)
                if lemma in {"ownership", "charge"} and token.dep_ == "dobj":
                    self._takes_ownership(token)
                if token.lower_ in {"dri", "oncall", "on-call"} and token.dep_ == "attr":
                    self._is_owner_for(token)

    def _replacements(self):
        """Two systems of one kind joined by the words of a replacement (``REPLACEMENTS``):
        "switched SMTP from Postmark to Amazon SES", "now uses Keycloak instead of the
        home-grown auth-svc", "retire the fx-poller in favour of rates-stream", "swapping
        Airflow for Dagster": the newcomer REPLACES the other."""
        for sent in self.doc.sents:
            start, end = sent.start_char, sent.end_char
            inline = sorted(
                (
                    m
                    for m in self.mentions
                    if start <= m.start < end and m.type in REPLACEMENT_TYPES
                ),
                key=lambda m: m.start,
            )
            text = self._sentence_text(sent)
            for index, first in enumerate(inline):
                found = None
                for second in inline[index + 1 : index + 3]:  # "the home-grown auth-svc":
                    if first.end <= second.start and SYSTEM_TYPES & {first.type, second.type}:
                        # the farther name when both read; a vendor the parser took for a
                        # company beside a system ("through Twilio instead of Nexmo")
                        found = self._replaces(first, second, start) or found
                if found is not None and not self._read_as_preference(found[0], text):
                    self._relate(*found, "REPLACES", text)

    def _subjectless_tastes(self):
        """A note's sentence of clauses that open on a verb of taste or use, with no subject
        ("Dislikes Jira, prefers Linear.", "Prefers Neovim, can't stand Visual Studio"):
        each clause is the note's person's, the name right after its verb what it is
        about (the tagger reads "Dislikes Jira" as one name and the next clause's subject)."""
        person = self._note_person()
        if person is None:
            return
        for sent in self.doc.sents:
            text = self.source[sent.start_char : sent.end_char]
            lead = len(text) - len(text.lstrip(" \t-*•"))
            if not TASTE_OPENING.match(text, lead):
                continue
            for found in TASTE_CLAUSE.finditer(text):
                if found.start(1) != lead and not text[: found.start(1)].rstrip().endswith(
                    (",", ";", "—", "and", "but")
                ):
                    continue
                after = sent.start_char + found.end()
                target = min(
                    (m for m in self.mentions if after <= m.start <= after + 12),
                    key=lambda m: m.start,
                    default=None,
                )
                if target is None or target is person or target.type == "person":
                    continue
                if re.search(r"[,;]", self.source[after : target.start]):
                    continue
                verb, stopped = TASTE_VERBS[found.group(1).casefold().replace("’", "'")]
                type_ = VERB_RULES[verb](person, target, "", stopped)
                pair = {normalize_name(person.name), normalize_name(target.name)}
                if type_ is None or any({k[0], k[2]} == pair for k in self.relationships):
                    continue
                self._relate(person, target, type_, text.strip())

    def _read_as_preference(self, newcomer, sentence: str) -> bool:
        """ "She wants all code examples in Kotlin rather than Java", "wants to keep using
        Rider instead of Visual Studio": a person's wish between two things is their
        preference, not one system replacing another. Relates each person who wishes so
        PREFERS the newcomer; whether any did."""
        span = self.doc.char_span(newcomer.start, newcomer.end, alignment_mode="expand")
        if span is None:
            return False
        token, steps = span.root, 0
        while token.head.i != token.i and steps < 6:
            if token.dep_ not in {"dobj", "pobj", "prep", "xcomp", "compound", "amod", "nmod"}:
                return False
            token, steps = token.head, steps + 1
            if token.pos_ in {"VERB", "AUX"} and token.lemma_.lower() in PREFERENCE_VERBS:
                break
        else:
            return False
        if token.lemma_.lower() not in PREFERENCE_VERBS:
            return False
        people = [self._resolve(s) for s in self._subjects(token)]
        people = [p for p in people if p is not None and p.type == "person"]
        for person in people:
            self._relate(person, newcomer, "PREFERS", sentence)
        return bool(people)

    def _replaces(self, first, second, start: int):
        """``(newcomer, replaced)`` when the words around ``first`` and ``second`` say so."""
        gap = self.source[first.end : second.start]
        before = self.source[max(start, first.start - 40) : first.start]
        for lead, between, second_is_new in REPLACEMENTS:
            if not between.fullmatch(gap) or (lead is not None and not lead.search(before)):
                continue
            if (
                lead is FROM
                and (
                    not {first.type, second.type} <= SYSTEM_TYPES  # "moved from Acme to Globex"
                    or not CHANGE_WORDS.search(self.source[start : first.start])  # "flights from A
                    or any(  # to B": no change; "migrated X from A to B": X's migration says it
                        type_ == "MIGRATED_TO" and target == normalize_name(second.name)
                        for _source, type_, target in self.relationships
                    )
                    or self._person_moved(first, second, start)
                )
            ):
                continue
            return (second, first) if second_is_new else (first, second)
        return None

    def _person_moved(self, first, second, start: int) -> bool:
        """A person moved between two names no list knows as technologies ("Sara moved from
        Deloitte to Accenture"): two employers or two towns, however the typer guessed
        them, not one system replacing another ("Yuki switched from Spotify to Tidal"
        still reads as one)."""
        if first.origin == "technology" and second.origin == "technology":
            return False
        head = self.doc.char_span(first.start, first.end, alignment_mode="expand")
        verb = head.root.head.head if head is not None else None
        if verb is None or verb.idx < start:
            return False
        for child in verb.children:
            if child.dep_ != "nsubj":
                continue
            mover = self.by_token.get(child.i)
            if (mover is not None and mover.type == "person") or child.lower_ in MOVERS:
                return True
        return False

    def _surface_lines(self):
        """Per line: a deploy arrow ("payouts-svc v5.1.0 → prod (eu-west-1, ap-southeast-1)")
        places the system left of it in the regions right of it; a service "on" a host
        ("search-indexer-v2 OOMKilled 6x on node ip-10-4-22-17") runs there."""
        offset = 0
        for line in self.source.splitlines(keepends=True):
            end = offset + len(line)
            inline = sorted(
                (m for m in self.mentions if offset <= m.start < end and m.origin != "speaker"),
                key=lambda m: m.start,
            )
            arrow = ARROW.search(line)
            if arrow is not None:
                left = [m for m in inline if m.end <= offset + arrow.start()]
                right = [m for m in inline if m.start >= offset + arrow.end()]
                systems = [m for m in left if m.type == "component" and not host_like(m)]
                places = [m for m in right if m.type == "location"]
                if len(systems) == 1:
                    for place in places:
                        self._relate(systems[0], place, "LOCATED_IN", line.strip())
                if len(systems) == 1 and right and not places:
                    self._arrow_to(systems[0], right, line.strip())
                if not places:
                    self._arrow_chain(inline, offset, line)
            for index, host in enumerate(inline):
                if not host_like(host) or not ON_HOST.search(self.source, offset, host.start):
                    continue
                before = [m for m in inline[:index] if m.type in {"component", "technology"}]
                if not before:
                    continue
                named = [m for m in before if re.search(r"[-_ ]", m.name)]
                system = (named or before)[-1]  # "search-indexer-v2 OOMKilled 6x on ..."
                gap = self.source[system.end : host.start]
                if (
                    system.type == "component"
                    and not host_like(system)
                    and len(gap) <= 60
                    and not re.search(r"[.;:!?]\s|,", gap)
                ):
                    self._relate(system, host, "LOCATED_IN", line.strip())
            offset = end

    def _arrow_chain(self, inline, offset: int, line: str):
        """ "web -> gateway -> {catalog-svc, pricing-svc}": each name right before an arrow
        calls (depends on) the names right after it, a braced list all of them; between two
        technologies ("Istio → Linkerd", "CircleCI → Buildkite") the arrow is a
        replacement."""
        arrows = list(ARROW.finditer(line))
        for arrow in arrows:
            start, end = offset + arrow.start(), offset + arrow.end()
            before = [m for m in inline if m.end <= start]
            if not before or not ADJACENT_LEFT.fullmatch(self.source[before[-1].end : start]):
                continue
            source = before[-1]
            after = [m for m in inline if m.start >= end]
            if not after or not ADJACENT_RIGHT.fullmatch(self.source[end : after[0].start]):
                continue
            targets = [after[0]]
            if "{" in self.source[end : after[0].start]:
                close = self.source.find("}", end, offset + len(line))
                targets = [m for m in after if close < 0 or m.start < close]
            for target in targets:
                if source.type == "component" and target.type == "component":
                    if not host_like(target) and not host_like(source):
                        self._relate(source, target, "DEPENDS_ON", line.strip())
                elif source.type == "technology" and target.type == "technology":
                    self._relate(target, source, "REPLACES", line.strip())

    def _arrow_to(self, system, right, line: str):
        """ "`query-gw` →
        Discovery (Femke Vos)": the team (with its member in brackets) owns the system."""
        first = right[0]  # a system right after the arrow: ``_arrow_chain``
        if first.type in {"organization", "person"}:
            self._relate(first, system, "OWNS", line)
            if first.type == "organization":
                for member in right[1:]:
                    inside = self.source[first.end : member.start]
                    if member.type == "person" and inside.strip() == "(":
                        self._relate(member, first, "PART_OF", line)

    def _after(self, token, sent, words):
        """The name right after the first of ``words`` that follows ``token``."""
        for index in range(token.i + 1, sent.end - 1):
            if self.doc[index].lower_ in words:
                found = self.by_token.get(index + 1)
                if found is None and self.doc[index + 1].lower_ == "the" and index + 2 < sent.end:
                    found = self.by_token.get(index + 2)
                return found
        return None

    def _moved_to(self, verb, sent):
        """ "notif-svc was moved from Heroku to Render", "billing-db moves to Aurora": the
        thing moved, its object or passive subject (a system, not a person), migrated to
        what follows "to"."""
        target = self._after(verb, sent, {"to", "onto", "into"})
        if target is None or target.type not in {"technology", "component"}:
            return
        things = []
        has_object = any(c.dep_ == "dobj" for c in verb.children)
        for child in verb.children:
            if child.dep_ in {"dobj", "nsubjpass"} or (
                child.dep_ == "nsubj"
                and not has_object
                and verb.lemma_ in {"move", "migrate", "switch", "shift"}
            ):
                for conj in self._with_conjuncts(child):
                    mention = self._mention_of(conj)
                    if mention is None and child.dep_ == "dobj":
                        owner = next((c for c in conj.children if c.dep_ == "poss"), None)
                        mention = self._mention_of(owner) if owner is not None else None
                        # "moves the Android app's push delivery to FCM": the app's part
                    if mention is not None and mention.type in {"component", "project"}:
                        things.append(mention)
        for thing in things:
            if thing is not target:
                self._relate(thing, target, "MIGRATED_TO", self._sentence_text(sent))

    def _home(self, noun):
        """ "in her flat in Lyon", "my apartment in Brooklyn": the owner lives there."""
        owner = next((c for c in noun.children if c.dep_ == "poss"), None)
        if owner is None:
            return
        person = (
            self._speaker_at(owner.idx)
            if owner.lower_ in {"my", "our"}
            else self._mention_of(owner)
            if owner.lower_ not in {"their", "its"}
            else None
        )
        if person is None and owner.lower_ in {"his", "her"}:
            verb = noun
            while verb.pos_ not in {"VERB", "AUX"} and verb.head != verb:
                verb = verb.head
            people = [self._resolve(s) for s in self._subjects(verb)]
            people = [p for p in people if p is not None and p.type == "person"]
            person = people[0] if people else None
        if person is None or person.type != "person":
            return
        for prep, obj in self._noun_preps(noun):
            place = self._mention_of(obj) if prep in {"in", "outside"} else None
            if place is not None and place.type == "location":
                self._relate(person, place, "LIVES_IN", self._sentence_text(noun.sent))

    def _trip(self, noun):
        """ "since our trip to Ljubljana", "her honeymoon in Bali": the travellers went."""
        owner = next((c for c in noun.children if c.dep_ == "poss"), None)
        if owner is None:
            return
        if owner.lower_ in {"my", "our"}:
            people = [self._speaker_at(owner.idx)]
        elif owner.lower_ in {"his", "her", "their", "its"}:
            return
        else:
            people = [self._mention_of(owner)]
        for prep, obj in self._noun_preps(noun):
            place = self._mention_of(obj) if prep in {"to", "in", "through", "around"} else None
            if place is None or place.type != "location":
                continue
            for person in people:
                if person is not None and person.type == "person":
                    self._relate(person, place, "VISITED", self._sentence_text(noun.sent))

    def _office(self, noun):
        """ "Corvid's Krakow office", "the Zalando office in Berlin": the organisation is
        located in the place its office is named after or is in."""
        orgs = [
            self._mention_of(c) for c in noun.children if c.dep_ in {"poss", "compound", "nmod"}
        ]
        for org in orgs:
            if org is not None and org.type == "technology" and org.name[:1].isupper():
                org.type = "organization"  # "the Stripe office": the company
        orgs = [m for m in orgs if m is not None and m.type == "organization"]
        places = [
            self.by_token.get(c.i)
            for c in noun.children
            if c.dep_ in {"compound", "nmod", "amod"} and c.i in self.by_token
        ]
        places = [m for m in places if m is not None and m.type == "location"]
        places += [
            self._mention_of(obj)
            for prep, obj in self._noun_preps(noun)
            if prep == "in" and self._mention_of(obj) is not None
        ]
        if noun.i + 2 < len(self.doc) and self.doc[noun.i + 1].lower_ == "in":
            places.append(self.by_token.get(noun.i + 2))  # "opened the X office in Dublin"
        for org in orgs:
            for place in places:
                if place is not None and place.type == "location" and place is not org:
                    self._relate(org, place, "LOCATED_IN", self._sentence_text(noun.sent))

    def _back_from(self, token):
        """ "Back from Hokkaido." opening a turn: the speaker was there."""
        after = self.doc[token.i + 1]
        place = self.by_token.get(token.i + 2)
        if after.lower_ != "from" or place is None:
            return
        if place.type != "location" and not (  # "Back from Hokkaido" the model called an
            place.type == "organization" and place.origin == "ner" and not place.cued
        ):  # organization: the typer makes it a place later
            return
        if any(t.dep_ in {"nsubj", "nsubjpass"} for t in token.sent if t.i < token.i):
            return  # "she got back from X": the verb's own subject reads it
        speaker = self._speaker_at(token.idx)
        if speaker is not None:
            self._relate(speaker, place, "VISITED", self._sentence_text(token.sent))

    def _migration(self, noun):
        """ "leads the migration of auth-svc to Keycloak": the thing moves to the target."""
        things, targets = [], []
        for prep, obj in self._noun_preps(noun):
            mention = self._mention_of(obj)
            if mention is None:
                continue
            if prep == "of" and mention.type in {"component", "project"}:
                things.append(mention)
            elif prep in {"to", "onto"} and mention.type in {"technology", "component"}:
                targets.append(mention)
        for prep in (c for c in noun.children if c.dep_ == "prep" and c.lower_ == "from"):
            for deeper in (c for c in prep.children if c.dep_ == "prep" and c.lower_ == "to"):
                for obj, _p in self._prep_objects(deeper):  # "the move from A to B"
                    mention = self._mention_of(obj)
                    if mention is not None and mention.type in {"technology", "component"}:
                        targets.append(mention)
        for thing in things:
            for target in targets:
                self._relate(thing, target, "MIGRATED_TO", self._sentence_text(noun.sent))

    def _takes_ownership(self, noun):
        """ "Ines will take ownership of the payments-gateway", "takes charge of X"."""
        verb = noun.head
        if verb.lemma_.lower() not in {"take", "assume", "have", "get"}:
            return
        owners = [self._resolve(s) for s in self._subjects(verb)]
        owners = [o for o in owners if o is not None and o.type in {"person", "organization"}]
        for prep, obj in self._noun_preps(noun):
            thing = self._mention_of(obj) if prep == "of" else None
            if thing is not None and thing.type in {"component", "project", "document"}:
                for owner in owners:
                    self._relate(owner, thing, "OWNS", self._sentence_text(noun.sent))

    def _handed_over(self, verb, sent):
        """ "Ola will hand over data-pipeline to the Analytics team", "OPS-7 was assigned
        to Mei", "ticket OPS-7 assigned to Mei": the receiver owns it."""
        receiver = self._after(verb, sent, {"to"})
        if receiver is None or receiver.type not in {"person", "organization"}:
            return
        handed = [c for c in verb.children if c.dep_ in {"dobj", "nsubjpass"}]
        if not handed and verb.dep_ == "acl":  # "ticket INFRA-7 assigned to Cosmin"
            head = verb.head  # "a crash (LIN-882, assigned to Oksana)": the ticket beside it
            handed = [head] if head.i in self.by_token else []
            handed += [c for c in head.children if c.dep_ == "appos" and c.i < verb.i]
        elif not handed:  # "INFRA-7 assigned to Cosmin." read as active: a note's passive
            handed = [c for c in verb.children if c.dep_ == "nsubj"]
        for child in handed:
            for conj in self._with_conjuncts(child):
                thing = self._mention_of(conj)
                if thing is not None and thing.type in {"component", "project", "document"}:
                    self._relate(receiver, thing, "OWNS", self._sentence_text(sent))

    def _owner_is(self, noun):
        """ "The owner of payments-api is Rahul", "the lead for Atlas is Mei": the role of
        a thing named after the copula."""
        word = noun.lower_
        if word not in ROLE_OWNERS:
            return
        holders = [
            self._mention_of(o)
            for c in noun.head.children
            if c.dep_ == "attr"
            for o in self._with_conjuncts(c)
        ]
        holders = [h for h in holders if h is not None and h.type in {"person", "organization"}]
        things = []
        for prep in noun.children:
            if prep.dep_ == "prep" and prep.lower_ in {"of", "for"}:
                for pobj in prep.children:
                    if pobj.dep_ == "pobj":
                        things.extend(self._mention_of(o) for o in self._with_conjuncts(pobj))
        things += [  # "payments-api's owner is Rahul"
            self._mention_of(c) for c in noun.children if c.dep_ == "poss" and c.pos_ != "PRON"
        ]
        for thing in things:
            if thing is None or thing.type not in {"component", "project", "document", "other"}:
                continue
            for holder in holders:
                self._relate(holder, thing, ROLE_OWNERS[word], self._sentence_text(noun.sent))

    def _is_owner_for(self, noun):
        """ "Maria is the on-call for payments-api", "Rahul is the DRI for the migration"."""
        subjects = [c for c in noun.head.children if c.dep_ == "nsubj"]
        holders = [self._mention_of(s) for s in subjects]
        holders = [h for h in holders if h is not None and h.type in {"person", "organization"}]
        for prep in noun.children:
            if prep.dep_ != "prep" or prep.lower_ not in {"for", "on"}:
                continue
            for pobj in prep.children:
                for obj in self._with_conjuncts(pobj) if pobj.dep_ == "pobj" else []:
                    thing = self._mention_of(obj)
                    if thing is None or thing.type not in {"component", "project", "document"}:
                        continue
                    for holder in holders:
                        self._relate(
                            holder, thing, ROLE_OWNERS[noun.lower_], self._sentence_text(noun.sent)
                        )
