"""Outreach: transactional email, SMS, forms and surveys, product analytics events.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project. The schemas added for the full split say
which public API's shape and migrations they follow."""

from __future__ import annotations

from .build import (
    DATE,
    boolean,
    decimal_string,
    domain,
    enum,
    integer,
    listed_as,
    mapped,
    multi_select,
    one_item_list,
    said,
    scaled,
    scaled_to,
    split_as,
    string,
    together,
    unit_object,
    verbatim,
    wrap_text,
    wrapped,
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

#: After SendGrid's v3 Mail Send (`personalizations[].to[]` as a list of address objects, MIME
#: content types) and Postmark's message streams (transactional `outbound` and `broadcasts`).
MAIL = BaseSchema(
    id="mail",
    title="Transactional email",
    tool="mail.send_email",
    description="Send one email to one recipient.",
    version="2.0.0",
    properties={
        "from_address": string("Sender address; its domain must be verified."),
        "to_address": string("Recipient address.", pattern=r"^[^@\s]+@[^@\s]+$"),
        "subject": string("Subject line."),
        "body": string("The message."),
        "content_type": enum(["text", "html", "markdown"], "How the body is written."),
        "stream": enum(["transactional", "broadcast"], "One-to-one messages, or bulk messages such as newsletters."),
    },
    required=("from_address", "to_address", "subject", "body", "content_type", "stream"),
    pools=(
        verbatim("from_address", ["receipts@fjord.example", "no-reply@kite.example", "hello@basalt.example"]),
        verbatim("to_address", ["nina.k@example.com", "omar@example.org", "li.wei@example.net", "greta@example.com"]),
        together(
            [
                ({"subject": "Your receipt #4471", "body": "Thanks for your order."}, {}),
                ({"subject": "Reset your password", "body": "Use the link below within one hour."}, {}),
                ({"subject": "Welcome aboard", "body": "Your account is ready."}, {}),
                ({"subject": "Your trial ends soon", "body": "Three days left on your trial."}, {}),
            ]
        ),
        said("content_type", [("text", "as plain text"), ("html", "as HTML"), ("markdown", "written in Markdown")]),
        said(
            "stream",
            [
                ("transactional", "It is a one-to-one transactional message."),
                ("broadcast", "It goes out on the broadcast stream, like a newsletter."),
            ],
        ),
    ),
    template='Email {to_address} from {from_address} with the subject "{subject}" and the body "{body}", '
    "{content_type}. {stream}",
    rename=Rename("to_address", ("to", "recipient")),
    new_required=NewRequired(
        "reply_to",
        string("Address replies go to."),
        (
            ("support@fjord.example", "Replies should go to support@fjord.example."),
            ("help@kite.example", "Replies should go to help@kite.example."),
            ("team@basalt.example", "Replies should go to team@basalt.example."),
        ),
    ),
    enum_change=EnumChange(
        "content_type", (("text", "text/plain"), ("html", "text/html"), ("markdown", "text/markdown"))
    ),
    split=Split(
        "stream",
        (
            ("transactional", "mail.send_transactional", "Send a one-to-one transactional email."),
            ("broadcast", "mail.send_broadcast", "Send an email on the broadcast stream."),
        ),
    ),
    type_change=TypeChange(
        "to_address",
        {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"email": {"type": "string"}},
                "required": ["email"],
                "additionalProperties": False,
            },
            "description": "Recipients, one {email} object per item.",
        },
        listed_as("email"),
        "address string -> array of {email} objects",
    ),
)

MAIL_AUTHORED = Authored(
    base=MAIL,
    extended=Extended(
        Deprecation("mail.messages.send"),
        Pagination(
            "mail.list_messages",
            "List the messages sent to one recipient, newest first.",
            "recipient",
            string("Recipient address."),
            (
                ("nina.k@example.com", "nina.k@example.com"),
                ("omar@example.org", "omar@example.org"),
                ("li.wei@example.net", "li.wei@example.net"),
            ),
            "List the emails sent to {recipient}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "sender_domain",
            string("Verified domain the message is sent from: the domain of the sender's address."),
            "from_address",
            domain,
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("from_address", ("from", "sender")),
            Rename("subject", ("title", "subject_line")),
            Rename("body", ("text_body", "content")),
            Rename("content_type", ("format", "mime_type")),
        ),
        new_requireds=(
            NewRequired(
                "tag",
                string("Tag for grouping messages in the statistics."),
                (("receipts", "Tag it receipts."), ("onboarding", "Tag it onboarding.")),
            ),
            NewRequired(
                "track_opens",
                boolean("Whether opens are tracked."),
                ((True, "Track whether it is opened."), (False, "Do not track opens.")),
            ),
            NewRequired(
                "ip_pool",
                enum(["shared", "dedicated"], "Which sending addresses the message leaves from."),
                (("dedicated", "Send it from our dedicated IP pool."), ("shared", "Send it from the shared IP pool.")),
            ),
            NewRequired(
                "ttl_hours",
                integer("Hours to keep retrying delivery.", 1),
                ((6, "Keep trying for 6 hours."), (48, "Keep trying for 48 hours.")),
            ),
        ),
        enum_changes=(
            EnumChange("content_type", (("text", "TEXT"), ("html", "HTML"), ("markdown", "MARKDOWN"))),
            EnumChange("content_type", (("text", "plain"), ("html", "rich"), ("markdown", "md"))),
            EnumChange("stream", (("transactional", "outbound"), ("broadcast", "broadcasts"))),
            EnumChange("stream", (("transactional", "TRANSACTIONAL"), ("broadcast", "BROADCAST"))),
        ),
        splits=(
            split_as(MAIL, "stream", {"transactional": "transactional_mail.send", "broadcast": "broadcast_mail.send"}),
            split_as(
                MAIL,
                "content_type",
                {"text": "mail.send_text", "html": "mail.send_html", "markdown": "mail.send_markdown"},
            ),
            split_as(MAIL, "stream", {"transactional": "mail.deliver", "broadcast": "mail.broadcast"}),
            split_as(
                MAIL,
                "content_type",
                {"text": "plain_emails.send", "html": "html_emails.send", "markdown": "markdown_emails.send"},
            ),
        ),
        type_changes=(
            multi_select(MAIL, "stream"),
            wrap_text(MAIL, "subject", "text"),
            wrap_text(MAIL, "from_address", "email"),
            TypeChange(
                "to_address",
                {"type": "array", "items": {"type": "string"}, "description": "Recipient addresses, one per item."},
                one_item_list,
                "one address -> array of addresses",
            ),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the API key scope mail.send.",
        explanation="sending needs the mail.send scope and the caller's API key can only read",
        sentence="The API key I have is limited to the stats.read and templates.read scopes.",
        scope="mail.send",
        granted=("stats.read", "templates.read"),
    ),
)

#: After Twilio's Programmable Messaging (`From`, `To` in E.164, `MessagingServiceSid`,
#: `ValidityPeriod` in seconds, WhatsApp as a channel of the same API).
SMS = BaseSchema(
    id="sms",
    title="SMS messaging",
    tool="sms.send_message",
    description="Send a text message to a phone.",
    version="2010.4.0",
    properties={
        "to": string("Recipient phone number in E.164 format.", pattern=r"^\+\d{8,15}$"),
        "from_number": string("Our sending number in E.164 format."),
        "body": string("Text of the message."),
        "channel": enum(["sms", "whatsapp"], "Deliver as a plain text message or on WhatsApp."),
        "content_class": enum(
            ["transactional", "marketing", "otp"], "What the message is: a notice, a promotion, or a one-time code."
        ),
        "validity": {
            "type": "number",
            "minimum": 0,
            "description": "Hours after which an undelivered message is dropped.",
        },
        "callback_url": string("Address told about delivery status."),
    },
    required=("to", "from_number", "body", "channel", "content_class", "validity"),
    pools=(
        verbatim("to", ["+447700900123", "+351912345678", "+14165550199", "+4915112345678"]),
        verbatim("from_number", ["+447700900999", "+14165550100"]),
        together(
            [
                ({"body": "Your code is 482913", "content_class": "otp"}, {"content_class": "a one-time code"}),
                (
                    {"body": "Your parcel arrives today between 2 and 4 pm", "content_class": "transactional"},
                    {"content_class": "a delivery notice"},
                ),
                ({"body": "20% off this weekend only", "content_class": "marketing"}, {"content_class": "a promotion"}),
                (
                    {"body": "Your appointment on Friday is confirmed", "content_class": "transactional"},
                    {"content_class": "a confirmation notice"},
                ),
            ]
        ),
        said("channel", [("sms", "by SMS"), ("whatsapp", "on WhatsApp")]),
        said("validity", [(1, "an hour"), (4, "four hours"), (0.5, "half an hour"), (24, "a day")]),
    ),
    template='Send {content_class} {channel} from {from_number} to {to}: "{body}". Drop it if it is not delivered '
    "within {validity}.",
    rename=Rename("from_number", ("from", "sender")),
    new_required=NewRequired(
        "messaging_service",
        string("Messaging service that picks the sender pool.", pattern=r"^MG[0-9a-f]{8}$"),
        (
            ("MG3f2a9b1c", "Send it through messaging service MG3f2a9b1c."),
            ("MG70d41e22", "Send it through messaging service MG70d41e22."),
            ("MGa1b2c3d4", "Send it through messaging service MGa1b2c3d4."),
        ),
    ),
    enum_change=EnumChange(
        "content_class", (("transactional", "notification"), ("marketing", "promotion"), ("otp", "verification"))
    ),
    split=Split(
        "channel",
        (
            ("sms", "sms.send_sms", "Send a plain text message."),
            ("whatsapp", "sms.send_whatsapp", "Send a message on WhatsApp."),
        ),
    ),
    type_change=TypeChange(
        "validity",
        integer("Whole seconds after which an undelivered message is dropped, for example 3600."),
        scaled(3600),
        "hours -> integer seconds",
    ),
)

SMS_AUTHORED = Authored(
    base=SMS,
    extended=Extended(
        Deprecation("sms.messages.create"),
        Pagination(
            "sms.list_messages",
            "List the messages sent to one number, newest first.",
            "to",
            string("Recipient phone number in E.164 format."),
            (("+447700900123", "+447700900123"), ("+351912345678", "+351912345678"), ("+14165550199", "+14165550199")),
            "List the messages sent to {to}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "destination_country",
            enum(
                ["GB", "PT", "CA", "DE"],
                "Country of the recipient's number (ISO 3166-1 alpha-2): GB for +44, PT for +351, CA for +1, DE for "
                "+49.",
            ),
            "to",
            mapped({"+447700900123": "GB", "+351912345678": "PT", "+14165550199": "CA", "+4915112345678": "DE"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("to", ("to_number", "recipient")),
            Rename("body", ("text", "message")),
            Rename("content_class", ("category", "use_case")),
            Rename("validity", ("validity_hours", "ttl")),
        ),
        new_requireds=(
            NewRequired(
                "shorten_links",
                boolean("Replace links with short tracked links."),
                ((True, "Shorten the links in it."), (False, "Leave the links as they are.")),
            ),
            NewRequired(
                "max_price_cents",
                integer("Most the message may cost, in cents."),
                ((5, "It may cost at most 5 cents."), (12, "It may cost at most 12 cents.")),
            ),
            NewRequired(
                "campaign",
                string("Registered campaign the message belongs to."),
                (("C-ALERTS", "It belongs to campaign C-ALERTS."), ("C-PROMO", "It belongs to campaign C-PROMO.")),
            ),
            NewRequired(
                "language",
                enum(["en", "pt", "de"], "Language of the message, for carrier filtering."),
                (("pt", "It is written in Portuguese."), ("de", "It is written in German.")),
            ),
        ),
        enum_changes=(
            EnumChange(
                "content_class", (("transactional", "TRANSACTIONAL"), ("marketing", "MARKETING"), ("otp", "OTP"))
            ),
            EnumChange("content_class", (("transactional", "service"), ("marketing", "promotional"), ("otp", "2fa"))),
            EnumChange("channel", (("sms", "text"), ("whatsapp", "wa"))),
            EnumChange("channel", (("sms", "SMS"), ("whatsapp", "WHATSAPP"))),
        ),
        splits=(
            split_as(SMS, "channel", {"sms": "sms_messages.send", "whatsapp": "whatsapp_messages.send"}),
            split_as(
                SMS,
                "content_class",
                {"transactional": "sms.send_notification", "marketing": "sms.send_promotion", "otp": "sms.send_code"},
            ),
            split_as(SMS, "channel", {"sms": "sms.text", "whatsapp": "sms.whatsapp"}),
            split_as(
                SMS,
                "content_class",
                {"transactional": "sms_notices.send", "marketing": "sms_promotions.send", "otp": "sms_codes.send"},
            ),
        ),
        type_changes=(
            multi_select(SMS, "channel"),
            unit_object(SMS, "validity", "h"),
            wrap_text(SMS, "body", "text"),
            scaled_to(
                "validity", 60, "Whole minutes after which an undelivered message is dropped.", "hours -> minutes"
            ),
        ),
    ),
    no_call=NoCall(
        "missingRequired",
        notice="A message is sent only against the recipient's recorded opt-in.",
        explanation="consent_id is now required, has no default, and the request names no recorded opt-in",
        field="consent_id",
        schema=string(
            "Id of the recipient's recorded opt-in (consent_...). There is no default: without a recorded opt-in no "
            "message may be sent.",
            pattern=r"^consent_[a-z0-9]+$",
        ),
    ),
)

#: After Typeform's Create API (`POST /forms`, workspaces, themes, a response limit) and Google
#: Forms' sign-in requirement for identified responses.
FORMS = BaseSchema(
    id="forms",
    title="Forms and surveys",
    tool="forms.create_form",
    description="Create an online form.",
    version="1.8.0",
    properties={
        "title": string("Title shown at the top of the form."),
        "workspace_id": string("Workspace the form is kept in.", pattern=r"^ws_[a-z]+$"),
        "theme": enum(["light", "dark", "brand"], "Colour theme: light, dark, or the brand's colours."),
        "response_mode": enum(["anonymous", "identified"], "Collect answers anonymously, or from signed-in people."),
        "response_limit": integer("Responses after which the form closes.", 1),
        "redirect_url": string("Page shown after the last question."),
        "description": string("Text under the title."),
    },
    required=("title", "workspace_id", "theme", "response_mode", "response_limit"),
    pools=(
        verbatim(
            "title", ["Customer satisfaction survey", "Event registration", "Job application", "Product feedback"]
        ),
        verbatim("workspace_id", ["ws_marketing", "ws_people", "ws_product"]),
        said(
            "theme",
            [("light", "with the light theme"), ("dark", "with the dark theme"), ("brand", "in our brand colours")],
        ),
        said(
            "response_mode",
            [
                ("anonymous", "collecting answers anonymously"),
                ("identified", "asking people to sign in before answering"),
            ],
        ),
        said("response_limit", [(100, "100"), (500, "500"), (50, "50"), (1000, "1000")]),
        verbatim(
            "redirect_url",
            ["https://fjord.example/thanks", "https://kite.example/done", "https://basalt.example/merci"],
        ),
    ),
    template='Create the form "{title}" in workspace {workspace_id} {theme}, {response_mode}. Close it after '
    "{response_limit} responses and send people to {redirect_url} when they finish.",
    rename=Rename("title", ("name", "form_title")),
    new_required=NewRequired(
        "notify_email",
        string("Address told about each new response."),
        (
            ("events@fjord.example", "Tell events@fjord.example about each response."),
            ("people@kite.example", "Tell people@kite.example about each response."),
            ("research@basalt.example", "Tell research@basalt.example about each response."),
        ),
    ),
    enum_change=EnumChange("theme", (("light", "daylight"), ("dark", "night"), ("brand", "custom_brand"))),
    split=Split(
        "response_mode",
        (
            ("anonymous", "forms.create_anonymous_form", "Create a form that collects answers anonymously."),
            ("identified", "forms.create_identified_form", "Create a form that only signed-in people can answer."),
        ),
    ),
    type_change=TypeChange(
        "response_limit",
        {
            "type": "object",
            "properties": {"max": {"type": "integer", "minimum": 1}},
            "required": ["max"],
            "additionalProperties": False,
            "description": "Response limit as an object: the form closes after max responses.",
        },
        wrapped("max"),
        "integer -> object {max}",
    ),
)

FORMS_AUTHORED = Authored(
    base=FORMS,
    extended=Extended(
        Deprecation("forms.create"),
        Pagination(
            "forms.list",
            "List the forms of a workspace, newest first.",
            "workspace_id",
            string("Workspace to list."),
            (("ws_marketing", "ws_marketing"), ("ws_people", "ws_people"), ("ws_product", "ws_product")),
            "List the forms in workspace {workspace_id}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "oauth_scope",
            enum(
                ["forms:write", "forms.identified:write"],
                "OAuth scope the call acts under: forms:write for an anonymous form, forms.identified:write for one "
                "that collects who answered.",
            ),
            "response_mode",
            mapped({"anonymous": "forms:write", "identified": "forms.identified:write"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("workspace_id", ("workspace", "folder_id")),
            Rename("theme", ("theme_id", "style")),
            Rename("response_limit", ("max_responses", "cap")),
            Rename("redirect_url", ("thank_you_url", "redirect")),
        ),
        new_requireds=(
            NewRequired(
                "language",
                enum(["en", "pt", "de"], "Language of the form's buttons and messages."),
                (("pt", "The form is in Portuguese."), ("de", "The form is in German.")),
            ),
            NewRequired(
                "show_progress",
                boolean("Show a progress bar."),
                ((True, "Show a progress bar."), (False, "Hide the progress bar.")),
            ),
            NewRequired(
                "close_on",
                string("Last day the form accepts answers, YYYY-MM-DD.", pattern=DATE),
                (
                    ("2026-05-31", "Stop accepting answers after 31 May 2026."),
                    ("2026-11-15", "Stop accepting answers after 15 November 2026."),
                ),
            ),
            NewRequired(
                "owner_email",
                string("Who owns the form."),
                (
                    ("ana@fjord.example", "ana@fjord.example owns the form."),
                    ("raj@kite.example", "raj@kite.example owns it."),
                ),
            ),
        ),
        enum_changes=(
            EnumChange("theme", (("light", "LIGHT"), ("dark", "DARK"), ("brand", "BRAND"))),
            EnumChange("theme", (("light", "white"), ("dark", "black"), ("brand", "branded"))),
            EnumChange("response_mode", (("anonymous", "anon"), ("identified", "signed_in"))),
            EnumChange("response_mode", (("anonymous", "ANONYMOUS"), ("identified", "IDENTIFIED"))),
        ),
        splits=(
            split_as(
                FORMS, "response_mode", {"anonymous": "anonymous_forms.create", "identified": "identified_forms.create"}
            ),
            split_as(
                FORMS,
                "theme",
                {"light": "forms.create_light", "dark": "forms.create_dark", "brand": "forms.create_branded"},
            ),
            split_as(
                FORMS,
                "response_mode",
                {"anonymous": "surveys.create_anonymous", "identified": "surveys.create_signed_in"},
            ),
            split_as(
                FORMS,
                "theme",
                {"light": "light_forms.create", "dark": "dark_forms.create", "brand": "branded_forms.create"},
            ),
        ),
        type_changes=(
            multi_select(FORMS, "theme"),
            wrap_text(FORMS, "title", "text"),
            unit_object(FORMS, "response_limit", "responses"),
            wrap_text(FORMS, "redirect_url", "href"),
        ),
    ),
    no_call=NoCall(
        "removed",
        notice="forms.create_form was removed in 2.0.0 with no replacement: forms are now built only in the form "
        "designer.",
        explanation="the tool that created forms was removed with no successor",
        remaining=(
            Endpoint(
                "forms.get_form",
                "Read one form and its questions.",
                {"form_id": string("The form to read.")},
                ("form_id",),
            ),
            Endpoint(
                "forms.list_responses",
                "List the responses a form has collected.",
                {"form_id": string("The form whose responses are listed.")},
                ("form_id",),
            ),
        ),
    ),
)

#: After Segment's track call (`userId` or `anonymousId`, one write key per source), Mixpanel's
#: `distinct_id` and `$insert_id`, and Google Ads' values in micros.
ANALYTICS = BaseSchema(
    id="analytics",
    title="Product analytics",
    tool="analytics.track_event",
    description="Record something a user did.",
    version="4.3.0",
    properties={
        "user_id": string("Id of the user or of the anonymous visitor."),
        "event": string("Name of the action, in Title Case."),
        "source": enum(["web", "ios", "android"], "Where the action happened."),
        "identity": enum(["known", "anonymous"], "Whether user_id is a signed-in user or an anonymous visitor."),
        "value": {"type": "number", "minimum": 0, "description": "Money value of the action in dollars."},
    },
    required=("user_id", "event", "source", "identity", "value"),
    pools=(
        together(
            [
                ({"user_id": "u_18342", "identity": "known"}, {"identity": "signed-in user"}),
                ({"user_id": "u_90017", "identity": "known"}, {"identity": "signed-in user"}),
                ({"user_id": "anon_7f3c1e", "identity": "anonymous"}, {"identity": "anonymous visitor"}),
                ({"user_id": "anon_a90b22", "identity": "anonymous"}, {"identity": "anonymous visitor"}),
            ]
        ),
        verbatim("event", ["Order Completed", "Trial Started", "Checkout Viewed", "Plan Upgraded"]),
        said("source", [("web", "on the website"), ("ios", "in the iPhone app"), ("android", "in the Android app")]),
        said("value", [(49.9, "$49.90"), (12.5, "$12.50"), (199, "$199"), (3.99, "$3.99")]),
    ),
    template="Record the event {event} for {identity} {user_id}, {source}, worth {value}.",
    rename=Rename("event", ("event_name", "action")),
    new_required=NewRequired(
        "session_id",
        string("Session the action belongs to."),
        (
            ("s_5521a", "It happened in session s_5521a."),
            ("s_90b3c", "It happened in session s_90b3c."),
            ("s_17e4d", "It happened in session s_17e4d."),
        ),
    ),
    enum_change=EnumChange("source", (("web", "browser"), ("ios", "ios_app"), ("android", "android_app"))),
    split=Split(
        "identity",
        (
            ("known", "analytics.track_user", "Record an action of a signed-in user."),
            ("anonymous", "analytics.track_anonymous", "Record an action of an anonymous visitor."),
        ),
    ),
    type_change=TypeChange(
        "value",
        integer("Money value of the action in whole micros (millionths of a dollar), for example 12500000."),
        scaled(1_000_000),
        "dollars -> integer micros",
    ),
)

ANALYTICS_AUTHORED = Authored(
    base=ANALYTICS,
    extended=Extended(
        Deprecation("analytics.track"),
        Pagination(
            "analytics.list_events",
            "List the recorded actions of one name, newest first.",
            "event",
            string("Name of the action."),
            (
                ("Order Completed", "Order Completed"),
                ("Trial Started", "Trial Started"),
                ("Plan Upgraded", "Plan Upgraded"),
            ),
            "List the recorded {event} events: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "write_key",
            enum(
                ["wk_web", "wk_ios", "wk_android"],
                "Write key of the source the action comes from: wk_web for the website, wk_ios for the iPhone app, "
                "wk_android for the Android app.",
            ),
            "source",
            mapped({"web": "wk_web", "ios": "wk_ios", "android": "wk_android"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("user_id", ("distinct_id", "actor_id")),
            Rename("source", ("platform", "channel")),
            Rename("value", ("revenue", "amount")),
            Rename("identity", ("id_type", "user_type")),
        ),
        new_requireds=(
            NewRequired(
                "consent_analytics",
                boolean("Whether the person agreed to analytics tracking."),
                ((True, "They agreed to analytics tracking."), (False, "They declined analytics tracking.")),
            ),
            NewRequired(
                "app_version",
                string("Version of the app that recorded the action.", pattern=r"^\d+\.\d+\.\d+$"),
                (("5.2.0", "It came from app version 5.2.0."), ("4.9.3", "It came from app version 4.9.3.")),
            ),
            NewRequired(
                "country",
                enum(["PT", "GB", "US"], "Country the action happened in."),
                (("PT", "It happened in Portugal."), ("GB", "It happened in the United Kingdom.")),
            ),
            NewRequired(
                "insert_id",
                string("Unique id that stops the same action being counted twice."),
                (
                    ("ev-8812-x", "Use the deduplication id ev-8812-x."),
                    ("ev-2274-q", "Use the deduplication id ev-2274-q."),
                ),
            ),
        ),
        enum_changes=(
            EnumChange("source", (("web", "WEB"), ("ios", "IOS"), ("android", "ANDROID"))),
            EnumChange("source", (("web", "www"), ("ios", "apple"), ("android", "google"))),
            EnumChange("identity", (("known", "identified"), ("anonymous", "anon"))),
            EnumChange("identity", (("known", "user_id"), ("anonymous", "anonymous_id"))),
        ),
        splits=(
            split_as(
                ANALYTICS, "identity", {"known": "identified_events.track", "anonymous": "anonymous_events.track"}
            ),
            split_as(
                ANALYTICS,
                "source",
                {"web": "analytics.track_web", "ios": "analytics.track_ios", "android": "analytics.track_android"},
            ),
            split_as(
                ANALYTICS, "identity", {"known": "analytics.identify_and_track", "anonymous": "analytics.track_visitor"}
            ),
            split_as(
                ANALYTICS,
                "source",
                {"web": "web_events.track", "ios": "ios_events.track", "android": "android_events.track"},
            ),
        ),
        type_changes=(
            scaled_to("value", 100, "Money value in whole cents, for example 4990.", "dollars -> integer cents"),
            TypeChange(
                "value",
                {
                    "type": "string",
                    "pattern": r"^\d+\.\d{2}$",
                    "description": 'Money value in dollars as a decimal string with two decimals, for example "49.90".',
                },
                decimal_string,
                "number -> decimal string with two decimals",
            ),
            multi_select(ANALYTICS, "source"),
            wrap_text(ANALYTICS, "event", "name"),
        ),
    ),
    no_call=NoCall(
        "removed",
        notice="analytics.track_event was removed in 5.0.0 with no replacement: actions are now recorded only by "
        "the client libraries inside the apps.",
        explanation="the tool that recorded actions was removed with no successor",
        remaining=(
            Endpoint(
                "analytics.get_profile",
                "Read the profile of a user or visitor.",
                {"user_id": string("Id of the user or visitor.")},
                ("user_id",),
            ),
            Endpoint(
                "analytics.delete_user_data",
                "Delete everything recorded about a user or visitor.",
                {"user_id": string("Id of the user or visitor.")},
                ("user_id",),
            ),
        ),
    ),
)
