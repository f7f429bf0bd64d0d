from dataclasses import asdict, dataclass, field


@dataclass
class ExtractedEntity:
    name: str
    type: str
    description: str = ""
    confidence: float = 0.5


@dataclass
class ExtractedRelationship:
    source: str  # entity name as extracted
    target: str
    type: str
    description: str = ""
    confidence: float = 0.5
    strength: float = 0.5


@dataclass
class Extraction:
    entities: list[ExtractedEntity] = field(default_factory=list)
    relationships: list[ExtractedRelationship] = field(default_factory=list)

    def as_dict(self) -> dict:
        """Plain JSON (``from_dict`` reads it back)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Extraction":
        return cls(
            entities=[ExtractedEntity(**e) for e in data.get("entities", [])],
            relationships=[ExtractedRelationship(**r) for r in data.get("relationships", [])],
        )


class ExtractionError(Exception):
    """The extractor failed (unreachable, malformed answer); the memory is kept and the
    extraction is retried later."""


class Extractor:
    """An extractor: ``extract`` one text; ``extract_many`` a batch (one by one unless
    the extractor batches better)."""

    name = "base"
    has_quick_reading = False  # ``extract_quick`` reads less than ``extract``

    def extract(self, text: str) -> Extraction:  # pragma: no cover - abstract
        raise NotImplementedError

    def extract_many(self, texts: list[str]) -> list[Extraction]:
        return [self.extract(text) for text in texts]

    def extract_quick(self, text: str) -> Extraction:
        """The extraction a decision reads (which names a text states, of what type, how
        they relate), as fast as the extractor can give it; the same as ``extract`` unless
        the extractor has a faster reading."""
        return self.extract(text)

    def extract_quick_many(self, texts: list[str]) -> list[Extraction]:
        return [self.extract_quick(text) for text in texts]
