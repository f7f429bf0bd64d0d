"""Consolidation: the one home for moving knowledge between tiers.

Active → Shortterm (the API's and settings' "migration"):
``services.active_to_shortterm`` — ``migrate_active_memory`` for one memory (the API's
``/consolidate``, the sweep, the command, the capacity trigger all come through it) and
``migration_sweep`` for every memory waiting; its candidates come from the search entry
point (``tiers.search.nearest_chunks``), its rules from ``checks``, ``decision`` and
``judge``. Conflicts go to the review queue through ``review_queue``; a reviewer's decision
comes back through ``services.decisions``. ``services.auto_resolve`` is the memorizer's
comparison of an active memory with a shortterm one.
"""
