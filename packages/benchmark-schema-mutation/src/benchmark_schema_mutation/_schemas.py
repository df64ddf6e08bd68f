"""The twelve hand-authored base tool schemas, each with the five migrations the generator applies.

Every base schema describes one everyday SaaS call (an issue tracker, payments, a calendar, ...) at
its previous version, the pools a request is sampled from, and one authored migration per mutation
kind: the field to rename, the required field to add, the enum whose values are replaced, the
discriminator that splits the tool in two, and the field whose type or unit changes. The text is
original to this project.

A request is sampled as one `Option` from each pool: an option sets one or more arguments and the
phrases that say them in the request template. Phrases are written so that the same words map onto
the old value and the migrated one ("a feature request" is `feature` before and `enhancement` after
the enum change), which is what makes a stale answer a choice rather than a misreading.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from attrs import frozen
from benchmark_core import JsonObject, JsonValue


@frozen
class Option:
    """One sampled choice: the arguments it sets and the request phrases that say them."""

    arguments: JsonObject
    phrases: dict[str, str]


Pool = tuple[Option, ...]


@frozen
class Rename:
    """`field` gets a new name; the generator picks one of `new_names`."""

    field: str
    new_names: tuple[str, ...]


@frozen
class NewRequired:
    """A required field is added; each choice is its value and the sentence that asks for it."""

    field: str
    schema: JsonObject
    choices: tuple[tuple[JsonValue, str], ...]


@frozen
class EnumChange:
    """The enum values of `field` are replaced one for one: (old value, new value) pairs."""

    field: str
    mapping: tuple[tuple[str, str], ...]


@frozen
class Split:
    """The tool becomes one tool per value of the discriminator `field`: (value, tool, description)."""

    field: str
    tools: tuple[tuple[str, str, str], ...]


@frozen
class TypeChange:
    """`field` takes a new schema (another type or unit); `convert` maps an old value to the new one."""

    field: str
    schema: JsonObject
    convert: Callable[[JsonValue], JsonValue]
    change: str


@frozen
class BaseSchema:
    """A tool at its previous version, how requests for it are written, and its five migrations."""

    id: str
    title: str
    tool: str
    description: str
    version: str
    properties: JsonObject
    required: tuple[str, ...]
    pools: tuple[Pool, ...]
    template: str
    rename: Rename
    new_required: NewRequired
    enum_change: EnumChange
    split: Split
    type_change: TypeChange


def said(field: str, choices: Sequence[tuple[JsonValue, str]]) -> Pool:
    """A pool setting one field, each value with its own phrase."""
    return tuple(Option(arguments={field: value}, phrases={field: phrase}) for value, phrase in choices)


def verbatim(field: str, values: Sequence[str]) -> Pool:
    """A pool setting one string field that the request quotes as it is."""
    return said(field, [(value, value) for value in values])


def together(choices: Sequence[tuple[JsonObject, dict[str, str]]]) -> Pool:
    """A pool whose options set several related fields at once (a title and the kind it fits)."""
    return tuple(Option(arguments=dict(arguments), phrases=dict(phrases)) for arguments, phrases in choices)


def scaled(factor: int) -> Callable[[JsonValue], JsonValue]:
    """Exact decimal scaling into a smaller whole unit (dollars -> cents); the result is an int."""

    def convert(value: JsonValue) -> JsonValue:
        scaled_value = Decimal(repr(value)) * factor
        if scaled_value != scaled_value.to_integral_value():
            raise ValueError(f"{value!r} x {factor} is not a whole number")
        return int(scaled_value)

    return convert


def comma_list(value: JsonValue) -> JsonValue:
    return str(value).split(",")


def date_parts(value: JsonValue) -> JsonValue:
    year, month, day = (int(part) for part in str(value).split("-"))
    return {"year": year, "month": month, "day": day}


def one_item_list(value: JsonValue) -> JsonValue:
    return [value]


def owner_and_name(value: JsonValue) -> JsonValue:
    owner, name = str(value).split("/", 1)
    return {"owner": owner, "name": name}


def datetime_parts(value: JsonValue) -> JsonValue:
    date, time = str(value).split("T")
    return {"date": date, "time": time}


def money_parts(value: JsonValue) -> JsonValue:
    """Major units as whole units and nanos (billionths), the shape of google.type.Money."""
    amount = Decimal(repr(value))
    units = int(amount)
    return {"units": units, "nanos": int((amount - units) * 1_000_000_000)}


def decimal_string(value: JsonValue) -> JsonValue:
    return f"{Decimal(repr(value)):.2f}"


def wrapped(key: str) -> Callable[[JsonValue], JsonValue]:
    """A plain value moved into an object under `key` (`"x"` -> `{"text": "x"}`)."""

    def convert(value: JsonValue) -> JsonValue:
        return {key: value}

    return convert


def with_unit(unit: str) -> Callable[[JsonValue], JsonValue]:
    """A bare number becomes `{"value": n, "unit": unit}`."""

    def convert(value: JsonValue) -> JsonValue:
        return {"value": value, "unit": unit}

    return convert


_DATE_OBJECT: JsonObject = {
    "type": "object",
    "properties": {
        "year": {"type": "integer"},
        "month": {"type": "integer", "minimum": 1, "maximum": 12},
        "day": {"type": "integer", "minimum": 1, "maximum": 31},
    },
    "required": ["year", "month", "day"],
    "additionalProperties": False,
}


def date_object(description: str) -> JsonObject:
    """A date as separate year, month and day numbers (the shape `date_parts` converts to)."""
    return {**_DATE_OBJECT, "description": description}


def _string(description: str, **extra: Any) -> JsonObject:
    return {"type": "string", "description": description, **extra}


def _enum(values: Sequence[str], description: str) -> JsonObject:
    return {"type": "string", "enum": list(values), "description": description}


_DATE = r"^\d{4}-\d{2}-\d{2}$"
_LOCAL_TIME = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$"

ISSUES = BaseSchema(
    id="issues",
    title="Issue tracker",
    tool="issues.create",
    description="Open an issue in a repository.",
    version="3.2.0",
    properties={
        "repo": _string("Repository as owner/name.", pattern=r"^[a-z0-9-]+/[a-z0-9-]+$"),
        "title": _string("One-line summary of the issue."),
        "body": _string("Longer description, in Markdown."),
        "kind": _enum(["bug", "feature", "chore"], "What sort of work the issue tracks."),
        "visibility": _enum(["public", "team"], "Who can see the issue."),
        "labels": _string('Labels as one comma-separated string without spaces, for example "ui,docs".'),
        "assignee": _string("Username to assign; leave out to keep the issue unassigned."),
    },
    required=("repo", "title", "kind", "visibility"),
    pools=(
        verbatim("repo", ["acme/widgets", "northwind/storefront", "lumen/docs-site", "orbit/mobile-app"]),
        together(
            [
                ({"title": "Dark mode toggle resets after reload", "kind": "bug"}, {"kind": "bug report"}),
                ({"title": "CSV export drops the last row", "kind": "bug"}, {"kind": "bug report"}),
                ({"title": "Keyboard shortcut for archiving", "kind": "feature"}, {"kind": "feature request"}),
                ({"title": "Bulk edit for due dates", "kind": "feature"}, {"kind": "feature request"}),
                ({"title": "Upgrade the build image to Node 22", "kind": "chore"}, {"kind": "maintenance chore"}),
                ({"title": "Remove the unused analytics SDK", "kind": "chore"}, {"kind": "maintenance chore"}),
            ]
        ),
        said("visibility", [("public", "anyone can see"), ("team", "only the team can see")]),
        said(
            "labels",
            [
                ("ui,accessibility", "ui and accessibility"),
                ("export,data", "export and data"),
                ("search,i18n", "search and i18n"),
                ("performance", "performance"),
            ],
        ),
    ),
    template='In {repo}, open a {kind} titled "{title}" that {visibility}. Label it {labels}.',
    rename=Rename("title", ("subject", "headline")),
    new_required=NewRequired(
        "severity",
        _enum(["low", "medium", "high", "critical"], "How badly the issue hurts users."),
        (
            ("low", "It is low severity."),
            ("high", "Treat it as high severity."),
            ("critical", "Its severity is critical: customers are blocked."),
        ),
    ),
    enum_change=EnumChange("kind", (("bug", "defect"), ("feature", "enhancement"), ("chore", "task"))),
    split=Split(
        "visibility",
        (
            ("public", "issues.create_public", "Open an issue that anyone can see."),
            ("team", "issues.create_team", "Open an issue that only the repository's team can see."),
        ),
    ),
    type_change=TypeChange(
        "labels",
        {"type": "array", "items": {"type": "string"}, "description": "Labels, one per item."},
        comma_list,
        "comma-separated string -> array of strings",
    ),
)

PAYMENTS = BaseSchema(
    id="payments",
    title="Payments",
    tool="payments.create_charge",
    description="Charge a saved customer.",
    version="2.4.0",
    properties={
        "customer_id": _string("The customer to charge.", pattern=r"^cus_[A-Za-z0-9]+$"),
        "amount": {
            "type": "number",
            "minimum": 0,
            "description": "Amount in major currency units (dollars, euros, pounds), for example 12.5.",
        },
        "currency": _enum(["usd", "eur", "gbp"], "Currency code, lowercase."),
        "description": _string("Text printed on the receipt."),
        "channel": _enum(["web", "phone", "store"], "Where the customer made the purchase."),
        "capture": _enum(["immediate", "deferred"], "Capture the funds now, or only authorise them for later."),
        "metadata": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "Free-form key-value pairs kept with the charge.",
        },
    },
    required=("customer_id", "amount", "currency", "channel", "capture"),
    pools=(
        verbatim("customer_id", ["cus_8Hq2Lm", "cus_41ZpQe", "cus_Tn7Wc3", "cus_0aK9vR"]),
        together(
            [
                ({"amount": 25.5, "currency": "usd"}, {"amount": "$25.50"}),
                ({"amount": 18, "currency": "eur"}, {"amount": "€18.00"}),
                ({"amount": 149.99, "currency": "gbp"}, {"amount": "£149.99"}),
                ({"amount": 7.25, "currency": "usd"}, {"amount": "$7.25"}),
            ]
        ),
        verbatim("description", ["Annual plan renewal", "Replacement charger", "Workshop ticket", "Gift card top-up"]),
        said("channel", [("web", "on the website"), ("phone", "over the phone"), ("store", "in the shop")]),
        said(
            "capture",
            [
                ("immediate", "Capture the money right away."),
                ("deferred", "Only authorise it for now; we capture it when the order ships."),
            ],
        ),
    ),
    template='Charge customer {customer_id} {amount} for a purchase made {channel}, with "{description}" on the '
    "receipt. {capture}",
    rename=Rename("description", ("statement_text", "receipt_note")),
    new_required=NewRequired(
        "idempotency_key",
        _string("A unique key, so that a retried request never charges twice."),
        (
            ("ord-4417-a", "Use the idempotency key ord-4417-a."),
            ("inv-2093-b", "Use the idempotency key inv-2093-b."),
            ("sub-7781-c", "Use the idempotency key sub-7781-c."),
        ),
    ),
    enum_change=EnumChange("channel", (("web", "online"), ("phone", "telephone"), ("store", "in_person"))),
    split=Split(
        "capture",
        (
            ("immediate", "payments.charge_now", "Charge a saved customer and capture the funds immediately."),
            ("deferred", "payments.authorize", "Authorise a charge now and capture it later."),
        ),
    ),
    type_change=TypeChange(
        "amount",
        {
            "type": "integer",
            "minimum": 0,
            "description": "Amount in minor currency units (cents or pence), for example 1250 for 12.50.",
        },
        scaled(100),
        "major currency units -> integer minor units (dollars -> cents)",
    ),
)

CALENDAR = BaseSchema(
    id="calendar",
    title="Calendar",
    tool="calendar.create_event",
    description="Add an event to a calendar.",
    version="5.0.1",
    properties={
        "calendar_id": _string("Calendar to add the event to, usually its owner's email address."),
        "title": _string("Event name shown on the calendar."),
        "start": _string("Local start time, YYYY-MM-DDTHH:MM.", pattern=_LOCAL_TIME),
        "duration": {"type": "number", "minimum": 0, "description": "Length of the event in hours, for example 1.5."},
        "show_as": _enum(["busy", "free", "tentative"], "How the time appears to people checking availability."),
        "event_type": _enum(["meeting", "focus"], "A meeting with others, or focus time for the owner alone."),
        "location": _string("Room or video link."),
    },
    required=("calendar_id", "title", "start", "duration", "show_as", "event_type"),
    pools=(
        verbatim("calendar_id", ["priya@example.com", "ops-team@example.com", "marco@example.org"]),
        together(
            [
                ({"title": "Quarterly roadmap review", "event_type": "meeting"}, {"event_type": "a meeting"}),
                ({"title": "Vendor onboarding call", "event_type": "meeting"}, {"event_type": "a meeting"}),
                ({"title": "Design critique", "event_type": "meeting"}, {"event_type": "a meeting"}),
                ({"title": "Write the launch brief", "event_type": "focus"}, {"event_type": "a focus block"}),
                ({"title": "Pricing model deep work", "event_type": "focus"}, {"event_type": "a focus block"}),
            ]
        ),
        said(
            "start",
            [
                ("2026-03-14T09:30", "on 14 March 2026 at 09:30"),
                ("2026-05-02T14:00", "on 2 May 2026 at 14:00"),
                ("2026-11-20T16:15", "on 20 November 2026 at 16:15"),
            ],
        ),
        said(
            "duration",
            [
                (1, "one hour"),
                (1.5, "an hour and a half"),
                (0.5, "half an hour"),
                (0.75, "45 minutes"),
                (2, "two hours"),
            ],
        ),
        said(
            "show_as",
            [
                ("busy", "block the time so nobody can book over it"),
                ("free", "leave me bookable during it"),
                ("tentative", "mark it as only pencilled in"),
            ],
        ),
    ),
    template='On {calendar_id}, schedule {event_type} called "{title}" {start} for {duration}; {show_as}.',
    rename=Rename("title", ("summary", "name")),
    new_required=NewRequired(
        "timezone",
        _string("IANA time zone of the start time, for example Europe/Berlin."),
        (
            ("Europe/Berlin", "The time is Berlin time."),
            ("America/New_York", "The time is New York time."),
            ("Asia/Tokyo", "The time is Tokyo time."),
        ),
    ),
    enum_change=EnumChange("show_as", (("busy", "blocked"), ("free", "available"), ("tentative", "maybe"))),
    split=Split(
        "event_type",
        (
            ("meeting", "calendar.create_meeting", "Schedule a meeting with other people."),
            ("focus", "calendar.block_focus_time", "Reserve focus time for the calendar's owner."),
        ),
    ),
    type_change=TypeChange(
        "duration",
        {"type": "integer", "minimum": 0, "description": "Length of the event in whole minutes, for example 90."},
        scaled(60),
        "hours -> integer minutes",
    ),
)

CRM = BaseSchema(
    id="crm",
    title="CRM",
    tool="crm.create_contact",
    description="Add a person to the customer database.",
    version="4.1.0",
    properties={
        "email": _string("The contact's email address.", pattern=r"^[^@\s]+@[^@\s]+$"),
        "full_name": _string("The person's name as they write it."),
        "company": _string("Where they work."),
        "stage": _enum(["lead", "opportunity", "customer"], "Where the contact is in the sales process."),
        "owner_team": _enum(["sales", "support"], "The team that owns the relationship."),
        "score": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": "Fit score as a fraction between 0 and 1.",
        },
        "phone": _string("Phone number in international format."),
    },
    required=("email", "full_name", "stage", "owner_team"),
    pools=(
        together(
            [
                ({"full_name": "Amara Okafor", "email": "amara.okafor@example.com"}, {}),
                ({"full_name": "Jonas Lindqvist", "email": "jonas@lindqvist.example"}, {}),
                ({"full_name": "Sofía Benítez", "email": "sofia.benitez@example.org"}, {}),
                ({"full_name": "Kenji Watanabe", "email": "k.watanabe@example.net"}, {}),
            ]
        ),
        verbatim("company", ["Brightline Logistics", "Fernwood Dental", "Quarry Labs", "Hollis & Vane"]),
        said(
            "stage",
            [
                ("lead", "someone we have only just met"),
                ("opportunity", "someone we are actively negotiating with"),
                ("customer", "someone who already pays us"),
            ],
        ),
        said(
            "owner_team",
            [("sales", "the sales team owns the relationship"), ("support", "the support team owns the relationship")],
        ),
        said("score", [(0.72, "72%"), (0.35, "35%"), (0.9, "90%"), (0.58, "58%")]),
    ),
    template="Add {full_name} ({email}) from {company} as a contact. They are {stage}, and {owner_team}. "
    "Their fit score is {score}.",
    rename=Rename("full_name", ("display_name", "contact_name")),
    new_required=NewRequired(
        "marketing_consent",
        {"type": "boolean", "description": "Whether the person agreed to receive marketing email."},
        (
            (True, "They agreed to receive marketing email."),
            (False, "They did not agree to receive marketing email."),
        ),
    ),
    enum_change=EnumChange("stage", (("lead", "cold"), ("opportunity", "engaged"), ("customer", "paying"))),
    split=Split(
        "owner_team",
        (
            ("sales", "crm.create_sales_contact", "Add a contact owned by the sales team."),
            ("support", "crm.create_support_contact", "Add a contact owned by the support team."),
        ),
    ),
    type_change=TypeChange(
        "score",
        {"type": "integer", "minimum": 0, "maximum": 100, "description": "Fit score as a whole percentage, 0 to 100."},
        scaled(100),
        "fraction of 1 -> integer percent",
    ),
)

STORAGE = BaseSchema(
    id="storage",
    title="Object storage",
    tool="storage.create_bucket",
    description="Create a storage bucket.",
    version="1.9.0",
    properties={
        "name": _string("Bucket name: lowercase letters, digits and dashes.", pattern=r"^[a-z0-9][a-z0-9-]{2,62}$"),
        "region": _string("Data centre region, for example eu-west-1."),
        "storage_class": _enum(["standard", "infrequent", "archive"], "How often objects are expected to be read."),
        "access": _enum(["public", "private"], "Whether objects can be read without credentials."),
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

MESSAGING = BaseSchema(
    id="messaging",
    title="Team chat",
    tool="chat.post_message",
    description="Post a message to a channel or a person.",
    version="2.0.0",
    properties={
        "target": _string("Channel name (without #) or username to send to."),
        "target_type": _enum(["channel", "user"], "Whether target is a channel or a person."),
        "text": _string("The message, in Markdown."),
        "priority": _enum(["low", "normal", "urgent"], "How strongly readers are notified."),
        "expires_in": {"type": "number", "minimum": 0, "description": "Hours until the message disappears."},
        "thread_id": _string("Reply inside this thread instead of starting a new one."),
    },
    required=("target", "target_type", "text", "priority"),
    pools=(
        together(
            [
                ({"target": "release-train", "target_type": "channel"}, {"target": "the #release-train channel"}),
                ({"target": "oncall", "target_type": "channel"}, {"target": "the #oncall channel"}),
                ({"target": "dana.k", "target_type": "user"}, {"target": "dana.k as a direct message"}),
                ({"target": "lee.w", "target_type": "user"}, {"target": "lee.w as a direct message"}),
            ]
        ),
        verbatim(
            "text",
            [
                "Deploy 4.12 is rolling out now",
                "Standup moves to 10:15 today",
                "The coffee machine on floor 3 is fixed",
                "Please review the incident notes",
            ],
        ),
        said(
            "priority",
            [
                ("low", "it can wait"),
                ("normal", "at normal priority"),
                ("urgent", "it needs attention right now"),
            ],
        ),
        said("expires_in", [(24, "a day"), (2, "two hours"), (0.5, "half an hour"), (48, "two days")]),
    ),
    template='Send "{text}" to {target}; {priority}. It should disappear after {expires_in}.',
    rename=Rename("text", ("body", "content")),
    new_required=NewRequired(
        "notify",
        _enum(["none", "mentions", "everyone"], "Who gets a push notification."),
        (
            ("everyone", "Push a notification to everyone."),
            ("none", "Do not send any push notification."),
            ("mentions", "Notify only the people who are mentioned."),
        ),
    ),
    enum_change=EnumChange("priority", (("low", "background"), ("normal", "standard"), ("urgent", "immediate"))),
    split=Split(
        "target_type",
        (
            ("channel", "chat.post_to_channel", "Post a message to a channel."),
            ("user", "chat.send_direct_message", "Send a direct message to one person."),
        ),
    ),
    type_change=TypeChange(
        "expires_in",
        {"type": "integer", "minimum": 0, "description": "Seconds until the message disappears."},
        scaled(3600),
        "hours -> integer seconds",
    ),
)

HELPDESK = BaseSchema(
    id="helpdesk",
    title="Help desk",
    tool="tickets.open",
    description="Open a support ticket for a customer.",
    version="6.3.0",
    properties={
        "requester_email": _string("Email of the customer who asked for help.", pattern=r"^[^@\s]+@[^@\s]+$"),
        "description": _string("What the customer reported."),
        "channel": _enum(["email", "phone", "chat"], "How the customer reached us."),
        "tier": _enum(["standard", "vip"], "The customer's service tier."),
        "response_sla": {"type": "number", "minimum": 0, "description": "Hours until the first reply is due."},
        "product": _string("Product area the ticket is about."),
    },
    required=("requester_email", "description", "channel", "tier", "response_sla"),
    pools=(
        verbatim("requester_email", ["hana@clearwater.example", "m.ortiz@example.com", "support@quill.example"]),
        verbatim(
            "description",
            [
                "Invoice PDF shows the wrong VAT number",
                "Cannot reset password from the mobile app",
                "Order 88412 arrived damaged",
                "Two-factor codes arrive late",
            ],
        ),
        said(
            "channel",
            [
                ("email", "wrote to us by email"),
                ("phone", "called us"),
                ("chat", "messaged us through the live chat"),
            ],
        ),
        said("tier", [("standard", "a standard-tier customer"), ("vip", "a VIP customer")]),
        said("response_sla", [(4, "four hours"), (0.5, "30 minutes"), (1, "one hour"), (8, "eight hours")]),
    ),
    template='Open a ticket for {requester_email}, {tier} who {channel}: "{description}". The first reply is due '
    "within {response_sla}.",
    rename=Rename("description", ("details", "problem")),
    new_required=NewRequired(
        "language",
        _string("Two-letter code of the language to reply in.", pattern=r"^[a-z]{2}$"),
        (("de", "Reply in German."), ("es", "Reply in Spanish."), ("ja", "Reply in Japanese.")),
    ),
    enum_change=EnumChange("channel", (("email", "written_message"), ("phone", "voice_call"), ("chat", "live_chat"))),
    split=Split(
        "tier",
        (
            ("standard", "tickets.open_standard", "Open a ticket for a standard-tier customer."),
            ("vip", "tickets.open_priority", "Open a ticket for a VIP customer, handled by the priority queue."),
        ),
    ),
    type_change=TypeChange(
        "response_sla",
        {"type": "integer", "minimum": 0, "description": "Whole minutes until the first reply is due."},
        scaled(60),
        "hours -> integer minutes",
    ),
)

SHIPPING = BaseSchema(
    id="shipping",
    title="Shipping",
    tool="shipments.create",
    description="Create a shipment for an order.",
    version="3.0.0",
    properties={
        "order_id": _string("The order being shipped.", pattern=r"^ORD-\d+$"),
        "address": _string("Full delivery address on one line."),
        "service": _enum(["ground", "express", "overnight"], "Delivery speed."),
        "handover": _enum(["pickup", "dropoff"], "The courier collects the parcel, or we drop it at a depot."),
        "weight": {"type": "number", "minimum": 0, "description": "Parcel weight in kilograms."},
        "insured_value": {"type": "number", "minimum": 0, "description": "Declared value for insurance."},
    },
    required=("order_id", "address", "service", "handover", "weight"),
    pools=(
        verbatim("order_id", ["ORD-30118", "ORD-47502", "ORD-51977", "ORD-60243"]),
        verbatim(
            "address",
            [
                "12 Harbour Street, Leith, Edinburgh EH6 6QA, UK",
                "Rua Augusta 45, 1100-048 Lisboa, Portugal",
                "88 King Street West, Toronto ON M5X 1B1, Canada",
            ],
        ),
        said(
            "service",
            [
                ("ground", "the cheapest, slowest service"),
                ("express", "a fast service"),
                ("overnight", "next-day delivery"),
            ],
        ),
        said(
            "handover",
            [("pickup", "have the courier collect it from us"), ("dropoff", "we will drop it off at the depot")],
        ),
        said("weight", [(2.5, "2.5 kg"), (0.8, "800 g"), (12, "12 kg"), (1.25, "1.25 kg")]),
    ),
    template="Ship order {order_id} to {address} with {service}; {handover}. The parcel weighs {weight}.",
    rename=Rename("address", ("destination", "deliver_to")),
    new_required=NewRequired(
        "contents",
        _enum(["documents", "merchandise", "gift"], "What the parcel holds, for customs."),
        (
            ("documents", "It contains documents only."),
            ("gift", "It is a gift."),
            ("merchandise", "It contains merchandise for sale."),
        ),
    ),
    enum_change=EnumChange("service", (("ground", "economy"), ("express", "priority"), ("overnight", "next_day"))),
    split=Split(
        "handover",
        (
            ("pickup", "shipments.schedule_pickup", "Create a shipment that the courier collects from us."),
            ("dropoff", "shipments.create_dropoff", "Create a shipment that we drop off at a depot."),
        ),
    ),
    type_change=TypeChange(
        "weight",
        {"type": "integer", "minimum": 0, "description": "Parcel weight in whole grams."},
        scaled(1000),
        "kilograms -> integer grams",
    ),
)

INVOICING = BaseSchema(
    id="invoicing",
    title="Invoicing",
    tool="invoices.create",
    description="Create an invoice for a customer.",
    version="2.2.0",
    properties={
        "customer_id": _string("The customer to bill.", pattern=r"^cust-\d+$"),
        "due_date": _string("Date the payment is due, YYYY-MM-DD.", pattern=_DATE),
        "delivery": _enum(["email", "post", "portal"], "How the invoice reaches the customer."),
        "schedule": _enum(["once", "monthly"], "Bill once, or repeat every month."),
        "discount": {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "description": "Discount as a percentage, for example 12.5.",
        },
        "notes": _string("Text printed at the bottom of the invoice."),
    },
    required=("customer_id", "due_date", "delivery", "schedule", "discount"),
    pools=(
        verbatim("customer_id", ["cust-1042", "cust-2290", "cust-3817", "cust-5506"]),
        said(
            "due_date",
            [
                ("2026-04-30", "on 30 April 2026"),
                ("2026-07-15", "on 15 July 2026"),
                ("2026-12-01", "on 1 December 2026"),
            ],
        ),
        said(
            "delivery",
            [
                ("email", "email it to them"),
                ("post", "send a paper copy by post"),
                ("portal", "put it on their self-service portal"),
            ],
        ),
        said("schedule", [("once", "a one-off invoice"), ("monthly", "a monthly recurring invoice")]),
        said("discount", [(10, "10%"), (12.5, "12.5%"), (5, "5%"), (2.75, "2.75%")]),
    ),
    template="Create {schedule} for customer {customer_id}, due {due_date}, with a {discount} discount; {delivery}.",
    rename=Rename("due_date", ("pay_by", "payment_due")),
    new_required=NewRequired(
        "po_number",
        _string("The customer's purchase order number."),
        (
            ("PO-2231", "Their purchase order number is PO-2231."),
            ("PO-7740", "Their purchase order number is PO-7740."),
            ("PO-1019", "Their purchase order number is PO-1019."),
        ),
    ),
    enum_change=EnumChange("delivery", (("email", "emailed"), ("post", "printed"), ("portal", "self_service"))),
    split=Split(
        "schedule",
        (
            ("once", "invoices.create_one_off", "Create an invoice that is sent once."),
            ("monthly", "invoices.create_recurring", "Create an invoice that repeats every month."),
        ),
    ),
    type_change=TypeChange(
        "discount",
        {
            "type": "integer",
            "minimum": 0,
            "maximum": 10000,
            "description": "Discount in basis points (1% = 100), for example 1250.",
        },
        scaled(100),
        "percent -> integer basis points",
    ),
)

FLAGS = BaseSchema(
    id="flags",
    title="Feature flags",
    tool="flags.create",
    description="Create a feature flag.",
    version="1.4.0",
    properties={
        "key": _string("Identifier used in code.", pattern=r"^[a-z][a-z0-9_]*$"),
        "description": _string("What the flag switches."),
        "environment": _enum(["dev", "staging", "prod"], "Where the flag is created."),
        "scope": _enum(["user", "organization"], "Whether the flag is evaluated per user or per organisation."),
        "ttl": {
            "type": "number",
            "minimum": 0,
            "description": "Days until the flag is reported as stale and should be removed.",
        },
        "default_on": {"type": "boolean", "description": "Serve the flag as on until a rule says otherwise."},
    },
    required=("key", "environment", "scope", "ttl"),
    pools=(
        together(
            [
                ({"key": "new_checkout", "description": "New checkout flow"}, {}),
                ({"key": "beta_search", "description": "Beta search ranking"}, {}),
                ({"key": "dark_mode", "description": "Dark mode for the web app"}, {}),
                ({"key": "bulk_export", "description": "Bulk export of reports"}, {}),
            ]
        ),
        said(
            "environment",
            [
                ("dev", "in the development environment"),
                ("staging", "in the pre-release environment"),
                ("prod", "in production"),
            ],
        ),
        said("scope", [("user", "evaluated per user"), ("organization", "evaluated per organisation")]),
        said("ttl", [(14, "two weeks"), (30, "30 days"), (7, "a week"), (1.5, "a day and a half")]),
    ),
    template='Create a feature flag {key} ("{description}") {environment}, {scope}. It goes stale after {ttl}.',
    rename=Rename("key", ("flag_key", "identifier")),
    new_required=NewRequired(
        "owner",
        _string("Email of the person responsible for removing the flag."),
        (
            ("mei.lin@example.com", "Mei Lin (mei.lin@example.com) owns the flag."),
            ("t.adeyemi@example.com", "Tunde Adeyemi (t.adeyemi@example.com) owns the flag."),
            ("rosa.g@example.com", "Rosa García (rosa.g@example.com) owns the flag."),
        ),
    ),
    enum_change=EnumChange("environment", (("dev", "development"), ("staging", "preview"), ("prod", "production"))),
    split=Split(
        "scope",
        (
            ("user", "flags.create_user_flag", "Create a flag evaluated per user."),
            ("organization", "flags.create_org_flag", "Create a flag evaluated per organisation."),
        ),
    ),
    type_change=TypeChange(
        "ttl",
        {"type": "integer", "minimum": 0, "description": "Whole hours until the flag is reported as stale."},
        scaled(24),
        "days -> integer hours",
    ),
)

TIMEOFF = BaseSchema(
    id="timeoff",
    title="Time off",
    tool="timeoff.request",
    description="Request time off for an employee.",
    version="2.7.0",
    properties={
        "employee_id": _string("The employee taking time off.", pattern=r"^E\d{4}$"),
        "reason": _string("Short note for the approver."),
        "leave_type": _enum(["vacation", "sick", "personal"], "Which leave balance to draw from."),
        "paid": _enum(["paid", "unpaid"], "Whether the time off is paid."),
        "start_date": _string("First day off, YYYY-MM-DD.", pattern=_DATE),
        "days": {"type": "integer", "minimum": 1, "description": "Number of working days off."},
        "cover": _string("Employee id of the colleague covering."),
    },
    required=("employee_id", "leave_type", "paid", "start_date", "days"),
    pools=(
        verbatim("employee_id", ["E2291", "E3050", "E4178", "E5623"]),
        together(
            [
                ({"reason": "Family wedding in Porto", "leave_type": "vacation"}, {"leave_type": "for a holiday"}),
                ({"reason": "Hiking trip", "leave_type": "vacation"}, {"leave_type": "for a holiday"}),
                ({"reason": "Knee surgery recovery", "leave_type": "sick"}, {"leave_type": "because they are unwell"}),
                ({"reason": "Moving flat", "leave_type": "personal"}, {"leave_type": "for a personal matter"}),
            ]
        ),
        said("paid", [("paid", "as paid leave"), ("unpaid", "as unpaid leave")]),
        said(
            "start_date",
            [
                ("2026-04-02", "2 April 2026"),
                ("2026-08-17", "17 August 2026"),
                ("2026-10-05", "5 October 2026"),
            ],
        ),
        said("days", [(1, "one day"), (3, "three days"), (5, "five days"), (2, "two days")]),
    ),
    template="Book time off for employee {employee_id}: {days} starting {start_date}, {leave_type}, {paid}. "
    'Note for the approver: "{reason}".',
    rename=Rename("reason", ("note", "comment")),
    new_required=NewRequired(
        "approver_id",
        _string("Employee id of the manager who approves the request.", pattern=r"^E\d{4}$"),
        (
            ("E1042", "Their manager, E1042, approves it."),
            ("E1187", "Their manager, E1187, approves it."),
            ("E1330", "Their manager, E1330, approves it."),
        ),
    ),
    enum_change=EnumChange(
        "leave_type", (("vacation", "annual_leave"), ("sick", "sick_leave"), ("personal", "personal_leave"))
    ),
    split=Split(
        "paid",
        (
            ("paid", "timeoff.request_paid", "Request paid time off."),
            ("unpaid", "timeoff.request_unpaid", "Request unpaid time off."),
        ),
    ),
    type_change=TypeChange(
        "start_date",
        date_object("First day off as separate year, month and day numbers."),
        date_parts,
        "YYYY-MM-DD string -> {year, month, day} object",
    ),
)

CAMPAIGNS = BaseSchema(
    id="campaigns",
    title="Email campaigns",
    tool="campaigns.schedule",
    description="Schedule a marketing campaign to a subscriber list.",
    version="3.5.0",
    properties={
        "list_id": _string("The subscriber list.", pattern=r"^lst_[a-z0-9]+$"),
        "name": _string("Internal name of the campaign."),
        "send_at": _string("Local send time, YYYY-MM-DDTHH:MM.", pattern=_LOCAL_TIME),
        "tracking": _enum(["none", "opens", "full"], "Which engagement to record."),
        "channel": _enum(["email", "sms"], "How the campaign is delivered."),
        "tags": _string('Tags as one comma-separated string without spaces, for example "spring,promo".'),
        "segment": _string("Only send to this segment of the list."),
    },
    required=("list_id", "name", "send_at", "tracking", "channel"),
    pools=(
        verbatim("list_id", ["lst_newsletter", "lst_vip2026", "lst_trial", "lst_partners"]),
        verbatim("name", ["Spring sale teaser", "Product update: March", "Webinar reminder", "Win-back offer"]),
        said(
            "send_at",
            [
                ("2026-03-02T08:00", "at 08:00 on 2 March 2026"),
                ("2026-06-10T17:30", "at 17:30 on 10 June 2026"),
                ("2026-09-21T12:00", "at noon on 21 September 2026"),
            ],
        ),
        said(
            "tracking",
            [
                ("none", "without any tracking"),
                ("opens", "tracking only opens"),
                ("full", "tracking opens and clicks"),
            ],
        ),
        said("channel", [("email", "by email"), ("sms", "by text message")]),
        said(
            "tags",
            [("spring,promo", "spring and promo"), ("newsletter", "newsletter"), ("launch,beta", "launch and beta")],
        ),
    ),
    template='Schedule the campaign "{name}" to list {list_id} {channel} {send_at}, {tracking}. Tag it {tags}.',
    rename=Rename("name", ("campaign_name", "title")),
    new_required=NewRequired(
        "from_name",
        _string("Name shown as the sender."),
        (
            ("Lumen Books", "Send it as Lumen Books."),
            ("Fernwood Dental", "Send it as Fernwood Dental."),
            ("Quarry Labs", "Send it as Quarry Labs."),
        ),
    ),
    enum_change=EnumChange("tracking", (("none", "off"), ("opens", "opens_only"), ("full", "opens_and_clicks"))),
    split=Split(
        "channel",
        (
            ("email", "campaigns.schedule_email", "Schedule an email campaign."),
            ("sms", "campaigns.schedule_sms", "Schedule a text-message campaign."),
        ),
    ),
    type_change=TypeChange(
        "tags",
        {"type": "array", "items": {"type": "string"}, "description": "Tags, one per item."},
        comma_list,
        "comma-separated string -> array of strings",
    ),
)

#: The catalogue, in the order tasks are generated.
BASE_SCHEMAS: tuple[BaseSchema, ...] = (
    ISSUES,
    PAYMENTS,
    CALENDAR,
    CRM,
    STORAGE,
    MESSAGING,
    HELPDESK,
    SHIPPING,
    INVOICING,
    FLAGS,
    TIMEOFF,
    CAMPAIGNS,
)
