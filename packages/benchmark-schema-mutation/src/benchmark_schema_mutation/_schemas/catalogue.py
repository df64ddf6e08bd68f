"""The catalogue: every authored base schema, in the order tasks are generated.

`BASE_SCHEMAS` are the twelve of the public, extended and hidden splits, in the order that fixes
their committed bytes; `ADDED_SCHEMAS` are used only by the full split, after them. The tables
keyed by a schema's id hold the rest of what was authored for it.
"""

from __future__ import annotations

from . import cloud, commerce, customers, money, outreach, people, services, software, workplace
from .types import Alternatives, Authored, BaseSchema, Extended, NoCall

#: The schemas of the public, extended and hidden splits; their order fixes the committed bytes.
PUBLIC: tuple[Authored, ...] = (
    software.ISSUES_AUTHORED,
    money.PAYMENTS_AUTHORED,
    workplace.CALENDAR_AUTHORED,
    customers.CRM_AUTHORED,
    cloud.STORAGE_AUTHORED,
    workplace.MESSAGING_AUTHORED,
    customers.HELPDESK_AUTHORED,
    commerce.SHIPPING_AUTHORED,
    money.INVOICING_AUTHORED,
    software.FLAGS_AUTHORED,
    workplace.TIMEOFF_AUTHORED,
    customers.CAMPAIGNS_AUTHORED,
)
#: The schemas only the full split uses, after the public ones.
ADDED: tuple[Authored, ...] = (
    software.CI_AUTHORED,
    software.PULLS_AUTHORED,
    software.REGISTRY_AUTHORED,
    software.WEBHOOKS_AUTHORED,
    cloud.DNS_AUTHORED,
    cloud.SECRETS_AUTHORED,
    cloud.VMS_AUTHORED,
    cloud.ALERTS_AUTHORED,
    commerce.CATALOG_AUTHORED,
    commerce.INVENTORY_AUTHORED,
    commerce.TRACKING_AUTHORED,
    commerce.BOOKING_AUTHORED,
    people.HR_AUTHORED,
    people.MEETINGS_AUTHORED,
    people.SSO_AUTHORED,
    people.ESIGN_AUTHORED,
    outreach.MAIL_AUTHORED,
    outreach.SMS_AUTHORED,
    outreach.FORMS_AUTHORED,
    outreach.ANALYTICS_AUTHORED,
    money.BILLING_AUTHORED,
    services.SEARCH_AUTHORED,
    services.TRANSLATION_AUTHORED,
    services.GEOCODING_AUTHORED,
)

#: The base schemas of the public, extended and hidden splits.
BASE_SCHEMAS: tuple[BaseSchema, ...] = tuple(entry.base for entry in PUBLIC)
#: The base schemas only the full split adds.
ADDED_SCHEMAS: tuple[BaseSchema, ...] = tuple(entry.base for entry in ADDED)
#: Every base schema, in generation order.
ALL_SCHEMAS: tuple[BaseSchema, ...] = BASE_SCHEMAS + ADDED_SCHEMAS

EXTENDED: dict[str, Extended] = {entry.base.id: entry.extended for entry in PUBLIC + ADDED}
HELD_OUT: dict[str, Alternatives] = {entry.base.id: entry.held_out for entry in PUBLIC + ADDED}
NO_CALLS: dict[str, NoCall] = {entry.base.id: entry.no_call for entry in PUBLIC + ADDED}
