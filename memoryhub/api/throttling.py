"""Rate limiting of writes, per token (DESIGN.md §7): an agent in a loop cannot flood the
service. Reads are not limited here. The counters live in the shared cache (the database
by default), so every web process counts against the same limit."""

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class TokenWriteThrottle(SimpleRateThrottle):
    """``MEMORYHUB_API_WRITE_RATE`` writes per token ("600/min"; empty: no limit)."""

    scope = "write"

    def get_rate(self):
        return settings.MEMORYHUB_API["write_rate"] or None

    def allow_request(self, request, view):
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view):
        token = getattr(request, "auth", None)
        if request.method in SAFE_METHODS or token is None or not hasattr(token, "pk"):
            return None
        return self.cache_format % {"scope": self.scope, "ident": token.pk}
