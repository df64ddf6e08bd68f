"""Cloud operations: object storage, DNS, secrets, virtual machines, alerting.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project."""

from __future__ import annotations

from .build import (
    boolean,
    enum,
    integer,
    mapped,
    multi_select,
    one_item_list,
    quoted,
    said,
    scaled,
    scaled_to,
    split_as,
    string,
    unit_object,
    verbatim,
)
from .types import (
    OFFSET_TO_PAGE,
    Alternatives,
    Authored,
    BaseSchema,
    Deprecation,
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
