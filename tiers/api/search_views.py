from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from memoryhub.api.mixins import WorkerScopedMixin
from tiers.api.search_serializers import SearchRequestSerializer, SearchResponseSerializer
from tiers.search import search, search_queries


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
        queries = options.pop("search_queries", None)
        if queries is not None:
            groups = search_queries(
                worker=worker, queries=queries, corpus="shortterm", with_graph=with_graph, **options
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
            results = [hit.as_dict() for hit in hits]
        return Response({"mode": options["mode"], "results": results})
