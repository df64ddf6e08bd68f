"""Customers: CRM contacts, help-desk tickets, marketing campaigns.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project. The schemas added for the full split say
which public API's shape and migrations they follow."""

from __future__ import annotations

from .build import (
    LOCAL_TIME,
    boolean,
    comma_list,
    datetime_object,
    datetime_parts,
    domain,
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
    together,
    unit_object,
    verbatim,
    wrap_text,
)
from .types import (
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

#: Shaped like HubSpot's contacts API (email, lifecycle stage, owner team).
CRM = BaseSchema(
    id="crm",
    title="CRM",
    tool="crm.create_contact",
    description="Add a person to the customer database.",
    version="4.1.0",
    properties={
        "email": string("The contact's email address.", pattern=r"^[^@\s]+@[^@\s]+$"),
        "full_name": string("The person's name as they write it."),
        "company": string("Where they work."),
        "stage": enum(["lead", "opportunity", "customer"], "Where the contact is in the sales process."),
        "owner_team": enum(["sales", "support"], "The team that owns the relationship."),
        "score": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": "Fit score as a fraction between 0 and 1.",
        },
        "phone": string("Phone number in international format."),
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

CRM_AUTHORED = Authored(
    base=CRM,
    extended=Extended(
        Deprecation("crm.contacts.create"),
        Pagination(
            "crm.list_contacts",
            "List the contacts at one company.",
            "company",
            string("Company whose contacts are listed."),
            quoted("Brightline Logistics", "Fernwood Dental", "Quarry Labs"),
            "List the contacts at {company}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "scope",
            enum(
                ["contacts.sales:write", "contacts.support:write"],
                "OAuth scope the call acts under: contacts.sales:write for contacts the sales team owns, "
                "contacts.support:write for those the support team owns.",
            ),
            "owner_team",
            mapped({"sales": "contacts.sales:write", "support": "contacts.support:write"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("email", ("email_address", "primary_email")),
            Rename("company", ("organization", "employer")),
            Rename("stage", ("lifecycle_stage", "status")),
            Rename("score", ("fit_score", "rating")),
        ),
        new_requireds=(
            NewRequired(
                "source",
                enum(["event", "referral", "website"], "Where we met the contact."),
                (("event", "We met them at an event."), ("referral", "They came through a referral.")),
            ),
            NewRequired(
                "country",
                string("Two-letter country code of the contact."),
                (("DE", "They are based in Germany (DE)."), ("BR", "They are based in Brazil (BR).")),
            ),
            NewRequired(
                "language",
                enum(["en", "es", "fr"], "Language to write to the contact in."),
                (("es", "Write to them in Spanish."), ("fr", "Write to them in French.")),
            ),
            NewRequired(
                "do_not_call",
                boolean("Whether the contact asked never to be phoned."),
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
            scaled_to("score", 1000, "Fit score in thousandths, 0 to 1000.", "fraction of 1 -> integer thousandths"),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the OAuth scope contacts:write.",
        explanation="crm.create_contact needs contacts:write and the caller's token grants only read scopes",
        sentence="I am connected with a read-only token (scopes contacts:read and companies:read).",
        scope="contacts:write",
        granted=("contacts:read", "companies:read"),
    ),
)

#: Shaped like Zendesk's tickets API (requester, channel, priority queues, SLAs).
HELPDESK = BaseSchema(
    id="helpdesk",
    title="Help desk",
    tool="tickets.open",
    description="Open a support ticket for a customer.",
    version="6.3.0",
    properties={
        "requester_email": string("Email of the customer who asked for help.", pattern=r"^[^@\s]+@[^@\s]+$"),
        "description": string("What the customer reported."),
        "channel": enum(["email", "phone", "chat"], "How the customer reached us."),
        "tier": enum(["standard", "vip"], "The customer's service tier."),
        "response_sla": {"type": "number", "minimum": 0, "description": "Hours until the first reply is due."},
        "product": string("Product area the ticket is about."),
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
        string("Two-letter code of the language to reply in.", pattern=r"^[a-z]{2}$"),
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

HELPDESK_AUTHORED = Authored(
    base=HELPDESK,
    extended=Extended(
        Deprecation("tickets.create"),
        Pagination(
            "tickets.list",
            "List the tickets of one requester, newest first.",
            "requester_email",
            string("Email of the customer whose tickets are listed."),
            quoted("hana@clearwater.example", "m.ortiz@example.com", "support@quill.example"),
            "List the tickets opened for {requester_email}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "organization",
            string("Customer organisation the ticket belongs to: the domain of the requester's email."),
            "requester_email",
            domain,
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("requester_email", ("customer_email", "reporter")),
            Rename("channel", ("source", "via")),
            Rename("tier", ("plan", "service_level")),
            Rename("response_sla", ("reply_within", "first_response_due")),
        ),
        new_requireds=(
            NewRequired(
                "category",
                enum(["billing", "account", "delivery", "security"], "What the ticket is about."),
                (("billing", "File it under billing."), ("security", "File it under security.")),
            ),
            NewRequired(
                "assignee_group",
                string("Group that handles the ticket."),
                (("tier-2", "Assign it to the tier-2 group."), ("escalations", "Assign it to the escalations group.")),
            ),
            NewRequired(
                "order_number",
                string("Order the ticket refers to, or none."),
                (("88412", "It concerns order 88412."), ("none", "It concerns no order; use none.")),
            ),
            NewRequired(
                "satisfaction_survey",
                boolean("Whether a survey is sent when the ticket closes."),
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
            scaled_to("response_sla", 3600, "Whole seconds until the first reply is due.", "hours -> integer seconds"),
            multi_select(HELPDESK, "channel"),
            wrap_text(HELPDESK, "description", "text"),
        ),
    ),
    no_call=NoCall(
        "missingRequired",
        notice="Every ticket is filed under a brand.",
        explanation="brand_id is now required, has no default, and the request does not say which brand the "
        "ticket is for",
        field="brand_id",
        schema=string(
            "The brand whose queue the ticket goes to, for example brand_7731. There is no default brand.",
            pattern=r"^brand_\d+$",
        ),
    ),
)

#: Shaped like Mailchimp's campaigns API (a list, scheduled sends, tracking settings).
CAMPAIGNS = BaseSchema(
    id="campaigns",
    title="Email campaigns",
    tool="campaigns.schedule",
    description="Schedule a marketing campaign to a subscriber list.",
    version="3.5.0",
    properties={
        "list_id": string("The subscriber list.", pattern=r"^lst_[a-z0-9]+$"),
        "name": string("Internal name of the campaign."),
        "send_at": string("Local send time, YYYY-MM-DDTHH:MM.", pattern=LOCAL_TIME),
        "tracking": enum(["none", "opens", "full"], "Which engagement to record."),
        "channel": enum(["email", "sms"], "How the campaign is delivered."),
        "tags": string('Tags as one comma-separated string without spaces, for example "spring,promo".'),
        "segment": string("Only send to this segment of the list."),
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
        string("Name shown as the sender."),
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

CAMPAIGNS_AUTHORED = Authored(
    base=CAMPAIGNS,
    extended=Extended(
        Deprecation("campaigns.schedule_send"),
        Pagination(
            "campaigns.list",
            "List the campaigns sent to a subscriber list, newest first.",
            "list_id",
            string("The subscriber list."),
            quoted("lst_newsletter", "lst_vip2026", "lst_trial"),
            "List the campaigns sent to list {list_id}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "scope",
            enum(
                ["campaigns.email:send", "campaigns.sms:send"],
                "OAuth scope the call acts under: campaigns.email:send for email, campaigns.sms:send for text "
                "messages.",
            ),
            "channel",
            mapped({"email": "campaigns.email:send", "sms": "campaigns.sms:send"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("list_id", ("audience_id", "list")),
            Rename("send_at", ("scheduled_for", "deliver_at")),
            Rename("tracking", ("analytics", "tracking_level")),
            Rename("tags", ("labels", "keywords")),
        ),
        new_requireds=(
            NewRequired(
                "reply_to",
                string("Address that replies go to."),
                (
                    ("hello@lumen.example", "Replies go to hello@lumen.example."),
                    ("team@quarry.example", "Replies go to team@quarry.example."),
                ),
            ),
            NewRequired(
                "ab_test",
                boolean("Whether two subject lines are tested against each other."),
                ((True, "A/B test two subject lines."), (False, "Do not A/B test it.")),
            ),
            NewRequired(
                "locale",
                enum(["en-GB", "en-US", "de-DE"], "Locale the campaign is written for."),
                (("en-GB", "It is written for British English."), ("de-DE", "It is written for German.")),
            ),
            NewRequired(
                "send_limit",
                integer("Most messages sent per hour.", 1),
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
                datetime_object("Local send time as separate date (YYYY-MM-DD) and time (HH:MM)."),
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
    no_call=NoCall(
        "removed",
        notice="campaigns.schedule was removed in 4.0.0 with no replacement: campaigns are now scheduled only in "
        "the web app.",
        explanation="the tool that scheduled campaigns was removed with no successor",
        remaining=(
            Endpoint(
                "campaigns.list",
                "List the campaigns sent to a subscriber list, newest first.",
                {"list_id": string("The subscriber list.")},
                ("list_id",),
            ),
            Endpoint(
                "campaigns.cancel",
                "Cancel a scheduled campaign that has not been sent yet.",
                {"campaign_id": string("The campaign to cancel.")},
                ("campaign_id",),
            ),
        ),
    ),
)
