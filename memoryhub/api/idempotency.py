import functools
import json

from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from memoryhub.services.idempotency import idempotent_call

IDEMPOTENCY_HEADER = OpenApiParameter(
    name="Idempotency-Key",
    location=OpenApiParameter.HEADER,
    required=False,
    description="Send the same key when retrying: the first answer is returned again "
    "and nothing is created twice (kept 24 h).",
)


def idempotent(view_method):
    """Honour ``Idempotency-Key`` on a creating POST handler that returns a Response."""

    @functools.wraps(view_method)
    def wrapper(self, request, *args, **kwargs):
        key = request.headers.get("Idempotency-Key")
        if key is None:
            return view_method(self, request, *args, **kwargs)
        body = request.body  # read before DRF consumes the stream

        def call():
            response = view_method(self, request, *args, **kwargs)
            # Stored as the client reads it: dates (a graph's) rendered as the answer is.
            rendered = JSONRenderer().render(response.data)
            return response.status_code, json.loads(rendered) if rendered else None

        status_code, data, replayed = idempotent_call(
            token=request.auth,
            key=key,
            method=request.method,
            path=request.path,
            body=body,
            call=call,
        )
        response = Response(data, status=status_code)
        response["Idempotency-Key"] = key
        if replayed:
            response["Idempotent-Replayed"] = "true"
        return response

    return wrapper
