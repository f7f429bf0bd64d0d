import factory
from django.contrib.auth import get_user_model

from memoryhub.models import Worker
from tiers.active_templates import parse_template
from tiers.models import ActiveMemory

TASK_TEMPLATE = """\
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
  - id: notes
    name: Notes
"""


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", "correct horse battery staple")

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class StaffFactory(UserFactory):
    is_staff = True
    is_superuser = True


class WorkerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Worker

    name = factory.Sequence(lambda n: f"worker-{n}")
    description = factory.Faker("sentence")


def _sections(template_yaml: str, contents: dict) -> dict:
    ids = parse_template(template_yaml).section_ids
    return {sid: {"content": contents.get(sid, ""), "update_count": 0} for sid in ids}


class ActiveMemoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ActiveMemory

    worker = factory.SubFactory(WorkerFactory)
    title = factory.Sequence(lambda n: f"Task {n}")
    description = "A task in progress"
    template_content = TASK_TEMPLATE
    sections = factory.LazyAttribute(
        lambda o: _sections(o.template_content, {"objective": "Ship the memory service"})
    )


def make_reviewer(username: str = "rita"):
    """A user in the "Reviewers" group (recreated when a transactional test flushed it)."""
    from django.contrib.auth.models import Group, Permission

    reviewers, _ = Group.objects.get_or_create(name="Reviewers")
    reviewers.permissions.add(
        Permission.objects.get(content_type__app_label="review", codename="resolve_conflict")
    )
    user = UserFactory(username=username)
    user.groups.add(reviewers)
    return user


def make_conflict(
    worker,
    *,
    existing: str = "The Q3 budget for the marketing team is $50,000.",
    incoming: str = "The Q3 budget for the marketing team is $65,000.",
    title: str = "Q3 planning",
    reasons: list[dict] | None = None,
    figures: dict | None = None,
    **differences,
):
    """A pending conflict between a stored chunk (a new shortterm memory "Budget") and the
    "notes" section of a new active memory ``title``. ``reasons`` default to one
    ``number_changed`` about the chunk; ``figures`` add to the chunk's similarity and
    overlap; ``differences``: ``entity_differences`` / ``relationship_differences``."""
    from review.services.conflicts import conflict_create
    from tiers.services.active import active_memory_update_sections
    from tiers.services.shortterm import shortterm_memory_create

    active = active_memory_update_sections(
        memory=ActiveMemoryFactory(worker=worker, title=title), sections={"notes": incoming}
    )
    memory = shortterm_memory_create(worker=worker, title="Budget", chunks=[{"content": existing}])
    chunk = memory.chunks.get()
    figures = {"similarity": 0.93, "entity_overlap": 1.0} | (figures or {})
    return conflict_create(
        worker=worker,
        active_memory=active,
        section_id="notes",
        section_name="Notes",
        section_content=incoming,
        shortterm_memory=memory,
        conflicting_chunks=[
            {"chunk_id": chunk.pk, "memory_id": memory.pk, "content": existing} | figures
        ],
        reasons=[
            reason | {"chunk_id": chunk.pk}
            for reason in (reasons or [{"code": "number_changed", "detail": "$50,000 → $65,000"}])
        ],
        **differences,
    )
