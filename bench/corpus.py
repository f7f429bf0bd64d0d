"""A synthetic but realistic corpus for benchmarks: operations notes of a software team,
sentences built from templates and word lists (names, services, numbers, dates), so that
texts vary like real notes do and queries have a few genuinely matching chunks."""

import random

PEOPLE = (
    "Alice Chen, Bob Martins, Carla Diaz, Deepak Rao, Elena Petrova, Farid Haddad, Grace Okafor, "
    "Hiro Tanaka, Ines Moreau, Jonas Berg, Kemal Yilmaz, Lena Fischer, Marco Rossi, Nadia Karim, "
    "Oscar Lind, Priya Nair, Quentin Blake, Rosa Alvarez, Sven Olsen, Tara Singh"
).split(", ")
SERVICES = (
    "payments api, auth gateway, search indexer, billing worker, notification service, ledger, "
    "recommendation engine, image resizer, checkout flow, inventory sync, report builder, "
    "session store, rate limiter, audit log, email relay, feature flag service, export pipeline, "
    "pricing engine, fraud scorer, analytics warehouse"
).split(", ")
TEAMS = (
    "platform, mobile, data, security, growth, infrastructure, payments, support tooling, "
    "machine learning, design systems"
).split(", ")
REGIONS = ("eu-west, us-east, us-west, ap-south, eu-central, sa-east").split(", ")
TECH = (
    "PostgreSQL, Redis, Kafka, Kubernetes, Terraform, gRPC, GraphQL, Rust, Go, Python, React, "
    "Elasticsearch, RabbitMQ, S3, CloudFront, Envoy, Prometheus, Grafana, OpenTelemetry, Vault"
).split(", ")
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday".split()
MONTHS = (
    "January February March April May June July August September October November December"
).split()
INCIDENTS = (
    "timeout spike, memory leak, certificate expiry, disk pressure, deadlock, cache stampede, "
    "schema drift, failed rollback, DNS outage, quota exhaustion"
).split(", ")
ADJECTIVES = "flaky slow stable critical noisy brittle fast expensive legacy experimental".split()

TEMPLATES = [
    "{person} moved the {service} deploy to {weekday} after the {incident} review.",
    "The {team} team budget for Q{q} is ${amount},000.",
    "{service} p95 latency rose to {ms} ms in {region} on {month} {day}.",
    "{person} owns the migration of the {service} from {tech} to {tech2}.",
    "We decided to keep {tech} for the {service} because the {team} team knows it well.",
    "The {incident} in {region} took the {service} down for {minutes} minutes.",
    "{person} and {person2} agreed to review {service} alerts every {weekday}.",
    "The {service} now handles {rps} requests per second at peak.",
    "Version {major}.{minor} of the {service} ships with {tech} support.",
    "The {team} team considers the {service} {adjective} and wants a rewrite.",
    "{person} will present the {service} postmortem on {month} {day}.",
    "Error rate of the {service} dropped to {pct} percent after the {tech} upgrade.",
    "The on-call rotation for the {service} moves to the {team} team in {month}.",
    "{person} prefers {tech} over {tech2} for new {team} services.",
    "Backups of the {service} run every {hours} hours and are kept {days} days.",
    "The {service} contract with the vendor costs ${amount},000 per year.",
    "A {adjective} test in the {service} suite blocks releases on {weekday}.",
    "{person} found that the {incident} came from a {tech} misconfiguration.",
    "The {service} cluster in {region} runs {nodes} nodes on {tech}.",
    "Customers reported {adjective} checkout pages when the {service} was degraded.",
]


def _sentence(rng: random.Random) -> str:
    person, person2 = rng.sample(PEOPLE, 2)
    tech, tech2 = rng.sample(TECH, 2)
    return rng.choice(TEMPLATES).format(
        person=person,
        person2=person2,
        service=rng.choice(SERVICES),
        team=rng.choice(TEAMS),
        region=rng.choice(REGIONS),
        tech=tech,
        tech2=tech2,
        weekday=rng.choice(WEEKDAYS),
        month=rng.choice(MONTHS),
        day=rng.randint(1, 28),
        incident=rng.choice(INCIDENTS),
        adjective=rng.choice(ADJECTIVES),
        q=rng.randint(1, 4),
        amount=rng.randint(5, 500),
        ms=rng.randint(40, 2000),
        minutes=rng.randint(2, 240),
        rps=rng.randint(100, 90000),
        major=rng.randint(1, 9),
        minor=rng.randint(0, 20),
        pct=rng.randint(1, 30) / 10,
        hours=rng.choice([1, 2, 4, 6, 12, 24]),
        days=rng.choice([7, 14, 30, 90, 365]),
        nodes=rng.randint(3, 120),
    )


def generate_chunks(count: int, *, seed: int = 42) -> list[str]:
    """``count`` chunks of one to three sentences."""
    rng = random.Random(seed)
    return [
        " ".join(_sentence(rng) for _ in range(rng.choice((1, 1, 2, 2, 3)))) for _ in range(count)
    ]


STOP = set(
    "the a an to of for and in on at is are was from with by after now every per its it we "
    "our has have be this that over new when".split()
)


def generate_queries(chunks: list[str], count: int, *, seed: int = 7) -> list[str]:
    """Queries a person would type about something in the corpus: a few content words of
    one chunk's sentence, reordered, sometimes with a filler phrase."""
    rng = random.Random(seed)
    fillers = ["what about", "who handles", "when did", "status of", "details on", ""]
    queries = []
    for _ in range(count):
        source = rng.choice(chunks).split(". ")[0]
        words = [w.strip(".,$") for w in source.split() if w.lower().strip(".,$") not in STOP]
        picked = rng.sample(words, k=min(len(words), rng.randint(3, 6)))
        queries.append(" ".join([rng.choice(fillers), *picked]).strip())
    return queries
