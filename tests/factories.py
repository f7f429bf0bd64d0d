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
