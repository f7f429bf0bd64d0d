"""Reading a text's layout: headings that name the subject of a list, list items that open
with a name, and "Key: value" lines of structured memory."""

import re
from collections import Counter

from graph.extraction.cues import ORG_WORDS
from graph.extraction.parser.rules import Mention
from graph.extraction.parser.words import (
    BOLD_LINE,
    DEPARTMENTS,
    FIELD_LINE,
    FIELDS,
    FOODS,
    FOUNDER_KEYS,
    GROUP_WORDS,
    INLINE_FIELD,
    INSTRUMENTS,
    KIN_KNOWS,
    KIN_MARRIED,
    LEADER_KEYS,
    LIST_ITEM,
    MEMBER_KEYS,
    NAME_KEYS,
    NAME_PREFIXES,
    PARENTHESIS,
    PERSON_TITLES,
    PERSONAL_RELATIONS,
    ROLE_KEYS,
    ROLE_TITLE_WORDS,
    ROLE_WORK,
    SENTENCE_FIELD,
    SEPARATOR,
    STUDENT_WORDS,
    SUBJECT_KEYS,
    TABLE_KEYS,
    TABLE_ROW,
    TABLE_RULE,
    TABLE_SUBJECTS,
    TEAM_KEYS,
    TEAM_WORDS,
    VALUE_ENTS,
    VALUE_SPLIT,
    agent_noun,
    field_key,
    known_place,
)
from graph.vocabulary import normalize_name
from memoryhub import lexicon
from memoryhub.nlp import english_word
from memoryhub.values import line_around

# A record's code: "INC-77", "ADR-014", "RFC 112", "PM-2291".
RECORD_CODE = re.compile(r"[A-Z]{2,}[-_ ]?\d+[A-Za-z]?")

# A signature's role line: the role, then a comma, a bar, a dash or "at" before the
# organization ("Director, Nordlýsi Art Museum", "Senior Engineer | Paystack").
SIGNATURE_ROLE = re.compile(r"^\s*([A-Z][\w&/.' -]{1,60}?)\s*(?:,|\||\u2013|\u2014|\u00b7| at )\s*")
# Titles before a signature's name ("Dr Priti Shah" / "Curator of Textiles").
SIGNED_TITLES = {w.rstrip(".") for w in PERSON_TITLES | lexicon.NAME_TITLES}
# A letter's closing line, before the writer's name ("Thanks,", "Kind regards,", "Cheers").
CLOSING = re.compile(
    r"^\s*(?:(?:many |thanks (?:again|so much)|thank you|with |warm(?:est)? |kind |best |all the )?"
    r"(?:thanks|thx|ta|cheers|best|regards|wishes|love|sincerely|warmly|yours(?: truly)?|"
    r"best regards|kind regards|warm regards|take care|talk soon|speak soon|x+|"
    r"thank you|all the best))[ \t]*[,.!]?[ \t]*$",
    re.IGNORECASE,
)
# What a letter says of its reader joining: "You'll join", "your first day", "onboarding".
ONBOARDING = re.compile(
    r"\b(?:you(?:'ll|’ll| will)? (?:be )?join(?:ing)?|join(?:ing)? us|first day|start date|"
    r"onboarding|welcome aboard|your manager|new hire)\b",
    re.IGNORECASE,
)
# A letter's greeting of one person on its first line: "Hi Olu,", "Dear Dr. Mensah,".
GREETED = re.compile(
    r"\s*(?:hi|hello|hey|dear|hiya|good (?:morning|afternoon|evening))[ \t]+"
    r"((?:(?:dr|mr|mrs|ms|prof)\.?[ \t]+)?[A-ZÀ-Þ][\w'’-]*(?:[ \t]+[A-ZÀ-Þ][\w'’-]*){0,2})"
    r"[ \t]*[,!:—–-]?[ \t]*\n",
    re.IGNORECASE,
)
# A name alone on a line: one to three capitalised words ("Ankit", "María José Paz").
NAME_LINE = re.compile(r"^[ \t—–-]*((?:[A-ZÀ-Þ][\w'’-]*\.?[ \t]+){0,2}[A-ZÀ-Þ][\w'’-]*)[ \t]*$")
# A text's last words signed with a dash ("... pays for the hobby. — Juha", "... -- ravi.n")
# or its first line naming the writer ("Me: Rahel Tesfaye. Midwife, ...").
DASH_SIGNED = re.compile(
    r"(?:^|[.!?)\n][ \t]*)[—–-]+[ \t]*"
    r"([A-Za-zÀ-ÿ][\w'’-]*(?:\.[\w'’-]+)*(?:[ \t]+[A-ZÀ-Þ][\w'’-]*){0,2})\s*$"
)
# After a work's title, what opens the list of its authors ("*Dune* — Frank Herbert",
# "\"Piranesi\" by Susanna Clarke"), and what may stand between and around their names.
TITLE_BY = re.compile(r"[*\"\u201d_]*[ \t]*(?:\u2014|\u2013|-|,? by)[ \t]+")
# A title opening a list's item or a field's value before "by" and its author: "Jan:
# Pachinko by Min Jin Lee", "- The Vegetarian by Han Kang".
BYLINE = re.compile(
    r"(?m)(?:^[ \t]*(?:[-*•][ \t]+)?|:[ \t]+)"
    r"((?:The |A |An )?[A-Z][\w'’-]*(?:[ \t]+(?:(?:of|the|and|in|on|a|to|for|de|la|du)[ \t]+)?"
    r"[A-Z][\w'’-]*){0,6})[ \t]+by[ \t]+(?=[A-Z])"
)
AUTHOR_GAP = re.compile(r"[ \t]*(?:,|&|and|,[ \t]*and)?[ \t]*[.;]?[ \t]*")
ME_LINE = re.compile(
    r"^\s*(?:me|about me|who i am)\s*[:—–-]\s*([A-ZÀ-Þ][\w'’-]*(?:[ \t]+[A-ZÀ-Þ][\w'’-]*){0,2})",
    re.I,
)
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|my|My|me|Me)\b")
# Words that with a head's title still name the head of the whole ("Managing Director",
# "Founder & CEO").
HEAD_TITLE_WORDS = set("managing executive general chief founder co founder & and".split())

# Keys whose value is one home, perhaps with the places it is in: "Home: Fitzroy, Melbourne".
HOME_KEYS = {"lives in", "lives", "home", "hometown", "address", "based in", "location"}
# Keys whose value, when it is a system of ours rather than a product, is talked to.
MESSAGE_KEYS = {"queue", "topic", "broker", "messaging", "stream", "bus"}
# Keys whose value, when it is a system of ours rather than a product, is depended on.
STORE_KEYS = {"datastore", "data store", "database", "databases", "db", "storage", "cache"}
# An owner before a task: "— Tarek: finish ...", "; Wen: load-test ...", "Dana: migrate".
OWNER = re.compile(
    r"(?:^|(?<=[;\u2014\u2013(])|(?<=\. ))[ \t]*([A-Z][\w'-]+(?: [A-Z][\w'-]+)?):[ \t]+(?=[a-z])",
    re.M,
)
# A table column of events the row's people go to.
EVENT_KEYS = {"event", "events", "conference", "conf", "meetup", "festival"}
# A roster after a team's name: "Team Orca: Ana (backend), Ben — QA, and Cy".
ROSTER_COLON = re.compile(r"[)'\"\w]:[ \t]+(?=\S)")
TEAM_BEFORE = re.compile(
    r"\b(?:team|squad|guild|crew|band|group|club|tribe|pod)[ \t]+[('\"\u2018\u201c]?", re.I
)
ROSTER_END = re.compile(r"\.(?:\s|$)|\n|;")
ROSTER_GAP = re.compile(
    r"\s*(?:\([^()\n]{0,30}\))?\s*(?:[\u2014\u2013-]+\s*[\w /&+-]{1,25}?)?\s*,?\s*(?:and\s+)?"
)


# What may open a value of names joined by "and": nothing, or a year and "by" ("Founded:
# 2016 by Ndapewa Shikongo and Johan Visagie").
JOINED_OPENING = re.compile(r"[ \t*_`]*(?:(?:in )?\d{4},? )?(?:by )?[ \t*_`]*", re.IGNORECASE)
# Teams within an employer: one named under one is a member of the team.
WORK_UNITS = {"team", "squad", "guild", "tribe", "crew"}
# The words a list of names is joined with: "Swiss Manager and Lichess only".
LIST_WORDS = {"and", "or", "only", "plus"}
# Heading words over a list of a group's people: "## Marlow County School Board — members".
ROSTER_HEADING_WORDS = {"members", "roster", "lineup", "line-up", "players", "membership"}
PAST_MEMBER_WORDS = {"former", "ex", "past", "alumni", "previous"}
# Heading words over a list of an organisation's people by their posts: "— staff contacts".
STAFF_HEADING_WORDS = {"staff", "employees", "personnel"}


def _a_job(word: str) -> bool:
    """A word that names a job: a known role or title ("manager", "curator", "registrar",
    "treasurer") or an agent noun ("physiotherapist", ``agent_noun``)."""
    return word in ROLE_TITLE_WORDS | NAME_PREFIXES or agent_noun(word)


def _role_words(text: str) -> list[str]:
    """The words of a signature's role or desk, lower-cased, hyphens as spaces."""
    return text.casefold().replace("-", " ").split()


def _a_role(words: list[str], desks: bool = True) -> bool:
    """Whether a signature line's words end in a job ("Senior Conservator") or, with
    ``desks``, a desk ("Customer Care")."""
    return bool(words) and (_a_job(words[-1]) or (desks and words[-1] in SIGNED_DESKS))


def _role_relation(role: set[str]) -> str:
    """What a signature's role makes its holder of the organization under it: its leader
    when the role is only a head's title ("Chair", "Managing Director"), a student
    ("PhD candidate"), its creator when the role is a founder's ("Co-founder"), else
    someone who works for it."""
    if role & {"founder", "cofounder", "creator"}:
        return "CREATED"  # "Karim Benali" / "Co-founder, Fennec Mobility"
    if role & STUDENT_WORDS and not role & {"assistant", "advisor", "adviser", "officer"}:
        return "STUDIES_AT"  # "PhD candidate, University of Ibadan"
    if role & LEADER_KEYS and role <= LEADER_KEYS | HEAD_TITLE_WORDS:
        return "LEADS"
    return "WORKS_FOR"


# What a role alone in brackets after a person makes them of the section's subject.
BRACKETED_ROLES = {"OWNS", "LEADS", "CREATED", "REVIEWED"}
# What opens a value that is no name ("her grandma's blue corn mush").
POSSESSIVE_OPENINGS = {"my", "his", "her", "their", "our", "your", "its"}
# What turns a favourite into its opposite ("Least favourite: Las Vegas").
LEAST_WORDS = {"least"}
# The last word of a signature's line that names the desk one writes from, not a job
# ("Customer Care", "Guest Services", "Bookings"): the organization is on the line below.
SIGNED_DESKS = DEPARTMENTS | set(
    """care service services bookings reservations accounts admissions enquiries inquiries
    desk relations office team""".split()
)
# Small words inside a role's or an organization's name ("Head of Stage Engineering",
# "Bread and Roses Trust").
NAME_JOINS = {"of", "and", "&", "for"}


def _capitalised(text: str) -> bool:
    """Whether every word of ``text`` is capitalised or one of ``NAME_JOINS``."""
    return all(w[:1].isupper() or w in NAME_JOINS for w in text.split())


# Keys of a record's line that name the group the record's people belong to.
GROUP_FIELD_KEYS = WORK_UNITS | GROUP_WORDS | {"band", "club"}


# What a list under a heading like "## Dependencies" may name besides its key's kind.
SECTION_VALUE_TYPES = {"component", "technology", "organization", "project"}
# A two-column table of one record's fields: "| Field | Value |", "| Key | Details |".
RECORD_KEYS = {"field", "key", "property", "attribute", "item", "setting", "fact"}
RECORD_VALUES = {"value", "values", "details", "detail", "info", "notes"}


class StructureReading:
    """Subjects given by layout rather than grammar."""

    def _topics(self):
        """A person named in a heading ("## Nadia's preferences", "Goals for Isaac:") is
        the subject of the list below it."""
        self.topics: list[tuple[int, Mention]] = []
        self.items: list[tuple[int, int, Mention]] = []
        self.tool_fields: list[tuple[Mention, list[Mention], str, bool]] = []
        self.member_fields: list[tuple[Mention, list[Mention], str, str]] = []
        offset, heading_key, open_key, open_at = 0, "", "", 0
        section_of = None  # what a heading naming nothing but a key is the section of
        roster_of = None  # the group whose members a heading lists
        record_group = None  # the team a record's "Team:" line names, for its "Members:"
        for line in self.source.splitlines(keepends=True):
            if not line.strip():
                record_group = None
            stripped = line.strip()
            item = LIST_ITEM.match(line)
            if item:
                self._list_item(line, offset, item)
            if stripped.startswith("#") or stripped.endswith(":") or BOLD_LINE.match(stripped):
                named = sorted(
                    (m for m in self.mentions if offset <= m.start < offset + len(line)),
                    key=lambda m: m.start,
                )
                heading_key = stripped.strip("#:*_ \t").casefold()
                if (
                    len(named) == 1
                    and named[0].name.casefold() == heading_key
                    and heading_key in FIELDS
                ):
                    self._drop(named[0])  # "## Tools", "## Stack": a key, no name
                    named = []
                colon = line.find(":", 0, len(line.rstrip().rstrip(":")))
                after = [m for m in named if colon >= 0 and m.start > offset + colon]
                opening = len(line) - len(line.lstrip("# \t*_"))
                if (
                    named
                    and named[0].start == offset + opening
                    and named[0].start < offset + colon
                    and named[0].type in {"event", "document", "project"}
                    and RECORD_CODE.fullmatch(named[0].name)
                ):
                    named = named[:1]  # "## INC-77: checkout double-charge": the record
                elif len(after) == 1 and after[0].origin in {"identifier", "ner", "propn", "title"}:
                    named = after  # "## Incident review: INC-5120", "**Profile: Dawit**"
                people = [m for m in named if m.type == "person"]
                topic = people[0] if len(people) == 1 else named[0] if len(named) == 1 else None
                if topic is None and named and named[0].start == offset + opening:
                    topic = named[0]  # "## ADR-017: Replace Celery with Temporal"
                previous_section, section_of = section_of, None
                heading_words = set(re.findall(r"[\w-]+", heading_key))
                roster_of = (  # "## Marlow County School Board — members"
                    topic
                    if topic is not None
                    and topic.type == "organization"
                    and heading_words & ROSTER_HEADING_WORDS
                    and not heading_words & PAST_MEMBER_WORDS
                    else None
                )
                if topic is None and not named and heading_key in FIELDS and offset:
                    # "# Team: Clinical Apps" / "## Members": the subject above the heading,
                    # or the one the key heading before it was a section of ("##
                    # Dependencies" ... "## Owners")
                    section_of = self._topic_at(offset - 1) or previous_section
                self.topics.append((offset, topic))
            field = FIELD_LINE.match(line)
            if (
                item
                and not field
                and open_key in FIELDS
                and line[:1] in " \t"
                and FIELDS[open_key][0] == "topic"
            ):  # "owns:" / "  - upload-svc" / "  - thumbnailer": the values of an open key
                direction, relation, kind = FIELDS[open_key]
                topic = self._topic_at(open_at - 1)  # the subject above the key
                start = offset + item.start(2)
                value = self._value(start, offset + len(line.rstrip()), kind)
                if topic is not None and value is not None and value is not topic:
                    self._relate_field(topic, value, direction, relation, stripped)
                offset += len(line)
                continue
            if item and not field and roster_of is not None and not line[:1].isspace():
                # "## Marlow County School Board — members" / "- Rev. Paul Whitcombe"
                start = offset + item.start(2)
                first = min(
                    (m for m in self.mentions if start <= m.start < offset + len(line)),
                    key=lambda m: m.start,
                    default=None,
                )
                before = self.source[start : first.start if first else start].strip(" \t*_")
                if (
                    first is not None
                    and first.type == "person"
                    and (not before or before.rstrip(".").casefold() in SIGNED_TITLES)
                ):
                    self._relate(first, roster_of, "PART_OF", stripped)
            if (
                item
                and not field
                and section_of is not None
                and (
                    FIELDS[heading_key][0] == "value"
                    or FIELDS[heading_key][1] in {"DEPENDS_ON", "USES", "INTEGRATES_WITH"}
                )
                and not line[:1].isspace()
            ):  # "## Members" / "- Joost Verhagen": a member of the section's subject;
                # "## Dependencies" / "- `fraud-scorer`": what the section's subject needs
                direction, relation, kind = FIELDS[heading_key]
                start = offset + item.start(2)
                value = self._value(start, offset + len(line.rstrip()), kind)
                if (
                    value is not None
                    and value is not section_of
                    and (
                        value.type == kind
                        or (direction == "topic" and value.type in SECTION_VALUE_TYPES)
                    )
                ):
                    self._relate_field(section_of, value, direction, relation, stripped)
            elif (
                not item
                and not field
                and section_of is not None
                and FIELDS[heading_key][0] == "value"
                and stripped
                and not stripped.startswith(("#", "|", ">"))
                and not stripped.endswith(":")
                and not BOLD_LINE.match(stripped)
                and not line[:1].isspace()
            ):  # "## Owners" / "Keoni Kahale, Ewa Nowak": the line lists the values
                direction, relation, kind = FIELDS[heading_key]
                line_end = offset + len(line.rstrip())
                for piece in VALUE_SPLIT.finditer(self.source, offset, line_end):
                    value = self._value(piece.start(), piece.end(), kind)
                    if value is not None and value is not section_of and value.type == kind:
                        self._relate_field(section_of, value, direction, relation, stripped)
            if not (item and line[:1] in " \t"):
                open_key, open_at = "", offset
                if stripped.endswith(":") and not stripped.startswith("#"):
                    open_key = stripped.strip("-*:_ \t").casefold()
            if (
                field
                and heading_key in FIELDS
                and field.group(1).strip().casefold() not in FIELDS
                and FIELDS[heading_key][0] == "value"
            ):  # "## Owners" / "- api-gateway: Lwazi Dube": the heading is the key
                subject = self._value(offset + field.start(1), offset + field.end(1), "component")
                direction, relation, kind = FIELDS[heading_key]
                start, end = offset + field.start(2), offset + field.end(2)
                for piece in VALUE_SPLIT.finditer(self.source, start, end):
                    value = self._value(piece.start(), piece.end(), kind)
                    if subject is not None and value is not None and value is not subject:
                        self._relate_field(subject, value, direction, relation, stripped)
                offset += len(line)
                continue
            field = FIELD_LINE.match(line)
            key = field.group(1).strip().strip("*_").casefold() if field else ""
            if key in GROUP_FIELD_KEYS and not line[:1].isspace():
                # "**Team:** Byte Wombats" / "**Members:** …": the members are the team's
                inside = [
                    m
                    for m in self.mentions
                    if offset + field.start(2) <= m.start < offset + field.end(2)
                ]
                record_group = None
                if len(inside) == 1 and inside[0].type in {"organization", "other", "concept"}:
                    record_group = inside[0]
                    if not record_group.cued:  # "Team: Byte Wombats": the key says what it is
                        record_group.type, record_group.stated = "organization", True
            if field and field.group(1).strip().casefold() in NAME_KEYS:
                named = self._value(offset + field.start(2), offset + field.end(2), "person")
                if named is not None:  # "- Name: Priscila Andrade" names the record's subject
                    if not named.cued and named.type != "person":
                        named.type = "person"
                    self.topics.append((offset, named))
            elif (
                field
                and field.group(1).strip().casefold() in SUBJECT_KEYS
                and self._topic_at(offset) is None
            ):  # "service: image-resizer" / "lang: Go": the record's subject
                named = self._value(offset + field.start(2), offset + field.end(2), "component")
                if named is not None:
                    self.topics.append((offset, named))
            elif record_group is not None and key in MEMBER_KEYS:
                for piece in VALUE_SPLIT.finditer(
                    self.source, offset + field.start(2), offset + field.end(2)
                ):
                    value = self._value(piece.start(), piece.end(), "person")
                    if value is not None and value.type == "person":
                        self._relate(value, record_group, "PART_OF", stripped)
            elif field and field_key(field.group(1)) in FIELDS:
                self._field(
                    line, offset, field.group(1), offset + field.start(2), offset + field.end(2)
                )
            elif field:
                if section_of is not None and FIELDS[heading_key][1] == "USES":
                    # "## Tools" / "- Gradebook: PowerSchool": a tool of the section's subject
                    start, end = offset + field.start(2), offset + field.end(2)
                    inside = sorted(
                        (m for m in self.mentions if start <= m.start < end), key=lambda m: m.start
                    )
                    self._tool_field(section_of, line, inside, start, end, keyed=True)
                self._members(line, offset, field)
            offset += len(line)

    def _list_item(self, line: str, offset: int, item: re.Match):
        """ "- `edge-proxy` — Envoy, deployed in us-west-2": the name that opens a list item
        is the subject of the rest of the item; a technology right after the dash is what
        it is built with."""
        start = offset + item.start(2)
        subject = next((m for m in self.mentions if m.start == start), None)
        if subject is None or subject.origin == "speaker":
            return
        rest_start = offset + item.end()
        if not SEPARATOR.match(self.source, subject.end):
            return
        self.items.append((subject.end, offset + len(line), subject))
        for found in INLINE_FIELD.finditer(self.source, subject.end, offset + len(line)):
            key = found.group(1).strip().casefold()  # "- **ledger-api** — Go; owner: Thabo"
            if key not in FIELDS:
                continue
            direction, relation, _kind = FIELDS[key]
            if relation in {"LIVES_IN", "MANAGER"}:
                continue
            for value in self.mentions:
                if found.start(2) <= value.start < found.end(2) and value is not subject:
                    pair = (value, subject) if direction == "value" else (subject, value)
                    self._relate(*pair, relation, line.strip())
        first_segment = self.source[rest_start : offset + len(line)].split(",")[0]
        for mention in self.mentions:
            if (
                subject.end < mention.start <= rest_start + len(first_segment)
                and mention.type == "technology"
                and subject.type in {"component", "project"}
            ):
                self._relate(subject, mention, "USES", line.strip())

    def _tables(self):
        """A markdown table: the header names each column; the first cell of a row is the
        subject of the row, and a cell under a known key ("Owner", "Datastore", "Region",
        "Team") is related to it as a "Key: value" line would be. Header cells are no
        entities."""
        offset, header, rows = 0, None, []
        for line in self.source.splitlines(keepends=True) + [""]:
            row = TABLE_ROW.match(line)
            if row is None:
                if header is not None:
                    self._table(header, rows)
                header, rows = None, []
            elif TABLE_RULE.match(line):
                pass
            elif header is None:
                header = self._cells(line, offset)
                for start, end, _text in header:
                    for mention in [m for m in self.mentions if start <= m.start < end]:
                        self._drop(mention)
            else:
                rows.append((line.strip(), self._cells(line, offset)))
            offset += len(line)
        self._rosters()

    @staticmethod
    def _cells(line: str, offset: int) -> list[tuple[int, int, str]]:
        cells, start = [], None
        for index, char in enumerate(line):
            if char == "|":
                if start is not None:
                    text = line[start:index]
                    lead = len(text) - len(text.lstrip())
                    cells.append(
                        (offset + start + lead, offset + start + len(text.rstrip()), text.strip())
                    )
                start = index + 1
        return cells

    def _table(self, header, rows):
        keys = [text.strip("*_` ").casefold() for _start, _end, text in header]
        if not keys:
            return
        if len(keys) == 2 and keys[0] in RECORD_KEYS and keys[1] in RECORD_VALUES:
            self._record_table(rows)
            return
        first_kind = TABLE_SUBJECTS.get(keys[0], "")
        for _line, cells in rows:  # each cell's column, for the relation linker
            for key, (start, end, _text) in zip(keys, cells, strict=False):
                self.columns.append((start, end, key))
        event_column = next((i for i, key in enumerate(keys) if key in EVENT_KEYS), None)
        for line, cells in rows:
            if not cells or not cells[0][2]:
                continue
            if event_column and event_column < len(cells) and first_kind == "person":
                self._event_row(keys, cells, event_column, line)
                continue
            start, end, _text = cells[0]
            subject = self._value(start, end, first_kind or "other")
            if subject is None:
                continue
            if first_kind and not subject.cued and subject.type != first_kind:
                subject.type = first_kind
            for key, (start, end, text) in zip(keys[1:], cells[1:], strict=False):
                if not text:
                    continue
                if key in {"used by", "users", "used in"}:  # "| protobuf | 3.25 | order-router |"
                    for piece in VALUE_SPLIT.finditer(self.source, start, end):
                        user = self._value(piece.start(), piece.end(), "component")
                        if user is not None and user is not subject:
                            self._relate(user, subject, "USES", line)
                    continue
                if key == "team" and subject.type in {"component", "project", "technology"}:
                    key = "owner team"
                if key not in FIELDS and key not in TABLE_KEYS:
                    continue
                direction, relation, kind = TABLE_KEYS.get(key) or FIELDS[key]
                for piece in VALUE_SPLIT.finditer(self.source, start, end):
                    if key in ROLE_KEYS:  # "| Head nurse |": a role, no employer named in it
                        value = self._named_employer(piece.start(), piece.end())
                    else:
                        value = self._value(piece.start(), piece.end(), kind)
                    if value is not None and value is not subject:
                        self._relate_field(subject, value, direction, relation, line)

    def _record_table(self, rows):
        """ "## Service: `inventory-sync`" / "| Field | Value |" / "| Owner | Kaveh |": a
        table of one record's fields, each row read as its "Owner: Kaveh" line would be."""
        for line, cells in rows:
            if len(cells) < 2 or not cells[1][2]:
                continue
            (key_start, key_end, key), (start, end, _value) = cells[0], cells[1]
            for mention in [m for m in self.mentions if key_start <= m.start < key_end]:
                self._drop(mention)  # "| Region |": a key, no place
            key = key.strip("*_` ")
            if field_key(key) not in FIELDS:
                continue
            self._field(line, key_start, key, start, end)

    def _event_row(self, keys, cells, event_column: int, line: str):
        """ "| Person | Event | City |" / "| Rohan & Lea | FOSDEM | Brussels |": the people
        of the row attend its event, and the row's place is the event's, not theirs."""
        start, end, _text = cells[event_column]
        event = self._value(start, end, "event")
        if event is None:
            return
        if not event.cued and event.type in {"organization", "other", "concept", "person"}:
            event.type = "event"
        event.stated = event.stated or event.type == "event"  # the column says so
        start, end, _text = cells[0]
        for piece in VALUE_SPLIT.finditer(self.source, start, end):
            person = self._value(piece.start(), piece.end(), "person")
            if person is not None and person is not event:
                self._relate(person, event, "ATTENDED", line)
        for key, (start, end, text) in zip(keys, cells, strict=False):
            if text and TABLE_SUBJECTS.get(key) == "location":
                place = self._value(start, end, "location")
                if place is not None and place is not event:
                    self._relate(event, place, "LOCATED_IN", line)

    def _rosters(self):
        """ "Hackathon team 'Byte Club': Soo-ah (frontend), Mehdi (backend)", "the user's
        squad (Falcon): Ewa — backend, Jomo — frontend": a team named before a colon, and
        after it a list of people (each perhaps with a role), who are part of the team."""
        for found in ROSTER_COLON.finditer(self.source):
            colon = found.start() + 1
            line_start = self.source.rfind("\n", 0, colon) + 1
            stop = ROSTER_END.search(self.source, colon + 1)
            end = stop.start() if stop else len(self.source)
            before = sorted(
                (m for m in self.mentions if line_start <= m.start and m.end <= colon),
                key=lambda m: m.start,
            )
            if not before:
                continue
            team = before[-1]  # the team is the last name before the colon
            named = TEAM_BEFORE.search(self.source, line_start, team.start)
            if team.type != "organization" and named and named.end() == team.start:
                if team.cued or team.type not in {"person", "concept", "other", "location"}:
                    continue
                team.type = "organization"  # "the squad (Heron):", "team 'Night Owls':"
            elif team.type != "organization":
                continue
            after = sorted(
                (m for m in self.mentions if colon < m.start and m.end <= end),
                key=lambda m: m.start,
            )
            people = [
                m
                for m in after
                if m.type == "person"
                or (not m.cued and m.type in {"concept", "other"} and m.name[:1].isupper())
            ]  # "Ewa" read as a concept among the people
            if (
                len(people) < 2
                or len(people) != len(after)
                or all(m.type != "person" for m in people)
            ):
                continue
            gaps = [self.source[a.end : b.start] for a, b in zip(people, people[1:], strict=False)]
            if not all(ROSTER_GAP.fullmatch(gap) for gap in gaps):
                continue
            line = self.source[line_start:end].strip()
            team.stated = True  # a roster's name is a team's, whatever it sounds like
            for person in people:
                person.type = "person"
                self._relate(person, team, "PART_OF", line)

    def _sentence_fields(self):
        """A "Key: values" sentence inside a line of prose, as a note writes it ("User Marta
        Nowak: data engineer at Deliveroo. Main stack: dbt, Snowflake, Airflow."; "Kickoff:
        Acme. PM: Esi. Stack: React Native + Firebase."): each value is the subject's, as on
        a line of its own, unless the two are related already ("Partner: Léa" after the
        rules read her as a spouse). The subject is the section's when a heading gives one,
        or the one the note's opening label names, else the person the note is about, else
        the organisation it is about; whose an owner or a lead is stays unsaid without a
        section or a label, as on a line of its own."""
        for found in SENTENCE_FIELD.finditer(self.source):
            key = field_key(found.group(1))
            if key not in FIELDS or key in NAME_KEYS | SUBJECT_KEYS | GROUP_FIELD_KEYS:
                continue
            if found.group(2).split(" ", 1)[0].casefold() in POSSESSIVE_OPENINGS:
                continue  # "Favourite food: her grandma's stew": not a name
            if found.group(1).casefold().split()[0] in LEAST_WORDS:
                continue  # "Least favourite: Las Vegas": a dislike, not a favourite
            for mention in [m for m in self.mentions if found.start(1) <= m.start < found.end(1)]:
                if mention.end <= found.end(1):
                    self._drop(mention)  # "... Rica. Supervisor: Dr. Mora": a key, no name
            line_start = self.source.rfind("\n", 0, found.start()) + 1
            topic = self._topic_at(line_start) or self._labelled()
            if topic is None and FIELDS[key][1] not in {"OWNS", "LEADS", "MANAGER"}:
                # "Name's Takumi Sato. ... Main tools: Unity and Blender": the writer's
                topic = self._note_person() or self.writer or self._topic_organization()
            elif topic is None and FIELDS[key][1] == "MANAGER":
                topic = self._note_person()  # "user (Marisol) ... Supervisor: Dr. Mora"
            if topic is None:
                continue
            sentence = found.group(0).strip()
            self._field(
                sentence, line_start, found.group(1), *found.span(2), topic, unrelated_only=True
            )

    def _labelled(self):
        """The one system, project or organisation a note's opening label names, before its
        colon or right after it ("Q3 plan for Harvest Moon: move ...", "Kickoff: Project
        Baobab (micro-loans app ...)"); None when it names none or several."""
        line_end = self.source.find("\n")
        first_line = self.source if line_end < 0 else self.source[:line_end]
        colon = first_line.find(":")
        if colon < 0:
            return None
        after = re.match(r":\s*", first_line[colon:])
        label_end = colon + after.end()
        named = [m for m in self.mentions if m.start < label_end]
        if not named:
            follows = [m for m in self.mentions if m.start == label_end]
            named = follows if follows and follows[0].end < len(first_line) else []
        kinds = {"project", "organization", "component"}
        if len(named) == 1 and named[0].type in kinds:
            return named[0]
        return None

    def _relate_field(self, topic, value, direction: str, relation: str, line: str):
        if relation == "LIVES_IN" and topic.type != "person":
            relation = "LOCATED_IN"
        elif relation == "MANAGER":
            if topic.type == "person":
                self._relate(topic, value, "REPORTS_TO", line)
            else:
                self._relate(value, topic, "LEADS", line)
            return
        if direction == "value":
            self._relate(value, topic, relation, line)
        else:
            self._relate(topic, value, relation, line)

    def _named_employer(self, start: int, end: int):
        """The organisation named in a role between ``start`` and ``end`` ("Staff SRE at
        Mercari"), typed an organisation; None when the role names none ("Head nurse")."""
        value = next(
            (
                m
                for m in self.mentions
                if start <= m.start < end and m.type in {"organization", "location", "technology"}
            ),
            None,
        )
        if value is not None:
            value.type = "organization"
        return value

    def _field(
        self,
        line: str,
        offset: int,
        raw_key: str,
        start: int,
        end: int,
        topic=None,
        *,
        unrelated_only: bool = False,
    ):
        """A "Key: values" line of a structured memory ("- Lives in: Utrecht", "- Stack:
        Swift, Kotlin", "- Members: Ana, Ben", "- Owner: Thabo"): each value is an entity of
        the key's kind, related to the subject of the section (the name in its heading).
        ``raw_key`` is the key as written, ``start`` and ``end`` the values' span in the
        text, ``offset`` where the line starts; ``topic`` the subject when the caller knows
        it, else the section's, else what the note's opening label names ("Roadmap: Harlow
        Open Data Portal" ... "Delivery lead: Shauna Quigley"). ``unrelated_only``: a value
        already related to the subject is left as it is."""
        key = field_key(raw_key)
        direction, relation, kind = FIELDS[key]
        if relation == "LIKES" and raw_key.strip().casefold().split()[:1] == ["least"]:
            relation = "DISLIKES"  # "Least favourite food: olives"
        topic = topic or self._topic_at(offset) or (offset and self._labelled()) or None
        following = SENTENCE_FIELD.search(self.source, start, end)
        if following is not None:  # "PM: Neema. Stack: Flutter": the next field's own
            end = following.start()
            while end > start and self.source[end - 1] in " \t.!?":
                end -= 1
        if (
            topic is not None
            and relation in PERSONAL_RELATIONS
            and not topic.cued
            and topic.type in {"organization", "location", "concept", "other"}
        ):
            topic.type = "person"  # "### Profile: Anouk de Vries" / "- Lives in: Utrecht"
        values = PARENTHESIS.sub(  # "Elena (works at Sunpeak Solar)": the value is Elena
            lambda found: " " * len(found.group(0)), self.source[start:end]
        )
        pieces = [(start + p.start(), start + p.end()) for p in VALUE_SPLIT.finditer(values)]
        if key in HOME_KEYS and topic is not None and self._nested_places(topic, pieces, line):
            return
        for piece in VALUE_SPLIT.finditer(values):
            at, till = start + piece.start(), start + piece.end()
            if key in ROLE_KEYS:  # "- Role: Staff SRE at Mercari": the employer named in it
                found = [self._named_employer(at, till)]
            elif self._clause_between(at, till):
                continue  # "- Stack: Polars; stopped using pandas": the rules read a clause
            else:  # "- Stack: Polars and DuckDB": each a value
                found = self._joined_values(at, till) or [self._value(at, till, kind)]
            for value in found:
                if unrelated_only and value is not None and topic is not None:
                    if self._related(topic, value):
                        continue
                self._field_value(topic, value, key, (direction, relation), line, offset)

    def _field_value(self, topic, value, key: str, reading: tuple, line: str, offset: int):
        """Relate one ``value`` of a field line to the section's ``topic`` by the key's
        ``reading`` (direction, relation). An owner or a lead with no section is left
        unrelated: what the note before the line is about was theirs in 2 of 17 on the
        development texts (2026-12-05)."""
        direction, relation = reading
        if value is not None and topic is None and relation in {"OWNS", "LEADS"}:
            return  # "... restarted. Owner: netops": whose the note's systems are is unsaid
        if value is None or topic is None or value is topic:
            return
        if relation == "CREATED" and value.type not in {"person", "organization"}:
            return  # "Founded: 2016 in Windhoek": when and where, not by whom
        if relation == "PART_OF" and key in TEAM_KEYS and topic.type != "person":
            self._relate(value, topic, "OWNS", line.strip())  # "### billing-api" / "- Team: X"
            return
        if relation == "USES" and key in MESSAGE_KEYS and value.type == "component":
            relation = "INTEGRATES_WITH"  # "- queue: `ledger.events.v2`": a named queue
        elif relation == "USES" and key in STORE_KEYS and value.type == "component":
            relation = "DEPENDS_ON"  # "- datastore: ledger-pg": a store of our own
        self._relate_field(topic, value, direction, relation, line.strip())

    def _clause_between(self, start: int, end: int) -> bool:
        """Whether a field's value is a clause with a verb of its own beside the names in it
        ("stopped using pandas last year"), not a value."""
        span = self.doc.char_span(start, end, alignment_mode="expand")
        if span is None or not any(start <= m.start < end for m in self.mentions):
            return False
        return any(
            t.pos_ == "VERB" and t.tag_ != "VBN" and t.i not in self.by_token and t.i > span.start
            for t in span
        )

    def _joined_values(self, start: int, end: int) -> list:
        """The names of a value that joins two or more by "and", "or" or "+" ("Polars and
        DuckDB", "Kotlin + Spring Boot 3"), each already a mention; none for a single name."""
        inside = sorted(
            (m for m in self.mentions if start <= m.start < end and m.end <= end),
            key=lambda m: m.start,
        )
        if len(inside) < 2:
            return []
        before = self.source[start : inside[0].start]
        if self.source[inside[-1].end : end].strip(" *_`") or not JOINED_OPENING.fullmatch(before):
            return []  # words around the names: one value ("Marks and Spencer Food")
        for one, other in zip(inside, inside[1:], strict=False):
            if self.source[one.end : other.start].strip(" *_`").casefold() not in {
                "and",
                "or",
                "+",
            }:
                return []
        return inside

    def _note_subjects(self, before: int) -> list:
        """The systems a prose note before ``before`` is about: the ones that are subjects
        of its clauses ("dns-resolver-a and dns-resolver-b ... restarted")."""
        found = []
        for mention in self.mentions:
            if (
                mention.start >= before
                or mention.type not in {"component", "project"}
                or mention.root < 0
            ):
                continue
            token = self.doc[mention.root]
            while token.dep_ == "conj" and token.head != token:
                token = token.head
            if token.dep_ == "compound":  # "the nightly etl-loader job hung"
                token = token.head
            if token.dep_ in {"nsubj", "nsubjpass"} and mention not in found:
                found.append(mention)
        return found

    def _nested_places(self, topic, pieces, line: str) -> bool:
        """ "- Home: Fitzroy, Melbourne": one home, each place inside the next."""
        if len(pieces) < 2:
            return False
        places = [self._value(start, end, "location") for start, end in pieces]
        if any(p is None or p.type != "location" or p.origin == "identifier" for p in places):
            return False
        relation = "LIVES_IN" if topic.type == "person" else "LOCATED_IN"
        for place in places:  # in Fitzroy, and so in Melbourne
            self._relate(topic, place, relation, line.strip())
        for inner, outer in zip(places, places[1:], strict=False):
            self._relate(inner, outer, "LOCATED_IN", line.strip())
        return True

    def _members(self, line: str, offset: int, field: re.Match):
        """ "### Mobile guild" / "- iOS: Ben Carter, Lina Haddad": under a team's heading, a
        line of people under any key names members of the team. Under another
        organisation's heading the key says what they are of it: "President: X" its leader,
        "Founded: 2020 by X" its founder, "Players: X, Y" members, "Coach: X" one who works
        there; "Travellers: X, Y" or "Final call: X" nothing of it."""
        topic = self._topic_at(offset)
        start, end = offset + field.start(2), offset + field.end(2)
        values = sorted((m for m in self.mentions if start <= m.start < end), key=lambda m: m.start)
        kinds = [m.type for m in values]
        if kinds == ["person", "organization"]:  # "- Vet: Dr. Amrita Sen, Paws & Claws Clinic"
            rest = self._without_names(self.source[start:end], values)
            if len(re.sub(r"[\W_]+|\b(?:Dr|Mr|Mrs|Ms|Prof)\b", "", rest)) <= 2:
                self._relate(values[0], values[1], "WORKS_FOR", line.strip())
        labelled = topic or (offset and self._labelled()) or None  # "Kickoff notes: Project
        if labelled is not None:  # Kinara (…)." / "- Hardware: ESP32 + LoRaWAN"
            self._tool_field(labelled, line, values, start, end)
        if topic is None or topic.type not in {"organization", "location"}:
            return  # a venue's name ("Villa Mar Azul") may be typed an organisation later
        if not values or not all(
            m.type == "person" or (m.origin == "propn" and not m.cued) for m in values
        ):
            return  # and a name guessed from its capitals a person
        words = field.group(1).strip().casefold().split()
        last = words[-1] if words else ""
        if last in LEADER_KEYS:
            relation = "LEADS"
        elif last in FOUNDER_KEYS:
            relation = "CREATED"
        elif last in MEMBER_KEYS:
            relation = "PART_OF"
        elif last in ROLE_WORK and topic.name.casefold().split()[-1] not in WORK_UNITS:
            relation = "WORKS_FOR"  # "# Ndovu Clinic" / "- Nurse: X"; "# Payments team": a member
        elif topic.name.casefold().split()[-1] in TEAM_WORDS:
            relation = "PART_OF"
        elif STAFF_HEADING_WORDS & set(re.findall(r"\w+", self._heading_line(offset).casefold())):
            relation = "WORKS_FOR"  # "### Villa Mar Azul — staff contacts" / "- Front desk: X"
        else:
            return
        if topic.type == "organization" and all(m.type == "person" for m in values):
            for person in values:
                self._relate(person, topic, relation, line.strip())
        else:  # "- **Front desk:** Luana Costa, Igor Matos": read once the names are typed
            self.member_fields.append((topic, values, line.strip(), relation))

    def _member_fields(self):
        """The people of ``_members`` lines whose names were typed after the line was read:
        each related as the line's key says when every name on it is a person now."""
        for topic, values, line, relation in self.member_fields:
            if topic.type == "organization" and all(
                m.type == "person" and m in self.mentions for m in values
            ):
                for person in values:
                    self._relate(person, topic, relation, line)

    def _without_names(self, text: str, names: list) -> str:
        """A field value's ``text`` with each of its ``names`` blanked: what else it says."""
        for mention in names:
            text = text.replace(self.source[mention.start : mention.end], " ")
        return text

    def _tool_field(
        self, topic, line: str, values: list, start: int, end: int, *, keyed: bool = False
    ):
        """Keep a line's ``values`` (between ``start`` and ``end``) as the tools ``topic``
        may use, for ``_tool_fields``, when the line names them alone, no clause
        ("Cloudbeds — we dropped SiteMinder"); ``keyed`` when a heading says they are
        tools ("## Tools"), so that a person's are too."""
        rest = self._without_names(PARENTHESIS.sub(" ", self.source[start:end]), values)
        if (
            values
            and topic not in values
            and set(re.findall(r"[^\W_]+", rest.casefold())) <= LIST_WORDS
        ):
            self.tool_fields.append((topic, values, line.strip(), keyed))

    def _tool_fields(self):
        """ "## KL Fighting Game Society" / "- **Brackets:** start.gg": under an
        organisation's, a system's or a project's heading, a line under a key of its own
        that names nothing but technologies names the tools it works with. Read once the
        names are typed, as a key the fields do not know says nothing of what they are."""
        for topic, values, line, keyed in self.tool_fields:
            kinds = SECTION_VALUE_TYPES - {"technology"} | ({"person"} if keyed else set())
            if topic.type in kinds and all(
                m.type == "technology" and m in self.mentions for m in values
            ):
                for mention in values:
                    self._relate(topic, mention, "USES", line)

    def _signed_names(self):
        """ "Thanks," / "Ankit": the name on the line under a letter's closing is its
        writer's, a person whatever the named-entity model made of it (or missed)."""
        self.signed: list[tuple[int, int]] = []  # each signed name's span, in order
        lines = self.source.split("\n")
        offset = 0
        for line, following in zip(lines, lines[1:], strict=False):
            offset += len(line) + 1
            if not CLOSING.match(line):
                continue
            named = NAME_LINE.match(following)
            words = named.group(1).casefold().split() if named else []
            if (
                not words
                or words[0] in {"the", "team", "p.s.", "ps"}
                or any(w.strip(".") in lexicon.NEVER_NAMES for w in words)
                or set(words) & (TEAM_WORDS | DEPARTMENTS | ORG_WORDS)
            ):  # "The Ops Team", "Sent from my phone"
                continue
            start, end = offset + named.start(1), offset + named.end(1)
            self.signed.append((start, end))
            inside = [m for m in self.mentions if start <= m.start < end]
            if len(inside) == 1 and (inside[0].start, inside[0].end) == (start, end):
                if inside[0].type != "person" and not inside[0].cued:
                    inside[0].type, inside[0].stated = "person", True
                continue
            span = self.doc.char_span(start, end, alignment_mode="expand")
            if inside or span is None or not self._free(span):
                continue
            self._add(list(span), "person", 0.7, name=named.group(1), origin="field", cued=True)

    def _bylined_works(self) -> None:
        """ "Jan: Pachinko by Min Jin Lee; host Dolores", "- The Vegetarian by Han Kang": a
        run of capitalised words opening a list's item or a field's value, right before
        "by" and a person's full name, is a work's title (``_titles_by`` relates them)."""
        for found in BYLINE.finditer(self.source):
            start, end = found.span(1)
            title = found.group(1)
            words = title.split()
            if len(words) == 1 and english_word(title.casefold()):
                continue  # "Photos by Ana Lima": what, not a title
            author = next((m for m in self.mentions if m.start == found.end()), None)
            if author is None or not 2 <= len(author.name.split()) <= 3:
                continue
            if author.type != "person" and (  # "by Han Kang", whatever the model made of it
                author.origin != "ner"
                or any(w.casefold().strip(".") in ORG_WORDS for w in author.name.split())
            ):
                continue
            span = self.doc.char_span(start, end, alignment_mode="expand")
            if span is None or not self._free(list(span)):
                continue
            self._add(list(span), "document", 0.7, name=title, origin="title", cued=True)

    def _titles_by(self) -> None:
        """ "- *Cloud Atlas* — David Mitchell (finished, loved it)", "*Accelerate* by Forsgren,
        Humble and Kim": the people named right after a work's title and a dash or "by", up to
        a bracket or the line's end and nothing else, wrote it."""
        for title in [m for m in self.mentions if m.origin == "title" and m.type == "document"]:
            line_end = self.source.find("\n", title.end)
            line_end = len(self.source) if line_end < 0 else line_end
            found = TITLE_BY.match(self.source, title.end, line_end)
            if found is None:
                continue
            stop = self.source.find("(", found.end(), line_end)
            stop = line_end if stop < 0 else stop
            people = sorted(
                (m for m in self.mentions if found.end() <= m.start and m.end <= stop),
                key=lambda m: m.start,
            )
            if not people or any(m.type != "person" for m in people):
                continue
            gaps = [self.source[a.end : b.start] for a, b in zip(people, people[1:], strict=False)]
            gaps += [self.source[found.end() : people[0].start], self.source[people[-1].end : stop]]
            if not all(AUTHOR_GAP.fullmatch(gap) for gap in gaps):
                continue  # "— Ana recommended it": no author list
            line = line_around(self.source, title.start, title.end).strip()
            for person in people:
                self._relate(person, title, "CREATED", line)

    def _dash_signed(self) -> None:
        """ "… backups verified. -- Tariq", "… needs failover to Amazon SES. -- hideo": the
        name or handle that closes a note after a dash is its writer's, a person's."""
        found = DASH_SIGNED.search(self.source.rstrip())
        if found is None or not re.search(r"--|\u2014|\u2013", found.group(0)):
            return  # a single hyphen opens a list's item as often as it signs
        start, end = found.span(1)
        word = found.group(1).casefold()
        if word in lexicon.NEVER_NAMES or (found.group(1).islower() and english_word(word)):
            return  # "-- done", "— thanks"
        if any(m.start < end and m.end > start for m in self.mentions):
            return
        span = self.doc.char_span(start, end, alignment_mode="expand")
        if span is not None and self._free(span):
            writer = self._add(
                list(span), "person", 0.7, name=found.group(1), origin="field", cued=True
            )
            if writer is not None:
                writer.stated = True  # signed, whatever its shape

    def _signed_writer(self):
        """The writer of a first-person text without dialogue turns who signs it ("...
        I work as a Java developer at Nokia. — Juha", "Thanks," / "Ankit") or opens it
        with their name ("Me: Rahel Tesfaye. Midwife, ..."): "I" and "my" are that person."""
        if self.speakers or self.writer is not None or not FIRST_PERSON.search(self.source):
            return
        spans = [  # "Thanks," / "Ankit" closing the text, as ``_signed_names`` read it
            span for span in self.signed[-1:] if not self.source[span[1] :].strip()
        ]
        for found in (DASH_SIGNED.search(self.source.rstrip()), ME_LINE.match(self.source)):
            if found:
                spans.append(found.span(1))
        for start, end in spans:
            person = next(
                (m for m in self.mentions if m.type == "person" and start <= m.start < end), None
            )
            if person is not None:
                self.writer = person
                return

    def _addressee(self):
        """The person a letter greets on its first line ("Hi Olu,", "Dear Ms Okafor,",
        "Hello Kateryna!"), a person whatever the name looks like; in a letter about joining
        ("You'll join the Growth team", "your first day") the letter's "you" and "your"."""
        found = GREETED.match(self.source)
        if self.speakers or found is None:
            return
        start, end = found.span(1)
        greeted = next((m for m in self.mentions if start <= m.start < end), None)
        if greeted is None or greeted.end > end:
            return
        if greeted.type != "person":
            # "Hi Kenya," / "Dear Brooklyn,": whom a letter greets is a person, whatever the
            # named-entity model took the name for; not "Hi Team Falcon" or "Hello Acme"
            if greeted.cued or {w.casefold() for w in greeted.name.split()} & WORK_UNITS:
                return
            if greeted.type not in {"location", "organization", "other", "concept"}:
                return
            greeted.type, greeted.stated = "person", True
        if ONBOARDING.search(self.source):
            # only a letter that welcomes someone aboard is about its reader's own facts; a
            # customer's "your order", a stranger's "your paper" tell nothing of them
            self.addressee = greeted

    def _signatures(self):
        """An e-mail's or a letter's signature: a line that is a person's name alone, then
        their role and organization ("Hanus Olsen" / "Director, Nordlýsi Art Museum",
        "Senior Editor | Lighthouse Press", "Site Manager at Ofek Build"): the person leads
        the organization when the role is only a head's title, else works for it."""
        lines = self.source.split("\n")
        offset = 0
        for at, (line, following) in enumerate(zip(lines, lines[1:], strict=False)):
            start = offset + len(line) - len(line.lstrip())
            offset += len(line) + 1
            person = next((m for m in self.mentions if m.start == start), None)
            titled = re.match(r"(\w+)\.? ", self.source[start : offset - 1])
            if person is None and titled and titled.group(1).casefold() in SIGNED_TITLES:
                person = next((m for m in self.mentions if m.start == start + titled.end()), None)
            if person is None or self.source[person.end : offset - 1].strip():
                continue  # not a name alone on its line ("Dr Priti Shah" is one)
            found = SIGNATURE_ROLE.match(following)
            if found is None:
                if at + 2 < len(lines) and lines[at + 2].strip():
                    self._signature_below(person, offset, following, lines[at + 2])
                else:
                    self._organization_under(person, offset, following)
                continue
            if person.type != "person":
                # "Luh Putu Ayu Lestari" / "Sales Manager, Sawah Indah Resort": a name over
                # a job title is a person's, whatever the named-entity model took it for
                title = found.group(1).casefold().split()
                if (
                    person.cued
                    or person.stated
                    or not title
                    or not _a_job(title[-1])
                    or not all(w[:1].isupper() for w in person.name.split())
                ):
                    continue
                person.type, person.stated = "person", True
            organization = self._organization_as_role(offset, found) or min(
                (
                    m
                    for m in self.mentions
                    if offset + found.end() <= m.start < offset + len(following)
                ),
                key=lambda m: m.start,
                default=None,
            )
            if organization is None:
                continue
            if organization.type not in {"organization", "location"}:
                if organization.cued or organization.stated:
                    continue
                # "Chair, Wivenhoe Players", "Team Leader, Strathfillan MRT": the name after
                # a role on a signature's line is whom the role is held at, whatever the
                # named-entity model took it for
                organization.type = "organization"
            if organization.type == "location":
                if known_place(organization.name):
                    continue  # "Senior Engineer, Lisbon": where, not for whom
                organization.type = "organization"  # "Director, Nordlýsi Art Museum"
            self._drop_title(offset + found.start(1), offset + found.end(1), desks=False)
            self.signer_organization = organization
            if self._related(person, organization):
                continue
            role = set(found.group(1).casefold().replace("-", " ").split())
            relation = _role_relation(role)
            self._relate(person, organization, relation, f"{line.strip()}, {following.strip()}")

    def _organization_as_role(self, offset: int, found: re.Match):
        """The organization a signature's line opens with where a role would stand, a place
        after it ("Lapita Libraries, Port Vila"): no job's word ends it, and an organization
        found before covers it whole; None otherwise."""
        start, end = offset + found.start(1), offset + found.end(1)
        words = _role_words(found.group(1))
        if not words or _a_role(words) or not _capitalised(found.group(1)):
            return None
        after = min(
            (m for m in self.mentions if m.start >= offset + found.end()),
            key=lambda m: m.start,
            default=None,
        )
        if after is None or after.type != "location":
            return None
        if not known_place(after.name) and all(english_word(w) for w in words):
            return None  # "Health Informatics, Mount Sinai": a desk, then the hospital
        named = next((m for m in self.mentions if (m.start, m.end) == (start, end)), None)
        if named is None or named.type == "person" or (named.cued and named.type != "organization"):
            return None
        named.type = "organization"
        return named

    def _signature_below(self, person, offset: int, role_line: str, below: str) -> None:
        """A signature in three lines: the name, the role or the desk alone ("Senior
        Conservator", "Head of Stage Engineering", "Customer Care"), the organization alone
        on the line below it."""
        title = role_line.strip().rstrip(",.")
        words = _role_words(title)
        if not words or len(words) > 6 or person.type != "person":
            return
        head = words[0] in HEAD_TITLE_WORDS | LEADER_KEYS or _a_job(words[0])
        if not (_a_role(words) or (head and "of" in words)):  # a desk: "Customer Care"
            return  # "Senior Conservator", "Head of Stage Engineering", "Curator of Textiles"
        if not _capitalised(title):
            return
        role_start = offset + len(role_line) - len(role_line.lstrip())
        below_start = offset + len(role_line) + 1
        below_start += len(below) - len(below.lstrip())
        organization = next((m for m in self.mentions if m.start == below_start), None)
        below_end = below_start + len(below.strip())
        if organization is None or self.source[organization.end : below_end].strip(" .,"):
            # "Alpine Lens Tours" cut at "Tours", "VoltaGrid" run into the role above: the
            # line is the organization's name when it is one alone
            organization = self._signed_organization(below_start, below_end)
            if organization is None:
                return  # not a name alone on its line
        named_person = organization.type == "person" and "&" not in organization.name.split()
        if organization.type not in {"organization", "location"} and (
            named_person or organization.cued or organization.stated
        ):
            return  # "Ek & Björk Snickeri" is no one's name
        if known_place(organization.name):
            return  # "Lisbon" under a role: where, not for whom
        # the line under a role says what it is; the learned types may not overrule it
        organization.type, organization.stated = "organization", True
        self._drop_title(role_start, role_start + len(title))
        self.signer_organization = organization
        if self._related(person, organization):
            return
        relation = _role_relation(set(words) - NAME_JOINS)
        self._relate(person, organization, relation, f"{person.name}, {title}, {below.strip()}")

    def _organization_under(self, person, offset: int, line: str) -> None:
        """A signature in two lines, the last of the letter: the name signed under its
        closing, the organization alone below it ("Cheers," / "Tamsin" / "Kernow Dairy
        Co-operative"); the writer works for it. A job, a desk or a place there is none."""
        if person.type != "person" or (person.start, person.end) not in self.signed:
            return
        words = _role_words(line)
        if not words or _a_role(words):
            return
        start = offset + len(line) - len(line.lstrip())
        organization = self._signed_organization(start, start + len(line.strip()))
        if organization is None:
            return
        organization.stated = True
        self.signer_organization = organization
        self._relate(person, organization, "WORKS_FOR", f"{person.name}, {line.strip()}")

    def _drop_title(self, start: int, end: int, desks: bool = True) -> None:
        """Drop the mentions inside a signature's role ("Senior Conservator", "Customer
        Care" alone on its line, "Senior Cartographer" before ", Hangang Maps Co."): a job
        names no organization, nor a desk alone ("Platform Engineering, Bramble Retail" is
        a department of the organization after it)."""
        words = _role_words(self.source[start:end])
        if not _a_role(words, desks):
            return
        for mention in [m for m in self.mentions if start <= m.start and m.end <= end]:
            if set(mention.name.casefold().split()) <= set(words):
                self._drop(mention)

    def _signed_organization(self, start: int, end: int):
        """The organization a signature's last line names whole ("Alpine Lens Tours",
        "VoltaGrid"): one to five capitalised words (and "of", "&", "and", "for"), no
        digits and no mention reaching past the line; None when the line is not one."""
        text = self.source[start:end].rstrip(" .,")
        words = text.split()
        if not 1 <= len(words) <= 5 or re.search(r"\d|[@:/]", text):
            return None
        if not _capitalised(text):
            return None
        if CLOSING.match(text) or known_place(text):
            return None
        inside = [m for m in self.mentions if m.end > start and m.start < end]
        joined = "&" in text.split()  # "Ek & Björk Snickeri": no one's name
        if any(
            m.start < start
            or m.end > end
            or (m.cued and not self._product_inside(m, text))
            or (m.type == "person" and not joined)
            for m in inside
        ):
            return None
        span = self.doc.char_span(start, start + len(text), alignment_mode="contract")
        if span is None or any(t.pos_ in {"VERB", "AUX", "PRON"} for t in span):
            return None
        for mention in inside:
            self._drop(mention)
        return self._add(list(span), "organization", 0.6, origin="signature")

    @staticmethod
    def _product_inside(mention, line: str) -> bool:
        """Whether a technology the lists know is only a part of an organization's name on
        a signature's last line ("Lyric Opera Northwest": not the Opera browser)."""
        return mention.type == "technology" and len(mention.name.split()) < len(line.split())

    def _led_groups(self):
        """ "`query-gw` → Discovery (Femke Vos)", "Payments (Ama Owusu)": a name with one
        person alone in the parenthesis after it is that person's team or company, whatever
        the named-entity model took it for."""
        for mention in self.mentions:
            if mention.cued or mention.type not in {"technology", "other", "concept"}:
                continue
            if mention.origin not in {"ner", "propn"}:
                continue
            found = PARENTHESIS.match(self.source, mention.end)
            if found is None:
                continue
            inside = [m for m in self.mentions if found.start(1) <= m.start < found.end(1)]
            if (
                len(inside) == 1
                and inside[0].type == "person"
                and self.source[inside[0].start : inside[0].end] == found.group(1).strip()
            ):
                mention.type = "organization"

    def _parentheses(self):
        """What a parenthesis right after a name says of it: a place ("Nimbus Cloud
        (Dublin)"), an employer ("Rosa Díaz (Head of Ops, Fenwick Foods)"), or a field
        ("referral-program (lead: Hana Novak)", "OPS-2291 (owner: Ines)")."""
        for mention in list(self.mentions):
            if mention.origin == "speaker":
                continue
            after = mention.end
            while self.source[after : after + 1] in {"`", "*", "_"} and after < len(self.source):
                after += 1  # "`api-core` (FastAPI)": past the closing mark
            found = PARENTHESIS.match(self.source, after)
            if found is None:
                continue
            start, end = found.start(1), found.end(1)
            inside = [m for m in self.mentions if start <= m.start and m.end <= end]
            sentence = self.source[mention.start : found.end()].strip()
            field = FIELD_LINE.match(found.group(1))
            if field and field_key(field.group(1)) in FIELDS:
                direction, relation, kind = FIELDS[field_key(field.group(1))]
                if relation in {"LIVES_IN", "MANAGER"} or not inside:
                    continue
                for value in inside:
                    if direction == "value":
                        self._relate(value, mention, relation, sentence)
                    else:
                        self._relate(mention, value, relation, sentence)
                continue
            relation = self._bracketed_role(found.group(1)) if mention.type == "person" else None
            if relation is not None and not inside:
                # "# Runbook: restart bid-engine" ... "page Tendai Moyo (owner)": its owner;
                # "Midnight Robbers mas band" ... "Kerwin (our bandleader)": its leader
                topic = (
                    self._topic_at(mention.start) or self._labelled() or self._topic_organization()
                )
                if topic is not None and topic.type != "person":
                    self._relate_field(topic, mention, "value", relation, sentence)
                continue
            tools = [m for m in inside if m.type == "technology"]
            if tools and mention.type in {"component", "project"}:
                # "`api-core` (FastAPI)", "dns-resolver-a and -b (both CoreDNS 1.11)"
                for system in self._coordinated(mention):
                    for tool in tools:
                        self._relate(system, tool, "USES", sentence)
                continue
            if (
                len(inside) == 1
                and mention.type == "component"
                and inside[0].type in {"component", "location"}
                and found.group(1).strip() == inside[0].name
                and inside[0].name.casefold().startswith(("dc-", "dc", "az-", "zone-", "rack-"))
            ):  # "logstash-03 (dc-ams-2)": the datacenter it is in
                self._relate(mention, inside[0], "LOCATED_IN", sentence)
                continue
            places = [m for m in inside if m.type == "location"]
            if (
                len(inside) == 1
                and places
                and mention.type in {"organization", "component", "project", "event"}
                and found.group(1).strip() == places[0].name
            ):
                self._relate(mention, places[0], "LOCATED_IN", sentence)
                continue
            if (
                len(inside) == 1
                and places
                and mention.type == "location"
                and found.group(1).strip() == places[0].name
                and lexicon.GEO_NAMES.kind(mention.name.casefold()) == "city"
                and not known_place(places[0].name)
                and len(places[0].name) >= 4
                and not places[0].name.isupper()
            ):  # "12 Jun Vilnius (Loftas)": the venue in the city (not "Contagem (MG)")
                self._relate(places[0], mention, "LOCATED_IN", sentence)
                continue
            if mention.type == "person" and not any(
                m.type == "organization" and m.name == found.group(1).strip() for m in inside
            ):
                team = self._team_in_brackets(start, end, inside)
                inside = [team] if team is not None else inside
            if mention.type == "person":
                for org in (m for m in inside if m.type == "organization"):
                    words = org.name.casefold().split()
                    # "Mireille (Data Platform)": a team or a department is one's part
                    team = words and words[-1] in TEAM_WORDS | DEPARTMENTS
                    self._relate(mention, org, "PART_OF" if team else "WORKS_FOR", sentence)

    @staticmethod
    def _bracketed_role(text: str):
        """What a role alone in brackets after a person makes them of what the text is
        about ("owner", "lead", "our bandleader", "reviewer"); None for any other words."""
        words = text.strip().casefold().split()
        if words[:1] in (["our"], ["the"]):
            words = words[1:]
        role = " ".join(words)
        if role in FIELDS and FIELDS[role][0] == "value" and FIELDS[role][1] in BRACKETED_ROLES:
            return FIELDS[role][1]
        if len(words) == 1 and role.endswith("leader"):
            return "LEADS"  # "bandleader", "leader"
        return None

    def _team_in_brackets(self, start: int, end: int, inside: list):
        """The team or department a bracket after a person names ("Dalia Mansour (Design
        Ops)", "Wanjiru (ML Platform)", "Tomás Herrera (DBRE)"): one to four capitalised
        words, no role ("CFO", "Release Manager"), kin, place or given name, and a single
        word only as an acronym or a department ("Growth"). The words' own mentions give
        way to it; None when the bracket says something else."""
        text = self.source[start:end].strip()
        words = text.split()
        if not 1 <= len(words) <= 4 or any(not w[:1].isupper() for w in words):
            return None
        lowered = [w.casefold().strip(".,") for w in words]
        if (
            any(not w.replace("&", "").replace("-", "").isalpha() for w in words)
            or set(lowered) & (ROLE_WORK | ROLE_TITLE_WORDS | KIN_KNOWS | KIN_MARRIED)
            or text.casefold() in lexicon.PLACES
            or lexicon.GEO_NAMES.kind(text)
            or lowered[0] in lexicon.GIVEN_NAMES
        ):
            return None
        if len(words) == 1 and not (
            (text.isupper() and len(text) >= 2) or lowered[0] in DEPARTMENTS | TEAM_WORDS
        ):
            return None
        related = self._related_names()
        if any(
            m.type in {"person", "location"}
            or (m.cued and m.type != "organization")
            or normalize_name(m.name) in related
            for m in inside
        ):
            return None
        span = self.doc.char_span(start, end, alignment_mode="expand")
        if span is None or any(
            t.i in self.by_token and self.by_token[t.i] not in inside for t in span
        ):
            return None
        for mention in inside:
            self._drop(mention)
        return self._add(list(span), "organization", 0.6, name=text, origin="field", cued=True)

    def _coordinated(self, mention: Mention) -> list[Mention]:
        """The mention and the names coordinated with it ("A and B (both ...)")."""
        if mention.root < 0:
            return [mention]
        token = self.doc[mention.root]
        while token.dep_ == "conj" and token.head != token:
            token = token.head
        found = [self.by_token.get(t.i) for t in self._with_conjuncts(token)]
        found = [m for m in found if m is not None and m.type == mention.type]
        return found if mention in found else [mention]

    def _value(self, start: int, end: int, kind: str):
        """The entity one value of a field line names: a mention already there, or a new
        one of the key's kind over the value's words."""
        text = self.source[start:end].strip()
        inside = [m for m in self.mentions if start <= m.start < end]
        bare = text.strip("*_~`")  # "**PostgreSQL**": the name, in bold
        if inside and len(inside) == 1 and " " not in bare and len(inside[0].name) < len(bare):
            self._drop(inside[0])  # "user-prefs" is one name, not "prefs"
            inside = []
        if kind == "concept" and (
            text.casefold() in FOODS | INSTRUMENTS or text.casefold().rstrip("s") in FOODS
        ):
            kind = "other"  # "- Likes: bouldering, ramen": a food is a thing
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
        if all(t.pos_ in {"ADJ", "ADV", "DET", "PART"} for t in tokens) and not (
            kind == "person" and all(t.text[:1].isupper() for t in tokens)
        ):  # "lead: Precious" is a name
            return None  # "Dog: Churro, very loud": a description, not a name
        return self._add(tokens, kind, 0.6, origin="field", cued=True)

    def _owners(self):
        """A task list with an owner before each task ("Sprint goals — Tarek: finish the
        gateway; Wen: load-test inventory-svc with k6"): the owner is a person and the
        subject of the task's subjectless verbs, up to the next ";" or the line's end."""
        every = list(OWNER.finditer(self.source))
        opening = Counter(m.group(1) for m in every)
        found = [  # a label opens one line ("Replaces: nas-old"); a chat's "Fen: …" several
            m
            for m in every
            if self._owner_name(m.group(1))
            and not self._speaker_starts(m.start(1))
            and not (opening[m.group(1)] == 1 and self._line_key(m.start(1), m.group(1)))
        ]
        series = len(found) > 1
        for match in found:
            name, start = match.group(1), match.start(1)
            mention = next((m for m in self.mentions if m.start == start), None)
            if mention is not None and mention.type != "person":
                if mention.cued or mention.origin not in {"ner", "propn"}:
                    continue
                if not (series or name.split()[0].casefold() in lexicon.FIRST_NAMES):
                    continue
                mention.type = "person"
            if mention is None:
                if not (series or name.split()[0].casefold() in lexicon.FIRST_NAMES):
                    continue
                span = self.doc.char_span(start, start + len(name), alignment_mode="expand")
                if span is None or not self._free(list(span)):
                    continue
                mention = self._add(list(span), "person", 0.75, origin="propn", cued=True)
                if mention is None:
                    continue
            end = len(self.source)
            for stop in (";", "\n", ". "):
                at = self.source.find(stop, match.end())
                if at >= 0:
                    end = min(end, at)
            self.items.append((match.end(), end, mention))

    def _speaker_starts(self, char: int) -> bool:
        return any(m.start == char for m in self.speakers)

    @staticmethod
    def _owner_name(name: str) -> bool:
        word = name.casefold()
        return (
            word not in lexicon.NEVER_NAMES
            and word not in lexicon.FIELD_KEYS
            and word not in lexicon.TECHNOLOGIES
            and word.split()[0] not in lexicon.NOTE_WORDS
            and word not in FIELDS
        )

    def _item_at(self, char: int):
        for start, end, subject in getattr(self, "items", []):
            if start <= char < end:
                return subject
        return None

    def _heading_line(self, char: int) -> str:
        """The line of the last section's opening before ``char`` ("" when none)."""
        opening = None
        for start, _subject in getattr(self, "topics", []):
            if start <= char:
                opening = start
        if opening is None:
            return ""
        end = self.source.find("\n", opening)
        return self.source[opening : end if end >= 0 else len(self.source)]

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
