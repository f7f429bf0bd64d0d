"""YAML templates of active memories: parsing and validation.

A template names itself and lists its sections::

    template:
      id: task_memory
      name: Task memory
      version: "1.0"
    sections:
      - id: objective
        name: Objective
        description: What the agent is trying to achieve
        required: true
      - id: progress
        name: Progress

Sections are stored under their ``id``; callers may address a section by id or by its
display name.
"""

import functools
import re
from dataclasses import dataclass

import yaml
from django.conf import settings

from memoryhub.errors import DomainError, PayloadTooLargeError

SECTION_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


class TemplateError(DomainError):
    code = "invalid_template"


@dataclass(frozen=True)
class SectionSpec:
    id: str
    name: str
    description: str
    required: bool


@dataclass(frozen=True)
class Template:
    id: str
    name: str
    version: str
    sections: tuple[SectionSpec, ...]

    @property
    def section_ids(self) -> list[str]:
        return [section.id for section in self.sections]

    def resolve(self, key: str) -> str | None:
        """The section id for ``key`` (an id, or a display name in any case)."""
        for section in self.sections:
            if section.id == key:
                return section.id
        folded = key.strip().casefold()
        for section in self.sections:
            if section.name.casefold() == folded:
                return section.id
        return None


def _fail(problem: str, field: str = "template_content") -> TemplateError:
    return TemplateError(f"template_content: {problem}", fields={field: problem})


def _required_text(mapping: dict, key: str, where: str) -> str:
    value = mapping.get(key)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)  # version: 1.0 is a float in YAML
    if not isinstance(value, str) or not value.strip():
        raise _fail(f"{where}.{key} is required and must be a non-empty string")
    return value.strip()


def parse_template(text) -> Template:
    """Parse and validate template YAML, raising TemplateError naming the problem.

    Every read or update of an active memory parses its template: the parsed templates
    are kept (a frozen value, per text and limits), which takes the YAML parser (a third
    of a section update's time, profiled) off the hot path."""
    if not isinstance(text, str):
        raise _fail("must be a YAML string")
    limit = settings.MEMORYHUB_ACTIVE["max_template_bytes"]
    if len(text.encode()) > limit:
        raise PayloadTooLargeError(
            f"template_content is {len(text.encode())} bytes; the limit is {limit} bytes",
            fields={"template_content": f"larger than {limit} bytes"},
        )
    return _parse_template(text, settings.MEMORYHUB_ACTIVE["max_sections"])


@functools.lru_cache(maxsize=128)
def _parse_template(text: str, max_sections: int) -> Template:
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise _fail(f"malformed YAML{where}: {problem}") from exc
    if not isinstance(document, dict):
        raise _fail("must be a YAML mapping with 'template' and 'sections'")

    header = document.get("template")
    if not isinstance(header, dict):
        raise _fail("'template' must be a mapping with id, name and version")
    template_id = _required_text(header, "id", "template")
    template_name = _required_text(header, "name", "template")
    version = _required_text(header, "version", "template")

    raw_sections = document.get("sections")
    if not isinstance(raw_sections, list) or not raw_sections:
        raise _fail("'sections' must be a non-empty list")
    if len(raw_sections) > max_sections:
        raise _fail(f"has {len(raw_sections)} sections; at most {max_sections} are allowed")

    sections: list[SectionSpec] = []
    seen_ids: set[str] = set()
    seen_names: set[str] = set()
    for index, raw in enumerate(raw_sections):
        where = f"sections[{index}]"
        if not isinstance(raw, dict):
            raise _fail(f"{where} must be a mapping with id and name")
        section_id = _required_text(raw, "id", where)
        if not SECTION_ID_RE.match(section_id):
            raise _fail(
                f"{where}.id {section_id!r} must start with a letter or digit and contain only "
                "letters, digits, '_', '.', '-' (at most 100 characters)"
            )
        name = _required_text(raw, "name", where)
        required = raw.get("required", False)
        if not isinstance(required, bool):
            raise _fail(f"{where}.required must be true or false")
        description = raw.get("description") or ""
        if not isinstance(description, str):
            raise _fail(f"{where}.description must be a string")
        if section_id in seen_ids:
            raise _fail(f"duplicate section id {section_id!r}")
        if name.casefold() in seen_names:
            raise _fail(f"duplicate section name {name!r}")
        seen_ids.add(section_id)
        seen_names.add(name.casefold())
        sections.append(
            SectionSpec(id=section_id, name=name, description=description, required=required)
        )

    return Template(id=template_id, name=template_name, version=version, sections=tuple(sections))
