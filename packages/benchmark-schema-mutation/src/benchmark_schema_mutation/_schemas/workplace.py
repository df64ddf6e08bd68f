"""Workplace: calendars, time off, team chat.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project. The schemas added for the full split say
which public API's shape and migrations they follow."""

from __future__ import annotations

from .build import (
    DATE,
    LOCAL_TIME,
    boolean,
    date_object,
    date_parts,
    datetime_object,
    datetime_parts,
    domain,
    enum,
    integer,
    mapped,
    multi_select,
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

#: Shaped like Google Calendar's events.insert (summary, start, transparency, event types).
CALENDAR = BaseSchema(
    id="calendar",
    title="Calendar",
    tool="calendar.create_event",
    description="Add an event to a calendar.",
    version="5.0.1",
    properties={
        "calendar_id": string("Calendar to add the event to, usually its owner's email address."),
        "title": string("Event name shown on the calendar."),
        "start": string("Local start time, YYYY-MM-DDTHH:MM.", pattern=LOCAL_TIME),
        "duration": {"type": "number", "minimum": 0, "description": "Length of the event in hours, for example 1.5."},
        "show_as": enum(["busy", "free", "tentative"], "How the time appears to people checking availability."),
        "event_type": enum(["meeting", "focus"], "A meeting with others, or focus time for the owner alone."),
        "location": string("Room or video link."),
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
        string("IANA time zone of the start time, for example Europe/Berlin."),
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

CALENDAR_AUTHORED = Authored(
    base=CALENDAR,
    extended=Extended(
        Deprecation("calendar.events.insert"),
        Pagination(
            "calendar.list_events",
            "List the events of a calendar, in start order.",
            "calendar_id",
            string("Calendar to list, usually its owner's email address."),
            quoted("priya@example.com", "ops-team@example.com", "marco@example.org"),
            "List the events on {calendar_id}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "workspace",
            string("Workspace the calendar belongs to: the domain of its address (example.com for a@example.com)."),
            "calendar_id",
            domain,
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("calendar_id", ("calendar", "owner_email")),
            Rename("start", ("starts_at", "begin")),
            Rename("show_as", ("availability", "busy_status")),
            Rename("duration", ("length", "duration_hours")),
        ),
        new_requireds=(
            NewRequired(
                "reminder_minutes",
                integer("Minutes before the start to send a reminder."),
                ((10, "Remind me 10 minutes before."), (30, "Remind me 30 minutes before.")),
            ),
            NewRequired(
                "color",
                enum(["blue", "green", "red"], "Colour of the event on the calendar."),
                (("green", "Show it in green."), ("red", "Show it in red.")),
            ),
            NewRequired(
                "visibility",
                enum(["default", "private"], "Whether other people see the event's details."),
                (("private", "Keep its details private."), ("default", "Use the calendar's default visibility.")),
            ),
            NewRequired(
                "video_call",
                boolean("Whether a video-call link is attached."),
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
                datetime_object("Local start as separate date (YYYY-MM-DD) and time (HH:MM)."),
                datetime_parts,
                "YYYY-MM-DDTHH:MM string -> {date, time} object",
            ),
            unit_object(CALENDAR, "duration", "hours"),
            multi_select(CALENDAR, "show_as"),
            wrap_text(CALENDAR, "title", "text"),
        ),
    ),
    no_call=NoCall(
        "removed",
        notice="calendar.create_event was removed in 6.0.0 with no replacement: events are now created only "
        "through booking pages, which this API does not manage.",
        explanation="the tool that created events was removed with no successor",
        remaining=(
            Endpoint(
                "calendar.list_events",
                "List the events of a calendar, in start order.",
                {"calendar_id": string("Calendar to list, usually its owner's email address.")},
                ("calendar_id",),
            ),
            Endpoint(
                "calendar.delete_event",
                "Delete one event.",
                {"calendar_id": string("Calendar the event is on."), "event_id": string("The event to delete.")},
                ("calendar_id", "event_id"),
            ),
        ),
    ),
)

#: Shaped like BambooHR's time-off requests (employee, type, dates, an approver).
TIMEOFF = BaseSchema(
    id="timeoff",
    title="Time off",
    tool="timeoff.request",
    description="Request time off for an employee.",
    version="2.7.0",
    properties={
        "employee_id": string("The employee taking time off.", pattern=r"^E\d{4}$"),
        "reason": string("Short note for the approver."),
        "leave_type": enum(["vacation", "sick", "personal"], "Which leave balance to draw from."),
        "paid": enum(["paid", "unpaid"], "Whether the time off is paid."),
        "start_date": string("First day off, YYYY-MM-DD.", pattern=DATE),
        "days": {"type": "integer", "minimum": 1, "description": "Number of working days off."},
        "cover": string("Employee id of the colleague covering."),
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
        string("Employee id of the manager who approves the request.", pattern=r"^E\d{4}$"),
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

TIMEOFF_AUTHORED = Authored(
    base=TIMEOFF,
    extended=Extended(
        Deprecation("timeoff.requests.create"),
        Pagination(
            "timeoff.list_requests",
            "List the time-off requests of an employee, newest first.",
            "employee_id",
            string("The employee whose requests are listed."),
            quoted("E2291", "E3050", "E4178"),
            "List the time-off requests of employee {employee_id}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "scope",
            enum(
                ["leave.annual:write", "leave.medical:write", "leave.personal:write"],
                "OAuth scope the call acts under: leave.annual:write for vacation, leave.medical:write for sick "
                "leave, leave.personal:write for personal leave.",
            ),
            "leave_type",
            mapped(
                {"vacation": "leave.annual:write", "sick": "leave.medical:write", "personal": "leave.personal:write"}
            ),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("employee_id", ("employee", "staff_id")),
            Rename("leave_type", ("category", "leave_kind")),
            Rename("start_date", ("first_day", "from_date")),
            Rename("days", ("duration_days", "working_days")),
        ),
        new_requireds=(
            NewRequired(
                "half_day_start",
                boolean("Whether the first day off starts at noon."),
                ((True, "The first day starts at noon."), (False, "The first day is a full day.")),
            ),
            NewRequired(
                "contact_during_leave",
                enum(["none", "urgent_only", "any"], "Whether the employee may be contacted while away."),
                (("none", "Do not contact them while away."), ("urgent_only", "Contact them only if urgent.")),
            ),
            NewRequired(
                "country",
                string("Two-letter code of the country whose holidays apply."),
                (("PT", "Portuguese holidays apply (PT)."), ("NL", "Dutch holidays apply (NL).")),
            ),
            NewRequired(
                "handover_notes",
                string("Where the handover notes are."),
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
                integer("Number of working hours off (a working day is 8 hours)."),
                scaled(8),
                "days -> integer working hours",
            ),
            multi_select(TIMEOFF, "leave_type"),
            wrap_text(TIMEOFF, "reason", "text"),
        ),
    ),
    no_call=NoCall(
        "missingRequired",
        notice="Every request names the leave policy it draws on.",
        explanation="policy_id is now required, has no default, and the request does not say which policy applies",
        field="policy_id",
        schema=string(
            "The leave policy the days are drawn from, for example POL-PT-ANNUAL. There is no default policy.",
            pattern=r"^POL-[A-Z]{2}-[A-Z]+$",
        ),
    ),
)

#: Shaped like Slack's chat.postMessage (a channel or a user, text, threads).
MESSAGING = BaseSchema(
    id="messaging",
    title="Team chat",
    tool="chat.post_message",
    description="Post a message to a channel or a person.",
    version="2.0.0",
    properties={
        "target": string("Channel name (without #) or username to send to."),
        "target_type": enum(["channel", "user"], "Whether target is a channel or a person."),
        "text": string("The message, in Markdown."),
        "priority": enum(["low", "normal", "urgent"], "How strongly readers are notified."),
        "expires_in": {"type": "number", "minimum": 0, "description": "Hours until the message disappears."},
        "thread_id": string("Reply inside this thread instead of starting a new one."),
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
        enum(["none", "mentions", "everyone"], "Who gets a push notification."),
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

MESSAGING_AUTHORED = Authored(
    base=MESSAGING,
    extended=Extended(
        Deprecation("chat.messages.send"),
        Pagination(
            "chat.list_messages",
            "List the messages of a channel, newest first.",
            "channel",
            string("Channel name, without #."),
            (("release-train", "#release-train"), ("oncall", "#oncall"), ("general", "#general")),
            "List the messages in {channel}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "scope",
            enum(
                ["chat:write.channels", "chat:write.im"],
                "OAuth scope the call acts under: chat:write.channels to post in a channel, chat:write.im for a "
                "direct message.",
            ),
            "target_type",
            mapped({"channel": "chat:write.channels", "user": "chat:write.im"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("target", ("recipient", "destination")),
            Rename("priority", ("urgency", "importance")),
            Rename("expires_in", ("ttl", "lifetime")),
            Rename("target_type", ("recipient_type", "destination_kind")),
        ),
        new_requireds=(
            NewRequired(
                "format",
                enum(["plain", "markdown"], "How the text is rendered."),
                (("plain", "Send it as plain text."), ("markdown", "Render it as Markdown.")),
            ),
            NewRequired(
                "sender",
                string("Name the message is posted under."),
                (("Deploy Bot", "Post it as Deploy Bot."), ("Facilities", "Post it as Facilities.")),
            ),
            NewRequired(
                "pin",
                boolean("Whether the message is pinned."),
                ((True, "Pin it."), (False, "Do not pin it.")),
            ),
            NewRequired(
                "silent",
                boolean("Whether the message is delivered without a sound."),
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
            scaled_to("expires_in", 60, "Whole minutes until the message disappears.", "hours -> integer minutes"),
            wrap_text(MESSAGING, "text", "markdown"),
            multi_select(MESSAGING, "priority"),
        ),
    ),
    no_call=NoCall(
        "removed",
        notice="chat.post_message was removed in 3.0.0 with no replacement: integrations can no longer post "
        "messages, only read them and react to them.",
        explanation="the tool that posted messages was removed with no successor",
        remaining=(
            Endpoint(
                "chat.list_messages",
                "List the messages of a channel, newest first.",
                {"channel": string("Channel name, without #.")},
                ("channel",),
            ),
            Endpoint(
                "chat.add_reaction",
                "React to a message with an emoji.",
                {
                    "channel": string("Channel the message is in, without #."),
                    "message_id": string("The message to react to."),
                    "emoji": string("Emoji name without colons, for example thumbsup."),
                },
                ("channel", "message_id", "emoji"),
            ),
        ),
    ),
)
