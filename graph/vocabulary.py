"""Entity resolution: one normal form per name, one controlled vocabulary of types."""

import re
import unicodedata

ENTITY_TYPES = (
    "person",
    "organization",
    "project",
    "component",
    "technology",
    "concept",
    "location",
    "event",
    "document",
    "other",
)

_PUNCT = re.compile(r"[^\w\s.+#-]|(?<!\w)[.-]|[.-](?!\w)")
_SPACE = re.compile(r"\s+")
_SINGULAR_KEEP = ("ss", "us", "is", "as", "os")


_NOT_PLURAL = {
    "kubernetes",
    "postgres",
    "redis",
    "aws",
    "analytics",
    "series",
    "news",
    "status",
    "always",
    "sales",
    "ops",
    "devops",
    "mathematics",
    "physics",
    "lens",
    "gas",
    "bus",
    "dns",
    "tls",
    "https",
}


def _singular(word: str) -> str:
    if (
        word in _NOT_PLURAL
        or "." in word
        or len(word) <= 3
        or not word.endswith("s")
        or word.endswith(_SINGULAR_KEEP)
    ):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "zes")):
        return word[:-2]
    return word[:-1]


def normalize_name(name: str) -> str:
    """Names that differ only in case, spacing, punctuation or a simple plural are one
    entity: "Auth Gateways", "auth-gateway", " AUTH gateway." → "auth gateway"."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = text.replace("_", " ").replace("-", " ")
    text = _PUNCT.sub(" ", text)
    words = _SPACE.sub(" ", text).strip().split(" ")
    if words and words[-1]:
        words[-1] = _singular(words[-1])
    return " ".join(w for w in words if w)


# The last word of a street's name: "Elm Street", "Kingfisher Ln", "Orchard Row".
STREET_WORDS = set(
    """street st road rd avenue ave boulevard blvd lane ln drive way square sq row place pl
    quay embankment parade terrace crescent cres close court ct gardens grove mews hill
    walk""".split()
)
# The last word of a street's or a company's name written short ("Kingfisher Ln", "Acme
# Ltd"), in its long form.
NAME_ABBREVIATIONS = {
    "st": "street", "rd": "road", "ln": "lane", "ave": "avenue", "blvd": "boulevard",
    "ct": "court", "pl": "place", "sq": "square", "cres": "crescent", "hwy": "highway",
    "ltd": "limited", "inc": "incorporated", "corp": "corporation", "intl": "international",
}  # fmt: skip


# Common words of technical and office notes written short, in their long form ("prod
# DB" is the "production database").
WORD_ABBREVIATIONS = {
    "prod": "production", "db": "database", "dbs": "databases", "env": "environment",
    "config": "configuration", "repo": "repository", "repos": "repositories",
    "docs": "documentation", "admin": "administration", "mgmt": "management",
    "govt": "government", "dept": "department", "mgr": "manager", "info": "information",
    "lib": "library", "libs": "libraries", "app": "application", "apps": "applications",
    "comms": "communications", "cert": "certificate", "certs": "certificates",
    "creds": "credentials",
}  # fmt: skip


def comparable_name(name: str) -> str:
    """A normalised name with its last word in its long form and common words written
    short in theirs, to compare two names ("Kingfisher Ln" and "Kingfisher Lane" are one
    street, "prod DB" and "production database" one component); stored names keep their
    ``normalize_name`` form."""
    words = name.split()
    last = words[-1].casefold().rstrip(".") if len(words) > 1 else ""
    if last in NAME_ABBREVIATIONS:  # before a plural is made singular: "Cres" is no plural
        words[-1] = NAME_ABBREVIATIONS[last]
    if len(words) > 1:
        words = [WORD_ABBREVIATIONS.get(word.casefold(), word) for word in words]
    return normalize_name(" ".join(words))


def comparable_text(text: str) -> str:
    """A normalised text with every short name-ending word in its long form."""
    return " ".join(NAME_ABBREVIATIONS.get(word, word) for word in text.split(" "))


_RELEASE = re.compile(r"(?: v?\d+(?:\.\d+)*[a-z]{0,2})+$")


def unordered_name(name: str) -> str:
    """A normalised name's words in one order, each without a plural's "s", to compare
    two names that say the same words in another order ("22 rua das flores" and "rua das
    flores 22" are one address)."""
    return " ".join(sorted(word.rstrip("s") if len(word) > 3 else word for word in name.split()))


def product_name(name: str, type_: str = "technology") -> str:
    """A technology's normalised name without the release it ends with: "postgresql 14"
    and "kubernetes 1.29.4" name the products "postgresql" and "kubernetes" (a changed
    release is a changed value of one product, not another product). Other names keep
    their numbers ("db prod 1", "eu west 1")."""
    if type_ != "technology":
        return name
    return _RELEASE.sub("", name) or name


def normalize_type(value: str | None) -> str:
    """Map a free-form type (an LLM's "Company", "framework") onto the vocabulary."""
    if not value:
        return "other"
    lowered = value.strip().casefold()
    if lowered in ENTITY_TYPES:
        return lowered
    aliases = {
        "people": "person",
        "human": "person",
        "user": "person",
        "employee": "person",
        "company": "organization",
        "org": "organization",
        "team": "organization",
        "vendor": "organization",
        "customer": "organization",
        "department": "organization",
        "service": "component",
        "system": "component",
        "module": "component",
        "api": "component",
        "library": "technology",
        "framework": "technology",
        "language": "technology",
        "tool": "technology",
        "database": "technology",
        "platform": "technology",
        "product": "technology",
        "place": "location",
        "city": "location",
        "country": "location",
        "region": "location",
        "meeting": "event",
        "incident": "event",
        "release": "event",
        "date": "event",
        "file": "document",
        "spec": "document",
        "report": "document",
        "ticket": "document",
        "idea": "concept",
        "topic": "concept",
        "metric": "concept",
        "policy": "concept",
        "initiative": "project",
        "epic": "project",
    }
    return aliases.get(lowered, "other")


def normalize_relation_type(value: str) -> str:
    """``"depends on"`` → ``DEPENDS_ON``."""
    text = re.sub(r"[^A-Za-z0-9]+", "_", value.strip()).strip("_").upper()
    return text or "RELATED_TO"


# Relation kinds with one object per subject at a time: a second, different object
# replaces the first (a changed manager, employer, home city, spouse, migration target or
# preference).
FUNCTIONAL = frozenset(
    {"REPORTS_TO", "WORKS_FOR", "LOCATED_IN", "LIVES_IN", "MARRIED_TO", "MIGRATED_TO", "PREFERS"}
)
# Relation kinds that negate each other between the same two entities.
OPPOSITE = {"USES": "STOPPED_USING", "STOPPED_USING": "USES"}
