from consolidation.management.commands.consolidate import Command as ConsolidateCommand


class Command(ConsolidateCommand):
    help = "The earlier name of `manage.py consolidate` (kept for scripts that use it)."
    verb = "migrated"
