from datetime import UTC

import django_filters
from django.db.models import Q

from tiers.models import ActiveMemory


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    """An ISO 8601 date-time, compared in UTC: any offset ISO allows (+20:00 too) works,
    where PostgreSQL accepts at most ±15:59."""

    def filter(self, qs, value):
        if value is not None:
            try:
                value = value.astimezone(UTC)
            except (OverflowError, ValueError):
                return qs.none()  # before year 1 or after 9999 once in UTC: nothing matches
        return super().filter(qs, value)


class ActiveMemoryFilterSet(django_filters.FilterSet):
    """Used by the API list and the tier browser."""

    q = django_filters.CharFilter(method="search", label="Title or description contains")
    updated_after = UtcDateTimeFilter(field_name="updated_at", lookup_expr="gte")
    updated_before = UtcDateTimeFilter(field_name="updated_at", lookup_expr="lt")

    class Meta:
        model = ActiveMemory
        fields = ["q", "updated_after", "updated_before"]

    def search(self, queryset, name, value):
        return queryset.filter(Q(title__icontains=value) | Q(description__icontains=value))
