"""The held-out migrations: for every base schema and every mutation kind, four authored
alternatives to the one the public split uses (`BaseSchema.rename`, `.new_required`, ...).

A hidden split (`--split hidden --seed N`) draws each task's migration from these, never from the
public one, so the current schema a model is shown differs from the committed tasks; the seed
picks among the four, along with the request's values. Each alternative is a different breaking
change (another field renamed, another field required, another enum replaced, another
discriminator or other tool names, another type change), written by hand like the public ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from attrs import frozen
from benchmark_core import JsonObject, JsonValue

from ._schemas import (
    CALENDAR,
    CAMPAIGNS,
    CRM,
    FLAGS,
    HELPDESK,
    INVOICING,
    ISSUES,
    MESSAGING,
    PAYMENTS,
    SHIPPING,
    STORAGE,
    TIMEOFF,
    BaseSchema,
    EnumChange,
    NewRequired,
    Rename,
    Split,
    TypeChange,
    date_object,
    date_parts,
    datetime_parts,
    decimal_string,
    money_parts,
    one_item_list,
    owner_and_name,
    scaled,
    with_unit,
    wrapped,
)


@frozen
class Alternatives:
    """The held-out migrations of one base schema, at least four per mutation kind."""

    renames: tuple[Rename, ...]
    new_requireds: tuple[NewRequired, ...]
    enum_changes: tuple[EnumChange, ...]
    splits: tuple[Split, ...]
    type_changes: tuple[TypeChange, ...]


def _enum(values: list[str], description: str) -> JsonObject:
    return {"type": "string", "enum": values, "description": description}


def _string(description: str) -> JsonObject:
    return {"type": "string", "description": description}


def _integer(description: str, minimum: int = 0) -> JsonObject:
    return {"type": "integer", "minimum": minimum, "description": description}


def _boolean(description: str) -> JsonObject:
    return {"type": "boolean", "description": description}


def split_as(base: BaseSchema, field: str, names: Mapping[str, str]) -> Split:
    """The tool split by `field`, one tool per value, named as given."""
    return Split(
        field,
        tuple((value, name, f"{base.description} Use it when {field} is {value}.") for value, name in names.items()),
    )


def _description(base: BaseSchema, field: str) -> str:
    return str(base.properties[field].get("description", ""))


def multi_select(base: BaseSchema, field: str) -> TypeChange:
    """A single-choice enum becomes a list of choices (the request's one value is a one-item list)."""
    values = base.properties[field]["enum"]
    return TypeChange(
        field,
        {
            "type": "array",
            "items": {"type": "string", "enum": values},
            "description": f"{_description(base, field)} Now a list of one or more values.",
        },
        one_item_list,
        "one enum value -> array of values",
    )


def wrap_text(base: BaseSchema, field: str, key: str) -> TypeChange:
    """A string becomes an object holding it under `key`."""
    return TypeChange(
        field,
        {
            "type": "object",
            "properties": {key: {"type": "string"}},
            "required": [key],
            "additionalProperties": False,
            "description": f"{_description(base, field)} Now an object with the text under {key}.",
        },
        wrapped(key),
        f"string -> object {{{key}}}",
    )


def unit_object(base: BaseSchema, field: str, unit: str) -> TypeChange:
    """A bare number becomes `{"value": n, "unit": unit}`, in the unit the field always had."""
    return TypeChange(
        field,
        {
            "type": "object",
            "properties": {"value": {"type": "number", "minimum": 0}, "unit": {"type": "string", "enum": [unit]}},
            "required": ["value", "unit"],
            "additionalProperties": False,
            "description": f"{_description(base, field)} Now an object: the number as value, and unit {unit}.",
        },
        with_unit(unit),
        f"number -> object {{value, unit: {unit}}}",
    )


def percent_to_fraction(value: JsonValue) -> JsonValue:
    return float(Decimal(repr(value)) / 100)


def _scaled(field: str, factor: int, description: str, change: str) -> TypeChange:
    return TypeChange(field, _integer(description), scaled(factor), change)


def _datetime_object(description: str) -> JsonObject:
    return {
        "type": "object",
        "properties": {
            "date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
            "time": {"type": "string", "pattern": r"^\d{2}:\d{2}$"},
        },
        "required": ["date", "time"],
        "additionalProperties": False,
        "description": description,
    }


HELD_OUT: dict[str, Alternatives] = {
    "issues": Alternatives(
        renames=(
            Rename("repo", ("repository", "project")),
            Rename("labels", ("tags", "label_list")),
            Rename("kind", ("type", "category")),
            Rename("visibility", ("audience", "access")),
        ),
        new_requireds=(
            NewRequired(
                "component",
                _enum(["frontend", "backend", "infra"], "Part of the system the issue is about."),
                (("frontend", "It concerns the frontend."), ("backend", "It concerns the backend.")),
            ),
            NewRequired(
                "milestone",
                _string("Milestone the issue is planned for, for example v2.4."),
                (("v2.4", "Plan it for milestone v2.4."), ("v3.0", "Plan it for milestone v3.0.")),
            ),
            NewRequired(
                "reporter",
                _string("Username of the person reporting the issue."),
                (("jkim", "It is reported by jkim."), ("a.osei", "It is reported by a.osei.")),
            ),
            NewRequired(
                "estimate",
                _integer("Estimated effort in story points.", 1),
                ((3, "Estimate it at 3 story points."), (8, "Estimate it at 8 story points.")),
            ),
        ),
        enum_changes=(
            EnumChange("kind", (("bug", "incident"), ("feature", "improvement"), ("chore", "maintenance"))),
            EnumChange("kind", (("bug", "BUG"), ("feature", "FEATURE"), ("chore", "CHORE"))),
            EnumChange("visibility", (("public", "everyone"), ("team", "members"))),
            EnumChange("visibility", (("public", "open"), ("team", "internal"))),
        ),
        splits=(
            split_as(
                ISSUES,
                "kind",
                {"bug": "issues.report_bug", "feature": "issues.request_feature", "chore": "issues.add_chore"},
            ),
            split_as(ISSUES, "kind", {"bug": "bugs.create", "feature": "features.create", "chore": "chores.create"}),
            split_as(ISSUES, "visibility", {"public": "issues.open_public", "team": "issues.open_internal"}),
            split_as(ISSUES, "visibility", {"public": "public_issues.create", "team": "team_issues.create"}),
        ),
        type_changes=(
            multi_select(ISSUES, "kind"),
            multi_select(ISSUES, "visibility"),
            wrap_text(ISSUES, "title", "text"),
            TypeChange(
                "repo",
                {
                    "type": "object",
                    "properties": {"owner": {"type": "string"}, "name": {"type": "string"}},
                    "required": ["owner", "name"],
                    "additionalProperties": False,
                    "description": "Repository as an object: its owner and its name.",
                },
                owner_and_name,
                "owner/name string -> {owner, name} object",
            ),
        ),
    ),
    "payments": Alternatives(
        renames=(
            Rename("customer_id", ("customer", "payer_id")),
            Rename("currency", ("currency_code", "iso_currency")),
            Rename("channel", ("sales_channel", "source")),
            Rename("capture", ("capture_mode", "settlement")),
        ),
        new_requireds=(
            NewRequired(
                "order_ref",
                _string("Your own reference for the order being paid."),
                (("A-1182", "The order reference is A-1182."), ("B-2047", "The order reference is B-2047.")),
            ),
            NewRequired(
                "customer_present",
                _boolean("Whether the customer is present when the charge is made."),
                ((True, "The customer is present."), (False, "The customer is not present.")),
            ),
            NewRequired(
                "tax_rate",
                {"type": "number", "minimum": 0, "description": "Tax rate applied, in percent."},
                ((20, "Apply a 20% tax rate."), (7.5, "Apply a 7.5% tax rate.")),
            ),
            NewRequired(
                "risk_check",
                _enum(["standard", "strict"], "How strictly the charge is screened for fraud."),
                (("strict", "Screen it strictly for fraud."), ("standard", "Use the standard fraud screening.")),
            ),
        ),
        enum_changes=(
            EnumChange("currency", (("usd", "USD"), ("eur", "EUR"), ("gbp", "GBP"))),
            EnumChange("channel", (("web", "ecommerce"), ("phone", "moto"), ("store", "pos"))),
            EnumChange("capture", (("immediate", "automatic"), ("deferred", "manual"))),
            EnumChange("capture", (("immediate", "now"), ("deferred", "later"))),
        ),
        splits=(
            split_as(PAYMENTS, "capture", {"immediate": "charges.capture", "deferred": "charges.hold"}),
            split_as(
                PAYMENTS,
                "channel",
                {
                    "web": "payments.charge_online",
                    "phone": "payments.charge_by_phone",
                    "store": "payments.charge_in_store",
                },
            ),
            split_as(
                PAYMENTS,
                "currency",
                {"usd": "payments.charge_usd", "eur": "payments.charge_eur", "gbp": "payments.charge_gbp"},
            ),
            split_as(
                PAYMENTS,
                "channel",
                {"web": "web_payments.charge", "phone": "phone_payments.charge", "store": "store_payments.charge"},
            ),
        ),
        type_changes=(
            wrap_text(PAYMENTS, "description", "text"),
            TypeChange(
                "customer_id",
                {
                    "type": "object",
                    "properties": {"id": {"type": "string", "pattern": r"^cus_[A-Za-z0-9]+$"}},
                    "required": ["id"],
                    "additionalProperties": False,
                    "description": "The customer to charge, as a reference object {id}.",
                },
                wrapped("id"),
                "id string -> reference object {id}",
            ),
            TypeChange(
                "amount",
                {
                    "type": "object",
                    "properties": {"units": {"type": "integer"}, "nanos": {"type": "integer"}},
                    "required": ["units", "nanos"],
                    "additionalProperties": False,
                    "description": "Amount as whole major units plus nanos (billionths of a unit): 12.5 is "
                    "{units: 12, nanos: 500000000}.",
                },
                money_parts,
                "major units -> {units, nanos} object",
            ),
            TypeChange(
                "amount",
                {
                    "type": "string",
                    "pattern": r"^\d+\.\d{2}$",
                    "description": 'Amount in major units as a decimal string with two decimals, for example "12.50".',
                },
                decimal_string,
                "number -> decimal string with two decimals",
            ),
        ),
    ),
    "calendar": Alternatives(
        renames=(
            Rename("calendar_id", ("calendar", "owner_email")),
            Rename("start", ("starts_at", "begin")),
            Rename("show_as", ("availability", "busy_status")),
            Rename("duration", ("length", "duration_hours")),
        ),
        new_requireds=(
            NewRequired(
                "reminder_minutes",
                _integer("Minutes before the start to send a reminder."),
                ((10, "Remind me 10 minutes before."), (30, "Remind me 30 minutes before.")),
            ),
            NewRequired(
                "color",
                _enum(["blue", "green", "red"], "Colour of the event on the calendar."),
                (("green", "Show it in green."), ("red", "Show it in red.")),
            ),
            NewRequired(
                "visibility",
                _enum(["default", "private"], "Whether other people see the event's details."),
                (("private", "Keep its details private."), ("default", "Use the calendar's default visibility.")),
            ),
            NewRequired(
                "video_call",
                _boolean("Whether a video-call link is attached."),
                ((True, "Attach a video-call link."), (False, "No video-call link is needed.")),
            ),
        ),
        enum_changes=(
            EnumChange("show_as", (("busy", "opaque"), ("free", "transparent"), ("tentative", "provisional"))),
            EnumChange("show_as", (("busy", "BUSY"), ("free", "FREE"), ("tentative", "TENTATIVE"))),
            EnumChange("event_type", (("meeting", "default"), ("focus", "focusTime"))),
            EnumChange("event_type", (("meeting", "group"), ("focus", "solo"))),
        ),
        splits=(
            split_as(
                CALENDAR,
                "show_as",
                {"busy": "calendar.block_time", "free": "calendar.add_free_event", "tentative": "calendar.pencil_in"},
            ),
            split_as(CALENDAR, "event_type", {"meeting": "meetings.create", "focus": "focus_time.create"}),
            split_as(CALENDAR, "event_type", {"meeting": "calendar.add_meeting", "focus": "calendar.add_focus_block"}),
            split_as(
                CALENDAR,
                "show_as",
                {
                    "busy": "calendar.create_busy",
                    "free": "calendar.create_free",
                    "tentative": "calendar.create_tentative",
                },
            ),
        ),
        type_changes=(
            TypeChange(
                "start",
                _datetime_object("Local start as separate date (YYYY-MM-DD) and time (HH:MM)."),
                datetime_parts,
                "YYYY-MM-DDTHH:MM string -> {date, time} object",
            ),
            unit_object(CALENDAR, "duration", "hours"),
            multi_select(CALENDAR, "show_as"),
            wrap_text(CALENDAR, "title", "text"),
        ),
    ),
    "crm": Alternatives(
        renames=(
            Rename("email", ("email_address", "primary_email")),
            Rename("company", ("organization", "employer")),
            Rename("stage", ("lifecycle_stage", "status")),
            Rename("score", ("fit_score", "rating")),
        ),
        new_requireds=(
            NewRequired(
                "source",
                _enum(["event", "referral", "website"], "Where we met the contact."),
                (("event", "We met them at an event."), ("referral", "They came through a referral.")),
            ),
            NewRequired(
                "country",
                _string("Two-letter country code of the contact."),
                (("DE", "They are based in Germany (DE)."), ("BR", "They are based in Brazil (BR).")),
            ),
            NewRequired(
                "language",
                _enum(["en", "es", "fr"], "Language to write to the contact in."),
                (("es", "Write to them in Spanish."), ("fr", "Write to them in French.")),
            ),
            NewRequired(
                "do_not_call",
                _boolean("Whether the contact asked never to be phoned."),
                ((True, "They asked never to be phoned."), (False, "They are happy to be phoned.")),
            ),
        ),
        enum_changes=(
            EnumChange("stage", (("lead", "prospect"), ("opportunity", "negotiating"), ("customer", "client"))),
            EnumChange("stage", (("lead", "LEAD"), ("opportunity", "OPPORTUNITY"), ("customer", "CUSTOMER"))),
            EnumChange("owner_team", (("sales", "revenue"), ("support", "success"))),
            EnumChange("owner_team", (("sales", "account_executives"), ("support", "customer_care"))),
        ),
        splits=(
            split_as(
                CRM,
                "stage",
                {"lead": "crm.create_lead", "opportunity": "crm.create_opportunity", "customer": "crm.create_customer"},
            ),
            split_as(CRM, "owner_team", {"sales": "sales.contacts.create", "support": "support.contacts.create"}),
            split_as(
                CRM, "stage", {"lead": "leads.add", "opportunity": "opportunities.add", "customer": "customers.add"}
            ),
            split_as(CRM, "owner_team", {"sales": "crm.add_to_sales", "support": "crm.add_to_support"}),
        ),
        type_changes=(
            multi_select(CRM, "stage"),
            multi_select(CRM, "owner_team"),
            wrap_text(CRM, "company", "name"),
            _scaled("score", 1000, "Fit score in thousandths, 0 to 1000.", "fraction of 1 -> integer thousandths"),
        ),
    ),
    "storage": Alternatives(
        renames=(
            Rename("name", ("bucket_name", "bucket")),
            Rename("storage_class", ("tier", "class")),
            Rename("access", ("acl", "visibility")),
            Rename("quota", ("max_size", "size_limit")),
        ),
        new_requireds=(
            NewRequired(
                "encryption",
                _enum(["managed", "customer_key"], "Who holds the encryption key."),
                (("managed", "Let the provider manage the encryption key."), ("customer_key", "We bring our own key.")),
            ),
            NewRequired(
                "owner_team",
                _string("Team that owns the bucket, for cost reports."),
                (("platform", "The platform team owns it."), ("marketing", "The marketing team owns it.")),
            ),
            NewRequired(
                "object_lock",
                _boolean("Whether objects cannot be overwritten or deleted until their retention ends."),
                ((True, "Lock objects against overwrites."), (False, "Objects may be overwritten.")),
            ),
            NewRequired(
                "replicas",
                _integer("How many copies of each object are kept.", 1),
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
            _scaled(
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
    "messaging": Alternatives(
        renames=(
            Rename("target", ("recipient", "destination")),
            Rename("priority", ("urgency", "importance")),
            Rename("expires_in", ("ttl", "lifetime")),
            Rename("target_type", ("recipient_type", "destination_kind")),
        ),
        new_requireds=(
            NewRequired(
                "format",
                _enum(["plain", "markdown"], "How the text is rendered."),
                (("plain", "Send it as plain text."), ("markdown", "Render it as Markdown.")),
            ),
            NewRequired(
                "sender",
                _string("Name the message is posted under."),
                (("Deploy Bot", "Post it as Deploy Bot."), ("Facilities", "Post it as Facilities.")),
            ),
            NewRequired(
                "pin",
                _boolean("Whether the message is pinned."),
                ((True, "Pin it."), (False, "Do not pin it.")),
            ),
            NewRequired(
                "silent",
                _boolean("Whether the message is delivered without a sound."),
                ((True, "Deliver it silently."), (False, "Deliver it with a sound.")),
            ),
        ),
        enum_changes=(
            EnumChange("priority", (("low", "LOW"), ("normal", "NORMAL"), ("urgent", "HIGH"))),
            EnumChange("priority", (("low", "quiet"), ("normal", "default"), ("urgent", "alert"))),
            EnumChange("target_type", (("channel", "room"), ("user", "person"))),
            EnumChange("target_type", (("channel", "group"), ("user", "direct"))),
        ),
        splits=(
            split_as(
                MESSAGING,
                "priority",
                {"low": "chat.post_quiet", "normal": "chat.post_normal", "urgent": "chat.post_urgent"},
            ),
            split_as(MESSAGING, "target_type", {"channel": "channels.post", "user": "direct_messages.send"}),
            split_as(MESSAGING, "target_type", {"channel": "chat.to_channel", "user": "chat.to_user"}),
            split_as(
                MESSAGING, "priority", {"low": "notices.post", "normal": "messages.post", "urgent": "alerts.post"}
            ),
        ),
        type_changes=(
            unit_object(MESSAGING, "expires_in", "hours"),
            _scaled("expires_in", 60, "Whole minutes until the message disappears.", "hours -> integer minutes"),
            wrap_text(MESSAGING, "text", "markdown"),
            multi_select(MESSAGING, "priority"),
        ),
    ),
    "helpdesk": Alternatives(
        renames=(
            Rename("requester_email", ("customer_email", "reporter")),
            Rename("channel", ("source", "via")),
            Rename("tier", ("plan", "service_level")),
            Rename("response_sla", ("reply_within", "first_response_due")),
        ),
        new_requireds=(
            NewRequired(
                "category",
                _enum(["billing", "account", "delivery", "security"], "What the ticket is about."),
                (("billing", "File it under billing."), ("security", "File it under security.")),
            ),
            NewRequired(
                "assignee_group",
                _string("Group that handles the ticket."),
                (("tier-2", "Assign it to the tier-2 group."), ("escalations", "Assign it to the escalations group.")),
            ),
            NewRequired(
                "order_number",
                _string("Order the ticket refers to, or none."),
                (("88412", "It concerns order 88412."), ("none", "It concerns no order; use none.")),
            ),
            NewRequired(
                "satisfaction_survey",
                _boolean("Whether a survey is sent when the ticket closes."),
                ((True, "Send a survey when it closes."), (False, "Do not send a survey.")),
            ),
        ),
        enum_changes=(
            EnumChange("channel", (("email", "EMAIL"), ("phone", "PHONE"), ("chat", "CHAT"))),
            EnumChange("channel", (("email", "inbox"), ("phone", "call"), ("chat", "messaging"))),
            EnumChange("tier", (("standard", "regular"), ("vip", "premium"))),
            EnumChange("tier", (("standard", "basic"), ("vip", "priority"))),
        ),
        splits=(
            split_as(
                HELPDESK,
                "channel",
                {"email": "tickets.from_email", "phone": "tickets.from_call", "chat": "tickets.from_chat"},
            ),
            split_as(HELPDESK, "tier", {"standard": "standard_tickets.open", "vip": "vip_tickets.open"}),
            split_as(
                HELPDESK,
                "channel",
                {"email": "email_tickets.create", "phone": "phone_tickets.create", "chat": "chat_tickets.create"},
            ),
            split_as(HELPDESK, "tier", {"standard": "tickets.open_regular", "vip": "tickets.open_vip"}),
        ),
        type_changes=(
            unit_object(HELPDESK, "response_sla", "hours"),
            _scaled("response_sla", 3600, "Whole seconds until the first reply is due.", "hours -> integer seconds"),
            multi_select(HELPDESK, "channel"),
            wrap_text(HELPDESK, "description", "text"),
        ),
    ),
    "shipping": Alternatives(
        renames=(
            Rename("order_id", ("order", "order_ref")),
            Rename("service", ("service_level", "speed")),
            Rename("handover", ("collection", "handoff")),
            Rename("weight", ("weight_kg", "mass")),
        ),
        new_requireds=(
            NewRequired(
                "signature",
                _boolean("Whether the recipient must sign on delivery."),
                ((True, "The recipient must sign for it."), (False, "No signature is needed.")),
            ),
            NewRequired(
                "packaging",
                _enum(["envelope", "box", "tube"], "What the item is packed in."),
                (("box", "It is packed in a box."), ("tube", "It is packed in a tube.")),
            ),
            NewRequired(
                "reference",
                _string("Reference printed on the label."),
                (("RMA-5521", "Print RMA-5521 on the label."), ("GIFT-07", "Print GIFT-07 on the label.")),
            ),
            NewRequired(
                "fragile",
                _boolean("Whether the parcel holds something fragile."),
                ((True, "It is fragile."), (False, "Nothing in it is fragile.")),
            ),
        ),
        enum_changes=(
            EnumChange("service", (("ground", "standard"), ("express", "expedited"), ("overnight", "overnight_air"))),
            EnumChange("service", (("ground", "GROUND"), ("express", "EXPRESS"), ("overnight", "OVERNIGHT"))),
            EnumChange("handover", (("pickup", "collection"), ("dropoff", "drop_off"))),
            EnumChange("handover", (("pickup", "courier_pickup"), ("dropoff", "depot"))),
        ),
        splits=(
            split_as(
                SHIPPING,
                "service",
                {
                    "ground": "shipments.create_ground",
                    "express": "shipments.create_express",
                    "overnight": "shipments.create_overnight",
                },
            ),
            split_as(SHIPPING, "handover", {"pickup": "pickups.book", "dropoff": "dropoffs.register"}),
            split_as(
                SHIPPING,
                "service",
                {"ground": "ground.ship", "express": "express.ship", "overnight": "overnight.ship"},
            ),
            split_as(SHIPPING, "handover", {"pickup": "shipments.with_pickup", "dropoff": "shipments.with_dropoff"}),
        ),
        type_changes=(
            unit_object(SHIPPING, "weight", "kg"),
            multi_select(SHIPPING, "handover"),
            multi_select(SHIPPING, "service"),
            wrap_text(SHIPPING, "address", "line"),
        ),
    ),
    "invoicing": Alternatives(
        renames=(
            Rename("customer_id", ("customer", "account_id")),
            Rename("delivery", ("delivery_method", "send_via")),
            Rename("schedule", ("frequency", "recurrence")),
            Rename("discount", ("discount_percent", "reduction")),
        ),
        new_requireds=(
            NewRequired(
                "currency",
                _enum(["usd", "eur", "gbp"], "Currency of the invoice."),
                (("eur", "Bill in euros."), ("gbp", "Bill in pounds.")),
            ),
            NewRequired(
                "payment_terms",
                _integer("Days the customer has to pay after the invoice is issued."),
                ((14, "Payment terms are 14 days."), (30, "Payment terms are 30 days.")),
            ),
            NewRequired(
                "language",
                _enum(["en", "de", "fr"], "Language the invoice is written in."),
                (("de", "Write it in German."), ("fr", "Write it in French.")),
            ),
            NewRequired(
                "tax_exempt",
                _boolean("Whether the customer is exempt from tax."),
                ((True, "The customer is tax-exempt."), (False, "The customer pays tax.")),
            ),
        ),
        enum_changes=(
            EnumChange("delivery", (("email", "EMAIL"), ("post", "MAIL"), ("portal", "PORTAL"))),
            EnumChange("delivery", (("email", "send_email"), ("post", "send_letter"), ("portal", "publish"))),
            EnumChange("schedule", (("once", "one_time"), ("monthly", "recurring_monthly"))),
            EnumChange("schedule", (("once", "single"), ("monthly", "every_month"))),
        ),
        splits=(
            split_as(
                INVOICING,
                "delivery",
                {"email": "invoices.email", "post": "invoices.mail", "portal": "invoices.publish"},
            ),
            split_as(INVOICING, "schedule", {"once": "invoices.bill_once", "monthly": "subscriptions.create"}),
            split_as(
                INVOICING,
                "delivery",
                {
                    "email": "invoices.create_emailed",
                    "post": "invoices.create_printed",
                    "portal": "invoices.create_online",
                },
            ),
            split_as(
                INVOICING, "schedule", {"once": "one_off_invoices.create", "monthly": "recurring_invoices.create"}
            ),
        ),
        type_changes=(
            TypeChange(
                "due_date",
                date_object("Date the payment is due, as separate year, month and day numbers."),
                date_parts,
                "YYYY-MM-DD string -> {year, month, day} object",
            ),
            TypeChange(
                "discount",
                {
                    "type": "number",
                    "minimum": 0,
                    "maximum": 1,
                    "description": "Discount as a fraction of 1, e.g. 0.125.",
                },
                percent_to_fraction,
                "percent -> fraction of 1",
            ),
            multi_select(INVOICING, "delivery"),
            unit_object(INVOICING, "discount", "percent"),
        ),
    ),
    "flags": Alternatives(
        renames=(
            Rename("description", ("summary", "label")),
            Rename("environment", ("env", "stage")),
            Rename("scope", ("evaluation", "target")),
            Rename("ttl", ("expires_after", "lifetime_days")),
        ),
        new_requireds=(
            NewRequired(
                "rollout_percent",
                _integer("Share of users or organisations who get the flag, 0 to 100."),
                ((10, "Roll it out to 10%."), (50, "Roll it out to half.")),
            ),
            NewRequired(
                "kind",
                _enum(["release", "experiment", "ops"], "Why the flag exists."),
                (("release", "It guards a release."), ("experiment", "It runs an experiment.")),
            ),
            NewRequired(
                "ticket",
                _string("Tracking ticket for removing the flag."),
                (("FLAG-118", "Track its removal in FLAG-118."), ("FLAG-402", "Track its removal in FLAG-402.")),
            ),
            NewRequired(
                "archived",
                _boolean("Whether the flag starts archived."),
                ((False, "It starts active, not archived."), (True, "It starts archived.")),
            ),
        ),
        enum_changes=(
            EnumChange("environment", (("dev", "DEV"), ("staging", "STAGING"), ("prod", "PROD"))),
            EnumChange("environment", (("dev", "local"), ("staging", "qa"), ("prod", "live"))),
            EnumChange("scope", (("user", "per_user"), ("organization", "per_org"))),
            EnumChange("scope", (("user", "individual"), ("organization", "account"))),
        ),
        splits=(
            split_as(
                FLAGS,
                "environment",
                {"dev": "flags.create_in_dev", "staging": "flags.create_in_staging", "prod": "flags.create_in_prod"},
            ),
            split_as(FLAGS, "scope", {"user": "user_flags.create", "organization": "org_flags.create"}),
            split_as(
                FLAGS,
                "environment",
                {"dev": "dev.flags.create", "staging": "staging.flags.create", "prod": "prod.flags.create"},
            ),
            split_as(FLAGS, "scope", {"user": "flags.new_user_flag", "organization": "flags.new_account_flag"}),
        ),
        type_changes=(
            unit_object(FLAGS, "ttl", "days"),
            _scaled("ttl", 1440, "Whole minutes until the flag is reported as stale.", "days -> integer minutes"),
            multi_select(FLAGS, "environment"),
            wrap_text(FLAGS, "description", "text"),
        ),
    ),
    "timeoff": Alternatives(
        renames=(
            Rename("employee_id", ("employee", "staff_id")),
            Rename("leave_type", ("category", "leave_kind")),
            Rename("start_date", ("first_day", "from_date")),
            Rename("days", ("duration_days", "working_days")),
        ),
        new_requireds=(
            NewRequired(
                "half_day_start",
                _boolean("Whether the first day off starts at noon."),
                ((True, "The first day starts at noon."), (False, "The first day is a full day.")),
            ),
            NewRequired(
                "contact_during_leave",
                _enum(["none", "urgent_only", "any"], "Whether the employee may be contacted while away."),
                (("none", "Do not contact them while away."), ("urgent_only", "Contact them only if urgent.")),
            ),
            NewRequired(
                "country",
                _string("Two-letter code of the country whose holidays apply."),
                (("PT", "Portuguese holidays apply (PT)."), ("NL", "Dutch holidays apply (NL).")),
            ),
            NewRequired(
                "handover_notes",
                _string("Where the handover notes are."),
                (
                    ("wiki/handover", "The handover notes are at wiki/handover."),
                    ("none", "There are no notes; use none."),
                ),
            ),
        ),
        enum_changes=(
            EnumChange("leave_type", (("vacation", "VACATION"), ("sick", "SICK"), ("personal", "PERSONAL"))),
            EnumChange("leave_type", (("vacation", "holiday"), ("sick", "illness"), ("personal", "private"))),
            EnumChange("paid", (("paid", "with_pay"), ("unpaid", "without_pay"))),
            EnumChange("paid", (("paid", "salaried"), ("unpaid", "unsalaried"))),
        ),
        splits=(
            split_as(
                TIMEOFF,
                "leave_type",
                {
                    "vacation": "timeoff.book_vacation",
                    "sick": "timeoff.report_sick",
                    "personal": "timeoff.book_personal",
                },
            ),
            split_as(TIMEOFF, "paid", {"paid": "paid_leave.request", "unpaid": "unpaid_leave.request"}),
            split_as(
                TIMEOFF,
                "leave_type",
                {"vacation": "vacations.create", "sick": "sick_days.create", "personal": "personal_days.create"},
            ),
            split_as(TIMEOFF, "paid", {"paid": "timeoff.with_pay", "unpaid": "timeoff.without_pay"}),
        ),
        type_changes=(
            unit_object(TIMEOFF, "days", "working_days"),
            TypeChange(
                "days",
                _integer("Number of working hours off (a working day is 8 hours)."),
                scaled(8),
                "days -> integer working hours",
            ),
            multi_select(TIMEOFF, "leave_type"),
            wrap_text(TIMEOFF, "reason", "text"),
        ),
    ),
    "campaigns": Alternatives(
        renames=(
            Rename("list_id", ("audience_id", "list")),
            Rename("send_at", ("scheduled_for", "deliver_at")),
            Rename("tracking", ("analytics", "tracking_level")),
            Rename("tags", ("labels", "keywords")),
        ),
        new_requireds=(
            NewRequired(
                "reply_to",
                _string("Address that replies go to."),
                (
                    ("hello@lumen.example", "Replies go to hello@lumen.example."),
                    ("team@quarry.example", "Replies go to team@quarry.example."),
                ),
            ),
            NewRequired(
                "ab_test",
                _boolean("Whether two subject lines are tested against each other."),
                ((True, "A/B test two subject lines."), (False, "Do not A/B test it.")),
            ),
            NewRequired(
                "locale",
                _enum(["en-GB", "en-US", "de-DE"], "Locale the campaign is written for."),
                (("en-GB", "It is written for British English."), ("de-DE", "It is written for German.")),
            ),
            NewRequired(
                "send_limit",
                _integer("Most messages sent per hour.", 1),
                ((500, "Send at most 500 an hour."), (2000, "Send at most 2000 an hour.")),
            ),
        ),
        enum_changes=(
            EnumChange("tracking", (("none", "NONE"), ("opens", "OPENS"), ("full", "ALL"))),
            EnumChange("tracking", (("none", "disabled"), ("opens", "basic"), ("full", "detailed"))),
            EnumChange("channel", (("email", "mail"), ("sms", "text"))),
            EnumChange("channel", (("email", "EMAIL"), ("sms", "SMS"))),
        ),
        splits=(
            split_as(
                CAMPAIGNS,
                "tracking",
                {
                    "none": "campaigns.schedule_untracked",
                    "opens": "campaigns.schedule_opens",
                    "full": "campaigns.schedule_tracked",
                },
            ),
            split_as(CAMPAIGNS, "channel", {"email": "email_campaigns.schedule", "sms": "sms_campaigns.schedule"}),
            split_as(CAMPAIGNS, "channel", {"email": "campaigns.send_email", "sms": "campaigns.send_text"}),
            split_as(
                CAMPAIGNS,
                "tracking",
                {"none": "broadcasts.plain", "opens": "broadcasts.with_opens", "full": "broadcasts.with_clicks"},
            ),
        ),
        type_changes=(
            TypeChange(
                "send_at",
                _datetime_object("Local send time as separate date (YYYY-MM-DD) and time (HH:MM)."),
                datetime_parts,
                "YYYY-MM-DDTHH:MM string -> {date, time} object",
            ),
            multi_select(CAMPAIGNS, "channel"),
            wrap_text(CAMPAIGNS, "name", "text"),
            TypeChange(
                "list_id",
                {
                    "type": "array",
                    "items": {"type": "string", "pattern": r"^lst_[a-z0-9]+$"},
                    "description": "The subscriber lists, one per item.",
                },
                one_item_list,
                "one list -> array of lists",
            ),
        ),
    ),
}
