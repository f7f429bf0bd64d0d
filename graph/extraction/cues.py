"""Cue words that type a name by the noun it ends in or stands beside ("Acme Corp" an
organization, "billing service" a component), shared by the extractors."""

ORG_WORDS = {
    "inc",
    "corp",
    "corporation",
    "ltd",
    "llc",
    "gmbh",
    "labs",
    "foundation",
    "university",
    "bank",
    "group",
    "company",
    "agency",
    "institute",
    "team",
    "department",
    "partners",
    "lab",
    "studio",
    "studios",
    "school",
    "college",
    "academy",
    "hospital",
    "clinic",
    "association",
    "society",
    "council",
    "ministry",
    "bakery",
    "restaurant",
    "cafe",
    "startup",
    # Businesses named by their trade ("Kahurangi Farm", "Taverna Eleni", "Café Sonoro").
    "farm",
    "farms",
    "dairy",
    "taverna",
    "trattoria",
    "bistro",
    "brasserie",
    "café",
    "pizzeria",
    "brewery",
    "winery",
    "distillery",
    "co-op",
    "cooperative",
    "collective",
    "fc",
    "salon",
    "pharmacy",
    "publishing",
    "holdings",
    "ventures",
    "consulting",
    "logistics",
    "airlines",
    "airways",
    "federation",
    "league",
    "consortium",
    "alliance",
    "coalition",
    "syndicate",
    # Trades named by what they sell or do ("Lal Qila Caterers", "Bintang Teknik", "Deccan
    # Civil Works", "Techiman Veterinary Services", "Mutua Motors").
    "caterers",
    "catering",
    "couture",
    "tailors",
    "traders",
    "trading",
    "enterprises",
    "motors",
    "textiles",
    "builders",
    "contractors",
    "supplies",
    "services",
    "solutions",
    "technologies",
    "industries",
    "exports",
    "mills",
    "electricals",
    "teknik",
    "municipality",
    "kommune",
    "kommun",
    "gemeente",
    "gemeinde",
}
# Words that open an organisation's name in the languages a memory meets most ("Banco
# Pichincha", "Cooperativa Cabruca", "Fundación Sertull", "Yayasan Cinta Anak Bangsa",
# "Editorial Anagrama"): the cue word comes first there, not last as in English.
ORG_OPENERS = set(
    """banco banca banque municipio municipalidad prefeitura ayuntamiento comune mairie
    cooperativa coöperatie cooperative coop kooperativ fundación
    fundação fondazione fondation stiftung stichting asociación associação associazione
    verein vereniging sociedad sociedade società société compañía companhia compagnie grupo
    gruppo groupe instituto istituto institut universidad universidade università université
    universität universiteit universitas colegio colégio escola escuela école liceo lycée
    clínica clinique klinik hôpital ospedale editorial editora edizioni éditions discos
    laboratorio laboratório laboratoire cervecería panadería padaria pastelería librería
    livraria farmacia farmácia pharmacie agencia agência agence koperasi yayasan
    perusahaan toko warung deportivo atlético sporting unión união federación federação
    fédération confederación chama shirika fundacja stowarzyszenie spółdzielnia nadace
    spolek družstvo zadruga udruga vinařství vinárstvo""".split()
)
# Last words of an organisation's name abroad: company forms ("Equinor ASA", "Volvo Cars
# AB", "Simba SC") — read only when written in capitals — and club, society and company
# words ("Ziraat Bankası", "Tromsø Turnforening").
ORG_FORMS = set(
    """ag kg sa sarl srl spa bv nv as asa ab oy oyj aps hf ehf plc pty pte sdn bhd tbk kk ltda
    sas sc afc cf sk ik if bk fk""".split()
)
ORG_ENDINGS = set(
    """verein gesellschaft stiftung verband genossenschaft forening förening forbund förbund
    klubb klub selskab selskap bankası holding şirketi derneği vakfı üniversitesi kulübü
    samiti sangh nigam udyog bhandar kaisha shokai koperasi kooperativ kooperatief
    alapítvány egyesület szövetség teknoloji teknologi tecnologia tecnologias tecnologías
    sistemas soluciones soluções""".split()
)
# The same words closing one long word ("Hestamannafélagið", "Ruderverein", "Idrettslaget").
ORG_SUFFIXES = (
    "félag", "félagið", "verein", "förening", "forening", "foreningen", "klubben", "laget",
    "gesellschaft", "genossenschaft", "stiftung", "bankası",
)  # fmt: skip


def foreign_organization(words: list[str], written: list[str]) -> bool:
    """Whether a name's words (lower-cased; ``written`` as written) mark an organisation
    the way other languages do: an opening cue word before another capitalised word, a
    company form in capitals or a society word at its end, or a long word ending in one."""
    if not words:
        return False
    if len(words) > 1 and words[0] in ORG_OPENERS and written[1][:1].isupper():
        return True
    last, shown = words[-1].rstrip("."), written[-1].rstrip(".")
    if len(words) > 1 and last in ORG_FORMS and shown.isupper():
        return True
    if len(words) > 1 and last in ORG_ENDINGS:
        return True
    return any(w.endswith(ORG_SUFFIXES) and len(w) > 9 for w in words)


PROJECT_WORDS = {"project", "initiative", "program", "programme", "epic"}
EVENT_WORDS = {
    "meeting",
    "launch",
    "review",
    "retro",
    "retrospective",
    "sprint",
    "conference",
    "festival",
    "feria",
    "fiesta",
    "festa",
    "fête",
    "parade",
    "wedding",
    "party",
    "marathon",
    "con",
    "week",
    "day",
    "offsite",
    "incident",
    "outage",
    "release",
    "kickoff",
    "demo",
    "standup",
    "summit",
    "workshop",
    "postmortem",
    "hackathon",
    "migration",
    # Contests, shows and fairs ("Waterford Junior Camogie Championship", "Bukhara Crafts
    # Biennial", "Pécsi Jótékonysági Gála"); not "games", which names studios as often.
    "championship",
    "championships",
    "cup",
    "tournament",
    "derby",
    "regatta",
    "olympiad",
    "olympics",
    "biennial",
    "biennale",
    "triennial",
    "expo",
    "exhibition",
    "fair",
    "gala",
    "gála",
    "carnival",
    "carnaval",
    "fest",
    "awards",
    "symposium",
    "congress",  # "ESC Congress 2023", "the Nile Med Congress"
    "jamboree",
    "eisteddfod",
}
DOCUMENT_WORDS = {
    "rfc",
    "adr",
    "spec",
    "specification",
    "readme",
    "doc",
    "document",
    "report",
    "runbook",
    "handbook",
    "playbook",
    "contract",
    "proposal",
    "memo",
    "policy",
    # a publication: "ISME Journal", "Journal of Coastal Ecology", "Annals of ..."
    "journal",
    "annals",
    "proceedings",
}
COMPONENT_NOUNS = {
    "service",
    "api",
    "gateway",
    "database",
    "pipeline",
    "cluster",
    "queue",
    "worker",
    "server",
    "endpoint",
    "module",
    "library",
    "frontend",
    "backend",
    "app",
    "dashboard",
    "indexer",
    "scheduler",
    "cache",
    "store",
    "engine",
    "bot",
    "sdk",
    "cli",
    "microservice",
    "flow",
    "resizer",
    "scorer",
    "limiter",
    "builder",
    "sync",
    "log",
    "relay",
    "warehouse",
    "proxy",
    "balancer",
    "router",
    "crawler",
    "parser",
    "exporter",
    "importer",
    "monitor",
    "tracker",
    "registry",
    "portal",
    "console",
    "db",
    "repo",
    "repository",
    "topic",
    "table",
    "bucket",
    "job",
    "daemon",
    "consumer",
    "producer",
    "plugin",
    "extension",
    "replica",
    "index",
    "dag",
    "wrapper",
}
