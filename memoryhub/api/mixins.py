from memoryhub.selectors.workers import worker_get_for


class WorkerScopedMixin:
    """Views under ``/workers/<worker_id>/``: the worker must be within the token's reach
    (else 404, so that other workers' ids do not leak). Checked before anything else of
    the request (its body is not even validated for another worker's URL)."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if "worker_id" in self.kwargs:
            self.get_worker()

    def get_worker(self):
        cached = getattr(self, "_scoped_worker", None)
        if cached is None:
            cached = self._scoped_worker = worker_get_for(
                token=self.request.auth, worker_id=self.kwargs["worker_id"]
            )
        return cached
