"""Reading the names of a text off its parse: the entity passes of the parser extractor."""

import re
import unicodedata

from graph.extraction.cues import (
    COMPONENT_NOUNS,
    DOCUMENT_WORDS,
    EVENT_WORDS,
    ORG_FORMS,
    ORG_WORDS,
    PROJECT_WORDS,
    foreign_organization,
)
from graph.extraction.parser.rules import (
    FIXED_ORIGINS,
    STREET_WORDS,
    VERB_RULES,
    Mention,
    _verb_lemma,
)
from graph.extraction.parser.words import (
    ANAPHOR_KINDS,
    ANIMALS,
    BEFORE_NAMES,
    CAR_MAKERS,
    CLASS_WORDS,
    COMMON_WORD_NAMES,
    COMPANY_SITES,
    CONFERENCE,
    DATA_CENTRE_PART,
    DEPARTMENTS,
    EMPLOYED_WORDS,
    EVENT_AT_WORDS,
    EVENT_KIND_NOUNS,
    FAVOURITE,
    FOOD_KINDS,
    FOOD_PHRASES,
    FOODS,
    GENERIC_HEADS,
    GROUP_PARTS,
    HANDLE,
    HOLIDAYS,
    HUMAN_AGENT_VERBS,
    HUMAN_OBJECT_VERBS,
    HUMAN_VERBS,
    IDENTIFIER_TYPES,
    INCIDENT_PREFIXES,
    INSTRUMENTS,
    KIN_KNOWS,
    KIN_MARRIED,
    KIN_REPORTS,
    KIN_TITLES,
    KIN_WORDS,
    MEET_VERBS,
    NAME_PREFIXES,
    NAMED_BY_MODIFIER,
    NER_TYPES,
    ORG_NOUNS,
    OUTING_WORDS,
    PERSON_TITLES,
    PET_WORDS,
    PLACE_CUES,
    PLACE_NOUNS,
    PLACE_OBJECT_VERBS,
    PLACE_OPENERS,
    PLACE_VERBS,
    ROLE_TITLE_WORDS,
    ROLE_WORK,
    SPLIT_MARKS,
    SPLIT_WORDS,
    STATED_ORG_NOUNS,
    STUDENT_WORDS,
    SYSTEM_KIND_NOUNS,
    SYSTEM_NOUNS,
    TASTE_PHRASES,
    TASTE_VERBS,
    TEAM_WORDS,
    TECH_OBJECT_VERBS,
    TECH_PREP_VERBS,
    TITLE,
    TITLE_SMALL,
    TRIM_WORDS,
    VENUE_WORDS,
    VOCATIVES,
    WORK_AT_VERBS,
    WORK_NOUNS,
    WORK_VERBS,
    after_kin_title,
    known_place,
    person_noun,
)
from graph.vocabulary import normalize_name
from memoryhub import lexicon
from memoryhub.nlp import ARROWS, ENGLISH_PARTS, SYSTEM_SUFFIXES, english_adjective, english_word
from memoryhub.values import CURRENCY, MONTHS, WEEKDAYS, months_opening

# Adjectives that name a team's field: "the mobile team", "the legal team".
UNIT_ADJECTIVES = set(
    """mobile frontend backend web legal financial creative editorial clinical technical
    commercial digital android ios core medical""".split()
)
# Place words that are also common surnames ("Ji-woo Park", "Tom Hall").
SURNAME_CUES = {"park", "hall", "bridge", "lake", "river", "banks", "wood", "field"}
# Companies whose name opens their products' names ("Google Sheets", "HashiCorp Vault").
TECH_VENDORS = set(
    """google amazon microsoft hashicorp confluent ibm meta adobe jetbrains atlassian apple
    salesforce sap nvidia intel cisco vmware red hat mozilla samsung""".split()
)
# Verbs whose object is a language when a language's name is ("speaks Tagalog").
LANGUAGE_VERBS = set(
    """speak learn study teach know read write understand prefer use practise practice
    translate interpret master pick revise""".split()
)
# Titles before a surname: "my supervisor Mr. Lindqvist".
NAME_TITLES = lexicon.NAME_TITLES
# Words that open names in Vietnamese, Chinese and Malay usage and are English fillers or
# abbreviations besides ("Thu Trang", "Ah Keong", "Thi Lan").
NAME_PARTICLES = {"ah", "thu", "thi", "van", "siew", "mei", "kim"}
# Words of respect before a given name ("Don Aurelio", "Nana Bríd"): no full name.
HONORIFICS = set("don doña dona dom nana nan sensei".split())
SPEAKER_TITLES = (
    NAME_TITLES
    | KIN_TITLES
    | set("mme mlle miss coach principal auntie aunty user client customer patient".split())
)
# System nouns a lower-case code name may stand beside: "the quoting engine, pricer,".
APPOSED_SYSTEM_NOUNS = set(
    """engine service product tool library app worker job pipeline api gateway proxy bot
    sidecar daemon cli repo repository module project system platform dashboard cache
    scheduler indexer""".split()
)
# A hyphenated given name ("Jae-won", "Sun-hee"), with the surname after it.
GIVEN_HYPHEN = re.compile(
    r"(?<![\w-])([A-Z][a-z]{1,4})-([a-z]{2,5})(?: [A-Z][a-z]+(?![\w-]))?(?![\w-])"
)
# A year that names an event's edition: "PyCon Lithuania 2024", "Berlin Marathon 2023" (in
# the labelled texts 13 of 16 events followed by their year keep it in their name).
EVENT_YEAR = re.compile(r"(?:19|20)\d\d")
# A lower-case hyphenated name ("dns-resolver-a"), and the words that list names.
SIBLING = re.compile(r"(?<![\w./@-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w/-])")
# A dialogue turn's opening: "Devraj: ..." (one or two capitalised words, a colon).
TURN = re.compile(r"(?m)^[ \t]*([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)[ \t]*:[ \t]")
# A pull request, merge request or issue by its number: "PR #482", "PR 881", "issue #31".
NUMBERED_ITEM = re.compile(
    r"\b(?:(?:PR|MR) ?#?\d+|(?:[Pp]ull [Rr]equest|[Ii]ssue|[Tt]icket|[Bb]ug) ?#\d+)\b"
)
# A writer naming themself: "My name is Ikaika", "I'm Nino.", "Zainab here —",
# "Fun facts about me, Tiago:"; or a profile's subject, the one its subjectless
# sentences are about.
# Lower-case words that open a surname ("van Dijk", "de la Cruz"): not a role before a name.
SURNAME_PARTICLES = set("van von de da del della di du la le bin ibn al el dos das ter ten".split())
# The lower-case words inside a family name: "van der Merwe", "de la Fuente".
PARTICLE_WORDS = SURNAME_PARTICLES | {"der", "den", "zu", "af", "do"}
# A full name of up to three words, with a family-name particle: "Ana Lúcia Ferreira",
# "Khalid Al Mansoori", "Maria da Silva".
FULL_NAME = r"[A-Z][\w'-]+(?: (?:(?:" + "|".join(sorted(PARTICLE_WORDS)) + r") )?[A-Z][\w'-]+){0,2}"
SELF_NAMED = re.compile(
    rf"\b[Mm]y name(?: is|'s|’s) ({FULL_NAME})"
    rf"|(?:^|\n|[.!,:;]\s+)I(?:'|’)?m ({FULL_NAME})(?:[.,!;]| and | \()"
    rf"|(?:^|\n)({FULL_NAME}) here\b"  # "Brian Tumusiime here. I studied law at …"
    r"|\babout me, ([A-Z][\w'-]+)"
    r"|^([A-Z][\w'-]+), \d{1,3}, "  # a profile: "Radu, 34, graphic designer. Switched ..."
    r"|^Name(?:'s|’s| is) ([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)[.,!]"  # "Name's Ilse. I live in"
    # "People call me Imran.", "Everyone calls me Tess"
    r"|(?:^|[.!]\s+)(?:People|Everyone|Everybody|Friends|Most people) calls? me ([A-Z][\w'-]+)\b"
)
# The alternatives of ``SELF_NAMED`` whose name must be a person's: "I'm Dutch." is not.
SELF_NAMED_CHECKED = {2, 6, 7}
# A lower-case user name of a given name and an initial or two ("ayse.k", "gwen_h",
# "dinah_ow"), not a file ("notes.md") nor a system ("orders_db").
NAME_HANDLE = re.compile(r"(?<![\w@.#/:`-])([a-z]{3,})[._]([a-z]{1,2})(?![\w-]|\.\w)")
FILE_SUFFIXES = set(
    """py js ts go rs md sh rb cs db io ai so gz tf pl kt ex vb ml hs c h r cc cpp jl lua
    sql csv pdf doc txt xml yml ini env cfg log tar zip png jpg gif svg mp mov wav exe app
    dev me co uk us eu de fr nl tv fm ly gg js""".split()
)
# Words before a user name that make it someone's: "started by ayse.k", "owner: tevita.f".
HANDLE_CUES = re.compile(
    r"(?:\bby|\bowner:?|\bcc|\bping|\bassignee:?|\breviewer:?|\bfrom|\bto|\bthanks)\s*$", re.I
)
LIST_GAP = re.compile(r"`?\s*(?:,|and|or|&|\+|/)\s*(?:and\s+)?`?|`?,\s*`?")


TECH_VERSION = re.compile(r"^v?\d{1,4}(?:\.(?:\d{1,4}|x)){0,3}(?:[a-z]{1,3})?$")
# What after a number makes it a quantity, not a release ("Redis 6 GB", "Kafka 3 brokers").
VERSION_UNITS = set(
    """gb mb tb kb gib mib ms s sec min h hrs % x k m nodes node brokers broker replicas
    replica pods pod instances instance users cores vcpu cpus workers days weeks hours
    times""".split()
)
# Verbs that move a package to a version: "bump serde to 1.0.210".
PACKAGE_VERBS = {"bump", "upgrade", "downgrade", "pin", "update", "install", "add", "roll"}
# A period a report's or an event's name opens with: "Q3", "H1", "FY24", "2024", "Tuesday".
PERIOD_WORD = re.compile(
    r"^(?:Q[1-4]|H[12]|FY\d{2,4}|(?:19|20)\d{2}|Monday|Tuesday|Wednesday|Thursday|Friday"
    r"|Saturday|Sunday)$"
)
# What a system runs as, after its name: "ml-inference pods", "the ledger-sync container".
RUNNING_COPIES = {"pod", "container", "instance", "deployment", "image", "replica"}
# Words trimmed before a name that also name an event with an event's word after them
# ("Vendor Day", "Customer Summit", "Partner Conference").
ROLE_TRIM_WORDS = {"customer", "client", "vendor", "supplier", "prospect"}
# The words after a product's model number that are part of its name: "Pixel 8 Pro".
MODEL_TIERS = {"pro", "max", "plus", "ultra", "mini", "lite", "air", "se", "fe", "neo"}
# The last word of a place named after someone's possessive ("Regent's Canal", "Cox's
# Bazar"), a place's and not a business's.
POSSESSIVE_LOCATIONS = set(
    """bay island park canal town green palace lodge creek wood cross bazar bazaar road
    street lane square hill wharf quay bridge harbour harbor triangle market markets""".split()
)
# The last word of a place or a body named after someone ("Lily's Kitchen", "Hawke's Bay").
POSSESSIVE_PLACES = POSSESSIVE_LOCATIONS | set(
    """kitchen cafe café bar pub inn tavern diner bakery deli restaurant grill hospital
    clinic college school academy university cathedral church chapel abbey hall garden
    gardens choir seeds farm vineyard well dairy hotel corner shed trattoria osteria
    pizzeria brasserie bistro cantina taqueria steakhouse patisserie creperie eatery
    bakehouse chophouse alehouse roastery brewery distillery taproom arms""".split()
)
# A model's or a unit's code after a name: letters and digits, capitals ("TC52", "5075E",
# "DS1821+", "7B"), not a quantity ("5GB", "10am", "4K").
MODEL_CODE = re.compile(r"^(?=[A-Z0-9+]*[A-Z])(?=[A-Z0-9+]*\d)[A-Z]{0,4}\d{1,5}[A-Z]{0,3}\+?$")
CODE_UNITS = set("k m b g kb mb gb tb am pm x p v kw mw hz".split())
# A product's model code after its maker's name: letters and digits in one word ("WH-1000XM5",
# "F-91W", "X100VI", "DS920+", "z15", "780G"), not a version ("v2", "3.12"), an ordinal, a
# time or a quantity ("16GB", "5pm", "2nd", "4x").
PRODUCT_CODE = re.compile(
    r"^(?![vV]\d)(?=[^.]*\d)(?=[^.]*[A-Za-z])[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)*\+?$"
)
YEAR = re.compile(r"^(?:19|20)\d{2}$")
NOT_A_CODE = re.compile(
    r"^\d+(?:st|nd|rd|th|s|am|pm|k|m|b|g|kb|mb|gb|tb|ms|h|hrs?|mins?|x|p|kg|km|cm|mm|ml|l"
    r"|hz|khz|mhz|ghz|w|kw|v|mah|fps|rpm|d|wk|yr|y|mo)$",
    re.IGNORECASE,
)
# A model's own name written with a lower-case start and a capital inside: "inReach",
# "eTrex", "iPhone".
CAMEL_MODEL = re.compile(r"^[a-z]{1,3}[A-Z][A-Za-z0-9]+$")
# English nouns a code after them numbers, not a product: "Room 4B", "Flight BA123".
NUMBERED_NOUNS = frozenset(
    """room ward lab unit bay gate seat flight platform terminal suite apt apartment
    building block floor level zone route bus train line sprint table stand dock aisle hall
    court pier locker section row box cabin carriage coach form type size phase step stage
    grade year class track lane exit ramp wing pod rack shelf plot""".split()
)
# A word with a capital inside after lower-case letters: "OpenMRS", "PaperCut".
# The parts of speech of the words after a possessive that go on a name ("Bay Pickers").
NAME_POS = {"PROPN", "NOUN"}
CAMEL_CASE = re.compile(r"^[A-Z][a-z]+[A-Z][A-Za-z]*$")
# The second part of "Tallinn-based", "Lisbon-headquartered": a place and a word about it.
PLACED_PARTICIPLES = {"based", "headquartered"}
# After a hyphen, the words that make the place before them a name ("Tallinn-based").
PLACE_HYPHEN_WORDS = PLACED_PARTICIPLES | {"born"}
# A list item that opens with one capitalised word and a colon: "- Kiri: finish the backend".
LISTED_KEY = re.compile(r"^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+([A-Z][^\W\d_]+):[ \t]+\S", re.M)
# A release number with a dot after a capitalised word opening a sentence ("Tesseract 5.3.0
# segfaulting"), which names the release of a product, unless the word says what the
# release is ("Release 5.2.0 of …", "Hotfix 3.8.1 for …", ``RELEASE_WORDS``).
DOTTED_VERSION = re.compile(r"^v?\d{1,4}\.(?:\d{1,4}|x)(?:\.\d{1,4}){0,2}$")
RELEASE_WORDS = frozenset(
    """release releases version versions patch hotfix firmware build deploy deployed cut
    phase sprint step since restored seeing update updated upgrade upgraded rollout rolled
    iteration milestone chapter section page rev revision edition season episode round stage
    level tier gen generation series model mark api spec schema rule policy figure table
    appendix article clause item task ticket issue bump bumped pinned pin tag tagged ship
    shipped shipping promote promoted revert reverted roll from to and or with v changelog
    notes""".split()
)
# Short English words after a name's hyphen: "Covid-era", "Apple-led", "Zara-ish".
HYPHEN_WORDS = frozenset("led era age ish type wide made sized less fed rich born bred".split())
# Lower-case last parts of place names after a hyphen: "Samcheong-dong", "Tōdai-ji",
# "Kenroku-en", "Gangnam-gu", "Sejong-ro".
PLACE_SUFFIXES = frozenset("dong ji en gu ro si do ri gil cho ku shi gun eup".split())
# Small words inside a name: "Torres del Paine", "Praia do Rosa", "Port of Spain".
NAME_CONNECTORS = frozenset(
    """del do da dos das de di della delle degli dei du des van von der den ter of ng e
    et und para al bin binti bint ibn for""".split()
)
# Words that head a name joined to its second part by "of": "City of Ghent".
OF_HEADS = frozenset(
    """university city port bank friends treaty gulf bay lake isle island islands cape sea
    state republic kingdom county district province museum institute school college church
    cathedral ministry council federation association society league union court hall
    festival feast battle academy conservatory library archive archives queen king duke
    prince princess mount strait straits sound valley vale borough town village bureau
    chamber commonwealth house order bishop diocese parish abbey temple garden gardens
    journal annals proceedings""".split()
)
# What stands between two names of a pair where one replaces the other or is chosen
# over it: "Redux with Zustand", "GitLab to Forgejo", "Leaflet map view with MapLibre",
# "WireGuard instead of IPsec", "Polars over pandas", "Sectra replaced PACS".
CONTRAST_BETWEEN = re.compile(
    r"(?:\s+[a-z][\w-]*){0,3}\s+(?:to|with|by|for)\s+(?:the\s+|a\s+|an\s+|our\s+)?"
    r"|\s*,?\s+(?:instead of|rather than|in place of|over)\s+(?:the\s+|a\s+|an\s+)?"
    r"|\s+(?:replaced|replaces|replacing|supersedes|superseded)\s+(?:the\s+|a\s+|an\s+)?"
    rf"|\s*(?:{ARROWS})\s*",
    re.IGNORECASE,
)
# The words between two names that say one replaces the other by themselves.
CONTRAST_ITSELF = re.compile(
    r"\b(?:instead of|rather than|in place of|over|replac\w*|supersed\w*)\s+$", re.IGNORECASE
)
POSSESSIVE = re.compile(r"['’]s\b")
# Words earlier on the line that make "X to Y", "X with Y" a replacement.
CONTRAST_TRIGGER = re.compile(
    r"\b(?:replac\w*|swap\w*|switch\w*|migrat\w*|mov(?:e|ed|es|ing)|port(?:ed|ing)?|"
    r"chang\w*|trad(?:e|ed|ing)|exchang\w*|upgrad\w*|from|prefer\w*)\s+"
    r"(?:(?:the|a|an|our|its|their|his|her|my|your)\s+)?$",
    re.IGNORECASE,
)
# A sentence about a funding round, and what stands before an investor's name in it.
FUNDING = re.compile(
    r"\b(?:funding round|seed round|round of funding|raised|raising|investors?|series [a-e]|"
    r"pre-seed|led the round|the round)\b",
    re.I,
)
INVESTOR_BEFORE = re.compile(
    r"(?:\bled by|\bwith|\bfrom|\bparticipation (?:of|from)|\bbacked by|\band|,)\s+(?:the\s+)?$",
    re.I,
)
# Words that head a name joined to its second part by "for": "Centre for Ageing Better",
# "Institute for Fiscal Studies", "Department for Education".
FOR_HEADS = frozenset(
    """centre center institute foundation society alliance coalition council commission
    office agency fund trust department ministry committee association campaign network
    partnership museum school hospital clinic""".split()
)


def _untitled(start: int, name: str) -> tuple[int, str]:
    """A turn's speaker without the title before the name: "Ms. Adeyemi", "Tita Baby"."""
    title, _space, rest = name.partition(" ")
    if rest.strip() and title.casefold().rstrip(".") in SPEAKER_TITLES:
        return start + len(title) + 1, rest
    return start, name


def _a_country(name: str) -> bool:
    """Whether a name is a country, a continent or a US state: one leaves it or works from
    it as a place, never as an employer."""
    return lexicon.GEO_NAMES.kind(name) in {"country", "continent", "state"}


def _clean(name: str, *, keep_s: bool = False) -> str:
    name = name.strip().strip("`'\"*_()[]{}<>,;:!?")
    if name.endswith(("'s", "’s")) and not keep_s:
        name = name[:-2]
    return name.rstrip(".").strip() if not name.endswith((".js", ".NET")) else name.strip()


def _within_brackets(tokens: list) -> list:
    """A name's tokens without a bracket the name does not close: "Wanjiru (ML Platform" →
    "Wanjiru", "Postfix) queue" → "queue" (the parser's span ran across the bracket)."""
    for n, token in enumerate(tokens):
        if token.text in {"(", "["} and not any(t.text in {")", "]"} for t in tokens[n:]):
            return tokens[:n]
    opened = 0
    for n, token in enumerate(tokens):
        opened += token.text in {"(", "["}
        if token.text in {")", "]"}:
            if not opened:
                return _within_brackets(tokens[n + 1 :])
            opened -= 1
    return tokens


# The last words of a body's name that may hold an "and" ("Tax and Customs Board").
AND_HEADS = frozenset(
    """council board theatre theater unit agency institute department ministry commission
    authority bureau centre center committee network alliance association federation
    union society foundation trust museum academy""".split()
)
# What may join the words of a person's name ("Abdul-Rahman", "O'Neill").
NAME_JOINERS = {"-", "'", "\u2019"}


# English words that end no name: a span the model closed on one is cut before it.
CLOSING_FUNCTION_WORDS = frozenset(
    """the a and or of in at on for to with by from as per via vs nor but year week day
    no yes ok""".split()
)


# Small words joining the hyphened parts of a place's name besides ``NAME_CONNECTORS``.
HYPHEN_JOINERS = (
    NAME_CONNECTORS - {"of", "for", "und", "para", "bin", "binti", "bint", "ibn", "ng"}
) | {*"on upon under by y yr la le les lès en sur sous el am im an op aan i ar".split()}
# A place's name whose capitalised parts small words join with hyphens: "Hay-on-Wye",
# "Betws-y-Coed", "Ashby-de-la-Zouch", "Saint-Jean-Pied-de-Port", "Bagh-e-Noor".
HYPHEN_JOINED_NAME = re.compile(
    r"(?<![\w-])[A-Z][\w'\u2019]*(?:-[A-Z][\w'\u2019]*)*"
    rf"(?:-(?:{'|'.join(sorted(HYPHEN_JOINERS, key=len, reverse=True))})(?=-))+"
    r"(?:-[A-Z][\w'\u2019]*)+(?![\w-])"
)
# Prefixes written with a hyphen before a common word ("Co-founders", "Ex-colleague").
HYPHEN_PREFIXES = frozenset("co ex vice non pre post self".split())
# "Pirkanmaa Woodworkers' Guild", "Westville Boys' High": a plural possessive inside a name.
PLURAL_POSSESSIVE_NAME = re.compile(
    r"\b(?!The\b)(?:[A-Z][\w.-]*[ \t]){0,3}[A-Z]\w*s['\u2019][ \t](?:[A-Z][\w-]*[ \t]){0,2}"
    r"(?P<last>[A-Z]\w*)\b"
)
# Words that end such a name besides ``ORG_WORDS``.
POSSESSIVE_NAME_HEADS = set(
    """high guild union club circle committee forum trust centre center home market choir
    network hall cooperative co-operative""".split()
)


# The named-entity model's labels for a name: those the extractor types, and peoples.
NAMED_TYPES = NER_TYPES.keys() | {"NORP"}


class NameReading:
    """The entity passes: speaker, identifiers, technologies, named entities, proper
    nouns, noun chunks and activities, then the types the sentence gives them."""

    def _text(self, start: int, end: int) -> str:
        return self.source[start:end]

    def _drop(self, mention: Mention) -> None:
        """Take a mention out (a name it was part of, or that proved no name, replaces it)."""
        self.mentions.remove(mention)
        for index in [i for i, m in self.by_token.items() if m is mention]:
            del self.by_token[index]

    def _free(self, tokens) -> bool:
        return all(t.i not in self.by_token and t.i not in self.kind_words for t in tokens)

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
        if name is None:
            tokens = _within_brackets(tokens)  # "Wanjiru (ML Platform": Wanjiru
        if tokens and origin in {"ner", "propn"} and self._period_before(tokens):
            tokens = [self.doc[tokens[0].i - 1], *tokens]  # "the Q3 Board Memo"
        if tokens and origin in {"ner", "propn"} and self._model_number(tokens):
            tokens = tokens + [self.doc[tokens[-1].i + 1]]  # "Sennheiser HD 600"
            tokens += self._tier_after(tokens)  # "Pixel 8 Pro", "iPhone 12 mini"
        if tokens and origin in {"ner", "propn", "technology"} and self._one_after(tokens):
            tokens = tokens + [self.doc[tokens[-1].i + 1]]  # "SAP Business One", "Xbox One"
            if name is not None and name.endswith(tokens[-2].text):
                name = f"{name} One"
        if (
            tokens
            and name is None
            and type_ == "event"
            and tokens[-1].i + 1 < len(self.doc)
            and EVENT_YEAR.fullmatch(self.doc[tokens[-1].i + 1].text)
            and self.doc[tokens[-1].i + 1].idx == tokens[-1].idx + len(tokens[-1]) + 1
        ):
            tokens = tokens + [self.doc[tokens[-1].i + 1]]  # "PyCon Lithuania 2024": the edition
        while (
            len(tokens) > 1
            and (  # "memd 7.2", "Postgres 16": the version is a value
                tokens[-1].like_num or lexicon.VERSION.match(tokens[-1].text)
            )
            and not (tokens[-1].text == "One" and self._one_after(tokens[:-1]))
            and not (origin in {"ner", "propn"} and self._model_number(tokens[:-1]))
            and origin != "identifier"  # "PR #482": the number is the name
            and not (type_ == "event" and EVENT_YEAR.fullmatch(tokens[-1].text))
        ):
            tokens = tokens[:-1]
        while (
            name is None
            and origin in {"ner", "propn"}
            and len(tokens) > 1
            and (written := self._text(tokens[0].idx, tokens[0].idx + len(tokens[0]))).isalpha()
            and written.islower()
            and tokens[0].lower_ not in SURNAME_PARTICLES
            and self.source[tokens[1].idx : tokens[1].idx + 1].isupper()
            and all(
                self.source[t.idx : t.idx + 1].isupper() or t.lower_ in SURNAME_PARTICLES
                for t in tokens[1:]
            )
        ):  # "nurse Bola Adeyemi", "co-founder Anneke van Rijswijk": the name after the word
            tokens = tokens[1:]
        if (
            name is None
            and origin in {"ner", "propn"}
            and len(tokens) == 2
            and self._known_tech_with_a_noun(tokens)
        ):  # "a Grafana board", "the Okta cert": the technology, and what of it
            tokens, type_ = tokens[:1], "technology"
        lead = (
            self._title_words(tokens)
            if name is None
            and origin in {"ner", "propn"}
            and len(tokens) > 1
            and not self._after_organization_noun(tokens)
            else 0
        )
        departments = lead > 1 or (lead == 1 and tokens[0].lower_ not in BEFORE_NAMES)
        if (
            lead
            and all(t.text[:1].isupper() or t.text in NAME_JOINERS for t in tokens[lead:])
            and (
                tokens[0].lower_ in PERSON_TITLES
                or tokens[lead].lower_ in lexicon.GIVEN_NAMES
                or (not departments and all(t.ent_type_ == "PERSON" for t in tokens[1:]))
            )
        ):  # "Postdoc Jun Park", "Drummer Femi Adeyemi", "Ping Chioma": a role or a verb;
            # "VP Engineering Lucía Ferreyra": a title with its department
            if (
                tokens[0].lower_ in PERSON_TITLES
                or departments
                or (
                    (tokens[0].lower_ in NAME_PREFIXES or _plural_role(tokens[0].lower_))
                    and len(tokens) - lead >= 2
                    and tokens[lead].lower_ in lexicon.GIVEN_NAMES
                )
            ):
                type_ = "person"  # "Principal Whitfield", "Shepherd Albino Cabral"
            tokens = tokens[lead:]
        if not tokens:
            return None
        if (
            origin in {"ner", "propn"}
            and len(tokens) > 1
            and tokens[-1].lower_ == "app"
            and self.source[tokens[-1].idx] == "a"
            and tokens[-2].text[:1].isupper()
        ):  # "the MapKids app", "the PKP Intercity app": the app is the name's product
            tokens = tokens[:-1]
            name = (
                None
                if name is None
                else self._text(tokens[0].idx, tokens[-1].idx + len(tokens[-1]))
            )
        keep_s = False
        if name is None and origin in {"ner", "propn"} and type_ != "person":
            mark = self.doc[tokens[-1].i + 1] if tokens[-1].i + 1 < len(self.doc) else None
            if (
                mark is not None
                and mark.text in {"'s", "\u2019s"}
                and mark.dep_ == "case"
                and mark.head == tokens[-1]
                and tokens[-1].dep_ != "poss"
                and mark.i not in self.by_token
                and mark.tag_ != "VBZ"
                and not any(t.lower_ == "of" for t in tokens[1:-1])  # "University of
                # Edinburgh's Royal (Dick) School": an institution's, never a shop's own 's
                and not (  # "Dineo's putting the variation in", "Ana's gone": is, has
                    mark.i + 1 < len(self.doc) and self.doc[mark.i + 1].tag_ in {"VBG", "VBN"}
                )
                and not (  # "### Yara's laptop", "Nabila's bday": a thing owned after it
                    mark.i + 1 < len(self.doc)
                    and self.doc[mark.i + 1].pos_ in {"NOUN", "PROPN", "X"}
                    and self.doc[mark.i + 1].text[:1].islower()  # not "Sultan's Dine"
                    and not self.doc[mark.i + 1].ent_type_  # "at Nando's tonight"
                )
            ):  # "at Nando's", "St. Jude's in Memphis": no thing owned, the 's is the name's
                tokens = tokens + [mark]
                keep_s = True
        start, end = tokens[0].idx, tokens[-1].idx + len(tokens[-1])
        name = _clean(name if name is not None else self._text(start, end), keep_s=keep_s)
        if not name or not any(ch.isalnum() for ch in name) or not normalize_name(name):
            return None
        if name.casefold() in lexicon.NEVER_NAMES or normalize_name(name) in lexicon.NEVER_NAMES:
            return None
        if len(name) == 1 and origin != "technology":
            return None  # "-62°C", "Plan B", "Mr. H": a letter is no name (but R or C is)
        if self.source[start : start + 20].casefold().startswith(lexicon.GREETING_PHRASES):
            return None  # "Kia ora, I'm Hemi"
        if origin in {"ner", "propn"} and all(
            t.lower_ in ROLE_WORK | ROLE_TITLE_WORDS | KIN_REPORTS | KIN_KNOWS for t in tokens
        ):
            return None  # "(Tech Lead)", "Senior Engineer": a role, not a name
        if origin in {"ner", "propn"} and len(tokens) == 1 and tokens[0].lower_ in BEFORE_NAMES:
            return None  # "Postdoc" before "Lina Haddad", a lone "Mayor"
        if (
            len(tokens) == 1
            and origin not in {"identifier", "title", "technology", "handle", "speaker"}
            and tokens[0].lemma_.lower() in COMPONENT_NOUNS | EVENT_WORDS | DOCUMENT_WORDS
        ):
            return None  # "the API", "Incident:", "the RFC": a kind of thing, not a name
        if origin in {"ner", "propn"} and name.casefold() in lexicon.LANGUAGES:
            type_, cued = "concept", True  # "replies in Kannada": a language, not a place
        inside = {t.i for t in tokens}
        root = next((t.i for t in tokens if t.head.i not in inside or t.head == t), tokens[-1].i)
        mention = Mention(start, end, name, type_, confidence, origin, cued, root)
        self.mentions.append(mention)
        for token in tokens:
            self.by_token[token.i] = mention
        return mention

    def _place_before_kind(self, tokens, kind: int) -> bool:
        """ "the Osaka band Hoshizora", "a Lagos team called Kora": a known place before a
        kind's word that a name follows describes the named, it is not a team's name."""
        following = kind + 1
        return (
            " ".join(t.lower_ for t in tokens) in lexicon.PLACES
            and following < len(self.doc)
            and self.doc[following].pos_ == "PROPN"
            and self.doc[following].text[:1].isupper()
        )

    def _after_organization_noun(self, tokens) -> bool:
        """Whether the name follows a noun of an organization's kind ("the law firm Baker
        Ríos", "the bakery Miller & Sons"): its first word is the name's, not a job's."""
        before = self.doc[tokens[0].i - 1] if tokens[0].i else None
        return before is not None and before.lower_ in ORG_NOUNS and before.pos_ == "NOUN"

    def _after_kind_word(self, mention) -> bool:
        """Whether the word right before the name says it is an organization beyond doubt
        ("the esports organisation Savannah Storm", "the insurer Ampla"); a lab, a brand, a
        restaurant or a shop may be a dog, a product or a place to the writers."""
        span = self.doc.char_span(mention.start, mention.end, alignment_mode="expand")
        return (
            span is not None
            and self._after_organization_noun(span)
            and self.doc[span.start - 1].lower_ in STATED_ORG_NOUNS
        )

    def _one_after(self, tokens) -> bool:
        """Whether a capitalised "One" right after a name ends it ("SAP Business One",
        "Capital One"), not a number opening a phrase ("One day", "One of them")."""
        after = tokens[-1].i + 1
        if after >= len(self.doc) or not tokens[-1].whitespace_ or after in self.by_token:
            return False
        if self.doc[after].text != "One" or not tokens[-1].text[:1].isupper():
            return False
        following = self.doc[after + 1] if after + 1 < len(self.doc) else None
        return following is None or (
            following.pos_ not in {"PROPN", "NUM", "ADJ"}
            and following.lower_ not in {"of", "day", "time", "thing", "way", "more", "another"}
            and (following.pos_ != "NOUN" or following.lower_ in {"daily", "now", "today"})
        )

    def _tier_after(self, tokens) -> list:
        """The tier word right after a product's model number ("Pro", "mini"), if any."""
        after = tokens[-1].i + 1
        if after >= len(self.doc) or after in self.by_token or not tokens[-1].whitespace_:
            return []
        tier = self.doc[after]
        if tier.lower_ in MODEL_TIERS and (tier.text[:1].isupper() or tier.lower_ == "mini"):
            return [tier]
        return []

    def _period_before(self, tokens) -> bool:
        """Whether the word right before a report's, a memo's or an event's capitalised name
        is the period it is of ("the Q3 Board Memo", "the 2024 Annual Report", "the Tuesday
        DNS Outage"): part of its name."""
        if not tokens or tokens[0].i == 0 or len(tokens) < 2:
            return False
        before = self.doc[tokens[0].i - 1]
        kinds = DOCUMENT_WORDS if before.text.isdigit() else DOCUMENT_WORDS | EVENT_WORDS
        return (  # not an event's year ("the 2023 Nordic Championship"): the writers differ
            before.i not in self.by_token
            and before.whitespace_
            and before.sent == tokens[0].sent
            and bool(PERIOD_WORD.match(before.text))
            and tokens[-1].lemma_.lower() in kinds
            and all(t.text[:1].isupper() for t in tokens)
            and not self._starts_sentence(before)
        )

    def _version_after(self, token):
        """The version right after a technology's name ("Postgres 16", "Python 3.12",
        "Oracle 19c", "OpenSearch 2.x"), which names the release, not a year ("Figma
        2024"), a count or a size ("Redis 6 GB")."""
        after = token.i + 1
        if after >= len(self.doc) or not token.whitespace_ or after in self.by_token:
            return None
        number = self.doc[after]
        word = self._text(number.idx, number.idx + len(number))
        if not TECH_VERSION.match(word) or number.ent_type_ in {"DATE", "TIME", "MONEY"}:
            return None
        if len(word) == 4 and word[:2] in {"19", "20"}:
            return None
        following = self.doc[after + 1].lower_ if after + 1 < len(self.doc) else ""
        if re.fullmatch(r"(?:4[0-5]\d|5[01]\d)s?", word) and (
            word.endswith("s") or following in {"error", "errors", "response", "responses"}
        ):
            return None  # "stuck on SendGrid 429s", "Stripe 502 errors": a status, no release
        return None if following in VERSION_UNITS else number

    def _model_number(self, tokens) -> bool:
        """The number right after a product's or a project's name is part of the name
        ("Sennheiser HD 600", "Route 53", "Lumen 2.0"), unless the name is a known
        technology (then it is its version: "Postgres 16") or the number is a year."""
        after = tokens[-1].i + 1
        if after >= len(self.doc) or not tokens[-1].text[:1].isupper():
            return False
        number = self.doc[after]
        code = MODEL_CODE.match(number.text)
        if (
            code
            and tokens[-1].whitespace_
            and number.sent == tokens[-1].sent
            and re.sub(r"[\d+]", "", number.text).casefold() not in CODE_UNITS
            and number.ent_type_ not in {"DATE", "TIME", "QUANTITY", "MONEY", "PERCENT"}
        ):  # "Zebra TC52", "John Deere 5075E", "Ward 7B": a model or a unit's code
            return after not in self.by_token
        if not tokens[-1].whitespace_ or not (
            number.like_num or lexicon.VERSION.match(number.text)
        ):
            return False
        if not (number.head.i in {t.i for t in tokens} or number.head == tokens[-1]) and not (
            number.dep_ in {"compound", "nmod"} and number.head.i > after
        ):
            # "the Street Fighter 6 bracket": a number before one thing (a count would
            # take a plural) is the name's
            head = number.head
            if not (
                number.dep_ == "nummod"
                and tokens[-1].lower_ not in CURRENCY
                and head.i > after
                and all(  # "the Anker 737 power bank": compounds up to the one thing
                    self.doc[k].dep_ == "compound" and self.doc[k].is_lower
                    for k in range(after + 1, head.i)
                )
                and head.tag_ == "NN"
                and head.is_lower
            ):
                return False
        digits = number.text.replace(".", "")
        if not digits.isdigit() or (len(number.text) == 4 and number.text[:2] in {"19", "20"}):
            return False
        if number.text[:1] == "0" or len(digits) > 4 or number.ent_type_ in {"DATE", "TIME"}:
            return False
        words = self._text(tokens[0].idx, tokens[-1].idx + len(tokens[-1])).casefold()
        if words in lexicon.TECHNOLOGIES or tokens[-1].lower_ in lexicon.TECHNOLOGIES:
            return False
        return after not in self.by_token

    def _title_words(self, tokens) -> int:
        """How many of ``tokens`` open them as a title before a name: a role or a verb
        ("Postdoc", "Ping"), then any departments ("VP Engineering"); or departments alone
        after a title the span left out ("Head of" | "Sales Amir Haddad"). Leaves a word."""
        count = 1 if tokens[0].lower_ in BEFORE_NAMES or _plural_role(tokens[0].lower_) else 0
        if (
            not count
            and len(tokens) >= 3
            and tokens[0].text[:1].isupper()
            and tokens[1].lower_ in lexicon.GIVEN_NAMES
            and person_noun(tokens[0])
        ):
            return 1  # "Shepherd Albino Cabral", "Operator Petrus Nghifikwa": a trade
        if not count and not (
            tokens[0].i > 0 and self.doc[tokens[0].i - 1].lower_ in BEFORE_NAMES | {"of"}
        ):
            return 0
        while count < len(tokens) - 1 and tokens[count].lower_ in DEPARTMENTS | {"of"}:
            count += 1
        return count

    def _trim(self, tokens):
        """Drop greetings, determiners, possessives and fillers at the edges."""
        tokens = [t for t in tokens if not t.is_space]
        while (
            tokens
            and (
                (
                    tokens[0].lower_.rstrip(".") in TRIM_WORDS
                    and not (  # "Team Falcon": a team word that opens a name stays
                        tokens[0].lower_ in TEAM_WORDS
                        and len(tokens) > 1
                        and tokens[1].text[:1].isupper()
                    )
                    and not (  # "Jan Kowalski", "May Chen": a given name, not a month
                        tokens[0].ent_type_ == "PERSON"
                        and tokens[0].lower_ in MONTHS
                        and len(tokens) > 1
                        and tokens[1].ent_type_ == "PERSON"
                        and tokens[1].text[:1].isupper()
                        and not (tokens[0].i > 0 and tokens[0].nbor(-1).like_num)
                    )
                    and not self._name_particle(tokens)
                    and not (  # "Great Ormond Street Hospital": a word of the place's name
                        len(tokens) > 1
                        and tokens[0].text.istitle()
                        and english_adjective(tokens[0].lower_)
                        and tokens[0].ent_type_ in {"FAC", "ORG", "GPE", "LOC", "EVENT"}
                        and tokens[1].ent_iob_ == "I"
                        and tokens[1].text[:1].isupper()
                        and not self._starts_sentence(tokens[0])
                    )
                    and not (  # "Vendor Day", "Customer Summit": an event named for them
                        len(tokens) == 2
                        and tokens[1].lower_ in EVENT_WORDS
                        and tokens[0].text.istitle()
                        and tokens[1].text.istitle()
                        and tokens[0].lower_ in ROLE_TRIM_WORDS
                    )
                    and not (  # "the SRE team", "the IT team": the word names the team
                        len(tokens) > 1
                        and tokens[-1].lower_ in TEAM_WORDS
                        and tokens[0].dep_ == "compound"
                        and tokens[0].pos_ in {"NOUN", "PROPN"}
                        and tokens[0].lower_ not in {"the", "a", "an"}
                    )
                )
                or (
                    tokens[0].pos_ in {"DET", "PRON", "INTJ", "PUNCT", "ADP", "CCONJ"}
                    and not self._surname_before_person(tokens)
                )
                or (tokens[0].pos_ == "VERB" and tokens[0].text.islower() and len(tokens) > 1)
                or (tokens[0].dep_ == "poss" and tokens[0].pos_ == "PRON")
            )
        ):
            tokens = tokens[1:]
        while (
            len(tokens) > 1
            and tokens[0].i >= 2
            and self.doc[tokens[0].i - 1].text == "-"
            and not self.doc[tokens[0].i - 1].whitespace_
            and not self.doc[tokens[0].i - 2].whitespace_
            and self.doc[tokens[0].i - 2].text.islower()
            and tokens[0].text.islower()
        ):
            tokens = tokens[1:]  # "in-house KYC engine": "house" is the end of a word before
        if len(tokens) > 3 and self._opening_compound(tokens[:3]):
            tokens = tokens[3:]
        if (
            len(tokens) > 2
            and tokens[0].lower_ in HONORIFICS
            and all(t.text[:1].isupper() and t.is_alpha for t in tokens[1:])
        ):
            tokens = tokens[1:]  # "Don Alirio Cuéllar": the full name after the word of respect
        titles = [
            i for i, t in enumerate(tokens[:-1]) if t.lower_.rstrip(".") in NAME_TITLES and i > 0
        ]
        if titles:  # "supervisor Mr. Lindqvist": the name after the title
            tokens = tokens[titles[-1] + 1 :]
            while tokens and tokens[0].text == ".":
                tokens = tokens[1:]
        while tokens and (
            tokens[-1].lower_.rstrip(".") in NAME_TITLES
            or (
                tokens[-1].pos_ in {"PUNCT", "PART", "ADP", "CCONJ", "DET"}
                and not self._closing_name_word(tokens)
            )
            or tokens[-1].lower_ in {"'s", "’s"}
        ):
            tokens = tokens[:-1]
        return tokens

    @staticmethod
    def _name_particle(tokens) -> bool:
        """ "Thu Trang", "Ah Keong", "Min Jin Lee": a capitalised word that is also a filler,
        a weekday or an abbreviation opens a name when it is a given name, a surname or a
        name particle and qualifies the capitalised name right after it."""
        first = tokens[0]
        if len(tokens) < 2 or not first.text.istitle() or not first.is_alpha:
            return False
        following = tokens[1]
        word = first.lower_
        return (
            following.pos_ == "PROPN"
            and following.text[:1].isupper()
            and following.lower_ not in MONTHS | WEEKDAYS
            and not following.like_num
            and first.dep_ == "compound"
            and first.head.i in {t.i for t in tokens[1:]}
            and word not in SPEAKER_TITLES | HONORIFICS  # "Tía Carmen", "Oma Hilde"
            and (
                word in NAME_PARTICLES
                or (
                    following.ent_type_ == "PERSON"
                    and word not in MONTHS | WEEKDAYS
                    and (word in lexicon.GIVEN_NAMES or lexicon.is_surname(word))
                )
            )
        )

    @staticmethod
    def _closing_name_word(tokens) -> bool:
        """ "Hoi An", "Bao An": a capitalised word after another, that the tagger took for
        an article or a preposition, closes the name (an English one never does)."""
        last = tokens[-1]
        return (
            len(tokens) > 1
            and last.is_alpha
            and last.text[:1].isupper()
            and last.text[1:].islower()
            and tokens[-2].text[:1].isupper()
            and tokens[-2].is_alpha
            and last.lower_ not in CLOSING_FUNCTION_WORDS
            and last.lower_ not in MONTHS
            and last.lower_ not in WEEKDAYS
        )

    @staticmethod
    def _foreign_name_word(token) -> bool:
        """A capitalised word no English dictionary knows that some locale lists as a
        family or a given name ("Nguyễn"), whatever part of speech the tagger gave it."""
        return (
            token.is_alpha
            and token.text[:1].isupper()
            and token.lower_ not in TRIM_WORDS
            and (lexicon.is_surname(token.text) or token.lower_ in lexicon.GIVEN_NAMES)
            and not english_word(token.lower_)
        )

    def _surname_before_person(self, tokens) -> bool:
        """ "Nguyễn Văn Tâm": a family name the tagger took for an interjection, before
        the given names the model named."""
        return (
            len(tokens) > 1
            and tokens[0].pos_ == "INTJ"
            and tokens[1].ent_type_ == "PERSON"
            and self._foreign_name_word(tokens[0])
        )

    def _known_tech_with_a_noun(self, tokens) -> bool:
        """A known technology and a lower-case English noun after it that names a thing of
        it ("Grafana board", "Airflow job"), the two not a technology's name together."""
        tech, noun = tokens
        written = self.source[noun.idx : noun.idx + len(noun)]
        return (
            tech.lower_ in lexicon.TECHNOLOGIES
            and written.isalpha()
            and written.islower()
            and noun.pos_ == "NOUN"
            and written not in lexicon.TECHNOLOGIES
            and f"{tech.lower_} {written}" not in lexicon.TECHNOLOGIES
            and english_word(written)
        )

    def _opening_compound(self, tokens) -> bool:
        """ "Die-hard Kaizer Chiefs supporter", "Long-time Arsenal fan": a compound of two
        English words, its second in lower case, capitalised only because it opens the
        sentence, describes the name after it ("Coca-Cola", "Rolls-Royce" are names)."""
        first, hyphen, second = tokens
        return (
            hyphen.text == "-"
            and self._starts_sentence(first)
            and first.text[:1].isupper()
            and first.text[1:].islower()
            and second.text.isalpha()
            and second.text.islower()
            and hyphen.idx == first.idx + len(first)
            and second.idx == hyphen.idx + 1
            and english_word(first.lower_)
            and english_word(second.lower_)
        )

    def _split(self, tokens):
        """Split a span at "and"/"at"/"in"/"from"/"with"/"," ("Marco at Acme Corp")."""
        parts, current = [], []
        for position, token in enumerate(tokens):
            between_names = (
                token.text in {"&", "+"}
                and len(current) == 1
                and token.i + 1 < len(self.doc)
                and (
                    (
                        current[0].lower_ in lexicon.GIVEN_NAMES
                        and self.doc[token.i + 1].lower_ in lexicon.GIVEN_NAMES
                    )
                    or (  # "Nkechi & Dami" the model calls people: one name known is enough
                        token.ent_type_ == "PERSON"
                        and (
                            current[0].lower_ in lexicon.GIVEN_NAMES
                            or self.doc[token.i + 1].lower_ in lexicon.GIVEN_NAMES
                        )
                    )
                )
                and self.doc[token.i + 1].text[:1].isupper()
                and (token.i + 2 >= len(self.doc) or not self.doc[token.i + 2].text[:1].isupper())
            )  # "Kofi & Ama", "Elif + Samuel"; not "Weights & Biases", "Marks & Spencer Food"
            if (
                token.text == "+"
                and current
                and token.whitespace_
                and current[-1].whitespace_
                and position + 1 < len(tokens)
                and current[0].lower_ in lexicon.GIVEN_NAMES
                and tokens[position + 1].lower_ in lexicon.GIVEN_NAMES
            ):  # "Marta Sobieraj + Piotr Sobieraj": two people (not "Foster + Partners",
                between_names = True  # "KubeCon + CloudNativeCon Europe")
            if self._two_people_at(token, current, tokens):
                between_names = True  # and the first name opens at its given name
                current = current[
                    next(i for i, t in enumerate(current) if t.lower_ in lexicon.GIVEN_NAMES) :
                ]
            on_street = (
                token.lower_ == "on"
                and current
                and tokens[-1].lower_.rstrip(".") in STREET_WORDS
                and tokens[-1].i > token.i
            )  # "Abyssinia on Queen Street": a place and its street
            rest = tokens[position + 1 :] if token.lower_ in {"and", "in"} else []
            one_name = (
                bool(rest)
                and (
                    (  # "Ministry of Environment and Tourism", "University of Science and
                        # Technology": "and" inside an "of" phrase the model named as one
                        token.lower_ == "and"
                        and any(t.lower_ == "of" for t in current[1:])
                        and next((t for t in current if t.pos_ != "DET"), token).text[:1].isupper()
                        and all(t.text[:1].isupper() for t in rest)
                        and len(rest) <= 2
                    )
                    or (  # "Partners in Health", "Thinking in Systems"; not "Boots in Leeds"
                        token.lower_ == "in"
                        and len(rest) == 1
                        and rest[0].text[:1].isupper()
                        and rest[0].ent_type_ not in {"GPE", "LOC", "FAC"}
                        and rest[0].lower_ not in lexicon.PLACES
                        and english_word(rest[0].lower_)
                        and len(current) == 1
                        and current[0].tag_ == "NNPS"
                    )
                )
            )
            dash = token.text in {"—", "–"} and bool(token.whitespace_)  # "Škoda Octavia — Jess"
            from_to = (  # "moved from Utrecht to Ghent", the model's one name: two places
                token.lower_ == "to"
                and bool(current)
                and tokens[0].i > 0
                and self.doc[tokens[0].i - 1].lower_ == "from"
                and position + 1 < len(tokens)
                and tokens[position + 1].text[:1].isupper()
            )
            # "Aroha → Mihail", "Silver Hayes w/ Dan", "Glastonbury 🎪 Fri–Sun": never one name
            apart = token.lower_ in SPLIT_MARKS or (
                len(token.text) == 1 and unicodedata.category(token.text) == "So"
            )
            if (
                (token.lower_ in SPLIT_WORDS or between_names or dash or apart or from_to)
                and (token.lower_ not in {"of", "&", "for"} or not current or between_names)
                and not one_name
            ) or on_street:
                if current:
                    parts.append(current)
                current = []
            else:
                current.append(token)
        if current:
            parts.append(current)
        return parts

    def _two_people_at(self, token, current, tokens) -> bool:
        """Whether an "&" joins two people's names, each opened by a given name and the
        second closing the span: "Aiko Nakamura & Rei Sato", "Kojo & Adjoa Mensah" (not
        "Procter & Gamble", "Bautista & Sons")."""
        if token.text != "&" or not current:
            return False
        given = [i for i, t in enumerate(current) if t.lower_ in lexicon.GIVEN_NAMES]
        rest = [t for t in tokens if t.i > token.i]
        if not given or not rest or not 1 <= len(rest) <= 3:
            return False
        left = current[given[0] :]
        return (
            len(left) <= 3
            and rest[0].lower_ in lexicon.GIVEN_NAMES
            and all(t.text[:1].isupper() and t.is_alpha for t in left + rest)
            and not any(t.lower_.rstrip(".") in ORG_WORDS | ORG_FORMS for t in rest)
        )

    def _speaker(self):
        """The speaker of every dialogue turn, a person ("Caroline (1:56 pm …): …"); a
        participle that opens a note ("Noted: …", "Updated: …") is no speaker."""
        for start, _end, name in self.doc.user_data.get("speakers", []):
            word = name.casefold()
            dated = self.source[start + len(name) : start + len(name) + 2].lstrip()[:1] == "("
            if (
                " " not in word
                and word.endswith(("ed", "ing"))
                and word not in lexicon.FIRST_NAMES
                and not dated  # "Yared (8:00 am on 15 Jan, 2024): ...": a dated turn
            ):
                continue
            if word.startswith("about ") and " " in name.strip():  # "About Henrique: lives
                start, name = start + 6, name[6:]  # in Porto Alegre, ..."
            start, name = _untitled(start, name)
            mention = Mention(start, start + len(name), name, "person", 0.9, "speaker")
            self.speakers.append(mention)
            self.mentions.append(mention)
        if not self.speakers:  # "My name is Ikaika and I live in Hilo", "I'm Nino.":
            found = SELF_NAMED.search(self.source)  # the writer names themself, and "I"
            name = found and next(g for g in found.groups() if g)  # is that person
            if (
                name
                and self._turn_name(name)
                and name.casefold() not in TRIM_WORDS
                and (
                    found.lastindex not in SELF_NAMED_CHECKED
                    or self._person_named(found.start(found.lastindex), name)
                )
            ):
                start = found.start(found.lastindex)
                mention = Mention(start, start + len(name), name, "person", 0.85, "speaker")
                self.speakers.append(mention)
                self.mentions.append(mention)
                self.writer = mention
        if self.speakers:  # "Devraj: haha ..." in a dialogue whose other turns are known:
            known = {m.start for m in self.speakers}  # a turn by a name no list knows
            for found in TURN.finditer(self.source):
                name = found.group(1)
                start, name = _untitled(found.start(1), name)
                if start in known or not self._turn_name(name):
                    continue
                mention = Mention(start, start + len(name), name, "person", 0.85, "speaker")
                self.speakers.append(mention)
                self.mentions.append(mention)
            self.speakers.sort(key=lambda m: m.start)

    def _person_named(self, start: int, name: str) -> bool:
        """Whether "I'm X" names the writer: a full name, a given name, or one the
        named-entity model calls a person (not "I'm Rangers", "I'm Filipino-Kiwi")."""
        if " " in name or name.casefold() in lexicon.GIVEN_NAMES:
            return True
        span = self.doc.char_span(start, start + len(name), alignment_mode="expand")
        if span is None or any(t.ent_type_ == "PERSON" for t in span):
            return span is not None
        return not english_word(name.casefold().rstrip("s")) and not any(
            t.ent_type_ in {"NORP", "ORG", "GPE", "LOC", "FAC", "LANGUAGE"} for t in span
        )

    @staticmethod
    def _turn_name(name: str) -> bool:
        word = name.casefold()
        return (
            word not in lexicon.NEVER_NAMES
            and word not in lexicon.FIELD_KEYS
            and word.split()[0] not in lexicon.NOTE_WORDS
            and not any(ch.isdigit() for ch in name)
            and (  # "Reviewed: ...", "Pending:", but Ahmed, Khaled, Blessing
                not word.endswith(("ed", "ing")) or word.split()[0] in lexicon.FIRST_NAMES
            )
            and word not in TRIM_WORDS
        )

    def _speaker_at(self, char: int) -> Mention | None:
        """Who says the words at ``char``: the speaker of the last turn opened before it,
        or the writer of a text that names them after its first words ("I've been a bus
        driver for Transperth ... My name's Kylie", "... I work at Nokia. — Juha")."""
        said = [m for m in self.speakers if m.start <= char]
        if said:
            return said[-1]
        if self.writer is None:
            return None
        if self.writer_opens[0] is not self.writer:
            span = self.doc.char_span(self.writer.start, self.writer.end, alignment_mode="expand")
            self.writer_opens = (self.writer, span.sent.start_char if span is not None else -1)
        # not the "I" of the sentence that names the writer ("I'm Kagiso Molefe, ...")
        return self.writer if char < self.writer_opens[1] else None

    def _titles(self):
        """ "Did you finish \"The Overstory\"?", "- *Thinking in Systems* by Donella
        Meadows": a quoted or emphasised run of title-case words is one work's name."""
        for found in TITLE.finditer(self.source):
            group = next(g for g in range(1, 5) if found.group(g) is not None)
            start, end = found.start(group), found.end(group)
            words = found.group(group).split()
            if (
                len(words) > 10
                or (group == 4 and (len(words) < 2 or self._quoted_after_kind(found.start())))
                or words[0].casefold().strip(",.!?") in lexicon.NEVER_NAMES
                or not all(w[:1].isupper() or w[:1].isdigit() or w in TITLE_SMALL for w in words)
                or (len(words) == 1 and words[0].casefold() in lexicon.TECHNOLOGIES)
            ):
                continue
            span = self.doc.char_span(start, end, alignment_mode="expand")
            if span is None or not self._free(span):
                continue
            self._add(
                list(span), "document", 0.75, name=self._text(start, end), origin="title", cued=True
            )

    def _quoted_after_kind(self, start: int) -> bool:
        """Whether the word before ``start`` names a kind of thing other than a work
        ("Hackathon team 'Byte Size'", "the band 'Salt Reef'"): the quoted name is one."""
        before = re.findall(r"[\w-]+", self.source[max(0, start - 30) : start])
        word = before[-1].casefold() if before else ""
        return word in TEAM_WORDS or ANAPHOR_KINDS.get(word, "document") != "document"

    def _possessive_names(self):
        """ "St. Mary's Hospital", "St John's College", "Hawke's Bay Pickers": a saint's or a
        place's possessive with the capitalised words after it is one name (the model names
        "St Brigid's" alone and the parse makes "College" a thing owned)."""
        doc = self.doc
        for mark in doc:
            if mark.lower_ not in {"'s", "\u2019s"} or mark.i < 1 or mark.i + 1 >= len(doc):
                continue
            owner = doc[mark.i - 1]
            start = owner.i
            while start > 0 and doc[start - 1].text[:1].isupper() and not doc[start - 1].is_space:
                start -= 1  # "St.", "Hawke"
            if doc[start].text == "." and start + 1 < mark.i:
                start += 1
            words = [t for t in doc[start : mark.i] if t.text != "."]
            saint = words and words[0].lower_.rstrip(".") in {"st", "saint", "ste"}
            end = mark.i + 1
            while end < len(doc) and doc[end].text[:1].isupper() and doc[end].pos_ in NAME_POS:
                end += 1
            if end == mark.i + 1 or not owner.text[:1].isupper():
                continue
            place = any(t.lower_ in POSSESSIVE_PLACES for t in doc[mark.i + 1 : end])
            if not (saint and len(words) >= 2) and not place:
                continue
            if not saint and owner.lower_ in lexicon.PLACES:
                continue  # "Bucharest's Hotel Athénée", "Oslo's Aker Brygge": a place's place
            tokens = list(doc[start:end])
            if not self._free(tokens) or (self._starts_sentence(tokens[0]) and not saint):
                continue
            kind = self._cue_type(tokens, "organization")
            located = tokens[-1].lower_ in POSSESSIVE_LOCATIONS and kind == "organization"
            self._add(
                tokens,
                "location" if located else kind,
                0.75,
                name=self._text(tokens[0].idx, tokens[-1].idx + len(tokens[-1])),
                origin="propn",
                cued=located,
            )

    def _vehicles(self):
        """ "drives a Honda Civic", "my old Volvo XC60": a car maker and the model after it
        are one thing, not a company and a technology."""
        doc = self.doc
        for token in doc:
            if token.lower_ not in CAR_MAKERS or not token.text[:1].isupper():
                continue
            tokens = [token]
            while (
                len(tokens) < 3
                and tokens[-1].i + 1 < len(doc)
                and (doc[tokens[-1].i + 1].text[:1].isupper() or doc[tokens[-1].i + 1].like_num)
                and doc[tokens[-1].i + 1].pos_ in {"PROPN", "NUM", "NOUN", "X"}
            ):
                tokens.append(doc[tokens[-1].i + 1])
            owned = token.i > 0 and doc[token.i - 1].lower_ in {
                "a",
                "an",
                "my",
                "his",
                "her",
                "our",
                "their",
                "new",
                "old",
                "used",
            }  # "bought a Tesla": the car
            if (len(tokens) > 1 or owned) and self._free(tokens):
                name = self._text(tokens[0].idx, tokens[-1].idx + len(tokens[-1]))
                self._add(tokens, "other", 0.75, name=name, origin="vehicle", cued=True)

    def _products(self):
        """ "a Garmin inReach Mini 2", "Sony WH-1000XM5 headphones", "AMD Ryzen 7040", "the
        Casio F-91W": a maker, the model's words and its code are one product (a
        technology), not a company beside a component. What the earlier passes found
        inside the product gives way to it; a name that reaches past it stays."""
        doc = self.doc
        for token in doc:
            if token.i and self.source[token.idx - 1 : token.idx] in {"-", "+"}:
                continue  # inside "Bio-Rad", "Landis+Gyr"
            maker = self._maker_at(token)
            if not maker:
                continue
            tokens = list(maker)
            while (  # the model's words before its code: "Ryzen", "Vantage"
                len(tokens) < len(maker) + 2
                and tokens[-1].whitespace_
                and tokens[-1].i + 1 < len(doc)
                and (word := doc[tokens[-1].i + 1]).is_alpha
                and self._written(word)[:1].isupper()
                and not CAMEL_MODEL.match(self._written(word))
                and word.sent == token.sent
                and not self._code_at(word.i)
            ):
                tokens.append(word)
            if not tokens[-1].whitespace_ or tokens[-1].i + 1 >= len(doc):
                continue
            code = self._code_at(tokens[-1].i + 1, after_words=len(tokens) > len(maker))
            if not code or code[-1].sent != token.sent:
                continue
            tokens += code
            tokens += self._model_tail(tokens)
            if len(tokens) == 2 and token.lower_ in NUMBERED_NOUNS:
                continue
            self._product(tokens, 0.75)
        for token in doc:  # "the inReach Mini 2": a model's own name, its maker unsaid
            written = self._written(token)
            if not CAMEL_MODEL.match(written) or written.casefold() in lexicon.TECHNOLOGIES:
                continue
            if (m := self.by_token.get(token.i)) is not None and m.origin == "product":
                continue
            tokens = [token, *self._model_tail([token])]
            if len(tokens) > 1:
                self._product(tokens, 0.7)

    def _product(self, tokens, confidence: float) -> None:
        """Add a product over ``tokens`` unless a name found before covers it or reaches
        past it ("ThinkPad X1 Carbon", "Ooni Koda 16" keep their span and type)."""
        inside = {t.i for t in tokens}
        found = {id(m): m for t in tokens if (m := self.by_token.get(t.i)) is not None}
        for mention in found.values():
            covered = {i for i, m in self.by_token.items() if m is mention}
            if not covered <= inside or covered == inside:
                return
        for mention in found.values():
            self._drop(mention)
        if any(t.i in self.kind_words for t in tokens):
            return
        name = self._text(tokens[0].idx, tokens[-1].idx + len(tokens[-1]))
        self._add(tokens, "technology", confidence, name=name, origin="product", cued=True)

    def _written(self, token) -> str:
        """A token as the text has it (the parser reads identifiers by their shape)."""
        return self.source[token.idx : token.idx + len(token)]

    def _maker_at(self, token) -> list:
        """The tokens of a product's maker that starts at ``token`` ("Casio", "Bio-Rad",
        "John Deere"), or [] when the word there is no maker's name: a person's given name,
        a place, an English noun that numbers things ("Room 4B"), a car maker (a vehicle),
        or an English word opening a sentence ("Escalate SEV1")."""
        found = re.match(r"[A-Z][A-Za-z]*(?:[-+][A-Z][A-Za-z]*)*", self.source[token.idx :])
        if not found:
            return []
        word = found.group(0)
        tokens = [t for t in self.doc[token.i : token.i + 5] if t.idx < token.idx + len(word)]
        if tokens[-1].idx + len(tokens[-1]) != token.idx + len(word):
            return []
        lowered = word.casefold()
        if (
            lowered in CAR_MAKERS
            or lowered in NUMBERED_NOUNS
            or lowered in lexicon.NEVER_NAMES
            or lowered in lexicon.GIVEN_NAMES
            or token.pos_ not in {"PROPN", "NOUN", "ADJ", "X"}
            or token.ent_type_ in {"GPE", "DATE", "TIME", "LOC"}
        ):
            return []
        if (
            self._starts_sentence(token)
            and english_word(word)
            and lowered not in lexicon.TECHNOLOGIES
            and token.ent_type_ not in {"ORG", "PRODUCT"}
        ):
            return []
        before = self.doc[token.i - 1] if token.i else None
        if (  # "John Deere 5075E": a word inside a name begun before it opens no maker
            before is not None
            and before.whitespace_
            and before.sent == token.sent
            and before.pos_ == "PROPN"
            and re.fullmatch(r"[A-Z][a-z]+", self._written(before))
            and not self._starts_sentence(before)
        ):
            return []
        return tokens

    def _code_at(self, i: int, after_words: bool = False) -> list:
        """The tokens of a model code that starts at token ``i`` ("WH-1000XM5" may be
        several), or of a model's number after its words ("Ryzen 7040"); [] if none."""
        doc = self.doc
        start = doc[i].idx
        found = re.match(r"\S+", self.source[start:])
        word = found.group(0).rstrip(".,;:!?)]'\"") if found else ""
        if word.endswith("'s") or word.endswith("\u2019s"):
            word = word[:-2]
        if not word:
            return []
        if (
            PRODUCT_CODE.match(word)
            and (not NOT_A_CODE.match(word) or re.fullmatch(r"\d{3,}[A-Z]", word))  # "780G"
            and (  # "OPS-1877", "build-07", "eu-west-1": a ticket, a host, a region
                "-" not in word
                or any(re.search(r"\d", p) and re.search(r"[A-Za-z]", p) for p in word.split("-"))
            )
            and not lexicon.REGION.match(word)
            and not lexicon.TICKET.match(word)
            and not PERIOD_WORD.match(word)  # "Runtime Q2"
            and not re.fullmatch(
                r"[A-Za-z]2[A-Za-z]|[xX]\d+|[Uu]\d{1,2}", word
            )  # "E2E", "x7", "U12"
            and word.casefold() not in lexicon.TECHNOLOGIES  # "Kafka Connect S3"
        ):
            pass
        elif CAMEL_MODEL.match(word) and word.casefold() not in lexicon.TECHNOLOGIES:
            pass  # "inReach", not "iOS"
        elif not (after_words and word.isdigit() and 2 <= len(word) <= 5 and not YEAR.match(word)):
            return []
        end = start + len(word)
        tokens = [t for t in doc[i : i + 8] if t.idx < end]
        if any(t.ent_type_ in {"TIME", "MONEY", "PERCENT", "QUANTITY"} for t in tokens):
            return []
        if tokens[-1].idx + len(tokens[-1]) != end:
            return []
        return tokens

    def _model_tail(self, tokens) -> list:
        """The tier words and numbers right after a model ("Mini 2", "Pro", "Carbon")."""
        doc, tail = self.doc, []
        while len(tail) < 2:
            last = (tail or tokens)[-1]
            after = last.i + 1
            if after >= len(doc) or not last.whitespace_ or doc[after].sent != last.sent:
                break
            word = doc[after]
            if (word.lower_ in MODEL_TIERS and word.text[:1].isupper()) or (
                tail and word.like_num and word.text.isdigit() and len(word.text) <= 2
            ):
                tail.append(word)
                continue
            break
        return tail

    def _identifiers(self):
        for start, end, kind in self.doc.user_data.get("identifiers", []):
            type_ = IDENTIFIER_TYPES.get(kind)
            name = self._text(start, end)
            parts = name.upper().split("-")
            if kind == "ticket" and (parts[0] in INCIDENT_PREFIXES or "INC" in parts[1:-1]):
                type_ = "event"  # "INC-4471", "SEC-INC-092": an incident
            if kind == "identifier" and set(re.split(r"[-_]", name.casefold())) & GROUP_PARTS:
                type_ = "organization"  # "@data-eng", "team-finops", "obs-guild": people
            elif kind == "identifier" and any(
                DATA_CENTRE_PART.fullmatch(part) for part in re.split(r"[-_]", name.casefold())
            ):
                type_ = "location"  # "dc-ams-1", "fra-dc2", "az-b": a data centre, a zone
            if type_ is None:
                continue
            span = self.doc.char_span(start, end, alignment_mode="expand")
            if span is None or not self._free(span):
                continue
            name = self._text(start, end)
            if kind == "ticket" and not any(ch.isdigit() for ch in name):
                continue
            if kind == "identifier" and self._kind_described(span, name):
                self.kind_words.update(t.i for t in span)
                continue
            if (
                type_ == "component"
                and span.start
                and self.doc[span.start - 1].lemma_.lower() in DOCUMENT_WORDS
            ):
                type_ = "document"  # "Report CAP-W17", "design doc RL-Design-v3"
            self._add(list(span), type_, 0.8, name=name, origin="identifier", cued=True)
        for found in NUMBERED_ITEM.finditer(self.source):  # "PR #482", "issue #31"
            span = self.doc.char_span(found.start(), found.end(), alignment_mode="expand")
            if span is not None and self._free(span):
                self._add(list(span), "document", 0.8, name=found.group(0), origin="identifier")
        self._sibling_identifiers()
        self._hyphenated_given_names()
        self._apposed_code_names()
        self._misread_given_names()

    def _kind_described(self, span, name: str) -> bool:
        """ "Project Colibrí, a driver-routing engine", "a low-latency service": English
        words joined by a hyphen before a noun after "a" say what kind of thing it is and
        name nothing."""
        parts = name.split("-")
        if len(parts) < 2 or not all(
            p.isalpha() and p.islower() and english_word(p) for p in parts
        ):
            return False
        head = span.root.head
        if "`" in self.source[max(0, span.start_char - 1) : span.end_char + 1]:
            return False  # "a new `manifest-builder` module": written as code, a name
        if (
            len(parts) == 2
            and span.root.dep_ in {"compound", "amod", "nmod"}
            and head.i == span.end
            and head.pos_ == "NOUN"
            and any(c.dep_ == "det" and c.lower_ in {"a", "an"} for c in head.children)
        ):
            return True
        following = self.doc[span.end] if span.end < len(self.doc) else None
        before = self.doc[span.start - 1] if span.start else None
        if (
            following is not None
            and before is not None
            and before.lower_ in {"the", "a", "an", "our", "its", "their", "his", "her", "my"}
            and following.idx == span.end_char + 1
            and (
                following.pos_ == "PROPN"
                or any(
                    start == following.idx
                    for start, _end, _kind in self.doc.user_data.get("identifiers", [])
                )
            )
        ):  # "the home-grown auth-svc", "our self-hosted GitLab": what the name is like
            return True
        # "fraud-detection squad", "disk-usage checks", "tie-stall barn": before a common
        # noun, a compound of English words with no system's word in it (not "payments-
        # worker", "rates-stream") describes the noun (75 such against 15 names on the
        # development texts, 2026-12-06)
        return (
            following is not None
            and following.pos_ == "NOUN"
            and following.text.islower()
            and following.lower_ not in SYSTEM_SUFFIXES
            and following.lemma_.lower()
            not in SYSTEM_SUFFIXES | COMPONENT_NOUNS | TEAM_WORDS | RUNNING_COPIES
            and following.idx == span.end_char + 1
            and not any(p in SYSTEM_SUFFIXES for p in parts)
            and not re.search(r"(?:er|or)$", parts[-1])
        )

    def _apposed_code_names(self):
        """ "The quoting engine, pricer, is ...", "Its flagship product, tracewell, is
        written in Rust": a lower-case word set off by commas beside a system noun names
        that system."""
        for token in self.doc:
            if (
                token.dep_ == "appos"
                and token.text.islower()
                and token.pos_ in {"NOUN", "PROPN"}
                and token.i not in self.by_token
                and token.head.lemma_.lower() in APPOSED_SYSTEM_NOUNS
                and token.i > 0
                and self.doc[token.i - 1].text == ","
                and token.i + 1 < len(self.doc)
                and self.doc[token.i + 1].text in {",", "(", ";", "\u2014"}
                and token.lower_ not in lexicon.NEVER_NAMES
                and not any(c.dep_ in {"det", "amod", "compound"} for c in token.children)
            ):
                kind = "project" if token.head.lemma_.lower() in {"project"} else "component"
                self._add([token], kind, 0.6, origin="identifier", cued=True)
            elif (
                token.dep_ == "nsubj"
                and token.head.lemma_ == "be"
                and self._technical
                and token.text.islower()
                and token.pos_ in {"NOUN", "PROPN"}
                and token.i not in self.by_token
                and not any(c.dep_ in {"det", "amod", "compound", "poss"} for c in token.children)
                and token.lower_ not in COMPONENT_NOUNS | SYSTEM_NOUNS | GENERIC_HEADS
                and token.lower_ not in lexicon.NEVER_NAMES
                and any(
                    c.dep_ == "attr"
                    and c.lemma_.lower() in APPOSED_SYSTEM_NOUNS | {"wrapper", "sidecar"}
                    and any(d.lower_ in {"a", "an", "our", "the"} for d in c.children)
                    for c in token.head.children
                )
            ):  # "libgeo is a thin C++ wrapper around GEOS"
                self._add([token], "component", 0.6, origin="identifier", cued=True)

    def _misread_given_names(self):
        """ "Olu grew up in Lagos": a capitalised word the tagger took for a plural noun
        (tagged plural, yet no plural ending) that lives, grows up, works or studies, is a
        person's name."""
        for token in self.doc:
            if (
                token.tag_ == "NNS"
                and token.text[:1].isupper()
                and not token.lower_.endswith("s")
                and token.dep_ in {"nsubj", "conj"}
                and token.i not in self.by_token
                and token.head.lemma_.lower() in HUMAN_VERBS | {"grow", "work", "study"}
                and token.lower_ not in lexicon.NEVER_NAMES
                and not any(c.dep_ in {"det", "amod", "compound"} for c in token.children)
            ):
                self._add([token], "person", 0.6, origin="propn", cued=True)

    def _hyphenated_given_names(self):
        """ "Jae-won and his wife Sun-hee", "Seo-yeon Park": a capitalised short word
        joined by a hyphen to a lower-case one is a given name (the tagger reads "Jae" as
        a noun), with a capitalised surname after it if there is one."""
        for found in GIVEN_HYPHEN.finditer(self.source):
            first, second = found.group(1).casefold(), found.group(2)
            if (
                first in ENGLISH_PARTS
                or second in ENGLISH_PARTS
                or found.group(0).casefold() in lexicon.TECHNOLOGIES
                or found.group(0).casefold() in lexicon.NEVER_NAMES
            ):
                continue
            span = self.doc.char_span(found.start(), found.end(), alignment_mode="expand")
            if span is None or not self._free(span):
                continue
            if (
                span.start > 0
                and self.doc[span.start - 1].text[:1].isupper()
                and not (self._starts_sentence(self.doc[span.start - 1]))
            ):
                continue  # "Kim Soo-jin": the family name first; the named entities read it
            self._add(list(span), "person", 0.7, name=found.group(0), origin="propn", cued=True)

    def _sibling_identifiers(self):
        """ "dns-resolver-a and dns-resolver-b", "bastion-01, bastion-b": a lower-case
        hyphenated word listed beside a service or host name is one too, also when its
        parts are English ("-a")."""
        known = [m for m in self.mentions if m.origin == "identifier" and m.type == "component"]
        if not known:
            return
        for found in SIBLING.finditer(self.source):
            start, end = found.span()
            if any(m.start < end and start < m.end for m in self.mentions):
                continue
            word = found.group(0)
            before = self.source[max(0, start - 6) : start]
            after = self.source[end : end + 6]
            prefix = word.rsplit("-", 1)[0] + "-"
            listed = any(
                (m.end <= start and LIST_GAP.fullmatch(self.source[m.end : start]))
                or (m.start >= end and LIST_GAP.fullmatch(self.source[end : m.start]))
                for m in known
            )
            if not listed and not any(m.name.startswith(prefix) for m in known):
                continue
            if not (listed or before.endswith((" ", "`")) and after[:1] in {" ", ",", ".", "`"}):
                continue
            span = self.doc.char_span(start, end, alignment_mode="expand")
            if span is not None and self._free(span):
                self._add(list(span), "component", 0.7, name=word, origin="identifier", cued=True)

    def _name_handles(self):
        """ "helm upgrade started by ayse.k", "service owner: tevita.f": a given name and an
        initial joined by a dot or an underscore is a person's user name (with a name no
        list knows, when a word before it says it is someone: "by", "owner:")."""
        for found in NAME_HANDLE.finditer(self.source):
            name, initials = found.groups()
            dotted = self.source[found.end(1)] == "."
            if (dotted and initials in FILE_SUFFIXES) or english_word(name):
                continue
            cued = HANDLE_CUES.search(self.source[max(0, found.start() - 12) : found.start()])
            if name not in lexicon.GIVEN_NAMES and not (cued and len(initials) == 1):
                continue
            if name in lexicon.TECHNOLOGIES:
                continue
            span = self.doc.char_span(found.start(), found.end(), alignment_mode="expand")
            if span is None or not self._free(span):
                continue
            self._add(list(span), "person", 0.75, name=found.group(0), origin="handle", cued=True)

    def _handles(self):
        """ "@sam", "cc @Tomasz @ife": a chat handle is a person."""
        for found in HANDLE.finditer(self.source):
            span = self.doc.char_span(found.start(1), found.end(1), alignment_mode="expand")
            if span is None or not self._free(span):
                continue
            self._add(list(span), "person", 0.8, name=found.group(1), origin="handle", cued=True)

    def _lower_case_names(self):
        """ "fyi mateo just joined the infra team", "priya's team switched ...": in chat a
        given name written in lower case that does something or has something is a
        person (never a word that is also common English: "will", "grace", "max")."""
        for token in self.doc:
            if (
                token.text.islower()
                and token.lower_ in lexicon.FIRST_NAMES
                and token.lower_ not in COMMON_WORD_NAMES
                and token.dep_ in {"nsubj", "poss", "conj"}
                and token.pos_ in {"PROPN", "NOUN"}
                and token.i not in self.by_token
                and not self._hyphen_join(token)  # "Kim Soo-jin"
            ):
                self._add([token], "person", 0.6, origin="propn", cued=True)

    def _bumped_packages(self):
        """ "bump serde to 1.0.210", "upgraded pyarrow to 15.0.2", "pinned httpx==0.27": a
        lower-case word no dictionary knows, bumped or pinned to a version, is a package."""
        for token in self.doc:
            if (
                token.i in self.by_token
                or not re.fullmatch(r"[a-z][a-z0-9_.-]*[a-z0-9]", token.text)
                or english_word(token.lower_)
                or token.i == 0
                or token.i + 2 >= len(self.doc)
            ):
                continue
            verb = self.doc[token.i - 1]
            joint, version = self.doc[token.i + 1], self.doc[token.i + 2]
            if (
                verb.lemma_.lower() in PACKAGE_VERBS
                and joint.lower_ in {"to", "from", "@", "=="}
                and lexicon.VERSION.match(version.text.lstrip("v^~"))
            ):
                self._add([token], "technology", 0.7, origin="technology", cued=True)

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
                if canonical is None and width == 1 and lexicon.JS_LIBRARY.match(text):
                    canonical = text  # "Moment.js", "Chart.js"
                if canonical is None:
                    continue
                lowered = text.casefold()
                if text.islower() and lowered in lexicon.AMBIGUOUS_TECH:
                    continue
                if (
                    width == 1
                    and lowered in lexicon.AMBIGUOUS_TECH
                    and span[0].is_sent_start
                    and not self._listed_before_technology(index + 1)
                    and not (  # "- Slack: alerts posted by pager-bridge": a tool as the key
                        text[:1].isupper()  # of what it does (not "- Drone: DJI Agras T40",
                        and re.match(r":\s*[a-z]", self.source[span.end_char :])  # a kind)
                    )
                ):
                    continue  # "Go ahead", "Rust never sleeps": ambiguous at a sentence start
                    # (but not "• Rust, tokio, axum": listed with a technology)
                if width == 1 and span[0].pos_ in {"VERB", "AUX"} and text.islower():
                    continue
                if (
                    width == 1
                    and lowered in lexicon.AMBIGUOUS_TECH
                    and index + 1 < len(doc)
                    and doc[index + 1].lower_ in WEEKDAYS
                ):
                    continue  # "before Black Friday": a day, not the formatter
                if (
                    width == 1
                    and index > 1
                    and doc[index - 1].lower_ in {"called", "named"}
                    and doc[index - 2].lemma_.lower() in ANIMALS | PET_WORDS
                ):
                    continue  # "a greyhound called Pip": a pet, not the installer
                if (
                    width == 1
                    and lowered in NAME_PREFIXES
                    and (
                        self.doc.user_data.get("source", text)[span.start_char].islower()
                        or (index + 1 < len(doc) and doc[index + 1].ent_type_ == "PERSON")
                    )
                ):
                    continue  # "my supervisor Mr. Lindqvist", "Clerk Bea Santos": a role
                if (
                    width == 1
                    and span[0].ent_type_ == "PERSON"
                    and span[0].ent_iob_ == "I"
                    and doc[index - 1].pos_ == "PROPN"
                    and doc[index - 1].text[:1].isupper()
                    and doc[index - 1].lower_ in lexicon.FIRST_NAMES
                ):
                    continue  # "Taylor Swift": the end of a person's name
                if (
                    width == 1
                    and lowered in lexicon.AMBIGUOUS_TECH
                    and span[0].ent_iob_ == "I"
                    and span[0].ent_type_ in {"ORG", "PERSON", "GPE", "FAC"}
                    and doc[index - 1].pos_ == "PROPN"
                    and doc[index - 1].text[:1].isupper()
                    and doc[index - 1].lower_ not in lexicon.TECHNOLOGIES
                    and doc[index - 1].lower_ not in TECH_VENDORS
                ):
                    continue  # "Maasvlakte Cargo", "Lagos Express": the end of another name
                if (
                    width == 1
                    and lowered in lexicon.FIRST_NAMES
                    and index + 1 < len(doc)
                    and doc[index + 1].pos_ == "PROPN"
                    and doc[index + 1].text[:1].isupper()
                    and doc[index + 1].lower_ not in lexicon.TECHNOLOGIES
                ):
                    continue  # "Julia Weber", "Ruby Chen": a person
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
                    and doc[tokens[-1].i + 1].lower_.rstrip(".") not in TRIM_WORDS
                    and doc[tokens[-1].i + 1].i not in self.by_token
                ):
                    tokens.append(doc[tokens[-1].i + 1])
                version = self._version_after(tokens[-1])
                cue = self._cue_type(tokens, "") if len(tokens) > len(found) else ""
                if len(tokens) > len(found) and tokens[-1].lower_.rstrip(".") in ORG_WORDS:
                    self._add(tokens, "organization", 0.8, origin="propn", cued=True)
                elif cue in {"event", "location", "organization", "document"}:
                    self._add(tokens, cue, 0.8, origin="propn", cued=True)  # "Harbor Lights
                    # Festival" is a festival, whatever "Harbor" is in the gazetteer
                else:  # "Harbor Print Ltd" is a company, "Docker Desktop" a technology
                    named = None
                    if version is not None:  # "PostgreSQL 14", "Oracle 19c": one name
                        named = self._text(tokens[0].idx, version.idx + len(version))
                    self._add(tokens, "technology", 0.9, origin="technology", cued=True, name=named)
                    if version is not None:
                        tokens.append(version)
                index = tokens[-1].i + 1
            else:
                index += 1

    def _cue_type(self, tokens, default: str) -> str:
        words = [t.lower_ for t in tokens]
        if len(words) > 1 and words[0] in TEAM_WORDS:
            return "organization"  # "Team Falcon"
        last = words[-1]
        following = tokens[-1].nbor(1).lower_ if tokens[-1].i + 1 < len(self.doc) else ""
        if (last in ORG_WORDS and len(words) > 1) or last in TEAM_WORDS or following in ORG_WORDS:
            return "organization"  # not "### Services" alone: a cue word names nothing
        if foreign_organization(words, [t.text for t in tokens]):
            return "organization"  # "Cooperativa Cabruca", "Ziraat Bankası", "Volvo AB"
        if (
            words[0] in PROJECT_WORDS
            or following in PROJECT_WORDS
            or (len(words) > 1 and last in PROJECT_WORDS)  # "Malaria Atlas Initiative"
        ):
            return "project"
        if last in DOCUMENT_WORDS or following in DOCUMENT_WORDS:
            return "document"
        if last in EVENT_WORDS or following in EVENT_WORDS:
            return "event"
        if (
            len(words) > 1
            and last.rstrip(".") in PLACE_CUES  # "Dundas St."
            and tokens[-1].text[:1].isupper()
            and words[0] not in lexicon.FIRST_NAMES
            and not (  # "Ji-woo Park": a surname that is also a place word
                any(t.ent_type_ == "PERSON" for t in tokens) and last in SURNAME_CUES
            )
        ):
            return "location"  # "Natural History Museum", "Riverside Park", "Kyoto Station"
        if (
            len(words) > 1
            and words[0].rstrip(".") in PLACE_OPENERS
            and tokens[0].text[:1].isupper()
            and tokens[-1].text[:1].isupper()
        ):
            return "location"  # "Mount Tam", "Lake Bled", "Gare du Nord"
        if any(CONFERENCE.search(t.text) for t in tokens):
            return "event"  # "PyCon US", "KubeCon Europe", "RailsConf"
        if last in COMPONENT_NOUNS:
            return "component"
        return default

    def _languages(self):
        """Languages, where the sentence uses one as a language ("replies in Kannada",
        "speaks Tagalog and Swahili", "her preferred language is Portuguese"), not as a
        nationality ("Ana is Portuguese") or a kind ("an English breakfast")."""
        accepted = set()
        for token in self.doc:
            if (
                token.i in self.by_token
                or token.lower_ not in lexicon.LANGUAGES
                or not token.text[:1].isupper()
            ):
                continue
            head = token.head
            used = (
                (token.dep_ == "pobj" and head.lower_ in {"in", "into", "to"})
                or (
                    token.dep_ in {"dobj", "attr", "oprd", "npadvmod"}
                    and head.lemma_.lower() in LANGUAGE_VERBS
                )
                or (
                    token.dep_ in {"attr", "acomp"}
                    and any(
                        c.dep_ in {"nsubj", "nsubjpass"} and c.lemma_.lower() == "language"
                        for c in head.children
                    )
                )
                or (token.dep_ in {"conj", "appos"} and head.i in accepted)
            )
            if used:
                accepted.add(token.i)
                self._add([token], "concept", 0.8, origin="propn", cued=True)

    def _named_entities(self):
        for ent in self._joined_people(self.doc.ents):
            type_ = NER_TYPES.get(ent.label_)
            if type_ is None:
                continue
            parts = self._split(self._widen(list(ent)))
            paired = len(parts) > 1 and any(t.text in {"&", "+"} for t in ent)
            for part in parts:
                tokens = self._trim(part)
                if paired and len(tokens) == 1 and tokens[0].lower_ in lexicon.GIVEN_NAMES:
                    type_ = "person"  # "Wout & Fien": two people, whatever the whole was
                # "Lolo Ising", "Oma Greet": a person, whatever the model took it for
                kin = bool(tokens) and after_kin_title(self.doc, tokens[0].i)
                if not tokens or not self._free(tokens):
                    continue
                if not any(t.text[:1].isupper() or t.like_num for t in tokens):
                    continue  # the model named a lower-case phrase: not a name
                if len(tokens) == 1 and tokens[0].lower_ in lexicon.NEVER_NAMES | VOCATIVES:
                    continue
                if len(tokens) == 1 and tokens[0].pos_ not in {"PROPN", "NOUN", "X"}:
                    if self._starts_sentence(tokens[0]) or tokens[0].pos_ != "VERB":
                        continue  # "Kwame's startup, Agrify, ...": a name tagged as a verb
                if all(t.like_num for t in tokens):
                    continue
                if any(t.like_num for t in tokens) and all(
                    t.like_num or t.lower_.rstrip(".") in MONTHS or t.is_punct for t in tokens
                ):
                    continue  # "on 9 Nov" the model took for a title: a date
                if len(tokens) == 1 and not kin and self._opens_other_language(tokens[0]):
                    continue
                if (
                    len(tokens) > 1
                    and tokens[-1].lower_ in TEAM_WORDS | ORG_NOUNS
                    and self._place_before_kind(tokens[:-1], tokens[-1].i)
                ):
                    tokens, type_ = tokens[:-1], "location"  # "the Osaka band Hoshizora"
                tokens = self._with_cue_noun(tokens)
                cue = "person" if kin else self._cue_type(tokens, "")
                if cue:
                    type_ = cue
                self._add(tokens, type_, 0.85, origin="ner", cued=bool(cue))

    def _joined_people(self, ents) -> list:
        """The model's named entities, two people's names that touch with one space between
        them and nothing else joined into one ("Project manager Farid Mansour said": the
        parser broke the sentence between "Farid" and "Mansour" and the model followed)."""
        joined: list = []
        for ent in ents:
            last = joined[-1] if joined else None
            if (
                last is not None
                and last.label_ == ent.label_ == "PERSON"
                and last.end == ent.start
                and self.doc[last.end - 1].whitespace_ == " "
                and all(t.text[:1].isupper() and t.pos_ == "PROPN" for t in (*last, *ent))
                and len(last) + len(ent) <= 4
            ):
                joined[-1] = self.doc[last.start : ent.end]
                joined[-1].label_ = "PERSON"
                continue
            joined.append(ent)
        return joined

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
                and (
                    previous.lower_ not in TRIM_WORDS
                    or self._name_particle([previous, *doc[first.i : tokens[-1].i + 1]])
                )
            ):
                first = previous  # "Min" of "Min Jin Lee"
            elif first.ent_type_ == "PERSON" and self._foreign_name_word(previous):
                # "Nguyễn Văn Tâm" with "Nguyễn" tagged an interjection
                first = previous
            else:
                break
        last = tokens[-1]
        while (
            last.ent_type_ == "PERSON"
            and last.dep_ == "compound"
            and last.i + 1 < len(doc)
            and last.head.i == last.i + 1
            and last.whitespace_
        ):  # "Professor Adaeze Obi" when the model named only "Adaeze": the surname too
            following = doc[last.i + 1]
            if (
                following.i in self.by_token
                or following.pos_ != "PROPN"
                or not following.text[:1].isupper()
                or following.ent_type_ not in {"", "PERSON"}
                or following.lower_ in TRIM_WORDS
            ):
                break
            last = following
        return list(self.doc[first.i : last.i + 1])

    def _with_cue_noun(self, tokens):
        """ "Orbit scheduler", "Data Platform group", "ledger DB": a name and the cue noun
        right after it are one entity."""
        after = tokens[-1].i + 1
        if (
            after < len(self.doc)
            and after not in self.by_token
            and self.doc[after].lower_ in COMPONENT_NOUNS | TEAM_WORDS | ORG_WORDS | EVENT_WORDS
            and self.doc[after].pos_ in {"NOUN", "PROPN"}
            and not self._place_before_kind(tokens, after)
            and not self._place_described(tokens, after)
        ):
            return tokens + [self.doc[after]]
        return tokens

    def _place_described(self, tokens, kind: int) -> bool:
        """ "Tidewell, a Wellington startup": a known place between "a" and a lower-case
        kind's word says where the thing described is; no name says "a" before it."""
        before = self.doc[tokens[0].i - 1] if tokens[0].i else None
        return (
            before is not None
            and before.lower_ in {"a", "an"}
            and self.doc[kind].text.islower()
            and known_place(" ".join(t.text for t in tokens))
        )

    def _with_me(self, token) -> bool:
        """Whether a capitalised word opening a sentence is joined to the writer ("Jess and
        I flew into El Calafate", "Mehmet & me"): someone's name."""
        after = self.doc[token.i + 1 : token.i + 3]
        return (
            len(after) == 2
            and after[0].lower_ in {"and", "&"}
            and after[1].text in {"I", "me"}
            and token.lower_ in lexicon.GIVEN_NAMES
        )

    def _proper_nouns(self):
        """Runs of proper nouns the named-entity model missed ("Phoenix rewrite")."""
        run: list = []
        for token in list(self.doc) + [None]:
            if (
                token is not None
                and self._free([token])
                and (
                    token.pos_ == "PROPN"
                    or self._capitalised_in_name(token)
                    or CAMEL_CASE.match(token.text)
                )
                and token.text[:1].isupper()
                and (
                    token.lower_ not in TRIM_WORDS
                    or (run and self._closing_name_word(run + [token]))
                    or (not run and self._name_particle(list(self.doc[token.i : token.i + 2])))
                )
                and not (token.lower_ in NAME_PREFIXES and self.source[token.idx].islower())
            ) or (token is not None and run and self._hyphen_join(token)):
                run.append(token)
                continue
            if run:
                tokens = self._trim(run)
                project_at = [i for i, t in enumerate(tokens) if t.lower_ in PROJECT_WORDS]
                if 0 < (project_at or [0])[0] < len(tokens) - 1:  # "Launch Project Marigold"
                    tokens = tokens[project_at[0] :]  # not "Malaria Atlas Initiative"
                if len(tokens) == 1 and tokens[0].lower_ in COMPONENT_NOUNS:
                    tokens = []  # a bare "DB", "API": the noun phrase names the thing
                if len(tokens) == 1 and tokens[0].lower_ in BEFORE_NAMES | VOCATIVES:
                    tokens = []  # "Postdoc" before "Lina Haddad", "Mayor": a role
                if (
                    len(tokens) == 1
                    and tokens[0].lower_ in HONORIFICS
                    and tokens[0].i + 1 < len(self.doc)
                    and any(
                        m.type == "person" and m.start == self.doc[tokens[0].i + 1].idx
                        for m in self.mentions
                    )
                ):
                    tokens = []  # "Don" before "Alirio Cuéllar": the word of respect
                if len(tokens) == 1 and self._field_key(tokens[0]):
                    tokens = []  # "- Role: data scientist at …": a field's key
                if tokens:
                    alone = (
                        len(tokens) == 1
                        and self._starts_sentence(tokens[0])
                        and tokens[0].lower_ not in lexicon.FIRST_NAMES
                        and tokens[0].lower_ not in lexicon.PLACES  # "- Kyoto (3 nights): …"
                        and not (  # "Acme's CTO, Dana Whitfield, ...": a possessor is a name
                            tokens[0].dep_ == "poss"
                            and tokens[0].i + 1 < len(self.doc)
                            and self.doc[tokens[0].i + 1].lower_ in {"'s", "’s"}
                        )
                        and not self._introduced_person(tokens[0])
                        and not (  # "Nordfrakt CEO Magnus Berg": an employer before a role
                            tokens[0].dep_ == "compound"
                            and tokens[0].head.lower_ in ROLE_WORK
                            and tokens[0].head.dep_ == "compound"
                        )
                        and not self._unknown_subject(tokens[0])
                        and not self._opening_name(tokens[0])
                        and not self._opening_cue(tokens[0])
                        and not self._listed_after_colon(tokens)
                        and not self._described_as(tokens[0])  # "Kelp, a Rust database"
                        and not self._with_me(tokens[0])  # "Jess and I flew into …"
                        and not self._name_key(tokens[0])  # "Selam: allergic to peanuts."
                    )
                    nxt = tokens[-1].i + 1
                    if (
                        nxt < len(self.doc)
                        and nxt not in self.by_token
                        and not self._place_before_kind(tokens, nxt)
                        and (
                            (self.doc[nxt].lower_ in TEAM_WORDS and self.doc[nxt].pos_ == "NOUN")
                            or (
                                self.doc[nxt].lower_.rstrip(".") in ORG_WORDS
                                and self.doc[nxt].text[:1].isupper()
                            )
                        )
                    ):  # "the Security team", "Spindle GmbH": the cue word is in the name
                        tokens = tokens + [self.doc[nxt]]
                        nxt += 1
                    cue = self._cue_type(tokens, "")
                    if (
                        not cue
                        and nxt < len(self.doc)
                        and self.doc[nxt].lower_ in COMPONENT_NOUNS | TEAM_WORDS
                    ):
                        tokens = tokens + [self.doc[nxt]]
                        cue = self._cue_type(tokens, "")
                    if not cue and len(tokens) == 1 and self._release_after(tokens[0]):
                        cue = "technology"
                    if cue:
                        self._add(tokens, cue, 0.7, origin="propn", cued=True)
                    elif (
                        not alone
                        and (len(tokens) <= 4 or (len(tokens) <= 6 and self._after_the(tokens)))
                        and not (len(tokens) == 1 and self._opens_other_language(tokens[0]))
                    ):
                        self._add(tokens, self._guess(tokens), 0.55, origin="propn")
                run = []

    def _listed_people(self):
        """ "- Kiri: finish riscv-backend / - Ömer: port the parser / - Sunita: …": a list
        whose items open with a name and a colon (two or more, a person among them) opens
        every other item with a person too, whatever the tagger made of the word."""
        keys = [(match.start(1), match.end(1)) for match in LISTED_KEY.finditer(self.source)]
        if len(keys) < 3:
            return
        named, people, unknown = 0, 0, []  # named: keys read as a person or an untyped name
        for start, end in keys:
            span = self.doc.char_span(start, end)
            if span is None or len(span) != 1:
                continue
            token = span[0]
            mention = self.by_token.get(token.i)
            if mention is not None:
                named += mention.type in {"person", "concept"}
                people += mention.type == "person" or token.lower_ in lexicon.FIRST_NAMES
            elif (
                token.lower_ not in lexicon.FIELD_KEYS | lexicon.NEVER_NAMES
                and not english_word(token.lower_)
                and self._free([token])
            ):
                unknown.append(token)
        if named >= 2 and people >= 1:
            for token in unknown:
                self._add([token], "person", 0.6, origin="propn", cued=True)

    def _and_names(self):
        """ "the Estonian Tax and Customs Board", "Fermanagh and Omagh District Council",
        "the Novosibirsk Opera and Ballet Theatre": capitalised words, "and", and a name
        ending in a body's word are one name, which the named-entity model cuts at "and"
        (not "Lisbon and Porto City Hall": a place the model knows stands alone)."""
        ordered = sorted(self.mentions, key=lambda m: m.start)
        for left, right in zip(ordered, ordered[1:], strict=False):
            if left not in self.mentions or right not in self.mentions:
                continue
            if (
                self.source[left.end : right.start] == " & "
                and "person" not in {left.type, right.type}
                and left.origin in {"ner", "propn"}
                and right.origin in {"ner", "propn", "technology"}
                and self.source[right.end : right.end + 1] not in {"&"}
                and not any(  # "Valeria & Sebastián", "Marta Ferreira & Bongani Nkosi"
                    m.name.split()[0].casefold() in lexicon.GIVEN_NAMES for m in (left, right)
                )
            ):  # "a Berlin agency called Pflaume & Pixel": one firm, not a firm and a Pixel
                span = self.doc.char_span(left.start, right.end, alignment_mode="expand")
                if span is not None and all(t.text[:1].isupper() or t.text == "&" for t in span):
                    for mention in (left, right):
                        self._drop(mention)
                    self._add(list(span), "organization", 0.7, origin="propn", cued=True)
                continue
            if self.source[left.end : right.start] != " and ":
                continue
            words = right.name.casefold().split()
            if len(words) < 2 or words[-1] not in AND_HEADS:
                continue  # (the model may take "Albert Museum" for a person: no name ends so)
            if left.type == "person" or left.origin not in {"ner", "propn"}:
                continue
            span = self.doc.char_span(left.start, right.end, alignment_mode="expand")
            if span is None or not all(
                t.text[:1].isupper() or t.lower_ == "and" or t.is_punct for t in span
            ):
                continue
            opening = next(t for t in span if t.idx >= right.start)  # the right name's first word
            if any(t.ent_type_ in {"GPE", "LOC"} for t in span if t.idx < left.end) and (
                opening.ent_type_ in {"GPE", "LOC"} or lexicon.GEO_NAMES.kind(opening.text)
            ):  # not "Lisbon and Porto City Hall"; "Victoria and Albert Museum" is one
                continue
            for mention in (left, right):
                self._drop(mention)
            type_ = "organization" if right.type == "person" else right.type
            self._add(list(span), type_, 0.7, origin="propn", cued=right.cued)

    def _after_the(self, tokens) -> bool:
        """Whether a run of capitalised words follows "the" inside a sentence: "director of
        the new West African Pathogen Genomics Hub", a long name, not a title-case line."""
        before = tokens[0].i - 1
        while before >= 0 and self.doc[before].pos_ == "ADJ" and self.doc[before].is_lower:
            before -= 1  # "the new", "the recently renamed"
        return before > tokens[0].sent.start and self.doc[before].lower_ == "the"

    def _connected_names(self):
        """A name whose parts a small word joins ("Torres del Paine", "Praia do Rosa",
        "Universidade de Lisboa", "Festival do Chocolate de Ilhéus", "Port of Spain",
        "Friends of Ngong Forest") is one name, though the named-entity model cuts it at
        the small word: the capitalised words on either side become one mention, typed by
        the cue of its first part (the head: a festival, a university, a port), else as its
        parts were. "of" joins only after a word that heads such names ("City of Ghent",
        not "Messi of Inter Miami" or "Head of Platform")."""
        doc = self.doc
        for token in doc:
            word = token.lower_
            if word not in NAME_CONNECTORS or not self.source[token.idx].islower():
                continue
            if token.i == 0 or token.i + 1 >= len(doc) or token.i in self.by_token:
                continue  # inside one name already ("Gare du Nord", "Pieter van Wyk")
            joining = [token]  # "Festival of the Arts", "Friends of the Earth"
            if word == "of" and doc[token.i + 1].text == "the" and token.i + 2 < len(doc):
                joining.append(doc[token.i + 1])
            before, after = doc[token.i - 1], doc[joining[-1].i + 1]
            if not (
                before.whitespace_ == " "
                and all(t.whitespace_ == " " for t in joining)
                and before.text[:1].isupper()
                and after.text[:1].isupper()
                and before.is_alpha
                and after.text.rstrip(".").isalpha()
            ):
                continue
            left = self._capitalised_run(before.i, -1)
            right = self._capitalised_run(after.i, 1)
            if not left or not right or len(left) + len(right) > 7:
                continue
            if word == "of" and left[-1].lower_ not in OF_HEADS:
                continue
            if word == "for" and left[-1].lower_ not in FOR_HEADS:
                continue  # "Kigali Centre for Contemporary Art", not "Ana for Kigali"
            parts = list({id(m): m for t in left + right if (m := self.by_token.get(t.i))}.values())
            if any(m.origin in FIXED_ORIGINS for m in parts):
                continue
            if any(m.start < left[0].idx for m in parts):
                continue  # "St. Clement's Academy of Iloilo": a name begun before the run
            tokens = [*left, *joining, *right]
            first = self.by_token.get(left[0].i)
            last = self.by_token.get(right[-1].i)
            kind = self._cue_type(left, "") or self._cue_type(tokens, "")
            if not kind and left[0].lower_ in lexicon.GIVEN_NAMES and len(left) <= 2:
                kind = "person"  # "Ana da Silva", "Pieter van Loon"
            known = [m.type for m in (first, last) if m is not None and m.type != "person"]
            kind = kind or (known[0] if known else "location")  # "Viña del Mar"
            for mention in parts:
                self._drop(mention)
            self._add(tokens, kind, 0.65, origin="propn", cued=bool(self._cue_type(left, "")))

    def _particle_names(self):
        """A person's name the named-entity model cut at its family-name particles ("Pieter
        van" + "der" + "Merwe" on a signature's line): the person, the lower-case particles
        after them and the capitalised name after those are one person."""
        doc = self.doc
        for person in sorted(self.mentions, key=lambda m: m.start):
            if person.type != "person" or person.origin != "ner" or person not in self.mentions:
                continue
            span = doc.char_span(person.start, person.end, alignment_mode="expand")
            if span is None:
                continue
            at = span.end
            while at < len(doc) and doc[at].text in PARTICLE_WORDS and at not in self.by_token:
                at += 1
            if at == span.end and span[-1].text not in PARTICLE_WORDS:
                continue
            rest = self.by_token.get(at) if at < len(doc) else None
            if (
                rest is None
                or rest.type != "person"
                or rest.start != doc[at].idx
                or any("\n" in t.whitespace_ for t in doc[span.start : at])
            ):
                continue
            tokens = list(doc[span.start : at]) + [t for t in doc[at:] if t.idx < rest.end]
            self._drop(person)
            self._drop(rest)
            self._add(tokens, "person", 0.8, origin="ner")

    def _run_on_names(self):
        """Two names side by side, the second ending in a word that ends organizations'
        names ("Nordic Seed" + "Vault Trust", "Lagos" + "Chamber Orchestra Society"), one
        space between them and nothing else: the named-entity model cut one name in two. They
        become one organization unless the first is a person ("Vault Trust" is no technology for
        its "Vault")."""
        by_start = {m.start: m for m in self.mentions}
        for first in list(self.mentions):
            second = by_start.get(first.end + 1)
            if second is None or self.source[first.end] != " " or first is second:
                continue
            words = second.name.split()
            if len(words) < 2 or words[-1].casefold() not in ORG_WORDS | AND_HEADS:
                continue
            if first.type == "person" or first.origin in FIXED_ORIGINS:
                continue
            if second.origin in FIXED_ORIGINS or len(first.name.split()) + len(words) > 6:
                continue
            if not all(w[:1].isupper() for w in first.name.split()):
                continue
            span = self.doc.char_span(first.start, second.end, alignment_mode="contract")
            if span is None or any(t.is_punct for t in span):
                continue
            self._drop(first)
            self._drop(second)
            merged = self._add(list(span), "organization", 0.65, origin="propn")
            if merged is not None:
                by_start[merged.start] = merged

    def _plural_possessive_names(self):
        """A name with a plural possessive inside ("Pirkanmaa Woodworkers' Guild",
        "Haeundae Girls' High School", "Westville Boys' High"), which the named-entity model
        cuts at the apostrophe: capitalised words, a capitalised plural with its apostrophe,
        capitalised words ending in a word that ends organizations' names (or "High"), one
        organization."""
        for found in PLURAL_POSSESSIVE_NAME.finditer(self.source):
            if found.group("last").casefold() not in ORG_WORDS | POSSESSIVE_NAME_HEADS:
                continue
            start, end = found.span()
            inside = [m for m in self.mentions if m.start < end and m.end > start]
            if any(m.start < start or m.end > end or m.origin in FIXED_ORIGINS for m in inside):
                continue
            span = self.doc.char_span(start, end, alignment_mode="contract")
            if span is None or span.end_char != end:
                continue
            for mention in inside:
                self._drop(mention)
            self._add(list(span), "organization", 0.65, origin="propn")

    def _hyphen_joined_names(self):
        """A name whose capitalised parts small words join with hyphens ("Hay-on-Wye",
        "Betws-y-Coed", "Javier Ruiz-del-Solar"), which the tokenizer cuts at every hyphen:
        one mention, with the words of a mention it overlaps, a person's name staying a
        person's, else a place unless a cue word says otherwise ("Pant-y-Gwyn Farm")."""
        for found in HYPHEN_JOINED_NAME.finditer(self.source):
            start, end = found.span()
            inside = [m for m in self.mentions if m.start < end and m.end > start]
            if any(m.origin in FIXED_ORIGINS for m in inside):
                continue
            if len(inside) == 1 and inside[0].start <= start and inside[0].end >= end:
                continue  # one name already
            start = min([start] + [m.start for m in inside])
            end = max([end] + [m.end for m in inside])
            span = self.doc.char_span(start, end, alignment_mode="expand")
            if span is None or any("\n" in t.whitespace_ for t in span[:-1]):
                continue
            person = next(
                (m for m in inside if m.type == "person" and m.start < found.start()), None
            )
            for mention in inside:
                self._drop(mention)
            if person is not None:
                self._add(list(span), "person", person.confidence, origin="propn", cued=person.cued)
                continue
            kind = self._cue_type(list(span), "location")
            self._add(list(span), kind, 0.7, origin="propn", cued=kind == "location")

    def _hyphen_prefixes(self):
        """ "Co-founders Wanjiru Kamau and ...", "Ex-colleague Ana": a prefix the tokenizer
        cut off a lower-case word at its hyphen is no name, capitalised as it may be."""
        doc = self.doc
        for token in doc:
            if token.lower_ not in HYPHEN_PREFIXES or token.i + 2 >= len(doc):
                continue
            hyphen, word = doc[token.i + 1], doc[token.i + 2]
            if hyphen.text != "-" or token.whitespace_ or hyphen.whitespace_:
                continue
            if not (word.is_alpha and word.text.islower()):
                continue
            mention = self.by_token.get(token.i)
            if mention is not None and mention.end <= token.idx + len(token) + 1:
                self._drop(mention)

    def _hyphened_names(self):
        """A name the tokenizer cut at a hyphen ("Croix-Rousse", "Samcheong-dong",
        "Tōdai-ji", "Kenroku-en", "SRE-EMEA") is one name: a mention on one side of a hyphen
        with no space around it takes the word on the other when that word is capitalised,
        or a short lower-case part no English word ("dong", "ji"; not "Berlin-based")."""
        doc = self.doc
        for token in doc:
            if token.text != "-" or token.i == 0 or token.i + 1 >= len(doc):
                continue
            left, right = doc[token.i - 1], doc[token.i + 1]
            if left.whitespace_ or token.whitespace_ or token.i in self.by_token:
                continue
            if not (left.is_alpha and right.is_alpha and left.text[:1].isupper()):
                continue
            written = self.source[right.idx : right.idx + len(right)]
            if not written[:1].isupper() and (
                len(written) > 4
                or written in ENGLISH_PARTS | HYPHEN_WORDS
                or (english_word(written) and written not in PLACE_SUFFIXES)
            ):
                continue  # "Berlin-based", "Tehran-born", "SIM-swap"
            parts = [m for m in (self.by_token.get(left.i), self.by_token.get(right.i)) if m]
            if len(parts) == 2 and parts[0] is parts[1]:
                continue  # one name already
            if not parts or any(m.origin in FIXED_ORIGINS for m in parts):
                continue
            span = [left, token, right]
            for mention in parts:
                inside = doc.char_span(mention.start, mention.end, alignment_mode="expand")
                if inside is not None:
                    span += list(inside)
            tokens = sorted({t.i: t for t in span}.values(), key=lambda t: t.i)
            if tokens[-1].i - tokens[0].i + 1 != len(tokens):
                continue
            kind, cued = parts[0].type, parts[0].cued
            for mention in parts:
                self._drop(mention)
            self._add(tokens, kind, 0.65, origin="propn", cued=cued)

    def _listed_before_technology(self, i: int) -> bool:
        """Whether token ``i`` opens ", tokio", " / Kafka", " and Postgres": a list whose
        next item is a technology no English word could be."""
        doc = self.doc
        if i + 1 >= len(doc) or doc[i].text not in {",", "/", "+", "&", "and"}:
            return False
        word = doc[i + 1].lower_
        return word in lexicon.TECHNOLOGIES and word not in lexicon.AMBIGUOUS_TECH

    def _capitalised_run(self, i: int, step: int) -> list:
        """The capitalised words of one line from token ``i`` on, going ``step`` (-1: to
        the left), a mention's words whole; no verb a sentence opens with ("Visited")."""
        doc, run = self.doc, []
        while 0 <= i < len(doc):
            token = doc[i]
            mention = self.by_token.get(i)
            if mention is None and not (
                token.text[:1].isupper()
                and token.text.rstrip(".").isalpha()
                and token.pos_ in {"PROPN", "NOUN", "ADJ"}
                and token.lower_ not in TRIM_WORDS
            ):
                break
            run.append(token)
            gap = doc[i - 1].whitespace_ if step < 0 and i > 0 else token.whitespace_
            if step > 0 and (gap != " " or i + 1 >= len(doc)):
                break
            if step < 0 and (i == 0 or gap != " "):
                break
            i += step
        run = run if step > 0 else run[::-1]
        if step > 0:  # a connector further on: "Chocolate de Ilhéus" goes on
            end = run[-1].i + 1 if run else i
            if (
                end + 1 < len(doc)
                and doc[end].lower_ in NAME_CONNECTORS - {"of", "for"}
                and doc[end + 1].text[:1].isupper()
                and run[-1].whitespace_ == " "
                and doc[end].whitespace_ == " "
            ):
                run += [doc[end], *self._capitalised_run(end + 1, 1)]
        return run

    def _joined_names(self):
        """Two names side by side where the first modifies the second ("Amazon" +
        "OpenSearch Service", "AWS" + "KMS", "Svalbard Global Seed" + "Vault") are one
        multi-word name: the parts become one mention, typed by its cue word or as the
        second part (its head)."""
        doc = self.doc
        keep = {"ner", "propn", "technology"}
        for left in sorted(self.mentions, key=lambda m: m.start):
            if left.origin not in keep or left.type == "person":
                continue
            span = doc.char_span(left.start, left.end, alignment_mode="expand")
            if span is None or span.end >= len(doc):
                continue
            last, first = span[-1], doc[span.end]
            right = self.by_token.get(first.i)
            if (
                right is None
                or right is left
                or right.origin not in keep
                or right.type == "person"
                or not last.whitespace_
                or "\n" in last.whitespace_
                or not first.text[:1].isupper()
                or not left.name[:1].isupper()
            ):
                continue
            other = doc.char_span(right.start, right.end, alignment_mode="expand")
            if other is None or other.start != first.i:
                continue
            inside = set(range(other.start, other.end))
            if last.head.i not in inside or last.dep_ not in {"compound", "nmod", "amod"}:
                continue
            if left.name.casefold() in HONORIFICS and len(right.name.split()) > 1:
                # "Don" + "Efraín Velásquez": the word of respect before a full name
                self.mentions = [m for m in self.mentions if m is not left]
                del self.by_token[last.i]
                continue
            tokens = list(doc[span.start : other.end])
            cue = self._cue_type(tokens, "")  # "Gare du Nord": a place by its cue, as told
            merged = Mention(
                left.start,
                right.end,
                _clean(self._text(left.start, right.end)),
                cue or right.type,
                max(left.confidence, right.confidence),
                right.origin,
                right.cued or bool(cue),
                right.root,
            )
            self.mentions = [m for m in self.mentions if m is not left and m is not right]
            self.mentions.append(merged)
            for token in tokens:
                self.by_token[token.i] = merged

    def _introduced_person(self, token) -> bool:
        """ "Mateus, our designer, lives in Porto": a sentence-opening proper noun with a
        role beside it, or that lives, says or marries, is a person's name."""
        if (
            token.pos_ != "PROPN"
            or token.lower_ in lexicon.NEVER_NAMES | lexicon.FIELD_KEYS
            or self.source[token.idx + len(token) : token.idx + len(token) + 1] == ":"
        ):
            return False  # "- Role: Staff SRE at Mercari" is a field
        if any(
            c.dep_ == "appos" and c.lemma_.lower() in ROLE_WORK | KIN_KNOWS for c in token.children
        ):
            return True
        if any(  # "Niccolò and Giulia both teach ...": coordinated with a person
            c.dep_ == "conj"
            and (
                (c.i in self.by_token and self.by_token[c.i].type == "person")
                or c.lower_ in lexicon.FIRST_NAMES
            )
            for c in token.children
        ):
            return True
        return token.dep_ == "nsubj" and token.head.lemma_.lower() in {
            "live",
            "say",
            "marry",
            "tell",
            "think",
            "feel",
            "grow",
        }

    def _unknown_subject(self, token) -> bool:
        """ "Linh collects film cameras", "Tele+ is built on Twilio": a sentence-opening
        proper noun that is the subject and no English word is a name."""
        return (
            token.dep_ in {"nsubj", "nsubjpass"}
            and token.pos_ == "PROPN"
            and len(token.text) > 2
            and token.lower_ not in lexicon.NEVER_NAMES
            and not english_word(token.text)
            and not english_word(token.lemma_)
        )

    def _named_after_kind(self):
        """ "the open-source library fastjsonl", "His main repo is tidepool", "the
        forecasting engine, tide-model,": a lower-case word no English dictionary knows,
        named by a system noun, is that system's name."""
        doc = self.doc
        for token in doc:
            if not token.text.islower() or token.i in self.by_token or token.is_stop:
                continue
            first = token
            if (
                token.i > 1
                and doc[token.i - 1].text == "-"
                and not doc[token.i - 1].whitespace_
                and not doc[token.i - 2].whitespace_
                and doc[token.i - 2].text.islower()
            ):
                first = doc[token.i - 2]  # "tide-model" read as "tide" "-" "model"
            words = [t.text for t in doc[first.i : token.i + 1] if t.text != "-"]
            if first is token and (english_word(token.text) or not token.text.isalpha()):
                continue
            if first is not token and all(english_word(w) for w in words) and token.dep_ != "appos":
                continue
            kind = None
            for child in token.children:
                if child.dep_ == "compound" and child.lemma_.lower() in APPOSED_SYSTEM_NOUNS:
                    kind = child.lemma_.lower()  # "library fastjsonl"
            if (
                token.dep_ == "appos"
                and token.head.lemma_.lower() in APPOSED_SYSTEM_NOUNS
                and doc[first.i - 1].text == ","
            ):
                kind = token.head.lemma_.lower()  # "the engine, tide-model, ..."
            if token.dep_ == "attr" and token.head.lemma_ == "be":
                subject = next(
                    (c for c in token.head.children if c.dep_ in {"nsubj", "nsubjpass"}), None
                )
                if subject is not None and subject.lemma_.lower() in APPOSED_SYSTEM_NOUNS:
                    kind = subject.lemma_.lower()  # "His main repo is tidepool"
            if kind is None or not self._free(doc[first.i : token.i + 1]):
                continue
            type_ = (
                "technology"
                if kind in {"library", "tool", "framework", "package"}
                else "project"
                if kind == "project"
                else "component"
            )
            self._add(list(doc[first.i : token.i + 1]), type_, 0.6, origin="identifier", cued=True)

    def _capitalised_in_name(self, token) -> bool:
        """A capitalised word the tagger did not call a proper noun: a known first name
        ("Ravi loves ..."), or a capitalised word inside a title ("Spirited Away")."""
        if (
            token.lower_ in lexicon.FIRST_NAMES
            and token.text[:1].isupper()
            and token.pos_ in {"NOUN", "ADJ", "VERB", "ADV", "INTJ", "X"}
            and token.dep_
            in {"nsubj", "conj", "appos", "advmod", "dobj", "pobj", "compound", "amod", "npadvmod"}
        ):
            return True  # "Léo is our contact", tagged an adverb
        if self._opening_name(token):
            return True
        if token.pos_ not in {"NOUN", "ADJ", "VERB"}:
            return False
        if self._opening_cue(token):
            return True
        if (
            lexicon.GEO_NAMES.kind(token.lower_) in {"city", "country", "state"}
            and token.lower_ in lexicon.PLACES
            and token.text[:1].isupper()
            and not self._starts_sentence(token)
        ):
            return True  # "Orbicule SAS, Toulouse", "Toulouse" tagged a common noun
        if (
            token.i > 0
            and self.doc[token.i - 1].pos_ == "PROPN"
            and self.doc[token.i - 1].dep_ == "compound"
            and self.doc[token.i - 1].head == token
            and self._foreign_name_word(token)
        ):
            return True  # "Joaquim Pires" with "Pires" tagged a plural noun: a surname
        nxt = token.i + 1
        return (
            not self._starts_sentence(token)
            and nxt < len(self.doc)
            and self.doc[nxt].pos_ == "PROPN"
            and self.doc[nxt].text[:1].isupper()
            and self.doc[nxt].i not in self.by_token
        )

    def _opening_cue(self, token) -> bool:
        """A capitalised word opening a sentence that the words after it show to be a name:
        a known place before "-based" ("Tallinn-based Rattaveer raised …") or a product
        before its release number (``_release_after``)."""
        if not (self._starts_sentence(token) and token.text[:1].isupper() and token.is_alpha):
            return False
        following = self.doc[token.i + 1 : token.i + 3]
        if (
            len(following) == 2
            and following[0].text == "-"
            and not token.whitespace_
            and following[1].lower_ in PLACE_HYPHEN_WORDS
            and lexicon.GEO_NAMES.kind(token.lower_)
        ):
            return True
        return self._release_after(token)

    def _listed_after_colon(self, tokens) -> bool:
        """ "Sponsors confirmed: Safaricom, One Acre Fund": a capitalised word right after a
        colon in its line, followed by a comma and another capitalised word, is the first
        item of a list of names (the parser opens a sentence at the colon)."""
        first, last = tokens[0], tokens[-1]
        if first.i < 2 or last.i + 2 >= len(self.doc):
            return False
        before = self.doc[first.i - 1]
        if before.text != ":" or "\n" in self.doc[before.i - 1].text_with_ws:
            return False
        comma, following = self.doc[last.i + 1], self.doc[last.i + 2]
        return comma.text == "," and following.text[:1].isupper() and following.is_alpha

    def _release_after(self, token) -> bool:
        """ "Tesseract 5.3.0 segfaulting on tiled TIFFs": a capitalised word before a dotted
        release number names a product (not "Release 5.2.0 of …", ``RELEASE_WORDS``)."""
        nxt = token.i + 1
        return (
            nxt < len(self.doc)
            and token.is_alpha
            and token.whitespace_
            and token.text[:1].isupper()
            and not token.text.isupper()
            and token.lower_ not in RELEASE_WORDS
            and bool(DOTTED_VERSION.match(self.doc[nxt].text))
        )

    def _opening_name(self, token) -> bool:
        """ "Northwind is a logistics firm", "Ledgerly uses Kafka", "Kelp, a Rust-based
        database, ...": a sentence's capitalised first word the tagger took for a common
        word is a name when no English dictionary knows it and it is the clause's subject, or
        when a noun beside it says what kind of thing it is."""
        if not (
            self._starts_sentence(token)
            and token.pos_ in {"NOUN", "ADJ", "ADV", "VERB", "X"}
            and token.is_alpha
            and len(token.text) > 2
            and token.text[:1].isupper()
            and not token.text.isupper()
            and token.lower_ not in lexicon.NEVER_NAMES | lexicon.FIELD_KEYS
            and self.source[token.idx + len(token) : token.idx + len(token) + 1] != ":"
        ):
            return False
        if self._described_as(token):
            return True
        return (
            token.dep_ in {"nsubj", "nsubjpass", "advmod", "npadvmod"}
            and token.head.pos_ in {"VERB", "AUX"}
            and token.head.i > token.i
            and not english_word(token.text)
            and not english_word(token.lemma_)
        )

    def _hyphen_join(self, token) -> bool:
        """The hyphen of "Ji-woo" or the second part after it."""
        doc = self.doc
        if token.text == "-" and not token.whitespace_ and token.i + 1 < len(doc):
            return doc[token.i - 1].text[:1].isupper() and not doc[token.i - 1].whitespace_
        if token.text.islower() and (
            token.tag_ == "VBN" or token.lower_ in PLACED_PARTICIPLES | HYPHEN_WORDS
        ):
            return False  # "Tallinn-based Veski Labs", "Covid-era": a name and a word about it
        return token.i > 0 and doc[token.i - 1].text == "-" and not doc[token.i - 1].whitespace_

    def _opens_other_language(self, token) -> bool:
        """ "Andito na ako", "Dale tía!", "Salamat sa Diyos", "Llevo el pebre": a word that
        opens a sentence or a turn, followed by lower-case words no English dictionary
        knows, is a word of another language, not a name, unless a list knows the name."""
        opening = self._starts_sentence(token) or (
            token.i > 0 and self.doc[token.i - 1].text == ":"
        )
        if not opening or token.i + 1 >= len(self.doc):
            return False
        lowered = token.lower_
        if (
            lowered in lexicon.GIVEN_NAMES
            or lowered in lexicon.PLACES
            or lexicon.GEO_NAMES.kind(lowered)
            or lowered in lexicon.TECHNOLOGIES
        ):
            return False
        words = []
        for following in self.doc[token.i + 1 : token.i + 4]:
            if not following.is_alpha or not following.text.islower():
                break
            if len(following) >= 3:  # "na", "sa", "el": short words pass for English
                words.append(following.lower_)
        return bool(words) and not any(english_word(w) for w in words)

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

    def _classes(self):
        """ "signed up for a pottery class", "my first salsa lessons": the activity a class
        teaches is a concept."""
        for token in self.doc:
            if token.lemma_.lower() not in CLASS_WORDS or token.pos_ != "NOUN":
                continue
            taught = [c for c in token.children if c.dep_ == "compound" and c.pos_ == "NOUN"]
            if len(taught) == 1 and self._free(taught) and taught[0].text.islower():
                self._add(taught, "concept", 0.6, origin="chunk", cued=True)

    def _chunks(self):
        """Common-noun phrases that name a thing: "billing service", "data team",
        "dark mode" as an object of a taste or use verb."""
        for chunk in self.doc.noun_chunks:
            owned = {  # "Priya Nair's checkout team": the possessor is no part of the name
                t.i
                for c in chunk.root.children
                if c.dep_ == "poss" and chunk.root.lower_ in TEAM_WORDS | ORG_WORDS
                for t in c.subtree
            }
            tokens = self._trim([t for t in chunk if t.i not in owned])
            tokens = self._trim(
                [
                    t
                    for t in tokens
                    if t.pos_ not in {"ADJ", "NUM"}
                    or t.dep_ == "compound"
                    or (t.dep_ == "amod" and t.head.lower_ in {"mode", "milk", "learning"})
                    or (  # "the mobile team", "the frontend guild"
                        t.dep_ == "amod"
                        and t.head.lower_ in TEAM_WORDS
                        and t.lower_ in UNIT_ADJECTIVES
                    )
                    or (  # "Thai food", "flat whites", "mapo tofu": the kind is part of it
                        t.dep_ == "amod"
                        and t.head == chunk.root
                        and self._taste_object(chunk.root)
                        and (
                            t.text[:1].isupper()
                            or (t.lower_, chunk.root.lemma_.lower()) in FOOD_PHRASES
                            or (t.is_alpha and not english_adjective(t.lower_))
                            or _kind_adjective(t)
                        )
                    )
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
            if head.pos_ == "PRON" or lowered in GENERIC_HEADS:
                continue
            if lowered in lexicon.NEVER_NAMES and not (modifiers and lowered in TEAM_WORDS):
                continue  # "team" alone is no name, "the data team" is
            if (
                modifiers
                and lowered in COMPONENT_NOUNS
                and head.pos_ in {"NOUN", "PROPN"}
                and (self._technical or lowered in SYSTEM_NOUNS)
            ):
                if any(m.lower_ in GENERIC_HEADS or m.like_num for m in modifiers):
                    continue
                if self._describes_a_name(head) and any(
                    c.dep_ == "det" and c.lower_ in {"a", "an"} for c in head.children
                ):
                    continue  # "Project Colibrí, a driver-routing engine": what it is
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
                if self._describes_a_name(head):
                    continue  # "Baobab Health, a telemedicine startup": a description
                self._add(tokens, "organization", 0.7)
            elif modifiers and lowered in EVENT_WORDS and any(m.pos_ == "PROPN" for m in modifiers):
                self._add(tokens, "event", 0.65)
            elif (
                self._taste_object(head)
                and not any(  # "obsessed with that framework": the one named before
                    c.dep_ == "det" and c.lower_ in {"that", "this", "those", "these"}
                    for c in head.children
                )
                and not (
                    head.dep_ == "conj"
                    and head.lower_.endswith("s")
                    and head.tag_ == "NNS"
                    and _verb_lemma(head) in VERB_RULES
                    and any(c.dep_ == "prep" for c in head.children)
                )
            ):  # "plays its home games there and competes in X": a verb read as a noun
                food = self._food_word(head) or any(
                    (t.lower_, head.lemma_.lower()) in FOOD_PHRASES for t in tokens
                )
                thing = food or lowered in ANIMALS or head.lemma_.lower() in INSTRUMENTS
                kind = "other" if thing else "concept"
                self._add(tokens, kind, 0.6)

    def _taste_words(self):
        """ "can't stand okra", "his favourite drink is zobo": a thing a taste is of that the
        tagger read as an adjective or a verb (a word it does not know) is a thing all the
        same, unless it is one ("can't stand cold", "her favourite colour is blue")."""
        for token in self.doc:
            if (
                token.i in self.by_token
                or token.dep_ not in {"dobj", "acomp", "attr", "advmod", "xcomp"}
                or not (token.is_alpha and token.is_lower)
                or not (
                    (token.pos_ == "ADJ" and not english_adjective(token.lower_))
                    or (token.pos_ == "VERB" and not english_word(token.lower_))
                    or (token.pos_ == "NOUN" and token.dep_ == "acomp")  # "… is manakish"
                    or _allergen_read_as_verb(token)
                )
            ):
                continue
            if self._taste_object(token):
                food = self._food_word(token) or token.head.lemma_ != "be"
                self._add([token], "other" if food else "concept", 0.6, origin="chunk", cued=True)

    @staticmethod
    def _food_word(token) -> bool:
        """Whether ``token`` names a food or drink: a known one, or what a favourite food or
        drink is said to be ("his favourite drink is zobo")."""
        if token.lower_ in FOODS or token.lemma_.lower() in FOODS:
            return True
        return token.dep_ in {"attr", "acomp"} and any(
            c.dep_ == "nsubj" and c.lemma_.lower() in FOODS | FOOD_KINDS
            for c in token.head.children
        )

    def _field_key(self, token) -> bool:
        """ "- Role: data scientist at …", "- Stack: Polars; stopped using pandas": a line's
        key before its colon, no name (whatever the tagger made of it) and no subject of
        the line's verb."""
        end = token.idx + len(token)
        if self.source[end : end + 1] != ":":
            return False
        return token.lower_ in lexicon.FIELD_KEYS or self._line_key(token.idx, token.text)

    def _name_key(self, token) -> bool:
        """ "Selam: allergic to peanuts. Loves Ethiopian food.": a word no dictionary knows,
        tagged a proper noun, opening a line before its colon (no field's key, no month,
        ``_field_key`` said so) is the name the line's notes are about."""
        end = token.idx + len(token)
        line = self.source[self.source.rfind("\n", 0, token.idx) + 1 : token.idx]
        said = self.source[end + 1 : end + 3].lstrip(" ")
        return (
            self.source[end : end + 1] == ":"
            and token.pos_ == "PROPN"
            and token.is_alpha
            and token.text[:1].isupper()
            and not token.text.isupper()
            and said[:1].isalpha()
            and said[:1].islower()  # a note on them, not a value ("Auth: Ory Kratos")
            and not line.strip(" \t-•>")  # not bold: "**Sangeet:** night before"
            and token.lower_ not in lexicon.NEVER_NAMES
            and not english_word(token.lower_)
            and not any(  # "Hodan Farah (…)" / "- Hodan: …": the name said before
                m.start != token.idx and token.lower_ in m.name.casefold().split()
                for m in self.mentions
            )
        )

    def _line_key(self, start: int, name: str) -> bool:
        """ "Jul: map the aisles" (beside "Aug: …"), "Replaces: nas-old", "Runbook: …": a
        word opening a line before its colon that is a schedule's month, a note's label or
        a common English word (no given name, no place, no name the named-entity model
        reads there) labels the line."""
        line = self.source[self.source.rfind("\n", 0, start) + 1 : start]
        word = name.casefold()
        if " " in word or line.strip(" \t-*•>#0123456789.)"):
            return False
        if word.rstrip(".") in MONTHS and months_opening(self.source) >= 2:
            return True  # "Jan: draft" / "Mar: review": a schedule's months
        if word in lexicon.GIVEN_NAMES or word in lexicon.PLACES:
            return False
        if word in lexicon.NOTE_WORDS or word in lexicon.FIELD_KEYS:
            return True
        span = self.doc.char_span(start, start + len(name), alignment_mode="expand")
        return english_word(word) and not (
            span is not None and any(t.ent_type_ in NAMED_TYPES for t in span)
        )

    def _describes_a_name(self, head) -> bool:
        """ "Baobab Health, a telemedicine startup", "a small company called Zeytin Co.":
        a common noun beside a name, or naming one, describes it and is no entity."""
        if head.dep_ == "appos" and head.head.i in self.by_token:
            return True
        if head.dep_ == "attr" and any(
            c.dep_ == "nsubj" and c.i in self.by_token for c in head.head.children
        ):
            return True
        return any(
            c.dep_ in {"acl", "appos"} and (c.lower_ in {"called", "named"} or c.i in self.by_token)
            for c in head.children
        )

    @staticmethod
    def _taste_object(token) -> bool:
        verb = token.head
        if token.dep_ == "conj":
            while token.dep_ == "conj":
                token = token.head
            verb = token.head
        if token.dep_ in {"attr", "acomp"} and verb.lemma_ == "be":
            return any(  # "his favourite drink is zobo", "my favourite snack is manakish"
                c.dep_ == "nsubj" and any(m.lower_ in FAVOURITE for m in c.children)
                for c in verb.children
            )
        if verb.lemma_ == "stand" and any(c.dep_ == "neg" for c in verb.children):
            return token.dep_ in {"dobj", "acomp", "advmod"}  # "can't stand okra"
        if _allergen_read_as_verb(token):
            return True
        if token.dep_ not in {"dobj", "pobj", "xcomp"}:
            return False
        if token.dep_ == "pobj":
            if verb.lower_ == "to" and verb.head.lower_ in ALLERGY_WORDS:
                return True  # "allergic to peanuts and shellfish"
            if (verb.lower_, verb.head.lower_) in TASTE_PHRASES or (
                verb.lower_ == "into" and verb.head.lemma_ == "be"
            ):
                return True  # "interested in photography", "really into pottery"
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
            "cook",
            "bake",
            "order",
            "crave",
            "play",
            "practice",
            "practise",
            "learn",
            "study",
            "teach",
            "major",
            "research",
            "fan",
        }

    @staticmethod
    def _kin_listed(token) -> bool:
        """Whether ``token`` follows the first of names in apposition to a plural kin word
        ("my two nephews, Jasur and Bekzod", "her daughters Ama, Esi and Afia")."""
        first = token
        while first.dep_ == "conj" and first.head.i != first.i:
            first = first.head
        kin = first.head
        return (
            first.dep_ in {"appos", "compound"}
            and kin.tag_ == "NNS"
            and kin.lemma_.lower() in KIN_WORDS
            and first.i > kin.i
        )

    def _retype(self):
        """Type the names the model typed by guess from what the sentence does with them:
        a known given name, the subject of a human verb, the one met with or mentored is a
        person; the place one works at, joins or leaves is an organization."""
        for mention in self.mentions:
            if mention.cued or mention.origin not in {"ner", "propn"} or mention.root < 0:
                continue
            if mention.name.casefold() in HOLIDAYS:
                mention.type, mention.cued = "event", True  # "every Christmas", "for Diwali"
                continue
            head = self.doc[mention.root]
            verb, dep = head.head, head.dep_
            lemma = verb.lemma_.lower()
            if dep == "pobj":
                preposition, lemma = verb.lower_, verb.head.lemma_.lower()
            else:
                preposition = ""
            first = mention.name.split()[0].casefold()
            if (
                mention.name.casefold() in lexicon.PLACES
                and (mention.type != "location" or preposition)
                and (
                    preposition in {"in", "near", "around", "across"}  # "restaurants in Milan"
                    or (
                        (preposition in {"from", "to", "into"} or mention.type != "organization")
                        and first not in lexicon.FIRST_NAMES
                    )
                )
            ):
                mention.type = "location"  # "a nurse from Karachi": a city, whatever the model says
                continue
            described = self._described_as(head)
            if described:  # "The Overstory is a novel": the noun is a cue the typer keeps
                mention.type, mention.cued = described, True
                mention.stated = (
                    (head.dep_ == "nsubj" and head.head.lemma_ == "be")
                    or (described == "organization" and self._after_kind_word(mention))
                    or (  # "Her dog is Max", "a greyhound named Luna": a pet, said so
                        described == "other"
                        and (head.dep_ == "attr" or head.head.lower_ in {"named", "called"})
                    )
                )  # "esports organisation Savannah Storm": the noun names its kind
                continue
            if dep == "conj" and mention.type != "person" and self._kin_listed(head):
                mention.type = "person"  # "my two nephews, Jasur and Bekzod"
                continue
            guessed = (first not in lexicon.FIRST_NAMES and mention.type != "person") or (
                mention.type == "person" and mention.origin == "propn"
            )
            if guessed:
                moved_to_place = (
                    mention.type == "location"
                    and preposition in {"to", "in", "into", "from"}
                    and lemma in PLACE_VERBS
                )  # "I moved to Lisbon" in a technical note: still a place
                if not moved_to_place and (
                    (dep == "dobj" and lemma in TECH_OBJECT_VERBS)
                    or (
                        preposition in {"with", "via", "through", "on", "onto", "to", "from", "in"}
                        and lemma in TECH_PREP_VERBS
                        and self._technical
                    )
                ):
                    mention.type = "technology"
                    continue
                if dep == "dobj" and lemma in WORK_VERBS:
                    mention.type = "document"  # "finished Norwegian Wood", "watched Dune"
                    continue
                if dep == "dobj" and lemma in PLACE_OBJECT_VERBS:
                    mention.type = "location"
                    continue
            if (
                preposition == "at"
                and (
                    lemma in EVENT_AT_WORDS
                    or any(  # "gave a talk at", "had a booth at"
                        c.dep_ == "dobj" and c.lemma_.lower() in EVENT_AT_WORDS
                        for c in verb.head.children
                    )
                )
                and first not in lexicon.FIRST_NAMES
                and (
                    mention.type in {"organization", "person"}
                    or (
                        mention.type == "location"
                        and mention.name.casefold() not in lexicon.PLACES
                        and not lexicon.GEO_NAMES.kind(mention.name.casefold())
                        and mention.name.casefold().split()[-1] not in VENUE_WORDS
                    )
                )
            ):  # "speaking at BSides Tel Aviv", "a talk at PyData Berlin": an event
                mention.type, mention.cued = "event", True
                continue
            if (
                dep == "poss"
                and lemma in COMPANY_SITES
                and mention.type == "location"
                and mention.name.casefold() not in lexicon.PLACES
            ):  # "works at Mango's head office": the company whose office it is
                mention.type, mention.cued = "organization", True
                continue
            if (
                preposition == "at"
                and lemma in OUTING_WORDS
                and mention.type in {"organization", "person"}
                and first not in lexicon.FIRST_NAMES
                and not any(w.casefold() in lexicon.FIRST_NAMES for w in mention.name.split())
            ):  # "dinner at Padella", "drinks at Zuma": a place one goes
                mention.type, mention.cued = "location", True
                continue
            if (
                preposition in {"at", "for"}
                and (lemma in WORK_AT_VERBS or lemma in ROLE_WORK or lemma in EMPLOYED_WORDS)
                and mention.type in {"location", "concept", "other"}
                and first not in lexicon.FIRST_NAMES
            ):  # "I teach chemistry at Hollins High", "Staff SRE at Mercari", "a job at Ubisoft"
                mention.type = "organization"
                continue
            if mention.type == "person":
                if (
                    preposition == "at"
                    and first not in lexicon.FIRST_NAMES
                    and not any(w.casefold() in lexicon.FIRST_NAMES for w in mention.name.split())
                ):
                    mention.type = "organization"  # "dinner at Sushi Hana": a place one goes
                    continue
                if dep == "dobj" and lemma in WORK_VERBS and first not in lexicon.FIRST_NAMES:
                    mention.type = "document"  # "finished reading Atomic Habits"
                    continue
                if (dep == "dobj" and lemma in {"join", "leave"}) or (
                    preposition in {"at", "for", "from"} and lemma in {"work", "intern", "join"}
                ):
                    if first not in lexicon.FIRST_NAMES and not _a_country(mention.name):
                        mention.type = "organization"
                elif (
                    (
                        (
                            preposition in {"to", "in", "into", "from", "near"}
                            and lemma in PLACE_VERBS
                        )
                        or preposition in {"in", "near", "around", "across", "outside"}
                    )
                    and first not in lexicon.FIRST_NAMES
                    and not any(w.casefold() in lexicon.FIRST_NAMES for w in mention.name.split())
                ):
                    mention.type = "location"  # "a surgeon in Cappadocia": no one is in a person
                continue
            if (
                mention.type == "technology"
                and first in lexicon.FIRST_NAMES
                and (
                    (dep in {"nsubj", "nsubjpass"} and lemma in HUMAN_VERBS)
                    or (  # "my partner Ines": a given name beside a kin word
                        dep == "appos" and verb.lemma_.lower() in KIN_KNOWS | KIN_MARRIED
                    )
                    or mention.name.casefold() not in lexicon.TECHNOLOGIES
                )
            ):  # "Lars owns search-api": a given name that owns, reviews, says
                mention.type = "person"
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
                mention.type == "location"
                and first not in lexicon.FIRST_NAMES
                and self.source[mention.end : mention.end + 1] == ":"
            ):
                continue  # a place that heads a line stays a place: "- Osaka: meet Daisuke"
            if (
                first in lexicon.FIRST_NAMES
                or (dep == "nsubj" and lemma in HUMAN_VERBS)
                or (dep == "dobj" and lemma in HUMAN_OBJECT_VERBS)
                or (preposition == "with" and lemma in MEET_VERBS)
                or (
                    preposition == "by"
                    and lemma in HUMAN_AGENT_VERBS
                    and mention.type != "organization"  # "owned by Platform Engineering"
                )
                or (
                    dep == "appos"
                    and verb.lower_ in KIN_WORDS
                    and 0 < head.i - verb.i <= 2  # "my wife Huda", not "wife Huda: Doha"
                )
            ):
                mention.type = "person"
            elif (
                (dep == "dobj" and lemma in {"join", "leave"})
                or (preposition in {"at", "for", "from"} and lemma in {"work", "intern", "join"})
            ) and not _a_country(mention.name):  # "left Zalando", not "left Ghana in 1976"
                mention.type = "organization"

    def _employers(self):
        """ "works at Stripe", "our contact at Datadog", "joined Shopify": a company that
        is also a product, where one works, is the company."""
        for mention in self.mentions:
            if mention.type != "technology" or mention.root < 0 or not mention.name[:1].isupper():
                continue
            head = self.doc[mention.root]
            attached = head.head.head if head.dep_ == "pobj" else None
            if (
                head.dep_ == "pobj"
                and head.head.lower_ in {"at", "for"}
                and (
                    attached.lemma_.lower() in WORK_AT_VERBS | {"join", "intern", "enroll"}
                    or attached.lower_ in ROLE_WORK | EMPLOYED_WORDS
                    or attached.lemma_.lower() in ROLE_WORK | STUDENT_WORDS
                )
            ) or (head.dep_ == "dobj" and head.head.lemma_.lower() in {"join", "leave", "quit"}):
                mention.type = "organization"

    @property
    def _technical(self) -> bool:
        return bool(self.doc.user_data.get("technical"))

    def _described_as(self, head) -> str:
        """The type a common noun beside the name gives it: "Boulangerie Roux, a small
        bakery", "the company is Verdant Bio", "our dog Churro", "the city of Lyon"."""
        nouns = [c for c in head.children if c.dep_ == "appos"]
        while head.dep_ == "conj" and head.head != head:  # "kittens, Churro and Pimienta"
            head = head.head
            if head.tag_ == "NNS" and head.i not in self.by_token:
                nouns.append(head)  # "two kittens, Churro and Pimienta" read as a list
        if head.dep_ == "appos" or (head.dep_ == "attr" and head.head.lemma_ == "be"):
            nouns.append(head.head)
        if head.dep_ == "attr":
            nouns.extend(c for c in head.head.children if c.dep_ == "nsubj")
        if head.dep_ == "nsubj" and head.head.lemma_ == "be":  # "Atlas is our data catalog"
            nouns.extend(c for c in head.head.children if c.dep_ == "attr")
        if head.head.lower_ in {"named", "called"} and head.head.dep_ == "acl":
            nouns.append(head.head.head)  # "a dog named Juniper"
        if head.dep_ == "compound" or head.dep_ == "pobj" and head.head.lower_ == "of":
            nouns.append(head.head if head.dep_ == "compound" else head.head.head)
        nouns.extend(  # "logistics firm Maasvlakte Cargo", "her band Tide Static"
            c
            for c in head.children
            if c.dep_ == "compound" and c.pos_ == "NOUN" and c.i < head.i and c.is_lower
        )
        if any(c.dep_ == "amod" and c.lower_ in PLACED_PARTICIPLES for c in head.children):
            return "organization"  # "Helsinki-based Lumora"
        for noun in nouns:
            lemma = noun.lemma_.lower()
            if noun.i in self.by_token or (
                noun.pos_ != "NOUN" and lemma not in ANIMALS | PET_WORDS  # "- Dog: Churro"
            ):
                continue
            if lemma in ORG_NOUNS or (
                noun.dep_ == "attr"
                and any(c.dep_ == "amod" and c.lower_ in PLACED_PARTICIPLES for c in noun.children)
            ):  # "Hexagon Pelican is a Montreal-based collective"
                return "organization"
            if lemma in ROLE_WORK and noun.dep_ == "appos" and noun.head.i == head.i:
                return "person"  # "Lina, a former Google engineer"
            if lemma in PLACE_NOUNS:
                return "location"
            if lemma in ANIMALS or lemma in PET_WORDS:
                return "other"
            if lemma in SYSTEM_KIND_NOUNS and head.lower_ not in lexicon.FIRST_NAMES:
                return SYSTEM_KIND_NOUNS[lemma]  # "Atlas is our data catalog"
            if lemma in WORK_NOUNS and head.lower_ not in lexicon.FIRST_NAMES:
                return "document"  # "Atomic Habits, such a good book", not "a song, Caroline"
            if lemma in EVENT_KIND_NOUNS and head.lower_ not in lexicon.FIRST_NAMES:
                return "event"  # "Sónar is a festival", "Mela Fest, the city's summit"
        return ""

    def _team_names(self):
        """ "the Android team", "the ML platform team", "Team Falcon": a name that
        modifies a team word, or that a capitalised team word opens, names the team."""
        doc = self.doc
        for mention in list(self.mentions):
            if mention.root < 0 or mention.origin == "speaker":
                continue
            span = doc.char_span(mention.start, mention.end, alignment_mode="expand")
            if span is None:
                continue
            tokens = list(span)
            head = doc[mention.root]
            if (
                head.dep_ == "compound"
                and head.head.lower_ in TEAM_WORDS
                and head.head.i > head.i
                and not self._place_before_kind(tokens, head.head.i)
            ):
                between = list(doc[span.end : head.head.i + 1])
                if len(between) <= 3 and all(
                    t.i not in self.by_token and t.pos_ in {"NOUN", "PROPN", "ADJ"} for t in between
                ):
                    tokens = tokens + between
            elif (
                span.start > 0
                and doc[span.start - 1].text in {"Team", "Squad"}
                and span.start - 1 not in self.by_token
            ):
                tokens = [doc[span.start - 1]] + tokens
            if len(tokens) == len(span):
                continue
            self._drop(mention)
            self._add(tokens, "organization", mention.confidence, origin=mention.origin, cued=True)

    def _aliases(self):
        """A first or last name alone stands for the one full name of the text that it
        opens or ends ("Farid Haddad ... Farid reports to ..."): one entity, not two."""
        full = [m for m in self.mentions if m.type == "person" and len(m.name.split()) > 1]
        self._unclaimed_surnames(full)
        for mention in self.mentions:
            if mention.origin == "speaker" or " " in mention.name:
                continue
            # "Piet Kloosterhuis became chief executive ... Kloosterhuis previously worked":
            # a person's surname after their full name, whatever the model took it for
            surnamed = mention.name.casefold() not in lexicon.TECHNOLOGIES and any(
                m.end <= mention.start and m.name.split()[-1] == mention.name for m in full
            )
            if mention.type != "person" and (
                mention.type == "location"
                or (mention.cued and mention.name.casefold() not in lexicon.GIVEN_NAMES)
                or mention.stated
                or (
                    mention.type not in {"concept", "other"}
                    and mention.name.casefold() not in lexicon.GIVEN_NAMES
                    and not lexicon.is_surname(mention.name)
                    and not surnamed
                )
            ):
                continue
            names = {
                m.name
                for m in full
                if mention.name in (m.name.split()[0], m.name.split()[-1])
                and not set(m.name.casefold().split()) & (SPEAKER_TITLES | HONORIFICS)
                and (
                    mention.type == "person"
                    or m.name.split()[0].casefold() in lexicon.GIVEN_NAMES
                    or (surnamed and m.name.split()[-1] == mention.name)
                )
            }
            if len(names) > 1:  # "Grace Whitfield ... Whitfield says ... Tom Whitfield":
                names &= {m.name for m in full if m.end <= mention.start}  # the one before
            if len(names) == 1:  # "Thandiwe Mokoena ... Mokoena was previously ...": the
                mention.name, mention.type = names.pop(), "person"  # one person named so
        # "Brandwijk Holding ... Brandwijk, headquartered in Utrecht": a company named
        # later by the first word of its name alone (not a person's given name)
        companies = [
            m for m in self.mentions if m.type == "organization" and len(m.name.split()) > 1
        ]
        for mention in self.mentions:
            if " " in mention.name or mention.origin == "speaker" or mention.type == "location":
                continue
            if mention.name.casefold() in lexicon.FIRST_NAMES:
                continue
            names = {m.name for m in companies if m.name.split()[0] == mention.name}
            if len(names) == 1:
                mention.name, mention.type = names.pop(), "organization"

    def _unclaimed_surnames(self, full):
        """ "Peter Hale left Allen & Overy ... Hale, who is married to ...": a capitalised
        word no pass named that is the surname (the last word, of two or more) of one
        person named earlier in the text is that person, whom it names by surname alone
        (the named-entity model often misses a lone surname opening a sentence)."""
        surnames: dict[str, set] = {}
        for m in full:
            surnames.setdefault(m.name.split()[-1], set()).add(m.name)
        if not surnames:
            return
        doc = self.doc
        for token in doc:
            if token.i in self.by_token or token.text not in surnames:
                continue
            names = surnames[token.text]
            earlier = [m for m in full if m.end <= token.idx and m.name in names]
            if len(names) != 1 or not earlier:
                continue
            before = doc[token.i - 1] if token.i else None
            after = doc[token.i + 1] if token.i + 1 < len(doc) else None
            if before is not None and (
                before.text in {"&", "+", "-"}
                or (before.lower_ == "and" and token.i > 1 and token.i - 2 in self.by_token)
                or (
                    before.text[:1].isupper()
                    and before.lower_.rstrip(".") not in NAME_TITLES
                    and not self._starts_sentence(token)
                )
            ):
                continue  # "Okonkwo & Hale", "Smith and Hale": a firm's name
            if after is not None and (
                after.text in {"&", "+"}
                or (after.text == "-" and not token.whitespace_)
                or (after.text[:1].isupper() and after.pos_ == "PROPN")
            ):
                continue  # "Hale & Co", "Hale-Smith", "Hale Street": a longer name
            self._add([token], "person", 0.8, name=next(iter(names)), origin="alias")

    def _contrast_types(self):
        """Two names one replaces the other in, or one is chosen over, are things of one
        kind: "replace Redux with Zustand", "from GitLab to Forgejo", "over WireGuard instead
        of IPsec", "Replaced the Leaflet map view with MapLibre GL", "prefers it to Veo". A
        name the named-entity model guessed (an organization, a place) beside a known
        technology in such a pair is a technology too."""
        ordered = sorted(self.mentions, key=lambda m: m.start)
        for first, second in zip(ordered, ordered[1:], strict=False):
            between = self.source[first.end : second.start]
            if "\n" in between or not CONTRAST_BETWEEN.fullmatch(between):
                continue
            line_start = self.source.rfind("\n", 0, first.start) + 1
            before = self.source[line_start : first.start]
            if not (CONTRAST_ITSELF.search(between) or CONTRAST_TRIGGER.search(before)) or (
                POSSESSIVE.match(self.source, second.end)
            ):
                # "from diesel pumps to SunCulture's RainMaker2": the maker, not the thing
                continue
            pair = (first, second)
            known = [
                m for m in pair if m.type == "technology" and (m.origin == "technology" or m.cued)
            ]
            if len(known) != 1:
                continue
            other = pair[1 - pair.index(known[0])]
            if (
                other.type in {"organization", "location", "other", "concept", "person"}
                and other.origin in {"ner", "propn"}
                and not other.cued
                and not other.stated
                and other.name.split()[0].casefold() not in lexicon.GIVEN_NAMES
            ):
                other.type, other.stated = "technology", True

    def _funders(self):
        """ "$12M led by Blackbird, with Square Peg", "a seed round from Kaszek and
        Monashees": in a sentence about a funding round, the names that lead it or join it
        are investors, organizations, unless the name is a person's."""
        for sentence in self.doc.sents:
            if not FUNDING.search(sentence.text):
                continue
            for mention in self.mentions:
                if not (sentence.start_char <= mention.start < sentence.end_char):
                    continue
                if mention.cued or mention.stated or mention.type in {"person", "location"}:
                    continue
                if mention.origin not in {"ner", "propn"}:
                    continue
                before = self.source[sentence.start_char : mention.start]
                if INVESTOR_BEFORE.search(before):
                    mention.type, mention.stated = "organization", True

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


ALLERGY_WORDS = {"allergic", "intolerant"}


# Adjectives that say how much, how good or which one rather than what kind: "much mint
# tea", "good coffee", "the new Pyxis screens" (``_kind_adjective``).
DEGREE_ADJECTIVES = set(
    """much many more most less least few little several enough other same own certain whole
    good great nice bad best better worse worst favourite favorite usual typical real actual
    new old proper decent fine excellent awesome terrible horrible lovely cheap expensive
    fresh extra""".split()
)


def _kind_adjective(token) -> bool:
    """ "prefers metric units", "loves dark roast", "hates long email threads": an adjective
    before what a taste is of that says what kind it is, part of the thing liked (not one of
    ``DEGREE_ADJECTIVES``: "much mint tea", "the new screens")."""
    return (
        token.is_alpha
        and token.is_lower
        and token.pos_ == "ADJ"
        and token.tag_ == "JJ"
        and token.lower_ not in DEGREE_ADJECTIVES
        and token.i < token.head.i
        and all(t.dep_ == "compound" for t in token.doc[token.i + 1 : token.head.i])
    )


def _allergen_read_as_verb(token) -> bool:
    """ "allergic to shellfish" with "to" read as a verb's marker and the food as a verb."""
    return (
        token.dep_ == "xcomp"
        and token.head.lower_ in ALLERGY_WORDS
        and any(c.lower_ == "to" for c in token.children)
    )


def _plural_role(word: str) -> bool:
    """ "Members Birna Ólafsdóttir and Tomás Reyes", "Founders ...": a role's plural before
    the names it lists."""
    return len(word) > 4 and word.endswith("s") and word[:-1] in NAME_PREFIXES
