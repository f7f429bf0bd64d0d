from django.db import migrations

GROUP = "Reviewers"


def create_group(apps, schema_editor):
    """A "Reviewers" group holding ``review.resolve_conflict`` (and the queue's view
    permissions): add a person to it to let them resolve conflicts in the browser."""
    from django.contrib.auth.management import create_permissions

    for (
        app_config
    ) in apps.get_app_configs():  # permissions exist before post_migrate on a fresh database
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *Permission.objects.filter(
            content_type__app_label="review",
            codename__in=["resolve_conflict", "view_mergeconflict", "view_conflictresolution"],
        )
    )


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("review", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
