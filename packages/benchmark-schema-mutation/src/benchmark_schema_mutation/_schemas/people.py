"""People: HR records, video meetings, single sign-on accounts, e-signature.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project. The schemas added for the full split say
which public API's shape and migrations they follow."""

from __future__ import annotations

from .build import (
    DATE,
    LOCAL_TIME,
    as_text,
    boolean,
    comma_list,
    date_object,
    date_parts,
    datetime_object,
    datetime_parts,
    domain,
    enum,
    integer,
    mapped,
    multi_select,
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

#: After BambooHR's and HiBob's employee APIs (employment status, pay type, weekly hours) and
#: Workday's worker types (regular and contingent workers).
HR = BaseSchema(
    id="hr",
    title="HR records",
    tool="hr.create_employee",
    description="Add a new hire to the people directory.",
    version="5.4.0",
    properties={
        "name": string("The person's name as they write it."),
        "work_email": string("Work email address.", pattern=r"^[^@\s]+@[^@\s]+$"),
        "department": string("Department the person joins."),
        "employment_type": enum(["full_time", "part_time", "contractor"], "The kind of contract."),
        "pay_basis": enum(["salaried", "hourly"], "Paid a salary, or by the hour."),
        "weekly_hours": {"type": "number", "minimum": 0, "description": "Contracted hours a week, for example 37.5."},
        "start_date": string("First working day, YYYY-MM-DD.", pattern=DATE),
        "manager_email": string("Work email of the person's manager."),
    },
    required=("name", "work_email", "employment_type", "pay_basis", "weekly_hours", "start_date"),
    pools=(
        together(
            [
                ({"name": "Lea Hoffmann", "work_email": "lea.hoffmann@fjord.example"}, {}),
                ({"name": "Kwame Mensah", "work_email": "k.mensah@fjord.example"}, {}),
                ({"name": "Sofia Rossi", "work_email": "sofia.rossi@fjord.example"}, {}),
                ({"name": "Arjun Patel", "work_email": "arjun.p@fjord.example"}, {}),
            ]
        ),
        verbatim("department", ["Finance", "Engineering", "Customer Success"]),
        said(
            "employment_type",
            [
                ("full_time", "a full-time employee"),
                ("part_time", "a part-time employee"),
                ("contractor", "a contractor"),
            ],
        ),
        said("pay_basis", [("salaried", "on a salary"), ("hourly", "paid by the hour")]),
        said("weekly_hours", [(40, "40 hours"), (37.5, "37.5 hours"), (20, "20 hours"), (24.5, "24.5 hours")]),
        said(
            "start_date",
            [("2026-04-01", "1 April 2026"), ("2026-06-15", "15 June 2026"), ("2026-09-01", "1 September 2026")],
        ),
    ),
    template="Add {name} ({work_email}) to {department} as {employment_type}, {pay_basis}, working {weekly_hours} a "
    "week from {start_date}.",
    rename=Rename("work_email", ("email", "business_email")),
    new_required=NewRequired(
        "job_title",
        string("Job title on the contract."),
        (
            ("Financial Analyst", "Their job title is Financial Analyst."),
            ("Backend Engineer", "Their job title is Backend Engineer."),
            ("Support Specialist", "Their job title is Support Specialist."),
        ),
    ),
    enum_change=EnumChange(
        "employment_type", (("full_time", "regular"), ("part_time", "reduced_hours"), ("contractor", "contingent"))
    ),
    split=Split(
        "pay_basis",
        (
            ("salaried", "hr.hire_salaried", "Add a new hire who is paid a salary."),
            ("hourly", "hr.hire_hourly", "Add a new hire who is paid by the hour."),
        ),
    ),
    type_change=TypeChange(
        "weekly_hours",
        integer("Contracted minutes a week, for example 2250 for 37.5 hours."),
        scaled(60),
        "hours -> integer minutes",
    ),
)

HR_AUTHORED = Authored(
    base=HR,
    extended=Extended(
        Deprecation("hr.employees.create"),
        Pagination(
            "hr.list_employees",
            "List the people in a department, by name.",
            "department",
            string("Department to list."),
            (("Finance", "Finance"), ("Engineering", "Engineering"), ("Customer Success", "Customer Success")),
            "List the people in {department}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "oauth_scope",
            enum(
                ["employees:write", "contractors:write"],
                "OAuth scope the call acts under: employees:write for full-time and part-time employees, "
                "contractors:write for contractors.",
            ),
            "employment_type",
            mapped({"full_time": "employees:write", "part_time": "employees:write", "contractor": "contractors:write"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("name", ("full_name", "legal_name")),
            Rename("department", ("team", "org_unit")),
            Rename("employment_type", ("worker_type", "contract")),
            Rename("start_date", ("hire_date", "first_day")),
        ),
        new_requireds=(
            NewRequired(
                "probation_months",
                integer("Length of the probation period in months."),
                ((3, "Their probation lasts 3 months."), (6, "Their probation lasts 6 months.")),
            ),
            NewRequired(
                "remote",
                boolean("Whether the person works remotely."),
                ((True, "They work remotely."), (False, "They work from the office.")),
            ),
            NewRequired(
                "location",
                enum(["lisbon", "berlin", "toronto"], "Office the person belongs to."),
                (("berlin", "They belong to the Berlin office."), ("lisbon", "They belong to the Lisbon office.")),
            ),
            NewRequired(
                "cost_center",
                string("Cost centre that pays for the role.", pattern=r"^CC-\d{4}$"),
                (
                    ("CC-4100", "Charge the role to cost centre CC-4100."),
                    ("CC-7320", "Charge it to cost centre CC-7320."),
                ),
            ),
        ),
        enum_changes=(
            EnumChange(
                "employment_type",
                (("full_time", "FULL_TIME"), ("part_time", "PART_TIME"), ("contractor", "CONTRACTOR")),
            ),
            EnumChange("employment_type", (("full_time", "FT"), ("part_time", "PT"), ("contractor", "CT"))),
            EnumChange("pay_basis", (("salaried", "annual"), ("hourly", "per_hour"))),
            EnumChange("pay_basis", (("salaried", "exempt"), ("hourly", "non_exempt"))),
        ),
        splits=(
            split_as(HR, "pay_basis", {"salaried": "salaried_hires.create", "hourly": "hourly_hires.create"}),
            split_as(
                HR,
                "employment_type",
                {
                    "full_time": "hr.hire_full_time",
                    "part_time": "hr.hire_part_time",
                    "contractor": "hr.engage_contractor",
                },
            ),
            split_as(HR, "pay_basis", {"salaried": "hr.add_salaried_worker", "hourly": "hr.add_hourly_worker"}),
            split_as(
                HR,
                "employment_type",
                {
                    "full_time": "full_time_staff.add",
                    "part_time": "part_time_staff.add",
                    "contractor": "contractors.add",
                },
            ),
        ),
        type_changes=(
            TypeChange(
                "start_date",
                date_object("First working day as separate year, month and day numbers."),
                date_parts,
                "YYYY-MM-DD string -> {year, month, day} object",
            ),
            unit_object(HR, "weekly_hours", "h"),
            wrap_text(HR, "name", "display"),
            multi_select(HR, "employment_type"),
        ),
    ),
    no_call=NoCall(
        "missingRequired",
        notice="Every new hire is registered with their tax number before payroll can run.",
        explanation="tax_id is now required, has no default, and only the new hire can give it",
        field="tax_id",
        schema=string(
            "The new hire's personal tax number, as on their tax documents. There is no default: it must come from "
            "the person."
        ),
    ),
)

#: After Zoom's Meetings API (`POST /users/{userId}/meetings`, passcodes as strings, the waiting
#: room setting, next_page_token pagination since 2020) and Google Meet's recording settings.
MEETINGS = BaseSchema(
    id="meetings",
    title="Video meetings",
    tool="meetings.create_meeting",
    description="Schedule a video meeting.",
    version="2.2.0",
    properties={
        "host_email": string("Email of the user who hosts the meeting."),
        "topic": string("Meeting name shown to attendees."),
        "start": string("Local start time, YYYY-MM-DDTHH:MM.", pattern=LOCAL_TIME),
        "duration": {"type": "number", "minimum": 0, "description": "Length in hours, for example 1.5."},
        "recording": enum(["none", "local", "cloud"], "Whether and where the meeting is recorded."),
        "join_policy": enum(["open", "waiting_room"], "Attendees join at once, or wait until the host admits them."),
        "passcode": integer("Six-digit code attendees enter to join.", 100000),
        "agenda": string("Agenda shown in the invitation."),
    },
    required=("host_email", "topic", "start", "duration", "recording", "join_policy", "passcode"),
    pools=(
        verbatim("host_email", ["priya@fjord.example", "lars@kite.example", "amara@basalt.example"]),
        verbatim("topic", ["Sprint review", "Customer onboarding: Quill", "Board prep", "Hiring debrief"]),
        said(
            "start",
            [
                ("2026-02-03T10:00", "on 3 February 2026 at 10:00"),
                ("2026-06-18T15:30", "on 18 June 2026 at 15:30"),
                ("2026-10-27T08:45", "on 27 October 2026 at 08:45"),
            ],
        ),
        said("duration", [(1, "an hour"), (0.5, "half an hour"), (1.5, "an hour and a half"), (0.25, "15 minutes")]),
        said(
            "recording",
            [
                ("none", "not recorded"),
                ("local", "recorded on the host's computer"),
                ("cloud", "recorded to the cloud"),
            ],
        ),
        said(
            "join_policy",
            [("open", "people join straight in"), ("waiting_room", "people wait in a waiting room until admitted")],
        ),
        said("passcode", [(482913, "482913"), (105577, "105577"), (930264, "930264")]),
    ),
    template='Schedule a video meeting "{topic}" hosted by {host_email} {start} for {duration}, {recording}; '
    "{join_policy}. The passcode is {passcode}.",
    rename=Rename("topic", ("title", "subject")),
    new_required=NewRequired(
        "alternative_host",
        string("Email of a second person who may start the meeting."),
        (
            ("noor@fjord.example", "noor@fjord.example may also start it."),
            ("ben@kite.example", "ben@kite.example may also start it."),
            ("yuki@basalt.example", "yuki@basalt.example may also start it."),
        ),
    ),
    enum_change=EnumChange("recording", (("none", "off"), ("local", "on_device"), ("cloud", "in_cloud"))),
    split=Split(
        "join_policy",
        (
            ("open", "meetings.create_open_meeting", "Schedule a meeting attendees join at once."),
            ("waiting_room", "meetings.create_gated_meeting", "Schedule a meeting with a waiting room."),
        ),
    ),
    type_change=TypeChange(
        "passcode",
        {
            "type": "string",
            "pattern": r"^\d{6}$",
            "description": 'Six-digit passcode as a string, for example "123456".',
        },
        as_text,
        "integer -> string of digits",
    ),
)

MEETINGS_AUTHORED = Authored(
    base=MEETINGS,
    extended=Extended(
        Deprecation("meetings.schedule"),
        Pagination(
            "meetings.list",
            "List the upcoming meetings of a host, in start order.",
            "host_email",
            string("Email of the host."),
            (
                ("priya@fjord.example", "priya@fjord.example"),
                ("lars@kite.example", "lars@kite.example"),
                ("amara@basalt.example", "amara@basalt.example"),
            ),
            "List the meetings hosted by {host_email}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "account_domain",
            string(
                "Account the meeting belongs to: the domain of the host's email (fjord.example for a@fjord.example)."
            ),
            "host_email",
            domain,
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("host_email", ("host", "owner_email")),
            Rename("start", ("start_time", "begins_at")),
            Rename("duration", ("length", "duration_hours")),
            Rename("recording", ("auto_recording", "record")),
        ),
        new_requireds=(
            NewRequired(
                "mute_on_entry",
                boolean("Mute attendees as they join."),
                ((True, "Mute people as they join."), (False, "Do not mute people as they join.")),
            ),
            NewRequired(
                "max_participants",
                integer("Most people who may join.", 2),
                ((25, "Allow at most 25 people."), (100, "Allow at most 100 people.")),
            ),
            NewRequired(
                "data_region",
                enum(["eu", "us"], "Where the meeting's media is routed and stored."),
                (("eu", "Keep its data in the EU."), ("us", "Keep its data in the US.")),
            ),
            NewRequired(
                "breakout_rooms",
                integer("Breakout rooms prepared in advance."),
                ((0, "Prepare no breakout rooms (0)."), (4, "Prepare 4 breakout rooms.")),
            ),
        ),
        enum_changes=(
            EnumChange("recording", (("none", "NONE"), ("local", "LOCAL"), ("cloud", "CLOUD"))),
            EnumChange("recording", (("none", "disabled"), ("local", "computer"), ("cloud", "server"))),
            EnumChange("join_policy", (("open", "direct"), ("waiting_room", "lobby"))),
            EnumChange("join_policy", (("open", "OPEN"), ("waiting_room", "WAITING_ROOM"))),
        ),
        splits=(
            split_as(
                MEETINGS, "join_policy", {"open": "open_meetings.create", "waiting_room": "gated_meetings.create"}
            ),
            split_as(
                MEETINGS,
                "recording",
                {
                    "none": "meetings.create_unrecorded",
                    "local": "meetings.create_recorded_locally",
                    "cloud": "meetings.create_cloud_recorded",
                },
            ),
            split_as(
                MEETINGS, "join_policy", {"open": "meetings.host_open", "waiting_room": "meetings.host_with_lobby"}
            ),
            split_as(
                MEETINGS,
                "recording",
                {
                    "none": "unrecorded_meetings.create",
                    "local": "locally_recorded_meetings.create",
                    "cloud": "cloud_recorded_meetings.create",
                },
            ),
        ),
        type_changes=(
            scaled_to("duration", 60, "Length in whole minutes, for example 90.", "hours -> integer minutes"),
            TypeChange(
                "start",
                datetime_object("Local start as separate date (YYYY-MM-DD) and time (HH:MM)."),
                datetime_parts,
                "YYYY-MM-DDTHH:MM string -> {date, time} object",
            ),
            multi_select(MEETINGS, "recording"),
            wrap_text(MEETINGS, "topic", "text"),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the OAuth scope meeting:write:meeting.",
        explanation="scheduling a meeting needs meeting:write:meeting and the caller's app can only read",
        sentence="Our app was granted the meeting:read:meeting and user:read:user scopes only.",
        scope="meeting:write:meeting",
        granted=("meeting:read:meeting", "user:read:user"),
    ),
)

#: After Okta's Users API (`activate=false` for staged users, factor enrollment, group ids) and
#: SCIM 2.0's `name.formatted` and multi-valued attributes.
SSO = BaseSchema(
    id="sso",
    title="Single sign-on",
    tool="identity.create_user",
    description="Create a sign-on account for a person.",
    version="3.0.1",
    properties={
        "login": string("Sign-in name, the person's work email.", pattern=r"^[^@\s]+@[^@\s]+$"),
        "display_name": string("Name shown in the apps."),
        "department": string("Department recorded on the profile."),
        "groups": string('Groups as one comma-separated string without spaces, for example "sales,vpn".'),
        "mfa": enum(["none", "totp", "webauthn"], "Second factor required at sign-in."),
        "activation": enum(["activate_now", "send_invite"], "Activate at once, or invite the person to set it up."),
        "session_hours": {"type": "number", "minimum": 0, "description": "Hours a sign-in stays valid."},
    },
    required=("login", "display_name", "groups", "mfa", "activation"),
    pools=(
        together(
            [
                ({"login": "r.silva@kite.example", "display_name": "Rita Silva"}, {}),
                ({"login": "j.obi@kite.example", "display_name": "James Obi"}, {}),
                ({"login": "h.tanaka@kite.example", "display_name": "Hana Tanaka"}, {}),
                ({"login": "m.novak@kite.example", "display_name": "Marek Novak"}, {}),
            ]
        ),
        verbatim("department", ["Engineering", "Finance", "Support"]),
        said(
            "groups",
            [
                ("engineering,vpn-users", "engineering and vpn-users"),
                ("finance", "finance"),
                ("support,helpdesk-agents", "support and helpdesk-agents"),
            ],
        ),
        said(
            "mfa",
            [
                ("none", "with no second factor"),
                ("totp", "with an authenticator app as the second factor"),
                ("webauthn", "with a security key as the second factor"),
            ],
        ),
        said(
            "activation",
            [
                ("activate_now", "Activate the account right away."),
                ("send_invite", "Email them an invitation to set it up."),
            ],
        ),
    ),
    template="Create a sign-on account for {display_name} ({login}) in {department}, in the groups {groups}, {mfa}. "
    "{activation}",
    rename=Rename("display_name", ("name", "full_name")),
    new_required=NewRequired(
        "employee_number",
        string("Number from the HR system.", pattern=r"^\d{6}$"),
        (
            ("104233", "Their employee number is 104233."),
            ("118902", "Their employee number is 118902."),
            ("120457", "Their employee number is 120457."),
        ),
    ),
    enum_change=EnumChange("mfa", (("none", "off"), ("totp", "authenticator_app"), ("webauthn", "security_key"))),
    split=Split(
        "activation",
        (
            ("activate_now", "identity.create_active_user", "Create an account that is active at once."),
            ("send_invite", "identity.invite_user", "Create an account and email the person an invitation."),
        ),
    ),
    type_change=TypeChange(
        "groups",
        {"type": "array", "items": {"type": "string"}, "description": "Groups, one per item."},
        comma_list,
        "comma-separated string -> array of strings",
    ),
)

SSO_AUTHORED = Authored(
    base=SSO,
    extended=Extended(
        Deprecation("identity.users.create"),
        Pagination(
            "identity.list_users",
            "List the members of a group, by sign-in name.",
            "group",
            string("Group to list."),
            (("engineering", "engineering"), ("finance", "finance"), ("support", "support")),
            "List the users in the {group} group: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "sign_on_policy",
            enum(
                ["policy_basic", "policy_mfa", "policy_phishing_resistant"],
                "Sign-on policy the account is put under: policy_basic with no second factor, policy_mfa with an "
                "authenticator app, policy_phishing_resistant with a security key.",
            ),
            "mfa",
            mapped({"none": "policy_basic", "totp": "policy_mfa", "webauthn": "policy_phishing_resistant"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("login", ("username", "email")),
            Rename("groups", ("group_ids", "memberships")),
            Rename("mfa", ("second_factor", "mfa_factor")),
            Rename("department", ("org_unit", "division")),
        ),
        new_requireds=(
            NewRequired(
                "locale",
                enum(["en_GB", "pt_PT", "ja_JP"], "Language and region of the person's apps."),
                (
                    ("pt_PT", "Set their locale to Portuguese (pt_PT)."),
                    ("ja_JP", "Set their locale to Japanese (ja_JP)."),
                ),
            ),
            NewRequired(
                "manager_login",
                string("Sign-in name of the person's manager."),
                (
                    ("a.costa@kite.example", "Their manager is a.costa@kite.example."),
                    ("p.shah@kite.example", "Their manager is p.shah@kite.example."),
                ),
            ),
            NewRequired(
                "admin",
                boolean("Whether the account may administer the directory."),
                ((False, "They are not an administrator."), (True, "Make them an administrator.")),
            ),
            NewRequired(
                "expires_on",
                string("Last day the account works, YYYY-MM-DD.", pattern=DATE),
                (
                    ("2026-12-31", "The account ends on 31 December 2026."),
                    ("2027-06-30", "The account ends on 30 June 2027."),
                ),
            ),
        ),
        enum_changes=(
            EnumChange("mfa", (("none", "NONE"), ("totp", "TOTP"), ("webauthn", "WEBAUTHN"))),
            EnumChange("mfa", (("none", "password_only"), ("totp", "otp"), ("webauthn", "fido2"))),
            EnumChange("activation", (("activate_now", "active"), ("send_invite", "staged"))),
            EnumChange("activation", (("activate_now", "immediate"), ("send_invite", "invite"))),
        ),
        splits=(
            split_as(SSO, "activation", {"activate_now": "active_users.create", "send_invite": "invitations.send"}),
            split_as(
                SSO,
                "mfa",
                {
                    "none": "identity.create_password_user",
                    "totp": "identity.create_totp_user",
                    "webauthn": "identity.create_webauthn_user",
                },
            ),
            split_as(
                SSO, "activation", {"activate_now": "identity.provision_user", "send_invite": "identity.stage_user"}
            ),
            split_as(
                SSO,
                "mfa",
                {"none": "basic_accounts.create", "totp": "otp_accounts.create", "webauthn": "key_accounts.create"},
            ),
        ),
        type_changes=(
            multi_select(SSO, "mfa"),
            wrap_text(SSO, "display_name", "formatted"),
            multi_select(SSO, "activation"),
            wrap_text(SSO, "login", "value"),
        ),
    ),
    no_call=NoCall(
        "removed",
        notice="identity.create_user was removed in 4.0.0 with no replacement: accounts are now created only by "
        "the HR system's SCIM provisioning.",
        explanation="the tool that created accounts was removed with no successor",
        remaining=(
            Endpoint(
                "identity.get_user",
                "Read one account.",
                {"login": string("Sign-in name of the account.")},
                ("login",),
            ),
            Endpoint(
                "identity.suspend_user",
                "Suspend an account so it can no longer sign in.",
                {"login": string("Sign-in name of the account.")},
                ("login",),
            ),
        ),
    ),
)

#: After DocuSign's eSignature envelopes API (`status: sent`, embedded signing through a recipient
#: view, identity verification, expiry) and Dropbox Sign's signature requests.
ESIGN = BaseSchema(
    id="esign",
    title="E-signature",
    tool="esign.create_envelope",
    description="Send a document to be signed.",
    version="2.1.0",
    properties={
        "document_id": string("The uploaded document.", pattern=r"^doc_[a-z0-9_]+$"),
        "email_subject": string("Subject of the email that asks for the signature."),
        "signer_name": string("Name of the person who signs."),
        "signer_email": string("Email of the person who signs."),
        "auth": enum(["none", "sms_code", "id_check"], "How the signer's identity is checked before signing."),
        "delivery": enum(["email", "embedded"], "The signer follows an emailed link, or signs inside our app."),
        "expires_in": {"type": "number", "minimum": 0, "description": "Weeks until the request expires."},
        "message": string("Text shown to the signer."),
    },
    required=("document_id", "email_subject", "signer_name", "signer_email", "auth", "delivery", "expires_in"),
    pools=(
        verbatim("document_id", ["doc_msa_2026", "doc_nda_fjord", "doc_offer_k7", "doc_lease_b12"]),
        verbatim(
            "email_subject", ["Please sign: services agreement", "Your NDA with Fjord", "Offer letter", "Lease renewal"]
        ),
        together(
            [
                ({"signer_name": "Olga Ivanova", "signer_email": "olga@quill.example"}, {}),
                ({"signer_name": "Ravi Kumar", "signer_email": "ravi.kumar@lumen.example"}, {}),
                ({"signer_name": "Emma Clarke", "signer_email": "emma.c@northwind.example"}, {}),
                ({"signer_name": "Diego Marín", "signer_email": "diego@orbit.example"}, {}),
            ]
        ),
        said(
            "auth",
            [
                ("none", "with no extra identity check"),
                ("sms_code", "checked with a code sent by text message"),
                ("id_check", "checked against a photo ID"),
            ],
        ),
        said("delivery", [("email", "send them the link by email"), ("embedded", "they sign inside our app")]),
        said("expires_in", [(1, "a week"), (2, "two weeks"), (4, "four weeks"), (3, "three weeks")]),
    ),
    template='Send {document_id} to {signer_name} ({signer_email}) for signature with the subject "{email_subject}", '
    "{auth}; {delivery}. It expires after {expires_in}.",
    rename=Rename("email_subject", ("subject", "email_title")),
    new_required=NewRequired(
        "cc_email",
        string("Address that gets a copy of the signed document."),
        (
            ("legal@fjord.example", "Copy legal@fjord.example on it."),
            ("contracts@kite.example", "Copy contracts@kite.example on it."),
            ("hr@basalt.example", "Copy hr@basalt.example on it."),
        ),
    ),
    enum_change=EnumChange(
        "auth", (("none", "email_only"), ("sms_code", "phone_otp"), ("id_check", "id_verification"))
    ),
    split=Split(
        "delivery",
        (
            ("email", "esign.send_by_email", "Send a document to be signed through an emailed link."),
            ("embedded", "esign.create_embedded_signing", "Prepare a document to be signed inside our app."),
        ),
    ),
    type_change=TypeChange(
        "expires_in",
        integer("Whole days until the request expires, for example 14."),
        scaled(7),
        "weeks -> integer days",
    ),
)

ESIGN_AUTHORED = Authored(
    base=ESIGN,
    extended=Extended(
        Deprecation("esign.envelopes.create"),
        Pagination(
            "esign.list_envelopes",
            "List the signature requests sent to one signer, newest first.",
            "signer_email",
            string("Email of the signer."),
            (
                ("olga@quill.example", "olga@quill.example"),
                ("ravi.kumar@lumen.example", "ravi.kumar@lumen.example"),
                ("diego@orbit.example", "diego@orbit.example"),
            ),
            "List the signature requests sent to {signer_email}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "oauth_scope",
            enum(
                ["signature", "signature.embedded"],
                "OAuth scope the call acts under: signature for emailed requests, signature.embedded for signing "
                "inside our app.",
            ),
            "delivery",
            mapped({"email": "signature", "embedded": "signature.embedded"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("document_id", ("document", "file_id")),
            Rename("signer_email", ("recipient_email", "email")),
            Rename("auth", ("identity_check", "verification")),
            Rename("expires_in", ("expiry_weeks", "valid_for")),
        ),
        new_requireds=(
            NewRequired(
                "reminder_days",
                integer("Days between reminders while the document is unsigned.", 1),
                ((3, "Remind them every 3 days."), (7, "Remind them every 7 days.")),
            ),
            NewRequired(
                "language",
                enum(["en", "pt", "de"], "Language of the signing pages."),
                (("pt", "Show the signing pages in Portuguese."), ("de", "Show the signing pages in German.")),
            ),
            NewRequired(
                "in_person",
                boolean("Whether the signer signs in front of a host."),
                ((False, "They sign remotely."), (True, "They sign in person, in front of a host.")),
            ),
            NewRequired(
                "matter_ref",
                string("Legal matter the document belongs to.", pattern=r"^M-\d{4}$"),
                (("M-2207", "File it under matter M-2207."), ("M-3981", "File it under matter M-3981.")),
            ),
        ),
        enum_changes=(
            EnumChange("auth", (("none", "NONE"), ("sms_code", "SMS_CODE"), ("id_check", "ID_CHECK"))),
            EnumChange("auth", (("none", "basic"), ("sms_code", "sms"), ("id_check", "idv"))),
            EnumChange("delivery", (("email", "remote"), ("embedded", "in_app"))),
            EnumChange("delivery", (("email", "EMAIL"), ("embedded", "EMBEDDED"))),
        ),
        splits=(
            split_as(ESIGN, "delivery", {"email": "remote_envelopes.send", "embedded": "embedded_envelopes.create"}),
            split_as(
                ESIGN,
                "auth",
                {
                    "none": "esign.send_unverified",
                    "sms_code": "esign.send_with_sms_check",
                    "id_check": "esign.send_with_id_check",
                },
            ),
            split_as(ESIGN, "delivery", {"email": "esign.email_for_signature", "embedded": "esign.sign_in_app"}),
            split_as(
                ESIGN,
                "auth",
                {"none": "basic_envelopes.send", "sms_code": "sms_envelopes.send", "id_check": "idv_envelopes.send"},
            ),
        ),
        type_changes=(
            multi_select(ESIGN, "auth"),
            unit_object(ESIGN, "expires_in", "weeks"),
            wrap_text(ESIGN, "email_subject", "text"),
            scaled_to("expires_in", 168, "Whole hours until the request expires.", "weeks -> integer hours"),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the OAuth scope signature.",
        explanation="sending a document for signature needs the signature scope, which the caller's key lacks",
        sentence="The integration key I use was granted only the click.manage and organization_read scopes.",
        scope="signature",
        granted=("click.manage", "organization_read"),
    ),
)
