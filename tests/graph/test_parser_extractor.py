"""The default parser extractor: what it finds and never finds, one parse per text, the
labelled dev and held-out splits, and the fallback when the parser cannot load."""

import json
from pathlib import Path

import pytest

from bench.extraction import load_labelled, score
from graph.extraction import extractor_status, get_extractor
from graph.extraction.heuristic import HeuristicExtractor
from graph.extraction.parser import ParserExtractor
from graph.vocabulary import normalize_name
from memoryhub import nlp

DATA = Path(__file__).resolve().parents[1] / "data" / "extraction"


@pytest.fixture(scope="module")
def parser():
    return ParserExtractor()


def _entities(result):
    return {(normalize_name(e.name), e.type) for e in result.entities}


def _triples(result):
    return {
        (normalize_name(r.source), r.type, normalize_name(r.target)) for r in result.relationships
    }


def test_dialogue_fillers_greetings_and_contractions_are_never_entities(parser):
    result = parser.extract(
        "Caroline (1:56 pm on 8 May, 2023): Hey Mel! Wow, thanks! I'm so glad. It's been "
        "a while. Sounds good, keep me posted. Yeah, I've been painting a lot."
    )
    names = {normalize_name(e.name) for e in result.entities}
    assert names == {"caroline", "mel"}
    assert ("caroline", "person") in _entities(result) and ("mel", "person") in _entities(result)


def test_greetings_in_other_languages_are_never_entities(parser):
    result = parser.extract("Kia ora, I'm Hemi. Hola Marta! Guten Tag, Herr Vogel.")
    names = {normalize_name(e.name) for e in result.entities}
    assert not names & {"kia", "kia ora", "hola", "guten", "guten tag"}
    assert "hemi" in names and "marta" in names


def test_thanks_blessings_and_exclamations_in_other_languages_are_never_entities(parser):
    result = parser.extract(
        "Ammi: Allah khair kare. Who will you stay with?\nAhsan: Shahid mamoon's place.\n"
        "Nanay Belen: Salamat! Tell Nonoy.\nPhupho Rukhsana: MashaAllah! Faraz and Mehwish, "
        "finally"
    )
    names = {normalize_name(e.name) for e in result.entities}
    assert not names & {"allah", "allah khair kare", "salamat", "mashaallah"}
    assert {"ammi", "ahsan", "mehwish"} <= names


def test_a_country_one_leaves_is_a_place_and_a_company_one_leaves_an_employer(parser):
    types = {
        normalize_name(e.name): e.type
        for e in parser.extract(
            "Dr. Yaw Boateng-Owusu left Ghana in 1976 to study medicine in Nairobi. "
            "Kenji left Zalando in June."
        ).entities
    }
    assert types["ghana"] == "location"
    assert types["zalando"] == "organization"


def test_abbreviations_of_common_nouns_and_lone_letters_are_never_entities(parser):
    result = parser.extract(
        "ALERT: lab-freezer-03 at -62°C. Our EM asked the DBA to rotate the DNS records and "
        "export a CSV for the ML team; NATS stays."
    )
    names = {normalize_name(e.name) for e in result.entities}
    assert not names & {"c", "em", "dba", "dns", "csv", "ml"}
    assert "nat" in names  # NATS, the message broker, is a name


def test_a_known_place_opening_a_line_is_a_place_and_no_speaker(parser):
    trip = parser.extract(
        "## Japan trip\n- Tokyo (4 nights): Shimokitazawa\n- Kyoto (3 nights): Fushimi Inari"
    )
    assert ("kyoto", "location") in _entities(trip) and ("tokyo", "location") in _entities(trip)
    log = parser.extract("Kyoto: Ryo and I visited Fushimi Inari")
    assert ("kyoto", "location") in _entities(log) and ("kyoto", "person") not in _entities(log)


def test_identifiers_regions_and_lower_case_technologies_are_found(parser):
    result = parser.extract(
        "The orders-api runs in eu-west-1 and talks to db-replica-3; it reads from redis "
        "and writes to the user_sessions table."
    )
    found = _entities(result)
    assert {
        (normalize_name("orders-api"), "component"),
        ("eu west 1", "location"),
        ("db replica 3", "component"),
        ("redis", "technology"),
        ("user session", "component"),
    } <= found
    assert (normalize_name("orders-api"), "LOCATED_IN", "eu west 1") in _triples(result)
    assert (normalize_name("orders-api"), "INTEGRATES_WITH", "db replica 3") in _triples(result)


def test_the_speaker_is_the_subject_of_i_and_relationships_carry_their_sentence(parser):
    result = parser.extract(
        "Priya (3:10 pm on 2 June, 2023): I moved to Lisbon last year and I work at Acme Corp."
    )
    assert ("priya", "LIVES_IN", "lisbon") in _triples(result)
    assert ("priya", "WORKS_FOR", "acme corp") in _triples(result)
    evidence = {r.description for r in result.relationships}
    assert "I moved to Lisbon last year and I work at Acme Corp." in evidence
    assert all(0 < r.confidence <= 1 for r in result.relationships)


def test_negation_states_nothing_but_no_longer_is_a_stop(parser):
    assert not _triples(parser.extract("The billing service does not use Kafka."))
    assert ("platform team", "STOPPED_USING", normalize_name("Jenkins")) in _triples(
        parser.extract("The Platform team no longer uses Jenkins.")
    )


def test_a_list_under_a_persons_heading_is_about_that_person(parser):
    result = parser.extract(
        "## Dana's preferences\n- Prefers Polars over pandas\n- Likes dark mode\n"
        "- Works at Quorum Analytics; lives in Austin"
    )
    triples = _triples(result)
    assert {
        ("dana", "PREFERS", "polar"),
        ("dana", "LIKES", "dark mode"),
        ("dana", "WORKS_FOR", normalize_name("Quorum Analytics")),
        ("dana", "LIVES_IN", "austin"),
    } <= triples
    assert ("pandas", "technology") in {(e.name, e.type) for e in result.entities}


def test_one_parse_per_text_shared_by_every_caller():
    text = "Grace Okafor leads Project Atlas from Nairobi."
    assert nlp.parse(text) is nlp.parse(text)
    batch = nlp.parse_many([text, "Another text about Kafka."])
    assert batch[0] is nlp.parse(text)
    assert batch[0].user_data["source"] == text


def test_extract_many_matches_extract(parser):
    texts = [
        "Alice Chen owns the billing service.",
        "Marco reports to Elena at Acme Corp in Berlin.",
        "nothing named here at all",
    ]
    assert [_triples(r) for r in parser.extract_many(texts)] == [
        _triples(parser.extract(t)) for t in texts
    ]
    assert [_entities(r) for r in parser.extract_many(texts)] == [
        _entities(parser.extract(t)) for t in texts
    ]


# --- constructions (one sentence each, extracted for real) -------------------------------


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        # a particle between the verb and its preposition
        ("Priya: Arjun and I just got back from Paris.", ("priya", "VISITED", "paris")),
        ("Priya: Arjun and I drove up to Boston last week.", ("arjun", "VISITED", "boston")),
        # a passive participle on a noun: the noun, or the subject the noun is said of
        (
            "quota-svc is a small Go service, written by Ilse Janssen, that wraps Redis.",
            ("ilse janssen", "CREATED", "quota svc"),
        ),
        (
            "invoice-api is a Django app backed by PostgreSQL.",
            ("invoice api", "DEPENDS_ON", "postgresql"),
        ),
        # "by X and by Y", and "It" opening a sentence is the sentence before's subject
        (
            "tile-server is our map renderer. It is used by web-api and by route-svc.",
            ("route-svc", "USES", "tile-server"),
        ),
        # a lone first name is the full name given earlier
        (
            "Ingrid Solberg approved the budget. Ingrid reports to Hamid Rostami.",
            ("ingrid solberg", "REPORTS_TO", "hamid rostami"),
        ),
        # a team named by a name and a team word
        ("Ayşe Kaya manages the Android team.", ("ayşe kaya", "LEADS", "android team")),
        ("Lindiwe joined the Payments team in May.", ("lindiwe", "PART_OF", "payments team")),
        # reciprocal marrying, kin as a compound, "works as a ... for"
        ("Omar and Layla got married in Beirut.", ("omar", "MARRIED_TO", "layla")),
        ("Sarah lives in Leeds with her girlfriend Emma.", ("sarah", "MARRIED_TO", "emma")),
        (
            "Tobias works as a data engineer for Brightline Energy.",
            ("tobias", "WORKS_FOR", "brightline energy"),
        ),
        # a manager "at" an organisation works for it
        (
            "Greta Holm, account manager at Polaris Freight, called twice.",
            ("greta holm", "WORKS_FOR", "polaris freight"),
        ),
        # an inverted role and an apposed one
        (
            "Oslo-based Nordic Labs builds heat pumps; its CEO is Ida Berg.",
            ("ida berg", "WORKS_FOR", "nordic labs"),
        ),
        ("Oslo-based Nordic Labs builds heat pumps.", ("nordic labs", "LOCATED_IN", "oslo")),
        # a parenthesis after a name
        (
            "We buy paper from Harbor Print Ltd (Dublin).",
            ("harbor print ltd", "LOCATED_IN", "dublin"),
        ),
        ("- Ship search-v2 (owner: Paulo Reis)", ("paulo reis", "OWNS", "search-v2")),
        # "got a job at", "both" as the coordinated names before
        ("Esra got a job at Tidewater Labs last spring.", ("esra", "WORKS_FOR", "tidewater lab")),
        (
            "Daniel and his wife Maria run a bakery; both studied at Yale University.",
            ("maria", "STUDIES_AT", "yale university"),
        ),
        # occupational verbs with "at", and a product name that is the employer
        (
            "Kwesi leads platform engineering at Orbital Freight.",
            ("kwesi", "WORKS_FOR", "orbital freight"),
        ),
        ("Before that, Marta worked at Shopify.", ("marta", "WORKS_FOR", "shopify")),
        # what is rolled out or deployed is placed there
        (
            "Rolled out edge-cache to us-east-2 this morning.",
            ("edge cache", "LOCATED_IN", "us east 2"),
        ),
        # a parenthesised name stands for the noun before it
        (
            "Tom Baker reviewed the proposal (RFC-12) on Friday.",
            ("tom baker", "REVIEWED", "rfc-12"),
        ),
        # a team runs a service: it owns it
        ("geo-index-svc is run by the Search team.", ("search team", "OWNS", "geo-index-svc")),
        # a "Key: value" piece inside a list item
        ("- **pay-api** — Go, Redis; owner: Lerato Dube", ("lerato dube", "OWNS", "pay api")),
        # selling, a possessed workplace, a possessed thing named by the copula
        (
            "Henrik founded Fjordbyte and sold it to Orbis Systems in 2019.",
            ("orbis systems", "OWNS", "fjordbyte"),
        ),
        (
            "Beatriz called. Her team at Caravela Software is hiring.",
            ("beatriz", "WORKS_FOR", "caravela software"),
        ),
        ("Dana Reyes got a puppy last week. Her dog is Max.", ("dana reyes", "OWNS", "max")),
        # a line of people under a team's heading, and a partner line under a person's
        (
            "### Mobile guild\n- iOS: Ben Carter, Lina Haddad",
            ("lina haddad", "PART_OF", "mobile guild"),
        ),
        ("## Profile: Maria Lopez\n- Partner: Daniel", ("maria lopez", "KNOWS", "daniel")),
        # a conference is an event; a kin title is no part of the name
        ("Hiro is speaking at KubeCon Europe in May.", ("hiro", "ATTENDED", "kubecon europe")),
        ("Next summer we visit Grandma Olga in Tbilisi.", ("olga", "LIVES_IN", "tbilisi")),
        # the names a noun is illustrated by
        (
            "The Maps team owns several services, including geo-api and tile-svc.",
            ("maps team", "OWNS", "tile-svc"),
        ),
        # a chat handle is a person
        ("@tariq can you check why ingest-api is down?", None),
        # a markdown table: the first cell is the row's subject, the header the key
        (
            "| Service | Owner | Datastore |\n|---|---|---|\n| invoice-api | Finance | MySQL |",
            ("invoice-api", "USES", "mysql"),
        ),
        # a bold "Key: value" line under a component's heading
        (
            "### notification-hub\n**Owner:** Messaging team\n**Language:** Kotlin",
            ("messaging team", "OWNS", "notification-hub"),
        ),
        # "Manager: X" under a person's heading; "Name: X" opens a record
        (
            "### Hiroko Tanaka\n- Manager: Daichi Mori",
            ("hiroko tanaka", "REPORTS_TO", "daichi mori"),
        ),
        (
            "- Name: Priscila Andrade\n- City: São Paulo",
            ("priscila andrade", "LIVES_IN", "são paulo"),
        ),
        # a heading as the key of the lines under it
        ("## Owners\n- api-gateway: Lwazi Dube", ("lwazi dube", "OWNS", "api-gateway")),
        # a quoted title is one work
        (
            'Arash Karimi wrote the paper "Sparse Routing at Scale" last year.',
            ("arash karimi", "CREATED", "sparse routing at scale"),
        ),
        # a verb the parser reads as a noun after a service name
        ("auth-svc stores sessions in Redis.", ("auth-svc", "USES", "redis")),
        (
            "Noted: Bartek is the tech lead of the search squad and reports to Hanna Kowalczyk. "
            "He prefers async reviews over meetings.",
            ("bartek", "REPORTS_TO", "hanna kowalczyk"),
        ),
        # "it" after a clause is that clause's subject
        (
            "Deployed image-resizer v4.2.0 to prod-k8s; it now pulls originals from the "
            "media-originals bucket.",
            ("image-resizer", "DEPENDS_ON", "media-originals"),  # a store of ours it needs
        ),
        # appositions, passives with a tool, "using" a tool on a system
        (
            "Both services read from catalog-db, a PostgreSQL replica.",
            ("catalog-db", "USES", "postgresql"),
        ),
        ("The reporting-job is scheduled by Airflow.", ("reporting-job", "USES", "airflow")),
        (
            "Hamid will add rate limiting to the public-api using Envoy.",
            ("public-api", "USES", "envoy"),
        ),
        # pets, kin and tastes
        ("Leah: We have a golden retriever named Max.", ("leah", "OWNS", "max")),
        ("Sofia: We adopted a puppy!! His name is Biscuit.", ("sofia", "OWNS", "biscuit")),
        ("Grace has two kids, Ella and Noah.", ("grace", "KNOWS", "noah")),
        ("Nikhil: I'm in a band with my friends Arjun and Dev.", ("nikhil", "KNOWS", "arjun")),
        ("Jae-won: btw my roommate Dmitri says hi too", ("jae won", "KNOWS", "dmitri")),
        (
            "Adaeze: got the Sony WH-1000XM5 !!\nObi: jealous. my AirPods Pro r literally dying",
            ("obi", "OWNS", "airpods pro"),
        ),
        ("Emma's favourite band is Arctic Monkeys.", ("emma", "LIKES", "arctic monkeys")),
        ("Colm is a huge Liverpool fan.", ("colm", "LIKES", "liverpool")),
        ("Aisha: I've been really into photography lately.", ("aisha", "LIKES", "photography")),
        # visits: a person in a place, an activity at a place, a conference in a city
        ("Carmen: We visited my parents in Seville last week.", ("carmen", "VISITED", "seville")),
        (
            "Melanie: The kids and I went camping at Lake Tahoe.",
            ("melanie", "VISITED", "lake tahoe"),
        ),
        # moving to a team, taking a job over, a company named before "the company"
        ("Pavel is moving to the ML team.", ("pavel", "PART_OF", "ml team")),
        ("Freya took over the reports-cron from Bilal.", ("freya", "OWNS", "reports-cron")),
        (
            "Oren Katz co-founded Tabula in 2019; the company is headquartered in Tel Aviv.",
            ("tabula", "LOCATED_IN", "tel aviv"),
        ),
        # a component failing in a region; a car one drives
        (
            "pay-worker crashed in ap-southeast-2 overnight.",
            ("pay-worker", "LOCATED_IN", "ap-southeast-2"),
        ),
        ("Aditya drives a Tesla Model 3.", ("aditya", "OWNS", "tesla model 3")),
        # synonyms of a relation: tending a system, being with a company, swearing by
        ("Priya looks after the billing pipeline.", ("priya", "OWNS", "billing pipeline")),
        ("Tom is with Acme Corp now.", ("tom", "WORKS_FOR", "acme corp")),
        ("Kenji swears by Go.", ("kenji", "PREFERS", "go")),
        ("ingest-api feeds the events-bus.", ("ingest-api", "INTEGRATES_WITH", "events-bus")),
        # a subject that is the relation's target: hired, managed
        ("Stripe hired Ana Lopez in 2021.", ("ana lopez", "WORKS_FOR", "stripe")),
        ("Jo is managed by Helen.", ("jo", "REPORTS_TO", "helen")),
        # a negated taste is a dislike
        ("Rina doesn't like Slack.", ("rina", "DISLIKES", "slack")),
        ("Marek is not a fan of Kubernetes.", ("marek", "DISLIKES", "kubernetes")),
        # the role of a thing named after the copula; the user the notes name
        ("The owner of payments-api is Rahul.", ("rahul", "OWNS", "payments-api")),
        (
            "User's name is Paul Grant. User prefers tabs over spaces.",
            ("paul grant", "PREFERS", "tabs"),
        ),
        # a migration the parse misreads, a hand-over, a service on a host
        (
            "notif-svc was moved from Heroku to Render last sprint.",
            ("notif-svc", "MIGRATED_TO", "render"),
        ),
        (
            "By Friday, Ola will hand over the data-pipeline to the Analytics team.",
            ("analytics team", "OWNS", "data-pipeline"),
        ),
        (
            "hey can you check why orders-worker keeps crashing on node-7?",
            ("orders-worker", "LOCATED_IN", "node-7"),
        ),
        ("The fraud-model is served by triton-01.", ("fraud-model", "LOCATED_IN", "triton-01")),
        # a bold line is a heading; a key with no list marker; "it" is not its own subject
        (
            "**Profile: Dawit Tesfaye**\nlives: Addis Ababa\nworks: Ethiopian Airlines (IT)",
            ("dawit tesfaye", "WORKS_FOR", "ethiopian airlines"),
        ),
        (
            "- Name: Kirra Walsh\n- Home: Fitzroy, Melbourne\n",
            ("fitzroy", "LOCATED_IN", "melbourne"),
        ),
        (
            "We retired Zipkin last month. Grafana Tempo replaces it.",
            ("grafana tempo", "REPLACES", "zipkin"),
        ),
        # a table column of users, a person and an employer on one line
        (
            "| dependency | version | used by |\n|---|---|---|\n| protobuf | 3.25 | order-router |",
            ("order-router", "USES", "protobuf"),
        ),
        (
            "## Household contacts\n- Vet: Dr. Amrita Sen, Paws & Claws Clinic\n",
            ("amrita sen", "WORKS_FOR", "paws & claws clinic"),
        ),
        # ops lines: a deploy arrow into regions, a service on a host, a technology in
        # brackets, a name listed beside a service's name
        (
            "deploy log: payouts-svc v5.1.0 \u2192 prod (eu-west-1, ap-southeast-1).",
            ("payouts-svc", "LOCATED_IN", "ap-southeast-1"),
        ),
        (
            "sev3: search-indexer-v2 OOMKilled 6x on node ip-10-4-22-17. Bumped the limit.",
            ("search-indexer-v2", "LOCATED_IN", "ip-10-4-22-17"),
        ),
        (
            "dns-resolver-a and dns-resolver-b (both CoreDNS 1.11) restarted.",
            ("dns-resolver-a", "USES", "coredns 1.11"),
        ),
        # whose; a thing operated by an organisation; years spent at an employer
        (
            "The building houses the incubator Zeche Hub, whose director is Birgit Hansmann.",
            ("birgit hansmann", "LEADS", "zeche hub"),
        ),
        (
            "Rashida spent eight years at Deloitte before joining Gavi.",
            ("rashida", "WORKS_FOR", "deloitte"),
        ),
        # a home with its owner, a place beyond the thing one lives on, a past stay,
        # coordinated given names, a hyphenated given name
        (
            "Mireille keeps two rabbits, Pistache and Noisette, in her flat in Lyon.",
            ("mireille", "LIVES_IN", "lyon"),
        ),
        (
            "Grandpa Eero still lives on the family farm outside Helsinki.",
            ("eero", "LIVES_IN", "helsinki"),
        ),
        (
            "Minh Anh: so good, stayed with my grandma in Hoan Kiem the whole week",
            ("minh anh", "VISITED", "hoan kiem"),
        ),
        (
            "Niccolò and Giulia both teach at the Liceo Galilei; they have been married for years.",
            ("niccolò", "MARRIED_TO", "giulia"),
        ),
        ("Our new designer is Sun-hee Park.", ("sun-hee park", "person")),
        # a system beside a code name; a bare "the <noun>" for the one name ending in it;
        # a relative clause on an apposition; "from A to B" hung on the first preposition
        (
            "The quoting engine, pricer, is a stateless Kotlin service behind envoy-edge.",
            ("pricer", "USES", "kotlin"),
        ),
        (
            "Everything goes through gw-mobile, a gateway instance that routes to basket-svc.",
            ("gw-mobile", "INTEGRATES_WITH", "basket-svc"),
        ),
        (
            "Achieng switched her phone plan from Safaricom to Airtel.",
            ("achieng", "MIGRATED_TO", "airtel"),
        ),
        # an object "it" is the earlier clause's object; a title before a surname
        (
            "I opened PR-482 against the ledger-ui repo; Kwame reviewed it quickly.",
            ("kwame", "REVIEWED", "pr-482"),
        ),
        (
            "Ugochi: my boss Mr. Lindqvist approved the leave.",
            ("ugochi", "REPORTS_TO", "lindqvist"),
        ),
        (
            "order-svc publishes OrderPlaced to the orders.v1 topic on Pulsar.",
            ("orders.v1", "USES", "pulsar"),
        ),
        # a system moved to a region; a migration or an ownership said with a noun;
        # "they" after a marriage; a pet named like a product
        (
            "we just moved the staging cluster to eu-west-3 btw",
            ("staging cluster", "LOCATED_IN", "eu-west-3"),
        ),
        (
            "Plan: Kofi leads the migration of auth-svc to Keycloak.",
            ("auth-svc", "MIGRATED_TO", "keycloak"),
        ),
        (
            "Next quarter, Ines will take ownership of the payments-gateway.",
            ("ines", "OWNS", "payments-gateway"),
        ),
        (
            "Carlos married Ana in 2019; they live in Seville with their two dogs.",
            ("ana", "LIVES_IN", "seville"),
        ),
        ("My neighbour Ruth has a greyhound called Pip.", ("ruth", "OWNS", "pip")),
        # an arrow between two systems, or from a system to its team; a team named by its
        # field; the one reported to is a person
        (
            "cart-api \u2192 redis-cart timeouts again",
            ("cart-api", "DEPENDS_ON", "redis-cart"),
        ),
        (
            "`query-gw` \u2192 Discovery (Femke Vos)\n",
            ("discovery", "OWNS", "query-gw"),
        ),
        (
            "Tomasz is the tech lead for the mobile team and reports to Ewa.",
            ("tomasz", "LEADS", "mobile team"),
        ),
        (
            "inventory-svc writes stock updates to Kafka every minute.",
            ("inventory-svc", "USES", "kafka"),
        ),
        # a system named after a technology and a kind; a subjectless "proposed by" in a
        # note about a document; an object "it" for the earlier clause's subject
        (
            "Kafka cluster kf-prod-east upgraded to 3.7 last night.",
            ("kf-prod-east", "USES", "kafka"),
        ),
        (
            "RFC-88: move the nightly export to Airflow. Proposed by Aigerim; approved by Tom.",
            ("aigerim", "CREATED", "rfc-88"),
        ),
        (
            "libgeo is a thin C++ wrapper around GEOS; the tile-server links against it.",
            ("tile-server", "DEPENDS_ON", "libgeo"),
        ),
        # an owner named inside a prose note; a trip of one's own; "Back from X"
        (
            "dns-resolver-1 and dns-resolver-2 restarted overnight. No impact. Owner: netops.",
            ("netops", "OWNS", "dns-resolver-1"),
        ),
        (
            "Zofia: he had been hiding the ring since our trip to Ljubljana",
            ("zofia", "VISITED", "ljubljana"),
        ),
        ("Aurelio: Back from Hokkaido. It was unreal", ("aurelio", "VISITED", "hokkaido")),
        # "use X instead" after a system's retirement; moving a system off a product with
        # nowhere named; adopting a technology
        (
            "heads up: image-resizer will be decommissioned friday, use thumbor-svc instead",
            ("thumbor-svc", "REPLACES", "image-resizer"),
        ),
        ("Ada moves notif-svc off SNS this sprint.", ("notif-svc", "STOPPED_USING", "sns")),
        ("Goal: the data team adopts dbt.", ("data team", "USES", "dbt")),
        # a place on a street; a group split across cities; a company's office
        (
            "Favourite restaurant: Abyssinia on Queen Street.",
            ("abyssinia", "LOCATED_IN", "queen street"),
        ),
        (
            "The Data Platform group is led by Fiona and is split across Dublin and Toronto.",
            ("data platform group", "LOCATED_IN", "toronto"),
        ),
        ("We opened the Stripe office in Dublin last year.", ("stripe", "LOCATED_IN", "dublin")),
        # a kin word's owner is not the kin named beside it; "his" is the last man named
        (
            "Our cabin has no wifi, which my wife Nika loves. Her brother Aljaž built the sauna.",
            ("nika", "KNOWS", "aljaž"),
        ),
        (
            "Keanu is a surfer; his younger sister, Mahina, competes for the University of Hawaii.",
            ("keanu", "KNOWS", "mahina"),
        ),
        # an owner inside a plan about a project keeps their type; an event hosted in a city
        (
            "By Q2 the Postbox project retires the newsletter-cron job. Owner: Rosa Méndez.",
            ("rosa méndez", "OWNS", "postbox"),
        ),
        (
            "We are holding the Nordic Summit in Oslo; Ingrid is organising it.",
            ("nordic summit", "LOCATED_IN", "oslo"),
        ),
        # a given name tagged as a plural noun; a series of verbs the parser hung on a
        # place; a job landed at a company that is also a product; "can't stand X anymore"
        (
            "Olu grew up in Lagos, studied at UCL, and now works for Flutterwave in London.",
            ("olu", "STUDIES_AT", "ucl"),
        ),
        (
            "Marcus: my cousin Dev just landed a job at Airbnb",
            ("dev", "WORKS_FOR", "airbnb"),
        ),
        (
            "Sam: honestly I can't stand Jira anymore, we're switching to Linear",
            ("sam", "DISLIKES", "jira"),
        ),
        # starting at a school, playing at a club, a system refactored onto a library
        (
            "Their daughter, Imogen, starts at Ashford Primary in September.",
            ("imogen", "STUDIES_AT", "ashford primary"),
        ),
        (
            "My son Tobiah plays at the Riverside Chess Club.",
            ("tobiah", "PART_OF", "riverside chess club"),
        ),
        (
            "I refactored report-builder to use Polars instead of pandas.",
            ("report-builder", "MIGRATED_TO", "polars"),
        ),
        # a place in a place, by an apposition or a building named after it
        (
            "Bran Castle, a fortress in Transylvania, attracts tourists.",
            ("bran castle", "LOCATED_IN", "transylvania"),
        ),
        (
            "The Ruhrwerk building in Essen now houses a startup incubator.",
            ("ruhrwerk", "LOCATED_IN", "essen"),
        ),
        # an institution one works at; a relative named with the place they live in
        (
            "We are staying with his old colleague Nino, who works at the Batumi Botanical Garden.",
            ("nino", "WORKS_FOR", "batumi botanical garden"),
        ),
        (
            "Next spring we want to visit my college roommate Delphine in Sacramento.",
            ("delphine", "LIVES_IN", "sacramento"),
        ),
        # a question to "you" answered yes in the next turn; "how was X?" answered
        (
            "Mara: did you end up taking the offer at Shopify?\nTeodor: yes, I start Monday",
            ("teodor", "WORKS_FOR", "shopify"),
        ),
        (
            "Ilse (9 am): how was your trip to Marrakesh?\nBram (9 am): hot but amazing",
            ("bram", "VISITED", "marrakesh"),
        ),
        # an owner before each task of a list; a pronoun of the right gender
        (
            "Release checklist — Oyelaran: review the RFC-77 draft; Mbeki: tag the build.",
            ("oyelaran", "REVIEWED", "rfc-77"),
        ),
        (
            "Ruben and his wife Carla moved to Ghent; he works at Barco now.",
            ("ruben", "WORKS_FOR", "barco"),
        ),
        # a writer who names themself is "I"
        (
            "My name is Oluwaseun and I work at Flutterwave.",
            ("oluwaseun", "WORKS_FOR", "flutterwave"),
        ),
        ("I'm Katarzyna. I live in Gdansk.", ("katarzyna", "LIVES_IN", "gdansk")),
        (
            "Femi, 41, accountant. Still uses Xero for everything.",
            ("femi", "USES", "xero"),
        ),
        # a stay of some days in a place, with someone; landing somewhere
        (
            "Summer plan: 4 nights in Dubrovnik with Marija, then home.",
            ("marija", "VISITED", "dubrovnik"),
        ),
        ("Tomasz (7 am): landed in Lisbon!!", ("tomasz", "VISITED", "lisbon")),
        # a pull request by its number; a technology two words before its noun
        (
            "I opened PR #91 against the web repo and Nadia reviewed it.",
            ("nadia", "REVIEWED", "pr #91"),
        ),
        (
            "The Twilio SMS credentials used by alert-svc were rotated.",
            ("alert-svc", "USES", "twilio"),
        ),
        # a chain of arrows, a braced list after one, an arrow between two technologies
        (
            "```\nmobile-bff -> edge-router -> {search-svc, promo-svc}\n```\n",
            ("edge-router", "DEPENDS_ON", "promo-svc"),
        ),
        ("Tooling changes:\n- Bitbucket \u2192 GitLab\n", ("gitlab", "REPLACES", "bitbucket")),
        # a store of our own under a "datastore" key is depended on
        (
            "### Service: quote-engine\n- datastore: quotes-pg-2\n- lang: Go\n",
            ("quote-engine", "DEPENDS_ON", "quotes-pg-2"),
        ),
        # a table of people and the events they go to, in the events' cities
        (
            "| Person | Event | City |\n|---|---|---|\n| Marta | RustConf | Montreal |\n",
            ("marta", "ATTENDED", "rustconf"),
        ),
        (
            "| Person | Event | City |\n|---|---|---|\n| Marta | RustConf | Montreal |\n",
            ("rustconf", "LOCATED_IN", "montreal"),
        ),
        # a ticket assigned to someone, as a participle or a note's bare passive
        (
            "Flaky login test (QA-318, assigned to Bogdan) blocks the release.",
            ("bogdan", "OWNS", "qa-318"),
        ),
        ("Ticket SUP-77 assigned to Leontine.", ("leontine", "OWNS", "sup-77")),
        # the members a group's "members include" names
        (
            "The standard is governed by the OpenMesh Alliance, whose members include "
            "Siemens and Bosch.",
            ("bosch", "PART_OF", "openmesh alliance"),
        ),
        # the values of a key listed under it; a name that is also an adjective
        (
            "## Squad: Kestrel\n\nlead: Precious\nowns:\n  - quota-svc\n  - meter-job\n",
            ("kestrel", "OWNS", "meter-job"),
        ),
        ("## Squad: Kestrel\n\nlead: Precious\n", ("precious", "LEADS", "kestrel")),
        # a roster after a team's name, each person with a role
        (
            "Hackathon team 'Byte Size': Tamsin (art), Viktor (code), Olu (sound).",
            ("viktor", "PART_OF", "byte size"),
        ),
        (
            "Roster for the squad (Heron): Ilka \u2014 backend, Basil \u2014 mobile.",
            ("ilka", "PART_OF", "heron"),
        ),
        # the team a person's name owns; a person's department in brackets
        (
            "The rollout waits for Mehmet's team, Checkout Core.",
            ("mehmet", "LEADS", "checkout core"),
        ),
        (
            "Sponsor: Lorraine Abbott (Data Engineering)",
            ("lorraine abbott", "PART_OF", "data engineering"),
        ),
        # ", which ..." stands for the name right before the comma, however it is parsed
        (
            "The job that floods the queue is ledger-replay, which Marisol maintains.",
            ("marisol", "OWNS", "ledger-replay"),
        ),
        # a group under another group
        (
            "The Lynx squad sits under the Commerce tribe.",
            ("lynx squad", "PART_OF", "commerce tribe"),
        ),
        # a pull request by its number without "#"
        ("Tobias reviewed PR 4410 this morning.", ("tobias", "REVIEWED", "pr 4410")),
        # a note's label before a colon is no speaker
        ("Workaround: restart the pod by hand.\nVenkat owns the chart.", ("workaround", None)),
        # the words of a replacement between two systems
        (
            "Change: switched SMTP provider from Postmark to Amazon SES.",
            ("amazon ses", "REPLACES", "postmark"),
        ),
        (
            "patient-portal now uses Keycloak for login instead of the home-grown auth-svc.",
            ("keycloak", "REPLACES", "auth-svc"),
        ),
        (  # a vendor the parser takes for a company still takes a system's place
            "notify-service now sends SMS through Twilio instead of Nexmo.",
            ("twilio", "REPLACES", "nexmo"),
        ),
        (
            "Retire the fx-poller cron in favour of rates-stream.",
            ("rates-stream", "REPLACES", "fx-poller"),
        ),
        ("The data team is swapping Airflow for Dagster.", ("dagster", "REPLACES", "airflow")),
        ("(2) replace Jenkins w/ GitHub Actions", ("github actions", "REPLACES", "jenkins")),
        # a note's sentence that opens with its verb is about the person the note is about
        (
            "Client notes: Rafaela Tavares runs a bakery in Braga. Uses Square for payments.",
            ("rafaela tavares", "USES", "square"),
        ),
        (
            "About the user: Anselm Weber, 41. Loves Rust. Works at Grafana Labs these days.",
            ("anselm weber", "WORKS_FOR", "grafana labs"),
        ),
        (
            "Reminder set. Name: Keziah. Lives in Accra, prefers WhatsApp over email.",
            ("keziah", "LIVES_IN", "accra"),
        ),
        # "she" twice in a row stays with the one the first "she" stood for
        (
            "Farida Nasser leads QA at Wayfair. She reports to Lionel Baptiste. "
            "She prefers Playwright over Cypress.",
            ("farida nasser", "PREFERS", "playwright"),
        ),
        # a place before a country, a state or a continent, or an unknown place before a
        # city, lies in it
        (
            "The Kestrel Institute is a lab in Boulder, Colorado.",
            ("boulder", "LOCATED_IN", "colorado"),
        ),
        ("Team offsite: Bled, Slovenia, 9–11 Oct.", ("bled", "LOCATED_IN", "slovenia")),
        (
            "Venue: Moscone Center, San Francisco.",
            ("moscone center", "LOCATED_IN", "san francisco"),
        ),
        # "direct", "supervise" as "lead", "manage"
        (
            "The Kestrel Institute is directed by physicist Mei-Ling Chou.",
            ("mei ling chou", "LEADS", "kestrel institute"),
        ),
        ("Amara supervises Tunde.", ("tunde", "REPORTS_TO", "amara")),
        # a role one is appointed to, and the roles that lead what they are the role of
        (
            "Seo-yeon Park was appointed director of the Busan Metropolitan Library.",
            ("seo yeon park", "LEADS", "busan metropolitan library"),
        ),
        (
            "Ana was elected president of the Lisbon Chess Club.",
            ("ana", "LEADS", "lisbon chess club"),
        ),
        ("Marta is the principal of Kingsmead Academy.", ("marta", "LEADS", "kingsmead academy")),
        (
            "Priyanka: my boy Aarav just started at IIT Bombay!!",
            ("aarav", "STUDIES_AT", "iit bombay"),
        ),
        # a company moving its own thing to a technology migrates itself
        (
            "Rotterdam-based logistics firm Maasvlakte Cargo moved its fleet tracking from "
            "Samsara to Geotab in 2023.",
            ("maasvlakte cargo", "MIGRATED_TO", "geotab"),
        ),
        # a venue before a city, whatever the model first called the venue
        ("* Venue: Café Lento, Valencia", ("café lento", "LOCATED_IN", "valencia")),
        # people who are friends, each of the other
        (
            "Yara and Tariq have been friends since university.",
            ("yara", "KNOWS", "tariq"),
        ),
        # a writer naming themself after a greeting is the "my" of the text
        (
            "Kia ora, I'm Hemi. My partner Mereana runs the Ohakune Vet Clinic.",
            ("hemi", "KNOWS", "mereana"),
        ),
        (
            "My name's Doug Halvorsen and I coach the chess club at Lincoln Middle School.",
            ("doug halvorsen", "WORKS_FOR", "lincoln middle school"),
        ),
        ("Nomvula: my gran Nokuthula is teaching me isiXhosa", ("nomvula", "KNOWS", "nokuthula")),
        # "it" opening an answer is the system the question named
        (
            "Lena: quick q, is checkout-svc still on Express?\n"
            "Ravi: nope, Jonas moved it to Kafka last sprint.",
            ("checkout svc", "MIGRATED_TO", "kafka"),
        ),
        # what one does at an event names it one: speaking, a talk, a booth
        (
            "Tamar Cohen is speaking at BSides Tel Aviv in June.",
            ("tamar cohen", "ATTENDED", "bsides tel aviv"),
        ),
        ("Hiro gave a talk at PyData Osaka last spring.", ("hiro", "ATTENDED", "pydata osaka")),
        # the company whose office one works at; the place a mayor leads
        (
            "Sister Paula works at Mango's head office in Barcelona.",
            ("paula", "WORKS_FOR", "mango"),
        ),
        (
            "Hana Novotná, mayor of Olomouc, won a second term.",
            ("hana novotná", "LEADS", "olomouc"),
        ),
        # "the company", "the band", "the scheme": the earlier name it describes or its
        # kind's subject of the sentence before
        (
            "Sadaf Pay, a payments start-up, announced a deal with Gulf Pearl Bank. The "
            "company was founded in 2021 by Noor Al-Khalifa.",
            ("noor al-khalifa", "CREATED", "sadaf pay"),
        ),
        (
            "Aarhus Municipality picked Mobilbyen to run its e-bike sharing scheme, Cykel "
            "Aarhus. The scheme is overseen by the technical director, Mette Kjærgaard.",
            ("mette kjærgaard", "LEADS", "cykel aarhus"),
        ),
        # "we" in an organization's notes is the organization
        (
            "Acme Logistics, a freight broker in Leeds, uses Salesforce. In May we switched "
            "from Jira to Linear.",
            ("acme logistics", "MIGRATED_TO", "linear"),
        ),
        # a move no name made is the move of the organization the notes are about
        (
            "Mekong Lantern Hotel, Kratie: weekly heads of department\n1. Front office has "
            "finished moving reservations from Cloudbeds to Little Hotelier.",
            ("mekong lantern hotel", "MIGRATED_TO", "little hotelier"),
        ),
        (
            "Mekong Lantern Hotel, Kratie: weekly heads of department\n1. Front office has "
            "finished moving reservations from Cloudbeds to Little Hotelier.",
            ("mekong lantern hotel", "STOPPED_USING", "cloudbeds"),
        ),
        # the user a note names in brackets
        (
            "Summary of user (Sreymom): training manager at Sala Kamsan Hospitality School. "
            "Reports to the country director, Pierre Lemaire.",
            ("sreymom", "REPORTS_TO", "pierre lemaire"),
        ),
        # a first-person text signed with a dash, or naming its writer after "I"
        (
            "I've kept bees for nine years. I work as a Java developer at Nokia, which pays "
            "for the hobby. My brother Ville helps with the harvest. — Juha",
            ("juha", "WORKS_FOR", "nokia"),
        ),
        (
            "I've been a bus driver for Transperth for 11 years. My name's Kylie, and yes, "
            "I still miss the mine money.",
            ("kylie", "WORKS_FOR", "transperth"),
        ),
        # "she" for the one person named before, whatever a name list says of her sex
        (
            "Wanjiru Mwangi studies at the University of Nairobi. She uses Stata for the models.",
            ("wanjiru mwangi", "USES", "stata"),
        ),
        # a surname alone later in the text names the same person
        (
            "Thandiwe Mokoena has been appointed head of the Gauteng Department of Health. "
            "Mokoena was previously chief nursing officer at Chris Hani Baragwanath Hospital.",
            ("thandiwe mokoena", "WORKS_FOR", "chris hani baragwanath hospital"),
        ),
        # a given name from a table names that table's full name
        (
            "| Name | Role |\n|---|---|\n| Mariam Hassan | SRE |\n| Tomasz Nowak | Backend |"
            "\n\nMariam and Tomasz report to Oluwaseun.",
            ("tomasz nowak", "REPORTS_TO", "oluwaseun"),
        ),
        (
            "Ingrid Solberg is the chief executive of Nordlys Energi.",
            ("ingrid solberg", "LEADS", "nordlys energi"),
        ),
        (
            "On 4 May, Porto hosted Web Summit Iberia, which drew 9,000 people.",
            ("web summit iberia", "LOCATED_IN", "porto"),
        ),
        (
            "The Open Geodata Consortium released version 3 of its TerraTile specification.",
            ("open geodata consortium", "CREATED", "terratile"),
        ),
        # a record's fields in a two-column table
        (
            "## Service: `inventory-sync`\n\n| Field | Value |\n|---|---|\n"
            "| Owner | Kaveh Tehrani |\n| Language | Kotlin |\n| Region | eu-west-1 |",
            ("kaveh tehrani", "OWNS", "inventory-sync"),
        ),
        (
            "## Service: `inventory-sync`\n\n| Field | Value |\n|---|---|\n"
            "| Owner | Kaveh Tehrani |\n| Language | Kotlin |\n| Region | eu-west-1 |",
            ("region", None),
        ),
        (
            "Things to remember about Farhan:\n* Based in Dhaka, works for Pathao\n"
            "* cat named Mishti",
            ("farhan", "OWNS", "mishti"),
        ),
        (
            "Expenses are approved by Tariq Aziz, Guðrún Jónsdóttir's manager.",
            ("guðrún jónsdóttir", "REPORTS_TO", "tariq aziz"),
        ),
        (
            "During the incident payments-api, which reads from db-replica-2, slowed down.",
            ("payments-api", "DEPENDS_ON", "db-replica-2"),
        ),
        # at a school without a role: studies there; with one: works there
        (
            "His twins, Kemi and Kunle, are both at Covenant University.",
            ("kemi", "STUDIES_AT", "covenant university"),
        ),
        (
            "Henrik himself is a postdoc at Uppsala University.",
            ("henrik", "WORKS_FOR", "uppsala university"),
        ),
    ],
)
def test_constructions(parser, text, triple):
    result = parser.extract(text)
    if triple is None:
        assert ("tariq", "person") in _entities(result)
        return
    if len(triple) == 2 and triple[1] is None:  # a word that is no entity
        assert normalize_name(triple[0]) not in {n for n, _type in _entities(result)}
        return
    if len(triple) == 2:  # an entity and its type
        assert (normalize_name(triple[0]), triple[1]) in _entities(result)
        return
    source, type_, target = triple
    expected = (normalize_name(source), type_, normalize_name(target))
    assert expected in _triples(result), sorted(_triples(result))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I finally bought the Bose QC 45 for the flight.", "bose qc 45"),
        ("Traffic now goes through Route 53 instead.", "route 53"),
        ("Search moves to Amazon OpenSearch Service next quarter.", "amazon opensearch service"),
        ("Secrets are kept in AWS KMS.", "aws kms"),
    ],
)
def test_a_multi_word_name_stays_whole(parser, text, name):
    """A proper-noun run keeps its model number and a modifier that is itself a name."""
    names = {n for n, _type in _entities(parser.extract(text))}
    assert name in names, sorted(names)


@pytest.mark.parametrize(
    ("text", "expected", "absent"),
    [
        # two given names joined by "&" or "+" are two people, and share the verb
        (
            "Kofi & Ama both work at Zipline now",
            {("kofi", "person"), ("ama", "person")},
            {"kofi ama"},
        ),
        ("Sun: brunch with Wout & Fien", {("wout", "person"), ("fien", "person")}, set()),
        ("We track runs in Weights & Biases.", {("weights biase", "technology")}, {"weight"}),
        # a capitalised role or an imperative verb before a name is not part of it
        ("Postdoc Jun Park maintains the repo.", {("jun park", "person")}, {"postdoc jun park"}),
        ("Drummer Femi Adeyemi produced it.", {("femi adeyemi", "person")}, set()),
        ("Ping Chioma for QA sign-off", {("chioma", "person")}, {"ping chioma"}),
        ("Led by clerk Beatriz Santos.", {("beatriz santos", "person")}, {"clerk"}),
        # a possessive that owns nothing is the name's own ("Nando's", "St. Jude's")
        ("Dinner at Nando's tonight with Sam.", {("nando s", None)}, {"nando"}),
        ("She is a nurse at St. Jude's in Memphis.", {("st jude s", None)}, set()),
        ("Emeka's team owns it.", {("emeka", "person")}, {"emeka s"}),
        # a title makes a person of any name; a speaker's title is not part of the name
        ("Principal Whitfield wants a summary by Friday.", {("whitfield", "person")}, set()),
        (
            "Ms. Adeyemi: are we on Khan Academy?\nCarlos: mostly",
            {("adeyemi", "person"), ("carlos", "person")},
            {"ms adeyemi"},
        ),
        ("Postdoc Lina Haddad leads analysis.", {("lina haddad", "person")}, {"postdoc"}),
        # a business named by its trade
        (
            "Harvest plan, Kahurangi Farm: start the pick.",
            {("kahurangi farm", "organization")},
            set(),
        ),
        # an honorific is not part of the name; a long name after "the" stays whole
        (
            "Doña Rosa Elena Quilodrán runs it with Opanin Kwame Nyarko.",
            {("rosa elena quilodrán", "person"), ("kwame nyarko", "person")},
            {"doña rosa elena quilodrán", "opanin kwame nyarko"},
        ),
        (
            "She was named director of the new West African Pathogen Genomics Hub.",
            {("west african pathogen genomics hub", None)},
            set(),
        ),
        # names joined by small words of other languages; a saint's possessive before "of"
        (
            "She volunteers at Kusina ng Pag-asa and Agua para Tiquipaya.",
            {("kusina ng pag asa", None), ("agua para tiquipaya", None)},
            {"kusina"},
        ),
        (
            "St. Clement's Academy of Iloilo won the title.",
            {("st clement s academy", None)},
            {"s academy of iloilo"},
        ),
        # a body's name with an "and" inside, which the named-entity model cuts
        (
            "She works for the Estonian Tax and Customs Board in Tallinn.",
            {("estonian tax and customs board", "organization")},
            {"estonian tax", "customs board"},
        ),
        (
            "Ana went to Lisbon and Porto City Hall.",
            {("lisbon", "location")},
            {"lisbon and porto city hall"},
        ),
        # two people joined by a spaced "+" in a note; a name that holds one stays whole
        (
            "Owners: Marta Sobieraj + Piotr Sobieraj",
            {("marta sobieraj", "person"), ("piotr sobieraj", "person")},
            {"marta sobieraj piotr sobieraj"},
        ),
        ("Call Babcia Bożena and Profe Marta Duarte.", {("bożena", "person")}, {"babcia bożena"}),
        # "the MapKids app": the name is the product's
        ("I plan meals in the PocketChef app.", {("pocketchef", None)}, {"pocketchef app"}),
        # a name's opening word that is also a filler, a weekday or an abbreviation
        ("(Thu Trang is booking everything.)", {("thu trang", "person")}, {"trang"}),
        (
            "Weekends I play badminton with my old classmate Ah Keong.",
            {("ah keong", "person")},
            {"keong"},
        ),
        ("- *Pachinko* by Min Jin Lee", {("min jin lee", "person")}, {"jin lee"}),
        ("My aunt Tía Carmen lives in Sevilla.", {("carmen", "person")}, {"tía carmen"}),
    ],
)
def test_names_bounded_where_a_reader_bounds_them(parser, text, expected, absent):
    found = _entities(parser.extract(text))
    names = {name for name, _type in found}
    assert {(n, t) for n, t in expected if t} <= found, sorted(found)
    assert {n for n, t in expected if t is None} <= names, sorted(found)  # of any type
    assert not absent & names


def test_a_record_opened_by_its_system_and_keys_named_in_more_words(parser):
    record = parser.extract(
        "service: image-resizer\nowner: Media team\nlang: Go\nruntime: AWS Lambda"
    )
    assert {
        ("media team", "OWNS", "image resizer"),
        ("image resizer", "USES", "go"),
        ("image resizer", "USES", "aws lambda"),
    } <= _triples(record)
    profile = parser.extract("Name: Takumi Sato\nMain tools: Unity\nHome city: Tokyo")
    assert {("takumi sato", "USES", "unity"), ("takumi sato", "LIVES_IN", "tokyo")} <= _triples(
        profile
    )


def test_a_first_person_note_gives_its_verbs_to_no_one_it_names(parser):
    result = parser.extract(
        "Spent the weekend with my neighbour Ottavio, who fixes bikes. Moved to Turin in May."
    )
    assert ("ottavio", "LIVES_IN", "turin") not in _triples(result)


def test_the_word_name_introducing_a_person_is_no_entity(parser):
    names = {n for n, _type in _entities(parser.extract("Name's Takumi Sato. Lives in Tokyo."))}
    assert "takumi sato" in names and "name" not in names


def test_peers_in_a_list_are_not_one_inside_the_other(parser):
    result = parser.extract("Offices: Berlin, Munich, Hamburg. Regions: us-east-1, eu-west-1.")
    assert not [t for t in _triples(result) if t[1] == "LOCATED_IN"]


def test_a_library_named_with_js_and_a_company_ending_in_a_technology_word(parser):
    """ "Moment.js" is a library, "index.js" a file; "Maasvlakte Cargo" is not Rust's
    installer, and the noun before a name types it ("logistics firm")."""
    found = dict(_entities(parser.extract("Dropped Moment.js for Day.js; see index.js.")))
    assert found["moment.js"] == "technology" and found["index.js"] == "document"
    found = dict(_entities(parser.extract("Swapped chart.js for uplot; the fix is in utils.js.")))
    assert found["chart.js"] == "technology" and found["utils.js"] == "document"
    found = dict(_entities(parser.extract("Logistics firm Maasvlakte Cargo hired Ana.")))
    assert found["maasvlakte cargo"] == "organization"
    found = dict(_entities(parser.extract("We run Apache Spark and HashiCorp Vault.")))
    assert found["apache spark"] == "technology" and found["hashicorp vault"] == "technology"


def test_a_language_is_a_concept_and_a_preferred_one_is_preferred(parser):
    """A language used as one is a *concept*, whatever a tagger guesses (a place, a
    people); the one replies are wanted in is what the person prefers. A nationality is no
    language, and an honorific ("Ustadh", "Sensei") is left out of the person's name."""
    result = parser.extract("Marta prefers replies in Kannada. She speaks Tagalog and Swahili.")
    found = dict(_entities(result))
    assert found["kannada"] == found["tagalog"] == found["swahili"] == "concept"
    assert ("marta", "PREFERS", "kannada") in _triples(result)
    found = dict(_entities(parser.extract("Ana is Portuguese and loves an English breakfast.")))
    assert "portuguese" not in found and "english" not in found
    found = dict(_entities(parser.extract("I study oud with Ustadh Nabil in Haifa.")))
    assert found.get("nabil") == "person" and "ustadh nabil" not in found


def test_a_note_line_opening_with_lives_or_studies_is_a_verb_of_the_note_person(parser):
    """ "Lives in Osaka." alone reads to the tagger as the plural of *life*; at the opening
    of a note's subjectless sentence it is the verb, and the note's person its subject."""
    result = parser.extract(
        "User is Hana Takeda. Lives in Osaka. Studies at Kyoto University. Works at Rakuten."
    )
    triples = _triples(result)
    assert ("hana takeda", "LIVES_IN", "osaka") in triples
    assert ("hana takeda", "STUDIES_AT", "kyoto university") in triples
    assert not _triples(parser.extract("Cats have nine lives in folklore."))


def test_a_known_technology_keeps_its_release_but_not_a_year_or_a_quantity(parser):
    """Most writers name the release with the product ("Postgres 16", "Oracle 19c"); on the
    development files written apart from the rules keeping it scores higher."""
    names = {n for n, _type in _entities(parser.extract("We upgraded to Postgres 16 in 2024."))}
    assert "postgres 16" in names and "postgres" not in names
    result = parser.extract("The move from Oracle 19c to Oracle 23ai is done; Redis 6 GB next.")
    names = {n for n, _type in _entities(result)}
    assert {"oracle 19c", "oracle 23ai", "redis"} <= names
    assert ("oracle 23ai", "REPLACES", "oracle 19c") in _triples(result)


@pytest.mark.parametrize(
    ("split", "entity_f1", "relationship_f1"),
    # Floors a little under what the extractor reaches. The dev splits were used to write
    # the rules, and are scored here on every other text (the suite's time; the whole files
    # in `eval_extraction`); the held-out ones were written by other hands, are only
    # measured, and are scored whole.
    [
        ("dev", 0.89, 0.72),
        ("dev2", 0.89, 0.77),
        ("dev3", 0.92, 0.78),
        ("dev4", 0.94, 0.78),
        ("dev5", 0.90, 0.83),  # 20 texts: the typer refitted on 28 files moves two names
        ("dev6", 0.81, 0.57),
        ("dev7", 0.87, 0.59),
        ("dev8", 0.79, 0.39),
        ("dev9", 0.81, 0.48),
        ("dev10", 0.77, 0.34),
        ("dev11", 0.83, 0.35),
        ("dev12", 0.78, 0.43),
        ("dev13", 0.83, 0.54),
        ("dev14", 0.80, 0.45),
        ("dev15", 0.79, 0.42),
        ("dev16", 0.70, 0.30),
        ("dev17", 0.78, 0.44),
        ("dev18", 0.80, 0.39),
        ("dev19", 0.79, 0.42),
        ("dev20", 0.68, 0.30),
        ("dev21", 0.73, 0.27),
        ("dev22", 0.65, 0.24),
        ("dev23", 0.73, 0.37),
        ("dev24", 0.73, 0.33),
        ("dev25", 0.73, 0.41),
        ("dev26", 0.75, 0.39),
        ("dev27", 0.80, 0.35),
        ("dev28", 0.70, 0.34),
        ("dev29", 0.72, 0.33),
        ("dev30", 0.74, 0.30),
        ("dev31", 0.86, 0.55),  # fitted on: on arrival 0.832 / 0.488 (all 105 texts)
        ("dev32", 0.90, 0.60),  # fitted on: on arrival 0.867 / 0.487 (all 100 texts)
        ("dev33", 0.86, 0.60),  # fitted on: on arrival 0.792 / 0.419
        ("dev34", 0.84, 0.58),  # fitted on: on arrival 0.789 / 0.443
        ("dev35", 0.85, 0.60),  # fitted on: on arrival 0.871 / 0.604 (all 105 texts)
        ("dev36", 0.83, 0.59),  # on arrival 0.855 / 0.613
        ("dev37", 0.83, 0.55),  # on arrival 0.835 / 0.559 (all 100 texts)
        ("dev38", 0.77, 0.43),  # on arrival 0.771 / 0.419 (all 100 texts)
        ("dev39", 0.80, 0.47),  # on arrival 0.838 / 0.514 (all 100 texts)
        ("dev40", 0.68, 0.32),  # on arrival 0.723 / 0.317 (all 100 texts; titles kept)
        ("dev41", 0.66, 0.31),  # on arrival 0.699 / 0.355 (all 100 texts)
        ("dev42", 0.71, 0.45),  # on arrival 0.744 / 0.436 (all 100 texts)
        ("dev43", 0.76, 0.41),  # on arrival 0.799 / 0.414 (all 100 texts)
        ("dev44", 0.72, 0.46),  # on arrival 0.753 / 0.478 (all 100 texts)
        ("dev45", 0.80, 0.48),  # on arrival 0.837 / 0.564 (all 100 texts)
        ("dev46", 0.82, 0.54),  # on arrival 0.831 / 0.534 (all 100 texts)
        ("dev47", 0.84, 0.56),  # on arrival 0.860 / 0.553 (all 100 texts)
        ("dev48", 0.77, 0.51),  # on arrival 0.817 / 0.497 (all 100 texts)
        ("dev49", 0.77, 0.47),  # on arrival 0.817 / 0.491 (all 100 texts)
        ("dev50", 0.79, 0.46),  # on arrival 0.792 / 0.475 (all 100 texts)
        ("dev51", 0.85, 0.62),  # fitted on: on arrival 0.810 / 0.460 (all 100 texts)
        ("dev52", 0.83, 0.58),  # fitted on: on arrival 0.786 / 0.481 (all 100 texts)
        ("dev53", 0.76, 0.45),  # on arrival 0.807 / 0.497 (all 100 texts)
        ("dev54", 0.73, 0.46),  # on arrival 0.785 / 0.506 (all 100 texts)
        ("dev55", 0.78, 0.37),  # fitted on: on arrival 0.806 / 0.483 (all 100 texts)
        ("dev56", 0.77, 0.42),  # on arrival 0.764 / 0.426 → 0.776 / 0.432 (all 100 texts)
        ("dev57", 0.76, 0.41),  # on arrival 0.762 / 0.405 → 0.763 / 0.420 (its half 0.784 / 0.436)
        ("dev58", 0.76, 0.47),  # on arrival 0.790 / 0.489 (its half 0.779 / 0.505)
        ("dev59", 0.71, 0.40),  # on arrival 0.741 / 0.434 (its half 0.736 / 0.432)
        ("dev60", 0.71, 0.39),  # on arrival 0.735 / 0.460 (its half 0.740 / 0.421)
        ("holdout", 0.84, 0.54),  # the first writer: 0.569 → 0.538 (34-file refit) → 0.567 (35)
        ("holdout2", 0.83, 0.62),
        ("holdout3", 0.81, 0.65),  # the converged linker: 0.715 → 0.669, the rest rose
        ("holdout4", 0.71, 0.41),
        ("holdout5", 0.72, 0.30),
        ("holdout6", 0.75, 0.44),
        ("holdout7", 0.72, 0.39),
        ("holdout8", 0.73, 0.40),
        ("holdout9", 0.71, 0.36),
        ("holdout10", 0.75, 0.40),
        ("holdout11", 0.75, 0.40),  # on arrival 0.783 / 0.434
        ("holdout12", 0.78, 0.39),  # on arrival 0.808 / 0.423
        ("holdout13", 0.80, 0.49),  # on arrival 0.829 / 0.528
        ("holdout14", 0.84, 0.52),  # on arrival 0.868 / 0.552
        ("holdout15", 0.83, 0.51),  # on arrival 0.845 / 0.534
        ("holdout16", 0.84, 0.61),  # on arrival 0.864 / 0.641
        ("holdout17", 0.81, 0.53),  # on arrival 0.831 / 0.551
        ("holdout18", 0.81, 0.48),  # on arrival 0.838 / 0.504
        ("holdout19", 0.66, 0.32),  # on arrival 0.724 / 0.354 (its writer keeps "Dr.")
        ("holdout20", 0.71, 0.41),  # on arrival 0.742 / 0.444
        ("holdout21", 0.76, 0.55),  # on arrival 0.788 / 0.582
        ("holdout22", 0.75, 0.50),  # on arrival 0.786 / 0.539
        ("holdout23", 0.72, 0.41),  # on arrival 0.752 / 0.432
        ("holdout24", 0.79, 0.52),  # on arrival 0.819 / 0.555
        ("holdout25", 0.79, 0.54),  # on arrival 0.827 / 0.573
        ("holdout26", 0.81, 0.50),  # on arrival 0.846 / 0.536
        ("holdout27", 0.81, 0.51),  # on arrival 0.840 / 0.540
        ("holdout28", 0.80, 0.52),  # on arrival 0.830 / 0.554
        ("holdout29", 0.75, 0.41),  # on arrival 0.782 / 0.445
        ("holdout30", 0.75, 0.40),  # on arrival 0.773 / 0.451 (its half 0.776 / 0.433)
        ("holdout31", 0.70, 0.40),  # on arrival 0.731 / 0.438 (its writer labels "potato")
        ("holdout32", 0.78, 0.56),  # on arrival 0.809 / 0.592 (the session's end code)
        ("holdout33", 0.75, 0.48),  # on arrival 0.781 / 0.515
        ("holdout34", 0.70, 0.37),  # on arrival 0.734 / 0.458 (its writer labels densely)
        ("holdout35", 0.77, 0.44),  # on arrival 0.803 / 0.482 → 0.804 / 0.474 (refits)
        ("holdout36", 0.65, 0.31),  # on arrival 0.711 / 0.373 (its half 0.682 / 0.340)
        ("holdout37", 0.72, 0.41),  # on arrival 0.760 / 0.426 (its half 0.753 / 0.450)
        ("holdout38", 0.77, 0.44),  # on arrival 0.782 / 0.476 (its half 0.796 / 0.471)
        ("holdout39", 0.76, 0.44),  # on arrival 0.778 / 0.466 (its half 0.785 / 0.466)
        ("holdout40", 0.70, 0.39),  # on arrival 0.720 / 0.424 (its half 0.731 / 0.419)
    ],
)
def test_the_labelled_splits(parser, split, entity_f1, relationship_f1):
    items = load_labelled(DATA / f"{split}.jsonl")
    assert len(items) >= 40
    # every other text (half the suite's time; `eval_extraction` scores them all); the
    # held-out floors below were checked on these halves (2026-12-07)
    items = items[::2]
    measures = score(items, parser.extract_many([item.text for item in items])).measures
    print(f"\nparser on {split}: {json.dumps(measures.as_dict())}")
    assert measures.entities.f1 >= entity_f1
    assert measures.relationships.f1 >= relationship_f1


def test_without_the_parser_the_heuristic_runs_and_the_health_view_says_so(
    monkeypatch, anon_client, reader_client, db
):
    assert isinstance(get_extractor(), ParserExtractor)
    assert extractor_status()["active"] == "parser"
    monkeypatch.setattr(nlp, "_nlp", None)
    monkeypatch.setattr(nlp, "_error", "OSError: [E050] Can't find model")
    assert isinstance(get_extractor(), HeuristicExtractor)
    status = extractor_status()
    assert status["configured"] == "parser" and status["active"] == "heuristic"
    assert "Can't find model" in status["fallback_reason"]
    body = anon_client.get("/api/v1/health").json()
    assert body["extraction"]["active"] == "heuristic"
    panel = reader_client.get("/health-panel").content.decode()
    assert "heuristic (fallback: the parser cannot load" in panel


def test_every_turn_of_a_stored_session_has_its_speaker(parser):
    """A stored memory's text starts with its title; each line "Name (date): …" is a turn
    whose "I" and "my" are that speaker, and a field line is no speaker."""
    result = parser.extract(
        "Session 3 (3 June 2024)\n\n"
        "Priya (3 June 2024): I moved to Lisbon and I work at Acme Corp.\n"
        "Marco (3 June 2024): My wife Anna and I live in Rome.\n"
        "- Region: eu-west-1"
    )
    triples = _triples(result)
    assert {
        ("priya", "LIVES_IN", "lisbon"),
        ("priya", "WORKS_FOR", "acme corp"),
        ("marco", "MARRIED_TO", "anna"),
        ("marco", "LIVES_IN", "rome"),
    } <= triples
    assert ("region", "person") not in _entities(result)
    assert ("eu west 1", "location") in _entities(result)


def test_a_possessive_inside_a_name_and_a_titled_first_name_stay_whole(parser):
    """A saint's or a place's possessive with a place word after it is one name; a surname
    after a first name the model named alone is taken in; a hotel is a place."""
    found = dict(
        _entities(
            parser.extract(
                "Mum was at St. Mary's Hospital for a week. Apples come from Hawke's Bay "
                "Pickers. Certificates come from Let's Encrypt."
            )
        )
    )
    assert "st mary s hospital" in found and "hawke s bay picker" in found
    assert found["let s encrypt"] == "technology"
    assert not {"hawke", "let", "encrypt"} & set(found)
    result = parser.extract("Professor Adaeze Obi teaches at the University of Ibadan.")
    assert ("adaeze obi", "WORKS_FOR", "university of ibadan") in _triples(result)
    found = dict(_entities(parser.extract("We stayed at the Royal Marine Hotel in Dublin.")))
    assert found["royal marine hotel"] == "location"
    found = dict(_entities(parser.extract("Kiva's HQ is in San Francisco.")))
    assert "kiva" in found and "kiva s hq" not in found
    found = dict(
        _entities(parser.extract("Scanners are Zebra TC52 units; a John Deere 5075E tractor."))
    )
    assert "zebra tc52" in found and "john deere 5075e" in found
    found = dict(_entities(parser.extract("Anna runs Postgres 16 with a 5GB cache at 10am.")))
    assert not [name for name in found if name.endswith(("5gb", "10am"))]


def test_a_student_line_after_the_name_field_is_the_note_person_s(parser):
    triples = _triples(
        parser.extract(
            "She asked me to stop recommending Notion templates. Name: Paulina Wróbel. "
            "PhD student at Uniwersytet Jagielloński, second year."
        )
    )
    assert ("paulina wróbel", "STUDIES_AT", "uniwersytet jagielloński") in triples


def test_our_pet_in_a_text_its_writer_signs_is_the_writer_s(parser):
    triples = _triples(parser.extract("I'm Bongani. Our dog Shaka is old and sleeps a lot."))
    assert ("bongani", "OWNS", "shaka") in triples


def test_key_headings_under_a_named_heading_list_its_dependencies_and_owners(parser):
    """ "# `payments-gateway`" / "## Dependencies" / "- `fraud-scorer`" / "## Owners" /
    "Keoni Kahale, Ewa Nowak": the sections speak of the name above them."""
    triples = _triples(
        parser.extract(
            "# `payments-gateway`\n\nHandles card authorisation for the storefront.\n\n"
            "## Dependencies\n- `fraud-scorer` (over gRPC)\n- Redis 7 for idempotency keys\n\n"
            "## Owners\nKeoni Kahale, Ewa Nowak"
        )
    )
    assert {
        ("payments gateway", "DEPENDS_ON", "fraud scorer"),
        ("payments gateway", "DEPENDS_ON", "redis 7"),
        ("keoni kahale", "OWNS", "payments gateway"),
        ("ewa nowak", "OWNS", "payments gateway"),
    } <= triples


def test_two_capitalised_words_joined_by_an_ampersand_name_one_firm(parser):
    found = dict(
        _entities(parser.extract("I work remote for a Berlin agency called Pflaume & Pixel."))
    )
    assert found.get("pflaume pixel") == "organization" and "pixel" not in found
    found = dict(_entities(parser.extract("Valeria & Sebastián moved to Bilbao in May.")))
    assert "valeria" in found and "valeria sebastián" not in found
    found = dict(_entities(parser.extract("We run Docker & Kubernetes at Acme.")))
    assert {"docker", "kubernetes"} <= set(found)


def test_an_attendee_field_lists_who_goes_to_the_event_named_before_it(parser):
    triples = _triples(
        parser.extract(
            "Conference plan: KubeCon EU 2026, London.\nAttending: Amani, Hiroshi, Dagrun.\n"
            "Hiroshi's talk on ledgerd got accepted."
        )
    )
    assert {
        ("amani", "ATTENDED", "kubecon eu 2026"),
        ("dagrun", "ATTENDED", "kubecon eu 2026"),
    } <= triples
    triples = _triples(
        parser.extract(
            "Meeting notes — infra sync\nattendees: Gwen, Taro, Fola\n"
            "- next sync after the Lisbon offsite"
        )
    )
    assert not [t for t in triples if t[1] == "ATTENDED"]


def test_a_question_answered_by_a_name_in_the_next_turn(parser):
    """ "who built Slotfinder?" "that was Keiko": the answer's name fills the question's
    wh-word; a long answer or the asker answering themself gives nothing."""
    triples = _triples(  # and a chat's "she" is not the one who asks
        parser.extract(
            "Mira: ok random q but who actually built Slotfinder? it's weirdly good\n"
            "Tomasz: that was Keiko lol, she wrote the whole thing over one weekend\n"
            "Mira: legend is she still at Fernwood Labs?\n"
            "Tomasz: nah she left for Brightpath Health in January"
        )
    )
    assert ("keiko", "CREATED", "slotfinder") in triples
    assert ("keiko", "WORKS_FOR", "brightpath health") in triples
    assert ("mira", "WORKS_FOR", "brightpath health") not in triples
    triples = _triples(
        parser.extract(
            "Leilani: anyone know who owns the billing-worker repo?\n"
            "Hamza: that's Payments Core, Vikram's team"
        )
    )
    assert ("payments core", "OWNS", "billing worker") in triples
    triples = _triples(parser.extract("Ana: what do you use for notes?\nRui: Obsidian, mostly"))
    assert ("rui", "USES", "obsidian") in triples
    triples = _triples(
        parser.extract(
            "Ana: who built Slotfinder?\nAna: Keiko told me she loves it\n"
            "Rui: Priya Nair wrote a long post about how Keiko and Omar designed it together"
        )
    )
    assert not [
        t for t in triples if t[1] == "CREATED" and t[2] == "slotfinder" and t[0] == "priya nair"
    ]


def test_a_pronoun_before_the_name_a_note_gives_is_that_person(parser):
    """ "She's 68, lives in Le Panier ... Her name is Yamina Belkacem": the note names its
    person after the sentences about her."""
    triples = _triples(
        parser.extract(
            "She's 68, lives alone in a flat in Le Panier, the old quarter of Marseille, "
            "and has two cats named Zaza and Moustache. Her name is Yamina Belkacem."
        )
    )
    assert ("yamina belkacem", "LIVES_IN", "le panier") in triples
    assert ("yamina belkacem", "OWNS", "zaza") in triples
    triples = _triples(
        parser.extract("He moved to Lisbon in May. Sofia Reyes runs the Porto office.")
    )
    assert not [t for t in triples if t[1] == "LIVES_IN" and t[0] == "sofia reyes"]


@pytest.mark.parametrize(
    "text, product, pieces",
    [
        (
            "I bought a Garmin inReach Mini 2 for the trek.",
            "garmin inreach mini 2",
            ["garmin", "inreach"],
        ),
        (
            "She wears Sony WH-1000XM5 headphones on flights.",
            "sony wh 1000xm5",
            ["sony", "wh 1000xm5"],
        ),
        ("Still wearing the Casio F-91W my dad gave me.", "casio f 91w", ["casio", "f 91w"]),
        ("He wears a Medtronic 780G insulin pump.", "medtronic 780g", ["medtronic"]),
        ("We still run payroll on an IBM z15 mainframe.", "ibm z15", ["ibm"]),
        ("The laptop has an AMD Ryzen 7040 chip.", "amd ryzen 7040", ["amd ryzen"]),
        ("the inReach Mini 2 died on day three", "inreach mini 2", ["inreach", "mini 2"]),
    ],
)
def test_a_maker_and_its_model_code_are_one_product(parser, text, product, pieces):
    found = dict(_entities(parser.extract(text)))
    assert product in found and found[product] in {"technology", "other"}
    assert not set(pieces) & set(found)


@pytest.mark.parametrize(
    "text, kept",
    [
        ("Ticket OPS-1877 is open.", "ops 1877"),
        ("Mira runs it in AWS eu-central-1 today.", "eu central 1"),
        ("Meet in Room 4B with Priya.", "priya"),
        ("Kafka Connect S3 sink is lagging.", "s3"),
        ("Runtime Q2 targets are set.", None),
    ],
)
def test_a_ticket_a_region_a_room_or_a_period_is_no_model_code(parser, text, kept):
    found = dict(_entities(parser.extract(text)))
    assert not [
        n for n in found if n.endswith(("ops 1877", "central 1", "4b", "s3", "q2")) and n != kept
    ]
    assert kept is None or kept in found


def test_people_named_with_a_role_in_a_text_about_one_organization(parser):
    """The organization a heading or the first sentence is about is where its people with
    a role work: a founder created it, a head leads it; not someone else's relative."""
    triples = _triples(
        parser.extract(
            "The Rocky Mountain Raptor Trust, a nonprofit in Estes Park, rehabilitates "
            "injured birds of prey. Executive director Hannah Brightwater took over from "
            "founder Gene Calloway in 2019."
        )
    )
    assert ("hannah brightwater", "LEADS", "rocky mountain raptor trust") in triples
    assert ("gene calloway", "CREATED", "rocky mountain raptor trust") in triples
    triples = _triples(
        parser.extract(
            "Research plan, Okafor Lab (Imperial College):\nPostdoc Lina Haddad leads the "
            "analysis; grad student Tomasz Zielinski runs the wet lab."
        )
    )
    assert ("lina haddad", "PART_OF", "okafor lab") in triples
    triples = _triples(
        parser.extract(
            "Greenline Pharmacy opened a store in Nairobi. My partner Wanjiru shops there."
        )
    )
    assert not [t for t in triples if t[0] == "wanjiru" and t[2] == "greenline pharmacy"]
    triples = _triples(
        parser.extract("### Yara's laptop\n- Password manager: 1Password (replaced LastPass)")
    )
    assert ("1password", "REPLACES", "lastpass") in triples
    assert not [t for t in triples if t[1] == "REPORTS_TO"]
    # a password manager is a tool one uses, and a heading's "Yara's" is Yara
    assert ("yara", "USES", "1password") in triples


def test_names_no_dictionary_knows_and_company_domains(parser):
    """A subject that is no English word, a lower-case word a system noun names, a
    CamelCase word and a company named by its domain are names; fillers stay out."""
    found = dict(_entities(parser.extract("Linh collects vintage film cameras in Hanoi.")))
    assert found["linh"] == "person"
    result = parser.extract(
        "Liam maintains the open-source library fastjsonl. Noor wrote the forecasting "
        "engine, tide-model, in Rust. Tele+ is built on Twilio Video and integrates with "
        "OpenMRS."
    )
    found = dict(_entities(result))
    assert {"fastjsonl", "tide model", normalize_name("Tele+"), "openmr"} <= set(found)
    assert ("tele+", "INTEGRATES_WITH", "openmr") in _triples(result)
    found = dict(
        _entities(parser.extract("She works at Bol.com; the cert for api.shop.de expired."))
    )
    assert found["bol.com"] != "component" and found["api.shop.de"] == "component"
    assert not _entities(parser.extract("Thanks so much! Sounds good. Keep going. Wow."))
    assert nlp.english_word("collects") and not nlp.english_word("fastjsonl")


def test_what_one_used_to_do_and_a_role_in_a_table_state_no_relationship(parser):
    result = parser.extract("Ngozi used to live in Abuja but moved to Toronto in 2021.")
    assert _triples(result) == {("ngozi", "LIVES_IN", "toronto")}
    result = parser.extract(
        "| Name | Role | Reports to |\n|---|---|---|\n"
        "| Agus Pratama | Head nurse | Wulan Sari |\n"
        "| Rina Kusuma | Pharmacist at Kimia Farma | Agus Pratama |"
    )
    names = {normalize_name(e.name) for e in result.entities}
    assert "head nurse" not in names
    assert ("rina kusuma", "WORKS_FOR", "kimia farma") in _triples(result)
    assert ("agus pratama", "REPORTS_TO", "wulan sari") in _triples(result)


def test_a_title_and_a_department_before_a_name_are_not_the_name(parser):
    result = parser.extract("Carlos reports to VP Engineering Lucía Ferreyra.")
    assert ("lucía ferreyra", "person") in _entities(result)


def test_a_move_between_two_companies_replaces_neither(parser):
    triples = _triples(parser.extract("Sara moved from Deloitte to Accenture last year."))
    assert not any(type_ == "REPLACES" for _source, type_, _target in triples)


def test_a_venue_named_by_its_street_hotel_or_building_word_is_a_place(parser):
    result = parser.extract(
        "Grandpa's 90th is at Golden Dragon on Dundas St. The family stays at Hotel Kanra, "
        "and the band rehearses at the Coal Exchange Building.\nYara: dinner at Zuma still on?"
    )
    found = {normalize_name(e.name): e.type for e in result.entities}
    assert found.get("zuma") == "location"  # a place one goes out to
    assert found.get("dundas st") == "location"
    assert found.get("hotel kanra") == "location"
    assert found.get("coal exchange building") == "location"


def test_currency_codes_and_the_names_of_measures_are_never_entities(parser):
    result = parser.extract("Fares: adult return 6.40 GBP. ABV 14.5%, pH 3.62, 0.5 FTE tech.")
    names = {normalize_name(e.name) for e in result.entities}
    assert not names & {"gbp", "abv", "ph", "fte"}


def test_an_employer_before_a_role_a_place_before_a_kind_and_a_place_based_name(parser):
    triples = _triples(parser.extract("Yesterday Stripe's CEO Patrick Collison spoke."))
    assert ("patrick collison", "WORKS_FOR", "stripe") in triples
    triples = _triples(parser.extract("Google engineer Priya Nair gave the talk."))
    assert ("priya nair", "WORKS_FOR", "google") in triples
    triples = _triples(parser.extract("Hollis & Crane, a Chicago law firm, hired Osei."))
    assert ("hollis crane", "LOCATED_IN", "chicago") in triples
    result = parser.extract("Tallinn-based Veski Labs develops Kivi.")
    names = {normalize_name(e.name) for e in result.entities}
    assert "veski lab" in names and "tallinn" in names
    assert ("veski lab", "LOCATED_IN", "tallinn") in _triples(result)
    triples = _triples(parser.extract("Professor Kalinda Brooks of the University of Ulm spoke."))
    assert ("kalinda brook", "WORKS_FOR", "university of ulm") in triples


def test_an_upgrade_a_zone_and_a_switch_say_what_a_system_runs_where(parser):
    triples = _triples(parser.extract("cache-sessions-1 upgraded to Redis 7.2 by Li on Tue."))
    assert any(s == "cache sessions 1" and t == "USES" and "redis" in o for s, t, o in triples)
    triples = _triples(parser.extract("Bumped `search-indexer` to Elasticsearch 8.11 today."))
    assert any(s == "search indexer" and t == "USES" for s, t, o in triples)
    triples = _triples(parser.extract("db-replica-7 (us-west-2b) was pulled from the pool."))
    assert ("db replica 7", "LOCATED_IN", "us west 2b") in triples
    triples = _triples(parser.extract("The growth team switched from Mixpanel to Amplitude."))
    assert ("growth team", "STOPPED_USING", "mixpanel") in triples
    assert ("growth team", "MIGRATED_TO", "amplitude") in triples


def test_a_note_line_opening_with_its_verb_and_she_after_her_partner(parser):
    text = "Giulia lives in Bergamo and is training for UTMB. Wears a Garmin Fenix 7."
    triples = _triples(parser.extract(text))
    assert any(s == "giulia" and t == "USES" and "garmin" in o for s, t, o in triples)
    text = (
        "Rosalind Achebe lives in Accra with her partner Kojo. She lectures in economics"
        " at Ashesi University."
    )
    triples = _triples(parser.extract(text))
    assert ("rosalind achebe", "WORKS_FOR", "ashesi university") in triples
    assert ("kojo", "WORKS_FOR", "ashesi university") not in triples


def test_he_and_she_stand_for_the_person_of_their_sex(parser):
    # "her husband Ji-ho" says Ji-ho is a man; "Marleen" and "Joris" are given names of
    # one sex (Faker's lists), so the pronoun picks the one of its sex from a pair.
    triples = _triples(
        parser.extract(
            "Soo-jin and her husband Ji-ho just bought a house in Daejeon; they are moving "
            "from Seoul in August. He is a researcher at KAIST."
        )
    )
    assert ("ji ho", "WORKS_FOR", "kaist") in triples
    assert ("soo jin", "WORKS_FOR", "kaist") not in triples
    for pronoun, person in (("She", "marleen"), ("He", "joris")):
        triples = _triples(
            parser.extract(f"Marleen and Joris moved to Ghent. {pronoun} works at UGent.")
        )
        assert (person, "WORKS_FOR", "ugent") in triples
        assert len([t for t in triples if t[1] == "WORKS_FOR"]) == 1


def test_a_thing_swapped_for_another_is_replaced_by_it(parser):
    for text in (
        "Memcached was swapped for Redis 7 as the session store.",
        "We replaced Jenkins with GitHub Actions.",
        "Jenkins was replaced with GitHub Actions last year.",
    ):
        triples = _triples(parser.extract(text))
        assert any(t == "REPLACES" for _s, t, _o in triples), text
    assert ("redis 7", "REPLACES", "memcached") in _triples(
        parser.extract("Memcached was swapped for Redis 7 as the session store.")
    )
    triples = _triples(parser.extract("I switched to Postgres for the JSON support."))
    assert not any(t == "REPLACES" for _s, t, _o in triples)


@pytest.mark.parametrize(
    "text, person, place, studies",
    [
        (
            "Hamza: my sister Yasmin just started her PhD at ETH Zürich",
            "yasmin",
            "eth zürich",
            True,
        ),
        (
            "Zainab here — third-year medical student at Aga Khan University in Karachi.",
            "zainab",
            "aga khan university",
            True,
        ),
        (
            "He lives in Manchester with his partner Ifeoma; their daughter Adaeze is in Year 2 "
            "at Oakwood Primary.",
            "adaeze",
            "oakwood primary",
            True,
        ),
        (
            "Mateo volunteers at the Red Cross and studies nursing at the University of Bogotá.",
            "mateo",
            "university of bogotá",
            True,
        ),
        (
            "Elif Demir is a professor at Boğaziçi University.",
            "elif demir",
            "boğaziçi university",
            False,
        ),
        (
            "After a PhD in Oxford, Radu Ionescu joined DeepMind as a research scientist.",
            "radu ionescu",
            "deepmind",
            False,
        ),
    ],
)
def test_a_student_studies_at_a_school_and_a_professor_works_there(
    parser, text, person, place, studies
):
    triples = _triples(parser.extract(text))
    assert ((person, "STUDIES_AT", place) in triples) == studies
    if studies:
        assert (person, "WORKS_FOR", place) not in triples
    if person == "elif demir":
        assert (person, "WORKS_FOR", place) in triples


def test_a_player_or_a_club_member_is_part_of_it_and_a_coach_works_for_it(parser):
    members = {
        "Rahul plays left back for Mumbai City FC's reserve side.": ("rahul", "mumbai city fc"),
        "Chiamaka hated running until she joined the Lekki Striders in 2022.": (
            "chiamaka",
            "lekki strider",
        ),
        "Valentina swims at Club Atlético Peñarol three mornings a week.": (
            "valentina",
            "club atlético peñarol",
        ),
    }
    for text, (person, group) in members.items():
        triples = _triples(parser.extract(text))
        assert (person, "WORKS_FOR", group) not in triples, text
        assert (person, "PART_OF", group) in triples, text
    triples = _triples(
        parser.extract("Kaito Yamamoto now coaches at the Shibuya Fencing Club in Tokyo.")
    )
    assert ("kaito yamamoto", "PART_OF", "shibuya fencing club") not in triples


def test_an_email_header_or_a_task_line_is_no_speaker_but_a_dialogue_turn_is(parser):
    result = parser.extract(
        "From: Lena Fischer\nTo: Ops team\nSubject: db-replica-3 failover\n\n"
        "Hi all, db-replica-3 failed over at 02:10."
    )
    names = {normalize_name(e.name) for e in result.entities}
    assert not names & {"from", "to", "subject"}
    assert ("lena fischer", "person") in _entities(result)
    result = parser.extract("Task: migrate orders-api to Postgres 16\nCapacity: 3 engineers")
    assert not {normalize_name(e.name) for e in result.entities} & {"task", "capacity"}
    result = parser.extract("Obi: We spent the long weekend in Zanzibar with my cousin Adaeze.")
    assert ("obi", "person") in _entities(result)
    assert ("obi", "VISITED", "zanzibar") in _triples(result)


def test_a_name_stops_at_a_bracket_and_a_team_in_brackets_is_the_persons(parser):
    result = parser.extract(
        "fraud-scorer rolled back, filed OPS-3920, assigned to Wanjiru (ML Platform)."
    )
    assert all("(" not in e.name and ")" not in e.name for e in result.entities)
    assert ("wanjiru", "person") in _entities(result)
    assert ("ml platform", "organization") in _entities(result)
    assert ("wanjiru", "PART_OF", "ml platform") in _triples(result)
    result = parser.extract("Reviewer: Dalia Mansour (Design Ops)")
    assert ("dalia mansour", "PART_OF", "design ops") in _triples(result)
    result = parser.extract("Signed off by Raj Malhotra (CFO) and Nonna Rita (Bologna).")
    assert not any(e.type == "organization" for e in result.entities)


def test_a_month_beside_a_day_is_no_name_and_a_given_name_like_a_month_stays(parser):
    for text in (
        "nightly dump of crm-db to Backblaze B2 failing since 02 Mar — auth key expired.",
        "Aditi and Mwajuma fly to KubeCon Europe in Paris (19–22 Mar).",
        "Meeting on 14 Mar with Dana.",
    ):
        names = {normalize_name(e.name) for e in parser.extract(text).entities}
        assert "mar" not in names, text
    result = parser.extract("Jan Kowalski met May Chen and Jun Park in Ghent on 3 March.")
    assert {("jan kowalski", "person"), ("may chen", "person"), ("jun park", "person")} <= (
        _entities(result)
    )


def test_a_record_title_opens_with_its_verb_and_a_feast_is_an_event(parser):
    result = parser.extract("## ADR-014: Replace RabbitMQ with NATS\n**Status:** accepted")
    assert "replace" not in {normalize_name(e.name) for e in result.entities}
    assert ("nat", "REPLACES", "rabbitmq") in _triples(result)  # names compare singular
    assert ("adr 014", "REPLACES", "rabbitmq") not in _triples(result)
    result = parser.extract("I take my kids to the Oba Market every Christmas and for Diwali.")
    assert {("christmas", "event"), ("diwali", "event")} <= _entities(result)
    assert not any("christmas" in (s, o) for s, _t, o in _triples(result))


def test_black_friday_is_an_event_and_a_wire_format_or_a_pod_state_is_no_entity(parser):
    assert ("black friday", "event") in _entities(
        parser.extract("Deploy freeze for Black Friday starts Thu 18:00.")
    )
    result = parser.extract("orders-api talks to billing over TLS and exports CSV to S3.")
    names = {normalize_name(e.name) for e in result.entities}
    assert not names & {"tls", "csv"}
    assert not any({"tls", "csv"} & {s, o} for s, _t, o in _triples(result))
    assert ("orders api", "USES", "s3") in _triples(result)
    names = {normalize_name(e.name) for e in parser.extract("orders-api pods keep OOMing").entities}
    assert "ooming" not in names


def test_where_one_grew_up_or_was_born_is_not_where_one_lives(parser):
    # A childhood home read as LIVES_IN would make "lives in Seoul" contradict it.
    triples = _triples(parser.extract("Yuna: I work at Samsung in Seoul, but I grew up in Busan."))
    assert ("yuna", "LIVES_IN", "busan") not in triples
    triples = _triples(
        parser.extract("Nadia grew up in Tashkent and studied pharmacy at Leipzig University.")
    )
    assert ("nadia", "LIVES_IN", "tashkent") not in triples
    assert ("nadia", "STUDIES_AT", "leipzig university") in triples


def test_a_job_quit_is_no_employer_but_one_being_left_still_is(parser):
    triples = _triples(
        parser.extract("My brother Omar quit his engineering job at ADNOC last year to help Dad.")
    )
    assert ("omar", "WORKS_FOR", "adnoc") not in triples
    triples = _triples(parser.extract("Kaveh is leaving his job at Twelve Triangles in March."))
    assert ("kaveh", "WORKS_FOR", "twelve triangle") in triples
    triples = _triples(parser.extract("Lena works at Siemens and will not leave Siemens."))
    assert ("lena", "WORKS_FOR", "siemen") in triples


def test_a_name_with_no_given_name_that_is_sponsored_or_leads_a_round_is_a_company(parser):
    from graph.extraction.parser.typer import _person_shape
    from memoryhub import lexicon

    assert lexicon.is_surname("Nyström") and not lexicon.is_surname("holding")
    assert "pshape=FS|2" in _person_shape(["priya", "nair"], "person")
    assert "pshape=--|2" in _person_shape(["cappelen", "damm"], "person")
    assert "english=2|2" in _person_shape(["square", "peg"], "person")
    found = _entities(parser.extract("She won the marathon and is sponsored by Kaszek."))
    assert ("kaszek", "organization") in found
    found = _entities(
        parser.extract("We closed the round: $12M led by Blackbird, with Square Peg.")
    )
    assert {("blackbird", "organization"), ("square peg", "organization")} <= found


def test_a_name_whose_parts_a_small_word_joins_is_one_name(parser):
    found = _entities(
        parser.extract(
            "We hiked Torres del Paine, stayed in Praia do Rosa and flew home from Port of "
            "Spain. Ana da Silva studies at Universidade de Lisboa."
        )
    )
    assert {
        ("torres del paine", "location"),
        ("praia do rosa", "location"),
        ("port of spain", "location"),
        ("ana da silva", "person"),
        ("universidade de lisboa", "organization"),
    } <= found
    assert not {name for name, _ in found} & {"paine", "rosa", "spain", "lisboa"}
    found = _entities(parser.extract("The Festival do Chocolate de Ilhéus opens in July."))
    assert ("festival do chocolate de ilhéus", "event") in found
    # "of" joins only after a word that heads such names; a name already whole stays
    names = {n for n, _ in _entities(parser.extract("Lionel Messi of Inter Miami scored."))}
    assert {"lionel messi", "inter miami"} <= names
    found = _entities(parser.extract("Aunt Bisi picks them up at Gare du Nord."))
    assert ("gare du nord", "location") in found


def test_a_place_name_cut_at_its_hyphen_is_one_name_but_a_word_after_one_is_not(parser):
    found = _entities(
        parser.extract(
            "Le Comptoir Bleu opened in the Croix-Rousse district. We visited Tōdai-ji in "
            "Nara and had coffee in Samcheong-dong."
        )
    )
    assert {("croix rousse", "location"), ("tōdai ji", "location")} <= found
    assert "samcheong dong" in {name for name, _ in found}
    names = {n for n, _ in _entities(parser.extract("The Tehran-born architect moved to Oslo."))}
    assert "tehran" in names and "tehran born" not in names


def test_an_ambiguous_technology_opening_a_list_of_technologies_is_one(parser):
    names = {n for n, _ in _entities(parser.extract("Repo notes\n• Rust, tokio, axum\n• v2 soon"))}
    assert {"rust", "tokio", "axum"} <= names
    assert not _entities(parser.extract("Go ahead and ship it."))


def test_a_sentence_opening_word_no_dictionary_knows_or_that_a_noun_describes_is_a_name(parser):
    result = parser.extract("Northwind is a logistics firm in Oslo.")
    assert ("northwind", "organization") in _entities(result)
    assert ("northwind", "LOCATED_IN", "oslo") in _triples(result)
    result = parser.extract("Kelp, a Rust-based time-series database, is maintained by Priscila.")
    assert "kelp" in {name for name, _ in _entities(result)}
    assert ("kelp", "USES", "rust") in _triples(result)
    # an ordinary word opening a sentence stays a word
    assert not _entities(parser.extract("Dinner was great. Deploy went fine. Overall, good."))


def test_the_key_of_a_line_of_people_under_an_organisation_says_what_they_are_of_it(parser):
    triples = _triples(
        parser.extract(
            "# Kampala Queens Netball Club\n**Coach:** Harriet Nakato\n"
            "**Captain:** Sylvia Achieng\n**Players:** Amina Nabirye, Grace Akello"
        )
    )
    club = "kampala queens netball club"
    assert ("harriet nakato", "WORKS_FOR", club) in triples
    assert ("sylvia achieng", "LEADS", club) in triples
    assert {("amina nabirye", "PART_OF", club), ("grace akello", "PART_OF", club)} <= triples
    triples = _triples(
        parser.extract(
            "# Ndovu Community Clinic\n- **Medical director:** Dr. Achieng Odhiambo\n"
            "- **Founded:** 2019 by Wanjiru Kamau\n- **Final call:** Joy Atim"
        )
    )
    clinic = "ndovu community clinic"
    assert ("achieng odhiambo", "LEADS", clinic) in triples
    assert ("wanjiru kamau", "CREATED", clinic) in triples
    assert not {t for t in triples if t[0] == "joy atim"}
    # under a team's heading any key names members
    triples = _triples(parser.extract("### Mobile guild\n- iOS: Ben Carter, Lina Haddad"))
    assert ("ben carter", "PART_OF", "mobile guild") in triples


def test_an_organisation_named_the_way_other_languages_name_one_is_an_organisation(parser):
    from graph.extraction.cues import foreign_organization

    found = _entities(
        parser.extract(
            "Leyla paid with her Ziraat Bankası card. The Cooperativa Cabruca runs the stall "
            "and she rides with Hestamannafélagið Léttir. Equinor ASA signed the deal."
        )
    )
    assert {
        ("ziraat bankası", "organization"),
        ("cooperativa cabruca", "organization"),
        ("hestamannafélagið léttir", "organization"),
        ("equinor asa", "organization"),
    } <= found
    # a company form counts only in capitals, an opening word only before a name
    assert not foreign_organization(["sam", "as"], ["Sam", "as"])
    assert not foreign_organization(["banco"], ["Banco"])
    # foundations, wineries and technology firms of central Europe and Turkey
    assert foreign_organization(["szív", "alapítvány"], ["Szív", "Alapítvány"])
    assert foreign_organization(["vinařství", "sonberk"], ["Vinařství", "Sonberk"])
    assert foreign_organization(["yolcu", "teknoloji"], ["Yolcu", "Teknoloji"])


def test_a_company_named_again_by_its_first_word_is_one_company(parser):
    result = parser.extract(
        "The store was sold to the retail group Brandwijk Holding. Brandwijk, headquartered "
        "in Utrecht, also owns the homeware chain Lykke Hus."
    )
    names = {name for name, _ in _entities(result)}
    assert "brandwijk holding" in names and "brandwijk" not in names
    assert ("brandwijk holding", "LOCATED_IN", "utrecht") in _triples(result)


def test_the_institute_or_the_project_named_before_stands_for_its_name(parser):
    triples = _triples(
        parser.extract(
            "The Kyoto Institute of Applied Robotics opened a humanoid lab. Dr. Aiko Fujimura, "
            "a senior researcher at the institute, runs it."
        )
    )
    assert ("aiko fujimura", "WORKS_FOR", "kyoto institute of applied robotic") in triples
    triples = _triples(
        parser.extract("Kestrel Labs launched Project Wren in May. The project is led by Ama.")
    )
    assert ("ama", "LEADS", "project wren") in triples


def test_a_trade_word_or_a_municipality_ends_an_organisation_but_is_none_alone(parser):
    found = _entities(
        parser.extract(
            "Hira booked Lal Qila Caterers for the walima. Parking belongs to Københavns "
            "Kommune. Daiki works for Sony."
        )
    )
    assert {
        ("lal qila caterer", "organization"),
        ("københavns kommune", "organization"),
        ("daiki", "person"),
    } <= found
    names = {n for n, _ in _entities(parser.extract("### Services\n- `ledger-api` — Go"))}
    assert "service" not in names and "services" not in names


def test_a_boyfriend_or_girlfriend_is_related_as_a_spouse_a_partner_as_one_known(parser):
    triples = _triples(parser.extract("Elif and her girlfriend Derya adopted two kittens."))
    assert ("elif", "MARRIED_TO", "derya") in triples
    triples = _triples(
        parser.extract("Kaveh will open a bakery; his partner Fiona does the books.")
    )
    assert ("kaveh", "MARRIED_TO", "fiona") not in triples


@pytest.mark.parametrize(
    ("text", "people", "absent"),
    [
        ("Tell Tita Baby and Kuya Ronnie I said hi.", {"baby", "ronnie"}, {"tita baby"}),
        ("Lolo Ising is in Lourdes with Tía Carmen.", {"ising", "carmen"}, {"lolo ising"}),
        ("Sister Marites founded the kitchen; Fr Tomas helped.", {"marites", "tomas"}, set()),
        (
            "Mama Lorna: tell Jomar to call Tito Ben\nJomar: ok Ma",
            {"lorna", "jomar", "ben"},
            {"mama lorna"},
        ),
        ("Uncle Bob: who took my drill?\nSam: not me", {"bob", "sam"}, {"uncle bob"}),
        ("Ma don't forget, mass for Lolo Ising at Our Lady of Lourdes", {"ising"}, set()),
    ],
)
def test_a_kin_or_religious_title_in_any_language_is_left_off_the_name(
    parser, text, people, absent
):
    found = _entities(parser.extract(text))
    assert {(normalize_name(name), "person") for name in people} <= found
    assert not {name for name, _ in found} & {normalize_name(name) for name in absent}


@pytest.mark.parametrize(
    ("text", "triple"),
    [
        (
            "13:00 lunch with Tomás Aguirre from Etermax at Las Tinajas",
            ("tomás aguirre", "WORKS_FOR", "etermax"),
        ),
        (
            "Fri 16:00: coffee with Claudia from UNICEF Bolivia at Café Mirador",
            ("claudia", "WORKS_FOR", "unicef bolivia"),
        ),
        (
            "11:00 call with Mr. Ade from the Lagos State Ministry of Health about the permit",
            ("ade", "WORKS_FOR", "lagos state ministry of health"),
        ),
        # an e-mail's signature: a director leads the organization below the name
        (
            "With best wishes,\nHanus Olsen\nDirector, Nordlýsi Art Museum, Tórshavn",
            ("hanus olsen", "LEADS", "nordlýsi art museum"),
        ),
        (
            "Thanks,\nInês Baptista\nSenior Editor, Lighthouse Press",
            ("inês baptista", "WORKS_FOR", "lighthouse press"),
        ),
    ],
)
def test_a_person_and_the_organization_written_beside_them_whatever_the_parse(parser, text, triple):
    assert triple in _triples(parser.extract(text))


def test_who_runs_organises_or_founded_a_record_s_subject_by_its_field_key(parser):
    triples = _triples(
        parser.extract(
            "## KL Fighting Game Society\n**Organisers:** Farah Zulkifli, Dinesh Raj\n"
            "**Founded by:** Aiman Hakim"
        )
    )
    assert {
        ("farah zulkifli", "LEADS", "kl fighting game society"),
        ("dinesh raj", "LEADS", "kl fighting game society"),
        ("aiman hakim", "CREATED", "kl fighting game society"),
    } <= triples
    triples = _triples(parser.extract("# Librería El Faro\n**Run by:** Tomás Rojas"))
    assert ("tomás rojas", "LEADS", "librería el faro") in triples


def test_a_signature_s_city_is_no_employer(parser):
    triples = _triples(parser.extract("Cheers,\nAna Lima\nSenior Engineer, Lisbon"))
    assert not [t for t in triples if t[1] in {"WORKS_FOR", "LEADS"}]


def test_a_business_named_beside_someone_s_possessive_is_theirs(parser):
    triples = _triples(
        parser.extract("My sister Wanjiru's bakery, Mkate Bora, opened in Thika last year.")
    )
    assert ("wanjiru", "OWNS", "mkate bora") in triples
    triples = _triples(parser.extract("Auntie Akosua's chop bar, Akos Kitchen, sits on the road."))
    assert ("akosua", "OWNS", "akos kitchen") in triples


def test_a_word_opening_a_turn_in_another_language_is_no_name(parser):
    text = (
        "Jomar: Hi Ma! Andito na ako, the flight was fine.\n"
        "Rodrigo: Llevo el pebre, tía.\n"
        "Kwame: Kofi says the match starts at six."
    )
    names = {name for name, _ in _entities(parser.extract(text))}
    assert not names & {"andito", "llevo"}
    assert {"jomar", "rodrigo", "kwame", "kofi"} <= names


def test_what_one_calls_a_parent_or_a_friend_alone_is_no_name(parser):
    text = "Jomar: Hi Ma! the flight was fine.\nTrisha: Yes Ma, ok bro, he messaged on Viber."
    names = {name for name, _ in _entities(parser.extract(text))}
    assert not names & {"ma", "bro"}
    assert ("ma long", "person") in _entities(parser.extract("Ma Long won the final in Chengdu."))


def test_a_name_s_s_is_left_off_before_a_thing_owned_or_a_verb(parser):
    names = {n for n, _ in _entities(parser.extract("Rafiq: Kacchi Bhai for Nabila's bday?"))}
    assert "nabila" in names and not any("nabila s" in n for n in names)
    names = {n for n, _ in _entities(parser.extract("Dineo's putting the variation into CCMS."))}
    assert "dineo" in names
    names = {n for n, _ in _entities(parser.extract("We had lunch at Nando's in Leeds."))}
    assert normalize_name("Nando's") in names


def test_a_name_said_to_be_a_festival_is_an_event_and_the_festival_stands_for_it(parser):
    for text in (
        "Sónar is a festival in Barcelona. The festival was attended by Peggy Gou.",
        "Sónar is a festival in Barcelona. Peggy Gou attended the festival.",
    ):
        extraction = parser.extract(text)
        assert ("sónar", "event") in _entities(extraction)
        assert ("peggy gou", "ATTENDED", "sónar") in _triples(extraction)


def test_someone_who_moved_to_a_city_lives_there(parser):
    """A person's move to a place is a home, not a migration (which is to a technology):
    the writers since dev32 and the held-out texts label it so."""
    triples = _triples(parser.extract("Elena moved to Belgrade in 2021."))
    assert ("elena", "LIVES_IN", "belgrade") in triples
    assert ("elena", "MIGRATED_TO", "belgrade") not in triples
    triples = _triples(parser.extract("Elena lives in Belgrade."))
    assert ("elena", "MIGRATED_TO", "belgrade") not in triples  # living is no move


def test_a_compound_opening_a_sentence_is_no_part_of_the_name_after_it(parser):
    names = {n for n, _ in _entities(parser.extract("Long-time Arsenal fan, lives in Leeds."))}
    assert "arsenal" in names and not any("long" in n for n in names)
    names = {n for n, _ in _entities(parser.extract("Rolls-Royce makes engines in Derby."))}
    assert normalize_name("Rolls-Royce") in names


def test_a_known_technology_and_a_thing_of_it_is_the_technology(parser):
    names = _entities(parser.extract("The sync job failed because the Okta cert had rotated."))
    assert ("okta", "technology") in names and not any("cert" in n for n, _ in names)
    names = _entities(parser.extract("We use Google Cloud and Visual Studio Code."))
    assert {("google cloud", "technology"), ("visual studio code", "technology")} <= names


def test_a_chat_s_lower_case_handles_are_its_speakers_but_field_keys_are_not(parser):
    chat = (
        "rina: `rekam-medis-api` is 502ing for the Siloam pilot clinics\n"
        "agus.w: gateway or app?\n"
        "rina: app. the validator OOMs on big bundles\n"
        "yusuf: rolled back on `gke-jkt-prod`. i'll write the postmortem, PM-77\n"
    )
    people = {n for n, t in _entities(parser.extract(chat)) if t == "person"}
    assert {"rina", "agus.w", "yusuf"} <= people
    fields = "owner: Ana Lima\nregion: eu-west-1\nruntime: Go 1.22\n"
    names = {n for n, _ in _entities(parser.extract(fields))}
    assert not names & {"owner", "region", "runtime"}


def test_a_surname_alone_after_the_full_name_is_that_person(parser):
    triples = _triples(
        parser.extract(
            "Okonkwo & Hale was formed in 2011 when Chidinma Okonkwo and Peter Hale left "
            "Allen & Overy. Hale, who is married to the novelist Funmi Adeyemi, chairs the "
            "firm's pro bono committee."
        )
    )
    assert ("peter hale", "MARRIED_TO", "funmi adeyemi") in triples


def test_what_a_club_founded_by_someone_and_competing_in_a_league_is(parser):
    extraction = parser.extract(
        "FK Varzob is a football club from Dushanbe, founded in 1994 by the businessman "
        "Rustam Nazarov. It plays its home games at Tsentralny Stadium and competes in the "
        "Tajikistan Higher League."
    )
    triples = _triples(extraction)
    assert ("rustam nazarov", "CREATED", "fk varzob") in triples
    assert ("rustam nazarov", "CREATED", "dushanbe") not in triples
    assert ("fk varzob", "PART_OF", "tajikistan higher league") in triples
    assert "competes" not in {n for n, _ in _entities(extraction)}


def test_a_role_opening_a_line_of_a_note_about_one_person_is_theirs(parser):
    triples = _triples(
        parser.extract(
            "Fatima Al Mahmood, lives in Riffa, Bahrain\n"
            "Motor underwriter at Gulf Shield Takaful in Manama; reports to Yusuf Janahi"
        )
    )
    assert ("fatima al mahmood", "WORKS_FOR", "gulf shield takaful") in triples
    assert ("fatima al mahmood", "REPORTS_TO", "yusuf janahi") in triples


def test_and_or_in_inside_an_organisation_s_name_does_not_cut_it(parser):
    names = {n for n, _ in _entities(parser.extract("She volunteered with Partners in Health."))}
    assert "partners in health" in names
    text = "He studied at the Mehran University of Engineering and Technology in Jamshoro."
    names = {n for n, _ in _entities(parser.extract(text))}
    assert "mehran university of engineering and technology" in names
    names = {n for n, _ in _entities(parser.extract("We met at Boots in Leeds."))}
    assert {normalize_name("Boots"), normalize_name("Leeds")} <= names
    names = {n for n, _ in _entities(parser.extract("Nguyễn Văn Tâm leads the project."))}
    assert "nguyễn văn tâm" in names


def test_a_numbered_id_of_several_parts_in_capitals_is_a_document_or_an_incident(parser):
    result = parser.extract(
        "Switched mail to Amazon SES per runbook RB-MAIL-03, which Chiara wrote. Patched "
        "CVE-2024-3094 after SEC-INC-092; deployed to EU-WEST-1."
    )
    assert {
        ("rb mail 03", "document"),
        ("cve 2024 3094", "document"),
        ("sec inc 092", "event"),
        ("eu west 1", "location"),  # a region, whatever its case
    } <= _entities(result)


def test_a_code_name_for_a_group_of_people_is_an_organization(parser):
    result = parser.extract(
        "Ask dba-team about the migration; obs-guild runs the dashboards for ledger-writer."
    )
    assert {("dba team", "organization"), ("obs guild", "organization")} <= _entities(result)


def test_a_code_name_of_a_data_centre_or_a_zone_is_a_location(parser):
    result = parser.extract(
        "Failover from dc-ams-1 to fra-dc2 took 11m; az-b was drained first. The pager-svc "
        "host db-replica-3 stayed up."
    )
    found = _entities(result)
    assert {("dc ams 1", "location"), ("fra dc2", "location"), ("az b", "location")} <= found
    assert {("pager svc", "component"), ("db replica 3", "component")} <= found


def test_a_note_labelled_with_its_persons_name_gives_its_subjectless_sentences_a_subject(parser):
    result = parser.extract(
        "Fact sheet, Kalani: born and raised on Maui, now in Honolulu. Surfs before work. "
        "Works for Hawaiian Electric as a grid engineer."
    )
    assert ("kalani", "WORKS_FOR", "hawaiian electric") in _triples(result)


def test_a_profile_opening_on_its_person_after_a_heading_gives_its_bullets_a_subject(parser):
    result = parser.extract(
        "## About the user\n"
        "Wanjiru Kamau, freelance illustrator based in Nakuru.\n"
        "* Runs a small print shop, Kijani Press\n"
    )
    assert ("wanjiru kamau", "LEADS", "kijani press") in _triples(result)
    result = parser.extract(
        "Profile \u2014 Tomasz Wr\u00f3bel (Gda\u0144sk)\n"
        "Works for Allegro as a data engineer. Married to Agata."
    )
    triples = _triples(result)
    assert ("tomasz wr\u00f3bel", "WORKS_FOR", "allegro") in triples
    assert ("tomasz wr\u00f3bel", "MARRIED_TO", "agata") in triples


def test_honorifics_of_more_languages_stay_out_of_the_name(parser):
    found = _entities(
        parser.extract(
            "Imam Abdul-Rahman Yakubu opened the school. Ato Getachew chairs the board. "
            "She trains under Kru Somchai at a gym in Bangkok."
        )
    )
    names = {name for name, _type in found}
    assert {"abdul rahman yakubu", "getachew", "somchai"} <= names
    assert not names & {"imam abdul rahman yakubu", "ato getachew", "kru somchai"}


def test_an_event_followed_by_its_year_is_that_edition(parser):
    result = parser.extract(
        "I gave a talk at PyCon Lithuania 2024. She ran the Berlin Marathon 2023 in 3:30."
    )
    found = _entities(result)
    assert {("pycon lithuania 2024", "event"), ("berlin marathon 2023", "event")} <= found
    assert not any(name in {"pycon lithuania", "berlin marathon"} for name, _t in found)


def test_a_title_keeps_its_capitalised_article(parser):
    result = parser.extract("The Overstory is a novel by Richard Powers.")
    assert ("the overstory", "document") in _entities(result)


def test_states_and_provinces_of_every_country_are_places(parser):
    from memoryhub import lexicon

    assert lexicon.GEO_NAMES.kind("Tamil Nadu") == "region"
    assert lexicon.GEO_NAMES.kind("Makueni") == "region"
    assert lexicon.GEO_NAMES.kind("Western Cape") == ""  # words of direction and kind alone
    assert lexicon.GEO_NAMES.kind("Ghana") == "country"  # a country stays a country
    result = parser.extract(
        "Mama Mutheu Kioko farms three acres outside Wote, Makueni. "
        "Blocked: state-level data for Tamil Nadu."
    )
    assert ("tamil nadu", "location") in _entities(result)
    assert ("wote", "LOCATED_IN", "makueni") in _triples(result)


def test_a_name_ending_in_a_project_word_stays_whole(parser):
    found = _entities(
        parser.extract("She led the Malaria Atlas Initiative until 2019. Launch Project Marigold.")
    )
    assert ("malaria atlas initiative", "project") in found
    assert ("project marigold", "project") in found
    assert not {name for name, _ in found} & {"initiative"}


def test_two_people_joined_by_an_ampersand_and_a_name_beside_a_dash_are_apart(parser):
    names = {
        normalize_name(e.name)
        for e in parser.extract(
            "Violinists Aiko Nakamura & Rei Sato founded the Nakamura Quartet in 2001.\n"
            "- **Car:** 2019 Škoda Octavia — Jess drives it mostly\n"
            "Contractor: Bautista & Sons."
        ).entities
    }
    assert {
        "aiko nakamura",
        "rei sato",
        "škoda octavia",
        "jess",
        normalize_name("Bautista & Sons"),
    } <= names
    assert not any("&" in name and "sato" in name for name in names)


def test_the_name_under_a_letter_s_closing_is_its_writer(parser):
    text = "Hi Priscila,\n\nCan you check with Hugo?\n\nThanks,\nAnkit"
    assert ("ankit", "person") in _entities(parser.extract(text))
    text = "Dear all,\nthe release is out.\n\nBest,\nThe Platform Team"
    assert ("the platform team", "person") not in _entities(parser.extract(text))
    assert ("platform team", "person") not in _entities(parser.extract(text))


def test_a_name_in_bold_or_struck_out_on_a_field_line_is_kept(parser):
    text = (
        "## Tech stack\n\n- DB: **PostgreSQL** (hosted on Supabase)\n- ~~Firebase~~ dropped in v2"
    )
    names = {name for name, _ in _entities(parser.extract(text))}
    assert {"postgresql", "supabase", "firebase"} <= names


def test_an_arrow_without_spaces_parts_two_names(parser):
    names = {name for name, _ in _entities(parser.extract("The Salesforce→NetSuite sync broke."))}
    assert {"salesforce", "netsuite"} <= names


def test_a_name_after_not_in_a_list_is_not_what_the_verb_says(parser):
    triples = _triples(parser.extract("Marta likes Kotlin but not Java."))
    assert ("marta", "LIKES", "kotlin") in triples
    assert ("marta", "LIKES", "java") not in triples
    triples = _triples(parser.extract("Bruno prefers Portuguese, not Spanish."))
    assert ("bruno", "PREFERS", "spanish") not in triples


def test_a_verb_opening_a_sentence_after_a_full_stop_starts_a_sentence(parser):
    text = "Coach: Haile, from the club Laufgruppe Mitte. Logs runs on Strava."
    doc = nlp.parse(text)
    starts = [sentence[0].text.casefold() for sentence in doc.sents]
    assert "logs" in starts


def test_a_team_or_system_named_by_common_words_alone_and_related_to_nothing_is_no_entity(parser):
    text = "The ops team met on Tuesday; the feature store was slow again."
    names = {name for name, _ in _entities(parser.extract(text))}
    assert not names & {"ops team", "feature store"}
    triples = _triples(parser.extract("The billing service runs on PostgreSQL."))
    assert ("billing service", "USES", "postgresql") in triples


def test_a_spouse_read_by_the_rules_leaves_no_other_spouse_to_the_linker(parser):
    text = (
        "I'm Carla. My husband Joaquín and I got married in Valparaíso in 2015, and we now "
        "live in Santiago with our kids, Benjamín and Renata."
    )
    married = {t for t in _triples(parser.extract(text)) if t[1] == "MARRIED_TO"}
    assert married == {("carla", "MARRIED_TO", "joaquín")}


def test_his_in_a_turn_is_not_the_one_saying_it(parser):
    text = (
        "Isabela: is Caio still running Samba Nova?\n"
        "Thiago: yeah him and his wife Luana. they also own a bar in Pinheiros"
    )
    triples = _triples(parser.extract(text))
    assert ("thiago", "MARRIED_TO", "luana") not in triples
    assert ("caio", "MARRIED_TO", "luana") in triples


def test_an_arrow_an_emoji_or_w_slash_never_sits_inside_a_name(parser):
    for text, apart in (
        ("on-call handoff (Aroha → Mihail): queue depth is back to normal.", {"aroha", "mihail"}),
        ("Trip plan: fly Lisbon → Funchal on 12 May with TAP.", {"lisbon", "funchal"}),
        ("Festival weekend: Glastonbury 🎪 Fri–Sun, camping in Silver Hayes w/ Dan.", {"dan"}),
    ):
        names = {name for name, _ in _entities(parser.extract(text))}
        assert apart <= names
        assert not [n for n in names if "→" in n or "w/" in n or "🎪" in n]


def test_a_capitalised_word_the_tagger_took_for_an_article_can_close_a_name(parser):
    names = {n for n, _ in _entities(parser.extract("Day 4: fly to Da Nang, car to Hoi An"))}
    assert "hoi an" in names
    names = {n for n, _ in _entities(parser.extract("Standup with Data Eng on Monday."))}
    assert not [n for n in names if n.endswith("monday")]


def test_the_gazetteer_knows_common_ops_and_business_tools_and_their_english_words_are_words(
    parser,
):
    text = "Alertmanager pages us and the reports live in Power BI; invoices go to NetSuite."
    entities = _entities(parser.extract(text))
    assert {("alertmanager", "technology"), ("power bi", "technology")} <= entities
    names = {n for n, _ in _entities(parser.extract("I put the soup in the blender."))}
    assert "blender" not in names


def test_the_gazetteer_s_longer_list_knows_tools_of_other_trades(parser):
    extraction = parser.extract("Observed: mail-relay-2 (Postfix) queue at 40k.")
    assert ("postfix", "technology") in _entities(extraction)
    assert ("mail relay 2", "USES", "postfix") in _triples(extraction)
    names = _entities(parser.extract("Put a ticket in ServiceNow and pay him through M-Pesa."))
    assert {("servicenow", "technology"), ("m pesa", "technology")} <= names
    names = {n for n, _ in _entities(parser.extract("It was an epic ride in the rain."))}
    assert "epic" not in names  # a technology's name that is also a word, in lower case


def test_a_taste_for_a_word_the_tagger_does_not_know_is_still_a_thing(parser):
    triples = _triples(parser.extract("Noor isn't vegetarian, but she can't stand eggplant."))
    assert ("noor", "DISLIKES", "eggplant") in triples
    extraction = parser.extract("Olu went vegan in March. His favourite drink is zobo.")
    assert ("zobo", "other") in _entities(extraction)
    assert ("olu", "LIKES", "zobo") in _triples(extraction)
    names = {n for n, _ in _entities(parser.extract("I'm Ana. Her favourite colour is blue."))}
    assert "blue" not in names  # an adjective the tagger knows stays one


def test_the_pet_of_their_is_each_of_the_pair_s(parser):
    text = "Uncle Rakesh is married to Aunt Rekha; their parrot is called Mithu."
    triples = _triples(parser.extract(text))
    assert {("rakesh", "OWNS", "mithu"), ("rekha", "OWNS", "mithu")} <= triples
    text = "Sofía and Andrés move to Medellín on the 18th. Their dog, Canelo, rides along."
    triples = _triples(parser.extract(text))
    assert {("sofía", "OWNS", "canelo"), ("andré", "OWNS", "canelo")} <= triples  # normalised


def test_a_system_calling_or_reading_another_of_ours_depends_on_it(parser):
    triples = _triples(parser.extract("checkout-web calls order-svc for every basket."))
    assert ("checkout web", "DEPENDS_ON", "order svc") in triples
    triples = _triples(parser.extract("recon-job reads from ledger-svc every night."))
    assert ("recon job", "DEPENDS_ON", "ledger svc") in triples
    triples = _triples(parser.extract("The checkout-api calls the Stripe API for refunds."))
    assert not [t for t in triples if t[1] == "DEPENDS_ON"]


def test_a_field_line_s_key_is_no_name_and_its_joined_values_are_each_a_value(parser):
    text = (
        "## User profile: Sebastián Ortega\n"
        "- Role: data scientist at Mercado Libre (Buenos Aires office)\n"
        "- Stack: Polars and DuckDB; stopped using pandas last year"
    )
    extraction = parser.extract(text)
    assert "role" not in {n for n, _ in _entities(extraction)}
    triples = _triples(extraction)
    assert {
        ("sebastián ortega", "USES", "polar"),
        ("sebastián ortega", "USES", "duckdb"),
        ("sebastián ortega", "STOPPED_USING", "pandas"),
    } <= triples
    assert ("sebastián ortega", "USES", "pandas") not in triples  # a clause, not a value


def test_the_place_one_has_moved_from_is_not_where_one_lives(parser):
    text = "Hi, I'm Tuan. I moved from Hanoi to Melbourne for work and now do QA at Atlassian."
    triples = _triples(parser.extract(text))
    assert ("tuan", "LIVES_IN", "melbourne") in triples
    assert ("tuan", "LIVES_IN", "hanoi") not in triples


def test_a_taste_keeps_a_word_no_dictionary_knows_before_its_food_and_reads_allergies(parser):
    extraction = parser.extract("Kofi loves egusi soup, and his wife adores mapo tofu.")
    assert {("egusi soup", "other"), ("mapo tofu", "other")} <= _entities(extraction)
    assert ("kofi", "LIKES", "egusi soup") in _triples(extraction)
    assert ("shellfish", "other") in _entities(parser.extract("Dayo is allergic to shellfish."))


def test_a_place_s_adjective_and_a_product_s_tier_are_part_of_their_names(parser):
    extraction = parser.extract("We met at Great Ormond Street Hospital in 2019.")
    assert ("great ormond street hospital", "organization") in _entities(extraction)
    names = {n for n, _ in _entities(parser.extract("Ama won the Street Fighter 6 bracket."))}
    assert "street fighter 6" in names


def test_the_repo_or_this_host_stands_for_the_one_named_before(parser):
    text = (
        "Lena maintains the repo ledger-ui. The repo depends on React and on a cache called "
        "ui-cache-02."
    )
    triples = _triples(parser.extract(text))
    assert {("ledger ui", "DEPENDS_ON", "react"), ("ledger ui", "DEPENDS_ON", "ui cache 02")} <= (
        triples
    )
    text = "Disk alerts again on pg-replica-4 (eu-west-1). Tomás owns this host, so I paged him."
    assert ("tomá", "OWNS", "pg replica 4") in _triples(parser.extract(text))  # normalised


def test_hyphened_english_words_before_a_noun_after_a_say_what_kind_it_is(parser):
    text = "Mateo's team is building Project Colibrí, a driver-routing engine. It uses Kafka."
    extraction = parser.extract(text)
    assert not {n for n, _ in _entities(extraction) if "driver" in n}
    assert ("project colibrí", "USES", "kafka") in _triples(extraction)
    names = {n for n, _ in _entities(parser.extract("We deployed `billing-worker` to prod."))}
    assert "billing worker" in names  # written as code: a name


def test_a_person_before_a_verb_the_parser_left_without_subject_is_its_subject(parser):
    text = "My cousin Ade lives in Ibadan and my aunt Funke moved to Leeds in May."
    triples = _triples(parser.extract(text))
    assert {("ade", "LIVES_IN", "ibadan"), ("funke", "LIVES_IN", "leed")} <= triples
    assert ("ade", "MIGRATED_TO", "leed") not in triples


def test_a_technology_rolled_out_on_a_host_is_used_by_the_host(parser):
    triples = _triples(parser.extract("Rolled out Redis 7.2 on cache-node-3 last night."))
    assert ("cache node 3", "USES", "redis 7.2") in triples


def test_the_period_a_report_or_a_review_is_of_opens_its_name(parser):
    names = {n for n, _ in _entities(parser.extract("Lin will review the Q2 Attribution Report."))}
    assert "q2 attribution report" in names
    names = {n for n, _ in _entities(parser.extract("Tadhg signed the 2024 Annual Report."))}
    assert "2024 annual report" in names


def test_a_package_bumped_to_a_version_and_a_tool_keying_what_it_does_are_technologies(parser):
    found = _entities(parser.extract("chore: bump serde to 1.0.210"))
    assert ("serde", "technology") in found
    found = _entities(parser.extract("Upgraded pyarrow to 15.0.2 in the ingest job."))
    assert ("pyarrow", "technology") in found
    text = "## Integrations\n- Slack: alerts posted by pager-bridge\n- Drone: DJI Agras T40"
    names = {n for n, _ in _entities(parser.extract(text))}
    assert "slack" in names and "drone" not in names


def test_a_student_signing_with_their_university_studies_there(parser):
    text = (
        "Dear Dr. Mensah,\n\nThanks for the comments.\n\nBest,\nKwabena Owusu\nMSc student, KNUST"
    )
    triples = _triples(parser.extract(text))
    assert ("kwabena owusu", "STUDIES_AT", "knust") in triples
    assert ("kwabena owusu", "WORKS_FOR", "knust") not in triples


def test_a_surname_the_tagger_took_for_a_plural_noun_stays_in_the_name(parser):
    extraction = parser.extract("## Team Condor\n- Lead: Joaquim Pires\n- Members: Ana, Rui")
    assert ("joaquim pire", "person") in _entities(extraction)  # normalised, as any plural
    assert ("joaquim pire", "LEADS", "team condor") in _triples(extraction)


def test_its_role_holder_works_there_whatever_else_they_did(parser):
    """ "Its creative director, X, previously worked at Y": X is the studio's, as well as
    having been Y's; "its current director" leads it."""
    triples = _triples(
        parser.extract(
            "Mirelle Studios is a game developer best known for Ashen Tides, a naval strategy "
            "game. Its creative director, Paul Girard, previously worked at Behaviour Interactive."
        )
    )
    assert ("paul girard", "WORKS_FOR", "mirelle studios") in triples
    triples = _triples(
        parser.extract(
            "The Qoraqalpoq Textile Museum opened in Nukus in 2016. Its current director, "
            "Bakhyt Esemuratov, spent a decade at the Savitsky Museum."
        )
    )
    assert ("bakhyt esemuratov", "LEADS", "qoraqalpoq textile museum") in triples


def test_the_name_after_a_role_on_a_signature_line_is_whom_it_is_held_at(parser):
    triples = _triples(parser.extract("Best,\nRowland Ollerenshaw\nChair, Wivenhoe Players"))
    assert ("rowland ollerenshaw", "LEADS", "wivenhoe player") in triples
    triples = _triples(parser.extract("Hamish Reid\nTeam Leader, Strathfillan MRT"))
    assert ("hamish reid", "WORKS_FOR", "strathfillan mrt") in triples


def test_a_leader_leads_and_a_passive_first_sentence_names_the_topic(parser):
    triples = _triples(parser.extract("Maria is the leader of the Riverside Choir."))
    assert ("maria", "LEADS", "riverside choir") in triples
    text = (
        "Cairnmore Mountain Rescue Team was called out 212 times last year. Team leader "
        "Ewan MacLennan said most incidents involved poorly equipped day walkers."
    )
    assert ("ewan maclennan", "LEADS", "cairnmore mountain rescue team") in _triples(
        parser.extract(text)
    )


def test_a_journal_of_something_is_one_name(parser):
    names = {e.name for e in parser.extract("She edits the Journal of Alpine Hydrology.").entities}
    assert "Journal of Alpine Hydrology" in names


def test_a_signature_in_three_lines_names_whom_the_writer_works_for(parser):
    text = (
        "Hello Yusuf,\n\nBatch 3 is ready.\n\nKind regards,\nIngrid Solberg\n"
        "Senior Conservator\nKestrel Conservation Ltd"
    )
    result = parser.extract(text)
    assert ("ingrid solberg", "WORKS_FOR", "kestrel conservation ltd") in _triples(result)
    assert "Senior Conservator" not in {e.name for e in result.entities}
    text = (
        "Hi,\n\nWith best wishes,\nDr Priti Shah\nCurator of Textiles\nBradford Industrial Museum"
    )
    assert ("priti shah", "WORKS_FOR", "bradford industrial museum") in _triples(
        parser.extract(text)
    )


def test_bodies_joined_by_and_or_of_the_stay_one_name_and_titles_go(parser):
    def names(text):
        return {e.name for e in parser.extract(text).entities}

    assert "Victoria and Albert Museum" in names("She worked at the Victoria and Albert Museum.")
    assert "Lake District Search and Mountain Rescue Association" in names(
        "The team belongs to the Lake District Search and Mountain Rescue Association."
    )
    assert {"Lisbon", "Porto City Hall"} <= names("He works at Lisbon and Porto City Hall.")
    assert "Perth Festival of the Arts" in names(
        "The choir sings at the Perth Festival of the Arts."
    )
    assert "University of Edinburgh" in names(
        "I studied at the University of Edinburgh's Royal (Dick) School of Veterinary Studies."
    )
    assert "Alvarez" in names("3. Superintendent Alvarez updates the board on the Canvas rollout")


def test_a_name_alone_before_words_that_open_no_sentence_labels_the_note(parser):
    """ "Prod Kafka: 12 brokers" is about Prod Kafka; "Kowalczyk: will check" in a chat of
    one turn by a known given name ("Priya: the deploy is done") is still a turn."""
    from memoryhub.nlp import prepare

    _text, notes = prepare("Harbour Tug Co: two boats, both based in Leith.")
    assert notes["speakers"] == []
    _text, notes = prepare("Priya: the deploy is done, rolling back is not needed.")
    assert [name for _s, _e, name in notes["speakers"]] == ["Priya"]
    _text, notes = prepare("Tane Ruru: is the scope booked?\nBruno: no, Stellan has it")
    assert [name for _s, _e, name in notes["speakers"]] == ["Tane Ruru", "Bruno"]


def test_a_signature_s_last_line_is_its_organization_whole(parser):
    """The named-entity model cut "Alpine Lens Tours" at "Tours" and ran "VoltaGrid" into
    the role above it; the signature's last line alone is the organization."""
    triples = _triples(
        parser.extract(
            "Dear Tom,\n\nPlease bring a weatherproof camera bag.\n\nKind regards,\n"
            "Chiara Fontanive\nBookings Coordinator\nAlpine Lens Tours"
        )
    )
    assert ("chiara fontanive", "WORKS_FOR", "alpine lens tour") in triples  # normalised
    triples = _triples(
        parser.extract(
            "Hi Ama,\n\nThe report is attached.\n\nBest,\nKwabena Asante\n"
            "Head of Asset Management\nVoltaGrid"
        )
    )
    assert ("kwabena asante", "WORKS_FOR", "voltagrid") in triples


def test_a_name_cut_before_its_organization_word_is_one_organization(parser):
    found = _entities(
        parser.extract(
            "Founded on Svalbard, the Nordic Seed Vault Trust stores duplicate samples. "
            "Its director, Dr. Ingrid Solberg, reports to the ministry."
        )
    )
    assert ("nordic seed vault trust", "organization") in found
    assert not {name for name, _type in found} & {"vault trust", "nordic seed"}


def test_who_conducts_or_skippers_leads_and_a_founded_line_names_its_founders(parser):
    triples = _triples(
        parser.extract(
            "The Tallinn Chamber Orchestra is conducted by Kristjan Mägi. "
            "Rahel skippers the Island Belle for Tobermory Ferries."
        )
    )
    assert ("kristjan mägi", "LEADS", "tallinn chamber orchestra") in triples
    assert ("rahel", "LEADS", "island belle") in triples
    triples = _triples(
        parser.extract(
            "# Windhoek Trail Runners\n"
            "**Founded:** 2016 by Ndapewa Shikongo and Johan Visagie\n"
            "**Chair:** Selma Amupolo"
        )
    )
    assert ("ndapewa shikongo", "CREATED", "windhoek trail runner") in triples
    assert ("johan visagie", "CREATED", "windhoek trail runner") in triples
    # a founding year and place say when and where, not by whom
    triples = _triples(parser.extract("# Harbour Choir\n- Founded: 2016 in Windhoek"))
    assert not any(t[1] == "CREATED" for t in triples)


def test_a_key_value_sentence_inside_prose_belongs_to_the_note_s_subject(parser):
    """A note writes its fields inline: "... at Zalando. Main stack: ..." relates the values
    to the person the note is about, "Kickoff: X. Stack: ..." to the project its opening
    label names, as a "Stack:" line of its own would."""
    triples = _triples(
        parser.extract(
            "User Ilse Vermeulen: analytics engineer at Bol (previously Coolblue). "
            "Main stack: Dagster, BigQuery, Metabase. Reports to Joris Smit."
        )
    )
    for tool in ("dagster", "bigquery", "metabase"):
        assert ("ilse vermeulen", "USES", tool) in triples
    triples = _triples(
        parser.extract(
            "Kickoff: Project Sisal (crop-insurance app for growers near Arusha).\n"
            "PM: Neema Mollel. Stack: Flutter + Supabase. Payments via Selcom."
        )
    )
    assert ("project sisal", "USES", "flutter") in triples
    assert ("project sisal", "USES", "supabase") in triples
    # whose an owner is stays unsaid when nothing names the note's subject
    triples = _triples(
        parser.extract("The nightly export to the warehouse failed twice. Owner: Bruno Lage.")
    )
    assert not any(t[1] in {"OWNS", "LEADS"} for t in triples)


def test_a_signature_from_a_desk_names_the_organization_below_it(parser):
    """ "Customer Care" or "Sales" under the name is the desk one writes from; the line
    below is the organization, whole, even with an "&" in its name."""
    result = parser.extract(
        "Best regards,\nMiriam Oduya\nGuest Services\nMarlow & Finch Outfitters"
    )
    assert ("marlow finch outfitter", "organization") in _entities(result)
    assert ("miriam oduya", "WORKS_FOR", "marlow finch outfitter") in _triples(result)
    assert not any(name in {"service", "guest service"} for name, _type in _entities(result))


def test_a_name_with_a_plural_possessive_inside_is_one_organization(parser):
    found = _entities(
        parser.extract(
            "Wiremu chairs the Taranaki Growers' Association and his daughter attends "
            "Ngāmotu Girls' High School."
        )
    )
    assert ("taranaki growers association", "organization") in found
    assert ("ngāmotu girls high school", "organization") in found
    assert not {name for name, _type in found} & {"high school", "taranaki grower"}


def test_the_writer_who_names_themself_is_the_i_of_later_sentences(parser):
    """ "I'm Sefa and I ...", "Name's Ilse." name the writer; their later "I" is them, and
    having been somewhere is a visit."""
    triples = _triples(
        parser.extract(
            "About me: I'm Sefa and I coach netball in Apia. I live in Vaitele now. "
            "I've been to Fiji twice for tournaments."
        )
    )
    assert ("sefa", "LIVES_IN", "vaitele") in triples
    assert ("sefa", "VISITED", "fiji") in triples
    assert not any(t[1] == "MIGRATED_TO" for t in triples)
    triples = _triples(parser.extract("Name's Ilse. I live in Zwolle and work at Wehkamp."))
    assert ("ilse", "LIVES_IN", "zwolle") in triples
    # a nationality is nobody's name
    assert not _triples(parser.extract("I'm Dutch and I live in Zwolle."))


def test_a_note_s_we_is_its_organization_and_a_bracketed_role_is_of_its_subject(parser):
    """A list headed by an organization says "we" for it; "page X (owner)" under a
    runbook's heading names the owner of what the runbook is for."""
    triples = _triples(
        parser.extract(
            "Autumn jobs (Kereru Valley Farm):\n"
            "- drop the old AgriWebb login — we switched to Xero in May\n"
            "- prune the feijoas"
        )
    )
    assert ("kereru valley farm", "MIGRATED_TO", "xero") in triples
    triples = _triples(
        parser.extract(
            "# Runbook: restart `tile-renderer`\n1. Drain the node.\n"
            "2. If it still fails, page Sione Latu (owner)"
        )
    )
    assert ("sione latu", "OWNS", "tile renderer") in triples
    triples = _triples(
        parser.extract(
            "Junkanoo prep — Valley Boys\n"
            "• Dec 2: fabric run in Nassau\n"
            "• Dec 9: Rolle (our bandleader) signs off the costume designs"
        )
    )
    assert ("rolle", "LEADS", "valley boy") in triples


def test_a_lower_case_handle_in_a_chat_of_capitalised_turns_speaks(parser):
    """ "Priya: …" / "hamid: …" / "Priya: …" is a chat; so is "marta: …" / "Oyelaran: …" /
    "marta: …": every name opening its lines speaks, as in a chat of handles alone."""
    from memoryhub.nlp import prepare

    _text, notes = prepare("Priya: any news from the dig?\nhamid: trench C hit a wall\nPriya: ok")
    assert [name for _s, _e, name in notes["speakers"]] == ["Priya", "hamid", "Priya"]
    _text, notes = prepare("marta: rehearsal moved??\nOyelaran: ya, to Smetana Hall\nmarta: ugh")
    assert [name for _s, _e, name in notes["speakers"]] == ["marta", "Oyelaran", "marta"]
    # fields stay fields, whatever their case
    _text, notes = prepare("Owner: Ana\nregion: eu-west-1\nOwner: Ben")
    assert notes["speakers"] == []
    assert ("hamid", "person") in _entities(
        parser.extract("Priya: any news from the dig?\nhamid: trench C hit a wall\nPriya: ok")
    )


def test_a_place_named_with_hyphened_small_words_is_one_place(parser):
    entities = _entities(
        parser.extract("We stopped for tea in Newcastle-upon-Tyne, then Ross-on-Wye.")
    )
    assert {("newcastle upon tyne", "location"), ("ross on wye", "location")} <= entities
    entities = _entities(parser.extract("Our lab partner is Prof. Maria Ruiz-de-Castro."))
    assert ("maria ruiz de castro", "person") in entities
    # a hyphened phrase of a lower-case "to" is no name
    names = {name for name, _ in _entities(parser.extract("The Oracle-to-Postgres move ends."))}
    assert "oracle to postgre" not in names


def test_a_place_named_after_someone_s_possessive_is_one_place(parser):
    entities = _entities(parser.extract("On Sundays I cycle along St Katharine's Wharf to work."))
    assert ("st katharine s wharf", "location") in entities
    entities = _entities(parser.extract("The ferry leaves from Simon's Town at noon."))
    assert ("simon s town", "location") in entities


def test_a_signature_s_job_title_before_its_organization_is_no_entity(parser):
    result = parser.extract("Kind regards,\nLerato Dube\nSenior Hydrologist, Vaal Water Board")
    names = {name for name, _ in _entities(result)}
    assert "senior hydrologist" not in names
    assert ("lerato dube", "WORKS_FOR", "vaal water board") in _triples(result)


def test_a_surname_alone_and_a_pronoun_under_its_clause_are_that_person(parser):
    text = (
        "Sanne Hoogeveen became chief executive of Polderlicht Solar in 2020, succeeding "
        "co-founder Jan de Wit. Hoogeveen previously worked at Eneco, where she ran the wind "
        "group."
    )
    triples = _triples(parser.extract(text))
    assert {
        ("sanne hoogeveen", "WORKS_FOR", "eneco"),
        ("sanne hoogeveen", "LEADS", "wind group"),
    } <= triples
    assert not [t for t in triples if t[0] == "jan de wit"]


def test_a_role_word_with_a_hyphen_stays_out_of_a_name_with_particles(parser):
    names = {
        name for name, _ in _entities(parser.extract("She replaced co-founder Lotte van Dijk."))
    }
    assert "lotte van dijk" in names


def test_the_place_firm_stands_for_the_company_named_before(parser):
    text = (
        "Mirela Popescu runs Carpatix Robotics. The Cluj firm builds warehouse robots and is "
        "a member of the Transilvania IT Cluster."
    )
    triples = _triples(parser.extract(text))
    assert ("carpatix robotic", "PART_OF", "transilvania it cluster") in triples
    assert not [t for t in triples if t[0] == "cluj" and t[1] == "PART_OF"]


def test_our_role_in_a_signed_letter_is_held_at_the_signer_s_organization(parser):
    text = (
        "Dear Ms Achterberg,\n\nOur surveyor, Pavel Horvat, will inspect the roof on Monday, "
        "and our site supervisor Ines Duarte will bring the scaffold plan.\n\nKind regards,\n"
        "Marta Lindqvist\nProject Coordinator, Kestrel Roofing Ltd"
    )
    triples = _triples(parser.extract(text))
    assert {
        ("pavel horvat", "WORKS_FOR", "kestrel roofing ltd"),
        ("ines duarte", "WORKS_FOR", "kestrel roofing ltd"),
        ("marta lindqvist", "WORKS_FOR", "kestrel roofing ltd"),
    } <= triples
    assert not [t for t in triples if t[0] == "achterberg" and t[1] == "WORKS_FOR"]
    names = {
        name for name, _ in _entities(parser.extract("She worked at Bucharest's Hotel Athénée."))
    }
    assert "hotel athénée" in names


def test_a_couple_is_married_not_merely_acquainted(parser):
    text = "Lucía Ortega studied in Seville, where she met her husband, Tomasz."
    triples = _triples(parser.extract(text))
    assert ("lucía ortega", "MARRIED_TO", "tomasz") in triples
    assert ("lucía ortega", "KNOWS", "tomasz") not in triples


def test_co_founders_named_as_a_pair_created_the_company_the_text_is_about(parser):
    text = (
        "Ghanaian fintech startup PayKente has raised $3 million led by Volta Capital. "
        "Co-founders Ama Owusu and Kojo Asante said the money will go to hiring."
    )
    result = parser.extract(text)
    triples = _triples(result)
    assert {
        ("ama owusu", "CREATED", "paykente"),
        ("kojo asante", "CREATED", "paykente"),
    } <= triples
    assert "co" not in {name for name, _ in _entities(result)}


def test_the_people_at_a_meeting_of_a_named_body_work_for_it(parser):
    text = (
        "Quarterly review, Kaimai Timber Co-op\n"
        "Present: Hemi Walker, Anahera Smith\n"
        "- agreed to replace the kiln fans"
    )
    triples = _triples(parser.extract(text))
    assert {
        ("hemi walker", "WORKS_FOR", "kaimai timber co op"),
        ("anahera smith", "WORKS_FOR", "kaimai timber co op"),
    } <= triples
    # a named event's attendees attend it
    text = "Conference plan: PyCon Estonia 2026, Tallinn.\nAttendees: Liis Tamm, Jaan Kask"
    triples = _triples(parser.extract(text))
    assert ("liis tamm", "ATTENDED", "pycon estonia 2026") in triples
    assert not [t for t in triples if t[1] == "WORKS_FOR"]


def test_a_two_line_signature_names_whom_the_writer_works_for(parser):
    text = "Hi Jo,\n\nRing me with any questions.\n\nCheers,\nBronwen\nTreverrow Cider Co-operative"
    triples = _triples(parser.extract(text))
    assert ("bronwen", "WORKS_FOR", "treverrow cider co operative") in triples
    # a place or a phone's signature under the name is no one's employer
    for closing in ("Glasgow", "Sent from my iPhone"):
        triples = _triples(parser.extract(f"Hi Jo,\n\nSee you.\n\nBest,\nAnna\n{closing}"))
        assert not [t for t in triples if t[0] == "anna"]


def test_a_signature_s_organization_may_stand_where_a_role_would(parser):
    text = "Tank yu tumas,\nKalo Moli\nLapita Libraries, Port Vila"
    assert ("kalo moli", "WORKS_FOR", "lapita library") in _triples(parser.extract(text))
    # a desk of plain words before a place-like name is not the employer
    text = "Kind regards,\nDaniel Cohen\nHealth Informatics, Mount Sinai"
    assert ("daniel cohen", "WORKS_FOR", "mount sinai") in _triples(parser.extract(text))


def test_a_signature_s_organization_may_hold_a_technology_s_name(parser):
    text = (
        "Hi all,\n\nThe rig is ready.\n\nBest,\nErik Halvorsen\nHead of Stage Engineering\n"
        "Lyric Opera Northwest"
    )
    result = parser.extract(text)
    assert ("erik halvorsen", "WORKS_FOR", "lyric opera northwest") in _triples(result)
    assert ("lyric opera northwest", "organization") in _entities(result)


def test_a_known_city_the_tagger_took_for_a_noun_is_a_place(parser):
    text = "Regards,\nHélène Marchetti\nProgram Manager, Orbicule SAS, Toulouse"
    result = parser.extract(text)
    assert ("toulouse", "location") in _entities(result)
    assert ("orbicule sas", "LOCATED_IN", "toulouse") in _triples(result)


def test_the_name_a_letter_is_addressed_to_is_related_to_nothing(parser):
    text = (
        "Dear Sam,\n\nPlease confirm the slot.\n\nRegards,\nHélène Marchetti\n"
        "Program Manager, Orbicule SAS, Toulouse"
    )
    triples = _triples(parser.extract(text))
    assert not [t for t in triples if "sam" in (t[0], t[2])]


def test_an_event_named_for_a_role_keeps_its_first_word(parser):
    text = "Next steps after Vendor Day (Singapore), attended by Wei Ling Tan and Arif Hakim."
    result = parser.extract(text)
    assert ("vendor day", "event") in _entities(result)
    assert ("vendor day", "LOCATED_IN", "singapore") in _triples(result)


def test_a_writer_s_aside_in_brackets_is_not_the_name_s_doing(parser):
    text = "# Reading list\n- *Cloud Atlas* — David Mitchell (finished, loved it)"
    triples = _triples(parser.extract(text))
    assert ("david mitchell", "CREATED", normalize_name("Cloud Atlas")) in triples
    assert not [t for t in triples if t[1] == "LIKES"]
    # a bracket that says what the name does still does
    text = "March: Bartek (owns Nowak Budowa) rips out the old units"
    assert ("bartek", "OWNS", "nowak budowa") in _triples(parser.extract(text))


def test_a_date_the_model_took_for_a_title_is_no_entity(parser):
    names = {
        n for n, _ in _entities(parser.extract("The hearing is on 9 Nov at the Lagos High Court."))
    }
    assert "9 nov" not in names


def test_hosts_with_a_domain_and_a_copy_of_a_system_are_components(parser):
    result = parser.extract("host web-07.fra1 drained and replaced by web-11.fra1 tonight.")
    assert ("web 11.fra1", "REPLACES", "web 07.fra1") in _triples(result)
    result = parser.extract("orders-db (pg 12) replaced by orders-db-new (pg 16) via replication.")
    assert ("orders db new", "component") in _entities(result)


def test_a_supervisor_key_in_a_note_about_a_person_is_whom_they_report_to(parser):
    text = (
        "Noted 12 March: user (Marisol) switched from Notion to Obsidian. Thesis is on coral "
        "bleaching. Supervisor: Dr. Esteban Mora."
    )
    result = parser.extract(text)
    assert ("marisol", "REPORTS_TO", "esteban mora") in _triples(result)
    assert "supervisor" not in {n for n, _ in _entities(result)}


def test_a_person_s_name_the_parser_split_across_sentences_stays_whole(parser):
    result = parser.extract("Project manager Farid Mansour said the delay was short.")
    assert ("farid mansour", "person") in _entities(result)


def test_a_firm_named_after_its_kind_keeps_its_first_word(parser):
    text = "The law firm Baker Ríos, headquartered in Bogotá, has opened an office."
    assert ("baker ríos", "LOCATED_IN", "bogotá") in _triples(parser.extract(text))


def test_a_city_before_a_kind_of_group_is_where_the_group_is(parser):
    text = "Yuki Tanaka, bassist of the Osaka band Hoshizora, has left the group."
    result = parser.extract(text)
    assert ("osaka", "location") in _entities(result)
    assert ("hoshizora", "LOCATED_IN", "osaka") in _triples(result)


def test_english_words_hyphened_before_a_common_noun_name_nothing(parser):
    text = (
        "PagerDuty sent 312 pages, most from disk-usage checks; the fraud-detection model "
        "retrains nightly."
    )
    names = {n for n, _ in _entities(parser.extract(text))}
    assert not {"disk usage", "fraud detection"} & names
    # a system's word inside keeps the name ("payments-worker")
    names = {n for n, _ in _entities(parser.extract("The payments-worker pods restarted twice."))}
    assert "payments worker" in names


def test_chat_handles_with_underscores_speak(parser):
    text = (
        "kim_o: did u hear Bruno left Halvorsen Freight??\n"
        "saoirse.b: yeah he's at Tidewater Logistics now\n"
        "kim_o: wild, good for him\n"
    )
    entities = _entities(parser.extract(text))
    assert {
        (normalize_name("kim_o"), "person"),
        (normalize_name("saoirse.b"), "person"),
    } <= entities
    # config keys are no speakers
    entities = _entities(parser.extract("max_connections: 200\nshared_buffers: 4GB\n"))
    assert not [e for e in entities if e[1] == "person"]


def test_a_handle_signing_a_note_after_a_dash_is_its_writer(parser):
    for text, name in (
        ("crm-db-primary healthy; pgBackRest backups verified. -- Tariq", "tariq"),
        ("mailer-svc needs failover to Amazon SES. -- hideo", "hideo"),
    ):
        assert (name, "person") in _entities(parser.extract(text))
    assert not _entities(parser.extract("all good -- done"))


def test_a_facts_label_opening_a_note_is_no_speaker(parser):
    result = parser.extract("Facts: my name is Rashid Karimov. I live in Tashkent.")
    assert "fact" not in {n for n, _ in _entities(result)}
    assert ("rashid karimov", "LIVES_IN", "tashkent") in _triples(result)


def test_a_status_code_after_a_technology_is_no_release(parser):
    result = parser.extract("consumer mailer-svc stuck on SendGrid 429s; limit raised.")
    assert ("sendgrid", "technology") in _entities(result)


def test_a_handle_that_speaks_once_at_length_speaks_in_every_turn(parser):
    text = (
        "Femi: did u make it to PyCon Nigeria in Abuja??\n"
        "chidi_dev: yep, Ngozi and I went together\n"
        "Femi: ooh did she give her Django talk?\n"
        "chidi_dev: she did!!"
    )
    entities = _entities(parser.extract(text))
    assert (normalize_name("chidi_dev"), "person") in entities
    assert not [e for e in entities if e[1] == "component"]


def test_that_thing_liked_is_the_one_named_before_not_a_new_one(parser):
    text = "ooh did she give her Django talk? she's obsessed with that framework lol"
    assert "framework" not in {n for n, _ in _entities(parser.extract(text))}


def test_the_company_with_an_aside_still_stands_for_the_company_named_before(parser):
    text = (
        "Brasília-based fintech Ponte Pay replaced its KYC vendor last year. The company, "
        "part of the Grupo Âncora holding, runs its core services on Google Cloud."
    )
    triples = _triples(parser.extract(text))
    assert ("ponte pay", "USES", "google cloud") in triples
    assert ("ponte pay", "PART_OF", "grupo âncora") in triples


def test_the_end_of_a_hyphened_word_opens_no_name(parser):
    text = "Ponte Pay replaced its in-house KYC engine with Idwall last year."
    entities = _entities(parser.extract(text))
    assert not [e for e in entities if e[0].startswith("house")]


def test_a_writer_may_name_themself_in_three_words(parser):
    text = (
        "I'm Ana Lúcia Ferreira and I coach a roller derby team. I'm married to Beatriz and "
        "we live in Almada."
    )
    triples = _triples(parser.extract(text))
    assert ("ana lúcia ferreira", "MARRIED_TO", "beatriz") in triples
    text = "My name is Khalid Al Mansoori. My brother Rashid lives in Abu Dhabi."
    assert ("khalid al mansoori", "KNOWS", "rashid") in _triples(parser.extract(text))


def test_a_given_name_ending_like_a_verb_still_names_the_writer(parser):
    text = (
        "I'm Ahmed and I maintain tinyqueue-rs in my spare time. By day I'm a firmware engineer "
        "at Nordic Semiconductor. I met my wife Leyla at FOSDEM."
    )
    triples = _triples(parser.extract(text))
    assert ("ahmed", "WORKS_FOR", "nordic semiconductor") in triples
    assert ("ahmed", "MARRIED_TO", "leyla") in triples


def test_a_founder_s_signature_says_they_created_the_organization(parser):
    text = (
        "Hi Sam,\n\nThe demo is ready.\n\nAll the best,\nKarim Benali\nCo-founder, Fennec Mobility"
    )
    triples = _triples(parser.extract(text))
    assert ("karim benali", "CREATED", "fennec mobility") in triples
    assert ("karim benali", "WORKS_FOR", "fennec mobility") not in triples


def test_a_note_s_passive_without_was_names_its_agent(parser):
    result = parser.extract(
        "Weekly capacity: es-logs at 72% heap. Report CAP-W17 reviewed by Tobias Brandt."
    )
    assert ("tobias brandt", "REVIEWED", "cap w17") in _triples(result)
    assert ("cap w17", "document") in _entities(result)  # a report's code names a document


def test_an_organisation_named_after_its_kind_word_is_one(parser):
    text = "Nairobi-based esports organisation Savannah Storm has signed Gabriel Nogueira."
    result = parser.extract(text)
    assert ("savannah storm", "organization") in _entities(result)
    assert ("savannah storm", "LOCATED_IN", "nairobi") in _triples(result)
    # a lab may be a dog
    assert ("pudding", "other") in _entities(parser.extract("Sorry, our lab Pudding ate a sock."))


def test_a_wish_between_two_things_is_a_preference_not_a_replacement(parser):
    text = (
        "Sunita leads Android at Halcyon Health. "
        "She wants all code examples in Kotlin rather than Java."
    )
    triples = _triples(parser.extract(text))
    assert ("sunita", "PREFERS", "kotlin") in triples
    assert ("kotlin", "REPLACES", "java") not in triples
    # a system's switch is still a replacement
    text = "patient-portal now uses Keycloak for login instead of the home-grown auth-svc."
    result = parser.extract(text)
    assert ("keycloak", "REPLACES", "auth svc") in _triples(result)
    assert not [e for e in _entities(result) if e[0] == "home grown"]  # what it is like


def test_a_degree_done_at_a_school_is_study_there(parser):
    text = "I'm Anjali. I work as a pharmacist in Pune and I'm doing a part-time MBA at Symbiosis."
    assert ("anjali", "STUDIES_AT", "symbiosis") in _triples(parser.extract(text))


def test_two_given_names_that_each_say_a_sentence_are_a_chat(parser):
    text = (
        "moe_dev: quick q, does billing-worker still read from payments-q?\n"
        "svetlana: yep, and it writes to ledger-db. dont touch it before thurs"
    )
    entities = _entities(parser.extract(text))
    assert ("svetlana", "person") in entities and ("moe dev", "person") in entities
    # fields of a note, however long, are no speakers
    text = "owner: thabo nkosi\nregion: eu-west-1\nnotes: we should fix the build before friday"
    assert not [e for e in _entities(parser.extract(text)) if e[0] in {"owner", "notes"}]


def test_a_name_cut_at_its_particles_is_one_person(parser):
    text = "Regards,\nPieter van der Merwe\nHead of Partnerships, Savanna Analytics"
    result = parser.extract(text)
    assert ("pieter van der merwe", "person") in _entities(result)
    assert ("pieter van der merwe", "WORKS_FOR", "savanna analytics") in _triples(result)


def test_one_ending_a_product_s_name_is_part_of_it(parser):
    entities = _entities(parser.extract("He uses SAP Business One daily. One day he'll switch."))
    assert ("sap business one", "technology") in entities
    assert not [e for e in entities if e[0] == "one day"]


def test_a_note_s_clauses_of_taste_without_a_subject_are_its_person_s(parser):
    text = (
        "User (Ji-ho Park) is a product designer at Lumio Health. Works closely with engineer "
        "Sven Eriksson. Dislikes Jira, prefers Linear."
    )
    triples = _triples(parser.extract(text))
    assert ("ji ho park", "DISLIKES", "jira") in triples
    assert ("ji ho park", "PREFERS", "linear") in triples
    text = "User (Nino Beridze) lives in Tbilisi. Prefers Neovim, can't stand Visual Studio."
    assert ("nino beridze", "DISLIKES", "visual studio") in _triples(parser.extract(text))


def test_a_favourite_key_is_a_liking_and_a_least_favourite_one_a_dislike(parser):
    text = "# Profile\nname: Valentina Greco\nfavourite app: Strava\nleast favourite food: olives"
    triples = _triples(parser.extract(text))
    assert ("valentina greco", "LIKES", "strava") in triples
    assert ("valentina greco", "DISLIKES", "olive") in triples


def test_a_technology_s_user_uses_it_and_one_retired_to_a_place_lives_there(parser):
    text = "I'm Leilani Kahale, a software engineer in Honolulu. I'm a die-hard Emacs user."
    assert ("leilani kahale", "USES", "emac") in _triples(parser.extract(text))
    text = "My mentor, Sergei Volkov, has since retired to Tbilisi."
    assert ("sergei volkov", "LIVES_IN", "tbilisi") in _triples(parser.extract(text))


def test_a_surname_alone_is_the_one_full_name_before_it(parser):
    text = (
        "Nurse practitioner Grace Whitfield runs the Goldfields Family Clinic. Patients love "
        "the new booking app, Whitfield says. She is married to mining engineer Tom Whitfield."
    )
    triples = _triples(parser.extract(text))
    assert ("grace whitfield", "MARRIED_TO", "tom whitfield") in triples
    assert not [t for t in triples if "whitfield" in (t[0], t[2])]


def test_a_note_s_subjectless_stop_is_its_person_s(parser):
    text = "User (Tobi Adeyemi) codes in TypeScript. Stopped using Prettier last month."
    assert ("tobi adeyemi", "STOPPED_USING", "prettier") in _triples(parser.extract(text))


def test_a_place_visited_for_a_congress_is_a_visit_and_the_congress_attended(parser):
    result = parser.extract("Bashir visited Cairo last month for the Nile Med Congress.")
    assert ("nile med congress", "event") in _entities(result)
    assert ("bashir", "ATTENDED", "nile med congress") in _triples(result)
    assert ("bashir", "VISITED", "cairo") in _triples(result)


def test_one_flown_into_a_place_visited_it_and_a_name_with_me_is_a_person(parser):
    assert ("jess", "VISITED", "el calafate") in _triples(
        parser.extract("Jess and I flew into El Calafate.")
    )
    text = "# Trip recap: Patagonia\n- Jess and I flew into El Calafate"
    assert ("jess", "person") in _entities(parser.extract(text))


def test_refusing_to_use_a_thing_is_disliking_it(parser):
    text = "Lakshmi Narayanan lives in Mylapore. She flatly refuses to use WhatsApp."
    triples = _triples(parser.extract(text))
    assert ("lakshmi narayanan", "DISLIKES", "whatsapp") in triples
    assert ("lakshmi narayanan", "USES", "whatsapp") not in triples


def test_things_tracked_or_collected_in_a_tool_use_it(parser):
    text = "User: Halvard Berntsen, agronomist. Tracks field trials in FieldMargin."
    assert ("halvard berntsen", "USES", "fieldmargin") in _triples(parser.extract(text))
    text = "Maria manages her references in Zotero."
    assert ("maria", "USES", "zotero") in _triples(parser.extract(text))


def test_moving_another_s_headquarters_is_no_move_of_home(parser):
    result = parser.extract(
        "Defne Yıldırım became chief executive in 2021 and moved the company's headquarters "
        "to Izmir."
    )
    assert not [
        r
        for r in result.relationships
        if r.type == "LIVES_IN" and r.target == "Izmir" and r.confidence >= 0.6
    ]
    assert ("omar", "LIVES_IN", "leed") in _triples(
        parser.extract("Omar moved his family to Leeds.")
    )


def test_a_record_s_code_opening_a_heading_is_the_section_s_subject(parser):
    text = (
        "## INC-77: checkout double-charge\n\n**Impact:** 140 customers\n**Owner:** Yerlan Abenov"
    )
    assert ("yerlan abenov", "OWNS", "inc 77") in _triples(parser.extract(text))


def test_a_bullet_s_verb_read_as_a_noun_is_the_section_s_system_s(parser):
    text = (
        "### Architecture: `ride-matcher`\n\n"
        "- Calls `geo-index` for drivers\n"
        "- Stores matches in Redis"
    )
    assert ("ride matcher", "USES", "redis") in _triples(parser.extract(text))


def test_food_not_eaten_is_disliked_and_a_drink_given_up_stopped(parser):
    triples = _triples(parser.extract("Chukwuemeka doesn't eat pork."))
    assert ("chukwuemeka", "DISLIKES", "pork") in triples
    triples = _triples(parser.extract("Keoni lives in Hilo and no longer drinks coffee."))
    assert ("keoni", "STOPPED_USING", "coffee") in triples


def test_a_line_naming_only_tools_under_any_key_says_what_the_section_uses(parser):
    text = (
        "## Otepoti Chess Club\n"
        "- **President:** Rangi Poutama\n"
        "- **Pairings:** Swiss Manager\n"
        "- **Booking system:** Cloudbeds — we dropped SiteMinder in May"
    )
    triples = _triples(parser.extract(text))
    assert ("otepoti chess club", "USES", "swiss manager") in triples
    assert ("otepoti chess club", "USES", "siteminder") not in triples  # a clause, no list
    text = (
        "# Onboarding: Grade 7 Science (Mr. Hakimi)\n\n## Tools\n- Gradebook: PowerSchool\n\n"
        "## Contacts\n- Department head: Ms. Rivera"
    )
    assert ("hakimi", "USES", "powerschool") in _triples(parser.extract(text))
    text = "Kickoff notes: Project Kinara (lake sensors).\n- Hardware: ESP32 + LoRaWAN"
    assert ("project kinara", "USES", "lorawan") in _triples(parser.extract(text))


def test_a_heading_over_a_group_s_members_lists_its_members(parser):
    text = (
        "## Marlow County School Board — members\n\n"
        "- Denise Okafor (chair)\n- Rev. Paul Whitcombe\n\n## Alumni\nFormer members:\n- Jo Hart"
    )
    triples = _triples(parser.extract(text))
    assert ("paul whitcombe", "PART_OF", "marlow county school board") in triples
    assert ("jo hart", "PART_OF", "marlow county school board") not in triples


def test_a_named_writer_s_field_sentence_is_theirs(parser):
    text = "Name's Takumi Sato. Studying game design in Tokyo. Main tools: Unity and Blender."
    triples = _triples(parser.extract(text))
    assert {("takumi sato", "USES", "unity"), ("takumi sato", "USES", "blender")} <= triples


def test_offices_kept_somewhere_place_the_organization_and_an_event_is_where_it_is_held(
    parser,
):
    triples = _triples(
        parser.extract("Her firm, Khalil Atelier, has offices in Alexandria and Dubai.")
    )
    assert ("khalil atelier", "LOCATED_IN", "alexandria") in triples
    assert ("khalil atelier", "LOCATED_IN", "dubai") in triples
    assert ("ana", "LOCATED_IN", "lisbon") not in _triples(
        parser.extract("Ana has a flat in Lisbon.")
    )
    text = (
        "Harbor & Pine will sponsor Halifax Jazz Night in June, and our contribution covers the "
        "main stage at the Marquee Ballroom, where the event is held."
    )
    assert ("halifax jazz night", "LOCATED_IN", "marquee ballroom") in _triples(
        parser.extract(text)
    )


def test_the_band_one_plays_a_part_in_is_a_group_one_belongs_to(parser):
    result = parser.extract("Kai plays bass in Salt Reef.")
    assert ("kai", "PART_OF", "salt reef") in _triples(result)
    assert ("Salt Reef", "organization") in {(e.name, e.type) for e in result.entities}


def test_people_under_an_organisation_s_staff_heading_work_there(parser):
    text = (
        "### Villa Mar Azul — staff contacts\n"
        "- **Owner:** Fernando Ribeiro\n"
        "- **Front desk:** Luana Costa, Igor Matos\n"
        "- **Kitchen:** chef Kiyoshi Nakamura"
    )
    triples = _triples(parser.extract(text))
    assert ("kiyoshi nakamura", "WORKS_FOR", "villa mar azul") in triples
    # the villa read as a place and Igor as a guess when the line was read: typed later
    assert ("igor matos", "WORKS_FOR", "villa mar azul") in triples
    assert ("fernando ribeiro", "OWNS", "villa mar azul") in triples


def test_a_bullet_s_verb_cut_off_as_a_sentence_of_its_own_is_the_system_s(parser):
    text = "### ride-matcher\n- Consumes trip requests from Kafka"
    assert ("ride matcher", "USES", "kafka") in _triples(parser.extract(text))


def test_a_letter_s_you_is_the_person_it_greets_and_a_welcome_says_they_join(parser):
    text = (
        "Hi Kenya,\n\nWelcome to Twiga Foods! You'll join the Growth team under Matías "
        "Herrera from 1 July. Your manager's deputy is Halima Said.\n\nBest,\nDeShawn"
    )
    result = parser.extract(text)
    triples = _triples(result)
    assert ("kenya", "person") in {(normalize_name(e.name), e.type) for e in result.entities}
    assert ("kenya", "WORKS_FOR", "twiga food") in triples
    assert ("kenya", "PART_OF", "growth team") in triples
    assert ("kenya", "REPORTS_TO", "matías herrera") in triples
    welcome = _triples(
        parser.extract(
            "Hi Olu,\n\nWelcome to the Data Platform team! Your manager will be "
            "Bettina Krause.\n\nBest,\nPeople Team"
        )
    )
    assert {
        ("olu", "PART_OF", "data platform team"),
        ("olu", "REPORTS_TO", "bettina krause"),
    } <= welcome
    # a guest is welcomed to a city, not hired by it; a chat's "you" is the other speaker's
    guest = _triples(
        parser.extract(
            "Dear Mr Alvarez,\n\nWelcome to Lisbon! Your room at Casa Azul is "
            "ready from 3pm.\n\nBest,\nRita"
        )
    )
    assert not {t for t in guest if t[1] in {"WORKS_FOR", "PART_OF"}}


def test_an_organisation_that_joins_another_is_part_of_it(parser):
    text = (
        "Thalassa Kelp sells seaweed to Nordic buyers. In 2023 it joined the Blue Harvest Alliance."
    )
    assert ("thalassa kelp", "PART_OF", "blue harvest alliance") in _triples(parser.extract(text))


def test_a_verb_done_together_is_read_as_the_verb(parser):
    """ "co-founded" had parsed as the verb "co" and two nouns: nobody founded anything."""
    text = (
        "Vikram Nair left Infosys in March 2023. He co-founded Tessellate, an observability "
        "start-up in Bengaluru, with his former manager, Deepa Raghavan."
    )
    triples = _triples(parser.extract(text))
    assert {
        ("vikram nair", "CREATED", "tessellate"),
        ("deepa raghavan", "CREATED", "tessellate"),
    } <= triples
    owned = _triples(parser.extract("Maria co-owns Crumb Bakery in Leith with her sister Lea."))
    assert ("maria", "OWNS", "crumb bakery") in owned
    # the parser reads the verb alone, the offsets kept; a role is no verb
    assert nlp.prepare("He co-founded it.")[0] == "He    founded it."
    assert nlp.prepare("with co-author Youssef Hamdi")[0] == "with co-author Youssef Hamdi"


def test_a_band_a_part_is_played_in_stays_a_band_after_the_typer(parser):
    result = parser.extract(
        "Context for next time: Maximilian plays bass in Rauschgold, who are recording an EP "
        "at Hansa Studios in Berlin."
    )
    assert ("maximilian", "PART_OF", "rauschgold") in _triples(result)
    assert ("rauschgold", "organization") in _entities(result)


def test_a_role_s_plural_and_a_judge_s_title_are_no_part_of_the_names(parser):
    result = parser.extract(
        "Members Birna Ólafsdóttir and Tomás Reyes met while studying at the Iceland "
        "University of the Arts. Thandiwe clerked for Justice Mpho Radebe."
    )
    names = {name for name, _type in _entities(result)}
    assert {"birna ólafsdóttir", "tomás reye", "mpho radebe"} <= names
    assert not {"members birna ólafsdóttir", "justice mpho radebe"} & names


def test_no_place_lies_in_a_smaller_one(parser):
    trip = _triples(parser.extract("Noted: Ece is now planning Georgia, starting in Tbilisi."))
    assert ("georgia", "LOCATED_IN", "tbilisi") not in trip
    tour = _triples(
        parser.extract("Baltic leg: 12 Jun Vilnius (Loftas), 14 Jun Riga, 16 Jun Tallinn.")
    )
    assert ("loftas", "LOCATED_IN", "vilnius") in tour
    assert ("vilnius", "LOCATED_IN", "loftas") not in tour


def test_a_title_in_single_quotes_is_one_work(parser):
    result = parser.extract(
        "Her 2021 paper 'Tonal Cues in Low-Resource ASR' was reviewed by Pieter Smit. "
        "Dalia has reviewed the writeup \u2018PM-88 Matchmaking Outage\u2019."
    )
    assert {
        ("pieter smit", "REVIEWED", "tonal cues in low resource asr"),
        ("dalia", "REVIEWED", "pm 88 matchmaking outage"),
    } <= _triples(result)
    # one quoted word is a nickname as often as a title; a quoted sentence is no title
    said = parser.extract("Mei calls him 'Dinny'. Tunde said 'we lost the mackerel quota'.")
    found = _entities(said)
    assert ("dinny", "document") not in found
    assert "we lost the mackerel quota" not in {name for name, _type in found}


def test_the_shop_stands_for_the_business_named_before(parser):
    text = (
        "Founded in Amman, Zaytoun Pantry ships olive oil across the Gulf. "
        "The shop moved from WooCommerce to Shopify last year."
    )
    assert ("zaytoun pantry", "MIGRATED_TO", "shopify") in _triples(parser.extract(text))


def test_a_capitalised_the_inside_a_sentence_is_part_of_the_name(parser):
    result = parser.extract(
        "Bilal plays bass in a ska band, The Loose Screws. Sunday: tea at The Pump Room, "
        "then the Pump Room gardens. Abandoned: The Silmarillion, which she found slow."
    )
    names = {name for name, _type in _entities(result)}
    assert {"the loose screw", "the pump room", "the silmarillion"} <= names
    assert not {"loose screw", "pump room", "silmarillion"} & names
    # a sentence's opening "The" is the sentence's, and so is a list item's
    opening = parser.extract("The Rijksmuseum reopened in April.\n- The Arch in Bermondsey")
    names = {name for name, _type in _entities(opening)}
    assert {"rijksmuseum", "arch"} <= names
    assert not {"the rijksmuseum", "the arch"} & names


def test_a_chat_s_fillers_are_no_words_of_its_sentences(parser):
    result = parser.extract("Mo: i hate cilantro btw\nRaj: lol same, tbh i love kimchi")
    assert ("raj", "LIKES", "kimchi") in _triples(result)
    found = _entities(result)
    assert ("cilantro", "other") in found  # "btw" was the object, "cilantro" its modifier
    assert not {"btw", "lol", "tbh"} & {name for name, _type in found}


def test_a_system_named_by_the_word_before_its_noun_is_the_one_moved(parser):
    result = parser.extract("Oyelaran: we moved our Kestrel app to Fly.io last month")
    assert ("kestrel", "MIGRATED_TO", "fly.io") in _triples(result)


def test_a_chat_question_without_a_subject_is_asked_of_the_one_who_answers_yes(parser):
    text = (
        "Bongani: rain finally hit the north paddock\n"
        "Elise Marchand: same here in Limousin, the ewes are thrilled\n"
        "Bongani: haha. still using that Garmin collar for ur dog?\n"
        "Elise Marchand: yep Biscuit wont leave the house without it"
    )
    triples = _triples(parser.extract(text))
    assert ("elise marchand", "USES", "garmin") in triples
    assert ("bongani", "USES", "garmin") not in triples


def test_a_thing_a_chat_speaker_calls_good_or_bad_is_liked_or_disliked(parser):
    liked = _triples(parser.extract("Zeynep: bro the new Zelda is SO good\nAli: ikr"))
    assert ("zeynep", "LIKES", "zelda") in liked
    # what another is said to think, or a thing said not to be good, is no taste of theirs
    said = _triples(parser.extract("Zeynep: Ali says the new Zelda is great\nAli: it is"))
    assert ("zeynep", "LIKES", "zelda") not in said
    denied = _triples(parser.extract("Zeynep: the new Zelda isn't great tbh\nAli: agreed"))
    assert ("zeynep", "LIKES", "zelda") not in denied


def test_a_move_from_one_name_to_another_is_two_names(parser):
    result = parser.extract("Ilse recently moved from Utrecht to Ghent with her greyhound.")
    assert {("utrecht", "location"), ("ghent", "location")} <= _entities(result)
    assert ("ilse", "LIVES_IN", "ghent") in _triples(result)
    result = parser.extract("Last spring we moved the shop's stock from Vend to Lightspeed Retail.")
    assert not any(" to " in name for name, _type in _entities(result))


def test_a_taste_keeps_the_adjective_that_says_what_kind_of_thing_is_liked(parser):
    result = parser.extract("Marisol prefers metric units.")
    assert ("marisol", "PREFERS", "metric unit") in _triples(result)
    # how much or how good is no part of the thing
    names = {n for n, _type in _entities(parser.extract("Ravi loves good coffee."))}
    assert "coffee" in names and "good coffee" not in names


def test_an_opening_word_before_based_or_a_release_number_and_a_list_of_people(parser):
    result = parser.extract("Tallinn-based logistics firm Rattaveer Group raised €14 million.")
    assert ("rattaveer group", "LOCATED_IN", "tallinn") in _triples(result)
    result = parser.extract("User is Fatima, a London-based backend developer at Monzo.")
    assert ("fatima", "LIVES_IN", "london") in _triples(result)
    result = parser.extract("Tesseract 5.3.0 segfaulting on tiled TIFFs. Release 5.2.0 is out.")
    assert ("tesseract", "technology") in _entities(result)
    assert not any(name.startswith("release") for name, _type in _entities(result))
    text = (
        "Sprint 18 plan (tern-cc compiler)\n"
        "- Kiri: finish riscv-backend\n"
        "- Ewa: port the parser off ANTLR\n"
        "- Sunita: go through RFC-031\n"
        "- Status: green"
    )
    entities = _entities(parser.extract(text))
    assert {("kiri", "person"), ("ewa", "person"), ("sunita", "person")} <= entities
    assert not any(name == "status" for name, _type in entities)


def test_a_hyphenated_name_of_three_parts_with_a_code_is_a_component_in_any_text(parser):
    result = parser.extract("Backups of the game servers land in gs-backups-eu.")
    assert ("gs backups eu", "component") in _entities(result)
    result = parser.extract("Tariq drains gpu-pool-a before lunch.")
    assert ("gpu pool a", "component") in _entities(result)
    # hyphenated English is no name, however many parts
    result = parser.extract("My father-in-law plays five-a-side with an editor-in-chief.")
    assert not any("-" in e.name for e in result.entities)


def test_a_list_of_names_after_a_colon_keeps_its_first_item(parser):
    result = parser.extract("Agenda draft\nSponsors confirmed: Safaricom, One Acre Fund")
    assert "safaricom" in {n for n, _type in _entities(result)}


def test_a_restaurant_named_after_someone_is_one_name(parser):
    result = parser.extract("Grandma's birthday dinner is at Rosa's Trattoria on Saturday.")
    names = {n for n, _type in _entities(result)}
    assert "rosa s trattoria" in names or "rosa's trattoria" in names
    assert "rosa" not in names


def test_the_facility_stands_for_the_firm_that_opened_it(parser):
    text = (
        "Shipping firm Meridian Bulk has opened a distribution hub in Tema. "
        "The facility runs on SAP S/4HANA."
    )
    assert ("meridian bulk", "USES", "sap s 4hana") in _triples(parser.extract(text))


def test_the_months_and_labels_opening_a_plans_lines_are_no_people(parser):
    text = (
        "Project Tern — Q3 plan\nLead: Sofía Alvarez.\nJul: map aisles at the Zaragoza site.\n"
        "Aug: hook the robots into SAP EWM.\nSep: go/no-go with Henrik Dahl."
    )
    people = {n for n, t in _entities(parser.extract(text)) if t == "person"}
    assert people == {"sofía alvarez", "henrik dahl"}
    text = (
        "Runbook: TLS cert rotation\n1. Reload HAProxy on edge-pay-1.\n"
        "Escalation: Ikaika Kahananui\nHostname: nbo-fs-01\nReplaces: nbo-nas-old"
    )
    people = {n for n, t in _entities(parser.extract(text)) if t == "person"}
    assert people == {"ikaika kahananui"}


def test_a_chat_handle_in_mixed_case_and_a_given_name_that_is_a_word_speak(parser):
    text = (
        "xXdaniXx: who's carrying ranked tonight\n"
        "nikolai_v: not me, Iron Wolves kicked me lmao\nxXdaniXx: for WHAT"
    )
    people = {n for n, t in _entities(parser.extract(text)) if t == "person"}
    assert {"xxdanixx", "nikolai v"} <= people
    text = (
        "ama_k: did u catch the Super Clash??\nyaw: bro i was THERE, my cousin Kofi got us tix\n"
        "ama_k: jealous, derby day is unreal"
    )
    assert ("yaw", "KNOWS", "kofi") in _triples(parser.extract(text))


def test_a_house_number_is_part_of_its_street(parser):
    result = parser.extract("We moved to 14 Birch Lane in Leeds. Flat at 22 Rua das Flores, Porto.")
    names = {n for n, _type in _entities(result)}
    assert "14 birch lane" in names
    assert any(name.startswith("22 rua das flor") for name in names)
    assert "3" not in " ".join(n for n, _t in _entities(parser.extract("3 nights in Marrakech.")))


def test_a_title_opening_a_list_item_before_by_and_its_author_is_a_work(parser):
    text = "Book club picks\nFeb: The Vegetarian by Han Kang; host Kenji\n- Photos by Ana Lima"
    result = parser.extract(text)
    assert ("han kang", "CREATED", "the vegetarian") in _triples(result)
    assert "photos" not in {n for n, _type in _entities(result)}


def test_a_handle_right_after_user_is_the_user(parser):
    result = parser.extract("Working notes: user mkhize is debugging geo-tiles on prod-ap-1.")
    assert ("mkhize", "person") in _entities(result)
    assert not any("user" in name for name, _type in _entities(result))
    result = parser.extract("User prefers dark mode and uses Vim.")
    assert not any(t == "person" for _name, t in _entities(result))


def test_words_after_user_or_client_that_are_no_handle_name_no_one(parser):
    for text in (
        "I read sections 1–4 and asked the user to upload the contract.",
        "ADR-012: use OpenTelemetry instead of the Jaeger client libs.",
        "TODO: auth-gw still pinned to the old client lib (ask Ji-ho).",
        "Support request from Verein Brückenbau (donor-management customer since 2021).",
    ):
        people = {n for n, t in _entities(parser.extract(text)) if t == "person"}
        assert not people & {"to", "libs", "lib", "since"}, text


def test_they_in_notes_about_a_named_user_is_the_user(parser):
    text = (
        "User is Dr. Olumide Bankole, a cardiologist at Lagos University Teaching Hospital. "
        "They research atrial fibrillation and keep study data in REDCap."
    )
    assert ("olumide bankole", "USES", "redcap") in _triples(parser.extract(text))
    text = "Carlos married Ana in 2019; they live in Seville."
    triples = _triples(parser.extract(text))
    assert {("carlos", "LIVES_IN", "seville"), ("ana", "LIVES_IN", "seville")} <= triples


def test_a_use_that_no_longer_holds_is_stopped(parser):
    triples = _triples(parser.extract("orders-api no longer reads from `legacy-erp-feed`."))
    assert ("orders api", "STOPPED_USING", "legacy erp feed") in triples
    assert not any(r == "DEPENDS_ON" for _s, r, _o in triples)


def test_two_roles_share_the_organization_said_after_the_second(parser):
    triples = _triples(
        parser.extract("Nadine Okafor is the founder and director of Spice Isle Youth Sail.")
    )
    assert ("nadine okafor", "CREATED", "spice isle youth sail") in triples
    assert ("nadine okafor", "LEADS", "spice isle youth sail") in triples


def test_a_name_opening_a_line_of_notes_before_its_colon_is_a_person(parser):
    result = parser.extract(
        "Selam: allergic to peanuts. Loves Ethiopian food, can't stand cold brew. Partner is Dawit."
    )
    assert ("selam", "person") in _entities(result)
    assert ("selam", "KNOWS", "dawit") in _triples(result)
    people = {n for n, t in _entities(parser.extract("Standup: moved to 10:30.")) if t == "person"}
    assert not people


def test_a_signature_s_role_line_may_part_its_organization_with_a_middle_dot(parser):
    text = "Thanks,\nMekdes Alemu\nSenior Data Engineer · Ethio Telecom"
    assert ("mekdes alemu", "WORKS_FOR", "ethio telecom") in _triples(parser.extract(text))


def test_a_full_name_saying_here_is_the_writer(parser):
    text = (
        "Brian Tumusiime here. I studied law at Makerere University and now run a small "
        "roastery called Kigezi Beans. My sister Grace keeps the books."
    )
    triples = _triples(parser.extract(text))
    assert ("brian tumusiime", "STUDIES_AT", "makerere university") in triples
    assert ("brian tumusiime", "KNOWS", "grace") in triples
    text = (
        "Ravi Shankar here — not the sitar guy. Product manager at Zoho in Chennai, reporting "
        "to Lakshmi Narayanan. My brother Vikram is at Freshworks."
    )
    triples = _triples(parser.extract(text))
    assert ("ravi shankar", "WORKS_FOR", "zoho") in triples
    assert ("ravi shankar", "REPORTS_TO", "lakshmi narayanan") in triples


def test_names_listed_after_a_plural_kin_word_are_people(parser):
    result = parser.extract("I visit my two nephews, Jasur and Bekzod, every weekend.")
    assert {("jasur", "person"), ("bekzod", "person")} <= _entities(result)


def test_a_word_of_respect_before_a_full_name_is_no_part_of_it(parser):
    result = parser.extract(
        "The roof was fixed thanks to Fundación Ixil, whose coordinator, Don Efraín "
        "Velásquez, visits every March."
    )
    assert ("efraín velásquez", "person") in _entities(result)
    assert not any(name.startswith("don") for name, _ in _entities(result))
    # before a given name alone it is how the person is called
    assert ("don aurelio", "person") in _entities(parser.extract("Don Aurelio sold us the goats."))


def test_a_verb_hung_on_the_object_of_the_one_before_keeps_its_subject(parser):
    text = (
        "Khalid Al-Harthy grew up in Muscat. He now manages customs clearance at Sohar Port "
        "for Oman Customs and lives in Sohar with his wife, Mariam."
    )
    assert ("khalid al harthy", "LIVES_IN", "sohar") in _triples(parser.extract(text))


def test_a_sentence_opening_on_its_verb_goes_on_with_the_person_before_it(parser):
    text = (
        "Hamdan: the new looms at Al Noor Textiles r insane\n"
        "Farida: who signed off on that\n"
        "Hamdan: Yusuf did, he runs the weaving floor now. reports straight to Sheikha "
        "Al-Mansouri"
    )
    triples = _triples(parser.extract(text))
    assert ("yusuf", "REPORTS_TO", "sheikha al mansouri") in triples
    assert ("hamdan", "REPORTS_TO", "sheikha al mansouri") not in triples
    # the speaker's own "I" before goes on as the speaker
    triples = _triples(parser.extract("Jonas: I quit Notion. switched to Obsidian last week"))
    assert ("jonas", "MIGRATED_TO", "obsidian") in triples


def test_no_longer_buying_a_make_is_stopping_it(parser):
    text = "Sri no longer buys AquaFlow pumps; after three failures she moved to Grundfos."
    assert ("sri", "STOPPED_USING", "aquaflow") in _triples(parser.extract(text))


def test_the_name_people_call_the_writer_is_the_writer(parser):
    text = "People call me Imran. My sister Shazia runs a mill. I'm a data analyst at Jazz."
    triples = _triples(parser.extract(text))
    assert ("imran", "KNOWS", "shazia") in triples
    assert ("imran", "WORKS_FOR", "jazz") in triples


def test_a_given_name_and_an_initial_joined_by_a_dot_or_an_underscore_is_a_person(parser):
    assert ("ayse.k", "person") in _entities(parser.extract("helm upgrade started by ayse.k"))
    assert ("tevita.f", "person") in _entities(parser.extract("service owner: tevita.f."))
    entities = _entities(parser.extract("Notes on gwen_h:\n- editor: Neovim"))
    assert ("gwen h", "person") in entities
    entities = _entities(parser.extract("see notes.md and config.py; orders_db is slow"))
    assert not any(t == "person" for _, t in entities)


def test_a_job_applied_for_is_no_employer(parser):
    triples = _triples(parser.extract("Amara applied for a nursing job at St Mary's Hospital."))
    assert not any(r == "WORKS_FOR" for _, r, _ in triples)
    text = "Caroline: The interview at Brightwater Analytics went great, I start on Monday."
    assert ("caroline", "WORKS_FOR", "brightwater analytics") in _triples(parser.extract(text))


def test_a_line_without_a_verb_that_says_fan_of_is_the_writer_s_liking(parser):
    triples = _triples(parser.extract("I'm Hyun-woo. Big fan of Feyenoord, not a fan of rain."))
    assert ("hyun woo", "LIKES", "feyenoord") in triples
    assert not any(s == "feyenoord" for s, _, _ in triples)
    triples = _triples(parser.extract("Mira: huge fan of Arsenal tbh\nJon: same"))
    assert ("mira", "LIKES", "arsenal") in triples


def test_not_a_fan_and_hooked_on(parser):
    text = (
        "I'm Hyun-woo. I'm a big fan of Feyenoord but not a fan of the rain. "
        "I've been hooked on jazz ever since."
    )
    triples = _triples(parser.extract(text))
    assert ("hyun woo", "DISLIKES", "rain") in triples
    assert ("hyun woo", "LIKES", "jazz") in triples
