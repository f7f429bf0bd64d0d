from memoryhub.errors import DomainError, NotFoundError
from review.models import MergeConflict


def conflict_list(*, worker, status: str | None = None):
    queryset = (
        MergeConflict.objects.filter(worker=worker)
        .select_related("resolution")
        .prefetch_related("undone_resolutions")
    )
    if status:
        if status not in MergeConflict.Status.values:
            raise DomainError(
                f"status must be one of {', '.join(MergeConflict.Status.values)}",
                fields={"status": "unknown status"},
            )
        queryset = queryset.filter(status=status)
    return queryset


def conflict_get(*, worker, conflict_id) -> MergeConflict:
    try:
        return (
            MergeConflict.objects.select_related("resolution")
            .prefetch_related("undone_resolutions")
            .get(worker=worker, pk=int(conflict_id))
        )
    except (MergeConflict.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError(f"conflict {conflict_id} not found") from exc
