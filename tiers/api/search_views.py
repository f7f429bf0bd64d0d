from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.api.mixins import WorkerScopedMixin
from tiers.api.search_serializers import SearchRequestSerializer, SearchResponseSerializer
from tiers.search import search, search_queries
from tiers.services.usage import usage_record_accesses


def record_accesses(request, worker, hits, session_id: str, record) -> None:
    """Search hits count as accesses of their memories (seed 001's access pattern), unless
    switched off by the request or MEMORYHUB_RECORD_SEARCH_ACCESS."""
    if record is None:
        record = settings.MEMORYHUB_PROMOTION["record_search_access"]
    if not record or not hits:
        return
    token = request.auth
    usage_record_accesses(
        worker_id=worker.pk,
        hits=[(hit.memory_id, hit.chunk_id) for hit in hits],
        session_id=session_id,
        actor=f"token:{token.prefix}" if token is not None else "",
    )


class ShorttermSearchView(WorkerScopedMixin, APIView):
    """Search a worker's shortterm chunks: ``vector``, ``bm25`` or ``hybrid`` (RRF).

    Give ``query`` (optionally with ``memory_ids``/``metadata`` filters), or the
    retriever's ``search_queries`` (each searched within its memory).
    """

    @extend_schema(request=SearchRequestSerializer, responses=SearchResponseSerializer)
    def post(self, request, worker_id):
        worker = self.get_worker()
        payload = SearchRequestSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        options = dict(payload.validated_data)
        with_graph = options.pop("include_graph")
        session_id, record = options.pop("session_id", ""), options.pop("record_access")
        queries = options.pop("search_queries", None)
        if queries is not None:
            groups = search_queries(
                worker=worker, queries=queries, corpus="shortterm", with_graph=with_graph, **options
            )
            record_accesses(
                request, worker, [hit for g in groups for hit in g["hits"]], session_id, record
            )
            results = [
                {
                    "shortterm_memory_id": group["shortterm_memory_id"],
                    "search_content": group["search_content"],
                    "results": [hit.as_dict() for hit in group["hits"]],
                }
                for group in groups
            ]
        else:
            filters = {
                key: options.pop(key) for key in ("memory_ids", "metadata") if key in options
            }
            hits = search(
                worker=worker, corpus="shortterm", filters=filters, with_graph=with_graph, **options
            )
            record_accesses(request, worker, hits, session_id, record)
            results = [hit.as_dict() for hit in hits]
        return Response({"mode": options["mode"], "results": results})
