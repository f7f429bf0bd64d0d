import pytest

from memoryhub.errors import PayloadTooLargeError
from tests.factories import TASK_TEMPLATE
from tiers.active_templates import TemplateError, parse_template


def test_it_parses_a_template():
    template = parse_template(TASK_TEMPLATE)
    assert (template.id, template.name, template.version) == ("task_memory", "Task memory", "1.0")
    assert template.section_ids == ["objective", "progress", "notes"]
    assert [s.required for s in template.sections] == [True, False, False]


def test_it_resolves_sections_by_id_or_display_name():
    template = parse_template(TASK_TEMPLATE)
    assert template.resolve("progress") == "progress"
    assert template.resolve("Progress") == "progress"
    assert template.resolve(" notes ") == "notes"
    assert template.resolve("nope") is None


def test_it_accepts_a_numeric_version():
    text = TASK_TEMPLATE.replace('version: "1.0"', "version: 2")
    assert parse_template(text).version == "2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("template: [unclosed", "malformed YAML at line 1"),
        ("just a string", "must be a YAML mapping"),
        ("template:\n  id: t\n  name: T\n  version: '1'\n", "'sections' must be a non-empty list"),
        (
            "template:\n  id: t\n  name: T\n  version: '1'\nsections: []\n",
            "'sections' must be a non-empty list",
        ),
        ("sections:\n  - id: a\n    name: A\n", "'template' must be a mapping"),
        (
            "template:\n  name: T\n  version: '1'\nsections:\n  - id: a\n    name: A\n",
            "template.id is required",
        ),
        (
            "template:\n  id: t\n  name: T\nsections:\n  - id: a\n    name: A\n",
            "template.version is required",
        ),
        (
            "template: {id: t, name: T, version: '1'}\n"
            "sections:\n  - id: a\n    name: A\n  - id: a\n    name: B\n",
            "duplicate section id 'a'",
        ),
        (
            "template: {id: t, name: T, version: '1'}\n"
            "sections:\n  - id: a\n    name: A\n  - id: b\n    name: a\n",
            "duplicate section name 'a'",
        ),
        (
            "template: {id: t, name: T, version: '1'}\nsections:\n  - name: A\n",
            "sections[0].id is required",
        ),
        (
            "template: {id: t, name: T, version: '1'}\nsections:\n  - id: a\n",
            "sections[0].name is required",
        ),
        (
            "template: {id: t, name: T, version: '1'}\nsections:\n  - id: 'a b'\n    name: A\n",
            "sections[0].id 'a b'",
        ),
        (
            "template: {id: t, name: T, version: '1'}\n"
            "sections:\n  - id: a\n    name: A\n    required: maybe\n",
            "sections[0].required must be true or false",
        ),
        (
            "template: {id: t, name: T, version: '1'}\nsections:\n  - plain\n",
            "sections[0] must be a mapping",
        ),
    ],
)
def test_it_names_the_problem_of_a_bad_template(text, message):
    with pytest.raises(TemplateError) as caught:
        parse_template(text)
    assert message in caught.value.detail
    assert "template_content" in caught.value.fields


def test_it_refuses_a_template_that_is_not_text():
    with pytest.raises(TemplateError):
        parse_template({"template": {}})


def test_it_refuses_a_huge_template(settings):
    settings.MEMORYHUB_ACTIVE = {**settings.MEMORYHUB_ACTIVE, "max_template_bytes": 100}
    with pytest.raises(PayloadTooLargeError):
        parse_template(TASK_TEMPLATE)


def test_it_limits_the_number_of_sections(settings):
    settings.MEMORYHUB_ACTIVE = {**settings.MEMORYHUB_ACTIVE, "max_sections": 2}
    with pytest.raises(TemplateError, match="at most 2"):
        parse_template(TASK_TEMPLATE)


def test_it_keeps_a_parsed_template_but_applies_the_current_limits(settings):
    """Every section update parses its memory's template: the parse is kept per text."""
    assert parse_template(TASK_TEMPLATE) is parse_template(TASK_TEMPLATE)
    settings.MEMORYHUB_ACTIVE = {**settings.MEMORYHUB_ACTIVE, "max_sections": 2}
    with pytest.raises(TemplateError, match="at most 2"):
        parse_template(TASK_TEMPLATE)
    bad = TASK_TEMPLATE.replace("sections:", "sections: [")
    for _ in range(2):  # a failure is raised again, never kept
        with pytest.raises(TemplateError):
            parse_template(bad)
