"""The word lists and patterns the parser extractor reads names and relations with."""

import re

from graph.vocabulary import STREET_WORDS
from memoryhub import lexicon
from memoryhub.nlp import ARROW_MARKS, TITLE_ABBREVIATIONS, english_word

NER_TYPES = {
    "PERSON": "person",
    "ORG": "organization",
    "GPE": "location",
    "LOC": "location",
    "FAC": "location",
    "PRODUCT": "technology",
    "EVENT": "event",
    "WORK_OF_ART": "document",
    "LAW": "document",
}
IDENTIFIER_TYPES = {
    "identifier": "component",
    "region": "location",
    "file": "document",
    "ticket": "document",
}
# Parts of a code name that make it a group of people: "team-finops", "data-eng",
# "obs-guild", "dba-team" (9 of 9 such names in the labelled texts are organizations).
GROUP_PARTS = {"team", "teams", "guild", "squad", "tribe", "crew", "chapter", "eng", "dept"}
# A part of a code name that makes it a data centre or an availability zone: "dc-ams-1",
# "fra-dc2", "az-b" (7 of 7 such names in the labelled texts are locations).
DATA_CENTRE_PART = re.compile(r"dc\d*|az")
# Tickets that name an incident ("INC-4471", "SEV-12") rather than a document.
INCIDENT_PREFIXES = {"INC", "INCIDENT", "SEV", "OUTAGE", "PIR"}
# A title in quotes or emphasis: "The Overstory", *Thinking in Systems*, “Dune”.
TITLE = re.compile(
    r'(?<![\w"])"([A-Z0-9][^"\n]{0,78}[^\s"])"(?!\w)'
    r"|\u201c([A-Z0-9][^\u201d\n]{0,78})\u201d"
    r"|(?<![*\w])\*([A-Z0-9][^*\n]{0,78}[^\s*])\*(?![*\w])"
    # single quotes, two words at least (one is a nickname as often): "her paper 'Tonal
    # Cues in Low-Resource ASR'", "the writeup ‘PM-88 Matchmaking Outage’"
    r"|(?<![\w'’])['‘]([A-Z0-9][^'‘’\n]{0,78}[^\s'‘’])['’](?!\w)"
)
TITLE_SMALL = set("a an the of in on at to for and or with by from vs is as into".split())
# Car makers: "a Honda Civic", "drives a Tesla Model 3" name a car, a thing one owns.
CAR_MAKERS = set(
    """toyota honda volvo tesla bmw audi mercedes ford kia hyundai subaru mazda nissan
    volkswagen vw fiat peugeot renault skoda jeep porsche lexus chevrolet chevy dodge
    mitsubishi suzuki citroen citroën seat opel mini polestar rivian jaguar""".split()
)
# Adjective and preposition pairs that state a taste: "interested in X", "obsessed with X".
TASTE_PHRASES = {
    ("in", "interested"),
    ("with", "obsessed"),
    ("about", "passionate"),
    ("about", "crazy"),
    ("on", "hooked"),
    ("on", "keen"),
    ("of", "fond"),
    ("to", "addicted"),
}
# What flows between systems: "aggregates calls to X", "forwards requests to Y".
TRAFFIC_NOUNS = set(
    """call request traffic event message query write read webhook notification job task
    metric log trace update record payload batch packet""".split()
)
# Instruments one plays: things, not activities ("plays the cello").
INSTRUMENTS = set(
    """cello violin viola guitar bass piano keyboard drums drum saxophone sax trumpet
    trombone flute clarinet oboe harp ukulele banjo mandolin accordion harmonica tuba
    synth synthesizer""".split()
)
# The parts one sings in a choir or a band: "sang alto in Lakhamula".
VOICE_PARTS = set("alto soprano tenor baritone bass vocals lead backing harmony".split())
# Verbs of going somewhere: "went to a concert in Berlin" visited Berlin.
TRAVEL_VERBS = {"go", "travel", "fly", "drive", "return", "head", "visit"}
STUDENT_WORDS = set(
    "student pupil undergrad undergraduate postgrad freshman sophomore phd candidate".split()
)
# What an event is called ("Sónar is a festival", "the summit was attended by"): the
# kind of gathering, never a meeting or a day, which name other things too.
EVENT_KIND_NOUNS = set(
    """festival conference summit marathon expo convention hackathon meetup tournament
    championship concert gala symposium carnival congress regatta triathlon""".split()
)
# Nouns that, bare after "the", stand for the last name of their kind.
ANAPHOR_KINDS = {
    **dict.fromkeys(EVENT_KIND_NOUNS, "event"),
    **dict.fromkeys(
        """company startup firm business agency studio bank nonprofit charity institute
        university hospital clinic lab laboratory school college foundation ministry council
        airline carrier label publisher club band orchestra chain retailer cooperative ngo
        organisation organization association society federation shop store brand restaurant
        cafe café bakery brewery winery consultancy manufacturer supplier vendor distributor
        collective partnership co-op facility factory warehouse depot mill refinery""".split(),
        "organization",
    ),
    **dict.fromkeys("project programme program initiative effort campaign".split(), "project"),
    **dict.fromkeys(
        """service app job database cluster topic queue bucket library repo pipeline host
        server node instance broker machine vm worker""".split(),
        "component",
    ),
    **dict.fromkeys("device sensor gadget tool framework platform".split(), "technology"),
}
# A company's departments: one is part of them, not employed by them.
DEPARTMENTS = set(
    """finance sales marketing legal hr engineering partnerships platform security support
    operations ops product design research procurement accounting it infra infrastructure
    growth payments data analytics""".split()
)
# The last word of a place's name: "Riverside Park", "Natural History Museum".
PLACE_CUES = set(
    """park museum zoo beach stadium arena square street avenue road bridge lake mountain
    mountains island islands river airport station temple cathedral castle palace gardens
    garden falls canyon valley bay coast peninsula national forest trail plaza market
    lagoon harbour harbor pier wharf cove glacier volcano fjord desert shrine
    sanctuary hotel hostel resort junction terminal factory st dam theatre theater hall
    building marina""".split()
) | (STREET_WORDS - {"drive", "way", "place", "pl", "close", "court", "ct", "hill", "walk"})
# Last words of a venue's name, a place where events are held: "Moscone Center".
VENUE_WORDS = PLACE_CUES | set(
    """center centre club gallery campus university college school library expo fairground
    pavilion""".split()
)
# Words that open a place's name: "Mount Tam", "Lake Bled", "Cape Point".
PLACE_OPENERS = {
    "mount", "mt", "lake", "cape", "isle", "fort", "port", "monte", "lago", "hotel", "hôtel",
    "rua", "rue", "via", "calle", "gare", "quinta", "villa", "riad", "hacienda",
}  # fmt: skip
GROUP_WORDS = set(
    """group club community choir society association league circle collective network
    troupe ensemble orchestra""".split()
)
TRIP_NOUNS = set("trip vacation holiday journey visit getaway tour honeymoon flight".split())
# Words that with a role make a job title: "Tech Lead", "Senior Staff Engineer".
ROLE_TITLE_WORDS = set(
    """tech senior staff principal junior chief head lead backend frontend fullstack
    software data product account solutions executive technical deputy associate
    assistant general regional vice""".split()
)
# Nouns that say what kind of system a name is: "Atlas is our data catalog".
SYSTEM_KIND_NOUNS = {
    **dict.fromkeys(
        """service api gateway pipeline catalog dashboard app backend frontend microservice
        worker repo repository module bot portal""".split(),
        "component",
    ),
    **dict.fromkeys("library framework language database tool".split(), "technology"),
    **dict.fromkeys("project initiative program programme epic".split(), "project"),
}
# Events one runs in rather than organises: "ran the Berlin Marathon".
RACE_WORDS = set("marathon half-marathon race 5k 10k triathlon ultra relay parkrun".split())
# Nouns that describe a work: "Atomic Habits, such a good book".
WORK_NOUNS = set(
    """book novel memoir biography film movie documentary show series sitcom album song
    podcast paper article essay poem play musical anime manga comic""".split()
)
# Words beside a person and a school that say the person studies there, not works there:
# "PhD at ETH", "studies nursing at", "a graduate of KAUST", "my roommate from IIT Bombay".
STUDY_CUES = STUDENT_WORDS | set(
    """phd doctorate master masters msc mba bsc undergraduate degree thesis dissertation
    graduate alumnus alumna alum alumni roommate classmate semester fresher study enrol
    enroll major""".split()
)
# The words of a school's own name: "Oakwood Primary", "Colegio San Ignacio".
SCHOOL_NAME_WORDS = set(
    """school primary elementary kindergarten preschool nursery grundschule gymnasium
    colegio escola escuela lycée lycee collège""".split()
)
# Words of a university's or college's own name: "Leipzig University", "IIT Madras".
UNIVERSITY_WORDS = set(
    """university universität universite université universidad universidade università
    universiteit uniwersytet college institute polytechnic politecnico politécnica
    polytechnique iit eth epfl""".split()
)
# Feasts and festivals, which a name's type guess takes for a company or a product.
HOLIDAYS = set(
    """christmas xmas easter diwali deepavali eid ramadan hanukkah chanukah thanksgiving
    passover holi navratri halloween hogmanay nowruz vesak""".split()
) | {"new year", "new year's", "lunar new year", "chinese new year", "eid al-fitr", "eid al-adha"}
# A child of someone's: "their daughter Adaeze is in Year 2 at Oakwood Primary".
CHILD_WORDS = set("son daughter kid kids child children grandson granddaughter".split())
SCHOOL_WORDS = set(
    """school college university uni class classes course courses kindergarten preschool
    nursery grad""".split()
)
SPLIT_WORDS = {"and", "&", "at", "in", "from", "with", "of", ",", "or", "for"}
# Marks no name spans: an arrow between two ("Aroha → Mihail"), "with" written short.
SPLIT_MARKS = {*ARROW_MARKS, "w/"}
# Nouns that name a part of a software system in any text ("billing service"); the other
# component nouns ("store", "app", "engine") do only in a technical one.
SYSTEM_NOUNS = {
    "service",
    "api",
    "gateway",
    "database",
    "db",
    "pipeline",
    "cluster",
    "queue",
    "endpoint",
    "microservice",
    "sdk",
    "cli",
    "repo",
    "bucket",
    "topic",
    "table",
    "indexer",
    "scheduler",
}
# A system's common nouns, which a name before them names: "we moved the Tindahan stack to
# Fly.io", "ported the Orbit backend to Go".
STACK_NOUNS = SYSTEM_NOUNS | set(
    """stack backend frontend app site website platform infra infrastructure codebase
    monolith workload workloads setup deployment""".split()
)
TEAM_WORDS = {
    "team",
    "squad",
    "guild",
    "group",
    "club",
    "crew",
    "band",
    "committee",
    "board",
    "tribe",
}
# "the user_sessions table", "the events topic": the name is the modifier.
NAMED_BY_MODIFIER = {"table", "topic", "bucket", "index", "repo", "repository", "job", "dag"}
# Verbs of settling somewhere: "moved to Lyon" lives there, "moved from Hanoi" no longer.
SETTLING_VERBS = {"move", "relocate", "emigrate", "immigrate"}
# Words that praise or scorn a thing in a chat ("the moussaka is elite", "cold brew is
# overrated"); "best" and "worst" as in "is the best".
PRAISE_WORDS = set(
    """amazing great good unreal insane incredible delicious awesome fantastic elite goated
    lovely brilliant excellent perfect superb best fire legendary addictive underrated
    gorgeous stunning tasty yummy""".split()
)
SCORN_WORDS = set(
    """awful terrible mid trash overrated meh horrible gross disgusting useless garbage
    unusable cursed buggy worst rubbish""".split()
)
# Verbs that report what another says ("Inês says Gallery Hostel is great").
SAYING_VERBS = set("say tell claim reckon think swear hear".split())
TASTE_VERBS = {"like", "love", "enjoy", "hate", "dislike", "prefer", "adore", "stand", "miss"}
# "my favourite snack is manakish": what one likes best.
FAVOURITE = {"favourite", "favorite", "fave", "favourites", "favorites"}
# What a favourite food or drink is called before it is named: "his favourite drink is zobo".
FOOD_KINDS = {"drink", "meal", "dessert", "breakfast", "beverage", "fruit", "treat", "sweet"}
FOODS = set(
    """milk coffee tea latte espresso cappuccino matcha juice water wine beer whisky pizza
    pasta sushi ramen tacos burger burgers salad bread cheese chocolate cake cookies
    pie soup curry rice noodles chicken beef pork fish tofu vegan vegetarian peanut peanuts
    nut nuts shellfish shrimp prawns seafood gluten dairy lactose egg eggs soy sesame
    oysters lobster crab avocado croissant croissants bagel bagels dumplings pho kimchi
    biryani falafel hummus paella tapas empanadas arepas pastry pastries donuts doughnuts
    pancakes waffles oatmeal granola yogurt smoothie kombucha lemonade soda cider gin rum
    vodka tequila sake mezcal steak lamb salmon tuna mango strawberries berries bananas
    apples olives mushrooms cilantro coriander garlic onions spicy food cuisine dish dishes
    snack snacks""".split()
)
# Adjective and noun pairs that name one food or drink.
FOOD_PHRASES = {
    ("flat", "white"),
    ("iced", "coffee"),
    ("iced", "latte"),
    ("green", "tea"),
    ("black", "coffee"),
    ("black", "tea"),
    ("hot", "chocolate"),
    ("sparkling", "water"),
    ("red", "wine"),
    ("white", "wine"),
    ("dark", "chocolate"),
    ("cold", "brew"),
}
# Given names that are also common lower-case English words: never a person in lower case.
COMMON_WORD_NAMES = set(
    """will jack frank rob rose grace max jade lily iris ruby amber jan bob pat ray don mark
    bill may june april summer dawn hope joy faith art rich sunny sky rain page chase hunter
    mason carter cooper gene drew penny holly ivy daisy violet olive sage august autumn
    angel august victor major king prince earl duke baron neil nick sam tim tom dan ken
    kim lee ben al ed van per said gift mercy noel sol luna nova stella amir""".split()
)
CLASS_WORDS = {"class", "lesson", "course", "workshop", "classes", "lessons"}
PET_WORDS = {"pet", "puppy", "kitten", "pup"}
ANIMALS = set(
    """dog dogs cat cats puppy kitten horse bird parrot rabbit hamster fish turtle retriever
    labrador lab poodle beagle terrier husky corgi dachshund bulldog shepherd spaniel collie
    chihuahua pug greyhound whippet doodle labradoodle goldendoodle schnauzer rottweiler
    boxer pitbull mutt tabby kitty budgie parakeet canary cockatiel tortoise gecko lizard
    snake iguana ferret guinea hedgehog goldfish pony donkey goat hen chicken duck pig
    cow sheep alpaca llama""".split()
)
TRIM_WORDS = lexicon.NEVER_NAMES | {
    "the",
    "a",
    "an",
    "dear",
    "mr",
    "mrs",
    "ms",
    "dr",
    "prof",
    "professor",
    "rev",
    "revd",
    "hon",
    "engr",
    "customer",
    "client",
    "vendor",
    "supplier",
    "prospect",
}
# Month abbreviations a date leaves before a name ("on 12 Dec. Tariq wants ...").
TRIM_WORDS |= {"jan", "feb", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}
TRIM_WORDS |= {"maybe", "perhaps", "probably", "possibly"}  # "Owner TBD, maybe Rahul's team"
# Kin words used as a title before a name ("Grandma Olga", "Tita Baby", "Kuya Ronnie",
# "Tía Carmen", "Lolo Ising", "Phupho Rukhsana", "Nonna Rosa", "Oma Greet", "Mzee Ochieng"),
# and the titles of religious orders ("Sister Marites", "Fr Tomas"): the name is the
# person's, without the title, as the labelled texts write it (about 9 times in 10).
KIN_TITLES = set(
    """grandma grandpa granny aunt auntie aunty uncle cousin abuela abuelo abuelita abuelito
    tita tito tía tia tío tio lolo lola kuya manang manong nonna nonno oma opa tante tannie
    oupa ouma mzee bibi babu phupho phuppo khala khalu chacha chachi mamu baji didi bhaiya
    dadi nani mamá papá mama sister brother father fr sr babcia dziadek dziadzia""".split()
)
TRIM_WORDS |= KIN_TITLES


def after_kin_title(doc, index: int) -> bool:
    """Whether the token at ``index`` follows a capitalised kin or religious title
    ("Lolo Ising", "Tita Baby", "Sister Marites")."""
    before = doc[index - 1] if index > 0 else None
    return (
        before is not None
        and before.text[:1].isupper()
        and (before.lower_.rstrip(".") in KIN_TITLES or before.lower_ in SHORT_TITLES)
    )


# Titles written short before a person's name: "Dr Mokoena", "Dra. Mardones", "Capt. Quispe".
SHORT_TITLES = frozenset(
    lexicon.NAME_TITLES
    | {f"{title}." for title in lexicon.NAME_TITLES}
    | {title.casefold() for title in TITLE_ABBREVIATIONS}
)


# What one calls a parent, a child or a friend in a chat, alone, in many languages: "Yes
# Ma", "Anak, nakarating na ba", "ok bro". Never a name on its own (but "Ma Long" is one).
VOCATIVES = frozenset(
    "ma pa mami papi amma appa ammi abbu anak bro sis habibi habibti machan".split()
)
CONFERENCE = re.compile(r"[a-z]Con$|Conf$")
HANDLE = re.compile(r"(?<![\w.@])@([A-Za-z][\w.-]*[A-Za-z0-9])")
GENERIC_HEADS = set(
    """thing things stuff time times way lot lots bit day days week weeks year years month
    months people person guy guys place places idea ideas part parts kind sort one ones
    work job jobs life home house moment end start today tomorrow yesterday""".split()
)
SUBJECT_PRONOUNS = {"i", "me", "myself", "we", "us"}
# One's spouse or sweetheart: the labelled texts relate a boyfriend or girlfriend as a
# spouse (7 of 9), a "partner" either way (12 and 12), so a partner stays one known.
KIN_MARRIED = {
    "wife", "husband", "spouse", "fiance", "fiancee", "fiancé", "fiancée", "hubby", "boyfriend",
    "girlfriend",
}  # fmt: skip
KIN_KNOWS = set(
    """friend buddy pal mate bestie colleague coworker co-worker teammate neighbor neighbour
    sister brother sibling cousin mom mother dad father son daughter aunt uncle niece nephew
    partner abuela abuelo nana
    grandma grandpa grandmother grandfather roommate mentor mentee classmate landlord
    landlady housemate flatmate stepmother stepfather stepsister stepbrother godmother
    godfather grandson granddaughter grandchild mum papa mama instructor teacher tutor
    coach trainer therapist doctor dentist physio counselor counsellor bandmate gran granny
    nan nanna grandad granddad grandmum grandmom gramps grandparent bro sis roomie roomate
    bff stepmom stepdad stepmum stepson stepdaughter godson goddaughter""".split()
)
KIN_REPORTS = {"manager", "boss", "lead", "supervisor"}
# Every word that says who someone is to another: "my roommate", "her husband", "his boss".
KIN_WORDS = KIN_KNOWS | KIN_MARRIED | KIN_REPORTS
# Roles that lead what they are the role of ("the chair of the planning committee").
LEADING_ROLES = set(
    """lead leader head manager director chair chairman chairwoman chairperson president captain
    principal dean""".split()
)
# Roles someone holds at a place of work (the leading ones among them).
ROLE_WORK = (
    set(
        """cto ceo cfo coo cio vp engineer developer designer founder
    cofounder co-founder analyst scientist researcher intern consultant contractor employee
    architect admin administrator sre owner maintainer member officer
    product-manager pm tpm recruiter accountant lawyer teacher professor nurse doctor chef
    cook surgeon pharmacist dentist barista waiter waitress cashier driver pilot editor
    writer journalist reporter photographer artist musician producer coach trainer
    therapist counselor counsellor librarian lecturer tutor technician mechanic electrician
    plumber carpenter architect paralegal attorney banker broker agent advisor adviser
    specialist coordinator assistant associate partner staff contact representative rep
    volunteer""".split()
    )
    | LEADING_ROLES
)
# The last word of a "Key: person" line's key under an organisation's heading, and what
# it makes the person of the organisation: its leader ("President:", "Medical director:",
# "PI:"), its founder ("Founded:", "Co-founders:"), a member ("Members:", "Players:").
LEADER_KEYS = set(
    """president chair chairperson chairman chairwoman director head pi principal captain
    ceo lead leader manager coordinator mayor headteacher conductor""".split()
)
FOUNDER_KEYS = {"founded", "founder", "founders", "cofounder", "cofounders", "co-founders"}
MEMBER_KEYS = set(
    """members member players squad volunteers crew staff engineers musicians singers
    dancers researchers students""".split()
)
# Written before a person's name, capitalised at a sentence's or a line's start or as a
# title ("Postdoc Jun Park", "Drummer Femi Adeyemi", "Ping Chioma for sign-off"): a role or
# an imperative verb, not part of the name.
NAME_PREFIXES = (
    ROLE_WORK
    | KIN_KNOWS
    | KIN_MARRIED
    | KIN_REPORTS
    | STUDENT_WORDS
    | set(
        """postdoc composer drummer guitarist bassist singer vocalist pianist violinist
        cellist conductor treasurer secretary clerk chairman chairwoman chairperson
        councillor councilor mayor senator governor minister ambassador judge detective
        sergeant lieutenant commander pastor reverend rabbi imam midwife paramedic vet
        veterinarian farrier landlord author novelist poet playwright painter sculptor
        illustrator animator filmmaker actor actress comedian dancer choreographer athlete
        striker goalkeeper midfielder defender skipper keeper referee umpire commissioner
        inspector dean provost chancellor headteacher headmaster headmistress apprentice
        trainee fellow economist physicist chemist biologist historian linguist
        psychologist psychiatrist cardiologist oncologist pediatrician paediatrician
        physician gp optometrist programmer entrepreneur investor baker butcher brewer
        winemaker sommelier florist gardener farmer rancher fisherman builder tailor barber
        hairdresser stylist nanny babysitter caretaker janitor cleaner courier dispatcher
        sailor soldier ranger lifeguard firefighter sheriff warden spokesperson spokesman
        spokeswoman auditor bookkeeper receptionist host dj rapper translator interpreter
        curator archivist registrar priest bishop nurse shepherd herdsman herder weaver
        potter blacksmith carpenter mason boatman fisherwoman batter bowler opener winger
        forward""".split()
    )
    | set(
        """user patient guest candidate applicant tenant attendee reviewer approver assignee
        requester contributor sponsor stakeholder"""
        """ ping ask tell email call text remind thank message dm cc invite congratulate pay
        chase nudge notify contact loop introduce welcome onboard brief meet help escalate
        assign poke""".split()
    )
)

# Titles whose bearer is a person whatever the rest of the name ("Principal Whitfield",
# "Mayor Nana Ampofo", "Coach Marcus"): the title is left out and the name is a person's.
PERSON_TITLES = set(
    """principal mayor senator governor judge detective sergeant captain lieutenant
    commander pastor reverend rabbi imam coach president chancellor dean minister
    ambassador councillor councilor inspector officer nurse headteacher mme mlle herr frau
    aunty auntie ustadh ustad ustaz sheikh shaikh sensei sifu pandit swami monsieur madame
    señor señora senor senora signor signora ato woizero weyzero kru ajarn khun mas mbak
    pak bapak ibu alhaji alhaja alhajia hajiya hajia haji hajji mallam datuk dato encik
    maulana mullah doña sra srta opanin cr cllr hon player md profe ma'am maam superintendent
    constable colonel corporal admiral marshal justice magistrate""".split()
) | {title.casefold() for title in TITLE_ABBREVIATIONS}  # "Sra. Paredes", "Capt. Quispe"
# Any word that stands before a name without being part of it.
BEFORE_NAMES = NAME_PREFIXES | PERSON_TITLES

# A line all in bold stands as a heading: "**Profile: Dawit Tesfaye**".
BOLD_LINE = re.compile(r"^(?:\*\*|__)[^*_\n]+(?:\*\*|__)$")
LIST_ITEM = re.compile(r"^([ \t]*(?:[-*+\u2022]|\d{1,2}[.)])[ \t]+(?:`|\*\*|__)?)(\S)")
SEPARATOR = re.compile(r"(?:`|\*\*|__)?\s*(?:\([^)\n]{0,40}\)\s*)?(?:\u2014|\u2013|-{1,2}|:)\s+")
FIELD_LINE = lexicon.FIELD_LINE
INLINE_FIELD = re.compile(r"[;,(\u2014\u2013]\s*([A-Za-z][A-Za-z /'-]{0,24}?)\s*:\s*([^;,()\n]+)")
# A "Key: values" sentence inside a line of prose ("... (previously Ocado). Main stack: dbt,
# Snowflake, Airflow. Reports to ..."): the key, and the values up to the sentence's end.
SENTENCE_FIELD = re.compile(
    r"(?<=[.!?])[ \t]+([A-Z][A-Za-z /'-]{0,24}?)[ \t]*:[ \t]+(.+?)"
    # the value ends with its sentence, not after a title ("Supervisor: Dr. Esteban Mora.")
    r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bProf)(?<!\bSt)(?=[.!?](?:\s|$)|;|\n|$)"
)
PARENTHESIS = re.compile(r"[ \t]*\(([^()\n]{1,80})\)")
VALUE_SPLIT = re.compile(r"[^,;&/]+(?<!\s)")
PERSONAL_RELATIONS = {
    "LIVES_IN",
    "WORKS_FOR",
    "LIKES",
    "DISLIKES",
    "MARRIED_TO",
    "KNOWS",
    "STUDIES_AT",
    "REPORTS_TO",
    "MANAGER",
}
# Values never named as entities: dates, times, amounts.
VALUE_ENTS = {"DATE", "TIME", "MONEY", "PERCENT", "QUANTITY", "CARDINAL", "ORDINAL"}
TEAM_KEYS = {"team", "squad", "department", "dept"}
# Keys whose value names the subject of a record: "- Name: Priscila Andrade".
NAME_KEYS = {"name", "full name", "contact", "person"}
# Keys whose value is a role that may name the employer: "Role: Staff SRE at Mercari".
ROLE_KEYS = {"role", "job", "position", "part-time job", "side job"}
# Keys whose value names the system a record is about: "service: image-resizer" opening
# the "owner:", "lang:", "runtime:" lines below it.
SUBJECT_KEYS = {
    "service", "svc", "repo", "repository", "project", "app", "application", "component",
    "module", "package", "system", "host", "server", "cluster", "job name", "pipeline",
}  # fmt: skip
# key -> (who is the subject: the section's "topic" or the "value", relation, value kind)
FIELDS = {
    **dict.fromkeys(
        ["lives in", "lives", "home", "city", "hometown", "works from"],
        ("topic", "LIVES_IN", "location"),
    ),
    **dict.fromkeys(
        [
            "location",
            "based in",
            "region",
            "regions",
            "deployed to",
            "deployed in",
            "hosted in",
            "runs in",
            "datacenter",
            "data centre",
        ],
        ("topic", "LIVES_IN", "location"),
    ),
    **dict.fromkeys(
        [
            "works at",
            "works for",
            "works",
            "employer",
            "company",
            "org",
            "role",
            "job",
            "position",
            "part-time job",
            "side job",
            "workplace",
        ],
        ("topic", "WORKS_FOR", "organization"),
    ),
    **dict.fromkeys(
        [
            "likes",
            "loves",
            "hobbies",
            "hobby",
            "interests",
            "enjoys",
            "favourite",
            "favorite",
            "favourites",
            "favorites",
            "fan of",
        ],
        ("topic", "LIKES", "concept"),
    ),
    **dict.fromkeys(["dislikes", "hates", "avoid", "avoids"], ("topic", "DISLIKES", "concept")),
    **dict.fromkeys(["coffee", "drink", "drinks", "food", "snack"], ("topic", "LIKES", "other")),
    **dict.fromkeys(["prefers", "preferred", "preference"], ("topic", "PREFERS", "concept")),
    **dict.fromkeys(
        [
            "uses",
            "stack",
            "tools",
            "tooling",
            "language",
            "languages",
            "lang",
            "framework",
            "frameworks",
            "database",
            "databases",
            "db",
            "datastore",
            "data store",
            "tech",
            "runtime",
            "editor",
            "ide",
            "platform",
            "queue",
            "cache",
            "storage",
            "runs on",
            "written in",
            "built with",
            "built on",
            "hosted on",
            "deployed on",
            "cloud",
            "hosting",
            "ci",
            "ci/cd",
            "monitoring",
            "alerting",
            "observability",
            "logging",
            "orm",
            "broker",
            "message broker",
            "messaging",
            "search",
            "auth",
            "secrets",
            "infra",
            "infrastructure",
            "orchestration",
            "scheduler",
            "stack used",
            # a tool that manages, not a person: "Password manager: 1Password"
            "password manager",
            "package manager",
            "secrets manager",
            "secret manager",
            "window manager",
            "version manager",
            "certificate manager",
            "process manager",
        ],
        ("topic", "USES", "technology"),
    ),
    **dict.fromkeys(
        ["members", "member", "engineers", "team members"], ("value", "PART_OF", "person")
    ),
    **dict.fromkeys(
        [
            "lead",
            "leads",
            "tech lead",
            "chair",
            "head",
            "pm",
            "product manager",
            "led by",
            "run by",
            "headed by",
            "managed by",
            "organiser",
            "organisers",
            "organizer",
            "organizers",
            "organised by",
            "organized by",
            "director",
            "coordinator",
            "coordinated by",
        ],
        ("value", "LEADS", "person"),
    ),
    **dict.fromkeys(
        ["manager", "line manager", "supervisor", "supervisors", "supervised by", "boss"],
        ("value", "MANAGER", "person"),
    ),
    **dict.fromkeys(
        [
            "owner",
            "owners",
            "owned by",
            "maintainer",
            "maintainers",
            "maintained by",
            "dri",
            "assignee",
            "on-call",
            "oncall",
        ],
        ("value", "OWNS", "person"),
    ),
    "owns": ("topic", "OWNS", "component"),
    **dict.fromkeys(
        ["depends on", "dependencies", "deps", "requires", "backed by"],
        ("topic", "DEPENDS_ON", "component"),
    ),
    **dict.fromkeys(
        ["sends via", "integrates with", "calls", "talks to", "publishes to", "notifies"],
        ("topic", "INTEGRATES_WITH", "component"),
    ),
    **dict.fromkeys(
        ["married to", "spouse", "wife", "husband", "girlfriend", "boyfriend", "fiancé", "fiance"],
        ("topic", "MARRIED_TO", "person"),
    ),
    "reports to": ("topic", "REPORTS_TO", "person"),
    # a person's team, or the team that owns a system ("- Team: Payments")
    **dict.fromkeys(["team", "squad", "department", "dept"], ("topic", "PART_OF", "organization")),
    **dict.fromkeys(
        ["studied at", "studies at", "school", "university", "education", "alma mater"],
        ("topic", "STUDIES_AT", "organization"),
    ),
    **dict.fromkeys(
        [
            "author",
            "authors",
            "written by",
            "authored by",
            "created by",
            "founder",
            "founders",
            "founded by",
            "founded",  # "**Founded:** 2016 by Ndapewa Shikongo and Johan Visagie"
            "co-founders",
            "cofounders",
        ],
        ("value", "CREATED", "person"),
    ),
    **dict.fromkeys(
        ["reviewer", "reviewers", "reviewed by", "approved by", "approver"],
        ("value", "REVIEWED", "person"),
    ),
    **dict.fromkeys(
        [
            "sister",
            "brother",
            "mother",
            "mom",
            "mum",
            "dad",
            "father",
            "son",
            "daughter",
            "kids",
            "children",
            "child",
            "friend",
            "friends",
            "best friend",
            "cousin",
            "aunt",
            "uncle",
            "grandma",
            "grandpa",
            "parents",
            "siblings",
            "colleague",
            "colleagues",
            "mentor",
            "buddy",
            "partner",
            "roommate",
            "grandmother",
            "grandfather",
            "niece",
            "nephew",
        ],
        ("topic", "KNOWS", "person"),
    ),
    **dict.fromkeys(["dog", "cat", "pet", "pets", "dogs", "cats"], ("topic", "OWNS", "other")),
}
# Markdown tables: a row, the rule under the header, the kind of the first column's names
# by its header, and column keys beyond those of "Key: value" lines.
TABLE_ROW = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
TABLE_RULE = re.compile(r"^[ \t]*\|(?:[ \t]*:?-{2,}:?[ \t]*\|)+[ \t]*$")
TABLE_SUBJECTS = {
    **dict.fromkeys(
        "service services component system app repo repository job host module api".split(),
        "component",
    ),
    **dict.fromkeys(
        "name person who people member engineer employee contact owner assignee".split(),
        "person",
    ),
    **dict.fromkeys(
        "team org organization organisation company vendor customer client partner".split(),
        "organization",
    ),
    **dict.fromkeys("city place location region country office site".split(), "location"),
    **dict.fromkeys(
        "tool technology tech library framework language database product dependency "
        "dependencies package lib".split(),
        "technology",
    ),
    **dict.fromkeys("project initiative epic".split(), "project"),
    **dict.fromkeys("doc document book title ticket".split(), "document"),
    **dict.fromkeys("event incident".split(), "event"),
}
TABLE_KEYS = {
    **dict.fromkeys(
        ["datastore", "data store", "store", "storage", "backend", "broker", "built with"],
        ("topic", "USES", "technology"),
    ),
    **dict.fromkeys(
        ["owner team", "owning team", "owned by team"], ("value", "OWNS", "organization")
    ),
    "team": ("topic", "PART_OF", "organization"),
    **dict.fromkeys(
        ["calls", "downstream", "consumers", "upstream"], ("topic", "INTEGRATES_WITH", "component")
    ),
}
HUMAN_VERBS = set(
    """say ask want think feel tell mentor agree decide suggest prefer like love hate enjoy
    live marry report lead manage write join leave plan spend visit meet mention promise
    hope know speak travel move grow study graduate adopt quit retire sign approve review
    own maintain propose volunteer insist complain explain recommend confirm note reply
    pair present hire interview attend""".split()
)
HUMAN_OBJECT_VERBS = set(
    """mentor ask cc ping tell thank meet call hire email message invite remind congratulate
    introduce pair onboard""".split()
)
PARTICLES = {"back", "up", "down", "out", "over", "away", "off", "home", "along"}
WORKPLACE_NOUNS = {"team", "job", "office", "company", "employer", "role", "position"}
DEPLOY_VERBS = {"deploy", "ship", "release", "install", "provision"}
MOVE_VERBS = {"migrate", "move", "switch", "port", "rewrite", "shift"}
TECH_OBJECT_VERBS = set(
    """use adopt install configure deploy upgrade downgrade integrate wrap evaluate benchmark
    replace drop deprecate migrate""".split()
)
TECH_PREP_VERBS = set(
    """use build write run host deploy migrate switch move integrate replace port rewrite
    depend rely store log track validate cache queue publish train serve""".split()
)
# Words that say someone is employed where "at" / "for" attaches: "a job at X", "led
# engineering at X", "an internship with X".
EMPLOYED_WORDS = set(
    """job role position internship offer gig career engineering team lead manage head
    run employ hire contract shift""".split()
)
WORK_AT_VERBS = {"work", "intern", "teach", "coach", "volunteer", "start", "study"}
WORK_VERBS = set("read reread finish watch rewatch binge recommend".split())
PLACE_OBJECT_VERBS = set("visit see explore tour hike climb".split())
# What one does at an event, not at a company or a place: "speaking at BSides Tel Aviv",
# "a talk at PyData Berlin", "our booth at Slush".
EVENT_AT_WORDS = set(
    """speak present keynote pitch exhibit demo talk panel booth stand poster presentation
    speech""".split()
)
# Where a company's people work: "Mango's head office", "Stripe's Dublin office".
COMPANY_SITES = set(
    """office hq headquarters branch factory plant warehouse depot campus""".split()
)


def known_place(name: str) -> bool:
    """Whether a name is a place the lists know ("Lisbon", "Hilo"): where someone or
    something is, not an organisation or a band."""
    lowered = name.casefold()
    return lowered in lexicon.PLACES or bool(lexicon.GEO_NAMES.kind(lowered))


# The places a business keeps besides its offices: "has two shops in Kraków".
SHOP_SITES = set("store shop studio outlet site location clinic restaurant lab".split())
# A club's or a company's own sides and units: "plays for Mumbai City FC's reserve side",
# "joined Ajax's academy", "Spotify's data team" stand for the club or the company.
CLUB_SIDES = set("side reserves academy squad youth".split())
# What one goes out for, at a place: "dinner at Padella", "drinks at Zuma", "staying at
# the Transcorp Hilton".
OUTING_WORDS = set(
    """dinner lunch brunch breakfast supper drinks drink coffee party reception ceremony gig
    concert picnic dine eat stay""".split()
)
ORG_NOUNS = set(
    """company startup firm employer business bakery restaurant cafe shop store agency
    studio bank school university college lab nonprofit charity club band brand vendor
    supplier client customer team org organization organisation collective cooperative
    co-op coop consultancy foundation association society institute publisher manufacturer
    retailer airline guild federation consortium insurer lender distributor
    nonprofit ngo""".split()
)
# The nouns of ``ORG_NOUNS`` that name an organization whatever the name after them: not a
# lab, a brand, a restaurant, a shop or a band, which may be a dog, a product, a place or a
# group of friends to the writers ("our lab Pudding", "the brand Humo de Mar").
STATED_ORG_NOUNS = ORG_NOUNS - set(
    """business bakery restaurant cafe shop store studio bank school university college lab
    club band brand vendor supplier client customer team""".split()
)
PLACE_NOUNS = set(
    """city town village country region state province island neighbourhood neighborhood
    district capital suburb mountain mountains lake river park beach coast""".split()
)
PLACE_VERBS = set(
    """move live fly travel go visit base stay drive relocate head return arrive land
    headquarter locate
    settle grow moving trip hike hiking ski skiing spend camp vacation holiday honeymoon
    explore tour backpack cruise""".split()
)
MEET_VERBS = set("meet speak talk pair chat sync meeting call work spoke catch".split())
HUMAN_AGENT_VERBS = set(
    "lead roll review approve write own manage fix found author sign maintain run".split()
)


# Role nouns that name who owns, leads, wrote or reviewed a thing: "the owner of X is Y".
ROLE_OWNERS = {
    **dict.fromkeys(
        "owner owners maintainer maintainers dri oncall on-call steward custodian".split(), "OWNS"
    ),
    **dict.fromkeys("lead leads head manager pm sponsor".split(), "LEADS"),
    **dict.fromkeys("author authors creator creators writer".split(), "CREATED"),
    **dict.fromkeys("reviewer reviewers approver approvers".split(), "REVIEWED"),
}

PLACED_KINDS = {"component", "organization", "project", "technology", "event"}


def field_key(raw: str) -> str:
    """The key of a "Key: value" line as ``FIELDS`` knows it: the key itself, else its last
    word or two when those are a known key ("Main tools" → "tools", "Primary stack" →
    "stack", "Home city" → "city", "Product owner" → "owner")."""
    key = raw.strip().casefold()
    if key in FIELDS:
        return key
    words = key.split()
    if 1 < len(words) <= 3:
        for tail in (" ".join(words[-2:]), words[-1]):
            if tail in FIELDS and tail != key:
                return tail
        if words[0] in FAVOURITE and words[0] in FIELDS:
            return words[0]  # "Favourite app: Strava", "fave band: Radiohead"
    return key


def person_noun(token) -> bool:
    """A noun for a person by their work: a known role ("engineer", "nurse") or an English
    agent noun ("underwriter", "conservator", "machinist", "librarian")."""
    word = token.lower_
    if word in ROLE_WORK:
        return True
    return token.tag_ in {"NN", "NNP"} and agent_noun(word)


def agent_noun(word: str) -> bool:
    """An English noun for one who does ("underwriter", "conservator", "machinist")."""
    return (
        word.endswith(("er", "or", "ist", "ian"))
        and len(word) > 5
        and english_word(word)
        and word not in NOT_AGENT_NOUNS
    )


# Nouns that end like an agent's and name a thing, or no one's work: "a Docker
# container", "the error", "the user" (a role of ``ROLE_WORK`` is read before them).
NOT_AGENT_NOUNS = set(
    """container error order number letter center centre computer server router cluster
    folder filter layer trigger buffer header footer paper chapter quarter matter water
    sector factor motor color colour floor door mirror vendor monitor interior exterior
    parameter register browser scheduler compiler adapter worker controller handler
    provider connector listener tracker helper wrapper logger parser loader player
    counter timer marker poster theater theatre meter winter summer dinner super power
    tower user customer""".split()
)


# Verbs that refuse what their clause says: "refuses to use WhatsApp" is no use of it;
# refusing to use, eat or wear a thing is disliking it.
REFUSING_VERBS = frozenset({"refuse", "decline"})
REFUSED_USES = frozenset({"use", "eat", "drink", "touch", "try", "install", "wear"})
