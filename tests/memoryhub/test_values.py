"""Values normalised across notations: the same value compares equal, another does not."""

import pytest

from memoryhub.values import find_values, same_value, stamp_spans


def _one(text, kind):
    found = [v for v in find_values(text) if v.kind == kind]
    assert found, (text, find_values(text))
    return found[0]


@pytest.mark.parametrize(
    ("kind", "a", "b"),
    [
        ("money", "The budget is $120,000.", "Budget: USD 120k"),
        ("money", "Rent is €950/month.", "rent of 950 euros per month"),
        ("money", "a 1.5 million dollar deal", "$1.5M deal"),
        ("duration", "p99 is 200 ms", "p99 is 0.2 s"),
        ("duration", "a two-week sprint", "14 days sprint"),
        ("size", "disk of 1.5 GB", "disk of 1536 MB"),
        ("percent", "40% off", "40 percent off"),
        ("date", "Launch on 2024-03-05", "launch on 5 March 2024"),
        ("date", "Launch on March 5th, 2024", "launch: 05/03/2024"),
        ("date", "due 3 June", "due on June 3rd, 2025"),
        ("time", "standup at 3pm CET", "standup at 15:00 CET"),
        ("version", "running v2.0.0-rc1", "on 2.0.0-rc1"),
        ("number", "three replicas", "3 replicas"),
        # a config key naming its unit
        ("size", "16 GB of RAM", "ram_gb: 16"),
        ("duration", "requests time out after 30 seconds", "timeout_seconds = 30"),
        ("duration", "cache entries live 24 hours", "cache_ttl_hours: 24"),
        ("duration", "retries 45 s apart", "retry:\n  delay_s: 45"),
        ("money", "a budget of €320,000", '"budget_eur": 320000'),
        # binary or decimal prefixes, one amount over two periods, cents
        ("size", "Max upload size: 25 MB", "MAX_UPLOAD_BYTES=25000000"),
        ("size", "a 2 TB disk", "a 2000 GB disk"),
        ("money", "rent of €1,500 per month", "€18,000 a year in rent"),
        ("money", "85 euro cents per order line", "€0.85 a line"),
        # fluid ounces, a cron schedule's hour, "twice"
        ("volume", "Bottle size per feed: 8 fl oz.", "about 237 ml per feed"),
        ("time", "cron for the nightly ETL: `0 3 * * *`", "the nightly ETL starts at 03:00"),
        ("frequency", "Rufus is walked twice a day.", "Rufus gets 2 walks a day"),
        # dates with the day in words, year first with slashes, dashes; times in words or
        # without a colon; pounds and ounces, feet and inches; one count under two nouns
        ("date", "the ceremony is on the twenty-first of August 2025", "ceremony: 21-08-2025"),
        ("date", "visa expires on 15 January 2027", "visa valid until 2027/01/15"),
        ("date", "due May 1st", "due May first"),
        ("time", "standup at 10:45", "standup at quarter to eleven"),
        ("time", "pickup at 21:30", "pickup at half past nine"),
        ("time", "meet at 09:30", "meet at 0930"),
        ("time", "the gate opens at 12:00", "the gate opens at noon"),
        ("time", "dinner at 7pm", "dinner at seven o'clock"),
        ("mass", "birth weight 3.4 kg", "birth weight 7 lb 8 oz"),
        ("length", "he is 178 cm tall", "he is 5 ft 10 in tall"),
        # a pressure in psi, bar or hectopascals
        ("pressure", "main gear tyres at 200 psi", "main gear tyres at 13.8 bar"),
        ("pressure", "sea-level pressure 1013 hPa", "1.013 bar at sea level"),
        ("number", "4 floors and 14 units", "four storeys"),
        ("number", "a class of 28 students", "28 pupils on the register"),
        ("version", "db-01 runs Debian 12.", "| db-01 | Debian 12 | 8 |"),
        ("percent", "checkout errors for ~12% of users", "12 percent of users could not pay"),
        # stones and pounds, US gallons, złoty, a time with a dot
        ("mass", "she weighed 11 stone 4 lb", "her weight: 158 lb"),
        ("volume", "the pond holds about 1,000 US gallons", "pond volume: roughly 3,785 litres"),
        ("money", "Quote: 1,200 zł for the move", "the move costs PLN 1,200"),
        ("time", "the meeting is at 16:15", "the meeting is at 4.15 pm"),
        ("time", "the clinic opens at 09:30", "Clinic opens 0930 on weekdays"),
        ("time", "last orders 22:30", "Last orders at 22.30"),
        # dozens, a temperature in Fahrenheit with a decimal, a count named by its key
        ("number", "the recipe yields 24 pieces", "the recipe makes two dozen"),
        ("number", "6 eggs", "half a dozen eggs"),
        ("temperature", "a fever above 38.5°C", "a fever above 101.3°F"),
        ("number", "gives up after 5 retries", "webhook_sender.max_retries = 5"),
        ("money", "annual value: $84k CAD", "Contract value: CAD 84,000"),
        # days of the week as a span
        ("days", "ships Monday through Friday", "ships Mon–Fri"),
        ("days", "open on weekdays", "open Monday to Friday"),
    ],
)
def test_one_value_in_two_notations_is_the_same(kind, a, b):
    assert same_value(_one(a, kind), _one(b, kind))


@pytest.mark.parametrize(
    ("kind", "a", "b"),
    [
        ("money", "The budget is $120,000.", "The budget is $130,000."),
        ("money", "€950/month", "€950/year"),
        ("duration", "200 ms", "2 s"),
        ("date", "Launch on 2024-03-05", "launch on 12 March 2024"),
        ("time", "3pm CET", "4pm CET"),
        ("version", "Python 3.11", "Python 3.12"),
        ("number", "12 worker nodes", "16 worker nodes"),
        ("money", "€1,500 per month", "€15,000 a year"),
        ("size", "a 25 MB limit", "a 30 MB limit"),
        ("time", "`0 3 * * *`", "starts at 01:00"),
        ("time", "standup at 09:45", "standup at quarter to eleven"),
        ("mass", "3.4 kg", "7 lb 2 oz"),
        ("date", "on the twenty-first of August 2025", "on 22-08-2025"),
        ("money", "1,200 zł", "1 650 zł"),
        ("temperature", "above 38°C", "above 101.5°F"),
        ("number", "two dozen rolls", "20 rolls"),
        ("days", "ships Mon–Fri", "ships Mon–Sat"),
        ("days", "open weekdays", "open weekends"),
    ],
)
def test_another_value_differs(kind, a, b):
    assert not same_value(_one(a, kind), _one(b, kind))


def test_a_relative_date_is_read_against_the_day_the_note_gives():
    values = find_values("Note from Mon 3 June 2024: the demo is next Tuesday.")
    dates = [v for v in values if v.kind == "date"]
    assert dates[0].key == (2024, 6, 3)
    # "next Tuesday" on a Monday: the next day, or the Tuesday of next week.
    assert {dates[1].key, *dates[1].alternatives} == {(2024, 6, 4), (2024, 6, 11)}
    tomorrow = [v for v in find_values("2024-06-03: review is tomorrow") if v.kind == "date"][1]
    assert tomorrow.key == (2024, 6, 4)


def test_a_weekday_of_this_or_next_week_is_read_against_the_note_day():
    def dates(text):
        return [v for v in find_values(text) if v.kind == "date"]

    # said on a Thursday: next week's Wednesday, this week's Wednesday
    assert dates("(note from Thu 8 May 2025) the offsite is next week, on the Wednesday")[
        1
    ].key == (2025, 5, 14)
    assert dates("Note written Monday 12 May 2025: it is this Wednesday")[1].key == (2025, 5, 14)
    assert dates("2025-05-08: Friday next week")[1].key == (2025, 5, 16)
    # "next Monday" said on a Monday is a week on, not two
    monday = dates("(note from Mon 1 Dec 2025) the freeze begins next Monday")[1]
    assert monday.key == (2025, 12, 8) and not monday.alternatives


def test_a_day_in_words_needs_a_month_written_as_one():
    assert not [v for v in find_values("you may first check the logs") if v.kind == "date"]


def test_an_ambiguous_slash_date_matches_both_readings_and_a_clear_one_only_its_own():
    ambiguous = _one("on 05/03/2024", "date")
    assert same_value(ambiguous, _one("5 March 2024", "date"))
    assert same_value(ambiguous, _one("May 3, 2024", "date"))
    clear = _one("on 25/03/2024", "date")
    assert clear.key == (2024, 3, 25) and not clear.alternatives


def test_decimals_with_units_are_not_versions():
    kinds = {v.kind for v in find_values("p99 0.2 s, disk 1.5 GB, 3.5x faster, Python 3.12")}
    assert kinds == {"duration", "size", "version"}


def test_a_number_after_a_technology_is_its_version_and_trailing_zeros_do_not_count():
    assert _one("We are still on React 17", "version").key == ("17",)
    assert same_value(_one("Postgres 15", "version"), _one("PostgreSQL 15.0", "version"))
    assert not same_value(_one("Python 3.11.4", "version"), _one("Python 3.11", "version"))


def test_a_number_before_the_final_period_and_a_percentage_there_are_read():
    assert _one("The pool holds 300.", "number").key == (300.0,)
    assert _one("The rollout reached 0.5%.", "percent").key == (0.5,)
    assert not [v for v in find_values("Uptime was 99.9%.") if v.kind == "version"]
    assert _one("We run Python 3.12.", "version").key == ("3.12",)


@pytest.mark.parametrize(
    "text",
    ["It takes an hour and a half.", "a one and a half hours drive", "about 90 minutes"],
)
def test_a_duration_with_a_half_is_read_whole(text):
    assert same_value(_one(text, "duration"), _one("1.5 hours", "duration"))


def test_half_an_hour_is_thirty_minutes():
    assert same_value(_one("half an hour", "duration"), _one("30 min", "duration"))


def test_every_quarter_of_an_hour_is_fifteen_minutes():
    fifteen = _one("every 15 minutes", "duration")
    assert same_value(_one("re-indexed every quarter of an hour", "duration"), fifteen)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The drive takes 2 h 30 min.", "about 150 minutes by car"),
        ("The crossing takes an hour and a quarter.", "a 75 min crossing"),
        ("episodes run three quarters of an hour", "episodes: 45 min"),
        ("polls every half a minute", "poll: every 30 s"),
    ],
)
def test_a_duration_of_two_units_or_a_fraction_is_read_whole(a, b):
    assert same_value(_one(a, "duration"), _one(b, "duration"))


def test_a_share_of_failures_compares_with_the_share_that_worked():
    assert same_value(
        _one("Our SLA promises 99.9% monthly uptime.", "percent"),
        _one("We allow at most 0.1 percent downtime.", "percent"),
    )
    assert not same_value(_one("uptime 99.9%", "percent"), _one("uptime 99.5%", "percent"))
    assert _one("Uptime 99.9% and error rate 0.5%.", "percent").key == (99.9,)


def test_thousands_grouped_by_spaces_are_one_amount():
    assert same_value(_one("The offsite budget is 1 200 EUR.", "money"), _one("€1.2k", "money"))


@pytest.mark.parametrize(
    ("kind", "a", "b"),
    [
        ("volume", "Drink 1.5 L of water a day.", "1,500 ml of water daily"),
        ("volume", "a 2 litre bottle", "2000 millilitres"),
        ("money", "Seed round: twelve million dollars.", "a $12M seed round"),
        ("money", "Per diem: S$150.", "per diem SGD 150"),
        ("number", "forty-two stalls at the market", "42 stalls"),
        ("number", "She lives on the 7th floor.", "her flat is on the seventh floor"),
        ("month", "Booster given in March 2021.", "booster: March, 2021"),
        ("money", "Council tax: £1,900 a year.", "council tax £1.9k/yr"),
        ("money", "a 15,000-dollar grant", "a $15k grant"),
        ("date", "Flying out the Thursday before.", "flight on Thursday 9 October"),
        ("date", "Pickup on Thursday.", "pickup 2025-10-09"),
        ("money", "Licence: 84.000,00 € a year.", "licence €84,000/yr"),
        ("money", "Deposit of 2.850 €", "deposit EUR 2,850"),
        ("money", "CHF 1'200 per month", "1,200 CHF a month"),
        ("number", "a pair of read replicas", "2 read replicas"),
    ],
)
def test_volumes_money_in_words_compound_numbers_ordinals_and_months_read_whole(kind, a, b):
    assert same_value(_one(a, kind), _one(b, kind))


@pytest.mark.parametrize(
    ("kind", "a", "b"),
    [
        ("volume", "fluids limited to 1.5 L a day", "fluids limited to 2,000 ml a day"),
        ("month", "last shot in March 2019", "last shot given in March 2021"),
        ("number", "the 4th floor", "the sixth floor"),
        ("money", "S$150", "S$180"),
        ("date", "Pickup on Friday.", "pickup 2025-10-09"),
    ],
)
def test_another_volume_month_position_or_amount_differs(kind, a, b):
    assert not same_value(_one(a, kind), _one(b, kind))


def test_a_number_under_a_key_without_a_unit_stays_a_count():
    assert [v.kind for v in find_values("max_retries = 3")] == ["number"]
    assert [v.kind for v in find_values("size_s: 3")] == ["number"]  # "_s" of a time only


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("max_retries = 3", "retry"),
        ("- **Replicas:** 3", "replica"),
        ("it gives up after 3 retries", "retry"),
        ("workers: 4 pods", "pod"),
    ],
)
def test_a_count_under_a_key_counts_what_the_key_names(text, unit):
    (value,) = find_values(text)
    assert value.kind == "number" and value.unit == unit


@pytest.mark.parametrize("text", ["us-east-1", "db-replica-3 is down", "INC-4412", "node-7a"])
def test_the_digits_of_a_hyphenated_name_are_no_count(text):
    assert find_values(text) == []


def test_a_year_after_a_dating_prefix_is_still_read():
    assert [v.key for v in find_values("a mid-2025 launch")] == [(2025.0,)]


def test_next_weekday_said_after_it_in_the_week_is_the_coming_one_only():
    monday = find_values("Wed 2025-11-05: code freeze begins next Monday.")[-1]
    assert monday.key == (2025, 11, 10) and monday.alternatives == ()
    friday = find_values("Note Mon 2025-11-03: demo next Friday.")[-1]
    assert friday.key == (2025, 11, 7) and friday.alternatives == ((2025, 11, 14),)


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("As of 1 Jan 2026, Priya has until the last day of this month.", (2026, 1, 31)),
        ("As of 2 April 2025, the invoice is due at the end of next month.", (2025, 5, 31)),
        ("Written 2024-12-10: pay by the end of the month.", (2024, 12, 31)),
        ("Written 2024-12-10: the review is at the start of next month.", (2025, 1, 1)),
        ("Note from 2024-01-20: the budget closed at the end of last month.", (2023, 12, 31)),
    ],
)
def test_the_end_or_start_of_a_month_counts_from_the_notes_day(text, day):
    assert find_values(text)[-1].key == day


def test_a_day_and_month_without_a_year_is_a_date_only_where_a_date_is_expected():
    day = _one("Mia goes back to school on 9/8.", "date")
    assert not same_value(day, _one("school starts September 2nd", "date"))
    assert same_value(day, _one("school starts September 8th", "date"))  # either order
    assert same_value(day, _one("school starts 9 August", "date"))
    assert [v.kind for v in find_values("Progress: 7/10 modules")] == ["pair"]  # a share


def test_a_weekday_beside_a_full_date_is_part_of_that_date():
    cut_off = [v for v in find_values("Migration cut-off: Friday 2025-03-07.") if v.kind == "date"]
    assert [v.key for v in cut_off] == [(2025, 3, 7)]
    moved = _one("it's 2025-03-14 now (also a Friday)", "date")
    assert not any(same_value(v, moved) for v in cut_off)
    assert [v.key for v in find_values("see you on Friday")] == [("weekday", 4)]


def test_a_weekday_apart_from_a_date_is_a_value_of_its_own():
    found = find_values("- Midterm: March 12\n- Office hours: Thursday 2-4pm")
    assert ("weekday", 3) in [v.key for v in found]
    found = find_values("Office hours Thursday; the exam is on 12 March 2026")
    assert [v.key for v in found if v.kind == "date"] == [("weekday", 3), (2026, 3, 12)]


def test_digits_of_a_code_are_no_numbers_and_a_part_counts_what_it_is_a_part_of():
    assert find_values("The padlock code is 4-1-7-9.") == []
    assert [v.kind for v in find_values("Go-live on 2024-06-03.")] == ["date"]
    (part,) = find_values("Naoko trained two of her stylists in it.")
    assert (part.key, part.unit) == ((2.0,), "stylist")
    (rate,) = find_values("- 60 req/min per key")  # a rate: how often, like "1 req/s"
    assert rate.kind == "frequency" and same_value(rate, find_values("1 request per second")[0])
    (counted,) = find_values("- 60 req in the queue")
    assert counted.unit == "request"


def test_kubernetes_quantities_short_months_and_counted_messages_compare():
    """ "512Mi" is 512 MiB, not miles; "13 mo" is 13 months; "msgs" count messages."""
    (size,) = find_values("limits: memory: 512Mi")
    assert size.kind == "size" and same_value(size, find_values("512 MiB")[0])
    (miles,) = find_values("a 5 mi walk")
    assert miles.kind == "length"
    assert same_value(find_values("Retention: 13 mo")[0], find_values("13 months")[0])
    assert same_value(find_values("500 msgs/sec")[0], find_values("500 messages a second")[0])


def test_a_note_dated_without_a_year_anchors_its_relative_days():
    """ "(Written on 1 February) ... tomorrow" is 2 February, of no year; a weekday counted
    from a day of unknown year stays unread."""
    values = find_values("(Written on 1 February) Lucía's birthday is tomorrow.")
    assert values[-1].text == "tomorrow" and values[-1].key == (None, 2, 2)
    assert same_value(values[-1], find_values("Lucía's birthday is on 2 February.")[0])
    assert [v.text for v in find_values("Dated 3 May: the demo is next Tuesday.")] == ["3 May"]
    assert find_values("The report is due 3 March. Meeting tomorrow.")[-1].text == "3 March."


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("capped at two hundred connections", 200),
        ("a hundred calls queued", 100),
        ("roughly a hundred and twenty guests", 120),
        ("fifteen hundred rows", 1500),
        ("a thousand requests", 1000),
        ("three thousand five hundred users", 3500),
    ],
)
def test_hundreds_and_thousands_in_words_are_one_number(text, number):
    (value,) = find_values(text)
    assert value.kind == "number" and value.key == (float(number),)
    assert same_value(value, find_values(f"{number} of them")[0])


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("(note from Mon 16 Mar 2026) Dentist on Thursday this week.", (2026, 3, 19)),
        ("As of Sat 6 Dec 2025, the dinner is exactly a fortnight away.", (2025, 12, 20)),
        ("Note from Thu 7 Nov 2024: the window is two weeks away.", (2024, 11, 21)),
    ],
)
def test_a_weekday_of_this_week_and_a_fortnight_away_count_from_the_notes_day(text, day):
    assert find_values(text)[-1].key == day


def test_a_day_month_and_year_with_dots_is_a_date_not_a_release():
    (value,) = find_values("Wojciech starts on 14.10.2024.")
    assert value.kind == "date" and value.key == (2024, 10, 14)
    assert find_values("numpy 1.26.4")[0].kind == "version"


def test_a_dose_in_milligrams_or_micrograms_is_a_mass():
    assert same_value(find_values("takes 5 mg of amlodipine")[0], find_values("amlodipine 5mg")[0])
    assert same_value(find_values("50 mcg")[0], find_values("0.05 mg")[0])
    assert same_value(find_values("50 µg")[0], find_values("50 μg")[0])
    assert not same_value(find_values("50 mcg")[0], find_values("75 mcg")[0])


@pytest.mark.parametrize(
    ("text", "counted"),
    [
        ("Grace has her tea with just one sugar.", [((1.0,), "sugar")]),
        ("She has one dog and two cats.", [((1.0,), "dog"), ((2.0,), "cat")]),
        ("One of them left early.", []),
        ("No one came to the stand-up.", []),
        ("The one in Lyon is closed.", []),
        ("One more thing: bring the badge.", []),
    ],
)
def test_a_written_one_counts_only_the_noun_it_stands_before(text, counted):
    assert [(v.key, v.unit) for v in find_values(text) if v.kind == "number"] == counted


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Passport expires in August 2027.", "Passport expiry: 2027-08.", True),
        ("Passport expires in August 2027.", "Passport expiry: 08/2028.", False),
        ("Launch is planned for Q2 2026.", "Launch is planned for May 2026.", True),
        (
            "Launch is planned for Q2 2026.",
            "Launch is planned for the third quarter of 2026.",
            False,
        ),
        ("Hiring freeze until H2 2025.", "Hiring freeze until Q3 2025.", True),
        ("Rent is due on the 1st of each month.", "Rent: due the first of every month.", True),
        (
            "Invoices go out on the 1st of each month.",
            "Invoices go out on the 15th of the month.",
            False,
        ),
        ("Interns get a mentor for 8 weeks.", "Interns get a mentor for two months.", True),
        ("Interns get a mentor for 6 weeks.", "Interns get a mentor for two months.", False),
    ],
)
def test_months_quarters_and_days_of_the_month_compare_in_any_notation(a, b, same):
    (x,), (y,) = (
        [v for v in find_values(text) if v.kind in {"month", "day", "duration"}] for text in (a, b)
    )
    assert same_value(x, y) is same


def test_a_day_of_the_month_is_no_count_and_a_numbered_floor_is_no_day():
    assert [v.kind for v in find_values("paid on the last day of the month")] == ["day"]
    assert [v.kind for v in find_values("the office is on the 4th floor")] == ["number"]


def test_a_version_field_and_tonnes_are_read_as_what_they_are():
    (keyed,) = find_values("Firmware on the handheld scanners: 8.1.")
    assert keyed.kind == "version" and keyed.key == ("8.1",)
    (tonnes,) = find_values("Max container weight on the Wuhan rail service: 26 t.")
    (pounds,) = find_values("Wuhan rail service: 26,000 lb limit per container.")
    assert tonnes.kind == pounds.kind == "mass" and not same_value(tonnes, pounds)
    assert same_value(tonnes, _one("26,000 kg", "mass"))
    assert [v.kind for v in find_values("3 t-shirts")] == ["number"]


def test_a_period_in_the_key_a_hyphened_count_each_month_and_a_uk_date_are_read():
    (rent,) = [
        v for v in find_values("Monthly rent at 44 Birch Lane: £1,450.") if v.kind == "money"
    ]
    assert rent.key == ("GBP", 1450.0, "mo")
    (flat,) = find_values("It is a two-bedroom.")
    assert flat.unit == "bedroom" and same_value(flat, _one("two bedrooms", "number"))
    (each,) = find_values("a rent statement each month")
    assert each.kind == "frequency" and same_value(each, _one("monthly", "frequency"))
    (uk,) = find_values("Car insurance renewal: 06/09/2025 (UK date).")
    assert uk.key == (2025, 9, 6) and not uk.alternatives


def test_a_period_said_past_what_an_amount_is_per():
    (day,) = find_values("Demurrage: £75 per container per day.")
    (week,) = find_values("demurrage works out to GBP 525 per box per week")
    assert day.key == ("GBP", 75.0, "day") and same_value(day, week)
    (night,) = find_values("¥24,000 a night")
    assert night.key == ("JPY", 24000.0, "day")
    assert find_values("£12 per person")[0].key == ("GBP", 12.0, "")


def test_a_glued_capital_after_a_capitalised_noun_is_a_label_not_hours():
    assert [v.kind for v in find_values("Class 6H has 27 pupils.")] == ["number"]
    assert [v.kind for v in find_values("a 24H window")] == ["duration"]


def test_a_capital_m_after_a_number_is_a_million_not_metres():
    (vectors,) = find_values("4.8M vectors are stored in the index.")
    assert vectors.kind == "number" and not same_value(
        vectors, _one("8.4 million vectors", "number")
    )
    assert [v.kind for v in find_values("ran 5 m")] == ["length"]


def test_payment_terms_are_days_to_pay():
    (thirty,) = find_values("Northwind Paper: payment terms net 30.")
    (forty_five,) = find_values("invoices us on net-45 terms")
    assert thirty.kind == forty_five.kind == "duration" and not same_value(thirty, forty_five)
    assert same_value(thirty, _one("30 days", "duration"))
    assert [v.kind for v in find_values("the net 30% margin")] == ["percent"]


def test_first_and_second_are_positions_only_before_what_counts_a_position():
    (second,) = find_values("The printer is on the second floor.")
    (third,) = find_values("the printer sits on the third floor")
    assert second.key == (2.0,) and not same_value(second, third)
    assert same_value(second, _one("2nd floor", "number"))
    for text in ("a second opinion", "the first step", "at first she hesitated"):
        assert find_values(text) == []
    assert [(v.kind, v.key) for v in find_values("Rent is due on the second.")] == [("day", (2,))]


def test_a_bit_rate_in_another_prefix_and_a_year_written_short_are_the_same_value():
    (fast,) = find_values("internet: 500 Mbps")
    (same,) = find_values("a 0.5 Gbps line")
    (slower,) = find_values("upgraded to 300 Mbit/s")
    assert fast.kind == "rate" and same_value(fast, same) and not same_value(fast, slower)
    assert [v.kind for v in find_values("copies at 120 MB/s")] == ["size"]
    (year,) = find_values("RAV4 Hybrid ('18)")
    assert year.kind == "number" and same_value(year, _one("Car: 2018 RAV4", "number"))


def test_the_day_a_note_was_written_is_a_stamp_not_a_fact():
    def stamped(text, opens_on_name=False):
        values = find_values(text)
        return [text[a:b] for a, b in stamp_spans(text, values, opens_on_name=opens_on_name)]

    assert stamped("Mon 9 Dec 2024 - Siobhan's leave begins tomorrow.") == ["Mon 9 Dec 2024"]
    assert stamped("(Written Fri 25 Oct 2024) Amara flies out a week from today.") == [
        "Fri 25 Oct 2024"
    ]
    assert stamped("Note from Thu 7 Nov 2024: the window is a week away.") == ["Thu 7 Nov 2024"]
    assert stamped("Caroline (8 May 2023) wants a career in counseling.", True) == ["8 May 2023"]
    assert stamped("Launch (March 2026) is planned.") == []
    assert stamped("Deadline: 3 March 2025") == []
    assert stamped("Release 5.2 ships Friday 7 March 2025.") == []


@pytest.mark.parametrize(
    ("text", "percent"),
    [
        ("Europe sits at a quarter of sessions.", 25.0),
        ("half the traffic goes to eu-west-1", 50.0),
        ("two thirds of the budget is spent", 66.6667),
        ("one fifth of users", 20.0),
    ],
)
def test_a_share_in_words_is_a_percentage(text, percent):
    assert _one(text, "percent").key == (percent,)


@pytest.mark.parametrize("text", ["in half an hour", "a quarter of an hour", "next quarter"])
def test_a_half_or_a_quarter_of_a_period_is_no_share(text):
    assert not [v for v in find_values(text) if v.kind == "percent"]


def test_a_setting_switched_on_or_off_is_a_value_of_its_key():
    flags = find_values('feature_flags.json: {"dark_mode": true, "beta_export": false}')
    assert [(v.kind, v.unit, v.key[1]) for v in flags] == [
        ("switch", "dark_mode", True),
        ("switch", "beta_export", False),
    ]
    (same,) = find_values("Dark-Mode: on")
    assert same_value(flags[0], same) and not same_value(flags[1], _one("beta: no", "switch"))
    assert find_values("Is it on? No.") == []


def test_a_port_after_a_host_and_a_number_under_a_date_count_no_neighbouring_word():
    assert _one("relay: smtp.mailgun.org:465 with TLS", "number").unit == "port"
    assert _one("BP on 3 March: 138/82", "pair").key == (138, 82)
    assert _one("port = 587\nuse_tls = true", "number").unit == "port"
    assert _one("memory limit 1Gi.", "size").key == (2**30,)


def test_a_text_that_states_its_date_order_reads_its_numeric_dates_so():
    (day_first,) = find_values("Booked for 10/05/2026; dates in this doc are DD/MM/YYYY.")
    assert day_first.key == (2026, 5, 10) and day_first.alternatives == ()
    (month_first,) = find_values("Booked for 10/05/2026 (US format).")
    assert month_first.key == (2026, 10, 5) and month_first.alternatives == ()
    (either,) = find_values("Booked for 10/05/2026.")
    assert either.alternatives


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("bloodwork every 6 months", "blood panel twice a year", True),
        ("bloodwork every 6 months", "blood panel once a year", False),
        ("500 mg three times a day", "three doses daily", True),
        ("cleaner comes fortnightly", "cleaner comes every other week", True),
        ("cleaner comes every 2 weeks", "cleaner comes weekly", False),
        ("standup daily", "standup every day", True),
        ("600 requests per minute per key", "10 req/s per key", True),
        ("600 requests per minute per key", "20 req/s per key", False),
        ("3,600 events per hour", "1 event/s", True),
        ("resting heart rate of 60 bpm", "resting pulse: 60 beats per minute", True),
        ("the API serves 40 rps", "the API serves 2,400 requests a minute", True),
    ],
)
def test_how_often_compares_per_year_in_any_wording(a, b, same):
    assert same_value(_one(a, "frequency"), _one(b, "frequency")) is same


def test_an_age_is_one_value_however_it_is_said():
    nine = _one("Jaguar, the user's cat, is 9 years old.", "age")
    assert nine.key == (9.0,)
    assert not same_value(nine, _one("Jaguar turned 11 last month", "age"))
    assert same_value(nine, _one("a nine-year-old tabby", "age"))
    assert [v.kind for v in find_values("standup every Monday")] == ["date"]


def test_amounts_per_quarter_codes_before_amounts_and_wildcard_versions():
    budget = _one("ML team cloud budget: 20k USD per quarter.", "money")
    assert budget.key == ("USD", 20000.0, "qtr")
    assert not same_value(budget, _one("Cloud spend cap: $20,000 per month.", "money"))
    assert same_value(budget, _one("cap of $80,000 a year", "money"))
    assert _one("Phone plan: CHF 29.90/month", "money").key == ("CHF", 29.9, "mo")
    assert _one("Terraform required: 1.6.x", "version").key == ("1.6",)
    (bday,) = find_values("(US date format, MM/DD) Mum's bday - 04/02")
    assert bday.key == (None, 4, 2) and not bday.alternatives


def test_a_currency_code_in_parentheses_and_a_period_said_before_the_amount_are_read():
    assert _one("build the rainy-day fund to 15k (USD)", "money").key == ("USD", 15000.0, "")
    assert _one("a monthly retainer of CHF 20k", "money").key == ("CHF", 20000.0, "mo")
    assert not same_value(
        _one("a monthly retainer of CHF 20k", "money"), _one("CHF 20,000 per quarter", "money")
    )


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("prod deployment: replicas 8, spread over three zones", "replica"),
        ("PodDisruptionBudget minAvailable 4", "minavailable"),
        ("flags transactions with score > 0.82", "score"),
        ("anything the fraud model scores above 0.75", "score"),
        ("block of 120 room nights", "night"),
        ("the programme has 45 funded places", "seat"),  # a place is a seat
        ("3 bed flats", "bedroom"),
        # a noun that the number after it labels: what the number is
        ("connects to db.internal.corp, port 5433.", "port"),
        ("the train leaves from platform 7", "platform"),
        ("we meet in room 212 after lunch", "room"),
    ],
)
def test_the_noun_a_number_counts_is_read_before_it_or_past_a_modifier(text, unit):
    assert _one(text, "number").unit == unit


def test_a_fraction_after_a_plain_word_is_no_version_and_working_days_are_days():
    assert _one("Nadia works 0.6 FTE", "number").key == (0.6,)
    assert _one("We run Python 3.12.", "version").key == ("3.12",)
    assert _one("version 0.9 is out", "version").key == ("0.9",)
    assert _one("100 working days of leave", "duration").key == (100 * 86400.0,)


def test_an_area_in_any_unit_and_a_time_range_are_read():
    assert same_value(
        _one("25,000 sq ft of floor space", "area"), _one("2,320 square metres", "area")
    )
    assert not same_value(_one("a 3 acre plot", "area"), _one("2 ha", "area"))
    assert [v.key for v in find_values("Yoga: Sundays 10-11am") if v.kind == "time"] == [
        (600, ""),
        (660, ""),
    ]
    assert [v.key[0] for v in find_values("11-1pm lunch") if v.kind == "time"] == [660, 780]


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("The cleaner comes on Wednesdays, 9–12.", [540, 720]),
        ("Open Mon-Fri 9-5, Sat 10-2", [540, 1020, 600, 840]),
        ("Office hours 9 to 5 on weekdays", [540, 1020]),
        ("Sunday roast from 12 to 4.", [720, 960]),
        ("Choir practice Thursdays 6-8", [1080, 1200]),
        ("Wednesday nights 8 to 10 in room 3", [1200, 1320]),
        ("meets on Mondays from 7 to 8:30 in the evening", [1140, 1230]),
        ("the pool is open 9–19 daily", [540, 1140]),
    ],
)
def test_bare_hours_beside_a_day_or_an_opening_are_times_of_day(text, minutes):
    assert [v.key[0] for v in find_values(text) if v.kind == "time"] == minutes


@pytest.mark.parametrize(
    "text",
    [
        "Page 9-12 of the report",
        "Ages 9–12 welcome on Saturdays",
        "We won 3-1 on Saturday",
        "Tutoring on Mondays for 2-3 hours",
        "Budget 9-12,000 on Monday",
    ],
)
def test_bare_number_ranges_without_a_clock_cue_stay_numbers(text):
    assert not [v for v in find_values(text) if v.kind == "time"]


def test_the_same_hours_in_other_notations_compare_equal():
    cleaner = [v for v in find_values("The cleaner comes on Wednesdays, 9–12.") if v.kind == "time"]
    later = [v for v in find_values("Wednesday hours: 10 am to 1 pm.") if v.kind == "time"]
    same = [v for v in find_values("on Wednesdays from 9am to 12pm") if v.kind == "time"]
    assert not same_value(cleaner[0], later[0])
    assert all(same_value(a, b) for a, b in zip(cleaner, same, strict=True))


def test_grand_is_thousands_and_a_height_in_feet_is_no_other_height_in_metres():
    assert _one("his signing bonus is ten grand", "money").key == ("?", 10000.0, "")
    assert same_value(_one("ten grand", "money"), _one("$10,000", "money"))
    assert _one("50 grand a year", "money").key == ("?", 50000.0, "yr")
    assert not same_value(_one("height: 5'10\"", "length"), _one("height 1.83 m", "length"))
    assert same_value(_one("a 5 km run", "length"), _one("a 3.1 mile run", "length"))


@pytest.mark.parametrize(
    ("text", "kind", "key"),
    [
        ("Turnout came in at 61.5 per cent this year.", "percent", (61.5,)),
        ("Pass rate: 88 percent", "percent", (88.0,)),
        ("Speed limit on site is 15 mph.", "speed", (6.7056,)),
        ("The ferry cruises at 18 knots.", "speed", (9.26,)),
        ("Cap the e-scooters at 25 km/h.", "speed", (6.9444,)),
        ("The lesson ends at twenty to four.", "time", (220, "")),
        ("Pick-up is at ten past six.", "time", (370, "")),
        ("The invoice date is 28/02.", "date", (None, 2, 28)),
    ],
)
def test_per_cent_speeds_clock_words_and_short_dates_are_read(text, kind, key):
    found = [v for v in find_values(text) if v.kind == kind]
    assert found and found[0].key == key


def test_a_speed_compares_across_units_and_a_clock_range_keeps_its_zone():
    assert same_value(_one("limit 30 mph", "speed"), _one("limit 48 km/h", "speed"))
    assert not same_value(_one("limit 30 mph", "speed"), _one("limit 60 km/h", "speed"))
    hours = [
        v for v in find_values("Helpdesk hours are 8.30 to 4 CET on weekdays") if v.kind == "time"
    ]
    assert [v.key for v in hours] == [(510, "cet"), (960, "cet")]
    assert not [v for v in find_values("We upgraded from 2.30 to 3 last week") if v.kind == "time"]


@pytest.mark.parametrize(
    "text",
    ["Children aged five to ten", "from five to ten people", "Score 7/10 on the quiz"],
)
def test_word_ranges_and_scores_are_no_clock_times_or_dates(text):
    assert not [v for v in find_values(text) if v.kind in {"time", "date"}]


def test_metric_tonnes_written_mt_are_a_mass():
    assert same_value(_one("cargo 30,000 MT", "mass"), _one("cargo of 30,000 tonnes", "mass"))


def test_a_fraction_after_a_metric_acronym_is_a_number_not_a_release():
    assert _one("validation AUC 0.83", "number").key == (0.83,)
    assert _one("Bun 0.8 is out", "version").key == ("0.8",)


def test_time_after_a_qualifier_microlitres_and_zulu_times_are_read():
    assert same_value(
        _one("Retainer: 40 prepaid hours", "duration"), _one("40 hours prepaid", "duration")
    )
    assert not same_value(_one("250 µL each", "volume"), _one("2.5 mL per tube", "volume"))
    assert same_value(_one("250 µL each", "volume"), _one("0.25 mL per tube", "volume"))
    assert _one("AOS 09:47Z", "time").key == (587, "utc")
    assert _one("first boat out: ten past eight", "time").key[0] == 490


def test_every_seven_days_is_weekly_and_a_capital_g_is_no_gram():
    def often(text):
        return _one(text, "frequency")

    assert same_value(often("inspected every 7 days"), often("the weekly inspection"))
    assert not same_value(often("every 4 weeks"), often("monthly"))
    assert not [v for v in find_values("uplink capacity: 2 x 100G") if v.kind == "mass"]
    assert _one("100 g of flour", "mass").key == (100.0,)


def test_yards_and_nautical_miles_are_lengths():
    assert _one("Academy Pitch 1 length: 120 yards.", "length").key == (109.728,)
    assert not same_value(_one("100 m long", "length"), _one("120 yards", "length"))
    assert _one("12 nautical miles offshore", "length").key == (22224.0,)


def test_the_first_end_of_a_range_of_days_is_a_date_of_the_second_ends_month():
    dates = [v.key for v in find_values("Leave booked 3–14 June 2026.") if v.kind == "date"]
    assert dates == [(2026, 6, 3), (2026, 6, 14)]
    dates = [v.key for v in find_values("Show: 10 Apr – 27 Sep 2026, £16.") if v.kind == "date"]
    assert dates == [(2026, 4, 10), (2026, 9, 27)]
    # a count before a date is no day of it
    assert [v.kind for v in find_values("3 tickets for 14 June")] == ["number", "date"]


def test_what_the_time_is_spent_doing_between_a_count_and_its_unit_keeps_a_duration():
    (shooting,) = find_values("The production has 42 shooting days scheduled.")
    (plain,) = find_values("The whole shoot is 42 days.")
    assert shooting.kind == plain.kind == "duration"
    assert shooting.key == plain.key


@pytest.mark.parametrize(
    "text",
    [
        "Night possession on 21/22 March.",
        "Possession for the night of 21st/22nd March.",
        "On call Sat 21st and Sun 22nd March.",
        "Booked the 21st & 22nd of March.",
    ],
)
def test_a_day_paired_with_a_date_is_a_date_of_its_month(text):
    assert [v.key for v in find_values(text) if v.kind == "date"] == [(None, 3, 21), (None, 3, 22)]


def test_a_count_before_a_date_after_a_comma_stays_a_count():
    assert [v.kind for v in find_values("costs 5, 12 March")] == ["number", "date"]


def test_an_hour_without_am_or_pm_after_until_is_a_time_when_the_text_speaks_of_hours():
    evening = find_values("public swim 18:00–21:00, lanes roped off until 19:00")[-1]
    bare = find_values("public again 6–9pm, lanes roped off till 7.")[-1]
    assert bare.kind == "time" and same_value(bare, evening)
    assert _one("The shop opens at 7 on Sundays.", "time").key == (420, "")
    # no hours spoken of: a number, whatever the preposition
    assert [v.kind for v in find_values("We won after 3 attempts.")] == ["number"]
    assert [v.kind for v in find_values("Ranked at 3, behind Spain.")] == ["number"]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Wedding venue deposit: ₹2,50,000 paid.", "Paid the 250,000 INR deposit."),
        ("Budget is Rs 12,00,000 this year.", "budget of INR 1.2 million"),
        ("The flat cost ₹1.2 crore.", "flat: Rs. 1,20,00,000"),
        ("User earns 125k Swiss francs a year.", "salary CHF 125,000 a year"),
        ("It costs 40 Canadian dollars.", "price: CAD 40"),
        ("He paid 500 pounds sterling.", "paid £500"),
    ],
)
def test_lakhs_rupees_and_currencies_named_with_their_country_read_as_money(a, b):
    assert same_value(_one(a, "money"), _one(b, "money"))


def test_a_currency_named_with_its_country_is_that_currency_not_another():
    assert not same_value(
        _one("salary of 140,000 Swiss francs", "money"), _one("salary of 140,000 euros", "money")
    )
    assert _one("30 US dollars", "money").key[0] == "USD"
    assert _one("Fee: 1,50,000 INR.", "money").key[1] == 150000.0
    # a list of small numbers is not a lakh grouping
    assert [v.key for v in find_values("rooms 1,2,3 and 10,000 users") if v.kind == "number"][
        -1
    ] == (10000.0,)


@pytest.mark.parametrize(
    ("kind", "a", "b"),
    [
        ("temperature", "samples are stored at −80 °C", "kept at minus 112 degrees Fahrenheit"),
        ("temperature", "chiller set to -4°F", "chiller set to -20 °C"),
        ("money", "a fee of £4.2m", "four point two million pounds"),
        ("time", "ballet on Wednesdays at 17:00", "ballet is Wednesday at five"),
        ("duration", "Block time: 1h25", "block time 85 minutes"),
        ("duration", "about 2h45 on the road", "a bit under three hours on the road"),
        ("length", "~233 km", "145 miles"),
        ("number", "about 50 people came", "52 people came"),
    ],
)
def test_signs_decimals_and_hours_in_words_and_rough_figures_read_as_said(kind, a, b):
    assert same_value(_one(a, kind), _one(b, kind))


@pytest.mark.parametrize(
    ("kind", "a", "b"),
    [
        ("temperature", "stored at −80 °C", "stored at 80 °C"),
        ("length", "cruise level 23,000 ft", "cruising at roughly 7,600 metres"),
        ("number", "about 50 people came", "60 people came"),
        ("duration", "the commute is 45 minutes", "about an hour and a half"),
    ],
)
def test_a_rough_figure_is_only_as_loose_as_it_is_rounded(kind, a, b):
    assert not same_value(_one(a, kind), _one(b, kind))


def test_an_hour_and_minutes_are_a_time_after_at_and_a_duration_alone():
    assert _one("we meet at 9h30", "time").key == (570, "")
    assert _one("Block time: 1h25", "duration").key == (5100,)
    assert _one("RDV 14h30", "time").key == (870, "")


@pytest.mark.parametrize(
    ("kind", "a", "b"),
    [
        ("time", "kicks off Fridays at 5 pm Pacific", "every Friday at 8 pm Eastern"),
        ("time", "the call is at 9:30 pm Central European", "the call is at 20:30 UTC"),
        ("size", "memory limit = 1.5 GiB", "capped at 1536 MiB of RAM"),
        ("money", "Figma costs us $180 per editor per year", "Figma: $15/editor/month"),
    ],
)
def test_zones_by_name_sizes_after_at_and_a_price_per_seat_and_month_read_whole(kind, a, b):
    assert same_value(_one(a, kind), _one(b, kind))


def test_a_period_counted_from_today_is_a_day_not_a_frequency():
    day = _one("Written Monday 2026-10-26: release 14 ships a week from today.", "date")
    assert [v.key for v in find_values("Written Monday 2026-10-26: it ships a week from today.")][
        -1
    ] == (2026, 11, 2)
    assert day.key == (2026, 10, 26)
    assert not [
        v for v in find_values("release 14 ships a week from today") if v.kind == "frequency"
    ]
    assert not same_value(_one("at 2 pm Pacific", "time"), _one("at 2 pm Eastern", "time"))


@pytest.mark.parametrize(
    ("text", "stamp"),
    [
        ("Today is Friday 28 Feb 2025; the engineer is coming on Monday.", "Friday 28 Feb 2025"),
        ("(logged Sunday 31 August 2025) Fiona flies back on Wednesday.", "Sunday 31 August 2025"),
        ("Email received 17 Feb 2026: the invoice is payable within ten days.", "17 Feb 2026"),
    ],
)
def test_the_day_a_note_was_logged_or_received_is_its_stamp_not_a_fact(text, stamp):
    values = find_values(text)
    stamped = stamp_spans(text, values, opens_on_name=False)
    assert any(text[start:end] == stamp for start, end in stamped)
    assert (
        stamp_spans(
            "Launch is 3 March 2025: confirmed.",
            find_values("Launch is 3 March 2025: confirmed."),
            opens_on_name=False,
        )
        == []
    )


def test_a_week_today_and_the_first_of_next_month_count_from_the_note_day():
    text = "Note dated Fri 14 Nov 2025: the defence must be filed a week today."
    assert [v.key for v in find_values(text)][-1] == (2025, 11, 21)
    text = "HR memo, 2 May 2025: payroll switches on the first of next month."
    assert [v.key for v in find_values(text)][-1] == (2025, 6, 1)
    assert [v.kind for v in find_values("rent is due on the first of the month")] == ["day"]


def test_a_constraints_release_is_a_version_and_a_monthly_day_is_a_day_of_the_month():
    assert _one("Terraform AWS provider constraint: ~> 5.31", "version").key == ("5.31",)
    assert _one("pin it with ^1.2 in package.json", "version").key == ("1.2",)
    assert [v.kind for v in find_values("the error rate must stay >= 0.5")] == ["number"]
    assert _one("Retention purge job fires monthly on day 15.", "day").key == (15,)
    assert _one("on day 15 of the trial", "duration").key == (15 * 86400.0,)


def test_a_decimal_before_a_scale_and_a_complementary_share_read_as_meant():
    assert _one("the AWS bill is ≈ USD 1.008M a year", "money").key == ("USD", 1008000.0, "yr")
    assert _one("price: €84.000,00", "money").key[1] == 84000.0
    assert same_value(
        _one("agreement: 92% of samples", "percent"), _one("disagreed on 8%", "percent")
    )
    assert same_value(
        _one("GPU utilization was 78%", "percent"), _one("GPUs sat idle 22%", "percent")
    )
    assert not same_value(_one("CPU idle 22%", "percent"), _one("CPU idle 30%", "percent"))


def test_two_counts_with_a_slash_are_one_reading_and_a_fuel_economy_converts():
    reading = _one("Dad's blood pressure at his GP check: 140/90.", "pair")
    assert reading.key == (140, 90)
    assert same_value(reading, _one("the nurse wrote BP 140 over 90", "pair"))
    assert not same_value(reading, _one("The GP recorded 135/90 for Dad", "pair"))
    assert same_value(_one("Winter gritting 2027/28", "pair"), _one("winter 27/28", "pair"))
    assert _one("Tariq's passport expires in 03/2027.", "month").key == (2027, 3)
    assert _one("due 9/8", "date").key == (None, 8, 9)  # a day where one is expected
    assert same_value(_one("it does 15 km/l", "economy"), _one("about 35 mpg (US)", "economy"))
    assert same_value(_one("uses 5.6 l/100km", "economy"), _one("17.9 km per litre", "economy"))
    assert not same_value(_one("fuel economy is 18 km/l", "economy"), _one("30 mpg", "economy"))
    # miles per gallon on both sides are the same gallon, whichever it is
    assert not same_value(_one("gets about 45 mpg", "economy"), _one("~38 mpg", "economy"))


def test_a_settings_unit_in_a_note_after_it_and_a_jvm_heap_are_read():
    assert _one("SESSION_TIMEOUT=1800 (seconds)", "duration").key == (1800.0,)
    assert _one("`SESSION_IDLE_TIMEOUT=1800` (seconds)", "duration").key == (1800.0,)
    assert same_value(
        _one("PAYSTREAM_API_RATE_LIMIT=100  # requests per minute", "frequency"),
        _one("throttled at 100 requests per minute", "frequency"),
    )
    assert _one("heap: 4096  // MB", "size").key == _one("heap 4096 MB", "size").key
    assert _one("retries: 3  # attempts", "number").unit == "retry"
    assert same_value(_one("runs with -Xmx8192m", "size"), _one("heap is 8 GiB", "size"))
    assert not same_value(_one("runs with -Xmx8192m", "size"), _one("heap is 4 GB", "size"))
    assert _one('metadata_db:\n  version: "15.4"', "version").key == ("15.4",)  # quoted


def test_the_end_of_a_month_is_its_last_day():
    assert same_value(
        _one("rented through the end of August", "date"), _one("until August 31", "date")
    )
    assert _one("until the last day of February 2028", "date").key == (2028, 2, 29)
    assert not same_value(_one("by the end of June", "date"), _one("by 15 June", "date"))


def test_who_sent_a_message_and_when_is_its_stamp():
    text = "Text from the fabricator, Mon 9 Feb 2026: we'll be fitting your worktops tomorrow."
    stamped = stamp_spans(text, find_values(text), opens_on_name=False)
    assert [text[start:end] for start, end in stamped] == ["Mon 9 Feb 2026"]
    assert [v.key for v in find_values(text)][-1] == (2026, 2, 10)


def test_a_share_in_words_is_the_percentage_written_for_it():
    third = _one("roughly a third of the spruce stems", "percent")
    assert same_value(third, _one("Approx. 33% of the stems", "percent"))
    assert same_value(_one("33.3% of the stems", "percent"), third)
    assert not same_value(third, _one("35% of the stems", "percent"))
    assert same_value(_one("two thirds of the seats", "percent"), _one("67% of seats", "percent"))


def test_a_daily_rate_beside_two_times_of_day_happens_that_often():
    rate = _one("The returns chute is emptied at 8 a.m. and 4 p.m. every day.", "frequency")
    assert same_value(rate, _one("Twice a day — 08:00 and 16:00 — staff clear it.", "frequency"))
    # one time of day leaves the rate daily
    assert _one("The shop opens at 9 every day.", "frequency").key == (365.0,)


def test_a_distance_covered_every_day_is_a_distance_not_a_count_of_times():
    run = _one("Aroha runs five thousand metres every day.", "length")
    assert same_value(run, _one("Aroha's daily run is 5 km.", "length"))
    assert [
        v.key for v in find_values("Aroha runs 5000 metres every day.") if v.kind == "frequency"
    ] == [(365.0,)]
    # a count of things is still how often
    assert [v.kind for v in find_values("She walks 10000 steps every day.")] == ["frequency"]


def test_a_city_s_time_with_its_zone_in_brackets_is_that_zone_s():
    utc = _one("Frosthaven-EU restarts daily at 04:00 UTC.", "time")
    tokyo = _one("It bounces itself every day at 13:00 Tokyo time (JST).", "time")
    assert tokyo.key == (780, "jst")
    assert same_value(utc, tokyo)


def test_a_weekday_in_a_dated_note_is_the_day_after_the_note_s_day():
    dated = "Written Friday 12 September 2025: the furnace service visit is on Monday."
    monday = [v for v in find_values(dated) if v.text == "on Monday"][0]
    assert monday.key == (2025, 9, 15)
    assert same_value(monday, _one("Furnace service tech booked for 15 Sept.", "date"))
    assert not same_value(monday, _one("Furnace service tech booked for 16 Sept.", "date"))
    # the same weekday named without a date is still the same day; every Monday is no day
    assert same_value(monday, _one("The visit is on Monday.", "date"))
    every = [v.key for v in find_values("Written 2025-09-12: we meet on Mondays.")]
    assert ("weekday", 0) in every


def test_the_yen_sign_is_yen_or_yuan():
    rent = _one("The Zhang family's monthly rent is ¥9,800 for the flat in Chengdu.", "money")
    assert same_value(rent, _one("Rent on the Chengdu flat: 9.8k yuan per month.", "money"))
    assert same_value(rent, _one("Rent: 9,800 yen per month.", "money"))
    assert not same_value(
        _one("Rent: 9,800 yen per month.", "money"), _one("Rent: 9,800 yuan per month.", "money")
    )


def test_kr_is_the_krone_or_the_krona_and_kc_the_koruna():
    fare = _one("Ticket for the Bergen–Oslo night train: 1 249 NOK.", "money")
    assert same_value(fare, _one("The night train costs kr 1249 one way.", "money"))
    assert same_value(fare, _one("Night train: 1 249 kr.", "money"))
    assert not same_value(fare, _one("The night train costs kr 949 one way.", "money"))
    assert same_value(_one("Lift pass: SEK 450.", "money"), _one("Lift pass 450 kr.", "money"))
    assert _one("Rent is 12 500 Kč a month.", "money").key[:2] == ("CZK", 12500.0)


def test_three_quarters_of_an_hour_is_a_duration_not_a_frequency():
    ferry = _one("A Nordvik ferry every three quarters of an hour.", "duration")
    assert same_value(ferry, _one("In summer the ferry leaves every 45 minutes.", "duration"))
    assert not [
        v for v in find_values("A ferry every three quarters of an hour.") if v.kind == "frequency"
    ]
    assert _one("Board meetings happen every quarter.", "frequency").key == (4.0,)


def test_a_weekday_with_the_before_its_date_is_part_of_that_date():
    found = find_values("Marta wraps up at the Gdańsk office on Friday the 14th of March.")
    assert [v.key for v in found if v.kind == "date"] == [(None, 3, 14)]


def test_one_hour_said_twice_beside_a_daily_rate_is_once_a_day():
    found = find_values("The backup job runs nightly at 01:00 UTC via cron `0 1 * * *`.")
    assert [v.key for v in found if v.kind == "frequency"] == [(365.0,)]
    found = find_values("The bins are emptied at 8 a.m. and 4 p.m. every day.")
    assert [v.key for v in found if v.kind == "frequency"] == [(730.0,)]


def test_a_telephone_number_is_one_value_however_it_is_spaced():
    spaced = _one("Phone: +45 31 22 84 09", "phone")
    assert same_value(spaced, _one("- Phone: +4531228409", "phone"))
    assert not [v for v in find_values("Phone: +45 31 22 84 09") if v.kind == "number"]
    # the same line dialled from abroad or at home
    assert same_value(_one("call 020 7946 0958", "phone"), _one("+44 20 7946 0958", "phone"))
    assert not same_value(_one("(415) 555-0132", "phone"), _one("(415) 555-0199", "phone"))
    assert [v.kind for v in find_values("Released 2024-03-09 at 10:30.")] == ["date", "time"]


def test_a_period_word_before_a_count_is_one_rate():
    loaves = _one("Line 3 at the bakery produces 400 loaves a day.", "frequency")
    assert same_value(
        loaves, _one("Bakery line 3 — daily output: four hundred loaves.", "frequency")
    )
    weekly = _one("Weekly parcel volume out of Leeds: twelve hundred.", "frequency")
    assert same_value(
        weekly, _one("The Leeds warehouse ships 1,200 parcels per week.", "frequency")
    )
    assert _one("We meet weekly on floor 3.", "frequency").key == (52.0,)


def test_a_count_per_period_beside_a_period_word_is_a_rate_too():
    goal = _one("Noted: user set a daily step goal of 8,000 steps.", "frequency")
    assert not same_value(goal, _one("User's step target is 10k per day.", "frequency"))
    assert same_value(goal, _one("User's step target is 8k per day.", "frequency"))
    loaves = _one("The Fenwick Street bakery bakes 340 sourdough loaves a day.", "frequency")
    assert not same_value(loaves, _one("Daily sourdough output is 430 loaves.", "frequency"))


def test_a_period_word_alone_says_the_period_of_a_count_said_per_that_period():
    per_day = _one(
        "Crumb & Co's central kitchen bakes 1,200 sourdough loaves per day.", "frequency"
    )
    daily = _one("Daily sourdough output at the central bakehouse: twelve hundred.", "frequency")
    assert same_value(per_day, daily)
    assert not same_value(
        _one("The backup runs daily.", "frequency"), _one("twice a day", "frequency")
    )
    # an amount said per period is no count
    assert not [v for v in find_values("Scholarship: R45,000 per year.") if v.kind == "frequency"]
    assert not [v for v in find_values("groceries - 450 quid a month") if v.kind == "frequency"]


def test_a_pressure_is_no_version_and_a_bar_stool_no_pressure():
    assert _one("tyres set to 12.4 bar", "pressure").key == (1240.0,)
    assert not same_value(
        _one("tyres at 200 psi", "pressure"), _one("tyres at 12.4 bar", "pressure")
    )
    assert all(v.kind != "pressure" for v in find_values("we bought 2 bar stools"))
