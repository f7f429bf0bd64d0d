import pytest

from memoryhub.errors import DomainError, PayloadTooLargeError
from tests.factories import TASK_TEMPLATE, ActiveMemoryFactory
from tiers.active_templates import TemplateError
from tiers.models import ActiveMemory
from tiers.services.active import (
    active_memory_create,
    active_memory_delete,
    active_memory_update,
    active_memory_update_sections,
)

pytestmark = pytest.mark.django_db


def test_it_initialises_every_section(worker):
    memory = active_memory_create(
        worker=worker,
        title="Build auth",
        template_yaml=TASK_TEMPLATE,
        initial_sections={"objective": "Add JWT auth", "Notes": "use RS256"},
        metadata={"ticket": "AUTH-1"},
    )
    assert memory.sections == {
        "objective": {"content": "Add JWT auth", "update_count": 0},
        "progress": {"content": "", "update_count": 0},
        "notes": {"content": "use RS256", "update_count": 0},
    }
    assert memory.metadata == {"ticket": "AUTH-1"}


def test_it_requires_the_required_sections(worker):
    with pytest.raises(DomainError) as caught:
        active_memory_create(
            worker=worker, title="t", template_yaml=TASK_TEMPLATE, initial_sections={"notes": "x"}
        )
    assert caught.value.code == "missing_required_section"
    assert "initial_sections.objective" in caught.value.fields
    assert not ActiveMemory.objects.exists()


def test_it_names_unknown_sections(worker):
    with pytest.raises(DomainError) as caught:
        active_memory_create(
            worker=worker,
            title="t",
            template_yaml=TASK_TEMPLATE,
            initial_sections={"objective": "x", "budget": "1", "risks": "2"},
        )
    assert caught.value.code == "unknown_section"
    assert set(caught.value.fields) == {"initial_sections.budget", "initial_sections.risks"}
    assert not ActiveMemory.objects.exists()


def test_it_refuses_content_that_is_not_a_string(worker):
    with pytest.raises(DomainError, match="must be a string"):
        active_memory_create(
            worker=worker, title="t", template_yaml=TASK_TEMPLATE, initial_sections={"objective": 5}
        )


def test_it_refuses_a_section_over_the_limit(worker, settings):
    settings.MEMORYHUB_ACTIVE = {**settings.MEMORYHUB_ACTIVE, "max_section_bytes": 10}
    with pytest.raises(PayloadTooLargeError, match="at most 10 bytes"):
        active_memory_create(
            worker=worker,
            title="t",
            template_yaml=TASK_TEMPLATE,
            initial_sections={"objective": "é" * 6},
        )


def test_it_replaces_content_and_counts_each_update(worker):
    memory = ActiveMemoryFactory(worker=worker)
    active_memory_update_sections(memory=memory, sections={"progress": "step 1"})
    memory = active_memory_update_sections(
        memory=memory, sections={"Progress": "step 2", "notes": "n"}
    )
    assert memory.sections["progress"] == {"content": "step 2", "update_count": 2}
    assert memory.sections["notes"] == {"content": "n", "update_count": 1}
    assert memory.sections["objective"]["update_count"] == 0


def test_an_update_with_one_bad_section_changes_nothing(worker):
    memory = ActiveMemoryFactory(worker=worker)
    before = dict(memory.sections)
    with pytest.raises(DomainError):
        active_memory_update_sections(memory=memory, sections={"progress": "ok", "nope": "bad"})
    memory.refresh_from_db()
    assert memory.sections == before


def test_it_refuses_to_empty_a_required_section(worker):
    memory = ActiveMemoryFactory(worker=worker)
    with pytest.raises(DomainError, match="cannot be emptied"):
        active_memory_update_sections(memory=memory, sections={"objective": "  "})


def test_it_updates_title_description_metadata_and_sections_together(worker):
    memory = ActiveMemoryFactory(worker=worker)
    memory = active_memory_update(
        memory=memory, title="New", description="d", metadata={"k": 1}, sections={"notes": "hello"}
    )
    assert (memory.title, memory.description, memory.metadata) == ("New", "d", {"k": 1})
    assert memory.sections["notes"] == {"content": "hello", "update_count": 1}


def test_a_new_template_keeps_existing_sections_and_adds_new_ones(worker):
    memory = ActiveMemoryFactory(worker=worker)
    active_memory_update_sections(memory=memory, sections={"progress": "half done"})
    new_template = (
        TASK_TEMPLATE.replace('version: "1.0"', 'version: "1.1"')
        + "  - id: risks\n    name: Risks\n"
    )
    memory = active_memory_update(memory=memory, template_yaml=new_template)
    assert list(memory.sections) == ["objective", "progress", "notes", "risks"]
    assert memory.sections["progress"] == {"content": "half done", "update_count": 1}
    assert memory.sections["risks"] == {"content": "", "update_count": 0}


def test_a_new_template_may_not_drop_a_section_with_content(worker):
    memory = ActiveMemoryFactory(worker=worker)
    active_memory_update_sections(memory=memory, sections={"progress": "half done"})
    without_progress = TASK_TEMPLATE.replace("  - id: progress\n    name: Progress\n", "")
    with pytest.raises(DomainError) as caught:
        active_memory_update(memory=memory, template_yaml=without_progress, title="renamed")
    assert caught.value.code == "section_would_be_lost"
    memory.refresh_from_db()
    assert memory.title != "renamed" and "progress" in memory.sections


def test_a_bad_new_template_changes_nothing(worker):
    memory = ActiveMemoryFactory(worker=worker, title="kept")
    with pytest.raises(TemplateError):
        active_memory_update(memory=memory, title="lost", template_yaml="template: [")
    memory.refresh_from_db()
    assert memory.title == "kept"


def test_it_deletes(worker):
    memory = ActiveMemoryFactory(worker=worker)
    active_memory_delete(memory=memory)
    assert not ActiveMemory.objects.filter(pk=memory.pk).exists()
