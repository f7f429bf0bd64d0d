import django_filters
from django.db.models import Q

from tiers.models import ActiveMemory


class ActiveMemoryFilterSet(django_filters.FilterSet):
    """Used by the API list and the tier browser."""

    q = django_filters.CharFilter(method="search", label="Title or description contains")
    updated_after = django_filters.IsoDateTimeFilter(field_name="updated_at", lookup_expr="gte")
    updated_before = django_filters.IsoDateTimeFilter(field_name="updated_at", lookup_expr="lt")

    class Meta:
        model = ActiveMemory
        fields = ["q", "updated_after", "updated_before"]

    def search(self, queryset, name, value):
        return queryset.filter(Q(title__icontains=value) | Q(description__icontains=value))
