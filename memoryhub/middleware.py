from django.conf import settings

from memoryhub.api.errors import json_error_response


class ApiBodySizeLimitMiddleware:
    """Refuse API request bodies above DATA_UPLOAD_MAX_MEMORY_SIZE with a JSON 413.

    DRF reads the body stream itself, so Django's own limit does not apply to it.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/api/"):
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            if limit and length > limit:
                return json_error_response(
                    "payload_too_large",
                    f"request body is {length} bytes; the limit is {limit} bytes",
                    413,
                )
        return self.get_response(request)
