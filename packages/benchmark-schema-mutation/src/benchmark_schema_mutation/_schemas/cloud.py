"""Cloud infrastructure: object storage, DNS records, secrets, virtual machines, monitoring alerts.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project. The schemas added for the full split say
which public API's shape and migrations they follow."""

from __future__ import annotations

from .build import (
    boolean,
    enum,
    integer,
    mapped,
    multi_select,
    one_item_list,
    owner,
    quoted,
    said,
    scaled,
    scaled_to,
    split_as,
    string,
    together,
    unit_object,
    verbatim,
    wrap_text,
)
from .types import (
    OFFSET_TO_PAGE,
    PAGE_TO_CURSOR,
    PAGE_TO_OFFSET,
    Alternatives,
    Authored,
    BaseSchema,
    Deprecation,
    Endpoint,
    EnumChange,
    Extended,
    NewRequired,
    NoCall,
    Pagination,
    Rename,
    Scope,
    Split,
    TypeChange,
)

#: Shaped like S3's CreateBucket and Google Cloud Storage buckets (region, storage class, access).
STORAGE = BaseSchema(
    id="storage",
    title="Object storage",
    tool="storage.create_bucket",
    description="Create a storage bucket.",
    version="1.9.0",
    properties={
        "name": string("Bucket name: lowercase letters, digits and dashes.", pattern=r"^[a-z0-9][a-z0-9-]{2,62}$"),
        "region": string("Data centre region, for example eu-west-1."),
        "storage_class": enum(["standard", "infrequent", "archive"], "How often objects are expected to be read."),
        "access": enum(["public", "private"], "Whether objects can be read without credentials."),
        "quota": {"type": "number", "minimum": 0, "description": "Maximum size of the bucket in gigabytes."},
        "versioning": {"type": "boolean", "description": "Keep every version of every object."},
    },
    required=("name", "region", "storage_class", "access", "quota"),
    pools=(
        verbatim("name", ["invoices-2026", "media-uploads", "nightly-backups", "press-kit"]),
        verbatim("region", ["eu-west-1", "us-east-2", "ap-southeast-1"]),
        said(
            "storage_class",
            [("standard", "read all the time"), ("infrequent", "read now and then"), ("archive", "almost never read")],
        ),
        said(
            "access",
            [("public", "anyone may read the files"), ("private", "only signed requests may read the files")],
        ),
        said("quota", [(2, "2 GB"), (0.5, "half a gigabyte"), (10, "10 GB"), (1.5, "1.5 GB")]),
    ),
    template="Create a bucket named {name} in {region} for files that are {storage_class}; {access}. "
    "Cap its size at {quota}.",
    rename=Rename("region", ("location", "placement")),
    new_required=NewRequired(
        "retention_days",
        {"type": "integer", "minimum": 0, "description": "Days to keep deleted objects recoverable."},
        (
            (7, "Keep deleted objects recoverable for a week."),
            (30, "Keep deleted objects recoverable for 30 days."),
            (90, "Keep deleted objects recoverable for 90 days."),
        ),
    ),
    enum_change=EnumChange("storage_class", (("standard", "hot"), ("infrequent", "cool"), ("archive", "cold"))),
    split=Split(
        "access",
        (
            ("public", "storage.create_public_bucket", "Create a bucket whose objects anyone can read."),
            ("private", "storage.create_private_bucket", "Create a bucket readable only with signed requests."),
        ),
    ),
    type_change=TypeChange(
        "quota",
        {
            "type": "integer",
            "minimum": 0,
            "description": "Maximum size of the bucket in megabytes (1 GB = 1024 MB).",
        },
        scaled(1024),
        "gigabytes -> integer megabytes",
    ),
)

STORAGE_AUTHORED = Authored(
    base=STORAGE,
    extended=Extended(
        Deprecation("storage.buckets.create"),
        Pagination(
            "storage.list_buckets",
            "List the buckets in a region.",
            "region",
            string("Data centre region, for example eu-west-1."),
            quoted("eu-west-1", "us-east-2", "ap-southeast-1"),
            "List the buckets in {region}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "jurisdiction",
            enum(["eu", "us", "ap"], "Legal jurisdiction the data stays in: the region's prefix (eu for eu-west-1)."),
            "region",
            mapped({"eu-west-1": "eu", "us-east-2": "us", "ap-southeast-1": "ap"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("name", ("bucket_name", "bucket")),
            Rename("storage_class", ("tier", "class")),
            Rename("access", ("acl", "visibility")),
            Rename("quota", ("max_size", "size_limit")),
        ),
        new_requireds=(
            NewRequired(
                "encryption",
                enum(["managed", "customer_key"], "Who holds the encryption key."),
                (("managed", "Let the provider manage the encryption key."), ("customer_key", "We bring our own key.")),
            ),
            NewRequired(
                "owner_team",
                string("Team that owns the bucket, for cost reports."),
                (("platform", "The platform team owns it."), ("marketing", "The marketing team owns it.")),
            ),
            NewRequired(
                "object_lock",
                boolean("Whether objects cannot be overwritten or deleted until their retention ends."),
                ((True, "Lock objects against overwrites."), (False, "Objects may be overwritten.")),
            ),
            NewRequired(
                "replicas",
                integer("How many copies of each object are kept.", 1),
                ((2, "Keep two copies of each object."), (3, "Keep three copies of each object.")),
            ),
        ),
        enum_changes=(
            EnumChange("storage_class", (("standard", "STANDARD"), ("infrequent", "NEARLINE"), ("archive", "ARCHIVE"))),
            EnumChange("storage_class", (("standard", "frequent"), ("infrequent", "occasional"), ("archive", "rare"))),
            EnumChange("access", (("public", "public_read"), ("private", "authenticated_only"))),
            EnumChange("access", (("public", "open"), ("private", "restricted"))),
        ),
        splits=(
            split_as(
                STORAGE,
                "storage_class",
                {
                    "standard": "storage.create_standard_bucket",
                    "infrequent": "storage.create_cool_bucket",
                    "archive": "storage.create_archive_bucket",
                },
            ),
            split_as(STORAGE, "access", {"public": "buckets.create_public", "private": "buckets.create_private"}),
            split_as(
                STORAGE,
                "storage_class",
                {"standard": "hot_buckets.create", "infrequent": "cool_buckets.create", "archive": "vaults.create"},
            ),
            split_as(
                STORAGE, "access", {"public": "storage.new_public_bucket", "private": "storage.new_private_bucket"}
            ),
        ),
        type_changes=(
            unit_object(STORAGE, "quota", "GB"),
            scaled_to(
                "quota", 1000, "Maximum size of the bucket in megabytes (1 GB = 1000 MB).", "gigabytes -> integer MB"
            ),
            multi_select(STORAGE, "access"),
            TypeChange(
                "region",
                {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Data centre regions the bucket is stored in, one per item.",
                },
                one_item_list,
                "one region -> array of regions",
            ),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the OAuth scope storage.buckets:create.",
        explanation="creating a bucket needs storage.buckets:create and the caller can only read and write objects",
        sentence="The service account I use holds only storage.objects:read and storage.objects:write.",
        scope="storage.buckets:create",
        granted=("storage.objects:read", "storage.objects:write"),
    ),
)

#: After Cloudflare's DNS records API (`POST /zones/{zone_id}/dns_records`, `proxied`, TTL in
#: seconds) and Route 53's routing policies (simple, weighted, failover).
DNS = BaseSchema(
    id="dns",
    title="DNS",
    tool="dns.create_record",
    description="Add a record to a DNS zone.",
    version="4.2.0",
    properties={
        "zone": string("The zone's domain name.", pattern=r"^[a-z0-9.-]+\.[a-z]+$"),
        "name": string("Host name inside the zone, without the zone."),
        "record_type": enum(["A", "AAAA", "CNAME"], "IPv4 address, IPv6 address, or an alias of another name."),
        "content": string("The address, or the name the alias points at."),
        "routing": enum(["simple", "weighted", "failover"], "How answers are chosen among records of the same name."),
        "proxy": enum(["proxied", "dns_only"], "Send traffic through the edge proxy, or straight to the origin."),
        "ttl": {"type": "number", "minimum": 0, "description": "Minutes resolvers may cache the answer."},
        "comment": string("Note kept with the record."),
    },
    required=("zone", "name", "record_type", "content", "routing", "proxy", "ttl"),
    pools=(
        verbatim("zone", ["fjord.example", "kite.example", "basalt.example", "meridian.example"]),
        together(
            [
                ({"name": "api", "record_type": "A", "content": "203.0.113.10"}, {"record_type": "an A record"}),
                ({"name": "www", "record_type": "CNAME", "content": "shops.edge.example"}, {"record_type": "a CNAME"}),
                ({"name": "ipv6", "record_type": "AAAA", "content": "2001:db8::42"}, {"record_type": "an AAAA record"}),
                (
                    {"name": "status", "record_type": "CNAME", "content": "status.hosted.example"},
                    {"record_type": "a CNAME"},
                ),
            ]
        ),
        said(
            "routing",
            [
                ("simple", "with plain routing"),
                ("weighted", "with weighted routing"),
                ("failover", "as a failover record"),
            ],
        ),
        said("proxy", [("proxied", "behind the proxy"), ("dns_only", "resolving straight to the origin")]),
        said("ttl", [(5, "five minutes"), (60, "an hour"), (1.5, "90 seconds"), (30, "half an hour")]),
    ),
    template="In zone {zone}, add {record_type} for {name} pointing at {content} {routing}, {proxy}, cached for {ttl}.",
    rename=Rename("content", ("value", "target")),
    new_required=NewRequired(
        "health_check",
        string("Health check that takes the record out of answers when it fails.", pattern=r"^hc-[0-9a-f]{6}$"),
        (
            ("hc-4f2a91", "Attach health check hc-4f2a91."),
            ("hc-0b77de", "Attach health check hc-0b77de."),
            ("hc-93c1a5", "Attach health check hc-93c1a5."),
        ),
    ),
    enum_change=EnumChange(
        "routing", (("simple", "standard"), ("weighted", "weighted_round_robin"), ("failover", "active_passive"))
    ),
    split=Split(
        "proxy",
        (
            ("proxied", "dns.create_proxied_record", "Add a record whose traffic goes through the edge proxy."),
            ("dns_only", "dns.create_dns_only_record", "Add a record that resolves straight to the origin."),
        ),
    ),
    type_change=TypeChange(
        "ttl",
        integer("Whole seconds resolvers may cache the answer, for example 300."),
        scaled(60),
        "minutes -> integer seconds",
    ),
)

DNS_AUTHORED = Authored(
    base=DNS,
    extended=Extended(
        Deprecation("dns.records.create"),
        Pagination(
            "dns.list_records",
            "List the records of a zone, by name.",
            "zone",
            string("The zone's domain name."),
            (
                ("fjord.example", "fjord.example"),
                ("kite.example", "kite.example"),
                ("basalt.example", "basalt.example"),
            ),
            "List the DNS records of {zone}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "oauth_scope",
            enum(
                ["zone.proxy:edit", "zone.dns:edit"],
                "OAuth scope the call acts under: zone.proxy:edit for a proxied record, zone.dns:edit for a "
                "record that resolves straight to the origin.",
            ),
            "proxy",
            mapped({"proxied": "zone.proxy:edit", "dns_only": "zone.dns:edit"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("zone", ("zone_name", "domain")),
            Rename("name", ("hostname", "record_name")),
            Rename("routing", ("routing_policy", "policy")),
            Rename("ttl", ("ttl_minutes", "cache_for")),
        ),
        new_requireds=(
            NewRequired(
                "owner_team",
                string("Team answerable for the record."),
                (("netops", "The netops team owns it."), ("web-platform", "The web-platform team owns it.")),
            ),
            NewRequired(
                "weight",
                integer("Share of answers this record gets among records of the same name, 0 to 255."),
                ((10, "Give it weight 10."), (200, "Give it weight 200.")),
            ),
            NewRequired(
                "locked",
                boolean("Refuse later edits until the record is unlocked."),
                ((True, "Lock it against edits."), (False, "Leave it editable.")),
            ),
            NewRequired(
                "environment",
                enum(["prod", "staging"], "Environment the record serves."),
                (("prod", "It serves production."), ("staging", "It serves staging.")),
            ),
        ),
        enum_changes=(
            EnumChange("routing", (("simple", "SIMPLE"), ("weighted", "WEIGHTED"), ("failover", "FAILOVER"))),
            EnumChange("routing", (("simple", "basic"), ("weighted", "split"), ("failover", "backup"))),
            EnumChange("proxy", (("proxied", "on"), ("dns_only", "off"))),
            EnumChange("record_type", (("A", "ipv4"), ("AAAA", "ipv6"), ("CNAME", "alias"))),
        ),
        splits=(
            split_as(DNS, "proxy", {"proxied": "proxied_records.create", "dns_only": "direct_records.create"}),
            split_as(
                DNS,
                "record_type",
                {"A": "dns.create_a_record", "AAAA": "dns.create_aaaa_record", "CNAME": "dns.create_cname_record"},
            ),
            split_as(
                DNS,
                "routing",
                {
                    "simple": "dns.create_simple_record",
                    "weighted": "dns.create_weighted_record",
                    "failover": "dns.create_failover_record",
                },
            ),
            split_as(
                DNS,
                "record_type",
                {"A": "a_records.create", "AAAA": "aaaa_records.create", "CNAME": "cname_records.create"},
            ),
        ),
        type_changes=(
            multi_select(DNS, "routing"),
            unit_object(DNS, "ttl", "min"),
            wrap_text(DNS, "content", "data"),
            scaled_to("ttl", 60_000, "Whole milliseconds resolvers may cache the answer.", "minutes -> integer ms"),
        ),
    ),
    no_call=NoCall(
        "removed",
        notice="dns.create_record was removed in 5.0.0 with no replacement: records are now added only by "
        "importing a zone file in the dashboard.",
        explanation="the tool that added records was removed with no successor",
        remaining=(
            Endpoint(
                "dns.get_record",
                "Read one record of a zone.",
                {"zone": string("The zone's domain name."), "record_id": string("The record to read.")},
                ("zone", "record_id"),
            ),
            Endpoint(
                "dns.delete_record",
                "Delete one record of a zone.",
                {"zone": string("The zone's domain name."), "record_id": string("The record to delete.")},
                ("zone", "record_id"),
            ),
        ),
    ),
)

#: After AWS Secrets Manager's CreateSecret (replica regions, KMS keys, rotation in days) and
#: Vault's KV engine (secrets under a mount path).
SECRETS = BaseSchema(
    id="secrets",
    title="Secrets manager",
    tool="secrets.create_secret",
    description="Store a new secret.",
    version="3.1.0",
    properties={
        "name": string("Path of the secret, segments separated by /.", pattern=r"^[a-z0-9/_-]+$"),
        "description": string("What the secret is for."),
        "kind": enum(["api_key", "password", "certificate"], "What sort of credential the secret holds."),
        "replication": enum(["single_region", "multi_region"], "Keep the secret in one region, or in all of them."),
        "rotation": {"type": "number", "minimum": 0, "description": "Days between automatic rotations."},
        "owner": string("Team that owns the secret."),
    },
    required=("name", "kind", "replication", "rotation"),
    pools=(
        together(
            [
                ({"name": "payments/stripe-api-key", "kind": "api_key"}, {"kind": "an API key"}),
                ({"name": "db/orders-primary", "kind": "password"}, {"kind": "a database password"}),
                ({"name": "edge/wildcard-tls", "kind": "certificate"}, {"kind": "a TLS certificate"}),
                ({"name": "crm/sync-token", "kind": "api_key"}, {"kind": "an API key"}),
            ]
        ),
        verbatim(
            "description", ["Used by the nightly sync", "Primary credential", "Shared with the edge", "Batch jobs"]
        ),
        said(
            "replication",
            [("single_region", "kept in one region"), ("multi_region", "replicated to every region")],
        ),
        said("rotation", [(30, "30 days"), (90, "90 days"), (7, "a week"), (0.5, "twelve hours")]),
        verbatim("owner", ["platform", "payments-team", "data-eng"]),
    ),
    template='Store {kind} as secret {name} ("{description}"), {replication}, owned by {owner}. Rotate it every '
    "{rotation}.",
    rename=Rename("name", ("secret_id", "path")),
    new_required=NewRequired(
        "kms_key",
        string("Alias of the KMS key that encrypts the secret.", pattern=r"^alias/[a-z0-9-]+$"),
        (
            ("alias/payments", "Encrypt it with the KMS key alias/payments."),
            ("alias/shared-infra", "Encrypt it with the KMS key alias/shared-infra."),
            ("alias/data-lake", "Encrypt it with the KMS key alias/data-lake."),
        ),
    ),
    enum_change=EnumChange(
        "kind", (("api_key", "token"), ("password", "credential"), ("certificate", "tls_certificate"))
    ),
    split=Split(
        "replication",
        (
            ("single_region", "secrets.create_regional", "Store a secret in one region."),
            ("multi_region", "secrets.create_replicated", "Store a secret replicated to every region."),
        ),
    ),
    type_change=TypeChange(
        "rotation",
        integer("Whole hours between automatic rotations, for example 720."),
        scaled(24),
        "days -> integer hours",
    ),
)

SECRETS_AUTHORED = Authored(
    base=SECRETS,
    extended=Extended(
        Deprecation("secrets.put"),
        Pagination(
            "secrets.list",
            "List the secrets a team owns, by name.",
            "owner",
            string("Team whose secrets are listed."),
            (("platform", "platform"), ("payments-team", "payments-team"), ("data-eng", "data-eng")),
            "List the secrets owned by {owner}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "mount",
            string("Secrets engine mount the secret lives under: the first segment of its name (db for db/orders)."),
            "name",
            owner,
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("description", ("summary", "note")),
            Rename("kind", ("secret_type", "type")),
            Rename("replication", ("replica_mode", "regions")),
            Rename("rotation", ("rotation_days", "rotate_every")),
        ),
        new_requireds=(
            NewRequired(
                "max_versions",
                integer("How many old versions are kept.", 1),
                ((5, "Keep 5 old versions."), (20, "Keep 20 old versions.")),
            ),
            NewRequired(
                "deletion_protection",
                boolean("Refuse deletion until protection is turned off."),
                ((True, "Protect it from deletion."), (False, "Allow it to be deleted.")),
            ),
            NewRequired(
                "classification",
                enum(["internal", "confidential", "restricted"], "How sensitive the secret is."),
                (("restricted", "Classify it as restricted."), ("confidential", "Classify it as confidential.")),
            ),
            NewRequired(
                "ticket",
                string("Change ticket that approved the secret.", pattern=r"^CHG-\d+$"),
                (("CHG-5521", "It was approved in CHG-5521."), ("CHG-8032", "It was approved in CHG-8032.")),
            ),
        ),
        enum_changes=(
            EnumChange("kind", (("api_key", "API_KEY"), ("password", "PASSWORD"), ("certificate", "CERTIFICATE"))),
            EnumChange("kind", (("api_key", "apikey"), ("password", "secret_password"), ("certificate", "x509"))),
            EnumChange("replication", (("single_region", "regional"), ("multi_region", "global"))),
            EnumChange("replication", (("single_region", "one"), ("multi_region", "all"))),
        ),
        splits=(
            split_as(
                SECRETS,
                "replication",
                {"single_region": "regional_secrets.create", "multi_region": "global_secrets.create"},
            ),
            split_as(
                SECRETS,
                "kind",
                {
                    "api_key": "secrets.create_api_key",
                    "password": "secrets.create_password",
                    "certificate": "secrets.create_certificate",
                },
            ),
            split_as(
                SECRETS, "replication", {"single_region": "secrets.store_local", "multi_region": "secrets.store_global"}
            ),
            split_as(
                SECRETS,
                "kind",
                {"api_key": "api_keys.store", "password": "passwords.store", "certificate": "certificates.store"},
            ),
        ),
        type_changes=(
            multi_select(SECRETS, "kind"),
            unit_object(SECRETS, "rotation", "days"),
            wrap_text(SECRETS, "description", "text"),
            scaled_to("rotation", 1440, "Whole minutes between automatic rotations.", "days -> integer minutes"),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the IAM permission secretsmanager:CreateSecret.",
        explanation="storing a secret needs secretsmanager:CreateSecret and the caller may only read and list",
        sentence="The role I am calling with is allowed secretsmanager:GetSecretValue and "
        "secretsmanager:ListSecrets only.",
        scope="secretsmanager:CreateSecret",
        granted=("secretsmanager:GetSecretValue", "secretsmanager:ListSecrets"),
    ),
)

#: After DigitalOcean's droplets API (size slugs such as s-1vcpu-2gb, region slugs) and EC2's
#: RunInstances (spot or on-demand market options).
VMS = BaseSchema(
    id="vms",
    title="Virtual machines",
    tool="compute.create_instance",
    description="Start a virtual machine.",
    version="2.9.0",
    properties={
        "name": string("Host name of the machine.", pattern=r"^[a-z0-9-]+$"),
        "region": string("Data centre slug, for example ams3."),
        "image": string("Operating system image slug."),
        "size": enum(
            ["small", "medium", "large"],
            "Machine size: small is 1 vCPU and 2 GB of memory, medium 2 vCPUs and 4 GB, large 4 vCPUs and 8 GB.",
        ),
        "pricing": enum(["on_demand", "spot"], "Pay the fixed price, or bid for spare capacity that may be reclaimed."),
        "disk": {"type": "number", "minimum": 0, "description": "Boot disk size in GB."},
    },
    required=("name", "region", "image", "size", "pricing", "disk"),
    pools=(
        verbatim("name", ["web-01", "batch-worker-3", "ci-runner-a", "analytics-db"]),
        verbatim("region", ["ams3", "nyc1", "sgp1", "fra1"]),
        verbatim("image", ["ubuntu-24-04-x64", "debian-12-x64", "rockylinux-9-x64"]),
        said("size", [("small", "a small machine"), ("medium", "a medium machine"), ("large", "a large machine")]),
        said(
            "pricing",
            [("on_demand", "at the on-demand price"), ("spot", "as a spot instance that may be reclaimed")],
        ),
        said("disk", [(25, "25 GB"), (80, "80 GB"), (160, "160 GB"), (12.5, "12.5 GB")]),
    ),
    template="Create {size} named {name} in {region} from the {image} image, {pricing}, with a {disk} disk.",
    rename=Rename("image", ("image_slug", "os_image")),
    new_required=NewRequired(
        "ssh_key",
        string("Id of the SSH key installed for the root user.", pattern=r"^key-\d+$"),
        (
            ("key-48213", "Install SSH key key-48213."),
            ("key-10077", "Install SSH key key-10077."),
            ("key-93150", "Install SSH key key-93150."),
        ),
    ),
    enum_change=EnumChange("size", (("small", "s-1vcpu-2gb"), ("medium", "s-2vcpu-4gb"), ("large", "s-4vcpu-8gb"))),
    split=Split(
        "pricing",
        (
            ("on_demand", "compute.create_on_demand", "Start a machine at the fixed on-demand price."),
            ("spot", "compute.request_spot", "Start a machine on spare capacity that may be reclaimed."),
        ),
    ),
    type_change=TypeChange(
        "disk",
        integer("Boot disk size in whole MB (1 GB = 1000 MB)."),
        scaled(1000),
        "GB -> integer MB",
    ),
)

VMS_AUTHORED = Authored(
    base=VMS,
    extended=Extended(
        Deprecation("compute.instances.create"),
        Pagination(
            "compute.list_instances",
            "List the machines in a data centre.",
            "region",
            string("Data centre slug, for example ams3."),
            (("ams3", "ams3"), ("nyc1", "nyc1"), ("sgp1", "sgp1")),
            "List the virtual machines in {region}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "geo",
            enum(
                ["eu", "us", "ap"], "Legal region the machine runs in: eu for ams3 and fra1, us for nyc1, ap for sgp1."
            ),
            "region",
            mapped({"ams3": "eu", "fra1": "eu", "nyc1": "us", "sgp1": "ap"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("name", ("hostname", "instance_name")),
            Rename("region", ("location", "zone")),
            Rename("size", ("instance_type", "plan")),
            Rename("disk", ("disk_gb", "volume_size")),
        ),
        new_requireds=(
            NewRequired(
                "backups",
                boolean("Take a weekly backup of the machine."),
                ((True, "Turn on weekly backups."), (False, "No backups.")),
            ),
            NewRequired(
                "vpc",
                string("Private network the machine joins.", pattern=r"^vpc-[a-z0-9]+$"),
                (("vpc-core", "Put it in the vpc-core network."), ("vpc-edge", "Put it in the vpc-edge network.")),
            ),
            NewRequired(
                "monitoring",
                enum(["basic", "detailed"], "How finely the machine's metrics are collected."),
                (("detailed", "Collect detailed metrics."), ("basic", "Basic metrics are enough.")),
            ),
            NewRequired(
                "count",
                integer("How many identical machines to start.", 1),
                ((1, "Start just one."), (3, "Start three of them.")),
            ),
        ),
        enum_changes=(
            EnumChange("size", (("small", "SMALL"), ("medium", "MEDIUM"), ("large", "LARGE"))),
            EnumChange("size", (("small", "s"), ("medium", "m"), ("large", "l"))),
            EnumChange("pricing", (("on_demand", "standard"), ("spot", "preemptible"))),
            EnumChange("pricing", (("on_demand", "regular"), ("spot", "interruptible"))),
        ),
        splits=(
            split_as(VMS, "pricing", {"on_demand": "on_demand_instances.create", "spot": "spot_instances.request"}),
            split_as(
                VMS,
                "size",
                {"small": "compute.create_small", "medium": "compute.create_medium", "large": "compute.create_large"},
            ),
            split_as(VMS, "pricing", {"on_demand": "compute.launch", "spot": "compute.launch_spot"}),
            split_as(
                VMS,
                "size",
                {
                    "small": "small_instances.create",
                    "medium": "medium_instances.create",
                    "large": "large_instances.create",
                },
            ),
        ),
        type_changes=(
            multi_select(VMS, "size"),
            unit_object(VMS, "disk", "GB"),
            wrap_text(VMS, "image", "slug"),
            scaled_to(
                "disk", 1_000_000_000, "Boot disk size in whole bytes (1 GB = 1000000000 bytes).", "GB -> integer bytes"
            ),
        ),
    ),
    no_call=NoCall(
        "missingRequired",
        notice="Every machine is billed to a project its owner names.",
        explanation="billing_project is now required, has no default, and the request does not say which project pays",
        field="billing_project",
        schema=string(
            "Project the machine is billed to, for example proj-7f3a. There is no default project.",
            pattern=r"^proj-[0-9a-f]{4}$",
        ),
    ),
)

#: After Datadog's monitors API (a metric query, thresholds, renotification) and PagerDuty's
#: urgency levels for paging.
ALERTS = BaseSchema(
    id="alerts",
    title="Monitoring alerts",
    tool="alerts.create_monitor",
    description="Create a monitor that alerts when a metric crosses a threshold.",
    version="1.12.0",
    properties={
        "name": string("Name shown in the alert."),
        "query": string("Metric query the monitor evaluates."),
        "threshold": {"type": "number", "description": "Alert when the query stays above this value."},
        "severity": enum(["info", "warning", "critical"], "How urgent an alert is, from least to most."),
        "route": enum(["email", "pager"], "Send alerts by email, or page whoever is on call."),
        "window": {"type": "number", "minimum": 0, "description": "Minutes the value must stay above the threshold."},
        "runbook_url": string("Page that says what to do when the monitor alerts."),
    },
    required=("name", "query", "threshold", "severity", "route", "window"),
    pools=(
        together(
            [
                ({"name": "API error rate high", "query": "sum:http.errors{service:api}.as_rate()"}, {}),
                ({"name": "Checkout latency p95", "query": "p95:checkout.latency{env:prod}"}, {}),
                ({"name": "Disk almost full", "query": "max:system.disk.in_use{role:db}"}, {}),
                ({"name": "Queue backlog growing", "query": "avg:queue.depth{queue:emails}"}, {}),
            ]
        ),
        said("threshold", [(0.05, "0.05"), (250, "250"), (0.9, "0.9"), (1000, "1000")]),
        said("severity", [("info", "as information only"), ("warning", "as a warning"), ("critical", "as critical")]),
        said("route", [("email", "by email"), ("pager", "by paging whoever is on call")]),
        said("window", [(5, "five minutes"), (15, "15 minutes"), (2.5, "two and a half minutes"), (60, "an hour")]),
    ),
    template='Create a monitor "{name}" on {query} that alerts {route} when it stays above {threshold} for {window}, '
    "{severity}.",
    rename=Rename("query", ("metric_query", "expression")),
    new_required=NewRequired(
        "team",
        string("Team the alerts belong to."),
        (
            ("payments", "It belongs to the payments team."),
            ("storefront", "It belongs to the storefront team."),
            ("sre", "It belongs to the SRE team (sre)."),
        ),
    ),
    enum_change=EnumChange("severity", (("info", "low"), ("warning", "medium"), ("critical", "high"))),
    split=Split(
        "route",
        (
            ("email", "alerts.create_email_monitor", "Create a monitor whose alerts are emailed."),
            ("pager", "alerts.create_paging_monitor", "Create a monitor whose alerts page whoever is on call."),
        ),
    ),
    type_change=TypeChange(
        "window",
        integer("Whole seconds the value must stay above the threshold, for example 300."),
        scaled(60),
        "minutes -> integer seconds",
    ),
)

ALERTS_AUTHORED = Authored(
    base=ALERTS,
    extended=Extended(
        Deprecation("alerts.monitors.create"),
        Pagination(
            "alerts.list_monitors",
            "List the monitors of one severity.",
            "severity",
            enum(["info", "warning", "critical"], "Severity to list."),
            (("critical", "critical"), ("warning", "warning"), ("info", "informational")),
            "List the {severity} monitors: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "oauth_scope",
            enum(
                ["monitors.email:write", "monitors.paging:write"],
                "OAuth scope the call acts under: monitors.email:write for a monitor that emails, "
                "monitors.paging:write for one that pages.",
            ),
            "route",
            mapped({"email": "monitors.email:write", "pager": "monitors.paging:write"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("name", ("title", "monitor_name")),
            Rename("threshold", ("critical_threshold", "limit")),
            Rename("severity", ("priority", "level")),
            Rename("window", ("evaluation_window", "for_minutes")),
        ),
        new_requireds=(
            NewRequired(
                "notify_no_data",
                boolean("Also alert when the metric stops reporting."),
                ((True, "Alert too if the metric stops reporting."), (False, "Stay quiet if data stops.")),
            ),
            NewRequired(
                "service",
                string("Service the monitor watches."),
                (("checkout", "It watches the checkout service."), ("search", "It watches the search service.")),
            ),
            NewRequired(
                "renotify_minutes",
                integer("Minutes between repeated alerts while the problem lasts."),
                ((30, "Repeat the alert every 30 minutes."), (120, "Repeat the alert every 120 minutes.")),
            ),
            NewRequired(
                "env",
                enum(["prod", "staging"], "Environment the monitor covers."),
                (("prod", "It covers production."), ("staging", "It covers staging.")),
            ),
        ),
        enum_changes=(
            EnumChange("severity", (("info", "INFO"), ("warning", "WARNING"), ("critical", "CRITICAL"))),
            EnumChange("severity", (("info", "informational"), ("warning", "degraded"), ("critical", "outage"))),
            EnumChange("route", (("email", "mail"), ("pager", "oncall"))),
            EnumChange("route", (("email", "EMAIL"), ("pager", "PAGE"))),
        ),
        splits=(
            split_as(
                ALERTS,
                "severity",
                {
                    "info": "alerts.create_info_monitor",
                    "warning": "alerts.create_warning_monitor",
                    "critical": "alerts.create_critical_monitor",
                },
            ),
            split_as(ALERTS, "route", {"email": "email_monitors.create", "pager": "paging_monitors.create"}),
            split_as(
                ALERTS,
                "severity",
                {
                    "info": "info_monitors.create",
                    "warning": "warning_monitors.create",
                    "critical": "critical_monitors.create",
                },
            ),
            split_as(ALERTS, "route", {"email": "alerts.watch_by_email", "pager": "alerts.watch_and_page"}),
        ),
        type_changes=(
            multi_select(ALERTS, "severity"),
            unit_object(ALERTS, "window", "min"),
            wrap_text(ALERTS, "query", "q"),
            scaled_to("window", 60_000, "Whole milliseconds the value must stay above the threshold.", "minutes -> ms"),
        ),
    ),
    no_call=NoCall(
        "removed",
        notice="alerts.create_monitor was removed in 2.0.0 with no replacement: monitors are now defined only in "
        "configuration files that the deploy pipeline applies.",
        explanation="the tool that created monitors was removed with no successor",
        remaining=(
            Endpoint(
                "alerts.get_monitor",
                "Read one monitor.",
                {"monitor_id": integer("The monitor to read.", 1)},
                ("monitor_id",),
            ),
            Endpoint(
                "alerts.mute_monitor",
                "Silence a monitor for a while.",
                {"monitor_id": integer("The monitor to mute.", 1), "minutes": integer("How long to mute it.", 1)},
                ("monitor_id", "minutes"),
            ),
        ),
    ),
)
