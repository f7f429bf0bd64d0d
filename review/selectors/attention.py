"""What needs a person's attention, for the home page (``ReviewConfig.attention``):
pending conflicts and workers whose active memory is near the consolidation capacity."""

from django.db.models import Count, Min
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timesince

from consolidation.selectors.capacity import workers_near_capacity
from memoryhub.models import Worker
from review.models import MergeConflict


def attention_items(*, user) -> list[dict]:
    """``[{level, title, detail, url, count}]``; links only to pages ``user`` may open."""
    items = []
    pending = MergeConflict.objects.filter(status=MergeConflict.Status.PENDING).aggregate(
        n=Count("id"), oldest=Min("created_at"), workers=Count("worker", distinct=True)
    )
    if pending["n"]:
        age = timesince(pending["oldest"], timezone.now()).split(",")[0]
        items.append(
            {
                "level": "warn",
                "title": f"{pending['n']} conflict{'s' if pending['n'] != 1 else ''} "
                "waiting for review",
                "detail": f"across {pending['workers']} worker(s); the oldest for {age}",
                "url": reverse("review:queue"),
                "count": pending["n"],
            }
        )
    near = workers_near_capacity()
    if near:
        names = dict(
            Worker.objects.filter(pk__in=[c.worker_id for c in near]).values_list("pk", "name")
        )
        for capacity in near[:5]:
            items.append(
                {
                    "level": "bad" if capacity.crossed else "warn",
                    "title": f"{names.get(capacity.worker_id, capacity.worker_id)}: active memory "
                    f"{round(capacity.share * 100)}% of its consolidation capacity",
                    "detail": f"{capacity.pending_updates} pending section updates in "
                    f"{capacity.pending_memories} active memories"
                    + (" — a sweep is due" if capacity.crossed else ""),
                    "url": reverse("review:browser-worker", args=[capacity.worker_id])
                    if user.is_staff
                    else None,
                    "count": capacity.pending_updates,
                }
            )
    return items
