from memoryhub.selectors.workers import worker_get_for


class WorkerScopedMixin:
    """Views under ``/workers/<worker_id>/``: the worker must be within the token's reach
    (else 404, so that other workers' ids do not leak)."""

    def get_worker(self):
        return worker_get_for(token=self.request.auth, worker_id=self.kwargs["worker_id"])
