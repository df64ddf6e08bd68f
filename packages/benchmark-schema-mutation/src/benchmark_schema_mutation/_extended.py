"""The three mutation kinds of the extended split, authored for each of the twelve base schemas.

- `deprecation`: the old tool is still listed, but its description marks it deprecated and names
  its replacement, a new tool taking the same arguments; the right call uses the replacement.
- `paginationChange`: a list call of the same API changes how pages are addressed (page and
  per_page become a cursor and a limit, an offset becomes a page number, or a page number becomes
  an offset); the request says which results to fetch.
- `scopeChange`: every call now needs an explicit scope, workspace or region argument whose value
  the request implies (the repository's owner, the currency's region, the OAuth scope of the kind of
  contact being added), and the field's description says how.

These are the gaps the original package names among its known weaknesses ("deprecation warnings,
paginated renames, OAuth scope shifts").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from attrs import frozen
from benchmark_core import JsonObject, JsonValue

#: Pagination styles: (old fields, new fields) and how a request's page is said and called.
PAGE_TO_CURSOR: Final = "pageToCursor"
OFFSET_TO_PAGE: Final = "offsetToPage"
PAGE_TO_OFFSET: Final = "pageToOffset"


@frozen
class Deprecation:
    """The base tool is deprecated in favour of `replacement`, which takes the same arguments."""

    replacement: str


@frozen
class Pagination:
    """A list tool of the API, filtered by one field, whose pagination changes by `style`."""

    tool: str
    description: str
    field: str
    schema: JsonObject
    choices: tuple[tuple[str, str], ...]
    template: str
    style: str


@frozen
class Scope:
    """A new required `field` whose value follows from the request's `source` argument."""

    field: str
    schema: JsonObject
    source: str
    derive: Callable[[JsonValue], JsonValue]


@frozen
class Extended:
    deprecation: Deprecation
    pagination: Pagination
    scope: Scope


def mapped(mapping: Mapping[str, str]) -> Callable[[JsonValue], JsonValue]:
    def derive(value: JsonValue) -> JsonValue:
        return mapping[str(value)]

    return derive


def owner(value: JsonValue) -> JsonValue:
    return str(value).split("/", 1)[0]


def domain(value: JsonValue) -> JsonValue:
    return str(value).rsplit("@", 1)[1]


def _enum(values: list[str], description: str) -> JsonObject:
    return {"type": "string", "enum": values, "description": description}


def _string(description: str) -> JsonObject:
    return {"type": "string", "description": description}


def _verbatim(*values: str) -> tuple[tuple[str, str], ...]:
    return tuple((value, value) for value in values)


EXTENDED: dict[str, Extended] = {
    "issues": Extended(
        Deprecation("issues.open"),
        Pagination(
            "issues.list",
            "List the issues of a repository, newest first.",
            "repo",
            _string("Repository as owner/name."),
            _verbatim("acme/widgets", "lumen/docs-site", "orbit/mobile-app"),
            "List the issues in {repo}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "org",
            _string("Organisation the call acts in: the owner part of the repository (acme for acme/widgets)."),
            "repo",
            owner,
        ),
    ),
    "payments": Extended(
        Deprecation("payments.charges.create"),
        Pagination(
            "payments.list_charges",
            "List a customer's charges, newest first.",
            "customer_id",
            _string("The customer whose charges are listed."),
            _verbatim("cus_8Hq2Lm", "cus_41ZpQe", "cus_Tn7Wc3"),
            "List the charges of customer {customer_id}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "region",
            _enum(["us", "eu", "uk"], "Account region that processes the charge: us for usd, eu for eur, uk for gbp."),
            "currency",
            mapped({"usd": "us", "eur": "eu", "gbp": "uk"}),
        ),
    ),
    "calendar": Extended(
        Deprecation("calendar.events.insert"),
        Pagination(
            "calendar.list_events",
            "List the events of a calendar, in start order.",
            "calendar_id",
            _string("Calendar to list, usually its owner's email address."),
            _verbatim("priya@example.com", "ops-team@example.com", "marco@example.org"),
            "List the events on {calendar_id}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "workspace",
            _string("Workspace the calendar belongs to: the domain of its address (example.com for a@example.com)."),
            "calendar_id",
            domain,
        ),
    ),
    "crm": Extended(
        Deprecation("crm.contacts.create"),
        Pagination(
            "crm.list_contacts",
            "List the contacts at one company.",
            "company",
            _string("Company whose contacts are listed."),
            _verbatim("Brightline Logistics", "Fernwood Dental", "Quarry Labs"),
            "List the contacts at {company}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "scope",
            _enum(
                ["contacts.sales:write", "contacts.support:write"],
                "OAuth scope the call acts under: contacts.sales:write for contacts the sales team owns, "
                "contacts.support:write for those the support team owns.",
            ),
            "owner_team",
            mapped({"sales": "contacts.sales:write", "support": "contacts.support:write"}),
        ),
    ),
    "storage": Extended(
        Deprecation("storage.buckets.create"),
        Pagination(
            "storage.list_buckets",
            "List the buckets in a region.",
            "region",
            _string("Data centre region, for example eu-west-1."),
            _verbatim("eu-west-1", "us-east-2", "ap-southeast-1"),
            "List the buckets in {region}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "jurisdiction",
            _enum(["eu", "us", "ap"], "Legal jurisdiction the data stays in: the region's prefix (eu for eu-west-1)."),
            "region",
            mapped({"eu-west-1": "eu", "us-east-2": "us", "ap-southeast-1": "ap"}),
        ),
    ),
    "messaging": Extended(
        Deprecation("chat.messages.send"),
        Pagination(
            "chat.list_messages",
            "List the messages of a channel, newest first.",
            "channel",
            _string("Channel name, without #."),
            (("release-train", "#release-train"), ("oncall", "#oncall"), ("general", "#general")),
            "List the messages in {channel}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "scope",
            _enum(
                ["chat:write.channels", "chat:write.im"],
                "OAuth scope the call acts under: chat:write.channels to post in a channel, chat:write.im for a "
                "direct message.",
            ),
            "target_type",
            mapped({"channel": "chat:write.channels", "user": "chat:write.im"}),
        ),
    ),
    "helpdesk": Extended(
        Deprecation("tickets.create"),
        Pagination(
            "tickets.list",
            "List the tickets of one requester, newest first.",
            "requester_email",
            _string("Email of the customer whose tickets are listed."),
            _verbatim("hana@clearwater.example", "m.ortiz@example.com", "support@quill.example"),
            "List the tickets opened for {requester_email}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "organization",
            _string("Customer organisation the ticket belongs to: the domain of the requester's email."),
            "requester_email",
            domain,
        ),
    ),
    "shipping": Extended(
        Deprecation("shipments.book"),
        Pagination(
            "shipments.list",
            "List shipments of one delivery speed, newest first.",
            "service",
            _enum(["ground", "express", "overnight"], "Delivery speed."),
            (("ground", "ground"), ("express", "express"), ("overnight", "overnight")),
            "List the {service} shipments: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "country",
            _enum(["GB", "PT", "CA"], "Destination country code (ISO 3166-1 alpha-2); accounts are per country."),
            "address",
            mapped(
                {
                    "12 Harbour Street, Leith, Edinburgh EH6 6QA, UK": "GB",
                    "Rua Augusta 45, 1100-048 Lisboa, Portugal": "PT",
                    "88 King Street West, Toronto ON M5X 1B1, Canada": "CA",
                }
            ),
        ),
    ),
    "invoicing": Extended(
        Deprecation("invoices.issue"),
        Pagination(
            "invoices.list",
            "List the invoices of a customer, newest first.",
            "customer_id",
            _string("The customer whose invoices are listed."),
            _verbatim("cust-1042", "cust-2290", "cust-3817"),
            "List the invoices of customer {customer_id}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "scope",
            _enum(
                ["invoices:write", "subscriptions:write"],
                "OAuth scope the call acts under: invoices:write for a one-off invoice, subscriptions:write for a "
                "recurring one.",
            ),
            "schedule",
            mapped({"once": "invoices:write", "monthly": "subscriptions:write"}),
        ),
    ),
    "flags": Extended(
        Deprecation("flags.define"),
        Pagination(
            "flags.list",
            "List the feature flags of one environment.",
            "environment",
            _enum(["dev", "staging", "prod"], "Environment to list."),
            (("prod", "production"), ("staging", "the pre-release environment"), ("dev", "development")),
            "List the feature flags in {environment}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "oauth_scope",
            _enum(
                ["flags.dev:write", "flags.staging:write", "flags.prod:write"],
                "OAuth scope the call acts under: flags.<environment>:write for the environment the flag is "
                "created in.",
            ),
            "environment",
            mapped({"dev": "flags.dev:write", "staging": "flags.staging:write", "prod": "flags.prod:write"}),
        ),
    ),
    "timeoff": Extended(
        Deprecation("timeoff.requests.create"),
        Pagination(
            "timeoff.list_requests",
            "List the time-off requests of an employee, newest first.",
            "employee_id",
            _string("The employee whose requests are listed."),
            _verbatim("E2291", "E3050", "E4178"),
            "List the time-off requests of employee {employee_id}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "scope",
            _enum(
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
    "campaigns": Extended(
        Deprecation("campaigns.schedule_send"),
        Pagination(
            "campaigns.list",
            "List the campaigns sent to a subscriber list, newest first.",
            "list_id",
            _string("The subscriber list."),
            _verbatim("lst_newsletter", "lst_vip2026", "lst_trial"),
            "List the campaigns sent to list {list_id}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "scope",
            _enum(
                ["campaigns.email:send", "campaigns.sms:send"],
                "OAuth scope the call acts under: campaigns.email:send for email, campaigns.sms:send for text "
                "messages.",
            ),
            "channel",
            mapped({"email": "campaigns.email:send", "sms": "campaigns.sms:send"}),
        ),
    ),
}
