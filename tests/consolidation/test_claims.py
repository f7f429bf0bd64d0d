"""Claims of a text and the signals of comparing two texts claim by claim."""

import pytest

from consolidation.claims import claims, compare


def _signals(existing, incoming):
    result = compare(incoming, existing)
    return {k for k, v in result["features"].items() if v >= 0.5}, result["evidence"]


def test_a_markdown_section_is_one_claim_per_item_and_field_lines_keep_their_key():
    found = claims("## Deployment\n- Region: eu-west-1\n- Owner: Ana\n- Replicas: 3")
    assert [c.key for c in found[1:]] == ["region", "owner", "replicas"]
    assert found[3].values[0].kind == "number" and found[3].values[0].key == (3.0,)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Salary offer for Lucas: £85,000.", "Lucas was offered GBP 78k per year."),
        ("Go-live for the new CRM: 2024-06-03.", "The new CRM goes live on 10 June 2024."),
        ("Backups run at 02:00 UTC.", "The nightly backup job kicks off at 3am UTC."),
        (  # one of two amounts restated, the other replaced
            "Small claims filing fee (claims under £5,000) is £115.",
            "Filing fee for small claims up to £5k: £105.",
        ),
    ],
)
def test_a_value_changed_in_another_notation_is_found_with_both_claims(existing, incoming):
    signals, evidence = _signals(existing, incoming)
    assert "value_changed" in signals or "text_value_changed" in signals
    changed = [e for e in evidence if e["signal"] in {"value_changed", "text_value_changed"}]
    assert changed and changed[0]["incoming"] and changed[0]["existing"]


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The budget is $120,000.", "We have USD 120k to spend."),
        ("p99 latency target: 200 ms", "The p99 target is 0.2 s."),
        ("The launch is on 2024-03-05.", "Launch day: 5 March 2024."),
        ("Sara runs 5 km every morning.", "Every morning Sara does a 5,000-metre run."),
        ("The nursery is kept at 20 °C.", "We keep the nursery at 68°F."),
        ("db-02 has a 2 TB data disk.", "The data volume on db-02 is 2000 GB."),
        ("Anjali's salary: ₹18 lakh.", "Anjali earns INR 1.8 million."),
        ("Backups are kept for 14 days.", "Backups are kept for a fortnight."),
        ("The weekly sync is at 16:00 UTC.", "The weekly sync is at 17:00 CET."),
        ("The demo is on 14 March 2025.", "Wed 12 Mar 2025: the demo is the day after tomorrow."),
        (
            "Ines landed in Oslo on 27 Feb 2025.",
            "[2025-03-02] Ines arrived in Oslo three days ago.",
        ),
        ("The audit is on 15/08/2024.", "Mon 12 Aug 2024: the audit is on Thursday of this week."),
        ("Standups at 09:00 and 16:00.", "Standups at 9am and 4pm, plus a 13:00 retro."),
    ],
)
def test_a_value_restated_in_another_notation_is_no_change(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "value_changed" not in signals and "text_value_changed" not in signals
    assert "text_value_restated" in signals


def test_an_addition_replaces_nothing_that_is_still_stated():
    signals, _ = _signals(
        "The billing service uses PostgreSQL.",
        "The billing service uses PostgreSQL. The billing service uses Redis for sessions.",
    )
    assert not signals & {"tech_swap", "value_changed", "negation_flip"}


def test_a_negation_a_reversal_and_a_replaced_technology_are_signals():
    assert "negation_flip" in _signals("Kemal drinks alcohol.", "Kemal doesn't drink alcohol.")[0]
    assert (
        "tech_swap"
        in _signals("The orders API uses PostgreSQL.", "The orders API uses MySQL now.")[0]
    )
    assert "reversal" in _signals("Lukas smokes.", "Lukas quit smoking in 2022.")[0]
    # said in two words, and a limit that is no reversal
    assert "reversal" in _signals("Ewa drinks coffee.", "Ewa has given up coffee.")[0]
    assert "reversal" in _signals("The trip is on.", "The trip was called off.")[0]
    assert "reversal" not in _signals("Max 5 guests.", "No more than five guests.")[0]
    # a reversal said not to have happened
    assert (
        "reversal"
        not in _signals(
            "Migration of the billing DB to Aurora is in progress.",
            "The billing database is now on Aurora: cutover completed with no rollback.",
        )[0]
    )
    # plans undone
    for existing, incoming in (
        ("Dr. Abara will give the keynote.", "Dr. Abara pulled out of the keynote."),
        ("The Fiesta sale to a neighbour is agreed.", "The Fiesta sale fell through."),
        ("Fenwick renews the support contract.", "Fenwick will let the contract expire."),
    ):
        assert "reversal" in _signals(existing, incoming)[0], incoming


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Ticket OPS-12 (login loop) is resolved.", "OPS-12 has been reopened: the loop is back."),
        ("Account #A-7 is opted out of newsletters.", "Account #A-7 re-subscribed to newsletters."),
        ("Hiroshi is vegetarian.", "Hiroshi started eating fish again last month."),
        ("The nightly export is paused.", "The nightly export resumed on Monday."),
    ],
)
def test_a_state_taken_up_again_is_a_reversal(existing, incoming):
    assert "reversal" in _signals(existing, incoming)[0]


def test_a_state_taken_up_in_both_texts_is_no_reversal():
    assert (
        "reversal"
        not in _signals("The pool reopens on Monday.", "The community pool reopens next Monday.")[0]
    )


def test_an_advisor_or_a_coach_is_one_person_at_a_time():
    signals, evidence = _signals(
        "Lina Haddad, PhD candidate. Advisor: Prof. Daniel Cohen.",
        "Lina Haddad is a PhD candidate; her advisor is Prof. Miriam Adler.",
    )
    assert signals & {"slot_changed", "single_valued_swap", "name_swap"}


def test_one_changed_fact_in_a_long_section_is_found():
    existing = "## ledger-svc\n- Language: Kotlin\n- Port: 8443\n- Replicas: 3\n- Owner: Yaw"
    incoming = "## ledger-svc\n- Language: Kotlin\n- Port: 9443\n- Replicas: 3\n- Owner: Yaw"
    signals, evidence = _signals(existing, incoming)
    assert "value_changed" in signals
    assert any("8443" in e["detail"] and "9443" in e["detail"] for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The staging database runs PostgreSQL 15.", "The production database runs PostgreSQL 14."),
        ("The v1 API rate limit is 100 requests per minute.", "The v2 API rate limit is 300."),
        ("Worker pods get a 1.5 GB memory limit.", "Web pods get a 512 MB memory limit."),
    ],
)
def test_a_replaced_qualifier_of_the_subject_is_another_subject(existing, incoming):
    signals, evidence = _signals(existing, incoming)
    assert "qualifier_swap" in signals and "head_same" in signals
    assert "same_subject_change" not in signals
    assert any(e["signal"] == "qualifier_swap" and e["existing"] for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Sven Larsen works for Initech Labs.", "Sven Larsen works for Umbrella Group."),
        (
            "Tara Singh is the product owner of Project Falcon.",
            "Hiro Tanaka is the product owner of Project Falcon.",
        ),
    ],
)
def test_another_filler_under_the_same_subject_is_a_changed_fact(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert {"same_subject_change", "head_same"} <= signals
    assert "qualifier_swap" not in signals


def test_an_attribute_slot_with_another_filler_is_found_across_formats():
    existing = "## Deployment\n- Region: eu-west-1\n- Owner: Ana\n- Replicas: 3"
    incoming = "Deployment: the API runs in eu-west-1 with three replicas; Tomasz is the owner."
    signals, evidence = _signals(existing, incoming)
    assert "slot_changed" in signals
    assert any(e["signal"] == "slot_changed" and "tomasz" in e["detail"] for e in evidence)
    restated = "Deployment: the API runs in eu-west-1 with three replicas; Ana is the owner."
    assert "slot_changed" not in _signals(existing, restated)[0]


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("PR #412 is awaiting review.", "PR #412 was approved and merged."),
        ("The visa application is submitted.", "The visa application was approved."),
    ],
)
def test_a_status_moving_forward_is_a_progression_not_an_opposite(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "progressed" in signals and "opposite" not in signals


def test_a_sentence_listing_several_facts_is_one_claim_per_clause():
    prose = (
        "Sofia's profile: lives in Porto, works as a nurse, has one cat named Miso, "
        "vegetarian, plays volleyball on Thursdays."
    )
    found = claims(prose)
    assert len(found) == 5 and found[-1].text == "plays volleyball on Thursdays"
    assert len(claims("Access: GitHub, Vault, Datadog, PagerDuty, Sentry and Grafana")) == 1
    signals, evidence = _signals(prose, "### Sofia\n- City: Porto\n- Volleyball: Tuesdays")
    assert "value_changed" in signals
    assert any(e["existing"] and e["existing"]["text"] == found[-1].text for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The cleaner comes early on Fridays.", "The cleaner now comes late on Fridays."),
        ("Her car is a diesel hatchback.", "Her car is an electric hatchback."),
        ("The public API speaks GraphQL.", "The public API speaks gRPC."),
        (
            "Two-factor authentication is enforced for admin accounts on Jira.",
            "On Jira the two-factor authentication rule for admin accounts was lifted.",
        ),
        (
            "Tickets for the Nils Frahm concert in Utrecht are still available.",
            "The Nils Frahm concert in Utrecht is sold out.",
        ),
        ("Olu is a salaried designer at Kite.", "Olu is a freelance designer at Kite."),
        (
            "Statistics 201 is an elective for second-year students.",
            "Statistics 201 is a required course for second-year students.",
        ),
        (
            "The aquarium's newest arrival is a freshwater angelfish.",
            "Newest arrival at the aquarium: a marine angelfish.",
        ),
    ],
)
def test_one_of_several_exclusive_values_replaced_is_an_opposite(existing, incoming):
    signals, evidence = _signals(existing, incoming)
    assert "opposite" in signals
    assert any(e["signal"] == "opposite" and "→" in e["detail"] for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Dana prefers a Slack DM for urgent issues.", "For urgent issues, email Dana."),
        ("Mr. Osei likes his lesson plans printed.", "Mr. Osei keeps his lesson plans digital."),
        ("Sister Obi prefers the early shift.", "Sister Obi likes working nights."),
        (
            "Nadia will attend the Vienna conference in person.",
            "Nadia is staying home for the Vienna conference and will follow the livestream.",
        ),
        ("The Ortiz contract is fixed-fee.", "The Ortiz contract is billed time and materials."),
        ("The studio van is leased.", "We bought the studio van outright."),
        ("Peak-season pickers are temp agency staff.", "Peak-season pickers are on our payroll."),
        (
            "Our account with Northwind Bank is a savings account.",
            "Northwind Bank account type: current (checking) account.",
        ),
    ],
)
def test_one_class_of_words_for_another_of_its_kind_is_an_opposite(existing, incoming):
    signals, evidence = _signals(existing, incoming)
    assert "opposite" in signals
    assert any(e["signal"] == "opposite" and "→" in e["detail"] for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The Hollis matter is a contested probate claim.", "Hollis is an uncontested probate."),
        ("Travel time on the Kessler matter is billable.", "Kessler travel time: non-billable."),
    ],
)
def test_a_word_and_its_negative_prefix_are_opposites(existing, incoming):
    signals, evidence = _signals(existing, incoming)
    assert "opposite" in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Mrs. Hallett prefers phone calls.", "Best way to reach Mrs. Hallett: ring her mobile."),
        ("Send Joe an email or a Slack DM.", "Joe reads Slack DMs and email."),
        ("Jakub is a full-time employee on the SRE team.", "Jakub: permanent SRE employee."),
    ],
)
def test_words_of_one_class_restate_it(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "opposite" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Cycle count for aisle 14 done and reconciled.",
            "Aisle 14 cycle count not started; it's scheduled for the weekend.",
        ),
        ("The Lisbon office lease is signed.", "The Lisbon office lease is in review."),
    ],
)
def test_a_status_moved_back_without_a_cue_is_an_earlier_status(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "status_back" in signals
    forward, _ = _signals(incoming, existing)
    assert "status_back" not in forward and "progressed" in forward


def test_the_only_one_listed_beside_another_narrows_nothing_but_contradicts_sole():
    signals, evidence = _signals(
        "The Hollis will names Jane Hollis as sole executor.",
        "Executors under the Hollis will: Jane Hollis and her brother Mark.",
    )
    assert "list_narrowed" in signals
    same, _ = _signals("Our only supplier of oat milk is Oatly.", "We buy oat milk from Oatly.")
    assert "list_narrowed" not in same


def test_an_exclusive_value_stated_again_beside_another_is_no_opposite():
    signals, _ = _signals(
        "The report goes out weekly.", "The report goes out weekly, and a summary monthly."
    )
    assert "opposite" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming", "signal"),
    [
        ("Sven is a full-time employee.", "Sven works with us as a contractor.", "category_swap"),
        ("The orders API is REST.", "Orders are served over gRPC now.", "category_swap"),
        (
            "Main database: PostgreSQL 15.",
            "Our primary DB is Postgres 16.2.",
            "product_version_changed",
        ),
        (
            "The billing service runs on Python 3.11.",
            "Billing runs on Python 3.12.",
            "value_changed",
        ),
        (
            "The team has 8 engineers and 2 designers.",
            "The team has 11 engineers and 2 designers.",
            "value_changed",
        ),
        (
            "Error rate stayed below 0.5% last month.",
            "Error rate stayed below 2% last month.",
            "value_changed",
        ),
        ("Emma loves spicy food.", "Emma can't stand spicy food anymore.", "preference_flip"),
        (
            "The blue line train leaves every 10 minutes.",
            "The red line train leaves every 15 minutes.",
            "subject_kind_swap",
        ),
        (
            "The book club is an in-person meetup at Café Amsel.",
            "The book club is an online-only group these days.",
            "category_swap",
        ),
        ("Olu indents with tabs.", "Olu's editor is set to four spaces.", "category_swap"),
        (
            "The payments API is exposed over REST/JSON.",
            "payments-api: gRPC service",
            "category_swap",
        ),
        (
            "Webhook delivery is synchronous.",
            "Webhooks are delivered asynchronously by a worker.",
            "category_swap",
        ),
        (
            "The Harbourside shop is company-owned.",
            "Harbourside is run as a franchise.",
            "category_swap",
        ),
        (
            "The Exeter route is a scheduled service.",
            "Exeter flights are charters only.",
            "category_swap",
        ),
        ("Lantern is a pay-once title.", "Lantern launches as free-to-play.", "category_swap"),
        ("Our Redis runs as a single instance.", "Redis is a 3-node cluster.", "category_swap"),
        (
            "Order sync to the ERP is an hourly batch job.",
            "Order sync to the ERP is event-driven, one webhook at a time.",
            "category_swap",
        ),
        ("The house is heated by a gas boiler.", "The house has a heat pump.", "category_swap"),
        ("Jonas likes his steak rare.", "Jonas orders his steak well done now.", "category_swap"),
        (
            "Ayodele prefers meetings in the morning.",
            "Ayodele asked for meetings after lunch whenever possible.",
            "category_swap",
        ),
        (
            "Tariq takes the train for trips under 600 km.",
            "For short hops Tariq would rather take a plane.",
            "category_swap",
        ),
        (
            "User prefers email for all updates.",
            "Reach the user by phone call from now on.",
            "category_swap",
        ),
        (
            "Kiri's car loan from the credit union is fixed-rate.",
            "Kiri's credit-union car loan is variable, tracking the base rate.",
            "opposite",
        ),
        (
            "Runtime for the billing Lambdas: Node.js 18.x.",
            "billing lambdas, template.yaml: `Runtime: nodejs20.x`",
            "product_version_changed",
        ),
    ],
)
def test_a_kind_a_version_a_count_or_a_liking_changed_is_a_signal(existing, incoming, signal):
    signals, _ = _signals(existing, incoming)
    assert signal in signals, signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Lucas speaks Portuguese and English.", "Lucas also speaks Spanish."),
        ("The backend runs on Python 3.", "The backend runs on Python 3.11."),
        (
            "The team has 8 engineers and 2 designers.",
            "The team has eight engineers and two designers.",
        ),
        (
            "I set up nightly backups of the prod Postgres database to S3.",
            "Production PostgreSQL now gets dumped into an S3 bucket every night.",
        ),
    ],
)
def test_an_added_value_or_a_more_precise_version_is_no_change(existing, incoming):
    signals, _ = _signals(existing, incoming)
    changed = {"category_swap", "product_version_changed", "value_changed", "tech_swap"}
    assert not signals & changed, signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The online shop accepts Visa and Mastercard.", "The shop started accepting PayPal."),
        ("Rajesh holds the AWS Associate cert.", "Add to Rajesh's certs: he passed the CKA."),
        ("Inês: bouldering, film photography.", "Inês has picked up pottery on Thursdays."),
    ],
)
def test_a_value_said_to_be_added_is_an_additive_cue(existing, incoming):
    assert "additive_cue" in _signals(existing, incoming)[0]


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The kitchen refit is finished.", "The kitchen refit is still in progress."),
        (
            "Garden shed permit (14 Hawthorn Rd): approved by council on 12 May.",
            "Council portal shows the Hawthorn Rd shed permit as pending, drawings requested.",
        ),
    ],
)
def test_a_status_moved_back_is_a_signal(existing, incoming):
    assert "regressed" in _signals(existing, incoming)[0]


def test_a_marker_swap_in_the_opening_claims_counts_when_a_later_claim_aligns_best():
    signals, _ = _signals(
        "HPA for search-api → minReplicas: 3, maxReplicas: 12, target CPU 70%",
        "HPA for search-indexer → minReplicas: 3, maxReplicas: 12, target CPU 70%",
    )
    assert "subject_marker_swap" in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Tickets for DevConf Brno are refundable.", "DevConf Brno tickets are non-refundable."),
        ("The team calendar is editable by all staff.", "Team calendar: read-only for staff."),
    ],
)
def test_a_non_word_or_read_only_turns_a_state_around(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert signals & {"negation_flip", "opposite", "category_swap"}, signals


def test_a_table_row_and_a_short_field_line_are_one_claim_each():
    table = "| Field | Value |\n|---|---|\n| Sponsor | Grace Mensah |\n| Vendor | Accenture |"
    assert [(c.key, sorted(c.fillers)) for c in claims(table)] == [
        ("sponsor", ["grace", "mensah"]),
        ("vendor", ["accenture"]),
    ]
    found = claims("## Deployment\n- Replicas: 3\n- Region: eu-west-1")
    assert [c.text for c in found] == ["Deployment", "Replicas: 3", "Region: eu-west-1"]
    line = "Sprint 42 — goal: export API · capacity: 38 pts · scrum master: Priya · retro: Fri"
    assert ("scrum master", frozenset({"priya"})) in [(c.key, c.fillers) for c in claims(line)]


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "The Tallinn office is closed on public holidays.",
            "On public holidays the office doesn't open.",
        ),
        ("Liesel is vegetarian.", "Liesel doesn't eat meat."),
    ],
)
def test_a_negation_and_an_opposite_on_one_claim_cancel(existing, incoming):
    features = compare(incoming, existing)["features"]
    assert features["negated_opposite"] == 1.0
    assert features["negation_flip"] == 0.0 and features["opposite"] == 0.0


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The user doesn't drink alcohol.", "User is teetotal."),
        ("The user keeps Sundays completely free from work.", "User never works on Sundays."),
        ("Farida does not want marketing calls.", "Farida has opted out of marketing calls."),
    ],
)
def test_a_negation_against_a_word_that_says_not_is_no_flip(existing, incoming):
    features = compare(incoming, existing)["features"]
    assert features["negation_flip"] == 0.0, features


def test_a_dislike_of_the_other_pole_restates_a_liking():
    features = compare(
        "Keep responses short — this user gets annoyed by long explanations.",
        "User likes concise answers.",
    )["features"]
    assert features["negated_opposite"] == 1.0 and features["preference_flip"] == 0.0


def test_a_negation_of_what_the_other_claim_does_not_speak_of_is_a_weak_flip():
    features = compare(
        "Prep notes for Mr. Álvarez's knee MRI (Westside Imaging): no contrast.",
        "Mr. Álvarez is booked for a knee MRI at Westside Imaging.",
    )["features"]
    assert features["negation_flip"] == 0.5
    features = compare("Omar no longer eats meat.", "Omar eats meat.")["features"]
    assert features["negation_flip"] == 1.0


def test_a_negated_claim_without_an_opposite_is_still_a_flip():
    features = compare(
        "The Tallinn office is not closed on Mondays.", "The Tallinn office is closed on Mondays."
    )["features"]
    assert features["negation_flip"] == 1.0 and features["negated_opposite"] == 0.0


def test_one_code_replaced_by_another_of_its_shape_is_an_identifier_swap():
    swapped = compare("INV-3392 totals CHF 1,200.00.", "Invoice INV-3391 totals CHF 4,870.00.")
    assert swapped["features"]["identifier_swap"] == 1.0
    same = compare(
        "SUP-8810: the reset fails on Android.", "Ticket SUP-8810: password reset broken."
    )
    assert same["features"]["identifier_same"] == 1.0
    assert same["features"]["identifier_swap"] == 0.0


def test_a_year_code_written_short_or_long_is_one_code():
    same = compare(
        "FY26 Snowflake commit: USD 1,800,000.", "Our Snowflake commitment for FY2026 is $1.8M."
    )
    assert same["features"]["identifier_swap"] == 0.0
    assert same["features"]["subject_marker_swap"] == 0.0
    swapped = compare(
        "FY27 Snowflake commit: USD 1,800,000.", "Snowflake commit for FY2026: $1.8M."
    )
    assert swapped["features"]["identifier_swap"] == 1.0


def test_a_subject_said_the_other_way_round_is_no_subject_swap_and_its_name_a_value():
    signals, _ = _signals(
        "Head of Year 10 at Oakfield is Mr Dlamini.",
        "Mrs Whitfield is Head of Year 10 at Oakfield.",
    )
    assert "subject_swap" not in signals
    assert "name_swap" in signals


def test_a_number_after_a_hash_is_one_code_with_or_without_its_noun():
    same = compare(
        "#812 merged to main this morning.", "PR #812 (rate limiter refactor) is in review."
    )
    assert same["features"]["identifier_same"] == 1.0
    swapped = compare("PR #813 merged to main.", "PR #812 is in review.")
    assert swapped["features"]["identifier_swap"] == 1.0
    ranked = compare("The team is ranked #5 in the league.", "The team is ranked #3 in the league.")
    assert ranked["features"]["identifier_swap"] == 0.0  # a rank is a value, no code


def test_a_shared_word_that_is_the_subject_of_one_claim_only_is_a_role_crossed():
    features = compare("Tomasz's piano needs tuning.", "Tomasz teaches piano on Tuesdays.")[
        "features"
    ]
    assert features["role_crossed"] > 0
    same = compare("Tomasz teaches piano on Thursdays.", "Tomasz teaches piano on Tuesdays.")
    assert same["features"]["role_crossed"] == 0


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("v1 API rate limit: 100 requests/minute per key.", "v2 API rate limit: 600 req/min."),
        (
            "Cloud bill for the ml account in March: $18.4k.",
            "Cloud bill for the ml account in April: $22.1k.",
        ),
        ("Invoice #4471 was paid on 15 March.", "Invoice #4472 is still unpaid."),
        # a letter marker, though the other text says "a" as a word
        ("Building A has 4 floors and a gym.", "Building B has 6 floors and a gym."),
        # a number marker, though the other text has it in a time
        ("Viewing of flat 3, Quay Street: 5:30 pm.", "Viewing of flat 5, Quay Street: 6:30 pm."),
    ],
)
def test_a_marker_of_the_subject_replaced_by_one_of_its_shape_is_another_subject(
    existing, incoming
):
    signals, evidence = _signals(existing, incoming)
    assert "subject_marker_swap" in signals
    assert any(e["signal"] == "subject_marker_swap" and "→" in e["detail"] for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "The API rate limit is 100 requests per minute.",
            "The API rate limit is now 300 requests per minute.",
        ),
        (
            "Tara Singh is the product owner of Project Falcon.",
            "Hiro Tanaka is the product owner of Project Falcon.",
        ),
        ("Deadline: 5 May.", "Deadline: 12 May."),
        ("Lot A holds 40 cars.", "A lot of staff park in Lot A; it holds 45 cars."),
        (  # an amount where the subject stands is what is said, not whose
            "Invoice 2025-118 covers March storage. VAT £296.00, total due £1,776.00.",
            "Kaur & Sons invoice 2025-118 — total due £1,872.00 incl. VAT.",
        ),
    ],
)
def test_a_changed_value_under_the_same_subject_is_no_marker_swap(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "subject_marker_swap" not in signals


def test_someone_of_the_subject_doing_the_same_is_another_subject():
    signals, evidence = _signals(
        "Léa takes levothyroxine 50 mcg every morning.",
        "Léa's mother takes levothyroxine 75 mcg each morning.",
    )
    assert "subject_of_subject" in signals
    assert any("mother" in e["detail"] for e in evidence if e["signal"] == "subject_of_subject")
    signals, _ = _signals("Aisha's husband is Omar.", "Aisha is married to Bilal.")
    assert "subject_of_subject" not in signals


@pytest.mark.parametrize(
    "incoming",
    [
        # a reported clause about someone of the subject, named through a pronoun
        "User mentioned their husband can't handle spicy food at all.",
        "Kai said his travel buddy Leo hates spicy food.",
    ],
)
def test_someone_of_the_subject_in_a_reported_clause_is_another_subject(incoming):
    existing = "User loves spicy food." if incoming.startswith("User") else "Kai loves spicy food."
    assert "subject_of_subject" in _signals(existing, incoming)[0]


def test_a_reported_fact_of_the_subject_itself_keeps_its_subject():
    signals, _ = _signals("User loves spicy food.", "User mentioned they can't handle spicy food.")
    assert "subject_of_subject" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Dentist reminder: Ebru's cleaning on 4 Nov at 10:00 with Dr. Aksoy.",
            "Dentist reminder: Ebru's husband Cem has a filling on 4 Nov at 11:00.",
        ),
        (
            "Weekly grocery order from Ocado: Thursdays, 7–8pm slot.",
            "Weekly grocery order for the user's mum from Ocado: Tuesdays, 10–11am slot.",
        ),
        ("Oskar's bike: a 2021 Canyon Grail, size M.", "Oskar's brother Emil rides a Canyon."),
    ],
)
def test_a_text_opening_on_a_relative_of_the_subject_is_a_signal(existing, incoming):
    assert "relative_opening" in _signals(existing, incoming)[0]
    assert "relative_opening" in _signals(incoming, existing)[0]  # either way round


def test_a_relative_named_in_both_texts_or_only_later_is_no_relative_opening():
    signals, _ = _signals(
        "Ebru's husband Cem has a filling on 4 Nov.", "Cem (Ebru's husband): filling, 4 Nov."
    )
    assert "relative_opening" not in signals
    signals, _ = _signals(
        "Beatriz's surgery is on 20 November.",
        "Beatriz's surgery is on 20 November. Her brother Duarte will drive her.",
    )
    assert "relative_opening" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming", "changed"),
    [
        (
            "The Kaur–Singh wedding reception is at the Sheraton on Saturday 14 June 2025.",
            "Kaur–Singh wedding reception: Sheraton, Sat 21 June 2025, guests from 6 pm.",
            True,
        ),
        (
            "Quote from Bergström Bygg for the bathroom: SEK 145,000 including VAT.",
            "Bathroom: the written quote has arrived. Price: SEK 168,000 incl. VAT.",
            True,
        ),
        (
            "The Kaur–Singh wedding reception is at the Sheraton on Saturday 14 June 2025.",
            "Kaur–Singh reception: Sheraton, Sat 14/06/2025, guests from 6 pm.",
            False,
        ),
    ],
)
def test_the_one_date_or_amount_of_each_text_changed_is_a_signal(existing, incoming, changed):
    signals, evidence = _signals(existing, incoming)
    assert ("sole_value_changed" in signals) is changed


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Nikolai Petrov's residence-card interview is on 3 April 2025 at 10:00.",
            "Residence card interview — N. Petrov — 03/04/2025 (dd/mm), 10:00.",
        ),
        (
            "Gabriel's small-claims hearing at Wandsworth County Court is on 7 October.",
            "Small claims hearing — Gabriel — Wandsworth CC — 7 Oct.",
        ),
    ],
)
def test_an_initial_an_acronym_or_a_format_marker_is_no_name_swap(existing, incoming):
    assert "name_swap" not in _signals(existing, incoming)[0]


def test_another_deployment_environment_is_a_signal_and_a_short_name_is_the_same_one():
    signals, evidence = _signals(
        "Redis cache sessions-cache in production: 6 GB, allkeys-lru.",
        "Redis cache sessions-cache in the staging environment: 1 GB, volatile-lru.",
    )
    assert "environment_swap" in signals
    assert any(e["detail"] == "production → staging" for e in evidence)
    signals, _ = _signals("Deployed to prod on Friday.", "The production deploy went out Friday.")
    assert "environment_swap" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Elif lives in Izmir with her two cats.", "Two cats share Elif's flat in İzmir."),
        (
            "Gina lost her job at DoorDash.",
            "Since losing her Door Dash job, Gina has had a tough time.",
        ),
        ("The team uses PostgreSQL for analytics.", "analytics warehouse -> Postgres"),
    ],
)
def test_a_name_spelt_another_way_is_no_swap(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert not {"name_swap", "tech_swap"} & signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Webhook deliveries are retried up to 5 times.",
            "We give up on a webhook after 8 failed delivery attempts.",
        ),
        ("The community choir has 31 members.", "Our choir is 28 singers strong."),
    ],
)
def test_one_count_under_another_noun_changed_is_a_signal(existing, incoming):
    signals, evidence = _signals(existing, incoming)
    assert "count_changed" in signals
    assert any(e["signal"] == "count_changed" for e in evidence)
    signals, _ = _signals(existing, existing.replace("has", "still has"))
    assert "count_changed" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Translation of the docs: started, about 30% done.",
            "Docs translation has reached roughly 80% done.",
        ),
        (
            "Kitchen renovation: cabinets ordered.",
            "Kitchen renovation: cabinets delivered and installed.",
        ),
        (
            "Passport renewal: form filled in, not yet submitted.",
            "Passport renewal application handed in at the post office.",
        ),
    ],
)
def test_work_moving_forward_is_a_progression(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "progressed" in signals and "negation_flip" not in signals
    signals, _ = _signals(incoming, existing)
    assert "progressed" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Ingrid covers the support desk two evenings a week.",
            "- Ingrid: support desk, 3 per week",
        ),
        ("The cluster has 4 new nodes in the pool.", "The node pool got 6 nodes."),
    ],
)
def test_a_rate_or_a_count_after_a_modifier_is_compared_as_one_number(existing, incoming):
    signals, evidence = _signals(existing, incoming)
    assert "value_changed" in signals
    assert any(e["signal"] == "value_changed" for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming", "signal"),
    [
        (
            "Offsite: 14 people, bus leaves at 08:00.",
            "Offsite - 14 people, bus at 08:00. Correction: it's 17 people now.",
            "value_changed",
        ),
        (
            "- Frontend: React\n- Hosting: Vercel",
            "Frontend is React, hosted on Vercel. Update: the frontend is now Svelte.",
            "tech_swap",
        ),
    ],
)
def test_a_claim_that_corrects_its_own_text_changes_the_value(existing, incoming, signal):
    signals, _evidence = _signals(existing, incoming)
    assert signal in signals


def test_the_same_value_restated_without_a_correction_is_no_change():
    signals, _evidence = _signals(
        "Offsite: 14 people, bus leaves at 08:00.", "Offsite for 14 people; the bus is at 08:00."
    )
    assert "value_changed" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Ship returns to 40 Elm St, Leeds.", "Returns address: 40 Elm Street, Leeds."),
        ("Invoices go to Brightwave Ltd.", "Invoices are addressed to Brightwave Limited."),
    ],
)
def test_an_abbreviated_word_is_no_name_swap(existing, incoming):
    signals, _evidence = _signals(existing, incoming)
    assert "name_swap" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The kiosk app ships as 3.8.0.", "Kiosk app release: 3.8.2"),
        ("Redis on cache-02: 7.2", "cache-02 runs Redis 6.2 still."),
    ],
)
def test_versions_written_to_one_precision_or_a_field_of_a_technology_are_compared(
    existing, incoming
):
    signals, evidence = _signals(existing, incoming)
    assert "value_changed" in signals
    assert any("version" in e["detail"] for e in evidence if e["signal"] == "value_changed")


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Idris doesn't eat pork.", "Idris avoids pork entirely."),
        ("Please don't add emojis to the weekly digest.", "The weekly digest stays emoji-free."),
    ],
)
def test_a_negation_restated_by_a_word_that_says_not_is_no_flip(existing, incoming):
    signals, _evidence = _signals(existing, incoming)
    assert "negation_flip" not in signals


def test_a_negation_of_the_same_negative_word_is_still_a_flip():
    signals, _evidence = _signals("Idris avoids pork.", "Idris no longer avoids pork.")
    assert "negation_flip" in signals


def test_a_long_section_restated_keeps_its_values_and_one_changed_fact_is_a_replacement():
    existing = (
        "## Offsite\n- Date: 2025-05-14\n- Budget: $8,000\n- Headcount: 22 people\n"
        "- Venue: Harbour Hall"
    )
    restated = "Offsite on 14 May 2025 at Harbour Hall for twenty-two people, budget USD 8k."
    changed = "Offsite on 14 May 2025 at Harbour Hall for 22 people, budget USD 9.5k."
    kept = compare(restated, existing)["features"]
    assert kept["existing_values_kept"] == 1.0 and kept["values_replaced"] == 0.0
    replaced = compare(changed, existing)["features"]
    assert replaced["existing_values_kept"] < 1.0 and replaced["values_replaced"] == 1.0


@pytest.mark.parametrize(
    ("existing", "incoming", "shared"),
    [
        (
            "- GP: Dr. Okonkwo\n- Metformin 500 mg twice daily\n- Amlodipine 5 mg each morning",
            "He takes amlodipine 5 mg every morning and metformin 850 mg twice a day.",
            "metformin",
        ),
        (
            "The laptop has 16 GB of RAM and a 512 GB SSD.",
            "model: Latitude 7440\nram_gb: 32\nssd_gb: 512",
            "ram",
        ),
        (
            "| Budget | €120,000 |\n| Kickoff | 3 February |",
            "Kicked off 3 February; the approved budget is €135,000.",
            "budget",
        ),
    ],
)
def test_a_value_beside_the_same_word_changed_in_another_layout_is_anchored(
    existing, incoming, shared
):
    signals, evidence = _signals(existing, incoming)
    assert "value_anchor_changed" in signals
    found = next(e for e in evidence if e["signal"] == "value_anchor_changed")
    assert shared in found["detail"]


def test_every_value_restated_in_another_layout_anchors_no_change():
    existing = "The laptop has 16 GB of RAM, a 512 GB SSD and a 30 second lock timeout."
    incoming = "ram_gb: 16\nssd_gb: 512\nlock_timeout_seconds: 30"
    signals, _ = _signals(existing, incoming)
    assert "value_anchor_changed" not in signals


def test_a_counted_thing_is_no_status_that_progresses():
    signals, _ = _signals(
        "User's reading goal for 2025: 24 books.", "For 2025 the user aims to finish 30 books."
    )
    assert "progressed" not in signals and "value_changed" in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Invoice 5530 has been paid.", "Invoice 5530 is still outstanding."),
        (
            "The reports database runs as a read replica.",
            "The reports database runs as a standalone primary.",
        ),
        ("Order sync runs as a nightly batch job.", "Order sync streams every order as it comes."),
        ("The lease for flat 2A allows pets.", "The lease for flat 2A prohibits pets."),
    ],
)
def test_two_poles_of_one_attribute_are_opposites(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "opposite" in signals


def test_a_liking_reversed_by_staying_away_is_a_preference_flip():
    signals, _ = _signals("User enjoys very spicy food.", "User stays away from spicy dishes.")
    assert "preference_flip" in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Aditi has finished 4 of the 10 modules in her course.",
            "Aditi has now completed 7 of 10 modules of the course.",
        ),
        (
            "Ticket OPS-1203 for the cert rotation is in To Do.",
            "OPS-1203 cert rotation is in progress.",
        ),
        ("New hire Chidi: laptop ordered.", "Chidi's laptop arrived and is set up with SSO."),
        ("status: draft — Q2 audit report", "The Q2 audit report is finalized."),
    ],
)
def test_a_share_of_a_whole_or_a_status_in_words_moving_forward_is_a_progression(
    existing, incoming
):
    signals, _ = _signals(existing, incoming)
    assert "progressed" in signals


def test_two_notes_of_one_claim_each_are_compared_when_they_share_a_word():
    signals, _ = _signals(
        "Event ingestion runs as an hourly batch job.",
        "Event ingestion is a streaming pipeline (Kafka to Flink), processing continuously.",
    )
    assert "opposite" in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "**Pet profile — Biscuit**\n- Species: dog (beagle)\n- Age: 6\n- Walks: twice a day",
            "**Pet profile — Pepper**\n- Species: dog (beagle)\n- Age: 2\n- Walks: three a day",
        ),
        ("### Service: auth-gateway\n- port: 8443", "### Service: auth-callback\n- port: 8444"),
        ("Office: Kyiv\n- Desks: 42\n- Opens: 08:30", "Office: Lviv\n- Desks: 18\n- Opens: 09:00"),
    ],
)
def test_two_sections_whose_titles_name_two_things_are_a_title_swap(existing, incoming):
    signals, evidence = _signals(existing, incoming)
    assert "title_swap" in signals
    assert any(e["signal"] == "title_swap" for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        # the same title; an owner line first is a field, not a title
        ("## Backups\n- Retention: 30 days", "## Backups\n- Retention: 14 days"),
        ("Owner: Mei Lin\n- Repo: falcon", "Owner: Rahul Mehta\n- Repo: falcon"),
        # one section, one sentence: no titles to compare
        ("Biscuit is a beagle.", "Pepper is a beagle."),
    ],
)
def test_one_section_or_an_owner_line_is_no_title_swap(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "title_swap" not in signals


def test_a_field_holding_another_value_is_changed_even_when_the_old_value_stays_elsewhere():
    existing = "**Recipe**\n- Tomatoes: 6\n- Cook time: 45 min\n- Serves: 6"
    incoming = "**Recipe**\n- Tomatoes: 6\n- Cook time: 45 min\n- Serves: 10"
    signals, evidence = _signals(existing, incoming)
    assert {"field_changed", "value_changed"} <= signals
    assert any(e["detail"] == "serves: 6 → 10" for e in evidence)
    flags = "## Flags\n- `new_search`: on\n- `smart_reply`: on"
    signals, _ = _signals(flags, flags.replace("reply`: on", "reply`: off"))
    assert "field_changed" in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("- Tools: Go", "- Tools: Go, Rust"),  # a value added
        ("- Timeout: 200 ms", "- Timeout: 0.2 s"),  # the same value in other units
    ],
)
def test_a_field_extended_or_restated_is_not_changed(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "field_changed" not in signals


def test_a_month_against_a_day_is_a_change_only_when_the_month_differs():
    lease = "The lease on the Marlow office ends on 31 March 2026."
    signals, _ = _signals(lease, "The Marlow office lease expires at the end of September 2025.")
    assert "value_changed" in signals
    signals, _ = _signals(lease, "The Marlow office lease expires at the end of March 2026.")
    assert "value_changed" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "pgbouncer in front of `orders-db`: `MAX_CONNS=200`",
            "The pooler caps orders-db at two hundred connections.",
        ),
        ("The gateway accepts JWT tokens.", "The gateway accepts JWTs."),
        ("Ayşe prefers Slack.", "Ayse prefers Slack messages."),
        (
            "Ayşe prefers to be reached on Slack rather than email.",
            "Avoid emailing Ayşe; she reads Slack.",
        ),
        (
            "Theme: the user wants dark mode.",
            "The user wants dark mode switched on in every editor.",
        ),
        (
            "Direct pushes to main are blocked.",
            "Branch protection stops anyone pushing to main directly.",
        ),
    ],
)
def test_a_restatement_in_other_words_changes_nothing(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert not signals & {"value_changed", "name_swap", "preference_flip", "reversal", "tech_swap"}


def test_a_count_of_what_a_field_names_aligns_with_that_field():
    signals, evidence = _signals(
        "## Kafka\n- Topic: orders\n- Partitions: 12\n- Retention: 7d",
        "The orders topic in Kafka has 24 partitions.",
    )
    assert "value_changed" in signals
    assert any("12" in e["detail"] and "24" in e["detail"] for e in evidence)


def test_a_major_release_against_a_bare_version_number_is_compared():
    existing = "Mobile app minimum supported iOS version is 15."
    assert "value_changed" in _signals(existing, "Min iOS deployment target: 16.0.")[0]
    assert "value_changed" not in _signals(existing, "Min iOS deployment target: 15.0.")[0]


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Invoice 2231 from Brightline Print was paid in full.",
            "Invoice 2231: settled, nothing outstanding.",
        ),
        (
            "Priya prefers to be contacted by email rather than phone.",
            "Email works best for Priya; she'd rather not get calls.",
        ),
    ],
)
def test_a_negation_that_restates_an_opposite_or_a_contrast_is_no_flip(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "negation_flip" not in signals and "negated_opposite" in signals


def test_a_reversal_word_used_as_a_noun_reverses_nothing():
    assert (
        "reversal"
        not in _signals(
            "Savings goal: £8,000 by Dec 2025.", "They want £8k saved by the end of 2025."
        )[0]
    )
    assert (
        "reversal"
        in _signals("The sprint review is on Fridays.", "The sprint review was cancelled.")[0]
    )


def test_an_abbreviation_of_a_hyphenated_compound_is_the_same_name():
    signals, _ = _signals(
        "Weekly copy shipped to the DR region (us-west-2).",
        "Once a week a copy goes to the disaster-recovery region, us-west-2.",
    )
    assert "name_swap" not in signals


def test_a_liking_and_a_dislike_in_claims_that_do_not_align_are_a_preference_flip():
    signals, evidence = _signals(
        "Loves cold-weather holidays — skiing, Lapland, the works.",
        "For vacations, pick beaches and sunshine; the user can't stand the cold.",
    )
    assert "preference_flip" in signals


def test_a_negation_of_the_same_pole_beside_the_other_one_is_still_a_flip():
    signals, _ = _signals(
        "Prefers answers formatted as bullet points.",
        "User asked for replies in flowing prose, no bullet lists.",
    )
    assert "negation_flip" in signals and "negated_opposite" not in signals
    assert "reversal" in _signals("Rustam smokes.", "Rustam quit smoking last spring.")[0]


@pytest.mark.parametrize(
    ("existing", "incoming", "signal"),
    [
        ("My brother Tariq lives in Leeds.", "My cousin Tariq lives in Bristol.", "kin_swap"),
        ("Sarah's daughter Mia is in Year 4.", "Sarah's niece Mia is in Year 6.", "kin_swap"),
        ("Nadia's mother is a retired nurse.", "Nadia's mother-in-law is a nurse.", "kin_swap"),
        (
            "`auth-service` listens on port 8443.",
            "auth-service-legacy uses 8080.",
            "identifier_extended",
        ),
        (
            "payments-db runs on r6g.xlarge.",
            "payments-db-replica runs on r6g.large.",
            "identifier_extended",
        ),
        (
            "Project Atlas launch date: 2025-09-01.",
            "Project Atlas-Lite launch date: 2025-10-15.",
            "identifier_extended",
        ),
        (
            "Game Tidebound ships on 12 March.",
            "Tidebound II ships on 9 October.",
            "identifier_extended",
        ),
        (
            "Carlos: my sister just moved to madrid",
            "Carlos: my cousin moved to madrid too",
            "kin_swap",
        ),
        (
            "Fatou: i work at a hospital in dakar, night shifts",
            "Awa: i work at a hospital in dakar too! but day shifts",
            "speaker_swap",
        ),
        (
            "## Profile: Ngozi Adeyemi\n- Lives in Abuja\n- Product manager at Flutterwave",
            "## Profile: Funmi Adeyemi\n- Ngozi's younger sister\n- Lives in Abuja",
            "title_swap",
        ),
        ("User's primary doctor: Dr. Hassan.", "mum's GP is Dr. Wright", "owner_swap"),
        (
            "Council tax for our house: £2,140/yr.",
            "council tax on dad's flat: £1,680",
            "owner_swap",
        ),
        (
            "User no longer smokes (quit 2019).",
            "grandpa still smokes, about 10 a day",
            "owner_swap",
        ),
    ],
)
def test_a_subject_named_almost_alike_is_another_subject(existing, incoming, signal):
    signals, evidence = _signals(existing, incoming)
    assert signal in signals and any(e["signal"] == signal for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("My mum Halina takes amlodipine.", "My mother Halina takes 10 mg amlodipine."),
        ("My partner Léa lives in Lyon.", "My wife Léa moved to Paris."),
        ("payments-db runs on r6g.xlarge.", "payments-db now runs on r6g.large."),
        ("Deepa: living in bangalore rn", "Deepa: finally moved to hyderabad!!"),
        ("Owner: Mei Lin", "Owner: Tomás Ruiz"),
        ("Priya's flight home lands 2025-04-22.", "P's flight back lands on tuesday"),
        ("Grandma's lasagna uses 500 g ricotta.", "Nonna's lasagna: half a kilo of ricotta."),
        ("Friday's standup moved to 10:00.", "The standup on Friday is at 9:30."),
        ("My partner loves jazz.", "My wife loves jazz and soul."),
        ("## Nadia's wedding\n- 12 June\n- Lisbon", "## Wedding — Nadia & Sam\n- 14 June"),
        ("Project Atlas-Lite ships in May.", "Atlas-Lite ships in June."),
    ],
)
def test_one_tie_in_other_words_or_the_same_code_name_is_no_near_name(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert not {"kin_swap", "identifier_extended", "speaker_swap", "title_swap"} & signals


def test_a_second_choice_that_the_other_text_liked_and_a_lack_are_changes():
    signals, evidence = _signals(
        "Ines likes to be contacted by email.", "Ines prefers phone calls over email."
    )
    assert "preference_flip" in signals
    assert (
        "preference_flip"
        not in _signals(
            "Ines likes to be contacted by phone.", "Ines prefers phone calls over email."
        )[0]
    )
    signals, _ = _signals("Conference room B has a projector.", "Room B lacks a projector.")
    assert "negation_flip" in signals


def test_a_denial_an_adverb_s_opposite_and_where_one_works_from_are_changes():
    signals, _ = _signals(
        "Patient has a history of asthma.", "Patient denies any history of asthma."
    )
    assert "negation_flip" in signals
    assert "opposite" in _signals("Exports run synchronously.", "Exports run asynchronously.")[0]
    signals, evidence = _signals(
        "Sofia Lindqvist — product designer, based in Malmö, joined March 2024.",
        "Sofia Lindqvist joined in March 2024 as a product designer and works out of Gothenburg.",
    )
    assert "slot_filler_changed" in signals
    assert (
        "slot_filler_changed"
        not in _signals(
            "Sofia Lindqvist is based in Malmö.", "Sofia Lindqvist works out of Malmö."
        )[0]
    )


def test_a_json_or_inline_mapping_holds_fields_like_key_value_lines():
    signals, evidence = _signals(
        '{"user": "r.nakamura", "editor_theme": "solarized-dark"}',
        '{"user": "r.nakamura", "editor_theme": "gruvbox-light"}',
    )
    assert "field_changed" in signals
    assert any("editor_theme: solarized-dark → gruvbox-light" in e["detail"] for e in evidence)
    assert (
        "field_changed"
        not in _signals(
            "settings = {theme: dark, font_size: 14}",
            "settings = {theme: dark, font_size: 14, lang: en}",
        )[0]
    )


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The hotel in Hội An was not expensive.", "The Hội An hotel was cheap."),
        (
            "Wi-Fi at the municipal library isn't free.",
            "You pay for Wi-Fi at the municipal library.",
        ),
        ("The back road to the farm is quiet.", "The back road to the farm is not noisy."),
    ],
)
def test_a_negated_adjective_restates_its_opposite(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "negation_flip" not in signals and "negated_opposite" in signals


def test_an_adjective_turned_into_its_opposite_is_a_change():
    signals, _ = _signals("The Hội An hotel was cheap.", "The Hội An hotel was expensive.")
    assert "opposite" in signals


@pytest.mark.parametrize(
    "incoming",
    [
        "Elena, Sam's manager, likes dark mode in Slack as well.",
        "Sam's manager Elena likes dark mode in Slack too.",
    ],
)
def test_a_sentence_about_someones_manager_opens_on_another_person(incoming):
    assert "relative_opening" in _signals("Sam likes dark mode in Slack.", incoming)[0]


@pytest.mark.parametrize(
    ("existing", "incoming", "signal"),
    [
        (
            "On-call rotation for the platform team: Alice, Bob, Chen, Dana.",
            "Platform on-call rotation is Alice, Chen, Dana and Eli; Bob is off the rotation.",
            "item_dropped",
        ),
        (
            "The CI pipeline runs lint, unit tests, and integration tests.",
            "CI runs lint and unit tests; integration tests were taken out of the pipeline.",
            "item_dropped",
        ),
        (
            "User volunteers at the food bank and the animal shelter.",
            "User volunteers only at the animal shelter these days.",
            "list_narrowed",
        ),
        # a stored list written again shorter
        (
            "Nadia speaks Portuguese, German and Swahili.",
            "These days Nadia speaks German and Swahili; her Portuguese is gone.",
            "list_narrowed",
        ),
        (
            "allowed_origins: [app.example.com, admin.example.com, api.example.com]",
            "allowed_origins: [app.example.com, api.example.com]",
            "list_narrowed",
        ),
        (
            "Languages on the team: Go, Rust, Python",
            "Languages on the team: Go, Python",
            "list_narrowed",
        ),
    ],
)
def test_a_value_taken_off_a_list_or_the_list_narrowed_is_found(existing, incoming, signal):
    signals, evidence = _signals(existing, incoming)
    assert signal in signals
    assert any(e["signal"] == signal for e in evidence)
    if signal == "list_narrowed":  # the evidence names an item the list lost
        assert any(e["signal"] == signal and "not" in e["detail"] for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        # another list in the same section (a checklist's two items of three) is no narrowing
        (
            "Only boxes labelled with a name, date and project code go in the freezer.",
            "Label every box with your name and the date before it goes in the freezer.",
        ),
        ("Languages on the team: Go, Rust, Python", "Languages on the team: Go, Rust, Python, Zig"),
        ("Nadia speaks Portuguese, German and Swahili.", "Nadia also speaks German and Swahili."),
    ],
)
def test_a_list_kept_whole_or_another_list_is_not_narrowed(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "list_narrowed" not in signals


def test_what_a_policy_covers_turned_to_excluded_is_opposite():
    signals, _ = _signals(
        "The extended warranty covers accidental drops.",
        "Accidental drops are excluded from the extended warranty.",
    )
    assert signals & {"opposite", "negated_opposite"}


def test_a_list_restated_with_an_addition_drops_nothing():
    signals, _ = _signals(
        "The CI pipeline runs lint, unit tests, and integration tests.",
        "CI runs lint, unit tests and integration tests, and now a security scan too.",
    )
    assert not signals & {"item_dropped", "list_narrowed"}


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Release date: 2026-05-28.", "Release ships on 2 June 2026 (moved from 28 May)."),
        (
            "Python version for the data pipeline is 3.11.",
            "The data pipeline has moved to Python 3.12; the 3.11 image is retired.",
        ),
    ],
)
def test_a_value_named_only_as_the_one_replaced_does_not_restate_it(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert signals & {"value_changed", "text_value_changed", "subject_value_changed"}


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("User lives in Austin, Texas.", "User is based in Austin (TX)."),
        ("The frontend is written in TypeScript with React.", "React + TS on the frontend."),
    ],
)
def test_a_state_or_a_technology_written_short_is_no_swap(existing, incoming):
    assert "name_swap" not in _signals(existing, incoming)[0]


def test_saying_who_someones_manager_is_is_a_fact_about_them():
    signals, _ = _signals("User's manager is Dana Whitfield.", "User reports to Marcus Lee now.")
    assert "relative_opening" not in signals


def test_two_choices_put_the_other_way_round_are_a_changed_preference():
    signals, evidence = _signals(
        "User prefers trains over planes for trips under 600 km.",
        "For trips under 600 km the user would rather fly than take the train.",
    )
    assert "preference_flip" in signals
    assert any("now second" in e["detail"] for e in evidence if e["signal"] == "preference_flip")
    same_order, _ = _signals(
        "Hassan prefers tea over coffee in the mornings.",
        "Mornings, Hassan goes for tea rather than coffee.",
    )
    assert "preference_flip" not in same_order


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Deploys to production require two approvals in GitHub.",
            "In GitHub, a production deploy can't go out until two reviewers have approved it.",
        ),
        ("Every release needs a signed changelog.", "We never release without a signed changelog."),
    ],
)
def test_a_negated_condition_restates_a_requirement(existing, incoming):
    assert "negation_flip" not in _signals(existing, incoming)[0]


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Mum comes over every Sunday for lunch.", "Every Sunday mum comes over for dinner."),
        ("Rent is paid by bank transfer.", "The rent is paid by cheque."),
        (
            "The quarterly report is signed off by the CFO.",
            "The CEO signs off the quarterly report.",
        ),
        (
            "Grandma lives in a flat near the old town.",
            "Grandma lives in a house near the old town.",
        ),
    ],
)
def test_a_meal_a_payment_method_an_executive_or_a_dwelling_swapped_is_a_category_swap(
    existing, incoming
):
    assert "category_swap" in _signals(existing, incoming)[0]


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "The `order_id` column of `payments` is a bigint.",
            "payments.order_id is stored as a UUID now.",
        ),
        (
            "The 2,000 GBP my brother sent me was a gift.",
            "I'm repaying my brother's £2,000 loan in four instalments.",
        ),
    ],
)
def test_a_column_s_data_type_or_money_given_or_lent_swapped_is_a_category_swap(existing, incoming):
    assert "category_swap" in _signals(existing, incoming)[0]


def test_a_version_after_a_product_s_part_is_that_product_s():
    from consolidation.claims import product_versions

    assert product_versions("k8s control plane version: v1.29.2") == {
        "kubernetes": frozenset({(("1", "29", "2"), "")})
    }
    assert product_versions("The Postgres primary release 15.4 is live")["postgresql"]
    assert product_versions("The mobile app release 3.2 shipped") == {}


def test_a_runtime_written_with_its_version_glued_on_is_that_product_s():
    from consolidation.claims import product_versions

    assert product_versions("template.yaml: `Runtime: nodejs20.x`") == {
        "node": frozenset({(("20",), "")})
    }
    assert product_versions("runtime: python3.11")["python"] == frozenset({(("3", "11"), "")})
    assert product_versions("instances on EC2, video in h264, files in utf8") == {}


@pytest.mark.parametrize(
    ("existing", "incoming", "detail"),
    [
        ("User's manager is Rachel Kim.", "User reports to David Osei.", "manager"),
        ("User works at Stripe as a data engineer.", "User joined Shopify last month.", "employer"),
        (
            "## Ticket DATA-88\n- Assignee: Wei\n- Priority: P2",
            "DATA-88 is assigned to Fatima.",
            "assignee",
        ),
        (
            "Grafana is hosted on mon-01.internal.",
            "[ops] grafana lives on obs-02.internal btw",
            "host",
        ),
    ],
)
def test_a_one_valued_attribute_said_with_a_verb_or_a_noun_changed_filler(
    existing, incoming, detail
):
    signals, evidence = _signals(existing, incoming)
    assert "slot_filler_changed" in signals
    assert any(
        e["detail"].startswith(detail) for e in evidence if e["signal"] == "slot_filler_changed"
    )


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The frontend tech lead is Karin Berg.", "The backend tech lead is Oskar Lund."),
        ("Hamid's sister Roya lives in Shiraz.", "Hamid's sister Parisa lives in Isfahan."),
        ("User's manager is Rachel Kim.", "User reports to Rachel Kim since the reorg."),
    ],
)
def test_another_holder_or_the_same_filler_is_no_changed_slot(existing, incoming):
    assert "slot_filler_changed" not in _signals(existing, incoming)[0]


def test_a_state_back_again_is_a_reversal():
    signals, _ = _signals(
        "Incident INC-2041 (payment timeouts): resolved.",
        "INC-2041 is active again — payment timeouts recurring since this morning.",
    )
    assert "reversal" in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Lucia drinks her coffee black.", "Lucia doesn't take milk in her coffee."),
        ("Thandiwe doesn't eat meat but does eat fish.", "Thandiwe is pescatarian."),
        ("Oat flat white, never black: that's how Rui takes coffee.", "Rui takes milk in coffee."),
    ],
)
def test_a_negation_and_a_word_for_its_other_pole_restate(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "negated_opposite" in signals
    assert "negation_flip" not in signals


def test_a_fuel_changed_to_a_hybrid_is_an_opposite():
    signals, _ = _signals(
        "The user's 2021 Skoda Octavia is a diesel.", "User's 2021 Octavia is the plug-in hybrid."
    )
    assert "opposite" in signals


def test_an_amount_in_another_unit_is_no_changed_slot():
    signals, _ = _signals("Laptop has 16 GB of RAM.", "laptop memory: 16384 MB")
    assert "slot_changed" not in signals
    assert "value_restated" in signals


def test_a_favourite_of_one_kind_replaced_is_a_changed_slot():
    signals, evidence = _signals(
        "Favourite football club: Boca Juniors.", "The user's favourite club is River Plate."
    )
    assert "slot_changed" in signals
    assert any(e["detail"].startswith("favourite club") for e in evidence)
    signals, _ = _signals("Her favourite food is sushi.", "Her favourite band is Muse.")
    assert "slot_changed" not in signals


def test_a_relative_named_after_the_owners_possessive_opens_on_another_person():
    signals, evidence = _signals(
        "Olga likes her steak medium-rare.", "Olga's husband Pavel likes his steak well done."
    )
    assert "relative_opening" in signals
    assert any(e["detail"] == "Olga's husband" for e in evidence)


def test_a_month_or_a_weekday_is_no_name_replaced():
    signals, evidence = _signals(
        "Car: 2019 Honda Civic, silver.",
        "The silver 2019 Civic gets winter tyres from November to March.",
    )
    assert not [e for e in evidence if e["signal"] == "name_swap"]


def test_the_day_a_note_was_written_is_not_compared_as_a_fact():
    signals, evidence = _signals(
        "Caroline (8 May 2023) wants a career in counseling or mental health.",
        "Caroline (12 Jul 2023) still wants to work in counseling and mental health.",
    )
    assert not [e for e in evidence if "2023" in e["detail"]]
    assert "value_changed" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming", "changed"),
    [
        ('flags.json: {"dark_mode": true, "beta": false}', "flags: dark_mode on, beta: on.", True),
        ('flags.json: {"dark_mode": true, "beta": false}', "Beta: off; dark-mode: on.", False),
        ("[smtp]\nhost = mail.example.org\nport = 587", "SMTP: mail.example.org:465, TLS.", True),
        ("[smtp]\nhost = mail.example.org\nport = 587", "SMTP: mail.example.org:587, TLS.", False),
        ("Review on 2026-10-05.", "Review on 10/05/2026 (dates here are DD/MM/YYYY).", True),
        ("Review on 2026-10-05.", "Review on 10/05/2026 (US format).", False),
    ],
)
def test_settings_ports_and_dates_in_a_stated_order_compare_as_values(existing, incoming, changed):
    features = compare(incoming, existing)["features"]
    assert bool(features["value_changed"] or features["text_value_changed"]) is changed


def test_a_reversal_of_what_the_other_text_states_counts_however_little_else_is_shared():
    assert (
        "reversal"
        in _signals(
            "User smokes roughly five cigarettes a day.",
            "User quit smoking in January and has been using nicotine patches since.",
        )[0]
    )
    both = _signals(
        "Friday team lunch this week is cancelled.",
        "It's been called off: no team lunch this Friday.",
    )[0]
    assert "reversal" not in both


def test_too_many_is_no_addition_and_a_purchase_ends_a_tenancy():
    features = compare(
        "User dropped out of the choir in spring, too many clashes with travel.",
        "User sings tenor in the choir.",
    )["features"]
    assert not features["additive_cue"] and features["reversal"]
    features = compare(
        "They bought the two-bed flat in Clapham from the landlord.",
        "User rents a two-bedroom flat in Clapham.",
    )["features"]
    assert features["category_swap"]


def test_the_writers_own_relative_opening_a_text_is_another_subject():
    signals, evidence = _signals(
        "User works at Google as an SRE.",
        "User: my brother just started at Google as an SRE!",
    )
    assert "relative_opening" in signals
    assert any(e["detail"] == "my brother" for e in evidence)
    signals, _ = _signals(
        "User's line manager is Rafael Ortiz.",
        "Had my 1:1 with my manager Beatrice this morning.",
    )
    assert "relative_opening" not in signals


def test_a_lifted_freeze_reverses_it_and_the_users_other_relative_is_another_person():
    signals, _ = _signals(
        "The Friday deploy freeze is in effect for the web team.",
        "Web team: Friday deploy freeze lifted this quarter.",
    )
    assert "reversal" in signals
    signals, _ = _signals(
        "The user's daughter plays the violin on Thursdays.",
        "The user's niece plays the violin on Thursdays.",
    )
    assert "kin_swap" in signals


def test_a_claim_denying_what_the_other_states_flips_though_both_deny_something():
    signals, evidence = _signals(
        "Ella is vegetarian — no meat in packed lunches.", "Ella is not vegetarian any more."
    )
    assert "negation_flip" in signals
    assert any(e["detail"] == "negated: vegetarian" for e in evidence)
    # the denied thing is the other claim's subject: the same rule in other words
    signals, _ = _signals("No dogs in the rooms, sorry.", "Dogs aren't allowed in the rooms.")
    assert "negation_flip" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming", "detail"),
    [
        ("KX-204 CRO: Parexel.", "IQVIA is the CRO running KX-204.", "cro: Parexel → IQVIA"),
        (
            "Head chef at the Linden House: Tomás Alvarez.",
            "User said Ines Duarte has taken over as head chef.",
            "chef head: Tomás Alvarez → Ines Duarte",
        ),
        (
            "Managing agent for 9 Percy Road: Foxtons.",
            "Savills is the managing agent for 9 Percy Road.",
            "agent managing: Foxtons → Savills",
        ),
    ],
)
def test_a_role_filled_by_another_name_in_another_form_is_a_changed_filler(
    existing, incoming, detail
):
    signals, evidence = _signals(existing, incoming)
    assert "slot_filler_changed" in signals
    assert any(e["signal"] == "slot_filler_changed" and e["detail"] == detail for e in evidence)


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        # the same filler
        ("Accountant: Sarah Chen.", "Sarah Chen is our accountant and files the VAT returns."),
        # the role of another house
        (
            "Head chef at the Linden House: Tomás Alvarez.",
            "Ines Duarte is the head chef at the Harbour Lodge.",
        ),
        # a state, not a role
        ("Status: Approved.", "Pending is the status we expect."),
    ],
)
def test_a_role_kept_or_of_another_holder_is_no_changed_filler(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "slot_filler_changed" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Room 3 is a double (one king-size bed).", "Room 3 is set up as a twin, two single beds."),
        (
            "The Bristol show is a stripped-back acoustic set.",
            "The Bristol show will be a full electric show with the whole band.",
        ),
    ],
)
def test_another_room_make_up_or_way_of_playing_is_an_opposite(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "opposite" in signals


@pytest.mark.parametrize(
    ("existing", "incoming", "changed"),
    [
        (
            "The cleaner comes on Wednesdays, 9–12.",
            "The cleaner's Wednesday hours: 10 am to 1 pm.",
            True,
        ),
        (
            "Osteria Lume Sunday brunch runs 11:00–15:00.",
            "Lume's Sunday brunch (11 till 3).",
            False,
        ),
        ("Study KX-204 Phase II ends at week 24.", "KX-204 (phase 2) ends after 24 weeks.", False),
        ("Monthly broadband bill: £34.99.", "User says broadband costs us 39.99 a month.", True),
        (
            "Hot water cylinder holds 180 litres.",
            "Our hot water tank is 40 gallons (imperial).",
            False,
        ),
        ("Slurry lagoon capacity: 2.5 million litres.", "The slurry lagoon holds 2,500 m³.", False),
    ],
)
def test_hours_numerals_prices_and_volumes_compare_in_any_notation(existing, incoming, changed):
    signals, _ = _signals(existing, incoming)
    assert bool(signals & {"value_changed", "text_value_changed"}) is changed
    if not changed:
        assert "value_restated" in signals


def test_the_same_name_with_another_kind_of_place_is_another_place():
    signals, evidence = _signals(
        "Mill Road resurfacing starts 12 April 2027; road closed 3 weeks.",
        "Mill Lane resurfacing starts in April 2027 too; road closed 3 weeks.",
    )
    assert "place_kind_swap" in signals
    assert any(e["detail"] == "Mill Road / Mill Lane" for e in evidence)
    signals, _ = _signals("Roadworks on Mill Rd this week.", "Mill Road roadworks run all week.")
    assert "place_kind_swap" not in signals


def test_a_three_letter_code_stands_for_the_place_it_begins():
    signals, _ = _signals(
        "Latency SLA Frankfurt–London: under 12 ms one-way.",
        "FRA–LON one-way latency SLA: < 0.015 s.",
    )
    assert "name_swap" not in signals
    assert "value_changed" in signals


def test_a_check_that_passed_and_then_failed_is_an_opposite():
    signals, _ = _signals("12V battery: tested good.", "The 12V battery failed its load test.")
    assert "opposite" in signals


def test_a_tender_opened_and_under_review_then_closed_moved_forward():
    signals, _ = _signals(
        "The tender opened on 3 May and bids are under review.",
        "The tender has closed and the contract is awarded.",
    )
    assert "opposite" not in signals
    signals, _ = _signals("The pool is open every day.", "The pool is closed on Mondays.")
    assert "opposite" in signals


@pytest.mark.parametrize(
    ("existing", "incoming", "detail"),
    [
        (
            "G-EZTK (A320neo): A-check due at 600 FH, currently at 540 FH.",
            "G-EZTH (A320neo): A-check due at 600 FH, currently at 580 FH.",
            "G-EZTK → G-EZTH",
        ),
        (
            "Harvest 2027 — Long Acre winter wheat: combined 14 August, 9.1 t/ha.",
            "Harvest 2026 — Long Acre winter wheat: combined 20 August, 8.4 t/ha.",
            "2027 → 2026",
        ),
    ],
)
def test_another_registration_or_another_years_record_is_another_identifier(
    existing, incoming, detail
):
    signals, evidence = _signals(existing, incoming)
    assert "identifier_swap" in signals
    assert any(e["signal"] == "identifier_swap" and e["detail"] == detail for e in evidence)


def test_a_year_in_a_sentence_or_a_date_is_no_identifier():
    signals, _ = _signals("Caroline moved to Boston in 2019.", "Caroline moved to Boston in 2021.")
    assert "identifier_swap" not in signals
    signals, _ = _signals(
        "Gig — York, 14 Oct 2027: doors 19:00", "Gig — York, 14 Oct 2026: doors 19:30"
    )
    assert "identifier_swap" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Year 9 geography fieldtrip: 3 May 2027.",
            "The Y9 geography fieldtrip is now 10 May 2027.",
        ),
        ("Flat 4 at 12 Harbour Street: rent £950.", "Harbour St no.12 flat 4 rent is £995."),
        ("Sunday opening: 10–4.", "Sun opening is 11:00 to 16:00."),
    ],
)
def test_a_numbered_thing_a_street_or_a_day_written_short_is_the_same_subject(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "subject_marker_swap" not in signals
    assert "qualifier_swap" not in signals
    assert signals & {"value_changed", "value_anchor_changed"}


def test_another_house_number_in_one_street_is_another_identifier():
    signals, evidence = _signals(
        "Viewing at 8 Linden Crescent on Friday, asking £410k.",
        "Viewing at 10 Linden Crescent on Friday, asking £445k.",
    )
    assert "identifier_swap" in signals
    signals, _ = _signals(
        "8 Linden Crescent: asking £410k.", "Linden Cres (no.8) is asking £425k now."
    )
    assert "identifier_swap" not in signals
    assert "identifier_same" in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Omar is an in-house designer.", "Omar designs for us on a freelance basis."),
        ("The follow-up is done face to face.", "The follow-up happens over video now."),
        ("Her pension is a final salary scheme.", "Her pension is a money purchase scheme."),
        ("The pool car is a Ford Focus hatchback.", "The pool car is a Ford Focus estate."),
        ("The study is double blind.", "The study is open-label."),
        ("Rent is paid by direct debit.", "Rent is paid in cash."),
    ],
)
def test_another_class_of_one_kind_written_in_two_words_is_an_opposite(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "opposite" in signals


def test_a_role_named_first_or_by_its_initials_is_the_same_role():
    signals, evidence = _signals(
        "Data Protection Officer: Ms Ferreira.", "Our DPO is Mr Haddad since the spring."
    )
    assert "slot_filler_changed" in signals
    signals, _ = _signals(
        "The frontend tech lead is Karin Berg.", "The backend tech lead is Oskar Lund."
    )
    assert "slot_filler_changed" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("The depot operates on bank holidays.", "The depot is closed on bank holidays."),
        ("Priya works full time on the rota.", "Priya works part time on the rota."),
        ("The café is invoiced monthly.", "The café pays by card on each delivery."),
        ("The feed runs as a continuous drip.", "The feed is given as intermittent boluses."),
    ],
)
def test_opposites_and_classes_written_with_a_hyphen_or_a_space_are_found(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "opposite" in signals


def test_another_of_a_numbered_or_lettered_series_in_a_title_is_another_record():
    signals, evidence = _signals(
        "Sprint 14 demo: Thursday 2pm, room Atlas.", "Sprint 15 demo: Thursday 2pm, room Atlas."
    )
    assert "identifier_swap" in signals
    signals, _ = _signals("Bay 4 pallet audit — 80% done.", "Bay 4 — the pallet audit is 90% done.")
    assert "identifier_swap" not in signals
    assert "identifier_same" in signals


def test_no_more_than_a_bound_is_no_negation():
    signals, _ = _signals(
        "Replies should be no longer than three sentences.", "Replies: three sentences at most."
    )
    assert "negation_flip" not in signals
    signals, _ = _signals("Ola eats meat.", "Ola no longer eats meat.")
    assert "negation_flip" in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Amir is a PhD student in the lab.", "Amir — postdoctoral researcher, same lab."),
        ("INC-2291 is classified as a phishing incident.", "INC-2291 category: ransomware"),
        ("Cuvée Lise is a red blend.", "Cuvée Lise — a rosé."),
        (  # what a thing is published, sold or organised as
            "The Harbour Fête is run as a ticketed event.",
            "The Harbour Fête is organised as a free community day.",
        ),
        ("Night Shift is a print magazine.", "Night Shift is published as an email newsletter."),
    ],
)
def test_a_subject_said_to_be_another_kind_of_thing_is_a_replaced_description(existing, incoming):
    signals, evidence = _signals(existing, incoming)
    assert "description_replaced" in signals
    assert any(e["signal"] == "description_replaced" for e in evidence)


def test_an_amount_or_a_count_is_no_description():
    signals, _ = _signals("The van's payload is 1.5 tonnes.", "The van's payload is 1,500 kg.")
    assert "description_replaced" not in signals


def test_a_key_naming_another_thing_of_one_attribute_is_another_subject():
    signals, evidence = _signals(
        "Project Lantern base game price: $24.99.", "Project Lantern soundtrack DLC price: $6.99."
    )
    assert "key_subject_swap" in signals
    # a word added that names nothing, or a clock time's colon, is no other subject
    signals, _ = _signals("Halvorsen tour budget: €1.2 million.", "Tour total budget: EUR 1.15M.")
    assert "key_subject_swap" not in signals
    signals, _ = _signals("Aiko's flight lands at 6:45 PM JST.", "Aiko arrives at 18:45 (JST).")
    assert "key_subject_swap" not in signals


def test_switched_on_and_off_are_opposites():
    signals, _ = _signals(
        "The tinnitus masker is switched on in the user's hearing aids.",
        "The audiologist turned the tinnitus masker off on the user's hearing aids.",
    )
    assert "opposite" in signals


def test_a_body_referred_to_by_its_kind_is_no_other_subject():
    signals, _ = _signals(
        "WVBA secretary: Gwen Tillotson.", "The association's secretary is Harold Pike."
    )
    assert "qualifier_swap" not in signals


def test_a_count_of_people_or_a_short_year_is_no_subject_marker():
    signals, _ = _signals(
        "92 musicians travel on the autumn tour.", "88 players on the autumn tour."
    )
    assert "subject_marker_swap" not in signals
    signals, _ = _signals(
        "Lismore ferry, summer 2025: six sailings a day.", "Lismore ferry, summer '25: 6 a day."
    )
    assert "subject_marker_swap" not in signals


def test_plus_a_tax_and_any_more_are_no_additions():
    signals, _ = _signals(
        "Commission on 14 Marlowe Road: 1.5% + VAT.", "Marlowe Rd fee agreed at 1.2% plus VAT."
    )
    assert "additive_cue" not in signals
    signals, _ = _signals(
        "Mrs Patel prefers to be contacted by phone.",
        "Mrs Patel: email only please, she doesn't want phone calls any more.",
    )
    assert "additive_cue" not in signals
    assert "preference_flip" in signals


def test_a_bound_after_a_preference_sets_no_second_choice():
    signals, _ = _signals(
        "User prefers case summaries as bullet points, no longer than one page.",
        "Keep case summaries to a single bulleted page; that's the format they like.",
    )
    assert "preference_flip" not in signals


def test_a_numbered_place_named_before_anything_is_said_of_it_is_which_thing():
    signals, _ = _signals(
        "The belt loader at Stand 14 needs its hydraulic hose replaced.",
        "Stand 15's belt loader needs a new hydraulic hose.",
    )
    assert "identifier_swap" in signals
    # said of the thing, a numbered place is a value ("leaves from Gate 5" / "Gate 7")
    signals, _ = _signals(
        "The tour bus leaves from Gate 5.", "The tour bus now leaves from Gate 7."
    )
    assert "identifier_swap" not in signals


def test_a_compound_adjective_is_read_as_words_not_as_a_code_name():
    signals, _ = _signals(
        "The new pushback tug is diesel-powered.", "New pushback tug runs on batteries — electric."
    )
    assert "opposite" in signals


def test_a_street_or_a_common_word_written_short_is_the_same_subject():
    signals, _ = _signals(
        "Elm Street Community Garden's compost bay is a hot-composting system.",
        "The Elm St compost bay is a wormery.",
    )
    assert "subject_swap" not in signals
    assert "description_replaced" in signals
    signals, _ = _signals(
        "The production database is hosted in eu-west-1.", "prod DB lives in eu-central-1."
    )
    assert "name_swap" in signals


def test_a_title_written_otherwise_is_no_other_name():
    signals, _ = _signals(
        "The client for the Larch House project is Mrs Okafor.",
        "Larch House: commissioned by Ms. Okafor.",
    )
    assert "name_swap" not in signals
    signals, _ = _signals(
        "The client for the Larch House project is Mrs Okafor.", "Larch House client: Mr Dube."
    )
    assert "name_swap" in signals


@pytest.mark.parametrize(
    "existing, incoming",
    [
        ("Dogs are welcome on the ferry.", "Dogs are banned on the ferry."),
        ("Parking at the manor is free for guests.", "The manor will charge guests for parking."),
        ("The tasting room is wheelchair accessible.", "The tasting room has step-only access."),
        ("Route 7 serves the hospital.", "Route 7 bypasses the hospital."),
        (
            "Planning permission for the extension was granted.",
            "The council refused the extension.",
        ),
        ("Ms Obi prefers her Year 11 classes in the morning.", "Ms Obi wants Year 11 afternoons."),
    ],
)
def test_opposite_words_of_access_price_and_service(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "opposite" in signals


def test_a_numbered_label_named_in_one_note_is_read_in_lower_case_in_the_other():
    signals, _ = _signals(
        "Leg 1 of cruise AU-19 ends in Reykjavik.", "AU-19 leg 2 finishes in Nuuk."
    )
    assert "identifier_swap" in signals
    signals, _ = _signals(
        "The tenant of Flat 3A at Linden Court is Mr Owusu.",
        "Flat 3C, Linden Court — tenant is Mrs Kowalski.",
    )
    assert "identifier_swap" in signals
    signals, _ = _signals(
        "Act 1 of 'Harvest Moon' runs 55 minutes.", "Harvest Moon, Act 2: 40 minutes."
    )
    assert "identifier_swap" in signals


def test_a_role_named_inline_or_said_to_be_a_name_is_a_slot_filled():
    signals, _ = _signals(
        "Claim summary: policyholder Mrs J. Okoro, kitchen fire on 2 Feb 2026, handler Ben "
        "Marsh, reserve set at £18,000.",
        "Okoro kitchen fire (02/02/2026): reserve £18k. Handler on the file is Claire Dunn.",
    )
    assert "slot_filler_changed" in signals
    signals, _ = _signals(
        "Claim summary: policyholder Mrs J. Okoro, handler Ben Marsh, reserve £18,000.",
        "Okoro claim: reserve £18k. Handler on the file is still Ben Marsh.",
    )
    assert "slot_filler_changed" not in signals


@pytest.mark.parametrize(
    "existing, incoming",
    [
        ("Breakfast is included in the room rate.", "Breakfast is extra, £12 per person."),
        ("The goat cheese is made from pasteurised milk.", "The goat cheese is a raw-milk cheese."),
    ],
)
def test_included_and_extra_pasteurised_and_raw_are_other_values(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "opposite" in signals


def test_an_identifier_the_parser_reads_as_a_placeholder_keeps_its_own_words():
    (first,) = claims("The orders-api runs on eu-west-1.")
    (second,) = claims("The billing-api runs on eu-west-1.")
    assert "orders-api" in first.words and "billing-api" in second.words
    assert first.words != second.words


def test_refusing_to_do_a_thing_negates_it():
    features = compare(
        "Kite refuses to travel to the May LAN in Berlin.",
        "Kite will attend the Berlin LAN in May.",
    )["features"]
    assert features["negation_flip"] == 1.0


def test_a_thing_fixed_is_no_longer_there():
    features = compare(
        "Saves in slot 3 no longer crash on load.", "Fixed a crash when loading save slot 3."
    )["features"]
    assert features["negation_flip"] == 0.0 and features["negated_opposite"] == 1.0


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Ms. Ferreira likes live piano for her classes.", "Ferreira prefers recorded music."),
        (
            "Crews reach Skerra on the 07:00 ferry from the harbour.",
            "Crews now drive across the Skerra bridge.",
        ),
    ],
)
def test_another_way_of_hearing_or_travelling_is_an_opposite(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert "opposite" in signals


def test_a_text_that_says_it_is_about_another_thing_has_a_distinct_cue():
    features = compare(
        "Hartley's Deli (a separate business from the café) orders 20 loaves Tue/Thu.",
        "Hartley's Café standing order: 40 sourdough loaves Mon/Wed/Fri.",
    )["features"]
    assert features["distinct_cue"] == 1.0
    features = compare("Raw chicken is kept separate from salads.", "Chicken goes on shelf 2.")[
        "features"
    ]
    assert features["distinct_cue"] == 0.0


def test_two_clauses_with_their_own_subjects_are_two_claims():
    found = claims("Linen arrives at 10:30, and the supervisor does the round at 3pm.")
    assert [c.text for c in found] == [
        "Linen arrives at 10:30",
        "the supervisor does the round at 3pm",
    ]
    # one subject doing two things stays one claim
    assert len(claims("The shop opens at 9, and closes at 5.")) == 1


def test_what_a_claim_said_of_its_subject_gone_for_something_else_is_measured():
    replaced = compare(
        "Coastline's 15 is operated with minibuses.",
        "Coastline Buses route 15 is run with double-deckers.",
    )["features"]
    added = compare(
        "Tomás (reptile house lead) has also completed venomous-snake handling training.",
        "Keeper Tomás is in charge of the reptile house.",
    )["features"]
    assert replaced["predicate_gone"] == 1.0
    assert added["predicate_gone"] < 0.5
    # nothing of its own said instead: no measure
    same = compare("Route 15 uses double-deckers.", "Route 15 is run with double-deckers.")
    assert same["features"]["predicate_gone"] == 0.0


def test_what_is_read_of_a_text_is_kept_with_its_parse_and_read_back_alone():
    import pickle

    from consolidation import claims as claims_module
    from memoryhub import nlp

    text = "Payments API\n- Owner: Maria Lopez\n- Budget: $120,000 for 2025\n- Runs on Postgres 15"
    nlp.forget_parses()
    claims_module.forget_spellings()
    nlp.parse(text)
    claims_module.read_ahead(text)
    read = claims(text)
    blob = nlp.stored_form(text)
    nlp.forget_parses()
    claims.cache_clear()
    claims_module.forget_spellings()
    assert nlp.remember_stored(text, blob)
    assert claims_module.has_kept_readings(text)
    assert claims(text) == read
    assert compare(text, text.replace("$120,000", "$150,000"))["features"]["value_changed"] > 0

    # only this module's readings unpickle: anything else in a kept form is refused
    claims_module.forget_spellings()
    with pytest.raises(pickle.UnpicklingError):
        claims_module._restore_readings(text, pickle.dumps((print, 1, 2, 3, 4)))
    assert not claims_module.has_kept_readings(text)


@pytest.mark.parametrize(
    ("existing", "incoming", "word"),
    [
        (
            "The east car park is open to visitors.",
            "The east car park is shut for resurfacing.",
            "shut",
        ),
        (
            "The pool runs lane swimming on Sunday mornings.",
            "Sunday morning lane swimming at the pool has been discontinued.",
            "discontinued",
        ),
        (
            "Guests may bring their own wine to the terrace.",
            "Own wine on the terrace: prohibited.",
            "prohibited",
        ),
    ],
)
def test_a_claim_put_in_the_negative_without_a_not_is_a_polarity_gap(existing, incoming, word):
    signals, evidence = _signals(existing, incoming)
    assert "polarity_gap" in signals
    gap = [e for e in evidence if e["signal"] == "polarity_gap"]
    assert gap and word in gap[0]["detail"] and gap[0]["incoming"] and gap[0]["existing"]


def test_a_participle_naming_what_a_thing_is_puts_no_claim_in_the_negative():
    signals, _ = _signals(
        "Refund for the cancelled Lisbon hotel is pending with the booking site.",
        "The booking site approved the Lisbon hotel refund.",
    )
    assert "polarity_gap" not in signals
    signals, _ = _signals(
        "The Lisbon hotel booking is confirmed.", "The Lisbon hotel booking was cancelled."
    )
    assert "polarity_gap" in signals


def test_two_claims_both_in_the_negative_are_no_polarity_gap():
    signals, _ = _signals(
        "Parking permits are suspended on match days.",
        "On match days parking permits are not issued.",
    )
    assert "polarity_gap" not in signals


def test_a_region_replaced_is_read_however_each_text_states_it():
    card = "## payments-gateway\n- Owner: Team Kestrel\n- Region: eu-central-1 (Frankfurt)"
    prose = "Team Kestrel owns payments-gateway; it is deployed in eu-west-1 (Ireland)."
    found = compare(prose, card)
    assert found["features"]["region_replaced"] == 1.0
    assert any(e["signal"] == "region_replaced" for e in found["evidence"])
    assert (
        compare(prose.replace("eu-west-1", "eu-central-1"), card)["features"]["region_replaced"]
        == 0.0
    )
    added = "payments-gateway now also runs in eu-west-1, beside Frankfurt."
    assert compare(added, card)["features"]["region_replaced"] == 0.0


def test_a_port_said_after_its_noun_is_compared_with_a_port_field():
    config = "[database]\nhost = db.internal.corp\nport = 5432\npool_size = 20"
    prose = "The service connects to db.internal.corp, port 5433, with a pool of 20."
    found = compare(prose, config)
    assert found["features"]["value_anchor_changed"] == 1.0
    assert any("5432 → 5433" in e["detail"] for e in found["evidence"])


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        ("Marta is vegan.", "Marta had a bacon sandwich at the café."),
        ("The user is vegetarian.", "User orders the beef pho every Friday."),
        ("Jonas is teetotal.", "Jonas had a beer after the match."),
    ],
)
def test_a_diet_or_an_abstention_and_what_it_rules_out_are_opposed(existing, incoming):
    assert "opposite" in _signals(existing, incoming)[0]


def test_a_diet_restated_by_what_it_rules_out_is_no_opposite():
    assert "opposite" not in _signals("Noor is vegetarian.", "Noor doesn't eat meat or fish.")[0]


@pytest.mark.parametrize(
    ("existing", "incoming", "changed"),
    [
        (
            "Priya — topic: transporters; supervisor: Prof. Halvorsen; expected submission: 2027.",
            "Priya is writing up on transporters under Prof. Halvorsen, submitting in 2028.",
            True,
        ),
        (
            "Priya — topic: transporters; supervisor: Prof. Halvorsen; expected submission: 2027.",
            "Priya is writing up on transporters under Prof. Halvorsen, submitting in 2027.",
            False,
        ),
    ],
)
def test_a_lone_number_under_a_key_compares_with_a_lone_bare_one(existing, incoming, changed):
    features = compare(incoming, existing)["features"]
    assert bool(features["value_changed"] or features["text_value_changed"]) is changed


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Intermodal trains on the Harwick branch are limited to 775 metres in length.",
            "Reminder: no intermodal consist longer than 0.775 km is allowed on the branch.",
        ),
        ("Uploads to the portal are capped at 10 MB.", "Portal uploads must not exceed 10 MB."),
    ],
)
def test_a_bound_said_with_not_restates_a_limit(existing, incoming):
    features = compare(incoming, existing)["features"]
    assert features["negation_flip"] == 0.0 and features["negated_opposite"] == 1.0


def test_a_test_result_turned_over_and_a_reading_changed_are_signals():
    features = compare(
        "Millbrook's August varroa screen was negative.",
        "The August varroa screening at Millbrook came back positive.",
    )["features"]
    assert features["opposite"] == 1.0
    features = compare(
        "The GP recorded 135/90 for Dad at the 3 March check-up.",
        "Dad's blood pressure at his 3 March GP check: 140/90.",
    )["features"]
    assert features["value_changed"] + features["sole_value_changed"] >= 1.0


def test_a_setting_written_key_equals_value_is_a_field():
    features = compare(
        "ledger-api deploy settings:\n- 4 replicas\n- LOG_LEVEL=debug",
        "### Deploy config (ledger-api)\n- replicas: 4\n- LOG_LEVEL=info",
    )["features"]
    assert features["field_changed"] == 1.0


def test_a_one_way_ticket_against_a_round_trip_is_another_kind():
    features = compare(
        "Clara's Lisbon–Porto ticket for 14 March is a round trip.",
        "Booked Aunt Clara a one-way ticket Lisbon → Porto on 14 March.",
    )["features"]
    assert features["opposite"] == 1.0, features


def test_a_word_against_its_negative_is_an_opposite_unless_the_word_is_negated():
    features = compare(
        "Heads-up: the pipeline metadata DB backups are sitting in the bucket unencrypted.",
        "Nightly backups of the pipeline metadata DB are encrypted at rest.",
    )["features"]
    assert features["opposite"] == 1.0  # the lemmas are cut apart: "encrypt" / "unencrypte"
    features = compare(
        "Red status → find the shards that aren't assigned.",
        "If the cluster is red, identify unassigned shards.",
    )["features"]
    assert features["opposite"] == 0.0


def test_a_value_under_a_key_compares_with_one_beside_the_same_word_in_prose():
    features = compare(
        "- Block C (Hollins)\n  - variety: Gala\n  - planted: 2016\n  - area: 1.2 ha",
        "Block C at Hollins — Gala on M9 rootstock, planted 2014, 1.2 ha, drip irrigated.",
    )["features"]
    assert features["value_anchor_changed"] == 1.0


def test_a_dash_before_a_clause_of_its_own_cuts_two_claims():
    said = claims("reports-v1 is NOT deprecated — the deprecation notice was rolled back.")
    assert [c.text for c in said] == [
        "reports-v1 is NOT deprecated",
        "the deprecation notice was rolled back",
    ]
    assert len(claims("The café — open since 2019 — serves breakfast until 10am.")) == 1


def test_a_claim_parsed_without_a_subject_is_about_the_words_up_to_its_head_noun():
    features = compare(
        "Spring intake applications close on 30 November.",
        "Autumn intake applications close on 31 July.",
    )["features"]
    assert features["subject_kind_swap"] == 1.0


def test_a_thing_narrowed_by_other_words_is_another_kind_and_a_label_is_no_speaker():
    changed = compare(
        "Rosa's retirement account is a Roth IRA.",
        "Rosa's retirement savings are in a traditional IRA.",
    )
    assert changed["features"]["modifier_swap"] == 1.0
    assert any(e["signal"] == "modifier_swap" for e in changed["evidence"])
    narrowed = compare(
        "We publish order events to a FIFO SQS queue.", "Order events go through an SQS queue."
    )
    assert narrowed["features"]["modifier_swap"] == 0.0  # a word added narrows it further
    # "Fenland Courier:" opening a note alone labels what it is about, not who speaks
    labelled = compare(
        "Fenland Courier: free weekly distributed door to door.",
        "The Fenland Courier is a paid-for weekly.",
    )["features"]
    assert labelled["subject_overlap"] == 1.0


def test_a_setting_said_to_be_on_against_off_is_an_opposite_but_a_day_is_no_setting():
    flipped = compare(
        "Auto-renew is on for the domain northwind-labs.io.",
        "Auto-renew for northwind-labs.io is off; it will expire unless renewed by hand.",
    )
    assert flipped["features"]["opposite"] == 1.0
    days = compare(
        "Dr. Ngata's lab meeting is on Tuesdays at 10:00.",
        "Dr. Ngata's lab meeting is on Tuesdays at 10:00 in room 4.",
    )
    assert days["features"]["opposite"] == 0.0


def test_a_kind_named_only_as_given_up_is_replaced():
    swapped = compare(
        "inventory-svc API is gRPC; there's no REST endpoint any more.",
        "The inventory service exposes a REST API at /v2/items.",
    )["features"]
    assert swapped["category_swap"] == 1.0
    kept = compare(
        "The inventory service's REST API lives at /v2/items.",
        "The inventory service exposes a REST API at /v2/items.",
    )["features"]
    assert kept["category_swap"] == 0.0 and kept["category_same"] == 1.0


def test_a_figure_s_unit_is_no_system_of_measurement_but_a_stated_system_is():
    converted = compare(
        "Aisha's usual reservoir loop is about 3.1 miles.",
        "Aisha's daily running route is 5 kilometres around the reservoir.",
    )["features"]
    assert converted["category_swap"] == 0.0
    assert converted["value_restated"] == 1.0
    switched = compare(
        "The fitness app now shows distances in imperial.",
        "The fitness app shows distances in metric.",
    )["features"]
    assert switched["category_swap"] == 1.0


def test_a_short_form_of_a_common_word_states_it():
    compared = compare(
        "prod ES cluster region = us-west-2.",
        "The production Elasticsearch cluster runs in us-east-2.",
    )
    assert compared["features"]["subject_marker_swap"] == 0.0
    assert compared["features"]["region_replaced"] == 1.0


def test_a_step_only_intended_is_no_status_reached():
    features = compare(
        "Chidi's promotion packet for senior engineer is submitted.",
        "Chidi is planning to apply for the senior engineer promotion this cycle.",
    )["features"]
    assert features["status_back"] == 0.0


def test_a_people_s_word_states_their_country():
    features = compare(
        "Siobhan submitted her Canadian visa application on Thursday.",
        "Siobhan's visa application for Canada is planned.",
    )["features"]
    assert features["name_swap"] == 0.0


def test_a_note_s_own_day_and_a_code_written_without_its_space_mark_no_other_subject():
    dated = compare(
        "Note from Mon 8 Sep 2025: the quarterly tax payment is due this Friday.",
        "Quarterly tax payment due 15 September 2025.",
    )["features"]
    assert dated["subject_marker_swap"] == 0.0 and dated["value_changed"] == 1.0
    code = compare(
        "Final freight invoice for MSKU4410297 came to $2,430.",
        "Freight quote for MSKU 4410297: USD 2,340.",
    )["features"]
    assert code["subject_marker_swap"] == 0.0 and code["value_changed"] == 1.0


def test_a_name_in_capitalised_parts_is_stated_by_its_initials():
    features = compare(
        "Allotment booking site — WP v6.4.3.",
        "The allotment society's booking site runs WordPress 6.4.3.",
    )["features"]
    assert features["name_swap"] == 0.0


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "The Route 9 bridge over the Kettle River is open to heavy goods vehicles.",
            "HGVs are barred from the Route 9 Kettle River bridge pending an inspection.",
        ),
        (
            "The Harlow Street plot is zoned residential.",
            "Harlow Street plot: zoning is commercial.",
        ),
        (
            "The 2019 Rioja in the cellar is a red.",
            "The 2019 Rioja we keep in the cellar is a rosado.",
        ),
    ],
)
def test_a_road_open_then_barred_and_land_or_wine_of_another_kind_are_changes(existing, incoming):
    signals, evidence = _signals(existing, incoming)
    assert "opposite" in signals or "category_swap" in signals, evidence


def test_an_ordinal_is_no_count_of_what_a_bare_number_counts():
    features = compare(
        "Rosalind's 70th — dinner on 07.12.2025 at Trattoria Lupo, table for 14.",
        "Aunt Rosalind's 70th birthday dinner: December 7, 2025.",
    )["features"]
    assert features["value_changed"] == 0.0 and features["count_changed"] == 0.0
    floor = compare("The studio moved to the 5th floor.", "The studio is on the 3rd floor.")
    assert floor["features"]["value_changed"] == 1.0


def test_under_10_is_stated_by_u10():
    features = compare(
        "Weekend U10 basketball coach: Olu.",
        "Olu coaches the under-10 basketball team on weekends.",
    )["features"]
    assert features["name_swap"] == 0.0


@pytest.mark.parametrize(
    "existing, incoming, signal",
    [
        (
            "Sasha has write access to the prod-metrics bucket.",
            "Sasha's write permission on prod-metrics was revoked Tuesday.",
            "reversal",
        ),
        (
            "Feature flag new_checkout is enabled for 100% of users.",
            "new_checkout got rolled back after the conversion dip.",
            "polarity_gap",
        ),
        (
            "Feature flag dark_mode is enabled for all users.",
            "dark_mode: false",
            "polarity_gap",
        ),
        ("Ravi attended the Q3 offsite in Goa.", "Ravi missed the Goa offsite in Q3.", "opposite"),
    ],
)
def test_a_right_revoked_a_flag_rolled_back_or_false_and_an_event_missed_reverse(
    existing, incoming, signal
):
    assert compare(incoming, existing)["features"][signal] == 1.0


def test_a_relative_word_that_says_less_is_no_other_relative():
    kid = compare("Noor, Ayla's kid, is six years old.", "Ayla's daughter is Noor, age 6.")
    assert kid["features"]["kin_swap"] == 0.0
    niece = compare("Noor is Ayla's niece.", "Ayla's daughter is Noor.")
    assert niece["features"]["kin_swap"] == 1.0


def test_a_field_changed_under_the_same_title_is_one_records_field():
    block = "```yaml\nservice: checkout\nreplicas: 4\nlog_level: {}\n```"
    signals, _ = _signals(block.format("info"), block.format("warn"))
    assert {"field_changed", "field_changed_titled"} <= signals
    signals, _ = _signals(
        "## eu-west cluster\n- nodes: 6\n- owner: infra",
        "## us-east cluster\n- nodes: 9\n- owner: infra",
    )
    assert "field_changed" in signals and "field_changed_titled" not in signals  # a sibling
    signals, _ = _signals("Favourite cuisine: Thai.", "Favourite cuisine: Ethiopian.")
    assert "field_changed_titled" in signals  # a text that is one field alone


def test_a_named_thing_said_to_be_undone_reverses_what_the_other_text_states_of_it():
    signals, evidence = _signals(
        "Feature flag `new_checkout_flow` is enabled for 100% of users in production.",
        "`new_checkout_flow` was rolled back in prod this morning.",
    )
    assert "reversal" in signals
    assert any(e["signal"] == "reversal" and "rolled back" in e["detail"] for e in evidence)
    signals, _ = _signals("Kestrel runs on Heroku.", "Kestrel was retired in May.")
    assert "reversal" in signals


def test_reordered_fields_with_an_identifier_value_change_nothing():
    lines = ["- Project: Atlas", "- Lead: Sara Nilsson", "- Stack: Go, Postgres"]
    repo = "- Repo: `git.internal/atlas`"
    existing = "\n".join([*lines, repo])
    incoming = "\n".join([lines[0], repo, *lines[1:]])
    features = compare(incoming, existing)["features"]
    assert features["changed_share"] == 0.0 and features["restated_share"] == 1.0


def test_a_number_that_labels_a_capitalised_noun_counts_nothing():
    signals, _ = _signals(
        "Priya's flight to Lisbon departs Thursday at 07:40 from Terminal 2.",
        "Priya's Lisbon flight, Thursday 07:40 out of T2, with one checked bag.",
    )
    assert "count_changed" not in signals
    signals, _ = _signals("The cluster runs 12 worker nodes.", "The cluster has 16 workers.")
    assert "count_changed" in signals or "value_changed" in signals
    signals, _ = _signals(  # a flight's number, a model year
        "Outbound: LH 1234 Munich to Madrid, departs 07:15.",
        "Return: LH 1243 Madrid to Munich, departs 17:15.",
    )
    assert "count_changed" not in signals
    signals, _ = _signals("My laptop is a 2020 MacBook Air.", "My laptop is a 2022 Dell XPS.")
    assert "count_changed" not in signals


@pytest.mark.parametrize(
    ("existing", "incoming"),
    [
        (
            "Amara works as a pediatric nurse at St. Brigid's Hospital.",
            "Amara is a paediatric nurse at St. Brigid's.",
        ),
        ("Membership renews with an annual fee.", "Membership renews with a yearly fee."),
        ("The Kraków developer conference is in June.", "The Kraków dev conference is in June."),
    ],
)
def test_another_spelling_or_a_clipped_word_is_no_other_kind(existing, incoming):
    signals, _ = _signals(existing, incoming)
    assert not signals & {"modifier_swap", "description_replaced", "qualifier_swap"}


def test_a_member_number_is_no_negation():
    signals, _ = _signals(
        "Health insurance: member number T-448120 with Techniker Krankenkasse.",
        "Techniker Krankenkasse, member no. T-448120.",
    )
    assert not signals & {"negation_flip", "polarity_gap"}
    signals, _ = _signals("Cookies: third-party allowed.", "No 3rd-party cookies allowed.")
    assert "polarity_gap" in signals


def test_a_status_the_text_moved_past_is_not_an_earlier_one():
    signals, _ = _signals(
        "Kitchen renovation at the Okonkwo house: contractor hired.",
        "Okonkwo kitchen reno update: cabinets are installed, now waiting on the countertops.",
    )
    assert "status_back" not in signals
    signals, _ = _signals("Stock count: done.", "Stock count: not started.")
    assert "status_back" in signals or "regressed" in signals


@pytest.mark.parametrize(
    ("existing", "incoming", "flipped"),
    [
        (
            "Feature flag new_checkout is enabled in production.",
            "flags:\n  new_checkout: false",
            True,
        ),
        (
            "Rate limiting on the public API is enabled in staging.",
            "staging.public_api.rate_limit.enabled = false",
            True,
        ),
        ("dark_mode: false", "Dark mode is now on for all users.", True),
        (
            "Feature flag new_checkout is enabled in production.",
            "flags:\n  new_checkout: true",
            False,
        ),
        ("Beta export is enabled.", "sso: false", False),  # another setting
    ],
)
def test_a_setting_written_as_a_key_and_said_in_words_flips(existing, incoming, flipped):
    result = compare(incoming, existing)
    assert (result["features"]["opposite"] == 1.0) is flipped


@pytest.mark.parametrize(
    ("existing", "incoming", "replaced"),
    [
        (
            "Kim prefers tea over coffee in the mornings.",
            "Kim's drink of choice is coffee now.",
            True,
        ),
        ("Giulia prefers working from the office.", "Giulia would rather work from home.", True),
        ("User prefers tea.", "User prefers tea, green if possible.", False),
        ("User likes hiking.", "User also enjoys kayaking.", False),  # one liking of several
    ],
)
def test_one_choice_for_another_is_a_choice_replaced(existing, incoming, replaced):
    assert (compare(incoming, existing)["features"]["choice_replaced"] == 1.0) is replaced


def test_a_vehicle_leaving_on_its_timetable_reverses_nothing():
    existing = "The shuttle from Terminal 2 to the Hilton runs every 20 minutes."
    assert "reversal" not in _signals(existing, "Hilton shuttle: leaves T2 three times an hour.")[0]
    assert "reversal" in _signals("Ana works at Veltrix.", "Ana left Veltrix in May.")[0]


def test_a_name_the_parser_hangs_on_the_verb_stays_in_the_subject():
    found = _signals(
        "The Lisbon office lease renews in March 2026 at €14,000 per month.",
        "The Porto office lease renews in March 2026 at €9,500 per month.",
    )[0]
    assert "qualifier_swap" in found or "subject_swap" in found


def test_a_thing_put_on_hold_or_halted_is_a_reversal():
    signals, _ = _signals("Site 07 is actively recruiting.", "Site 07: recruitment on hold.")
    assert "reversal" in signals
    signals, _ = _signals("The rollout of v2 continues.", "The v2 rollout was halted on Friday.")
    assert "reversal" in signals
