"""A name found in the text (``Mention``) and the rules that choose the kind of relation
between two names: by a verb's lemma and preposition (``VERB_RULES``), by a preposition
attaching one name to another, by a role noun ("the CTO of")."""

from dataclasses import dataclass

from graph.extraction.parser.words import (
    DEPARTMENTS,
    KIN_KNOWS,
    LEADING_ROLES,
    PLACED_KINDS,
    RACE_WORDS,
    ROLE_WORK,
    SCHOOL_NAME_WORDS,
    TEAM_WORDS,
    UNIVERSITY_WORDS,
)
from graph.vocabulary import STREET_WORDS
from memoryhub import lexicon

# Origins whose name and type are a pattern's, not a guess (a dialogue's speaker, an
# identifier, a chat handle): never retyped, merged or widened.
FIXED_ORIGINS = frozenset({"speaker", "identifier", "handle"})


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
    stated: bool = False  # the sentence states its type ("Sónar is a festival"): final


def _attachment(mention: Mention, prep: str, target: Mention) -> str | None:
    """The relation a preposition attaching ``target`` to ``mention`` states."""
    kind = mention.type
    if prep == "in" and target.type == "location" and kind in PLACED_KINDS:
        return "LOCATED_IN"
    if (
        prep in {"on", "off"}
        and target.type == "location"
        and kind in PLACED_KINDS | {"location"}
        and target.name.casefold().split()[-1].rstrip(".") in STREET_WORDS
    ):
        return "LOCATED_IN"  # "Menya Kaito, that new ramen place on Elm Street"
    if prep == "in" and target.type == "location" and kind == "location":
        return "LOCATED_IN"  # "Hollowmere Castle, a fortress in County Clare"
    if prep == "in" and target.type == "location" and kind == "person":
        return "LIVES_IN"  # "my abuela Carmen in Guadalajara"
    if prep == "on" and kind in {"component", "technology"} and target.type == "component":
        return "LOCATED_IN"  # "the nightly-backup job on pg-main-1"
    if prep == "on" and kind == "component" and target.type == "technology":
        return "USES"  # "the orders.v1 topic on Pulsar"
    if prep in {"at", "of", "within"} and kind == "organization" == target.type:
        return "PART_OF"
    if prep in {"from", "on", "at", "of"} and kind == "person" and target.type == "organization":
        words = target.name.casefold().split()
        if words and (words[-1] in TEAM_WORDS or " ".join(words) in DEPARTMENTS):
            return "PART_OF"  # "Bongani from the data team", "Marcus from Finance"
        return "WORKS_FOR"
    if prep == "by" and kind == "document" and target.type == "person":
        return "CREATED"
    if prep == "in" and kind == "component" and target.type == "component":
        return "PART_OF"  # "CartRepository in checkout-service"
    return None


# Roles that lead a place: "the mayor of Olomouc", "governor of Lagos State".
PLACE_LEADERS = {"mayor", "governor", "premier", "president"}


def _role_type(word: str, source: Mention, target: Mention) -> str | None:
    if word in {"wife", "husband", "spouse"} and target.type == "person":
        return "MARRIED_TO"
    if word in KIN_KNOWS and target.type == "person" and source.type == "person":
        return "KNOWS"
    if word in {"fan", "supporter", "not_fan"} and not _person(source):
        return None  # "Big fan of Feyenoord, not a fan of the rain" read as Feyenoord's
    if word in {"fan", "supporter"}:
        return "LIKES"
    if word == "not_fan":
        return "DISLIKES"
    if word in {"wrapper", "fork"} and target.type == "technology":
        return "USES"
    if word in {"part", "member", "subsidiary", "division", "unit", "branch", "arm"}:
        return "PART_OF"
    if word in {"owner", "maintainer"}:
        return "OWNS"
    if word in {"author", "founder", "creator", "cofounder", "co-founder"}:
        return "CREATED"
    if word in LEADING_ROLES and target.type in {
        "project",
        "organization",
        "component",
    }:
        return "LEADS" if target.type != "organization" or word != "manager" else "LEADS"
    if word in PLACE_LEADERS and target.type == "location" and source.type == "person":
        return "LEADS"
    if word in {"student", "alumnus", "alumna", "graduate", "undergrad", "undergraduate"}:
        return "STUDIES_AT" if target.type == "organization" else None
    if word in ROLE_WORK and target.type == "organization":
        return "WORKS_FOR"
    return None


def _verb_lemma(token) -> str:
    """The verb's lemma, also when the tagger took a verb for a noun ("; lives in Austin",
    "and talks to X")."""
    lemma = token.lemma_.lower()
    if lemma not in VERB_RULES and token.tag_ in {"VBD", "VBN", "VBZ"}:
        word = token.lower_  # the lemmatiser's slips: "hated" → "hat"
        for stem in (word[:-1], word[:-2]):
            if stem in VERB_RULES and word.endswith(("d", "s")):
                return stem
    if token.pos_ in {"VERB", "AUX"} or not token.lower_.endswith("s"):
        return lemma
    if token.dep_ in {"conj", "ROOT"} and any(c.dep_ in {"prep", "dobj"} for c in token.children):
        for stem in (token.lower_[:-1], token.lower_[:-2]):
            if stem in VERB_RULES:
                return stem
    return token.lemma_.lower()


def _person(m: Mention) -> bool:
    return m.type == "person"


def _place(m: Mention) -> bool:
    return m.type == "location"


def _language(target: Mention) -> bool:
    """Whether ``target`` names a language ("replies in Kannada")."""
    return target.name.casefold() in lexicon.LANGUAGES


# What a use said to hold no longer stops ("no longer reads from X": a dependency that was).
USE_RELATIONS = {"USES", "DEPENDS_ON", "INTEGRATES_WITH"}


def _rule(default: str | None = None, *, supplied: bool = False, **by_prep):
    """A verb's rule: relation by preposition ("" = direct object), else ``default``.
    ``supplied``: what one gets that way one uses, and no longer getting it is stopping
    ("no longer buys AquaFlow pumps")."""

    rules = {key.rstrip("_"): value for key, value in by_prep.items()}

    def decide(source: Mention, target: Mention, prep: str, no_longer: bool) -> str | None:
        choice = rules.get(prep.replace(" ", "_"), default if not prep else None)
        if callable(choice):
            choice = choice(source, target)
        if no_longer:  # "no longer uses X", "no longer reads from legacy-erp-feed": stopped
            used = supplied or default in {"USES", "DEPENDS_ON", _use}
            return "STOPPED_USING" if used or choice in USE_RELATIONS else None
        return choice

    decide.by_subject = "by" in rules  # "X is backed by Y": X is the subject of the relation
    return decide


def _move(source, target):
    if _person(source) and _place(target):
        return "LIVES_IN"
    if _person(source) and target.type == "organization":  # "he's moving to the ML team"
        words = target.name.casefold().split()
        return "PART_OF" if words and words[-1] in TEAM_WORDS else "WORKS_FOR"
    if _person(source):
        return None
    if _place(target):
        return "LOCATED_IN"  # "the bucket was moved to eu-west-1"
    if target.type == "organization":
        return None  # "moved to the Growth team": a change of hands, no migration
    return "MIGRATED_TO"


def _liked_or_used(source, target):
    return "USES" if target.type == "technology" else "LIKES"


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
    if target.type == "technology" and source.type == "person" and target.name[:1].isupper():
        target.type = "organization"  # "joined Stripe"
    if target.type != "organization":
        return None
    words = target.name.casefold().split()
    if not _person(source):
        return "PART_OF" if source.type == "organization" else None  # "joined an alliance"
    return "PART_OF" if words and words[-1] in TEAM_WORDS else "WORKS_FOR"


def _for_event(source, target):
    """ "drove up to Portland for the Harbor Lights Festival": went to the event."""
    return "ATTENDED" if target.type == "event" and _person(source) else None


def _attend(source, target):
    if target.type == "organization":
        return "STUDIES_AT"
    if target.type in {"event", "location"}:
        return "ATTENDED"
    return None


def _work(source, target):
    if target.type == "technology" and source.type == "person" and target.name[:1].isupper():
        target.type = "organization"  # "worked at Shopify": the company, not the product
    if (
        target.type == "location"
        and _person(source)
        and target.name.casefold().split()[-1] in INSTITUTION_PLACES
    ):
        target.type = "organization"  # "works at the Batumi Botanical Garden": an employer
    if target.type == "organization":
        return "PART_OF" if target.name.casefold().split()[-1] in TEAM_WORDS else "WORKS_FOR"
    return None


def _grown(source, target):
    """ "Nadia grew up in Tashkent": where one was a child, not where one lives (the labelled
    texts relate 5 of 26 such places); "the chain grew in Kenya" places a company."""
    return None if _person(source) else _locate(source, target)


def _staff(source, target):
    """ "coaches the under-12s at Ellerslie Rugby Club": a job at a club, not membership."""
    type_ = _work(source, target)
    return "WORKS_FOR" if type_ == "PART_OF" else type_


# Places that employ people: one works at a museum or a zoo as at a company.
INSTITUTION_PLACES = set(
    """museum garden gardens zoo airport stadium arena library cathedral theatre theater
    aquarium observatory""".split()
)


def _have(source, target):
    return "OWNS" if target.type in {"other", "component", "project"} else None


def _run(source, target):
    words = set(target.name.casefold().split())
    if _person(source) and target.type == "event" and words & RACE_WORDS:
        return "ATTENDED"  # "ran the Berlin Marathon"
    if _person(source) and target.type in {"project", "organization", "event"}:
        return "LEADS"
    if source.type == "organization" and target.type in {"component", "project"}:
        return "OWNS"  # "events-cluster is run by the Streaming team"
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


def _placed(source, target):
    """Where a thing lives or is deployed: a place or a host it is located in, a
    technology it uses ("session-cache lives in ElastiCache", "deployed to Fly.io")."""
    if target.type == "technology" and not _person(source):
        return "USES"
    return _locate(source, target)


def _service(source, target):
    """A system polling, hitting or triggering another integrates with it."""
    return "INTEGRATES_WITH" if target.type == "component" and not _person(source) else None


def _service_or_tool(source, target):
    if _person(source):
        return None
    return "USES" if target.type == "technology" else _service(source, target)


def _use_tech(source, target):
    return "USES" if target.type == "technology" else None


def _study(source, target):
    return "STUDIES_AT" if target.type == "organization" else None


def _lead(source, target):
    """One leads a team, a project, a company or an event, not a place (and one managed
    reports to the manager: ``REVERSED_RULES``)."""
    words = target.name.casefold().split()
    if target.type == "person" and (
        any(w in lexicon.FIRST_NAMES for w in words)
        or target.origin in {"speaker", "handle", "field"}
        or (target.origin == "ner" and len(words) == 1)
    ):
        return None  # "Helen manages Jo": Jo reports to her
    if target.type == "person" and not target.cued:
        target.type = "project"  # "Dmitri leads Elephant Lift": not a person's name
    return "LEADS" if target.type != "location" else None


def _tech_use(source, target):
    """ "built in Go", "rebuilt in Metabase": made with the technology."""
    return "USES" if target.type == "technology" and not _person(source) else None


def _under_manager(source, target):
    """ "joins the Growth team under Matías", "works under Dr. Ito": whom one reports to."""
    return "REPORTS_TO" if _person(source) and _person(target) else None


def _under(source, target):
    """ "Falcon sits under the Marketplace tribe": one group is part of another."""
    if source.type == "organization" and target.type == "organization":
        return "PART_OF"
    return None


def _create(source, target):
    return "CREATED" if target.type != "person" else None


def _direct(source, target):
    """ "directs the Kestrel Institute" leads it; "directed Parasite" made the film."""
    if target.type in {"document", "other", "concept"}:
        return _create(source, target)
    return _lead(source, target)


def _meet(source, target):
    return "KNOWS" if _person(source) and _person(target) else None


def _data(source, target):
    """Reading or writing a store is using it; a system of ours reading or writing another
    depends on it (as anything does a store of ours); a service is integrated with."""
    if target.type == "technology":
        return "USES"
    if target.type == "component":
        if source.type == "component":  # "payments-api reads from db-replica-2": ours, needed
            return "DEPENDS_ON"
        words = target.name.casefold().replace("-", " ").replace("_", " ").split()
        stores = {"db", "database", "table", "bucket", "topic", "queue", "index", "cache", "store"}
        stored = words and (words[-1] in stores or words[0] in stores)
        return "DEPENDS_ON" if stored else "INTEGRATES_WITH"
    return None


def _needs(source, target):
    """A system calling, polling or fetching from another of ours depends on it (the
    labelled texts say so of 72 in 100 calls, 82 of reads); a service of another's it
    integrates with."""
    if _person(source):
        return None
    if target.type == "component" and source.type == "component":
        return "DEPENDS_ON"
    return "INTEGRATES_WITH"


def _look_after(source, target):
    """ "Priya looks after the billing pipeline": one who tends a system owns it."""
    if (_person(source) or source.type == "organization") and target.type in {
        "component",
        "project",
        "other",
    }:
        return "OWNS"
    return None


def _look_after_person(source, target):
    """ "the Identity team handles auth-svc": a team or a person handling a system."""
    if (_person(source) or source.type == "organization") and target.type in {
        "component",
        "project",
    }:
        return "OWNS"
    return None


def _report_to(source, target):
    """ "Tomasz reports to Ewa": one reports to a person, whatever the name looked like."""
    if target.type in {"location", "concept", "other"} and not target.cued and _person(source):
        target.type = "person"
    return "REPORTS_TO" if target.type == "person" else None


# The words of a school's or a university's own name (not "institute": a workplace as often).
STUDY_PLACE_WORDS = (
    SCHOOL_NAME_WORDS
    | (UNIVERSITY_WORDS - {"institute"})
    | set("academy uni lycee lyceum high iim conservatory conservatoire".split())
)


def _start_at(source, target):
    """ "Imogen starts at Ashford Primary", "Kemi is at Covenant University": a pupil;
    "starts at Canva": a job."""
    if _person(source) and target.type == "organization":
        words = set(target.name.casefold().replace(".", " ").split())
        if words & STUDY_PLACE_WORDS:
            return "STUDIES_AT"
    return _work(source, target)


def _organise(source, target):
    """ "Sanne is organising the summit": she leads the event."""
    return "LEADS" if _person(source) and target.type in {"event", "project"} else None


def _employer(source):
    """ "Stripe hired Ana": the one hiring is a company, also when it is a product too."""
    if source.type == "technology" and source.name[:1].isupper():
        source.type = "organization"
    return "WORKS_FOR" if source.type == "organization" else None


def _operate(source, target):
    """ "the Seed Vault, operated by the Crop Trust": who runs a thing owns it."""
    if source.type in {"organization", "person"} and target.type not in {"person", "location"}:
        return "OWNS"
    if source.type == "organization" and target.type == "location" and not target.cued:
        return "OWNS"
    return None


def _spent_at(source, target):
    """ "spent eight years at UNICEF": worked there; "spent the day at the zoo": went."""
    if target.type == "organization" and _person(source):
        return "WORKS_FOR"
    return _go(source, target)


def _stop(source, target):
    """ "ditched Jenkins", "dropped MongoDB": stopped using a technology."""
    return "STOPPED_USING" if target.type == "technology" else None


def _switch_to(source, target):
    """ "ditched Jenkins for GitHub Actions": moved to the other one."""
    return "MIGRATED_TO" if target.type in {"technology", "component"} else None


def _use(source, target):
    return "USES" if target.type != "person" else None


_NO_RULE = _rule(None)  # a verb of no kind: only "with/via/on <technology>" says USES

VERB_RULES = {
    "use": _rule(_use, **{"for": _use_tech}),  # "uses Kafka for events and Redis for X"
    "rely": _rule(None, on="USES"),
    "build": _rule(_create, on="USES", with_="USES", **{"in": _tech_use}),
    "write": _rule(_create, **{"in": "USES", "to": _data}),
    "power": _rule(None, by="USES"),
    "back": _rule(None, by="DEPENDS_ON"),
    "teach": _rule(None, at=_work),
    "coach": _rule(None, at=_staff, **{"for": _staff}),
    "support": _rule(lambda s, t: "LIKES" if _person(s) and t.type == "organization" else None),
    "cache": _rule(None, **{"in": _data}),
    "collect": _rule(None, **{"in": _data, "with": _data}),  # "collects its data in REDCap"
    "track": _rule(None, **{"in": _data, "with": _data}),  # "tracks the herd in DelPro"
    "record": _rule(None, **{"in": _data}),
    "volunteer": _rule(None, at=_team_or_org, with_=_team_or_org),
    "run": _rule(
        _run, on=_run_on, at=_work, **{"in": lambda s, t: None if _person(s) else _locate(s, t)}
    ),
    "fan": _rule(None, to="INTEGRATES_WITH", out="INTEGRATES_WITH"),
    "depend": _rule(None, on="DEPENDS_ON"),
    "require": _rule("DEPENDS_ON"),
    "need": _rule("DEPENDS_ON"),
    "call": _rule(_needs, to="INTEGRATES_WITH"),
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
    "draft": _rule(_create),
    # "Anthropic released a new Claude model": a company's release is its work (a team's
    # release of a service is a deploy, no relation)
    "release": _rule(
        lambda s, t: (
            "CREATED" if s.type == "organization" and t.type in {"technology", "document"} else None
        )
    ),
    "propose": _rule(lambda s, t: "CREATED" if t.type in {"document", "project"} else None),
    "adopt": _rule(lambda s, t: "USES" if t.type == "technology" else _have(s, t)),
    "consume": _rule(
        lambda s, t: "INTEGRATES_WITH" if t.type == "component" else None, **{"from": _data}
    ),
    "load": _rule(_data, into=_data),
    "upsert": _rule(None, into=_data),
    "store": _rule(None, **{"in": _data}),
    "pull": _rule(None, **{"from": _needs}),
    "fetch": _rule(None, **{"from": _needs}),
    "acquire": _rule(lambda s, t: "OWNS" if t.type == "organization" else None),
    "buy": _rule(
        lambda s, t: "OWNS" if t.type in {"organization", "other"} else None, supplied=True
    ),
    "headquarter": _rule(None, **{"in": _locate}),
    "rewrite": _rule(_create, to="MIGRATED_TO", **{"in": "USES"}),
    "port": _rule(None, to="MIGRATED_TO"),
    "return": _rule(None, **{"from": _go}),
    "migrate": _rule(None, to="MIGRATED_TO"),
    "switch": _rule(None, to="MIGRATED_TO"),
    "move": _rule(None, to=_move, **{"in": _move}),
    "relocate": _rule(None, to=_move),
    "retire": _rule(None, to=_move),  # "has since retired to Tbilisi"
    "emigrate": _rule(None, to=_move),
    "replace": _rule("REPLACES"),
    "supersede": _rule("REPLACES"),
    "own": _rule("OWNS"),
    "maintain": _rule("OWNS"),
    "have": _rule(_have),
    "adopt_pet": _rule("OWNS"),
    "lead": _rule(_lead, at=_work),
    "manage": _rule(_lead, at=_work, **{"in": _data}),  # "manages references in Zotero"
    "head": _rule(_lead, to=_go, at=_work),
    "report": _rule(None, to=_report_to),
    "reconnect": _rule(None, to=_service),
    "work": _rule(None, at=_work, under=_under_manager, **{"for": _work}),
    "join": _rule(_join, under=_under_manager),
    "employ": _rule(None, by="WORKS_FOR"),
    "intern": _rule(None, at="WORKS_FOR"),
    "belong": _rule(None, to="PART_OF"),
    "host": _rule(None, **{"in": "LOCATED_IN", "on": "USES"}),
    "organise": _rule(_organise),
    "organize": _rule(_organise),
    "deploy": _rule(None, to=_placed, **{"in": _placed, "on": "USES"}),
    "base": _rule(None, **{"in": _locate}),
    "wear": _rule(lambda s, t: "USES" if t.type == "technology" else None),  # a watch, a CGM
    "locate": _rule(None, **{"in": _locate}),
    "live": _rule(None, **{"in": _placed, "on": _placed}),
    "grow": _rule(None, **{"in": _grown, "up": _grown}),
    "stay": _rule(None, **{"in": lambda s, t: _locate(s, t) if _person(s) else None}),
    "be": _rule(
        None,
        **{
            "in": _locate,
            "at": _start_at,  # "Kemi is at Covenant University": a pupil there
            "married_to": "MARRIED_TO",
            "obsessed_with": "LIKES",
            "into": "LIKES",
            "crazy_about": "LIKES",
            "passionate_about": "LIKES",
            "hooked_on": "LIKES",
            "interested_in": "LIKES",
            "keen_on": "LIKES",
            "fond_of": "LIKES",
            "addicted_to": "LIKES",
            "sick_of": "DISLIKES",
            "tired_of": "DISLIKES",
            "scared_of": "DISLIKES",
            "afraid_of": "DISLIKES",
            "on": _join_on,
            "responsible_for": "OWNS",
            "based_in": _locate,
            "part_of": "PART_OF",
            "with": lambda s, t: _work(s, t) if _person(s) else None,  # "Tom is with Acme now"
            "a_fan_of": "LIKES",
        },
    ),
    "visit": _rule(_go, for_=_for_event, **{"in": _go}),  # "visited Cairo for the X Congress"
    "take": _rule(None, to=_go),  # "took the kids to the Natural History Museum"
    "accept": _rule(None, to=_study, into=_study, at=_study),  # "got accepted to ETH"
    "hike": _rule(_go, **{"in": _go}),
    "explore": _rule(_go),
    "tour": _rule(_go),
    "climb": _rule(_go),
    "backpack": _rule(None, through=_go, across=_go, **{"in": _go}),
    "play": _rule(
        None,
        **{"in": _team_or_org, "for": _team_or_org, "with": _team_or_org, "at": _team_or_org},
    ),
    "sing": _rule(None, **{"in": _team_or_org, "with": _team_or_org}),
    "compete": _rule(None, **{"in": _team_or_org, "for": _team_or_org}),
    "take_over": _rule(
        lambda s, t: (
            "OWNS"
            if (_person(s) or s.type == "organization")
            and t.type in {"component", "project", "other"}
            else None
        )
    ),
    "inherit": _rule(lambda s, t: "OWNS" if t.type in {"component", "project"} else None),
    "point": _rule(None, at="INTEGRATES_WITH", to="INTEGRATES_WITH"),
    "post": _rule(None, to="INTEGRATES_WITH"),
    "stream": _rule(None, to="INTEGRATES_WITH", into="INTEGRATES_WITH"),
    "emit": _rule(None, to="INTEGRATES_WITH"),
    "subscribe": _rule(None, to="INTEGRATES_WITH"),
    "listen": _rule(None, to="INTEGRATES_WITH", on="INTEGRATES_WITH"),
    "proxy": _rule(None, to="INTEGRATES_WITH"),
    "poll": _rule(_service),
    "hit": _rule(_service),
    "ping": _rule(_service),
    "trigger": _rule(_service),
    "invoke": _rule(_service),
    "upload": _rule(None, to=_data, into=_data),
    "sync": _rule(None, with_=_service_or_tool, to=_service_or_tool),
    "forward": _rule(None, to="INTEGRATES_WITH"),
    "route": _rule(None, to="INTEGRATES_WITH", through=_run_on, via=_run_on),
    "sit": _rule(None, behind=_use_tech, on=_run_on, under=_under, **{"in": _locate}),
    "fall": _rule(None, under=_under),
    "serve": _rule(None, by=_run_on, **{"from": _run_on}),
    "rebuild": _rule(_create, **{"in": "USES", "on": "USES", "with": "USES"}),
    "go": _rule(None, to=_go, at=_go, for_=_for_event, **{"in": _go}),  # "went camping at X"
    "travel": _rule(None, to=_go, for_=_for_event),
    "fly": _rule(None, to=_go, into=_go, for_=_for_event),  # "flew into El Calafate"
    "drive": _rule(lambda s, t: "OWNS" if t.type == "other" else None, to=_go, for_=_for_event),
    "camp": _rule(None, **{"in": _go, "at": _go}),
    "land": _rule(None, **{"in": _go, "at": _go}),  # "landed in Reykjavík"
    "arrive": _rule(None, **{"in": _go, "at": _go}),
    "attend": _rule(_attend),
    "marry": _rule("MARRIED_TO", to="MARRIED_TO"),
    "know": _rule(_meet),
    "meet": _rule(_meet, with_=_meet),
    "like": _rule("LIKES"),
    "love": _rule("LIKES"),
    "enjoy": _rule("LIKES"),
    "adore": _rule("LIKES"),
    "hook": _rule(None, on=_liked_or_used),  # "hooked on jazz", "got me hooked on Cypress"
    "hate": _rule("DISLIKES"),
    "dislike": _rule("DISLIKES"),
    "detest": _rule("DISLIKES"),
    "prefer": _rule("PREFERS", **{"in": lambda s, t: "PREFERS" if _language(t) else None}),
    "study": _rule(None, at="STUDIES_AT"),
    "graduate": _rule(None, **{"from": "STUDIES_AT"}),
    "enroll": _rule(None, at="STUDIES_AT", **{"in": "STUDIES_AT"}),
    "create": _rule(_create),
    "found": _rule(_create),
    "design": _rule(_create, at=_work),
    "author": _rule(_create),
    "develop": _rule(_create, at=_work),
    "start": _rule(
        lambda s, t: "CREATED" if t.type in {"organization", "project"} else None, at=_start_at
    ),
    "get": _rule(
        lambda s, t: "OWNS" if _person(s) and t.type == "other" else None,  # "got a poodle"
        into=lambda s, t: "STUDIES_AT" if t.type == "organization" else None,
    ),
    "start_school": _rule(None, at=_study, **{"in": _study}),
    "co-own": _rule("OWNS"),
    "coown": _rule("OWNS"),
    "co-found": _rule(_create),
    "cofound": _rule(_create),
    "co-author": _rule(_create),
    "coauthor": _rule(_create),
    "present": _rule(None, at=_attend),
    "speak": _rule(None, at=_attend),
    "give": _rule(None, at=_attend),
    "review": _rule("REVIEWED"),
    "approve": _rule("REVIEWED"),
    # Synonyms, by relation: the same kinds of statement in other words.
    "look": _rule(None, after=_look_after),  # "Priya looks after the billing pipeline"
    "oversee": _rule(_lead),
    "chair": _rule(_lead),
    "spearhead": _rule(_lead),
    "steward": _rule(_look_after),
    "reside": _rule(None, **{"in": _locate}),
    "settle": _rule(None, **{"in": _locate}),
    "loathe": _rule("DISLIKES"),
    "despise": _rule("DISLIKES"),
    "abhor": _rule("DISLIKES"),
    "favour": _rule("PREFERS"),
    "favor": _rule("PREFERS"),
    "fancy": _rule(lambda s, t: "LIKES" if _person(s) else None),
    "admire": _rule(lambda s, t: "LIKES" if _person(s) else None),
    "swear": _rule(None, by=lambda s, t: "PREFERS" if _person(s) else None),
    "lecture": _rule(None, at=_work, **{"in": _work}),
    "operate": _rule(_operate),
    "lie": _rule(None, outside=_locate, near=_locate, **{"in": _locate}),
    "split": _rule(None, across=_locate, between=_locate),  # "is split across Dublin and X"
    "spread": _rule(None, across=_locate, between=_locate, over=_locate),
    "try": _rule(lambda s, t: "USES" if _person(s) and t.type == "technology" else None),
    "spend": _rule(None, **{"in": _go, "at": _spent_at}),
    "commute": _rule(None, to=_work),
    "rave": _rule(None, about=lambda s, t: "LIKES" if _person(s) else None),
    "leverage": _rule(_use),
    "utilize": _rule(_use),
    "utilise": _rule(_use),
    "wed": _rule("MARRIED_TO", to="MARRIED_TO"),
    "befriend": _rule(_meet),
    "hire": _rule(None, by="WORKS_FOR"),
    "feed": _rule(_service, into=_data, to=_data),
    "link": _rule(None, against="DEPENDS_ON", to="DEPENDS_ON"),
    "federate": _rule(None, to="INTEGRATES_WITH", with_="INTEGRATES_WITH"),
    "flush": _rule(None, to=_data, into=_data),
    "spill": _rule(None, to=_data, into=_data),
    "notify": _rule(_service),
    "communicate": _rule(None, with_=_service),
    "interface": _rule(None, with_=_service),
    "persist": _rule(None, to=_data, into=_data, **{"in": _data}),
    "log": _rule(None, to=_data, into=_data),
    "dump": _rule(None, to=_data, into=_data),
    "export": _rule(None, to=_data, into=_data),
    "ship": _rule(None, to=_data),
    "archive": _rule(None, to=_data, into=_data, **{"in": _data}),
    "keep": _rule(
        lambda s, t: "OWNS" if _person(s) and t.type == "other" else None, **{"in": _data}
    ),
    "save": _rule(None, to=_data, into=_data, **{"in": _data}),
    "authenticate": _rule(None, against=_service_or_tool, with_=_service_or_tool),
    "ditch": _rule(_stop, **{"for": _switch_to}),
    "drop": _rule(_stop, **{"for": _switch_to}),
    "abandon": _rule(_stop, **{"for": _switch_to}),
    "swap": _rule(None, to="MIGRATED_TO"),
    "transition": _rule(None, to="MIGRATED_TO"),
    "cut": _rule(None, to="MIGRATED_TO", over="MIGRATED_TO"),
    "standardize": _rule(None, on=_use_tech),
    "standardise": _rule(None, on=_use_tech),
    "stick": _rule(None, with_=_use_tech),
    "opt": _rule(None, **{"for": lambda s, t: "PREFERS" if _person(s) else _use_tech(s, t)}),
    "reach": _rule(_service),
    "contact": _rule(_service),
    "access": _rule(_data),
    "scrape": _rule(_service),
    "monitor": _rule(_service_or_tool),
    "replicate": _rule(None, to=_service, into=_service),
    "mirror": _rule(None, to=_service),
    "handle": _rule(_look_after_person),
    "co-lead": _rule(_lead),
    "colead": _rule(_lead),
    "direct": _rule(_direct),
    "helm": _rule(_lead),
    "captain": _rule(_lead),
    "skipper": _rule(_lead, at=_staff, **{"for": _staff}),  # "skippers the boat"
    # "is conducted by Kristjan Mägi": an orchestra, a choir, a band (not "a survey")
    "conduct": _rule(lambda s, t: _lead(s, t) if t.type in {"organization", "project"} else None),
    "supervise": _rule(_lead),
}


def _managed(source, target):
    """ "Helen manages Jo": Jo reports to Helen."""
    return "REPORTS_TO" if _person(source) and _person(target) else None


# Verbs whose grammatical subject is the relation's target: "Stripe hired Ana" (Ana works
# for Stripe), "Helen manages Jo" (Jo reports to Helen), "payouts is consumed by X".
REVERSED_RULES = {
    # "Porto hosted Web Summit Iberia": the event is in the place
    "host": lambda s, t: "LOCATED_IN" if s.type == "location" and t.type == "event" else None,
    "hire": lambda s, t: _employer(s) if _person(t) else None,
    "employ": lambda s, t: _employer(s) if _person(t) else None,
    "recruit": lambda s, t: _employer(s) if _person(t) else None,
    "manage": _managed,
    "supervise": _managed,
}
