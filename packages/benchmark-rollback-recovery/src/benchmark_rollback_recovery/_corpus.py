"""What the generator draws worlds from: synthetic people, companies, config files, documents,
mailing lists and announcements. Everything here is invented; the `.example` domains are reserved."""

from __future__ import annotations

from attrs import frozen

FIRST_NAMES = (
    "Dana", "Luis", "Priya", "Tomasz", "Amara", "Kenji", "Sofia", "Ravi", "Elena", "Marcus",
    "Yuki", "Omar", "Ingrid", "Chidi", "Hannah", "Mateo", "Aisha", "Felix", "Noor", "Grace",
)  # fmt: skip
LAST_NAMES = (
    "Reyes", "Okafor", "Lindqvist", "Nakamura", "Patel", "Moreau", "Kowalski", "Haddad",
    "Fischer", "Silva", "Brennan", "Osei", "Varga", "Jensen", "Costa", "Ibrahim",
)  # fmt: skip
COMPANIES = (
    ("Northwind Traders", "northwind.example"),
    ("Bluefin Analytics", "bluefin.example"),
    ("Cobalt Freight", "cobaltfreight.example"),
    ("Juniper Health", "juniperhealth.example"),
    ("Orchard Labs", "orchardlabs.example"),
    ("Pioneer Foods", "pioneerfoods.example"),
    ("Quarry Legal", "quarrylegal.example"),
    ("Tidewater Energy", "tidewater.example"),
)
#: Colleagues: their writes fill the history before the run and are never in question.
PEOPLE = ("maria.k", "dev.patel", "sam.osei", "lena.h")
#: Who created contacts: an import job or a colleague.
CONTACT_CREATORS = ("crm-import", "maria.k", "dev.patel")

#: Config files as (key, value) lines; the numeric keys are the ones tickets and colleagues change.
CONFIGS: dict[str, tuple[tuple[str, str], ...]] = {
    "config/plans/team.yaml": (
        ("plan", "team"), ("max_seats", "25"), ("price_usd", "49"), ("trial_days", "14"), ("support", "email"),
    ),
    "config/plans/pro.yaml": (
        ("plan", "pro"), ("max_seats", "100"), ("price_usd", "99"), ("trial_days", "30"), ("support", "priority"),
    ),
    "config/regions.yaml": (
        ("default_region", "eu-west"), ("backup_region", "us-east"), ("retention_days", "30"),
        ("snapshot_hours", "12"),
    ),
    "config/mailer.yaml": (
        ("sender", "ops@brightline.example"), ("batch_size", "500"), ("rate_per_minute", "120"),
        ("retry_limit", "3"),
    ),
    "config/billing.yaml": (
        ("currency", "EUR"), ("invoice_day", "1"), ("grace_days", "7"), ("late_fee_cents", "250"),
    ),
    "config/support.yaml": (
        ("first_response_hours", "24"), ("escalation_hours", "48"), ("queue", "general"),
        ("max_open_tickets", "40"),
    ),
}  # fmt: skip

#: Documents as (first version's lines, lines a colleague added in the second version).
DOCS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "docs/faq.md": (
        ("# FAQ", "", "Q: How do I reset my password?", "A: Use the link on the sign-in page.", "",
         "Q: Where do I find invoices?", "A: Under Billing > Invoices."),
        ("", "Q: Can I export my data?", "A: Yes, from Settings > Export."),
    ),
    "docs/onboarding.md": (
        ("# Onboarding", "", "1. Create your workspace.", "2. Invite your team.", "3. Connect your mailbox."),
        ("4. Import your contacts.",),
    ),
    "docs/security.md": (
        ("# Security", "", "All data is encrypted at rest.", "Sessions expire after 12 hours."),
        ("Two-factor sign-in is required for admins.",),
    ),
    "docs/release-notes.md": (
        ("# Release notes", "", "## 4.1", "- Faster search.", "- New dashboard."),
        ("", "## 4.2", "- Bulk editing (beta)."),
    ),
    "reports/q3-summary.md": (
        ("# Q3 summary", "", "Revenue grew 12% quarter on quarter.", "Churn held at 2.1%."),
        ("Net promoter score rose to 41.",),
    ),
    "docs/style-guide.md": (
        ("# Style guide", "", "Write in plain English.", "Use sentence case for headings."),
        ("Spell out numbers under ten.",),
    ),
}  # fmt: skip

#: The mailing lists, by the audience an announcement is meant for.
LISTS = {
    "customers": "customers@lists.brightline.example",
    "sales-team": "sales-team@lists.brightline.example",
    "all-staff": "all-staff@lists.brightline.example",
    "partners": "partners@lists.brightline.example",
    "beta-testers": "beta-testers@lists.brightline.example",
}


@frozen
class Announcement:
    """An announcement a ticket asks to send: `fact` with `value` filled in, and the near miss
    `wrong_value` that an incident sends instead."""

    subject: str
    audience: str
    fact: str
    value: str
    wrong_value: str

    def sentence(self, value: str) -> str:
        return self.fact.format(value)


ANNOUNCEMENTS = tuple(
    Announcement(*fields)
    for fields in (
        ("Webinar reminder: faster exports", "customers", "The webinar starts at {} UTC on 21 October", "15:00",
         "05:00"),
        ("Maintenance window this Saturday", "customers", "Maintenance runs from {} UTC on 18 October",
         "02:00 to 04:00", "12:00 to 14:00"),
        ("Team plan price change", "sales-team", "The Team plan moves to {} per seat from 1 November", "$59", "$95"),
        ("Lisbon office closure", "all-staff", "The Lisbon office is closed on {}", "24 October", "14 October"),
        ("Bulk editor beta opens", "beta-testers", "The bulk editor beta opens on {}", "28 October", "18 October"),
        ("Partner payout schedule", "partners", "Partner payouts are sent on the {} of each month", "5th", "15th"),
        ("Quarterly all-hands", "all-staff", "The all-hands starts at {} UTC on 30 October", "16:00", "06:00"),
        ("Renewal discount", "customers", "Renewals before 31 October get {} off", "10%", "100%"),
        ("Security training due", "all-staff", "Complete the security training by {}", "7 November", "7 October"),
        ("Partner summit registration", "partners", "Registration for the partner summit closes on {}",
         "12 November", "2 November"),
    )
)  # fmt: skip
