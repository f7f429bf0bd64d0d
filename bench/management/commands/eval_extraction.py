"""Entity and relationship extraction measured: against the labelled sets (precision,
recall, F1, per style, worst texts) or, with ``--locomo``, over every LoCoMo dev turn
(what each extractor finds, side by side). The figures come from ``bench.extraction``."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from bench.extraction import (
    SPLITS,
    evaluation_report,
    extract_all,
    load_labelled,
    locomo_turns,
    pooled,
    profile,
    resolve_extractor,
    score,
)
from bench.locomo import LOCOMO_DIR
from graph.extraction import EXTRACTOR_NAMES
from memoryhub.progress import Progress

GROUPS = (
    ("entities", "entities (name, type)"),
    ("entity_names", "entities (name)"),
    ("relationships", "relations (typed)"),
    ("relationship_pairs", "relations (pair)"),
)
NAME_WIDTH = 38
CONFUSION_SHOWN = 5  # type confusions per row, unless --errors asks for all


def _prf(counts: dict) -> str:
    return f"{counts['precision']:6.3f}{counts['recall']:6.3f}{counts['f1']:6.3f}"


def _name_cell(entry: dict) -> str:
    """ "name turns type/type", the name shortened with "…" to fit the column."""
    suffix = f" {entry['texts']} {'/'.join(entry['types'])}"
    name = entry["name"]
    if len(name) + len(suffix) > NAME_WIDTH:
        name = name[: max(NAME_WIDTH - len(suffix) - 1, 1)] + "…"
    return (name + suffix)[:NAME_WIDTH]


class Command(BaseCommand):
    help = (
        "Extraction quality on the labelled sets (entity and relationship P/R/F1), or with "
        "--locomo what each extractor finds in the LoCoMo dev turns."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--extractor",
            default="parser,heuristic",
            help=f"comma-separated, from {', '.join(EXTRACTOR_NAMES)} (default parser,heuristic)",
        )
        parser.add_argument("--split", choices=("dev", "holdout", "all"), default="dev")
        parser.add_argument(
            "--data", nargs="+", type=Path, help="labelled JSONL files instead of --split"
        )
        parser.add_argument("--by-style", action="store_true", help="add a row per style")
        parser.add_argument(
            "--errors", type=int, default=0, metavar="N", help="print the N worst texts"
        )
        parser.add_argument("--json", action="store_true", help="print the figures as JSON")
        parser.add_argument(
            "--locomo", action="store_true", help="profile the extractors over LoCoMo turns"
        )
        parser.add_argument(
            "--locomo-dir", type=Path, default=LOCOMO_DIR, help="folder of LoCoMo JSON files"
        )
        parser.add_argument(
            "--top", type=int, default=30, help="most frequent names to list (--locomo)"
        )

    def handle(self, *args, **options):
        names = [n.strip() for n in options["extractor"].split(",") if n.strip()]
        unknown = [n for n in names if n not in EXTRACTOR_NAMES]
        if unknown or not names:
            raise CommandError(
                f"unknown extractor {', '.join(unknown) or '(none)'}; "
                f"choose from {', '.join(EXTRACTOR_NAMES)}"
            )
        if options["locomo"]:
            try:
                turns = locomo_turns(options["locomo_dir"])
            except FileNotFoundError as exc:
                raise CommandError(str(exc)) from exc
            self._locomo(self._extractors(names), turns, options)
        else:
            sets = self._labelled_sets(options)
            self._labelled(self._extractors(names), sets, options)

    # --- inputs ---------------------------------------------------------------------------

    def _labelled_sets(self, options) -> list[tuple[str, list]]:
        if options["data"]:
            paths = [(path.stem, path) for path in options["data"]]
        else:
            splits = list(SPLITS) if options["split"] == "all" else [options["split"]]
            paths = [(path.stem, path) for split in splits for path in SPLITS[split]]
        sets = []
        for split, path in paths:
            try:
                sets.append((split, load_labelled(path)))
            except FileNotFoundError as exc:
                raise CommandError(f"labelled data not found: {path}") from exc
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
        return sets

    def _extractors(self, names: list[str]) -> list:
        extractors = []
        for name in names:
            extractor, reason = resolve_extractor(name)
            if extractor is None:
                self.stderr.write(self.style.WARNING(f"skipping {name}: {reason}"))
            else:
                extractors.append(extractor)
        if not extractors:
            raise CommandError("none of the extractors asked for can run")
        return extractors

    def _run(self, extractor, texts: list[str], label: str):
        progress = Progress(len(texts), f"{extractor.name} on {label}", stream=self.stderr._out)
        run = extract_all(extractor, texts, on_batch=progress.advance)
        progress.finish()
        if run.failures:
            self.stderr.write(
                self.style.WARNING(f"{extractor.name} failed on {run.failures} texts of {label}")
            )
        return run

    # --- labelled sets --------------------------------------------------------------------

    def _labelled(self, extractors, sets, options) -> None:
        reports = []
        for extractor in extractors:
            scores, runs = [], []
            for split, items in sets:
                run = self._run(extractor, [i.text for i in items], split)
                result = score(items, run.extractions)
                scores.append(result)
                runs.append(run)
                reports.append(
                    evaluation_report(
                        extractor=extractor.name,
                        split=split,
                        result=result,
                        run=run,
                        errors=options["errors"],
                    )
                )
            if len(sets) > 1:
                result, run = pooled(scores, runs)
                reports.append(
                    evaluation_report(
                        extractor=extractor.name,
                        split="all",
                        result=result,
                        run=run,
                        errors=options["errors"],
                    )
                )
        if options["json"]:
            self.stdout.write(json.dumps(reports, indent=2))
            return
        self._table(reports, by_style=options["by_style"])
        for report in reports:
            self._confusion(report, limit=None if options["errors"] else CONFUSION_SHOWN)
        if options["errors"]:
            for report in reports:
                if report["split"] != "all" or len(sets) == 1:
                    self._worst(report)

    def _table(self, reports: list[dict], *, by_style: bool) -> None:
        width = max([len("split")] + [len(r["split"]) for r in reports])
        if by_style:
            width = max([width] + [len(s) + 2 for r in reports for s in r["by_style"]])
        lead = f"{'':10s} {'':{width}s} {'':>5s} "
        self.stdout.write(lead + "".join(f"  {title:<18s}" for _, title in GROUPS).rstrip())
        self.stdout.write(
            f"{'extractor':10s} {'split':{width}s} {'texts':>5s} "
            + "".join(f"  {'P':>6s}{'R':>6s}{'F1':>6s}" for _ in GROUPS)
            + f"  {'ms/text':>8s}"
        )

        def row(extractor: str, split: str, figures: dict, ms: str) -> str:
            return (
                f"{extractor:10s} {split:{width}s} {figures['texts']:5d} "
                + "".join(f"  {_prf(figures[key])}" for key, _ in GROUPS)
                + f"  {ms:>8s}"
            ).rstrip()

        for report in reports:
            self.stdout.write(
                row(report["extractor"], report["split"], report, f"{report['ms_per_text']:.2f}")
            )
            if by_style:
                for style, figures in report["by_style"].items():
                    self.stdout.write(row("", f"  {style or '(none)'}", figures, ""))

    def _confusion(self, report: dict, *, limit: int | None) -> None:
        confused = report["type_confusion"]
        pairs = ", ".join(f"{c['gold']} → {c['found']} {c['count']}" for c in confused[:limit])
        if limit is not None and len(confused) > limit:
            pairs += f", {len(confused) - limit} more (--errors lists all)"
        self.stdout.write(
            f"{report['extractor']} on {report['split']}, types confused (gold → found): "
            + (pairs or "none")
        )

    def _worst(self, report: dict) -> None:
        self.stdout.write(f"\nworst texts, {report['extractor']} on {report['split']}:")
        for text in report.get("worst", []):
            self.stdout.write(
                f"[{text['id']}] {text['style'] or '-'}, {text['errors']} errors: "
                f"{text['text'][:300]}"
            )
            lines = (
                ("  + entities", [f"{n} ({t})" for n, t in text["entity_false_positives"]]),
                ("  - entities", [f"{n} ({t})" for n, t in text["entity_misses"]]),
                (
                    "  + relations",
                    [f"{s} -{r}-> {o}" for s, r, o in text["relationship_false_positives"]],
                ),
                ("  - relations", [f"{s} -{r}-> {o}" for s, r, o in text["relationship_misses"]]),
            )
            for label, values in lines:
                if values:
                    self.stdout.write(f"{label}: " + "; ".join(values))

    # --- LoCoMo ---------------------------------------------------------------------------

    def _locomo(self, extractors, texts: list[str], options) -> None:
        top = options["top"]
        profiles = {}
        for extractor in extractors:
            run = self._run(extractor, texts, "LoCoMo turns")
            profiles[extractor.name] = profile(
                run.extractions, seconds=run.seconds, failures=run.failures
            ).as_dict(top)
        if options["json"]:
            self.stdout.write(json.dumps(profiles, indent=2))
            return
        names = list(profiles)
        columns = [profiles[n] for n in names]

        def line(label: str, values: list[str]) -> None:
            self.stdout.write(f"{label:30s}" + "".join(f"{v:>14s}" for v in values))

        line("", names)
        line("turns", [str(c["texts"]) for c in columns])
        line("entities per 100 turns", [f"{c['entities_per_100']:.1f}" for c in columns])
        line("relationships per 100 turns", [f"{c['relationships_per_100']:.1f}" for c in columns])
        line("distinct entity names", [str(c["distinct_names"]) for c in columns])
        line("ms per turn", [f"{c['ms_per_text']:.2f}" for c in columns])
        types = sorted(
            {t for c in columns for t in c["type_shares"]},
            key=lambda t: (-max(c["type_shares"].get(t, 0.0) for c in columns), t),
        )
        self.stdout.write("share of entities by type")
        for type_ in types:
            line(f"  {type_}", [f"{c['type_shares'].get(type_, 0.0):.1%}" for c in columns])
        self.stdout.write(f"\nmost frequent names (turns that yield them, types), top {top}")
        self.stdout.write((f"{'':>4s}" + "".join(f"  {n:<{NAME_WIDTH}s}" for n in names)).rstrip())
        for rank in range(max((len(c["top"]) for c in columns), default=0)):
            cells = []
            for c in columns:
                cell = _name_cell(c["top"][rank]) if rank < len(c["top"]) else ""
                cells.append(f"  {cell:<{NAME_WIDTH}s}")
            self.stdout.write(f"{rank + 1:>4d}" + "".join(cells).rstrip())
