import pytest
from django.contrib.auth.models import Group

pytestmark = pytest.mark.django_db


def test_it_creates_the_reviewers_group_with_the_resolve_permission():
    group = Group.objects.get(name="Reviewers")
    assert set(group.permissions.values_list("codename", flat=True)) >= {
        "resolve_conflict",
        "view_mergeconflict",
    }
