import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """Takes over the table of ``tiers.MigrationRun`` (created by tiers 0008) as
    ``ConsolidationRun``: Django's state only, no change to the database."""

    initial = True

    dependencies = [
        ("memoryhub", "0001_initial"),
        ("tiers", "0010_migrationrun_moves_to_consolidation"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ConsolidationRun",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "trigger",
                            models.CharField(
                                choices=[
                                    ("sweep", "Sweep"),
                                    ("api", "Api"),
                                    ("command", "Command"),
                                    ("capacity", "Capacity"),
                                ],
                                max_length=16,
                            ),
                        ),
                        ("started_at", models.DateTimeField(auto_now_add=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("duration_ms", models.FloatField(blank=True, null=True)),
                        ("outcomes", models.JSONField(default=list)),
                        (
                            "worker",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="consolidation_runs",
                                to="memoryhub.worker",
                            ),
                        ),
                    ],
                    options={"db_table": "tiers_migrationrun", "ordering": ["-started_at", "-id"]},
                ),
            ],
            database_operations=[],
        ),
    ]
