"""Benchmarks of MemoryHub, run as ``manage.py bench_*`` commands (README, "Benchmarks")."""
