"""Values in text, normalised so that two notations of one value compare equal: amounts of
money ("$120,000" = "USD 120k"), durations ("200 ms" = "0.2 s"), sizes ("1.5 GB" = "1536
MB"; "net 30" payment terms are 30 days), areas ("25,000 sq ft" = "2,320 m²"), masses ("26
t" = "26,000 kg"), percentages ("a quarter of" = 25 %), dates in any
common format ("2024-03-05" = "5 March 2024" = "March 5th"; "next Tuesday" in a note dated
that week), times of day with their zone, versions, how often
("every 6 months" = "twice a year"), ages ("9 years old" = "turned 9"), settings switched on
or off ("dark_mode: true" = "dark-mode: on"), and plain counts, also written as words
("three replicas", "4.8M vectors"), each with the noun it counts, after it or before it
("replicas 8", "score > 0.82"), and positions ("the second floor" = "the 2nd floor"). An
amount's period is read after it ("£75 per container per day"), before it ("a monthly
retainer of CHF 20k") or in its field's key ("Monthly rent: £1,450"). A text that says how
it writes its dates ("DD/MM/YYYY", "US format", "UK date") has its numeric dates read that
way only.

``find_values(text, reference=None)`` returns every ``Value`` with its kind, a comparable
``key`` and its character span. Two values of one kind are the same value when
``same_value`` says so (a date without a year matches the same day of any year; an
ambiguous 05/03 matches both 5 March and 3 May).
"""

import calendar
import datetime as dt
import re
from dataclasses import dataclass, field, replace
from functools import cache
from typing import NamedTuple

from memoryhub import lexicon

NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "dozen": 12,
    "half": 0.5,
    "a couple of": 2,
    "a pair of": 2,
    "a dozen": 12,
    "half a dozen": 6,
}
TENS_WORDS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
UNIT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# "twenty-five", "fifty two": the tens and a unit, with a hyphen or a space.
NUMBER_WORDS |= {
    f"{tens}{joint}{unit}": NUMBER_WORDS[tens] + NUMBER_WORDS[unit]
    for tens in TENS_WORDS
    for unit in UNIT_WORDS
    for joint in ("-", " ")
}
# "two dozen" = 24, "three dozen eggs" = 36.
NUMBER_WORDS |= {
    f"{word} dozen": NUMBER_WORDS[word] * 12 for word in (*UNIT_WORDS, "ten", "eleven", "twelve")
}
# "the 4th floor", "the seventh floor": a position counted like a number ("first" and
# "second" mark which one far more often than how many).
ORDINAL_WORDS = {
    "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
    "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "twentieth": 20,
}  # fmt: skip
# What "first" and "second" count as a position, as "third" and the rest do anywhere ("the
# second floor" and "the 3rd floor", "gate two"... "a second opinion" is no position).
POSITION_NOUNS = frozenset(
    """floor level storey story row gate platform seat place round tier grade lane deck
    shift pick slot terminal berth pier dock bay aisle stage leg heat""".split()
)
# "the twenty-first of August", "May first": a day of the month in words (the positions
# above, and "first" and "second", which name a day well enough).
DAY_WORDS = {
    "first": 1, "second": 2, **ORDINAL_WORDS, "sixteenth": 16, "seventeenth": 17,
    "eighteenth": 18, "nineteenth": 19, "thirtieth": 30,
}  # fmt: skip
DAY_WORDS |= {
    f"{tens}{joint}{unit}": NUMBER_WORDS[tens] + DAY_WORDS[unit]
    for tens in ("twenty", "thirty")
    for unit in ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                 "ninth")
    for joint in ("-", " ")
    if NUMBER_WORDS[tens] + DAY_WORDS[unit] <= 31
}  # fmt: skip
# Hours in words, for "quarter to eleven", "half past nine", "ten o'clock".
HOUR_WORDS = {word: NUMBER_WORDS[word] for word in (*UNIT_WORDS, "ten", "eleven", "twelve")}
SCALE = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "mm": 1e6,
    "million": 1e6,
    "bn": 1e9,
    "b": 1e9,
    "billion": 1e9,
    "lakh": 1e5,
    "lakhs": 1e5,
    "crore": 1e7,
    "crores": 1e7,
}
CURRENCY = {
    "$": "USD",
    "usd": "USD",
    "dollar": "USD",
    "dollars": "USD",
    "us$": "USD",
    "€": "EUR",
    "eur": "EUR",
    "euro": "EUR",
    "euros": "EUR",
    "£": "GBP",
    "gbp": "GBP",
    "pound": "GBP",
    "pounds": "GBP",
    "¥": "JPY",
    "jpy": "JPY",
    "yen": "JPY",
    "₹": "INR",
    "rs": "INR",
    "rs.": "INR",
    "inr": "INR",
    "rupees": "INR",
    "rupee": "INR",
    "naira": "NGN",
    "₦": "NGN",
    "rand": "ZAR",
    "yuan": "CNY",
    "cny": "CNY",
    "rmb": "CNY",
    "francs": "CHF",
    "franc": "CHF",
    "krona": "SEK",
    "kronor": "SEK",
    "pln": "PLN",
    "zloty": "PLN",
    "zł": "PLN",
    "zl": "PLN",
    "złoty": "PLN",
    "sgd": "SGD",
    "hkd": "HKD",
    "nzd": "NZD",
    "chf": "CHF",
    "cad": "CAD",
    "aud": "AUD",
    "sek": "SEK",
    "nok": "NOK",
    "dkk": "DKK",
    "brl": "BRL",
    "r$": "BRL",
    "s$": "SGD",
    "a$": "AUD",
    "au$": "AUD",
    "c$": "CAD",
    "ca$": "CAD",
    "nz$": "NZD",
    "hk$": "HKD",
    "mxn": "MXN",
    "zar": "ZAR",
    "ngn": "NGN",
    "kes": "KES",
    # "kr" is the krone or the krona: Norwegian first, the others its other readings
    "kr": "NOK",
    "kr.": "NOK",
    "krone": "NOK",
    "kroner": "NOK",
    "kč": "CZK",
    "czk": "CZK",
}
# Signs that more than one currency writes: the other currencies an amount may be in
# ("¥9,800" is yen or yuan: "9.8k yuan" for a flat in Chengdu says the same rent).
SHARED_SIGNS = {
    "¥": ("CNY",),
    "kr": ("SEK", "DKK", "ISK"),
    "krone": ("DKK",),
    "kroner": ("DKK",),
}
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9}
# The most a period's index runs to: "week 87" is no week of a year or a plan.
PERIOD_INDEX_MAX = {"day": 366, "week": 53, "wk": 53, "month": 36}
DURATION = {
    "ms": 0.001,
    "msec": 0.001,
    "millisecond": 0.001,
    "milliseconds": 0.001,
    "s": 1,
    "sec": 1,
    "secs": 1,
    "second": 1,
    "seconds": 1,
    "min": 60,
    "mins": 60,
    "minute": 60,
    "minutes": 60,
    "h": 3600,
    "hr": 3600,
    "hrs": 3600,
    "hour": 3600,
    "hours": 3600,
    "day": 86400,
    "days": 86400,
    "week": 604800,
    "weeks": 604800,
    "fortnight": 1_209_600,
    "fortnights": 1_209_600,
    "month": 2_628_000,
    "months": 2_628_000,
    "mo": 2_628_000,
    "mos": 2_628_000,
    "mth": 2_628_000,
    "mths": 2_628_000,
    "wk": 604800,
    "wks": 604800,
    "year": 31_536_000,
    "years": 31_536_000,
}
SIZE = {
    "b": 1,
    "bytes": 1,
    "kb": 1024,
    "kib": 1024,
    "mb": 1024**2,
    "mib": 1024**2,
    "gb": 1024**3,
    "gib": 1024**3,
    "tb": 1024**4,
    "tib": 1024**4,
}
# Metres per second in a speed's unit, by how the unit begins.
SPEED = (
    ("mph", 0.44704), ("mile", 0.44704), ("km", 1 / 3.6), ("kp", 1 / 3.6),
    ("kilomet", 1 / 3.6), ("kn", 0.514444), ("kt", 0.514444), ("m/s", 1.0), ("met", 1.0),
)  # fmt: skip
MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
WEEKDAYS = {
    name: number
    for number, names in enumerate(
        [
            ("monday", "mon"),
            ("tuesday", "tue", "tues"),
            ("wednesday", "wed"),
            ("thursday", "thu", "thur", "thurs"),
            ("friday", "fri"),
            ("saturday", "sat"),
            ("sunday", "sun"),
        ]
    )
    for name in names
}
ZONES = (
    "utc gmt cet cest eet eest wet bst ist est edt cst cdt mst mdt pst pdt jst kst aest aedt "
    "sgt hkt brt art nzst nzdt pacific eastern central mountain"
).split() + ["central european", "eastern european"]
# A line opened by a month's name and a colon: "Jul: map aisles", "- Sept: launch" (a
# schedule's months when two lines or more open so: no speaker, no owner, no name).
_MONTH_NAMES = "|".join(sorted(MONTHS, key=len, reverse=True))
MONTH_KEYS = re.compile(rf"(?im)^[ \t]*(?:[-*•]\s+)?({_MONTH_NAMES})\.?:")


def months_opening(text: str) -> int:
    """How many months open lines of ``text`` before a colon ("Jan: …", "Feb: …"): two
    or more make a schedule; one name said twice ("Jun: …" / "Jun: …") is a chat's."""
    return len({MONTHS[found.casefold()] for found in MONTH_KEYS.findall(text)})


# Hours ahead of UTC: a time in one zone equals the same moment in another.
ZONE_OFFSET = {
    "utc": 0,
    "gmt": 0,
    "wet": 0,
    "bst": 1,
    "cet": 1,
    "cest": 2,
    "eet": 2,
    "eest": 3,
    "ist": 5.5,
    "sgt": 8,
    "hkt": 8,
    "jst": 9,
    "kst": 9,
    "aest": 10,
    "aedt": 11,
    "nzst": 12,
    "nzdt": 13,
    "brt": -3,
    "art": -3,
    "est": -5,
    "edt": -4,
    "cst": -6,
    "cdt": -5,
    "mst": -7,
    "mdt": -6,
    "pst": -8,
    "pdt": -7,
    # US zones by name, as their standard times (both sides of a pair say them alike)
    "pacific": -8,
    "eastern": -5,
    "central": -6,
    "mountain": -7,
    "central european": 1,
    "eastern european": 2,
}
_ZONE = "|".join(z.replace(" ", r"\s+") for z in sorted(ZONES, key=len, reverse=True))
# A city's time before its zone in brackets: "13:00 Tokyo time (JST)".
_CITY_TIME = r"(?:[a-z]+(?:\s+[a-z]+)?\s+time\s*\(\s*)?"
# An hour in words, "home by six", "doors at seven".
_HOUR_WORDS = "|".join(sorted(HOUR_WORDS, key=len, reverse=True))
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
# "2,50,000", "12,00,000": the Indian grouping (lakhs), before the Western one.
_NUM = (
    r"\d{1,2}(?:,\d{2})+,\d{3}(?![\d,])(?:\.\d+)?"
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d.,])|\d+(?:\.\d+)?"
)
# The compounds as one pattern (a tens word, then maybe a unit), the other words listed.
_TENS_WORDNUM = rf"(?:{'|'.join(TENS_WORDS)})(?:[- ](?:{'|'.join(UNIT_WORDS)})\b)?"
# Number words without hundreds and thousands (the patterns most texts are read with: a
# text without "hundred", "thousand" or "million" skips the longer alternatives below).
_PLAIN_WORDNUM = rf"{_TENS_WORDNUM}|" + "|".join(
    sorted((w for w in NUMBER_WORDS if not w.startswith(TENS_WORDS)), key=len, reverse=True)
)
# One to ninety-nine, the words a hundred or a thousand multiplies.
_SMALLNUM = rf"{_TENS_WORDNUM}|" + "|".join(
    sorted(
        (w for w, n in NUMBER_WORDS.items() if w.isalpha() and 1 <= n < 20), key=len, reverse=True
    )
)
# Hundreds and thousands in words: "two hundred", "a hundred and twenty", "fifteen hundred",
# "a thousand", "three thousand five hundred".
_HUNDREDS = rf"(?:an?|{_SMALLNUM})[ -]hundred(?:(?: and)? (?:{_SMALLNUM})\b)?"
# "four point two million": a whole number, then its decimals digit by digit.
_DIGIT_WORDS = "|".join(("zero", *UNIT_WORDS))
_POINT = rf"(?:{_SMALLNUM}) point (?:{_DIGIT_WORDS})(?: (?:{_DIGIT_WORDS}))*"
_WORDSCALE = (
    rf"(?:{_POINT}|{_HUNDREDS}|an?|{_SMALLNUM})[ -](?:thousand|million)"
    rf"(?:(?: and)? (?:{_HUNDREDS}|{_SMALLNUM})\b)?|{_HUNDREDS}"
)
WORD_SCALES = re.compile(r"\b(?:hundred|thousand|million)\b", re.IGNORECASE)
# Where a number in words can start: the first two letters of its words (a guard that spares
# the scans trying every number word at every other word of a long text).
_WORDNUM_START = r"(?=(?i:a[\s-]|an|co|do|ei|el|fi|fo|ha|hu|mi|ni|of|on|pa|se|si|te|th|tw|ze))"
_WORDNUM = rf"{_WORDNUM_START}(?:(?:{_WORDSCALE})\b|{_PLAIN_WORDNUM})"
_SCALE = r"k|thousand|mn|mm|m|million|bn|billion|b|lakhs?|crores?"
_UNITS = (
    r"ms|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|kib|mib|gib|kb|mb|gb|tb|"
    r"k|m|bn|x|percent|million|billion|thousand"
)
# Words between a count and its unit of time that leave the time the same kind of quantity:
# "40 prepaid hours" is a duration of 40 hours, as "60 hours prepaid" is.
TIME_QUALIFIERS = (
    "prepaid|billable|paid|unpaid|extra|additional|free|spare|contracted|remaining|overtime|"
    "flying|flight|contact|teaching|study|training|consecutive|full|clear|annual|sick|rest|"
    "business|school|holiday|vacation|leave|lecture|rehearsal|travel|shoot|practice|"
    # what the time is spent doing: "42 shooting days", "10 trading days"
    "[a-z]{3,}ing"
).split("|")
_DUR_UNIT = r"hours?|hrs?|h|minutes?|mins?|min|m|seconds?|secs?|s|days?|weeks?|years?|ms"
# "every quarter of an hour" reads its fraction without the article.
_FRACTION = r"a half|a quarter|three quarters|half|(?<=every )quarter|a third|two thirds"
FRACTIONS = {
    "a half": 0.5,
    "half": 0.5,
    "a quarter": 0.25,
    "quarter": 0.25,
    "three quarters": 0.75,
    "a third": 1 / 3,
    "two thirds": 2 / 3,
}
# Amounts written the continental or Swiss way: "84.000,00 €", "2.850 €", "CHF 1'200".
_MONEY_NUM = r"\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?(?![\d.])|\d+,\d{2}(?![\d,])|\d{1,3}(?:'\d{3})+"
_CUR_SYMBOL = r"us\$|r\$|s\$|au?\$|ca?\$|nz\$|hk\$|[$€£¥₹₦]|(?:rs|kr)\.?(?=\s?\d)"
_CUR_CODE = (
    r"usd|eur|gbp|jpy|inr|chf|cad|aud|sek|nok|dkk|brl|mxn|zar|ngn|kes|cny|rmb|pln|sgd|hkd|nzd|czk"
)
# "Swiss francs", "Canadian dollars", "US dollars": the country before a currency word says
# which currency it is.
COUNTRY_CURRENCY = {
    "swiss": "CHF",
    "us": "USD",
    "u.s.": "USD",
    "american": "USD",
    "canadian": "CAD",
    "australian": "AUD",
    "new zealand": "NZD",
    "singapore": "SGD",
    "hong kong": "HKD",
    "japanese": "JPY",
    "indian": "INR",
    "pakistani": "PKR",
    "sri lankan": "LKR",
    "south african": "ZAR",
    "chinese": "CNY",
    "swedish": "SEK",
    "norwegian": "NOK",
    "danish": "DKK",
    "polish": "PLN",
    "brazilian": "BRL",
    "mexican": "MXN",
    "british": "GBP",
    "kenyan": "KES",
    "nigerian": "NGN",
}
_COUNTRY = "|".join(re.escape(c) for c in sorted(COUNTRY_CURRENCY, key=len, reverse=True))
_CUR_WORD = (
    rf"(?:{_COUNTRY})\s+(?:dollars?|francs?|yen|rupees?|rand|yuan|kronor|krona|kroner|krone"
    r"|zloty|reais|real|pesos?|pounds?|shillings?|naira)"
    r"|pounds?\s+sterling"
    r"|dollars?|euros?|pounds?|yen|rupees?|naira|rand|yuan|francs?|kronor|krona|kroner|krone"
    r"|zloty|złoty|zł|kr\.?|kč"
)
# Lengths (in metres), masses (in grams) and temperatures (in °C), each in any common unit.
LENGTH = {
    "mm": 0.001,
    "millimetre": 0.001,
    "millimetres": 0.001,
    "millimeter": 0.001,
    "millimeters": 0.001,
    "cm": 0.01,
    "centimetre": 0.01,
    "centimetres": 0.01,
    "centimeter": 0.01,
    "centimeters": 0.01,
    "m": 1,
    "metre": 1,
    "metres": 1,
    "meter": 1,
    "meters": 1,
    "km": 1000,
    "kms": 1000,
    "kilometre": 1000,
    "kilometres": 1000,
    "kilometer": 1000,
    "kilometers": 1000,
    "mi": 1609.344,
    "mile": 1609.344,
    "miles": 1609.344,
    "ft": 0.3048,
    "foot": 0.3048,
    "feet": 0.3048,
    "in": 0.0254,
    "inch": 0.0254,
    "inches": 0.0254,
    "yd": 0.9144,
    "yds": 0.9144,
    "yard": 0.9144,
    "yards": 0.9144,
    "nautical mile": 1852,
    "nautical miles": 1852,
}
MASS = {
    "mg": 0.001,
    "milligram": 0.001,
    "milligrams": 0.001,
    "mcg": 1e-6,
    "µg": 1e-6,  # the micro sign, and the Greek mu it folds to
    "μg": 1e-6,
    "microgram": 1e-6,
    "micrograms": 1e-6,
    "g": 1,
    "gram": 1,
    "grams": 1,
    "kg": 1000,
    "kgs": 1000,
    "kilo": 1000,
    "kilos": 1000,
    "kilogram": 1000,
    "kilograms": 1000,
    "lb": 453.592,
    "lbs": 453.592,
    "pound": 453.592,
    "pounds": 453.592,
    "oz": 28.3495,
    "ounce": 28.3495,
    "ounces": 28.3495,
    "t": 1e6,
    "mt": 1e6,  # metric tonnes
    "mts": 1e6,
    "tonne": 1e6,
    "tonnes": 1e6,
    "st": 6350.29,
    "stone": 6350.29,
    "stones": 6350.29,
}
_LENGTH = (
    r"millimet(?:re|er)s?|centimet(?:re|er)s?|kilomet(?:re|er)s?|met(?:re|er)s?|mm|cm|kms?|m|"
    r"nautical miles?|miles?|mi|feet|foot|ft|inch(?:es)?|yards?|yds?"
)
_MASS = (
    r"milligrams?|micrograms?|mcg|[µμ]g|mg|kilograms?|kilos?|kgs?|grams?|g|lbs?|pounds|ounces?|oz|"
    r"tonnes?|stones?|mts?|t(?![-'’])"
)
_SPEED = (
    r"mph|miles\s+(?:per|an)\s+hour|km/h|kmh|kph|kmph|km\s+(?:per|an)\s+hour|"
    r"kilomet(?:re|er)s\s+(?:per|an)\s+hour|knots?|kts|kn|m/s|met(?:re|er)s\s+per\s+second"
)
# Volumes, in litres.
VOLUME = {
    "ml": 0.001, "millilitre": 0.001, "millilitres": 0.001, "milliliter": 0.001,
    "milliliters": 0.001, "cl": 0.01, "dl": 0.1, "l": 1, "litre": 1, "litres": 1,
    "liter": 1, "liters": 1, "gallon": 3.78541, "gallons": 3.78541,
    "fl oz": 0.0295735, "fl. oz": 0.0295735, "fluid ounce": 0.0295735,
    "fluid ounces": 0.0295735, "m³": 1000, "m3": 1000, "cubic metre": 1000,
    "cubic metres": 1000, "cubic meter": 1000, "cubic meters": 1000, "pint": 0.568261,
    "pints": 0.568261, "µl": 0.000001, "μl": 0.000001, "ul": 0.000001, "microlitre": 0.000001,
    "microlitres": 0.000001, "microliter": 0.000001, "microliters": 0.000001,
}  # fmt: skip
# Pressures, in kilopascals.
PRESSURE = {"psi": 6.89476, "bar": 100.0, "mbar": 0.1, "kpa": 1.0, "hpa": 0.1, "mmhg": 0.133322,
            "atm": 101.325}  # fmt: skip
IMPERIAL_GALLON = 4.54609
US_GALLON = 3.785411784
MILE = 1.609344  # km
_VOLUME = (
    r"millilit(?:re|er)s?|ml|cl|dl|lit(?:re|er)s?|l|gallons?|fl\.? oz|fluid ounces?|m³|m3|"
    r"[µμ]l|ul|microlit(?:re|er)s?|"
    r"cubic met(?:re|er)s?|pints?"
)
_PRESSURE = "|".join(sorted(PRESSURE, key=len, reverse=True))
_ORDINAL = "|".join(ORDINAL_WORDS)
_DAY_NUM = r"\d{1,2}(?:st|nd|rd|th)?|" + "|".join(sorted(DAY_WORDS, key=len, reverse=True))
_HOUR = r"1[0-2]|0?[1-9]|" + "|".join(sorted(HOUR_WORDS, key=len, reverse=True))

# How often, per year: "every 6 months" = "twice a year", "fortnightly" = "every other
# week" ("every Monday", "weekends" stay days: which days is the fact to compare).
_PERIOD = r"hours?|days?|nights?|weeks?|fortnights?|months?|quarters?|years?"
PER_YEAR_OF = {
    "hour": 8760, "day": 365, "night": 365, "week": 52, "fortnight": 26, "month": 12,
    "quarter": 4, "year": 1,
}  # fmt: skip
FREQUENCY_WORDS = {
    "hourly": 8760, "daily": 365, "nightly": 365, "weekly": 52, "fortnightly": 26,
    "biweekly": 26, "bi-weekly": 26, "monthly": 12, "quarterly": 4, "annually": 1,
    "yearly": 1,
}  # fmt: skip
# Plural nouns after a count that measure an amount, not how many times: "8 hours a day",
# "120 euros a month" are no frequencies.
_NOT_EVENTS = (
    r"(?:hours|hrs|minutes|mins|seconds|secs|kms|kilomet(?:re|er)s|met(?:re|er)s|miles|yards|"
    r"feet|kgs|kilos|pounds|lbs|grams|ounces|litres|liters|millilit(?:re|er)s|gallons|"
    r"euros|dollars|rupees|francs|pesos|reais|rand|yen|calories|kcals)\b"
)
_OFTEN = r"hourly|daily|nightly|weekly|fortnightly|bi-?weekly|monthly|quarterly|annually|yearly"
FREQUENCY = re.compile(
    rf"(?<![\w.,-])(?:(?:every|each)\s+(?:(?P<other>other|second)\s+)?(?:(?P<step>{_NUM}|{_WORDNUM})\s+)?"
    rf"(?P<every>{_PERIOD})(?!\s+of\s+an?\s)"  # "every three quarters of an hour": a duration
    rf"|(?:(?P<times>once|twice|thrice)|(?<![$€£¥₹])(?<!\d[,.'’\s\u00a0\u202f])(?P<count>{_NUM}|{_WORDNUM})\s*(?:times|x|"
    rf"(?!{_NOT_EVENTS})[a-z]+s))\s+"
    rf"(?:(?:a|an|per|each|every)\s+(?P<period>{_PERIOD})|(?P<adverb>{_OFTEN}))"
    rf"|(?<![$€£¥₹])(?<!\d[,.'’\s\u00a0\u202f])(?P<per_count>\d{{1,3}}(?:\.\d+)?(?![\d,'’])|{_WORDNUM})\s+per\s+(?P<per_period>{_PERIOD})"
    rf"|(?P<word>{_OFTEN}))(?![\w-])"
    r"(?!\s+(?:from\s+(?:today|now|tomorrow)|ago|later)\b)",  # "ships a week from today"
    re.IGNORECASE,
)
# A day numbered in a month ("monthly on day 15", "day 3 of each month").
MONTHLY = re.compile(r"\bmonthly\b|\bof (?:the|each|every) month\b", re.IGNORECASE)
# A version constraint's operator before a release: "~> 5.31", "^1.2", "~=3.8", "==2.4"
# (not ">= 0.8" or "~0.5", which bound or round a figure).
CONSTRAINT_BEFORE = re.compile(r"(?:~>|==|~=|\^)\s*$")
# An age: "9 years old", "a 34-year-old", "turned 11", "aged 70".
AGE = re.compile(
    rf"(?<![\w.])({_NUM}|{_WORDNUM})[\s-]*(?:years?|yrs?)[\s-]*old(?!\w)"
    rf"|(?<![\w.])(\d{{1,3}})\s*(?:y/o|yo)(?!\w)"
    rf"|\b(?:turned|turns|turning|aged)\s+({_NUM}|{_WORDNUM})(?![\w.])",
    re.IGNORECASE,
)
SHARE_OF = {"half": 50.0, "third": 100 / 3, "quarter": 25.0, "fifth": 20.0, "tenth": 10.0}
SHARE = re.compile(
    r"\b(?:(?:a|one)\s+(half|third|quarter|fifth|tenth)\s+of(?!\s+an?\b)"
    r"|(half)\s+(?:of\s+)?(?:the|all|our|its|their|his|her|my|your)\b(?!\s+(?:hour|day|week|month|year)s?\b)"
    r"|(two|three|four)\s+(thirds|quarters|fifths)\s+of(?!\s+an?\b))",
    re.IGNORECASE,
)
# Words without which a pattern cannot match: a text lacking them skips its slower scan.
HINTS = {
    "net_terms": re.compile(r"net", re.IGNORECASE),
    "frequency": re.compile(rf"{_PERIOD}|{_OFTEN}", re.IGNORECASE),
    "age": re.compile(r"old|y/?o\b|turn|aged", re.IGNORECASE),
    "share": re.compile(r"half|third|quarter|fifth|tenth", re.IGNORECASE),
    "money_grand": re.compile(r"grand", re.IGNORECASE),
    "bare_hour": re.compile(
        rf"\b(?:at|until|till|til|before|after) (?:\d|(?:{_HOUR_WORDS})\b)", re.IGNORECASE
    ),
    "area": re.compile(r"sq|ft|m²|m2|square|acre|hectare|\bha\b", re.IGNORECASE),
    "pressure": re.compile(r"psi|bar|pa\b|mmhg|atm", re.IGNORECASE),
    "time_range_start": re.compile(r"\d\s*[-–]\s*\d", re.IGNORECASE),
}
# A telephone number: international ("+45 31 22 84 09", "+4531228409", "0044 20 7946
# 0958"), national with its trunk zero ("020 7946 0958") or in the North American way
# ("(415) 555-0132", "415-555-0132"): one number, never five figures or a time.
PHONE = re.compile(
    r"(?<![\w+.])(?:(?:\+|00)\d{1,3}(?:[^\S\n]?[.-]?[^\S\n]?\(?\d{1,5}\)?){2,6}"
    r"|0\d{1,4}[^\S\n.-]?[ .-][^\S\n]?\d{3,4}[ .-]?\d{3,4}"
    r"|\(\d{3}\)[^\S\n]?\d{3}[ .-]\d{4}|\d{3}[.-]\d{3}[.-]\d{4})(?![\w.-]\d|\w)"
)
PATTERNS = [
    ("phone", PHONE),
    # A share in words: "a quarter of sessions" = 25 %, "half the traffic", "two thirds of".
    ("share", SHARE),
    ("frequency", FREQUENCY),
    ("age", AGE),
    (
        "version",
        re.compile(
            rf"(?<![\w.])(?:\d+(?:\.\d+){{1,2}}\.[x*](?![\w.*])|v\d+(?:\.\d+){{0,3}}|"
            rf"\d+\.\d+\.\d+(?:\.\d+)?|(?<=version )\d+\.\d+|(?<=[A-Za-z] )(?<!\bat )"
            rf"(?<!\bby )(?<!\buntil )(?<!\btill )(?<!\bfrom )(?<!\b(?:{_CUR_CODE}) )\d+\.\d+"
            rf"(?!,\d|\s?(?:%|€|£|\$|°|(?:am|pm|per\s?cent|{_SPEED}|degrees?|[kmgt](?:bps|bit/s)|{_UNITS}|{_LENGTH}|{_MASS}|{_VOLUME}|{_PRESSURE}|{_CUR_CODE}|{_CUR_WORD})\b)))"
            r"(?:-?(?:rc|beta|alpha|b|a)\.?\d*)?(?!\w|\.\w)",
            re.IGNORECASE,
        ),
    ),
    ("date_iso", re.compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")),
    (
        "date_dmy",
        re.compile(
            rf"(?<!\w)(?:(?:{_DAY}),?\s+)?({_DAY_NUM})(?:\s+of)?\s+({_MONTH})\.?"
            rf"(?:,?\s+(\d{{4}}))?(?!\w)",
            re.IGNORECASE,
        ),
    ),
    (
        "date_mdy",
        re.compile(
            rf"(?<!\w)(?:(?:{_DAY}),?\s+)?({_MONTH})\.?\s+(?:the\s+)?({_DAY_NUM})"
            rf"(?:,?\s+(\d{{4}}))?(?![\w:])",
            re.IGNORECASE,
        ),
    ),
    # "the end of August", "last day of February 2028": that month's last day.
    (
        "date_month_end",
        re.compile(
            rf"(?<!\w)(?:the\s+)?(?:end|last\s+day|close)\s+of\s+({_MONTH})\.?"
            rf"(?:,?\s+(\d{{4}}))?(?!\w)",
            re.IGNORECASE,
        ),
    ),
    # "2027/01/15", "2027.01.15": year first, as ISO.
    ("date_ymd", re.compile(r"(?<![\d/.])(\d{4})([/.])(\d{1,2})\2(\d{1,2})(?![\d/]|\.\d)")),
    ("date_slash", re.compile(r"(?<![\d/.])(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})(?![\d/]|\.\d)")),
    # "21-08-2025": a day, a month and a four-digit year with dashes (not a range "3-5").
    ("date_dash", re.compile(r"(?<![\w/.-])(\d{1,2})-(\d{1,2})-(\d{4})(?![\w-])")),
    # A day and month with no year ("on 9/8", "due 15/3"), only where a date is expected:
    # elsewhere "7/10" is a share.
    ("date_slash_short", re.compile(r"(?<![\w/.])(\d{1,2})/(\d{1,2})(?![\w/]|\.\d)")),
    # Two counts read as one: a blood pressure "140/90" ("140 over 90"), a split "50/50",
    # a score "3/4": either changed is another reading.
    (
        "pair",
        re.compile(
            r"(?<![\w/.,$€£¥₹])(\d{1,4})\s?/\s?(\d{1,4})(?![\w/%]|[.,]\d)"
            r"|(?<![\w.])(\d{2,3}) over (\d{2,3})(?![\w%]|[.,]\d)"
        ),
    ),
    (
        "date_relative",
        re.compile(
            rf"(?<!\w)(?:(next|this|last|coming)\s+({_DAY})|"
            r"(the day after tomorrow|the day before yesterday|today|tonight|tomorrow|"
            r"yesterday|last night)|"
            rf"in\s+({_NUM}|{_WORDNUM}|a)\s+(days?|weeks?|fortnights?)|"
            rf"({_NUM}|{_WORDNUM}|a)\s+(days?|weeks?|fortnights?)\s+"
            r"(from (?:today|now|tomorrow)|today|tomorrow|out|later|left|ago|away|off)|"
            rf"({_DAY})\s+of\s+this\s+week|"
            rf"(next|this|last)\s+week,?\s+(?:on\s+)?(?:the\s+)?({_DAY})|"
            rf"(?:on\s+)?(?:the\s+)?({_DAY})\s+(?:of\s+)?(next|last|this)\s+week|"
            r"(?:the\s+)?(end|start|beginning|last day|first day|(?:first|1st)(?=\s+of\s+(?:this|"
            r"next|last)\b))\s+of\s+(this|next|last|the)\s+"
            r"month)(?!\w)",
            re.IGNORECASE,
        ),
    ),
    # "Monday through Friday", "Mon–Sat", "weekdays": which days of the week, as a span.
    (
        "weekday_range",
        re.compile(
            rf"(?<!\w)({_DAY})s?\.?\s*(?:-|–|—|to|through|thru|till|until)\s*({_DAY})s?(?!\w)"
            r"|(?<!\w)(weekdays|weekends)(?!\w)",
            re.IGNORECASE,
        ),
    ),
    ("weekday", re.compile(rf"(?<!\w)(?:on\s+)?({_DAY})s?(?!\w)", re.IGNORECASE)),
    (
        "month_year",
        re.compile(
            rf"(?<!\w)({_MONTH})\.?,?\s+(\d{{4}})(?!\w)|(?<!\w)(?:in|since|by|from|until)\s+({_MONTH})"
            r"(?!\w)(?!\.?,?\s+\d{4})",
            re.IGNORECASE,
        ),
    ),
    # "2028-08", "08/2028": a month of a year written in digits.
    (
        "month_iso",
        re.compile(
            r"(?<![\w.-])(\d{4})-(0[1-9]|1[0-2])(?![\w-]|\.\d)"
            r"|(?<![\w/.-])(0?[1-9]|1[0-2])/(\d{4})(?![\w/]|\.\d)"
        ),
    ),
    # "Q2 2026", "Q3", "2026-Q1", "H2 2025", "the third quarter of 2026": three (six)
    # months, any of which is the same time.
    (
        "quarter",
        re.compile(
            r"(?<![\w-])([QH])([1-4])(?:\s*(?:FY\s?)?'?(\d{4}|\d{2}))?(?![\w-])"
            r"|(?<![\w-])(\d{4})\s*[-/ ]?\s*([QH])([1-4])(?![\w-])"
            r"|(?<!\w)(first|second|third|fourth|1st|2nd|3rd|4th)\s+(quarter|half)"
            r"(?:\s+of\s+(\d{4}))?(?!\w)",
            re.IGNORECASE,
        ),
    ),
    # "quarter to eleven", "half past 9", "half nine", "ten o'clock", "noon", "9h30",
    # "at 0930", "opens 0700", "at 22.30", "1530 hrs": a time said without am or pm is
    # either (10:45 or 22:45).
    (
        "time_words",
        re.compile(
            rf"(?<!\w)(?:(?:a\s+)?(quarter)\s+(past|after|to)\s+({_HOUR})"
            rf"|half\s+past\s+({_HOUR})|half\s+({_HOUR})(?!\s*(?:an?\b|hours?|days?|\w+s\b))"
            rf"|({_HOUR})\s+o'?\s?clock|(?:12\s+)?(noon|midday|midnight)"
            r"|([01]?\d|2[0-3])h([0-5]\d)"
            r"|(?:(?<=\bat )|(?<=\bby )|(?<=\bfrom )|(?<=\buntil )|(?<=\btill )|(?<=\bbefore )"
            r"|(?<=\bafter )|(?<![\w.,:#])(?=0[5-9][0-5]\d(?!\s?\d)))"
            r"([01]\d|2[0-3])\.?([0-5]\d)(?!\.\d)"
            r"|([01]\d|2[0-3])([0-5]\d)\s?(?:h|hrs|hours)"
            r"|(?:(?<=\bat )|(?<=\bby )|(?<=\buntil )|(?<=\btill )|(?<=\bbefore )|(?<=\bafter )"
            r"|(?<=\baround )|(?<=\babout )|(?<=: )|(?<=— ))(five|ten|twenty|twenty[- ]five)\s+"
            r"(?:minutes\s+)?"
            rf"(past|after|to)\s+({_HOUR})(?!\s+(?:[a-z]+s|of|per)\b))(?!\w)",
            re.IGNORECASE,
        ),
    ),
    # A range's first time, its half of the day from the second: "10-11am" starts at 10:00,
    # "11-1pm" at 11:00 (the second, "11am", is read as a time of its own).
    (
        "time_range_start",
        re.compile(
            r"(?<![\w:.])(\d{1,2})(?:[:.]([0-5]\d))?(?=\s*[-–]\s*(\d{1,2})(?:[:.][0-5]\d)?\s*"
            r"(am|pm|a\.m\.|p\.m\.)(?!\w))",
            re.IGNORECASE,
        ),
    ),
    # Hours with no am/pm beside a day or an opening ("Wednesdays, 9–12", "open 10-6
    # Saturdays", "9 to 5 on weekdays"): two times of day (``_clock_range``).
    (
        "clock_range",
        re.compile(
            r"(?<![\w:.,/$€£¥₹-])(\d{1,2})(?:[:.]([0-5]\d))?[^\S\n]*(?:[-–—]|to|till|until)"
            r"[^\S\n]*(\d{1,2})(?:[:.]([0-5]\d))?(?![\w:/%°'’-]|[.,]\d|\s*(?:am|pm|a\.m|p\.m|%|°))",
            re.IGNORECASE,
        ),
    ),
    (
        "time",
        re.compile(
            r"(?<![\w:.])(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)(?:\s+"
            + _CITY_TIME
            + r"("
            + _ZONE
            + r"))?"
            r"(?!\w)|(?<![\w:.])([01]?\d|2[0-3]):([0-5]\d)(?::\d{2})?(?:\s*"
            + _CITY_TIME
            + r"("
            + _ZONE
            + r"|(?<=\d)Z))?(?![\w:])",  # "09:47Z": Zulu, UTC
            re.IGNORECASE,
        ),
    ),
    # An hour with no am/pm after "at", "until" or "before" that ends the phrase ("roped off
    # till 7", "doors at 6.30, on Fridays"): a time of day, morning or evening, when the line
    # speaks of hours or the text states another time (``_bare_hour``).
    (
        "bare_hour",
        re.compile(
            r"(?:(?<=\bat )|(?<=\buntil )|(?<=\btill )|(?<=\btil )|(?<=\bbefore )|(?<=\bafter ))"
            rf"(\d{{1,2}}|{_HOUR_WORDS})(?:[:.]([0-5]\d))?"
            r"(?=[^\S\n]*(?:$|\n|[,;)]|\.(?!\d)|(?:on|every|each|and|then|but|or|sharp|daily|"
            r"tonight|today|tomorrow|latest|at the latest)\b))",
            re.IGNORECASE,
        ),
    ),
    (
        "money",
        re.compile(
            rf"(?<!\w)(?:({_CUR_SYMBOL})\s?|({_CUR_CODE})\s?)({_MONEY_NUM}|{_NUM})\s?({_SCALE})?(?!\w)"
            rf"|(?<![\w.,'])({_MONEY_NUM}|{_NUM}|{_WORDNUM})\s?({_SCALE})?[\s-]?\(?"
            rf"({_CUR_CODE}|{_CUR_WORD}|{_CUR_SYMBOL})"
            r"(?!\w)",
            re.IGNORECASE,
        ),
    ),
    # "ten grand", "50 grand": thousands of some currency (the text's own, any other's).
    (
        "money_grand",
        re.compile(rf"(?<![\w.,])({_NUM}|{_WORDNUM})\s+grand(?!\w)", re.IGNORECASE),
    ),
    # "7 lb 8 oz", "5 ft 10 in", "5'10\"": a measure in two imperial units.
    (
        "imperial_compound",
        re.compile(
            r"(?<![\w.])(?:(\d+)\s?(lbs?|pounds?|st|stones?)\s+(\d+(?:\.\d+)?)\s?"
            r"(oz|ounces?|lbs?|pounds?)"
            r"|(\d)\s?(?:ft|feet|foot)\s+(\d{1,2}(?:\.\d+)?)\s?(?:in|inch|inches)?"
            r"|(\d)'\s?(\d{1,2})(?:\"|''|in\b))(?![\w'\"])",
            re.IGNORECASE,
        ),
    ),
    # A pressure, in kilopascals: "200 psi" = "13.8 bar", "1013 hPa", "120 mmHg" (not "2
    # bar stools").
    (
        "pressure",
        re.compile(
            rf"(?<![\w.])({_NUM})\s?({_PRESSURE})(?!\w)(?!(?<=bar)\s+(?:stools?|chairs?|tabs?|"
            r"staff|shifts?|counters?|area|snacks?|codes?)\b)",
            re.IGNORECASE,
        ),
    ),
    # An area, in square metres: "25,000 sq ft" = "2,320 m²", "3 acres", "2 ha".
    (
        "area",
        re.compile(
            rf"(?<![\w.])({_NUM})\s?(sq\.?\s?(?:ft|feet|foot|m|metres?|meters?|km|mi)|ft²|ft2|m²|m2|"
            r"sqm|sqft|square\s+(?:feet|foot|metres?|meters?|kilomet(?:re|er)s?|miles?)|acres?|"
            r"hectares?|ha)(?!\w)",
            re.IGNORECASE,
        ),
    ),
    (
        "temperature",
        re.compile(
            rf"(?<![\w.])((?:[-−]|minus\s+)?(?:{_NUM}))\s?(?:°\s?|degrees?\s+)([cf])(?:elsius|ahrenheit)?(?!\w)",
            re.IGNORECASE,
        ),
    ),
    # A JVM's heap flags ("-Xmx8192m", "-Xms2g"): binary sizes.
    ("jvm_heap", re.compile(r"(?<![\w-])-Xm[xs](\d+)([kmgt])\b", re.IGNORECASE)),
    # Kubernetes quantities ("512Mi", "2Gi"): binary sizes, before "mi" reads as miles.
    ("size", re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti)(?!\w|\.\w)")),
    # A fuel economy, in kilometres per litre: "18 km/l", "42 mpg", "5.6 l/100 km" (the
    # litres a distance takes: the inverse).
    (
        "economy",
        re.compile(
            rf"(?<![\w.])({_NUM}|{_WORDNUM})\s?(?:(km/l|kmpl|km\s+(?:per|to\s+the|a)\s+lit(?:re|er)|"
            r"kilomet(?:re|er)s\s+(?:per|to\s+the|a)\s+lit(?:re|er))|"
            r"(mpg|miles\s+(?:per|to\s+the|a)\s+gallon)(?:\s*\(?(us|uk|imp(?:erial)?)\b\)?)?|"
            r"(l(?:itres?|iters?)?\s*(?:/|per)\s*100\s?(?:km|kilomet(?:re|er)s)))(?!\w)",
            re.IGNORECASE,
        ),
    ),
    # A speed, in metres per second: "50 mph" = "80 km/h", "12.5 kn".
    (
        "speed",
        re.compile(
            rf"(?<![\w.])({_NUM}|{_WORDNUM})\s?({_SPEED})(?![\w/])",
            re.IGNORECASE,
        ),
    ),
    (
        "length",
        re.compile(rf"(?<![\w.])({_NUM}|{_WORDNUM})[\s-]?({_LENGTH})(?!\w)", re.IGNORECASE),
    ),
    (
        "mass",
        re.compile(rf"(?<![\w.])({_NUM}|{_WORDNUM})[\s-]?({_MASS})(?!\w)", re.IGNORECASE),
    ),
    (
        "volume",
        re.compile(
            rf"(?<![\w.])({_NUM}|{_WORDNUM})[\s-]?(?:US\s+|UK\s+|imperial\s+|imp\.?\s+)?"
            rf"({_VOLUME})(?!\w)",
            re.IGNORECASE,
        ),
    ),
    # "the 1st of each month", "the last day of the month": a day of any month.
    (
        "month_day",
        re.compile(
            rf"(?<=\bthe )(\d{{1,2}}(?:st|nd|rd|th)|first|second|last|{_ORDINAL})"
            r"(?=\s+(?:day\s+|working day\s+)?of\s+(?:each|every|the|a|any)\s+month\b)",
            re.IGNORECASE,
        ),
    ),
    # "the 4th floor", "her seventh marathon" (dates took "4th of July" before).
    (
        "ordinal",
        re.compile(
            rf"(?<![\w.])(\d{{1,3}})(?:st|nd|rd|th)(?!\w)|(?<!\w)({_ORDINAL}|first|second)(?!\w)",
            re.IGNORECASE,
        ),
    ),
    # Payment terms: "net 30", "Net-45" = paid within 30 / 45 days.
    ("net_terms", re.compile(r"\bnet[\s-]?(\d{1,3})(?![\w,%]|\.\d)", re.IGNORECASE)),
    (
        "percent",
        re.compile(rf"(?<![\w.])({_NUM})\s?(%|percent|per\s?cent|pct)(?!\w)", re.IGNORECASE),
    ),
    (
        "size",
        re.compile(
            rf"(?<![\w.])({_NUM})\s?(kib|mib|gib|tib|kb|mb|gb|tb|bytes)(?!\w)", re.IGNORECASE
        ),
    ),
    (
        # a bit rate: "500 Mbps" = "0.5 Gbps" = "500 Mbit/s" ("500 MB/s" reads as a size)
        "rate",
        re.compile(rf"(?<![\w.])({_NUM})\s?([kmgt])(?:bps|bit/s)(?!\w)", re.IGNORECASE),
    ),
    (
        # a year written short: "RAV4 ('18)" = 2018
        "year_short",
        re.compile(r"(?<![\w'’])['’](\d{2})(?![\w'’])"),
    ),
    (
        # "an hour and a half", "two and a half hours", "half an hour", "three quarters of an
        # hour", "2 h 30 min", "1 hour and 15 minutes": before the plain durations, which
        # would read "an hour" or "half hours" alone.
        "duration_compound",
        re.compile(
            rf"(?<![\w.])(?:({_NUM}|{_WORDNUM}|an?)[\s-]+({_DUR_UNIT})\s+and\s+({_FRACTION})"
            rf"|({_NUM}|{_WORDNUM})\s+and\s+({_FRACTION})\s+({_DUR_UNIT})"
            rf"|({_FRACTION})\s+(?:of\s+)?an?[\s-]+({_DUR_UNIT})|a\s+half[\s-]({_DUR_UNIT})"
            rf"|(\d+)\s?({_DUR_UNIT})(?:,?\s+and)?\s+(\d+)\s?({_DUR_UNIT}))(?!\w)",
            re.IGNORECASE,
        ),
    ),
    (
        "duration",
        re.compile(
            rf"(?<![\w.])({_NUM}|{_WORDNUM}|an(?=\s+hour)|a(?=\s+fortnight))[\s-]?"
            # "100 working days": days all the same
            r"(?:(?:working|business|work|calendar)\s+(?=days?\b))?"
            # "40 prepaid hours", "3 extra days": a word that says whose or which time
            rf"(?:(?:{'|'.join(TIME_QUALIFIERS)})\s+(?=(?:hours?|hrs|days?|minutes?|mins|weeks?|months?)\b))?"
            r"(milliseconds?|msec|ms|seconds?|secs?|s|minutes?|mins?|min|hours?|hrs?|h|days?|"
            r"weeks?|wks?|fortnights?|months?|mos|mo|mths?|years?)(?!\w)",
            re.IGNORECASE,
        ),
    ),
    # "once a week", "twice a day": how often, as a count.
    ("times", re.compile(r"(?<!\w)(once|twice|thrice)(?!\w)", re.IGNORECASE)),
    # A cron schedule's minute and hour ("0 3 * * *" runs at 03:00).
    (
        "cron",
        re.compile(
            r"(?<![\w*/])([0-5]?\d)\s+([01]?\d|2[0-3])\s+(?:\*|[\d,/-]+)\s+(?:\*|[\d,/-]+)\s+"
            r"(?:\*|[\d,/-]+|[A-Za-z]{3}(?:-[A-Za-z]{3})?)(?![\w*])"
        ),
    ),
    # A setting switched on or off ("dark_mode: true", "BETA_EXPORT=off", "\"sso\": false"):
    # the key is what the value is of.
    (
        "switch",
        re.compile(
            r"(?:^|(?<=[\s{,(\[]))[\"'`]?([A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*)[\"'`]?"
            r"\s*[:=]\s*[\"'`]?(true|false|on|off|yes|no|enabled?|disabled?)[\"'`]?"
            r"(?=\s*(?:$|[,;})\]#]|\.(?:\s|$)))",
            re.IGNORECASE | re.MULTILINE,
        ),
    ),
    # A Roman numeral after what it numbers: "Phase II" = "phase 2", "Stage III", "Type II".
    (
        "roman",
        re.compile(
            r"(?<![\w-])(?i:phase|stage|level|tier|grade|class|type|part|chapter|volume|vol\.?|"
            r"book|round|gen|generation|mark|mk|act|season|category|cat)\.?\s+"
            r"(I{1,3}|IV|VI{0,3}|IX)(?![\w-])"
        ),
    ),
    # A week, day or month counted from a start: "at week 24" = "after 24 weeks", "the Day
    # 14 visit" = "the 14-day visit".
    (
        "period_index",
        re.compile(r"(?<![\w-])(week|day|month|wk)\s+(\d{1,3})(?![\w%]|[.,:/-]\d)", re.IGNORECASE),
    ),
    (
        "number",
        re.compile(
            rf"(?<![\w.$€£¥₹])({_NUM})(?:\s?({_SCALE}))?(?![\w%]|\.\w)|(?<!\w)({_WORDNUM})(?!\w)",
            re.IGNORECASE,
        ),
    ),
]
CLOCK_RANGE = dict(PATTERNS)["clock_range"]
# The patterns without the hundreds and thousands in words, their number words behind the
# same guard.
PLAIN_PATTERNS = [
    (
        name,
        re.compile(
            pattern.pattern.replace(_WORDNUM, rf"{_WORDNUM_START}(?:{_PLAIN_WORDNUM})"),
            pattern.flags,
        ),
    )
    for name, pattern in PATTERNS
]
# Kinds whose values are of something named beside them (their unit): "3 replicas" and "5
# retries", "dark_mode: on" and "beta: off" are no two readings of one fact.
COUNTED_KINDS = frozenset({"number", "switch"})
# Kinds whose values compare with each other.
KIND = {
    "date_iso": "date",
    "date_dmy": "date",
    "date_mdy": "date",
    "date_month_end": "date",
    "date_ymd": "date",
    "date_slash": "date",
    "date_dash": "date",
    "date_slash_short": "date",
    "date_relative": "date",
    "weekday": "date",
    "month_year": "month",
}


@dataclass
class Value:
    kind: str  # money, percent, size, length, mass, volume, area, duration, date, month, time,
    # version, frequency, age, switch, number, economy (km per litre), pair ("140/90")
    key: tuple  # the comparable form
    start: int
    end: int
    text: str
    unit: str = ""  # for numbers: the noun they count ("3 replicas" -> "replica")
    alternatives: tuple = field(default_factory=tuple)  # other readings (05/03: 5 Mar, 3 May)
    rough: bool = False  # said as a rough figure: "about 2h45", "~233 km", "just under 3 hours"


def _version_key(raw: str) -> str:
    """ "v2.0.0" and "2" are one version; "3.11.4" and "3.11" are not."""
    core, _, suffix = raw.casefold().lstrip("v").partition("-")
    parts = core.removesuffix(".x").removesuffix(".*").split(".")  # "1.6.x": any 1.6
    while len(parts) > 1 and parts[-1].strip("0") == "":
        parts.pop()
    return ".".join(parts) + (f"-{suffix}" if suffix else "")


def _currency_word(word: str) -> str:
    """ "euros" → EUR, "Swiss francs" → CHF, "pounds sterling" → GBP; "?" when unknown."""
    lowered = re.sub(r"\s+", " ", word.casefold())
    if lowered in CURRENCY:
        return CURRENCY[lowered]
    if lowered.endswith("sterling"):
        return "GBP"
    return COUNTRY_CURRENCY.get(lowered.rsplit(" ", 1)[0], "?")


def _amount(text: str, scale: str | None = None) -> float | None:
    """An amount of money in any grouping: "84.000,00" and "1'200" as well as "84,000.00";
    before a scale ("1.008M", "2.500k") a dot is a decimal point, as no one groups the
    thousands of millions."""
    if scale and re.fullmatch(r"\d+\.\d+", text.strip()):
        return _number(text)
    if re.fullmatch(_MONEY_NUM, text.strip()):
        return _number(text.replace(".", "").replace("'", "").replace(",", "."))
    return _number(text)


def _number(text: str) -> float | None:
    lowered = text.casefold().strip()
    if lowered in NUMBER_WORDS:
        return float(NUMBER_WORDS[lowered])
    if re.fullmatch(_WORDSCALE, lowered):
        return _words_number(lowered)
    try:
        return float(re.sub(r"[,\s\u00a0\u202f]", "", lowered))
    except ValueError:
        return None


def _words_number(text: str) -> float:
    """A number said in words with hundreds or thousands: "a hundred and twenty" 120,
    "fifteen hundred" 1500, "three thousand five hundred" 3500."""
    total = current = 0.0
    words = re.sub(r"\band\b", " ", text).split()
    if "point" in words:  # "four point two million": 4.2, then the scale
        at = words.index("point")
        digits = "".join(str(NUMBER_WORDS[w]) for w in words[at + 1 : -1])
        current = _words_number(" ".join(words[:at])) + float(f"0.{digits}")
        words = words[-1:]
    index = 0
    while index < len(words):
        word = words[index]
        pair = f"{word} {words[index + 1]}" if index + 1 < len(words) else ""
        if pair in NUMBER_WORDS:
            current += NUMBER_WORDS[pair]
            index += 2
            continue
        if word in {"a", "an"}:
            current += 1
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in {"thousand", "million"}:
            total += (current or 1) * (1e3 if word == "thousand" else 1e6)
            current = 0.0
        else:
            current += NUMBER_WORDS.get(word, 0)
        index += 1
    return total + current


# The share that failed, against the share that worked: "0.1% downtime" = "99.9% uptime".
FAILURE_SHARE = re.compile(
    r"\b(?:downtime|unavailab\w*|failures?|failing|fails|errors?|error rate|miss rate|misses|"
    r"loss|packet loss|churn|defects?|drop rate|idle|disagree|disagreed|disagreement|unused|"
    r"vacancy|vacant)\b",
    re.IGNORECASE,
)


def _failure_share(text: str, start: int, end: int) -> bool:
    """Whether the percentage at ``start:end`` is a share of failures: such a word in its
    own clause, just before or after it."""
    before = re.split(r"[,;.()]|\band\b|\bwith\b", text[max(0, start - 30) : start])[-1]
    after = re.split(r"[,;.()]|\band\b|\bwith\b", text[end : end + 25])[0]
    return bool(FAILURE_SHARE.search(before) or FAILURE_SHARE.search(after))


def _scale(value: float, scale: str | None) -> float:
    return value * SCALE.get((scale or "").casefold(), 1)


# The patterns by name (the dates of a note's own day, a time of day written in full).
_NAMED_PATTERNS = dict(PATTERNS)
# The year of a reference day said without one ("(Written on 1 February) ... tomorrow"):
# a leap year, so 29 February reads; the days counted from it keep no year.
YEARLESS = 2000
DATED = re.compile(
    r"\b(?:written|dated|noted|posted|sent|logged|recorded|as of|today is|today's date is|"
    r"note from|notes from|update from)\s*(?:on\s+)?[:,]?\s*"
    r"(?:(?:\w+day|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?,?\s+)?$",
    re.IGNORECASE,
)


def _reference_date(text: str) -> dt.date | None:
    """The day a note is dated by (its first full date), for relative dates; else a day
    without a year that the note says it was written on (``YEARLESS``)."""
    for name in ("date_iso", "date_dmy", "date_mdy"):
        for match in _NAMED_PATTERNS[name].finditer(text):
            date = _full_date(name, match)
            if date is not None:
                return date
    for name in ("date_dmy", "date_mdy"):
        for match in _NAMED_PATTERNS[name].finditer(text):
            if not DATED.search(text[max(0, match.start() - 40) : match.start()]):
                continue
            read = _month_day(name, match.groups())
            try:
                return dt.date(YEARLESS, read[0], read[1]) if read else None
            except ValueError:
                return None
    return None


class NoteDay(NamedTuple):
    """The day a note says it was written on, and where that date stands."""

    date: dt.date
    start: int
    end: int


def note_day(text: str) -> NoteDay | None:
    """The day a note says it was written on: a full date after "written", "dated", "note
    from", … (``DATED``), or the note's opening stamp (``_STAMPS``) when the date opens the
    note ("2025-09-12: …", "**Fri 12 Sep 2025** — …"); not a record's date after its label
    ("CAB 14 Oct 2025: approved …", "Family call, Sun 8 June 2025 — …") nor any date it
    mentions ("Office hours Thursday; the exam is on 12 March 2026")."""
    stamps = [m.span("d") for m in (p.search(text) for p in _STAMPS[:3]) if m is not None]
    for name in ("date_iso", "date_dmy", "date_mdy"):
        for match in _NAMED_PATTERNS[name].finditer(text):
            said = DATED.search(text[max(0, match.start() - 40) : match.start()]) is not None
            opens = any(
                start <= match.start() and match.end() <= end for start, end in stamps
            ) and not re.sub(rf"(?i)[\s#*_>\[(|-]|\b(?:{_DAY})\b,?", "", text[: match.start()])
            date = _full_date(name, match) if said or opens else None
            if date is not None:
                return NoteDay(date, match.start(), match.end())
    return None


def _day(raw: str) -> int:
    """A day of the month: "21", "21st", "twenty-first"."""
    word = " ".join(raw.casefold().split())
    if word in DAY_WORDS:
        return DAY_WORDS[word]
    return int(re.match(r"\d+", word).group(0))


def _month_day(name: str, groups: tuple) -> tuple[int, int, int | None] | None:
    """(month, day, year or None) of a "21 August 2025" or "August 21st" match; None for a
    day in words beside a month in lower case ("you may first check": not 1 May)."""
    day, month = (groups[0], groups[1]) if name == "date_dmy" else (groups[1], groups[0])
    if not day[:1].isdigit() and not month[:1].isupper():
        return None
    return MONTHS[month.casefold().rstrip(".")], _day(day), int(groups[2]) if groups[2] else None


def _full_date(name: str, match: re.Match) -> dt.date | None:
    try:
        if name == "date_iso":
            return dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        if name in {"date_dmy", "date_mdy"} and match.group(3):
            read = _month_day(name, match.groups())
            return dt.date(read[2], read[0], read[1]) if read else None
    except (ValueError, KeyError):
        return None
    return None


_DAYS_IN = {"day": 1, "week": 7, "fortnight": 14}
# A date written with dots, the day first and the year in full: no release is numbered so.
DOTTED_DATE = re.compile(r"(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.(?:19|20)\d\d")


def _date_value(name: str, match: re.Match, reference: dt.date | None):
    """(key, alternatives) of a date match: key = (year or None, month, day)."""
    groups = match.groups()
    try:
        if name == "date_iso":
            return (int(groups[0]), int(groups[1]), int(groups[2])), ()
        if name in {"date_dmy", "date_mdy"}:
            read = _month_day(name, groups)
            if read is None or not 1 <= read[1] <= 31:
                return None
            return (read[2], read[0], read[1]), ()
        if name == "date_ymd":
            return (int(groups[0]), int(groups[2]), int(groups[3])), ()
        if name == "date_month_end":
            if not groups[0][:1].isupper():
                return None  # "the end of may" is no month
            month = MONTHS[groups[0].casefold().rstrip(".")]
            year = int(groups[1]) if groups[1] else None
            if month == 2 and year is None:
                return (None, 2, 28), ((None, 2, 29),)  # a leap year's or not
            return (year, month, calendar.monthrange(year or 2001, month)[1]), ()
        if name in {"date_slash", "date_dash"}:
            first, second, year = int(groups[0]), int(groups[1]), int(groups[2])
            year = year + 2000 if year < 100 else year
            day_first, month_first = (year, second, first), (year, first, second)
            if first > 12:
                return day_first, ()
            if second > 12:
                return month_first, ()
            return day_first, (month_first,)
        if name == "date_slash_short":  # either order: 9/8 is 9 August or September 8
            first, second = int(groups[0]), int(groups[1])
            readings = [(None, m, d) for d, m in ((first, second), (second, first)) if m <= 12]
            readings = [r for r in readings if 1 <= r[2] <= 31 and r[1] >= 1]
            return (readings[0], tuple(readings[1:])) if readings else None
        if name == "date_relative":
            if callable(reference):  # the note's own day, read only when a date needs it
                reference = reference()
            if reference is None:
                return None
            if reference.year == YEARLESS and not (
                groups[2] or groups[5] or groups[3] or groups[13]
            ):
                return None  # a weekday counted from a day of unknown year: unknown
            if groups[2]:
                offset = {
                    "today": 0,
                    "tonight": 0,
                    "tomorrow": 1,
                    "yesterday": -1,
                    "last night": -1,
                    "the day after tomorrow": 2,
                    "the day before yesterday": -2,
                }[" ".join(groups[2].casefold().split())]
                day = reference + dt.timedelta(days=offset)
            elif groups[13]:  # "the end of next month": its last day; "the start of": its 1st
                months = reference.month - 1 + {"next": 1, "last": -1}.get(groups[14].casefold(), 0)
                year, month = reference.year + months // 12, months % 12 + 1
                day = dt.date(year, month, 1)
                if groups[13].casefold() in {"end", "last day"}:
                    day = dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)
            elif groups[8]:  # "Thursday of this week"
                day = reference + dt.timedelta(
                    days=WEEKDAYS[groups[8].casefold()] - reference.weekday()
                )
            elif groups[9] or groups[11]:  # "next week on Wednesday", "Friday next week"
                which = (groups[9] or groups[12]).casefold()
                weekday = WEEKDAYS[(groups[10] or groups[11]).casefold()]
                weeks = {"next": 1, "this": 0, "last": -1}[which]
                monday = reference - dt.timedelta(days=reference.weekday())
                day = monday + dt.timedelta(days=7 * weeks + weekday)
            elif groups[5]:  # "a week from today", "three days ago", "ten days left"
                count = 1 if groups[5].casefold() == "a" else _number(groups[5]) or 0
                unit = _DAYS_IN.get(groups[6].casefold().rstrip("s"), 1)
                sign = -1 if groups[7].casefold() == "ago" else 1
                day = reference + dt.timedelta(days=sign * int(count * unit))
                if groups[7].casefold().endswith("tomorrow"):  # "a week tomorrow"
                    day += dt.timedelta(days=1)
            elif groups[1]:
                weekday = WEEKDAYS[groups[1].casefold()]
                ahead = (weekday - reference.weekday()) % 7
                which = groups[0].casefold()
                if which == "last":
                    day = reference - dt.timedelta(days=(reference.weekday() - weekday) % 7 or 7)
                elif which == "next" and ahead == 0:  # "next Monday", said on a Monday
                    day = reference + dt.timedelta(days=7)
                elif which == "next" and weekday < reference.weekday():
                    day = reference + dt.timedelta(days=ahead)  # "next Monday" said on a
                    # Wednesday: the coming one, already in next week
                elif which == "next":
                    day = reference + dt.timedelta(days=ahead)
                    alternative = day + dt.timedelta(days=7)  # "next Tuesday" = a week later
                    return (day.year, day.month, day.day), (
                        (alternative.year, alternative.month, alternative.day),
                    )
                else:
                    day = reference + dt.timedelta(days=ahead)
            else:
                count = 1 if groups[3].casefold() == "a" else _number(groups[3]) or 0
                unit = _DAYS_IN.get(groups[4].casefold().rstrip("s"), 1)
                day = reference + dt.timedelta(days=int(count * unit))
            if reference.year == YEARLESS:
                return (None, day.month, day.day), ()
            return (day.year, day.month, day.day), ()
        if name == "weekday":
            if re.search(r"\b(?:next|last|this|coming)\s+$", match.string[: match.start()], re.I):
                return None  # "next Tuesday" from a day of unknown year: unknown
            weekday = WEEKDAYS[groups[0].casefold()]
            written = None
            if not match.group(0).casefold().endswith("s"):  # "Mondays": every one, no day
                written = note_day(match.string)
            if written is not None and written.end < match.start():
                reference = written.date
                # "Written Friday 12 September 2025: the visit is on Monday": the Monday
                # after the note's day (or the one before it, told of as past)
                ahead = (weekday - reference.weekday()) % 7 or 7
                after = reference + dt.timedelta(days=ahead)
                before = after - dt.timedelta(days=7)
                return (after.year, after.month, after.day), (
                    (before.year, before.month, before.day),
                    ("weekday", weekday),
                )
            return ("weekday", weekday), ()
    except (ValueError, KeyError):
        return None
    return None


# Words after a number that say what it counts only through the word after them ("3 new
# replicas"), and words that say nothing of it ("4 per week", "2 and counting").
COUNT_MODIFIERS = frozenset(
    "new more extra additional other full old total big small large senior junior".split()
)
NOT_UNITS = frozenset(
    """per and the for but with from each every are was were has have had than out off
    then now not also only this that these those""".split()
)


# Words after "one" that make it no count ("one of", "one day", "one more") and before it
# ("no one", "the one", "which one").
ONE_NOT_FOLLOWED_BY = set(
    "of day days time thing way more another other point hand side "
    "last or and by to that which who bit little such".split()
)
ONE_NOT_PRECEDED_BY = set("no the this that which any every each someone anyone no-one".split())


def _one_counts(text: str, start: int, end: int) -> bool:
    """Whether a written "one" counts the noun after it ("one sugar", "just one child" /
    "two children"), not "one of them", "one day", "no one", "the one in Lyon"."""
    after = re.match(r"\s+([A-Za-z][A-Za-z-]*)", text[end:])
    before = re.search(r"([A-Za-z][A-Za-z-]*)\s+$", text[:start])
    if not after or after.group(1).casefold() in ONE_NOT_FOLLOWED_BY:
        return False
    if before and before.group(1).casefold() in ONE_NOT_PRECEDED_BY:
        return False
    return bool(_unit_after(text, end))


def _unit_after(text: str, end: int) -> str:
    """The noun a number counts: "3 replicas" → "replica", "3 new replicas" → "replica";
    none for "4 per week"."""
    part = re.match(  # "two of her stylists", "3 of the replicas": a part of them
        r"[^\S\n]+of\s+(?:the|her|his|their|our|my|your|its|these|those)\s+([A-Za-z][A-Za-z-]{2,})",
        text[end:],
    )
    if part:
        return count_noun(part.group(1).casefold())
    words = re.match(
        # on the number's own line: a list's next line says nothing of it ("a two-bedroom":
        # the noun joined by a hyphen)
        r"(?:[^\S\n]*(?:x[^\S\n]+)?|-)([A-Za-z][A-Za-z-]{2,})(?:[^\S\n]+([A-Za-z][A-Za-z-]{2,}))?",
        text[end:],
    )
    if not words:
        return ""
    word = words.group(1).casefold()
    second = (words.group(2) or "").casefold()
    if word in COUNT_MODIFIERS and second:
        word = second
    elif (
        # "120 room nights", "45 funded places": a singular word before the plural noun
        # that is counted ("3 bed flats" counts beds: a counted noun stays)
        second.endswith("s")
        and not second.endswith("ss")
        and not word.endswith("s")
        and word not in COUNT_NOUNS
        and word not in NOT_UNITS
        and second not in NOT_UNITS
        and second not in NOT_COUNTED_BEFORE
    ):
        word = second
    if word in NOT_UNITS:
        return ""
    return count_noun(word)


def count_noun(word: str) -> str:
    """One name for a counted noun: its own, singular, or the one it shares (``COUNT_NOUNS``)."""
    if word in COUNT_NOUNS:
        return COUNT_NOUNS[word]
    word = word[:-1] if word.endswith("s") and not word.endswith("ss") else word
    if word.endswith("ie") and len(word) > 3:  # "retries" and "retry" alike ("movie", "movies")
        word = word[:-2] + "y"
    return COUNT_NOUNS.get(word, word)


# Nouns that count the same things under another name ("14 units" = "14 flats", "4 floors"
# = "four storeys", "28 students" = "28 pupils"): one name each, so the counts compare.
COUNT_NOUNS = {
    **dict.fromkeys(("storey", "story", "stories", "storeys", "level"), "floor"),
    **dict.fromkeys(("flat", "apartment", "unit"), "unit"),
    # a class's or a school's "27 pupils" are its "27 children", "27 kids"
    **dict.fromkeys(("pupil", "learner", "children", "child", "kid"), "student"),
    **dict.fromkeys(("people", "persons", "participant", "attendee", "head"), "person"),
    **dict.fromkeys(("employee", "staffer"), "staff"),
    **dict.fromkeys(("bed", "bdr", "br"), "bedroom"),
    **dict.fromkeys(("yr", "year-old"), "year"),
    **dict.fromkeys(("req", "reqs", "rq"), "request"),
    **dict.fromkeys(("msg", "msgs"), "message"),
    **dict.fromkeys(("dev", "devs"), "developer"),
    **dict.fromkeys(("eng", "engs"), "engineer"),
    **dict.fromkeys(("guest", "visitor"), "person"),
    # what a room, a course or a car park holds: "Seating: 30" = "30 seats" = "30 places"
    **dict.fromkeys(("seating", "place", "spot", "space"), "seat"),
    "headcount": "staff",
    **dict.fromkeys(("airframe", "plane", "airplane", "aeroplane", "jet"), "aircraft"),
}


# Three or more groups of digits joined by hyphens: a code, a phone or a PIN, no number.
_CODE = re.compile(r"(?<![\w.])\d{1,4}(?:-\d{1,4}){2,}(?!\w|\.\d)")


# Words before a hyphen that date, not name: "mid-2025", "pre-2020".
DATING_PREFIXES = frozenset("mid pre post early late end start since circa ca".split())


def _in_identifier(text: str, start: int, end: int) -> bool:
    """Whether the digits at ``start:end`` end or sit inside a name joined by hyphens
    ("us-east-1", "db-replica-3", "INC-4412", "node-7a")."""
    before = re.search(r"([A-Za-z][A-Za-z0-9]*)-$", text[max(0, start - 30) : start])
    if before is None or before.group(1).casefold() in DATING_PREFIXES:
        return False
    return not re.match(r"\.\d", text[end:])  # "python-3.11" is a version


def _in_code(text: str, start: int, end: int) -> bool:
    return any(
        found.start() <= start and end <= found.end()
        for found in _CODE.finditer(text, max(0, start - 15), min(len(text), end + 15))
    )


def find_values(text: str, reference: dt.date | None = None) -> list[Value]:
    """Every value of ``text``, most specific reading first, spans never overlapping."""
    if reference is None:
        reference = cache(lambda: _reference_date(text))
    taken: list[tuple[int, int]] = []
    values: list[Value] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    for name, pattern in PATTERNS if WORD_SCALES.search(text) else PLAIN_PATTERNS:
        hint = HINTS.get(name)
        if hint is not None and not hint.search(text):
            continue  # a word every match of the pattern has is missing: skip its scan
        for match in pattern.finditer(text):
            start, end = match.span()
            if start == end or not free(start, end):
                continue
            if name == "version" and _clock_range_at(text, start):
                continue  # "8.30 to 5 on weekdays": the hours, not a release
            if name == "clock_range":
                hours = _clock_range(match, text)
                if hours:
                    taken.append((start, end))
                    values += hours
                continue
            value = _read(name, match, text, reference)
            if value is None:
                continue
            taken.append((start, end))
            values.append(value)
    rates = [v for v in values if v.kind == "frequency"]
    values = [  # "3 errors in an hour": the rate, not also "an hour"
        v
        for v in values
        if not any(r is not v and r.start <= v.start and v.end <= r.end for r in rates)
    ]
    values = _dates_in_stated_order(text, values)
    values = _paired_days(text, _date_ranges(text, sorted(values, key=lambda v: v.start)))
    values = [
        replace(v, rough=True)
        if v.kind in ROUGH_KINDS and ROUGH.search(text[max(0, v.start - 30) : v.start])
        else v
        for v in values
    ]
    values = _times_a_day(text, values)
    values = _period_counts(text, values)
    return sorted(_weekdays_of_dates(text, values), key=lambda v: v.start)


# What may stand between a period word and the count it says the rate of: "daily output:
# four hundred loaves", "weekly parcel volume out of Leeds: twelve hundred".
PERIOD_COUNT_GAP = re.compile(
    r"(?:[^\S\n]+[A-Za-z-]+){1,5}[^\S\n]*(?::|=|\bis\b|\bof\b|\bat\b|—|–|-)[^\S\n]*\Z"
)


# The period of so many times a year: 365 a "day" ("daily" says it).
PERIOD_OF_RATE = {per_year: period for period, per_year in reversed(PER_YEAR_OF.items())}
# Money said in slang after a count ("450 quid a month"): an amount, no count.
MONEY_SLANG = frozenset("quid buck bucks grand".split())
# What follows a count said per period: " per day", " sourdough loaves a day".
COUNT_PER_PERIOD = re.compile(
    r"(?:[^\S\n]+[a-z]+){0,2}[^\S\n]+(?:per|a|an|each)[^\S\n]+"
    r"(hour|day|night|week|month|year)\b(?!\s+(?:from|ago|later|before|after|earlier)\b)",
    re.IGNORECASE,
)


def _period_counts(text: str, values: list[Value]) -> list[Value]:
    """ "Daily output: four hundred loaves" makes 400 a day, as "400 loaves a day" does: a
    period word before the noun it qualifies and a count said of that noun on its line is
    one rate (not a once-a-day frequency beside a bare 400)."""
    out = list(values)
    for rate in values:
        if rate.kind != "frequency" or rate.text.casefold() not in FREQUENCY_WORDS:
            continue
        count = next(
            (v for v in out if v.kind == "number" and v.start >= rate.end and not is_position(v)),
            None,
        )
        if count is None or not PERIOD_COUNT_GAP.match(text[rate.end : count.start]):
            continue
        per_year = round(count.key[0] * FREQUENCY_WORDS[rate.text.casefold()], 3)
        raw = text[rate.start : count.end]
        period = PERIOD_OF_RATE[rate.key[0]]
        merged = Value("frequency", (per_year,), rate.start, count.end, raw, unit=period)
        out = [merged if v is rate else v for v in out if v is not count]
    # and a count said per period, as that compares with them: "a daily step goal of
    # 8,000" / "10k per day", "daily output: 430 loaves" / "340 sourdough loaves a day"
    for count in list(out):
        after = COUNT_PER_PERIOD.match(text, count.end) if count.kind == "number" else None
        if after is None or is_position(count) or not count.key[0]:
            continue
        if (
            re.search(r"[\w,.'’$€£¥₹]$", text[: count.start])
            or count.unit in CURRENCY
            or count.unit in MONEY_SLANG
        ):
            continue  # "R45,000 per year", "450 quid a month": an amount, not a count
        period = after.group(1).casefold()
        per_year = round(count.key[0] * PER_YEAR_OF[period], 3)
        raw = text[count.start : after.end()]
        rate = Value("frequency", (per_year,), count.start, after.end(), raw, unit=period)
        out = [rate if v is count else v for v in out]
    return out


def _times_a_day(text: str, values: list[Value]) -> list[Value]:
    """ "emptied at 8 a.m. and 4 p.m. every day" happens twice a day: a daily rate beside
    two or more times of day on its line (and no other rate in the text) counts them, so
    that it compares with "twice a day — 08:00 and 16:00"."""
    daily = [v for v in values if v.kind == "frequency" and v.key == (365.0,)]
    if len(daily) != 1 or sum(v.kind == "frequency" for v in values) != 1:
        return values
    rate = daily[0]
    times = {  # one hour of the day said twice ("01:00 UTC via cron `0 1 * * *`") is one
        v.key[0]
        for v in values
        if v.kind == "time"
        and abs(v.start - rate.start) <= 100
        and "\n" not in text[min(v.start, rate.start) : max(v.end, rate.end)]
    }
    if len(times) < 2:
        return values
    return [replace(v, key=(365.0 * len(times),)) if v is rate else v for v in values]


# A rough figure: the words just before it ("about 2h45", "~233 km", "a bit under three
# hours", "almost 50 kg"), and how far two rough readings of one quantity may lie apart.
ROUGH = re.compile(
    r"(?:~|≈|\b(?:about|around|roughly|approx(?:\.|imately)?|nearly|almost|circa|some|"
    r"(?:just|a bit|a little|slightly)\s+(?:under|over|below|above|less than|more than)|"
    r"close to|give or take))\s*$",
    re.IGNORECASE,
)
ROUGH_KINDS = frozenset(
    {
        "duration",
        "length",
        "mass",
        "volume",
        "area",
        "speed",
        "number",
        "money",
        "economy",
        "pressure",
    }
)


# What joins the two ends of a range of days: "3–14 June", "3rd to the 14th of June",
# "10 Apr – 27 Sep 2026".
RANGE_JOIN = re.compile(r"\s*(?:-|–|—|to|till|until|through|thru)\s*(?:the\s+)?", re.IGNORECASE)


def _date_ranges(text: str, values: list[Value]) -> list[Value]:
    """The first end of a range of days read as a date of the second's month and year: a
    bare day ("3–14 June": 3 June, not the number 3) or a date without a year ("10 Apr –
    27 Sep 2026": 10 April 2026), so that either end compares with the same day written
    in full elsewhere."""
    out = list(values)
    for i, (first, second) in enumerate(zip(values, values[1:], strict=False)):
        if _day_of_month(second) is None or not RANGE_JOIN.fullmatch(
            text[first.end : second.start]
        ):
            continue
        year, month, _ = second.key
        if (
            first.kind == "number"
            and not first.unit
            and re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)?", first.text.strip())
        ):
            day = _day(first.text.strip())
            if 1 <= day < second.key[2]:
                out[i] = Value("date", (year, month, day), first.start, first.end, first.text)
        elif first.kind == "date" and len(first.key) == 3 and first.key[0] is None:
            if year is not None and isinstance(first.key[1], int) and first.key[1] <= month:
                out[i] = Value("date", (year, *first.key[1:]), first.start, first.end, first.text)
    return out


def _day_of_month(value: Value) -> tuple | None:
    """(year or None, month, day) of a date of a numbered month; None for anything else (a
    weekday, a relative day)."""
    if value.kind != "date" or len(value.key) != 3 or value.key[1] is None:
        return None
    year, month, _ = value.key
    return value.key if isinstance(month, int) and isinstance(year, int | None) else None


# A day written just before a date of a month, the two one pair: "21/22 March", "21st/22nd
# March", "14th and 15th March", "Sat 14th and Sun 15th March", "the 3rd & 4th of May".
PAIRED_DAY = re.compile(
    rf"(?<![\w/.:])(\d{{1,2}}(?:st|nd|rd|th)?)[^\S\n]*(?:/|&|and|or)[^\S\n]*(?:the[^\S\n]+)?"
    rf"(?:(?:{_DAY})\.?,?[^\S\n]+)?(?:the[^\S\n]+)?$",
    re.IGNORECASE,
)


SHOWN_DAY = re.compile(rf"(?:(?:{_DAY})\.?,?[^\S\n]+)?(?:the[^\S\n]+)?", re.IGNORECASE)


def _paired_days(text: str, values: list[Value]) -> list[Value]:
    """The first day of a pair of days read as a date of the second's month and year, not a
    number or nothing ("21/22 March": 21 March and 22 March)."""
    out = list(values)
    for second in values:
        if _day_of_month(second) is None:
            continue
        year, month, day = second.key
        shown = SHOWN_DAY.match(second.text)
        match = PAIRED_DAY.search(text, max(0, second.start - 40), second.start + shown.end())
        if match is None or not 1 <= _day(match.group(1)) < day:
            continue
        start, end = match.span(1)
        if any(v.kind == "date" and v.start <= start < v.end for v in out):
            continue  # already a date of its own
        out = [v for v in out if not (v.start <= start < v.end)]
        out.append(Value("date", (year, month, _day(match.group(1))), start, end, match.group(1)))
    return sorted(out, key=lambda v: v.start)


# A text that says how it writes its dates: "dates in this doc are DD/MM/YYYY", "(US
# format)", "month/day".
DAY_FIRST_NOTE = re.compile(
    r"\b(?:dd[/.-]mm|day[/-]month|day[- ]first|(?:european|uk|british|eu) (?:date )?format|"
    r"(?:european|uk|british|eu) dates?)\b",
    re.IGNORECASE,
)
MONTH_FIRST_NOTE = re.compile(
    r"\b(?:mm[/.-]dd|month[/-]day|month[- ]first|(?:us|american) (?:date )?format|"
    r"(?:us|american) dates?)\b",
    re.IGNORECASE,
)
NUMERIC_DATE = re.compile(r"\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?")


def _dates_in_stated_order(text: str, values: list[Value]) -> list[Value]:
    """Numeric dates read in the order the text says it writes them: "04/05/2026" with
    "DD/MM/YYYY" stated is 4 May only (day first is the reading tried first)."""
    day_first, month_first = DAY_FIRST_NOTE.search(text), MONTH_FIRST_NOTE.search(text)
    if bool(day_first) == bool(month_first):
        return values
    read = []
    for value in values:
        if value.kind == "date" and value.alternatives and NUMERIC_DATE.fullmatch(value.text):
            key = value.key if day_first else value.alternatives[0]
            value = replace(value, key=key, alternatives=())
        read.append(value)
    return read


# Words after which "d/m" is a date rather than a share.
DATE_EXPECTED = re.compile(
    r"(?:\b(?:on|by|until|till|before|after|from|due|since|starts?|starting|ends?|ending|"
    r"deadline|date|dated)\s*:?)\s*$",
    re.IGNORECASE,
)


def _weekdays_of_dates(text: str, values: list[Value]) -> list[Value]:
    """The values without a weekday that only names the day of a full date beside it
    ("Friday 2025-03-07", "2025-03-07 (Fri)"): it is part of that date, not a date of its
    own that another Friday would restate."""

    def a_weekday(value: Value) -> bool:  # also one read as the day after a note's day
        return value.kind == "date" and (
            value.key[0] == "weekday" or any(a[0] == "weekday" for a in value.alternatives)
        )

    dated = [v for v in values if v.kind == "date" and len(v.key) == 3 and not a_weekday(v)]

    def beside(weekday: Value) -> bool:
        for d in dated:
            if d.start >= weekday.end:  # "Friday 2025-03-07"
                between = text[weekday.end : d.start]
            elif d.end <= weekday.start:  # "2025-03-07 (Fri)"
                between = text[d.end : weekday.start]
            else:
                continue
            if re.fullmatch(r"[\s,(]*(?:the\s+)?", between, re.IGNORECASE):  # "Friday the 14th"
                return True
        return False

    return [v for v in values if not (a_weekday(v) and beside(v))]


# Where a note says when it was written rather than when something happens: a date opening
# the text ("Mon 9 Dec 2024 - ...", "(Written Fri 25 Oct 2024) ...", "Note from 3 June: ..."),
# or in brackets or after a comma right after the name it opens on ("Caroline (8 May 2023)
# wants ...", "Gina, 12 Jul 2023 - ...").
_STAMPS = [
    # "Text from the fabricator, Mon 9 Feb 2026:", "Email from Priya (3 March):": who sent it
    # and when
    re.compile(
        r"\A\s*[\[(]?(?:text|texts|message|email|e-mail|sms|whatsapp|voicemail|letter|call|"
        r"reply|note|dm|slack)\s+(?:from|by)\s+[^\n,:()]{2,40}?\s*[,(]\s*(?P<d>[^\n():;]{3,30}?)"
        r"\s*\)?\s*[\])]?\s*(?::|;|\s[-–—]\s)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\A\s*[(\[]\s*(?P<d>[^\n()\[\]]{3,40}?)\s*[)\]]",
    ),
    re.compile(
        r"\A\s*(?:[A-Za-z]+[ ,]+){0,2}?(?P<d>[^\n()\[\]:;]{3,30}?)\s*(?::|;|\s[-–—]\s)",
    ),
    re.compile(r"\A\s*[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)?\s*\((?P<d>[^\n()]{3,40}?)\)"),
    re.compile(
        r"\A\s*[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)?,\s*(?P<d>[^\n,:]{3,30}?)\s*(?::|\s[-–—]\s)"
    ),
]
_STAMP_WORDS = re.compile(
    r"\b(?:note|notes|update|entry|log|logged|written|dated|from|of|on|diary|standup|today|"
    r"posted|recorded|sent|received|e-?mail|message|memo|as of|is|was)\b[\s,]*",
    re.IGNORECASE,
)


def stamp_spans(text: str, values: list[Value], *, opens_on_name: bool) -> list[tuple[int, int]]:
    """The spans of ``values`` (dates, months) that only say when the note was written;
    ``opens_on_name``: the text's first word is a name (so "Caroline (8 May 2023)" is a
    stamp and "Launch (March 2026)" is not)."""
    out = []
    for pattern in _STAMPS if opens_on_name else _STAMPS[:3]:
        match = pattern.search(text)
        if match is None:
            continue
        start, end = match.span("d")
        inside = [
            v for v in values if v.kind in {"date", "month"} and start <= v.start and v.end <= end
        ]
        rest = text[start:end]
        for v in inside:
            rest = rest.replace(v.text, "")
        rest = _STAMP_WORDS.sub("", rest)
        if inside and len(rest.strip(" ,.-")) <= 4:
            out += [(v.start, v.end) for v in inside]
    return out


# "due on the 15th": a day of the month, with no month.
MONTH_DAY_BEFORE = re.compile(r"\b(?:on|by|before|after|until|from) the\s+$", re.IGNORECASE)
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3}


def _quarter(groups: tuple, start: int, end: int, raw: str) -> Value | None:
    """A quarter or a half as the months it spans: the last month is the key, the others
    its alternatives (so "Q2 2026" = "May 2026", and "Q2" ≠ "30 September")."""
    if groups[0]:
        letter, number, year = groups[0].upper(), int(groups[1]), groups[2]
    elif groups[3]:
        year, letter, number = groups[3], groups[4].upper(), int(groups[5])
    else:
        number = _QUARTER_WORDS.get(groups[6].casefold(), 4)
        letter, year = ("Q" if groups[7].casefold() == "quarter" else "H"), groups[8]
    if letter == "H" and number > 2:
        return None
    if year is not None:
        year = int(year) + (2000 if len(year) == 2 else 0)
    span = 3 if letter == "Q" else 6
    months = range(span * (number - 1) + 1, span * number + 1)
    keys = [(year, month) for month in months]
    return Value("month", keys[-1], start, end, raw, alternatives=tuple(keys[:-1]))


def _read(name: str, match: re.Match, text: str, reference) -> Value | None:
    start, end = match.span()
    raw = match.group(0)
    groups = match.groups()
    if name == "phone":
        digits = re.sub(r"\D", "", raw)
        if not 8 <= len(digits) <= 15:
            return None
        # the same line dialled from anywhere: "+44 20 7946 0958" = "020 7946 0958"
        return Value("phone", (digits[-9:],), start, end, raw)
    if name == "version":
        if _bare_price(text, start, raw):
            # "broadband costs us 39.99 a month": an amount in the text's own currency
            amount = float(raw)
            return Value("money", ("?", amount, _money_period(text, start, end)), start, end, raw)
        if DOTTED_DATE.fullmatch(raw):
            return None  # "14.10.2024": a day, a month and a year (``date_slash``)
        before = text[max(0, start - 30) : start]
        if re.fullmatch(r"0\.\d+", raw) and (
            not re.search(r"(?:\b(?:version|release|ver|v)|\b[A-Z][\w.-]*)\s+$", before)
            or re.search(r"\b[A-Z]{2,5}[0-9]?:?\s+$", before)  # "AUC 0.83", "F1 0.71", "RMSE"
        ):
            return None  # "scores above 0.75", "works 0.6 FTE": a fraction, not a release
        return Value("version", (_version_key(raw),), start, end, raw)
    if name == "date_slash_short" and not (
        DATE_EXPECTED.search(text[:start])
        or (groups[1].startswith("0") and int(groups[0]) <= 31)  # "25/03": no share
        or (groups[0].startswith("0") and not groups[1].startswith("0") and int(groups[1]) > 12)
        or DAY_FIRST_NOTE.search(text)  # "(US date format, MM/DD) bday - 04/02"
        or MONTH_FIRST_NOTE.search(text)
    ):
        return None
    if KIND.get(name) == "date":
        read = _date_value(name, match, reference)
        if read is None:
            return None
        key, alternatives = read
        return Value(KIND[name], key, start, end, raw, alternatives=alternatives)
    if name == "month_day":
        word = groups[0].casefold()
        day = (
            int(word[:-2])
            if word[:1].isdigit()
            else {"first": 1, "second": 2, "last": 31}.get(word, ORDINAL_WORDS.get(word, 0))
        )
        return Value("day", (day,), start, end, raw) if 1 <= day <= 31 else None
    if name == "weekday_range":
        if groups[2]:
            first, last = (0, 4) if groups[2].casefold() == "weekdays" else (5, 6)
        else:
            first, last = WEEKDAYS[groups[0].casefold()], WEEKDAYS[groups[1].casefold()]
        return Value("days", (first, last), start, end, raw)
    if name == "month_iso":
        year, month = (groups[0], groups[1]) if groups[0] else (groups[3], groups[2])
        return Value("month", (int(year), int(month)), start, end, raw)
    if name == "quarter":
        return _quarter(groups, start, end, raw)
    if name == "month_year":
        month = groups[0] or groups[2]
        year = int(groups[1]) if groups[1] else None
        return Value("month", (year, MONTHS[month.casefold().rstrip(".")]), start, end, raw)
    if name == "time":
        if groups[0] is not None:
            hour, minute = int(groups[0]) % 12, int(groups[1] or 0)
            if groups[2].casefold().startswith("p"):
                hour += 12
            zone = (groups[3] or "").casefold()
        else:
            hour, minute, zone = int(groups[4]), int(groups[5]), (groups[6] or "").casefold()
            zone = "utc" if zone == "z" else zone
        zone = " ".join(zone.split())  # "Central  European"
        return Value("time", (hour * 60 + minute, zone), start, end, raw)
    if name == "bare_hour":
        return _bare_hour(groups, text, start, end, raw)
    if name == "money":
        if groups[2] is not None:
            currency = CURRENCY.get((groups[0] or groups[1]).casefold(), "?")
            amount = _amount(groups[2], groups[3])
            scale = groups[3]
            named = re.match(rf"\s?({_CUR_CODE})\b", text[end:], re.IGNORECASE)
            if groups[0] and named:  # "$84k CAD": the code says which dollars
                currency = CURRENCY.get(named.group(1).casefold(), currency)
                end += named.end()
                raw = text[start:end]
        else:
            currency = _currency_word(groups[6])
            amount = _amount(groups[4], groups[5])
            scale = groups[5]
        if amount is None:
            return None
        if groups[2] is None and re.match(r"\s*cents?\b", text[end:], re.IGNORECASE):
            amount /= 100  # "85 euro cents" = €0.85
        key = (currency, round(_scale(amount, scale), 2), _money_period(text, start, end))
        sign = (groups[0] or groups[6] or "").casefold().rstrip(".")
        other = tuple((code, *key[1:]) for code in SHARED_SIGNS.get(sign, ()) if code != currency)
        return Value("money", key, start, end, raw, alternatives=other)
    if name == "money_grand":
        amount = _number(groups[0])
        if amount is None:
            return None
        key = ("?", amount * 1000, _money_period(text, start, end))
        return Value("money", key, start, end, raw)
    if name == "time_words":
        return _time_in_words(groups, start, end, raw, text)
    if name == "imperial_compound":
        if groups[0] is not None:  # pounds and ounces, stones and pounds, in grams
            big, small = MASS[groups[1].casefold()], MASS[groups[3].casefold()]
            if small >= big:
                return None
            grams = int(groups[0]) * big + float(groups[2]) * small
            return Value("mass", (round(grams, 4),), start, end, raw)
        feet, inches = (groups[4], groups[5]) if groups[4] is not None else (groups[6], groups[7])
        metres = int(feet) * LENGTH["ft"] + float(inches) * LENGTH["in"]
        return Value("length", (round(metres, 4),), start, end, raw)
    if name == "frequency":
        return _frequency(match, start, end, raw)
    if name == "age":
        years = _number(next(g for g in groups if g is not None))
        return Value("age", (years,), start, end, raw) if years is not None else None
    if name == "times":
        count = TIMES_WORDS[raw.casefold()]
        return Value("number", (count,), start, end, raw)
    if name == "cron":
        return Value("time", (int(groups[1]) * 60 + int(groups[0]), ""), start, end, raw)
    if name == "time_range_start":
        hour, minute, end_hour = int(groups[0]), int(groups[1] or 0), int(groups[2])
        if hour > 12 or end_hour > 12:
            return None
        afternoon = groups[3].casefold().startswith("p")
        end_24 = end_hour % 12 + (12 if afternoon else 0)
        start_24 = hour % 12 + (12 if afternoon else 0)
        if start_24 > end_24:  # "11-1pm": the morning before the afternoon
            start_24 -= 12
        return Value("time", (start_24 * 60 + minute, ""), start, end, raw)
    if name == "pressure":
        amount = _number(groups[0])
        if amount is None:
            return None
        factor = PRESSURE[groups[1].casefold()]
        return Value("pressure", (float(f"{amount * factor:.6g}"),), start, end, raw)
    if name == "area":
        amount = _number(groups[0])
        if amount is None:
            return None
        unit = re.sub(r"[\s.]", "", groups[1].casefold())
        return Value("area", (round(amount * _area_factor(unit), 4),), start, end, raw)
    if name == "temperature":
        below_zero = re.match(r"[-−]|minus\s", groups[0], re.IGNORECASE)
        amount = _number(groups[0][below_zero.end() if below_zero else 0 :])
        if amount is None:
            return None
        amount = -amount if below_zero else amount
        celsius = (amount - 32) * 5 / 9 if groups[1].casefold() == "f" else amount
        return Value("temperature", (round(celsius, 2),), start, end, raw)
    if name in {"length", "mass", "volume"}:
        amount = _number(groups[0])
        unit = groups[1].casefold()
        if amount is None or (
            unit in {"m", "g", "t", "in", "l"} and not re.match(r"\d", groups[0])
        ):
            return None  # "one m", "ten in" are not measures
        if groups[1] == "M":
            return None  # "4.8M vectors": a capital M after a number is a million
        if groups[1] == "G":
            return None  # "2 x 100G uplinks": a capital G is a link's speed, not grams
        table = {"length": LENGTH, "mass": MASS, "volume": VOLUME}[name]
        factor = table[unit]
        if unit.startswith("gallon") and re.search(
            r"\b(?:UK|imperial|imp)\b", raw + text[end : end + 14], re.IGNORECASE
        ):
            factor = IMPERIAL_GALLON  # "40 gallons (imperial)", "40 UK gallons"
        return Value(name, (float(f"{amount * factor:.6g}"),), start, end, raw)
    if name == "ordinal":  # a position only with what it counts ("the 4th" alone is a day)
        unit = _unit_after(text, end)
        if not unit:
            if MONTH_DAY_BEFORE.search(text[:start]):  # "due on the 3rd"
                day = int(groups[0]) if groups[0] else DAY_WORDS[groups[1].casefold()]
                return Value("day", (day,), start, end, raw) if 1 <= day <= 31 else None
            return None
        word = (groups[1] or "").casefold()
        if word in {"first", "second"} and unit not in POSITION_NOUNS:
            return None  # "the first step", "a second opinion": which one, not a position
        amount = float(groups[0]) if groups[0] else float(DAY_WORDS[word])
        return Value("number", (amount,), start, end, raw, unit=unit)
    if name == "net_terms":
        return Value("duration", (float(groups[0]) * DURATION["day"],), start, end, raw)
    if name == "share":
        one, half, many, parts = groups
        if many:
            count = {"two": 2, "three": 3, "four": 4}[many.casefold()]
            amount = count * SHARE_OF[parts.casefold().rstrip("s")]
        else:
            amount = SHARE_OF[(one or half).casefold()]
        return Value("percent", (round(amount, 4),), start, end, raw) if amount < 100 else None
    if name == "percent":
        amount = round(_number(groups[0]) or 0, 4)
        if _failure_share(text, start, end):  # 0.1% downtime = 99.9% uptime, and "errors
            # for 12% of users" = "12 percent of users could not": both readings
            other = ((round(100 - amount, 4),),)
            return Value("percent", (amount,), start, end, raw, alternatives=other)
        return Value("percent", (amount,), start, end, raw)
    if name == "size":
        amount = _number(groups[0])
        if amount is None:
            return None
        unit = groups[1].casefold()
        unit = f"{unit}b" if unit in {"ki", "mi", "gi", "ti"} else unit  # "512Mi" = 512 MiB
        return Value("size", (round(amount * SIZE[unit]),), start, end, raw)
    if name == "jvm_heap":
        return Value("size", (int(groups[0]) * SIZE[f"{groups[1].casefold()}ib"],), start, end, raw)
    if name == "pair":
        first, second = (
            (int(groups[0]), int(groups[1])) if groups[0] else (int(groups[2]), int(groups[3]))
        )
        if 1 <= first <= 12 and 1900 <= second <= 2099 and len(groups[0] or "") <= 2:
            return Value("month", (second, first), start, end, raw)  # "expires 03/2027"
        if 1900 <= first <= 2099 and second % 100 == (first + 1) % 100:
            # a season or a financial year: "2027/28" = "2027/2028" = "27/28"
            return Value("pair", (first, first + 1), start, end, raw)
        if first < 100 and second == (first + 1) % 100:
            season = ((2000 + first, 2000 + first + 1),)
            return Value("pair", (first, second), start, end, raw, alternatives=season)
        return Value("pair", (first, second), start, end, raw)
    if name == "economy":
        amount = _number(groups[0])
        if not amount:
            return None
        if groups[1]:
            return Value("economy", (round(amount, 4),), start, end, raw)
        if groups[4]:  # litres per 100 km
            return Value("economy", (round(100 / amount, 4),), start, end, raw)
        us, uk = amount * MILE / US_GALLON, amount * MILE / IMPERIAL_GALLON
        if (groups[3] or "").casefold() == "us":
            return Value("economy", (round(us, 4),), start, end, raw)
        if groups[3]:
            return Value("economy", (round(uk, 4),), start, end, raw)
        # miles per gallon, the gallon unsaid: a US or an imperial one
        return Value("economy", (round(us, 4),), start, end, raw, alternatives=((round(uk, 4),),))
    if name == "speed":
        amount = _number(groups[0])
        if amount is None:
            return None
        unit = re.sub(r"\s+", " ", groups[1].casefold())
        factor = next(f for prefix, f in SPEED if unit.startswith(prefix))
        return Value("speed", (round(amount * factor, 4),), start, end, raw)
    if name == "rate":
        amount = _number(groups[0])
        if amount is None:
            return None
        scale = {"k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}[groups[1].casefold()]
        return Value("rate", (amount * scale,), start, end, raw)
    if name == "year_short":
        year = int(groups[0])
        return Value("number", (float(year + (2000 if year < 50 else 1900)),), start, end, raw)
    if name == "duration_compound":
        return _compound_duration(groups, start, end, raw)
    if name == "duration":
        amount = 1.0 if groups[0].casefold() in {"a", "an"} else _number(groups[0])
        if amount is None:
            return None
        unit = groups[1].casefold()
        if unit in {"s", "h"} and not re.match(r"\d", groups[0]):
            return None  # "one s" is not a duration
        if re.fullmatch(r"\d+[A-Z]", raw) and re.search(r"\b[A-Z][a-z]+\s+$", text[:start]):
            return None  # "Class 6H", "Form 4S": a label after a capitalised noun
        return Value("duration", (round(amount * DURATION[unit], 3),), start, end, raw)
    if name == "switch":
        return _switch(match)
    if name == "roman":
        numeral_start = match.start(1)
        amount = float(ROMAN[groups[0]])
        unit = _unit_after(text, end) or _unit_before(text, numeral_start)
        return Value("number", (amount,), numeral_start, end, groups[0], unit=unit)
    if name == "period_index":
        if int(groups[1]) > PERIOD_INDEX_MAX[groups[0].casefold()] or int(groups[1]) == 0:
            return None
        if (
            groups[0].casefold() == "day"
            and int(groups[1]) <= 31
            and MONTHLY.search(line_around(text, start, end))
        ):  # "fires monthly on day 15": a day of the month, not fifteen days in
            return Value("day", (int(groups[1]),), start, end, raw)
        seconds = DURATION[groups[0].casefold()] * int(groups[1])
        return Value("duration", (float(seconds),), start, end, raw)
    if name == "number" and groups[0] is not None and not groups[1]:
        before = re.search(r"([A-Za-z][\w.+#-]*)\s+$", text[:start])
        if before and before.group(1).casefold() in lexicon.TECHNOLOGIES:
            return Value("version", (_version_key(raw),), start, end, raw)  # "React 17"
        if re.fullmatch(r"\d+\.\d+", raw) and _field_of_technology(text, start):
            return Value("version", (_version_key(raw),), start, end, raw)  # "Postgres: 15.4"
        if re.fullmatch(r"\d+\.\d+", raw) and CONSTRAINT_BEFORE.search(
            text[max(0, start - 4) : start]
        ):
            return Value("version", (_version_key(raw),), start, end, raw)  # "~> 5.31"
    if name == "number" and groups[0] is not None and not groups[1]:
        keyed = _unit_of_key(text, start, end, raw) or _unit_in_note(text, start, end, raw)
        if keyed is not None:
            return keyed
    if name == "number":
        if _in_code(text, start, end):
            return None  # "padlock code 4-1-7-9", "ext. 44-10-20": digits of a code
        if groups[0] is not None and _in_identifier(text, start, end):
            return None  # "us-east-1", "web-02", "INC-4412": a name's digits, no count
        if groups[2] is not None:
            amount, word = _number(groups[2]), groups[2].casefold()
            if word == "half" or (word == "one" and not _one_counts(text, start, end)):
                return None  # "one of", "half the team": rarely a count to compare
        else:
            amount = _number(groups[0])
            if amount is not None:
                amount = _scale(amount, groups[1])
        if amount is None:
            return None
        measure = groups[1] and SCALED_MEASURE.match(text, end)
        if measure:  # "2.5 million litres": a measure in a scaled number
            kind = next(k for k in ("volume", "mass", "length") if measure.group(k))
            unit = measure.group(kind).casefold()
            table = {"length": LENGTH, "mass": MASS, "volume": VOLUME}[kind]
            if unit in table:
                value = float(f"{amount * table[unit]:.6g}")
                return Value(kind, (value,), start, measure.end(), text[start : measure.end()])
        unit = (
            _label_before(text, start)
            or _unit_after(text, end)
            or _unit_of_field(text, start)
            or _unit_before(text, start)
        )
        one_word = ONE_WORD_RATE.match(text, end)
        if one_word:  # "52 bpm", "40 rps"
            per_year = amount * DURATION["year"] / ONE_WORD_RATES[one_word.group(1).casefold()]
            return Value("frequency", (round(per_year, 3),), start, end, raw)
        rate = RATE_AFTER.match(text, end) if unit else None
        if rate and count_noun(rate.group(1).casefold()) == unit:
            # "600 requests per minute" = "10 req/s" = "36,000 requests an hour": how
            # often, per year, as the frequencies are
            raw = text[start : rate.end()]
            return Value("frequency", (_per_year(amount, rate.group(2)),), start, rate.end(), raw)
        return Value("number", (round(amount, 4),), start, end, raw, unit=unit)
    return None


# The counted noun and the time it is counted in after a number: "600 requests per minute",
# "10 req/s", "3,600 events an hour", "60 calls in a minute" (not "a day": "2 meals a day"
# is a habit, no rate).
RATE_AFTER = re.compile(
    r"[^\S\n]*([A-Za-z][A-Za-z-]{2,})[^\S\n]*"
    r"(?:/|\bper\b|(?:\b(?:in|within)[^\S\n]+)?\ban?\b|\beach\b)[^\S\n]*"
    r"(seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h)\b",  # the seconds in DURATION
    re.IGNORECASE,
)
# Rates written as one word, and the seconds they count in: "52 bpm" = "52 beats per minute".
ONE_WORD_RATES = {"bpm": 60.0, "rpm": 60.0, "rps": 1.0, "qps": 1.0, "tps": 1.0}
ONE_WORD_RATE = re.compile(r"[^\S\n]*(bpm|rpm|rps|qps|tps)\b", re.IGNORECASE)


# A price written without its currency: pounds and pence, dollars and cents.
PRICE = re.compile(r"\d{1,6}\.\d\d")
COST_BEFORE = re.compile(
    r"\b(?:costs?|costing|priced?|prices|pays?|paid|paying|bill(?:ed)?|fees?|charged?|"
    r"charges|rent|spend|spent|comes? to|came to|total(?:led|s)?)\b[^.;\n]{0,18}$",
    re.IGNORECASE,
)
SCALED_MEASURE = re.compile(
    rf"[^\S\n]?(?:(?P<volume>{_VOLUME})|(?P<mass>{_MASS})|(?P<length>{_LENGTH}))(?!\w)",
    re.IGNORECASE,
)


def _bare_price(text: str, start: int, raw: str) -> bool:
    """Pounds and pence, dollars and cents after a word of cost, no currency written."""
    before = text[max(0, start - 30) : start]
    return (
        bool(PRICE.fullmatch(raw))
        and bool(COST_BEFORE.search(before))
        and not re.search(r"(?:\b(?:version|release|ver|v)|\b[A-Z][\w.+#-]*)\s+$", before)
    )


# The key of a field whose value a number is ("max_retries = 5", "Replicas: 3",
# "worker-count: 4"): its last word is what the number counts.
FIELD_KEY = re.compile(
    r"(?:^|[\s`\"'*-])([A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*)[`\"'*]*\s*[:=]\**\s*[\"'`]?$"
)


# A host and the port after it: "smtp.mailgun.org:465", "localhost:5432".
HOST_PORT = re.compile(r"(?:\b[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|\blocalhost|\]):$")


def _unit_of_field(text: str, start: int) -> str:
    line = text[text.rfind("\n", 0, start) + 1 : start]
    if HOST_PORT.search(line):
        return "port"
    key = FIELD_KEY.search(line)
    if key is None:
        return ""
    word = re.split(r"[_.-]", key.group(1))[-1].casefold()
    if len(word) < 3 or not word.isalpha() or word in NOT_UNITS:
        return ""
    if word in MONTHS or word in WEEKDAYS:
        return ""  # "3 March: 138/82": a date heads the reading, it is not what is counted
    return count_noun(word)


# A key or a counted noun said before its number, with no colon: "replicas 8",
# "minAvailable 4", a comparison ("score > 0.82", "scores above 0.75").
UNIT_BEFORE = re.compile(
    r"(?:^|(?<=[\s,;:(\[]))([A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*)[^\S\n]*"
    r"(>=?|<=?|≥|≤|\b(?:above|below|over|under|at least|at most)\b)?[^\S\n]*$"
)
# Words that end in "s" and count nothing: verbs and function words.
NOT_COUNTED_BEFORE = frozenset(
    """is was has does goes gives takes makes runs uses needs gets sets keeps says its this
    thus plus less unless across always perhaps yes towards upwards""".split()
)
# Words before a number that never name what it counts.
NOT_UNITS_BEFORE = (
    NOT_UNITS
    | NOT_COUNTED_BEFORE
    | frozenset(
        """the a an of to in on at by for from with or is are be been have had do did about
        around approx approximately roughly nearly almost just up down into""".split()
    )
)


# Nouns that a number after them names one of, as a label: "port 5433", "platform 7", "room
# 212", "gate 20" (what the number is, as "3 replicas" says what it counts).
LABEL_NOUNS = POSITION_NOUNS | frozenset(
    """port room suite desk locker ward bed court pitch track route bus line channel
    extension locker shelf rack zone sector block building flat apartment unit table""".split()
)


def _label_before(text: str, start: int) -> str:
    """The noun right before a number that labels it ("port 5433", "platform 7"), if any."""
    found = re.search(r"(?<![\w-])([A-Za-z]+)[^\S\n]+$", text[max(0, start - 30) : start])
    if found is None or found.group(1).casefold() not in LABEL_NOUNS:
        return ""
    return count_noun(found.group(1).casefold())


def _unit_before(text: str, start: int) -> str:
    line = text[text.rfind("\n", 0, start) + 1 : start]
    found = UNIT_BEFORE.search(line)
    if found is None:
        return ""
    word, compared = found.group(1), found.group(2)
    lowered = word.casefold()
    if (
        len(lowered) < 3
        or lowered in NOT_UNITS_BEFORE
        or lowered in MONTHS
        or lowered.rstrip("s") in WEEKDAYS
    ):
        return ""
    keyed = bool(re.search(r"[_.-]|[a-z][A-Z]", word))
    if not (compared or keyed):
        opener = line[: found.start(1)].rstrip()
        # a plural noun opening its clause: "deployment: replicas 8", "- brokers 5"
        if not (
            lowered.endswith("s")
            and not lowered.endswith("ss")
            and (not opener or opener[-1] in ",;:(-*")
        ):
            return ""
    return count_noun(re.split(r"[_.-]", lowered)[-1])


def _area_factor(unit: str) -> float:
    """Square metres in one ``unit`` (spaces and dots removed, lower case)."""
    if unit.startswith(("sqft", "sqfe", "sqfo", "ft", "squaref")):
        return 0.09290304
    if unit.startswith(("sqkm", "squarekilo")):
        return 1e6
    if unit.startswith(("sqmi", "squaremile")):
        return 2589988.11
    if unit.startswith("acre"):
        return 4046.8564
    if unit.startswith(("hectare", "ha")):
        return 10000.0
    return 1.0  # sq m, m², sqm, square metres


SWITCHED_ON = frozenset("true on yes enabled enable".split())


def _switch(match: re.Match) -> Value:
    """A setting's state, its unit the setting's key: the last part of a dotted path, its
    words joined by "_" ("Dark-Mode" = "dark_mode")."""
    key = "_".join(re.split(r"[_-]+", match.group(1).rsplit(".", 1)[-1].casefold()))
    state = match.group(2).casefold() in SWITCHED_ON
    start, end = match.span(2)
    return Value("switch", (key, state), start, end, match.group(2), unit=key)


TIMES_WORDS = {"once": 1.0, "twice": 2.0, "thrice": 3.0}
AMOUNT_BEFORE = re.compile(r"(?:\b[A-Z]{3}|[$€£¥₹]|\d['’,.])\s*$")


def _frequency(match: re.Match, start: int, end: int, raw: str) -> Value | None:
    """How many times a year: "every 6 months" 2, "three times a week" 156, "twice daily"
    730."""
    found = match.groupdict()
    counted = found["count"] or found["per_count"]
    if counted and AMOUNT_BEFORE.search(match.string, 0, match.start()):
        return None  # "CHF 1'200 per month", "USD 40 a week": an amount, not a count
    if found["word"]:
        rate = FREQUENCY_WORDS[found["word"].casefold()]
    elif found["every"]:
        step = _number(found["step"]) if found["step"] else 1.0
        if not step:
            return None
        per_year = PER_YEAR_OF[found["every"].casefold().rstrip("s")]
        rate = per_year / step / (2 if found["other"] else 1)
    elif found["per_period"]:  # "3 per week"
        many = _number(found["per_count"])
        if many is None:
            return None
        rate = many * PER_YEAR_OF[found["per_period"].casefold().rstrip("s")]
    else:
        times = found["times"]
        many = TIMES_WORDS[times.casefold()] if times else None
        many = many if many is not None else _number(found["count"])
        if many is None:
            return None
        if found["adverb"]:
            rate = many * FREQUENCY_WORDS[found["adverb"].casefold()]
        else:
            rate = many * PER_YEAR_OF[found["period"].casefold().rstrip("s")]
    return Value("frequency", (round(float(rate), 3),), start, end, raw)


# What makes two bare numbers hours of the day: a day, an opening, a shift on their line.
CLOCK_CUE = re.compile(
    rf"(?<!\w)(?:(?:{_DAY})s?|weekdays?|weekends?|daily|every\s+day|hours|open(?:s|ing)?|"
    r"closes?|shifts?|o'?clock|mornings?|afternoons?|evenings?|comes|works?|sessions?|"
    r"surgery|clinic|office)(?!\w)",
    re.IGNORECASE,
)
# Words after the second number that still leave it an hour ("9-5 on weekdays"); any other
# word is what the numbers count ("9–12 months", "2-3 times").
CLOCK_AFTER = re.compile(
    rf"[^\S\n]*(?:$|[^\w\s]|\n|(?:on|every|each|except|and|then|but|or|at|in|with|for|"
    rf"daily|weekdays?|weekends?|(?:{_DAY})s?|{_ZONE})(?!\w))",
    re.IGNORECASE,
)
ZONE_AFTER = re.compile(rf"[^\S\n]*({_ZONE})(?!\w)", re.IGNORECASE)
# A score or a count before the numbers: "won 3-1 on Saturday", "ages 9-12 on Tuesdays".
CLOCK_NOT_BEFORE = re.compile(
    r"(?<!\w)(?:won|lost|beat|drew|draw|scored?|final|result|vs\.?|against|ages?|aged|"
    r"pages?|pp\.?|chapters?|grades?|years?|rooms?|floors?|rows?|sizes?|levels?|steps?|"
    r"weeks?|days?|units?|seats?)\W*$",
    re.IGNORECASE,
)


CLOCK_LATE = re.compile(
    r"(?:\b(?:evenings?|nights?|tonight|afternoons?|pm)\b[^\S\n]*[,:]?[^\S\n]*(?:from[^\S\n]+)?$)"
    r"|[^\S\n]+(?:in[^\S\n]+the[^\S\n]+)?(?:evenings?|nights?|afternoons?|pm)\b",
    re.IGNORECASE,
)


def _clock_range_at(text: str, start: int) -> bool:
    """Whether hours with no am/pm begin at ``start`` ("8.30 to 5", with a cue)."""
    clock = CLOCK_RANGE.match(text, start)
    return clock is not None and bool(_clock_range(clock, text))


def _clock_range(match: re.Match, text: str) -> list[Value]:
    """Two times of day from bare hours: "9–12" (9:00 and 12:00), "9-5" (9:00 and 17:00),
    "6-8" (18:00 and 20:00, or the morning); nothing without a cue on the line."""
    start, end = match.span()
    line_start = text.rfind("\n", 0, start) + 1
    if not CLOCK_CUE.search(line_around(text, start, end)) or not CLOCK_AFTER.match(text, end):
        return []
    if CLOCK_NOT_BEFORE.search(text[max(line_start, start - 20) : start]):
        return []
    first, first_min, second, second_min = match.groups()
    hour, end_hour = int(first), int(second)
    minute, end_minute = int(first_min or 0), int(second_min or 0)
    if hour > 24 or end_hour > 24 or (hour == 0 and not first.startswith("0")):
        return []
    twelve = hour <= 12 and end_hour <= 12 and not first.startswith("0")
    if twelve:
        # the working day: 7 to 11 in the morning, 1 to 6 in the afternoon, 12 noon; any
        # hour of an evening or a night ("Wednesday nights 8 to 10") after noon
        late = CLOCK_LATE.search(text[max(line_start, start - 30) : start]) or CLOCK_LATE.match(
            text, end
        )
        start_24 = 12 if hour == 12 else hour + (12 if 1 <= hour <= 6 or late else 0)
        end_24 = (
            end_hour % 12 + 12 if end_hour * 60 + end_minute <= start_24 * 60 + minute else end_hour
        )
        if end_hour == 12 and start_24 < 12:
            end_24 = 12
    else:
        start_24, end_24 = hour, end_hour
    begin, finish = start_24 * 60 + minute, end_24 * 60 + end_minute
    if finish <= begin and not (twelve is False and start_24 >= 18):
        return []  # "3-1": a score, not hours
    if finish > 24 * 60 or begin == finish:
        return []
    zone_after = ZONE_AFTER.match(text, end)
    zone = zone_after.group(1).casefold() if zone_after else ""  # "8.30 to 5 CET": both
    other = ((begin - 720, zone),) if twelve and start_24 > 12 else ()
    other_end = ((finish - 720, zone),) if twelve and other and finish - 720 > 0 else ()
    raw_end = match.start(3)
    return [
        Value(
            "time",
            (begin, zone),
            start,
            match.end(2) if first_min else match.end(1),
            text[start : match.end(2) if first_min else match.end(1)],
            alternatives=other,
        ),
        Value("time", (finish, zone), raw_end, end, text[raw_end:end], alternatives=other_end),
    ]


# A unit after four digits: "capped at 1536 MiB" is a quantity, not the time 15:36.
QUANTITY_AFTER = re.compile(
    r"\s?(?:[kmgtp]i?b|bytes?|ms|px|kg|km|cm|mm|rpm|[kmg]hz|kw|mw|mah|lbs?|ft|mi)\b", re.I
)
# Words before "9h30" that make it a time of day; "1h25" with none is how long something
# takes ("block time 1h25").
AT_HOUR = re.compile(r"\b(?:at|by|from|until|till|before|after|around|à|a las|um)\s*$", re.I)


def _time_in_words(groups: tuple, start: int, end: int, raw: str, text: str) -> Value | None:
    """A time said in words or written without a colon; one said without am or pm ("quarter
    to eleven") is also the same time twelve hours on."""

    def hour(word: str) -> int:
        return int(word) if word.isdigit() else HOUR_WORDS[word.casefold()]

    if groups[0] is not None:  # "quarter past ten", "quarter to eleven"
        minutes = hour(groups[2]) * 60 + (-15 if groups[1].casefold() == "to" else 15)
    elif groups[13] is not None:  # "twenty to four", "ten past six"
        past = NUMBER_WORDS[groups[13].casefold()]
        minutes = hour(groups[15]) * 60 + (-past if groups[14].casefold() == "to" else past)
    elif groups[3] is not None or groups[4] is not None:  # "half past nine", "half nine"
        minutes = hour(groups[3] or groups[4]) * 60 + 30
    elif groups[5] is not None:  # "ten o'clock"
        minutes = hour(groups[5]) * 60
    elif groups[6] is not None:  # noon, midnight
        minutes = 0 if groups[6].casefold() == "midnight" else 720
        return Value("time", (minutes, ""), start, end, raw)
    else:  # "9h30", "at 0930", "1530 hrs": a 24-hour clock
        hours, mins = next((groups[i], groups[i + 1]) for i in (7, 9, 11) if groups[i])
        if QUANTITY_AFTER.match(text, end):
            return None  # "capped at 1536 MiB": a size, read by its own pattern
        if groups[7] and len(hours) == 1 and not AT_HOUR.search(text[max(0, start - 8) : start]):
            return Value("duration", (int(hours) * 3600 + int(mins) * 60,), start, end, raw)
        return Value("time", (int(hours) * 60 + int(mins), ""), start, end, raw)
    minutes %= 720
    return Value("time", (minutes, ""), start, end, raw, alternatives=((minutes + 720, ""),))


def _bare_hour(groups: tuple, text: str, start: int, end: int, raw: str) -> Value | None:
    """ "till 7" as 7:00 or 19:00 where the line names hours (a cue, "opens", "Fridays") or
    the text writes another time of day ("18:00–21:00 …, roped off till 7"); a number
    otherwise ("won after 3", "wait until 2")."""
    hour = HOUR_WORDS[groups[0].casefold()] if groups[0].isalpha() else int(groups[0])
    minute = int(groups[1] or 0)
    if not 1 <= hour <= 12:
        return None
    if not (
        CLOCK_CUE.search(line_around(text, start, end)) or _NAMED_PATTERNS["time"].search(text)
    ):
        return None
    minutes = (hour % 12) * 60 + minute
    return Value("time", (minutes, ""), start, end, raw, alternatives=((minutes + 720, ""),))


def line_around(text: str, start: int, end: int) -> str:
    """The line of ``text`` that holds ``start``..``end``."""
    line_end = text.find("\n", end)
    return text[text.rfind("\n", 0, start) + 1 : len(text) if line_end < 0 else line_end]


# A config key that names its unit ("ram_gb: 32", "timeout_seconds = 10", "budget_eur:
# 320000", TIMEOUT_MS=500): the number is a size, a duration, a length, a mass or money.
UNIT_KEY = re.compile(r"([A-Za-z][A-Za-z0-9]*)[_-]([A-Za-z]+)[\"']?\s*[:=]\s*[\"']?$")
# Keys whose one-letter "_s" is seconds: "delay_s: 30", "TIMEOUT_S=5", "ttl_s = 600".
SECONDS_KEYS = frozenset(
    """delay timeout ttl interval backoff period wait duration latency window expiry
    retention cooldown grace idle poll refresh age""".split()
)


def _unit_of_key(text: str, start: int, end: int, raw: str) -> Value | None:
    key = UNIT_KEY.search(text[:start])
    amount = _number(raw)
    if key is None or amount is None:
        return None
    unit = key.group(2).casefold()
    if unit == "s" and key.group(1).casefold() in SECONDS_KEYS:
        unit = "seconds"
    if unit in {"b", "s", "h", "m", "g"}:  # one letter after "_" says too little
        return None
    measured = _in_unit(amount, unit, start, end, raw)
    if measured is not None:
        return measured
    if len(unit) == 3 and unit in CURRENCY:
        return Value("money", (CURRENCY[unit], round(amount, 2), ""), start, end, raw)
    return None


def _in_unit(amount: float, unit: str, start: int, end: int, raw: str) -> Value | None:
    """``amount`` of ``unit`` (a unit of size, duration, length or mass) as its value."""
    for kind, table in (("size", SIZE), ("duration", DURATION), ("length", LENGTH), ("mass", MASS)):
        if unit in table:
            amount *= table[unit]
            key = round(amount) if kind == "size" else round(amount, 4)
            return Value(kind, (key,), start, end, raw)
    return None


def _per_year(amount: float, period: str) -> float:
    """A count per ``period`` (a unit of ``DURATION``) as a count per year, as frequencies
    and rates compare."""
    return round(amount * DURATION["year"] / DURATION[period.casefold()], 3)


# A unit said beside a setting's number, in brackets or a comment: "SESSION_TIMEOUT=1800
# (seconds)", "RATE_LIMIT=100  # requests per minute" (the period a rate counts in, group
# 2), "heap: 4096  // MB".
UNIT_NOTE = re.compile(
    r"[`'\"]?[^\S\n]*(?:\([^\S\n]*(?:in[^\S\n]+)?|(?:#|//|--)[^\S\n]*(?:in[^\S\n]+)?)"
    r"(?:(milliseconds?|ms|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|bytes|kib|mib|gib|"
    r"kb|mb|gb|tb)|(?:requests?|reqs?|calls?|messages?|events?)[^\S\n]*(?:/|per|an?)[^\S\n]*"
    r"(second|sec|s|minute|min|hour|h))\b",
    re.IGNORECASE,
)


def _unit_in_note(text: str, start: int, end: int, raw: str) -> Value | None:
    """A setting's number with its unit in a note after it (``UNIT_NOTE``), on a line that
    sets a key: a duration, a size or a rate, as "1800 seconds" would be."""
    note = UNIT_NOTE.match(text, end)
    amount = _number(raw)
    if note is None or amount is None or not _field_key(text, start):
        return None
    if note.group(2):  # "100  # requests per minute": how often, as a frequency is
        return Value("frequency", (_per_year(amount, note.group(2)),), start, end, raw)
    return _in_unit(amount, note.group(1).casefold(), start, end, raw)


def _field_key(text: str, start: int) -> str:
    """The key of the "Key: value" (or "key = value", a quoted value) line whose value
    starts at ``start``; "" when the value does not follow a key on its own line."""
    line = text[text.rfind("\n", 0, start) + 1 : start]
    return line if re.search(r"[:=][^\S\n]*[\"'`]?$", line) else ""  # 'version: "15.4"'


def _field_of_technology(text: str, start: int) -> bool:
    """Whether the value at ``start`` is a field's value on a line that names a technology
    or a version before the colon ("Postgres on db-prod-1: 15.4", "Python version = 3.12")."""
    words = re.findall(r"[A-Za-z][\w.+#-]*", _field_key(text, start))
    return any(w.casefold() in lexicon.TECHNOLOGIES or w.casefold() in VERSION_KEYS for w in words)


# Field names whose value is a version ("Firmware on the scanners: 8.1", "Build: 4.2").
VERSION_KEYS = frozenset("version versions firmware build release kernel sdk patch ver".split())


def _compound_duration(groups: tuple, start: int, end: int, raw: str) -> Value | None:
    """A duration of a whole and a fraction ("an hour and a quarter") or of two units
    ("2 h 30 min"); None when a part is not a duration ("2 m 30" alone)."""

    def seconds(unit: str) -> float | None:
        unit = unit.casefold()
        return DURATION.get("min" if unit == "m" else unit)

    def count(word: str) -> float | None:
        return 1.0 if word.casefold() in {"a", "an"} else _number(word)

    if groups[0] is not None:  # "an hour and a half"
        whole, unit, part = count(groups[0]), seconds(groups[1]), FRACTIONS[groups[2].casefold()]
    elif groups[3] is not None:  # "two and a half hours"
        whole, part, unit = count(groups[3]), FRACTIONS[groups[4].casefold()], seconds(groups[5])
    elif groups[6] is not None:  # "three quarters of an hour"
        whole, part, unit = 0.0, FRACTIONS[groups[6].casefold()], seconds(groups[7])
    elif groups[8] is not None:  # "a half-hour"
        whole, part, unit = 0.0, 0.5, seconds(groups[8])
    else:  # "2 h 30 min": the second unit smaller than the first
        first, second = seconds(groups[10]), seconds(groups[12])
        if first is None or second is None or second >= first:
            return None
        total = int(groups[9]) * first + int(groups[11]) * second
        return Value("duration", (round(total, 3),), start, end, raw)
    if whole is None or unit is None:
        return None
    return Value("duration", (round((whole + part) * unit, 3),), start, end, raw)


# "$6,800 a year" = "$6.8k/yr", "€95 per month" = "€95/mo".
PERIODS = {
    "month": "mo", "mo": "mo", "quarter": "qtr", "qtr": "qtr", "year": "yr", "yr": "yr",
    "annum": "yr", "week": "wk", "wk": "wk", "day": "day", "hour": "hr", "hr": "hr",
    "monthly": "mo", "quarterly": "qtr", "annual": "yr", "annually": "yr", "yearly": "yr",
    "weekly": "wk", "daily": "day", "hourly": "hr", "night": "day", "nightly": "day",
}  # fmt: skip
# The period after an amount: "$95/mo", "€95 per month", "50 grand a year".
PERIOD_AFTER = re.compile(
    # past what it is per: "£75 per container per day", "$40 a head a night"
    r"(?:\s*(?:per|a|an|each)\s+(?!(?:month|quarter|year|annum|week|day|night|hour)\b)[a-z]+"
    r"|/(?!(?:month|mo|quarter|qtr|year|yr|annum|week|wk|day|night|hour|hr)\b)[a-z]+)?"
    r"\s*(?:/|per\s+|a\s+|an\s+)(month|mo|quarter|qtr|year|yr|annum|week|wk|day|night|hour|hr)\b"
)
# A period said before the amount, in the same clause: "a monthly retainer of CHF 20k".
_PERIOD_WORDS = r"\b(monthly|quarterly|annual|annually|yearly|weekly|daily|hourly)\b"
PERIOD_BEFORE = re.compile(
    _PERIOD_WORDS + r"(?:[^\S\n]+[A-Za-z-]+){0,3}[^\S\n]*(?:of|is|at|:|=)?[^\S\n]*$",
    re.IGNORECASE,
)


def _money_period(text: str, start: int, end: int) -> str:
    """The period an amount at ``start:end`` is per ("mo", "yr", ...), said after it or,
    failing that, before it in its clause; "" when none is said."""
    after = PERIOD_AFTER.match(text, end)
    if after:
        return PERIODS[after.group(1)]
    before = PERIOD_BEFORE.search(text[max(0, start - 40) : start])
    if before:
        return PERIODS[before.group(1).casefold()]
    # a "Key: value" line whose key says the period: "Monthly rent at 44 Birch Lane: £1,450"
    keyed = PERIOD_IN_KEY.search(_field_key(text, start))
    return PERIODS[keyed.group(1).casefold()] if keyed else ""


PERIOD_IN_KEY = re.compile(_PERIOD_WORDS, re.IGNORECASE)


PER_YEAR = {"yr": 1, "qtr": 4, "mo": 12, "wk": 52, "day": 365, "hr": 365 * 24}
# A size read with binary prefixes against one written with decimal ones, either way.
SIZE_PREFIX_RATIOS = tuple(ratio for k in range(5) for ratio in {(1.024**k), 1 / (1.024**k)})


# How the "ordinal" reading writes a position: "70th", "seventh", "the second floor".
POSITION = re.compile(rf"\d{{1,3}}(?:st|nd|rd|th)|{_ORDINAL}|first|second", re.IGNORECASE)


def is_position(value: Value) -> bool:
    """Whether a number is a position ("her 70th birthday", "the seventh floor"), not how
    many of something."""
    return value.kind == "number" and bool(POSITION.fullmatch(value.text))


def same_value(a: Value, b: Value) -> bool:
    """Whether two values of one kind are the same value in any reading; a weekday alone is
    the date that falls on it ("the Friday before" = "Friday 15 August")."""
    if a.kind != b.kind:
        return False
    if a.kind == "frequency" and (_period_of(a, b) or _period_of(b, a)):
        return True
    if a.kind == "date" and (_on_weekday(a, b) or _on_weekday(b, a)):
        return True
    keys_a, keys_b = (a.key, *a.alternatives), (b.key, *b.alternatives)
    if a.kind == "economy" and a.alternatives and b.alternatives:
        keys_a, keys_b = (a.key,), (b.key,)  # miles per gallon both: the same gallon
    if (a.rough or b.rough) and _roughly(a, b):
        return True
    if a.kind == "percent" and (_share_as_figure(a, b) or _share_as_figure(b, a)):
        return True
    if a.kind == "duration" and _calendar(a) != _calendar(b):
        # "8 weeks" = "two months", "30 days" = "a month": months and years are not whole
        # weeks or days, so a count of either says the same time roughly
        return abs(a.key[0] - b.key[0]) <= 0.1 * max(abs(a.key[0]), abs(b.key[0]))
    return any(_equal(a.kind, x, y) for x in keys_a for y in keys_b)


def _period_of(word: Value, rate: Value) -> bool:
    """ "daily" beside "1,200 loaves per day": the period word says only the period of a
    count said per that period (ten or more: "daily" is not "twice a day"), whose count
    the other text may say apart ("Daily output at the bakehouse: twelve hundred")."""
    return (
        word.text.casefold() in FREQUENCY_WORDS
        and rate.unit in PER_YEAR_OF
        and PER_YEAR_OF[rate.unit] == word.key[0]
        and rate.key[0] >= 10 * word.key[0]
    )


def _share_as_figure(share: Value, figure: Value) -> bool:
    """A share in words and the percentage written for it in digits: "a third" = 33 % or
    33.3 %, "two thirds" = 66 % or 67 %; the words are themselves a round figure, so the
    digits may lie one step of their last digit away."""
    if not SHARE.match(share.text) or not re.search(r"\d", figure.text):
        return False
    step = 2 * _margin(figure, figure.key[0])  # a whole step of the digits' rounding
    return abs(share.key[0] - figure.key[0]) <= step


def _roughly(a: Value, b: Value) -> bool:
    """Two figures of one quantity, one of them rough, as close as its rounding allows:
    "roughly 7,600 metres" is 7,550–7,650 m, "about 3 hours" 2.5–3.5 hours (money only in
    one currency and over one period); only figures of ``ROUGH_KINDS`` are marked rough."""
    if a.kind == "money":  # (currency, amount, period)
        if a.key[0] != b.key[0] or a.key[2] != b.key[2]:
            return False
        x, y = a.key[1], b.key[1]
    else:
        x, y = a.key[0], b.key[0]
    margin = max(_margin(v, amount) for v, amount in ((a, x), (b, y)) if v.rough)
    return abs(x - y) <= margin


def _margin(value: Value, amount: float) -> float:
    """Half the step a rough figure is rounded to, in the unit of its key: "7,600 m" to the
    hundred, "2.5 km" to the tenth, "three hours" to the hour; a figure written in two
    parts ("2h45") to a twentieth of itself."""
    digits = re.findall(r"\d[\d,]*(?:\.\d+)?", value.text)
    if len(digits) > 1 or re.search(r"\b(?:half|quarter)\b", value.text, re.IGNORECASE):
        return 0.05 * abs(amount)
    if digits:
        written = digits[0].replace(",", "")
        number = float(written)
        if "." in written:
            step = 10.0 ** -len(written.split(".")[1])
        else:
            step = 10.0 ** (len(written) - len(written.rstrip("0"))) if number else 1.0
    else:
        words = [w for w in re.findall(r"[a-z]+", value.text.casefold()) if w in NUMBER_WORDS]
        if not words:  # "about an hour"
            return 0.1 * abs(amount)
        number, step = float(NUMBER_WORDS[words[0]]), 1.0
    return 0.5 * step * abs(amount / number) if number else 0.0


def _calendar(value: Value) -> bool:
    return bool(re.search(r"mo|mth|y(?:ea)?r", value.text, re.IGNORECASE))


def _on_weekday(weekday: Value, date: Value) -> bool:
    if weekday.key[0] != "weekday" or date.key[0] == "weekday" or len(date.key) != 3:
        return False
    year, month, day = date.key
    if year:
        try:
            return dt.date(year, month, day).weekday() == weekday.key[1]
        except (TypeError, ValueError):
            return False
    names = [name for name, number in WEEKDAYS.items() if number == weekday.key[1]]
    return any(re.search(rf"\b{name}\b", date.text, re.IGNORECASE) for name in names)


def _equal(kind: str, x: tuple, y: tuple) -> bool:
    if kind == "date" and len(x) == 3 and len(y) == 3 and x[0] != "weekday":
        return x[1:] == y[1:] and (x[0] is None or y[0] is None or x[0] == y[0])
    if kind == "month":
        return x[1] == y[1] and (x[0] is None or y[0] is None or x[0] == y[0])
    if kind == "time":
        if x[1] and y[1] and x[1] != y[1] and x[1] in ZONE_OFFSET and y[1] in ZONE_OFFSET:
            shift = round((ZONE_OFFSET[x[1]] - ZONE_OFFSET[y[1]]) * 60)
            return (x[0] - shift) % 1440 == y[0]  # 16:00 UTC = 17:00 CET
        return x[0] == y[0] and (not x[1] or not y[1] or x[1] == y[1])
    if kind == "money":
        if x[0] != y[0] and "?" not in (x[0], y[0]):
            return False
        if x[2] == y[2] or not x[2] or not y[2]:
            return x[1] == y[1]
        # €1,500 a month = €18,000 a year: one amount over two periods
        yearly_x, yearly_y = x[1] * PER_YEAR[x[2]], y[1] * PER_YEAR[y[2]]
        return abs(yearly_x - yearly_y) <= 0.01 * max(yearly_x, yearly_y, 1)
    if kind == "temperature":
        return abs(x[0] - y[0]) <= 0.6  # 68 °F = 20 °C, rounded either way
    if kind == "size":  # 2 TB = 2000 GB, 25 MB = 25,000,000 bytes: binary or decimal prefixes
        return any(
            abs(x[0] * factor - y[0]) <= 0.01 * max(abs(x[0] * factor), abs(y[0]))
            for factor in SIZE_PREFIX_RATIOS
        )
    if kind in {"length", "mass", "volume", "rate", "area", "speed", "economy", "pressure"}:
        # 5 km = 3.1 miles, 5 lb = 2.3 kg (rounded); 5'10" (1.78 m) is not 1.83 m
        return abs(x[0] - y[0]) <= 0.02 * max(abs(x[0]), abs(y[0]))
    if kind == "frequency":  # "every 7 days" (52.14 a year) = "weekly" (52)
        return abs(x[0] - y[0]) <= 0.005 * max(1.0, abs(x[0]), abs(y[0]))
    if kind in {"number", "percent", "duration", "age"}:
        return abs(x[0] - y[0]) <= 1e-6 * max(1.0, abs(x[0]), abs(y[0]))
    return x == y
