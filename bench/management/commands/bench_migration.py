"""Migration throughput (issue 5): a synthetic worker with N active memories × S sections,
half of them similar to stored shortterm chunks (restated with an addition, or with a
changed figure), half about something new, over a background of other chunks. Every
section is updated once, then the worker is swept as the scheduler would. Prints
sections/s, p50/p95 per section (overall and per outcome) and the outcome counts."""

import json
import random
import re
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.test import override_settings

from bench.caches import forget_readings
from bench.corpus import MONTHS, PEOPLE, generate_chunks
from bench.measure import percentiles
from consolidation.services.active_to_shortterm import migrate_active_memory
from consolidation.services.section_readings import chunk_readings_make, section_readings_make
from memoryhub.models import Worker
from memoryhub.progress import Progress
from memoryhub.services.workers import worker_create, worker_delete
from tiers.models import ActiveMemory, ShorttermChunk
from tiers.services.active import active_memory_create, active_memory_update_sections
from tiers.services.shortterm import shortterm_memory_create

NAME = "bench-migration"
ADDITIONS = [
    "The change was agreed in the weekly planning meeting.",
    "A runbook entry documents the steps.",
    "The team lead signed off on it yesterday.",
    "Alerts for it go to the on-call channel.",
    "It is tracked in the quarterly roadmap.",
]


# New topics: facts the background corpus (operations notes) never states.
NEW_TOPICS = [
    "{person} is interviewing {n} candidates for the {role} opening this month.",
    "The customer {company} asked for a {topic} workshop in {city}.",
    "{person} will be on parental leave from {month} {day}, and {person2} covers for them.",
    "The office in {city} moves to a bigger floor in {month}.",
    "{company} signed a letter of intent for the {topic} pilot.",
    "{person} is writing a blog post about {topic} for the engineering blog.",
    "The offsite in {city} has a budget of {n} thousand euros for travel.",
    "{person} mentors two interns who study {topic} at the university in {city}.",
]
FILL = {
    "role": (
        "staff engineer, product designer, data analyst, security engineer, engineering manager"
    ).split(", "),
    "company": (
        "Northwind, Contoso, Globex, Initech, Umbrella, Hooli, Vandelay, Stark Industries"
    ).split(", "),
    "topic": (
        "accessibility, observability, cost control, onboarding, privacy, incident response"
    ).split(", "),
    "city": "Lisbon, Oslo, Krakow, Porto, Valencia, Tallinn, Ghent, Turin".split(", "),
}


def _new_topic(rng: random.Random) -> str:
    person, person2 = rng.sample(PEOPLE, 2)
    return " ".join(
        rng.choice(NEW_TOPICS).format(
            person=person,
            person2=person2,
            n=rng.randint(2, 40),
            month=rng.choice(MONTHS),
            day=rng.randint(1, 28),
            **{key: rng.choice(values) for key, values in FILL.items()},
        )
        for _ in range(rng.choice((1, 2)))
    )


def _template(sections: int) -> str:
    lines = [
        "template:",
        "  id: bench",
        "  name: Benchmark memory",
        '  version: "1.0"',
        "sections:",
    ]
    for number in range(1, sections + 1):
        lines += [f"  - id: s{number}", f"    name: Section {number}"]
    return "\n".join(lines) + "\n"


def _change_a_figure(text: str, rng: random.Random) -> str:
    match = re.search(r"\d+", text)
    value = int(match.group(0))
    return (
        text[: match.start()]
        + str(value + rng.randint(1, 9) * (10 ** max(len(match.group(0)) - 1, 0)))
        + text[match.end() :]
    )


class Command(BaseCommand):
    help = (
        "Migration throughput: sections/s and p95 per section on a synthetic worker "
        "(local providers)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--active", type=int, default=200, help="active memories (default 200)")
        parser.add_argument(
            "--sections", type=int, default=5, help="sections per active memory (default 5)"
        )
        parser.add_argument(
            "--similar", type=float, default=0.5, help="share of sections similar to stored chunks"
        )
        parser.add_argument(
            "--background", type=int, default=2000, help="other shortterm chunks of the worker"
        )
        parser.add_argument(
            "--keep", action="store_true", help="keep the benchmark worker afterwards"
        )
        parser.add_argument(
            "--read-on-write",
            action="store_true",
            help="read each section after its write, as the task cluster does (timed apart), "
            "so that the sweep decides on the readings",
        )
        parser.add_argument("--json", help="also write the figures to this file")

    def log(self, message: str) -> None:
        self.stdout.write(message)
        self.stdout.flush()

    def handle(self, *args, **options):
        # The sweep below is what is measured: no capacity sweeps while the worker is built,
        # and no reading queued on the task cluster (``--read-on-write`` reads here).
        capacity_off = {"capacity_updates": 0, "capacity_memories": 0, "read_on_write": "off"}
        with override_settings(MEMORYHUB_MIGRATION=settings.MEMORYHUB_MIGRATION | capacity_off):
            self._run(options)

    def _run(self, options):
        rng = random.Random(5)
        n_active, n_sections = options["active"], options["sections"]
        total = n_active * n_sections
        existing = Worker.objects.filter(name=NAME).first()
        if existing:
            worker_delete(worker=existing)
        worker = worker_create(name=NAME, description="migration benchmark (safe to delete)")
        self.log(
            f"{n_active} active memories × {n_sections} sections = {total} sections, "
            f"{options['similar']:.0%} similar to stored chunks, "
            f"{options['background']} background chunks; "
            f"embeddings {settings.MEMORYHUB_EMBEDDINGS['provider']}, "
            f"extractor {settings.MEMORYHUB_GRAPH['extractor']}"
        )

        texts = generate_chunks(options["background"] + 2 * total, seed=11)
        background, pool = texts[: options["background"]], texts[options["background"] :]
        progress = Progress(len(background), "background chunks", stream=self.stderr._out)
        for start in range(0, len(background), 100):
            batch = background[start : start + 100]
            shortterm_memory_create(
                worker=worker,
                title=f"Background {start // 100}",
                chunks=[{"content": text} for text in batch],
            )
            progress.advance(len(batch))
        progress.finish()

        plan, seeds = [], []
        with_figures = iter([t for t in pool if re.search(r"\d", t)])
        for _index in range(total):
            if rng.random() < options["similar"]:
                stored = next(with_figures)
                if rng.random() < 2 / 3:
                    plan.append(("merge", f"{stored} {rng.choice(ADDITIONS)}"))
                else:
                    plan.append(("conflict", _change_a_figure(stored, rng)))
                seeds.append(stored)
            else:
                plan.append(("new", _new_topic(rng)))
        progress = Progress(len(seeds), "similar chunks", stream=self.stderr._out)
        for start in range(0, len(seeds), 50):
            batch = seeds[start : start + 50]
            for text in batch:
                shortterm_memory_create(worker=worker, title="Seed", content=text)
            progress.advance(len(batch))
        progress.finish()

        template = _template(n_sections)
        progress = Progress(n_active, "active memories", stream=self.stderr._out)
        for number in range(n_active):
            memory = active_memory_create(
                worker=worker, title=f"Task {number}", template_yaml=template
            )
            contents = {f"s{k + 1}": plan[number * n_sections + k][1] for k in range(n_sections)}
            active_memory_update_sections(memory=memory, sections=contents)
            progress.advance()
        progress.finish()

        reading = None
        if options["read_on_write"]:
            chunk_ids = list(
                ShorttermChunk.objects.filter(worker=worker).values_list("pk", flat=True)
            )
            progress = Progress(len(chunk_ids), "reading chunks", stream=self.stderr._out)
            started = time.perf_counter()
            for start in range(0, len(chunk_ids), 500):
                chunk_readings_make(chunk_ids=chunk_ids[start : start + 500])
                progress.advance(len(chunk_ids[start : start + 500]))
            progress.finish()
            self.log(
                f"Read {len(chunk_ids)} stored chunks on write in "
                f"{time.perf_counter() - started:.1f} s (on the task cluster)"
            )
            progress = Progress(total, "reading sections", stream=self.stderr._out)
            started = time.perf_counter()
            for memory_id in ActiveMemory.objects.filter(worker=worker).values_list(
                "pk", flat=True
            ):
                progress.advance(section_readings_make(memory_id=memory_id))
            progress.finish()
            reading = time.perf_counter() - started
            self.log(
                f"Read {total} sections on write in {reading:.1f} s "
                f"({reading * 1000 / total:.1f} ms per section, on the task cluster)"
            )

        forget_readings()  # the sweep runs in another process than the writes and the cluster
        progress = Progress(total, "migrating sections", stream=self.stderr._out)
        started = time.perf_counter()
        outcomes = []
        for memory in ActiveMemory.objects.filter(worker=worker).order_by("pk"):
            run = migrate_active_memory(memory=memory, trigger="command")
            outcomes += run.outcomes
            progress.advance(len(run.outcomes))
        elapsed = time.perf_counter() - started
        progress.finish()

        expected = [kind for kind, _ in plan]
        decided = [
            {"merged": "merge", "conflict": "conflict", "created": "new"}.get(
                o["outcome"], o["outcome"]
            )
            for o in outcomes
        ]
        report = {
            "sections": total,
            "seconds": elapsed,
            "sections_per_s": total / elapsed,
            "per_section": percentiles([o["ms"] for o in outcomes]),
            "per_outcome": {
                kind: percentiles([o["ms"] for o in outcomes if o["outcome"] == kind])
                for kind in sorted({o["outcome"] for o in outcomes})
            },
            "counts": {kind: decided.count(kind) for kind in sorted(set(decided))},
            "agreement": sum(a == b for a, b in zip(expected, decided, strict=False)) / total,
            "read_on_write_ms_per_section": None if reading is None else reading * 1000 / total,
            "decided_on_readings": sum(bool(o.get("read_when_written")) for o in outcomes),
        }
        self.log(
            f"\nMigrated {total} sections in {elapsed:.1f} s: "
            f"{report['sections_per_s']:.1f} sections/s"
        )
        self.log(
            f"  per section: p50 {report['per_section']['p50']:.1f} ms, "
            f"p95 {report['per_section']['p95']:.1f} ms "
            f"({report['decided_on_readings']} decided on the readings made on write)"
        )
        for kind, stats in report["per_outcome"].items():
            self.log(
                f"  {kind:>9}: n={stats['n']:>4}  "
                f"p50 {stats['p50']:6.1f} ms  p95 {stats['p95']:6.1f} ms"
            )
        self.log(
            f"  outcomes: {report['counts']}; as generated: "
            f"{ {k: expected.count(k) for k in sorted(set(expected))} } "
            f"(agreement {report['agreement']:.1%})"
        )
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(report, indent=2))
        if not options["keep"]:
            worker_delete(worker=worker)
