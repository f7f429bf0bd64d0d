from django.apps import AppConfig


class BenchConfig(AppConfig):
    """The benchmark commands (``bench_search``, ``bench_migration``, ``bench_locomo``)
    and their generated corpora. Not part of the service: they use it from the top, and
    their extra dependencies come with ``pip install -e ".[bench]"``."""

    name = "bench"
    verbose_name = "Benchmarks"
