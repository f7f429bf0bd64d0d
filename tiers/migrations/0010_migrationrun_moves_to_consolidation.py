from django.db import migrations


class Migration(migrations.Migration):
    """MigrationRun becomes consolidation.ConsolidationRun: only Django's state moves, the
    table and its rows stay (consolidation/migrations/0001_initial.py takes it over)."""

    dependencies = [
        ("tiers", "0009_drop_redundant_fk_indexes"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="MigrationRun")],
            database_operations=[],
        ),
    ]
