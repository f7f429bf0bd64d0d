from django.apps import AppConfig


class GraphConfig(AppConfig):
    name = "graph"
    verbose_name = "Entity graph"
    worker_api_urls = "graph.api.urls"
    portable = [
        {
            "model": "graph.entity",
            "json": (("metadata", ["sources", "*"], "tiers.shorttermmemory"),),
        },
        {
            "model": "graph.relationship",
            "json": (("metadata", ["sources", "*"], "tiers.shorttermmemory"),),
        },
    ]

    def after_import(self, *, worker, **_) -> None:
        from graph.projection.outbox import outbox_record_worker

        outbox_record_worker(worker_id=worker.pk)

    def ready(self) -> None:
        from graph.adapters import StoredMemoryGraph
        from tiers.memory_graph import plug_memory_graph

        plug_memory_graph(StoredMemoryGraph())

    def schedules(self) -> list[dict]:
        from django_q.models import Schedule

        return [
            {
                "name": "entity extraction sweep",
                "func": "graph.tasks.sweep_extractions",
                "schedule_type": Schedule.MINUTES,
                "minutes": 5,
            },
            {
                "name": "graph outbox drain",
                "func": "graph.tasks.drain_graph_outbox",
                "schedule_type": Schedule.MINUTES,
                "minutes": 1,
            },
        ]

    def health_report(self) -> dict:
        from graph.extraction import extractor_status
        from graph.projection.sync import neo4j_status

        return {"neo4j": neo4j_status(), "extraction": extractor_status()}

    def overview(self) -> dict:
        from graph.selectors.graph import graph_overview

        return graph_overview()
