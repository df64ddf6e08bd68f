"""Money: payments, invoicing, subscription billing.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project. The schemas added for the full split say
which public API's shape and migrations they follow."""

from __future__ import annotations

from .build import (
    DATE,
    boolean,
    date_object,
    date_parts,
    decimal_string,
    enum,
    integer,
    mapped,
    money_parts,
    multi_select,
    percent_to_fraction,
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

#: Shaped like Stripe's charges API (amounts in minor units, capture now or later, idempotency keys).
PAYMENTS = BaseSchema(
    id="payments",
    title="Payments",
    tool="payments.create_charge",
    description="Charge a saved customer.",
    version="2.4.0",
    properties={
        "customer_id": string("The customer to charge.", pattern=r"^cus_[A-Za-z0-9]+$"),
        "amount": {
            "type": "number",
            "minimum": 0,
            "description": "Amount in major currency units (dollars, euros, pounds), for example 12.5.",
        },
        "currency": enum(["usd", "eur", "gbp"], "Currency code, lowercase."),
        "description": string("Text printed on the receipt."),
        "channel": enum(["web", "phone", "store"], "Where the customer made the purchase."),
        "capture": enum(["immediate", "deferred"], "Capture the funds now, or only authorise them for later."),
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
        string("A unique key, so that a retried request never charges twice."),
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

PAYMENTS_AUTHORED = Authored(
    base=PAYMENTS,
    extended=Extended(
        Deprecation("payments.charges.create"),
        Pagination(
            "payments.list_charges",
            "List a customer's charges, newest first.",
            "customer_id",
            string("The customer whose charges are listed."),
            quoted("cus_8Hq2Lm", "cus_41ZpQe", "cus_Tn7Wc3"),
            "List the charges of customer {customer_id}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "region",
            enum(["us", "eu", "uk"], "Account region that processes the charge: us for usd, eu for eur, uk for gbp."),
            "currency",
            mapped({"usd": "us", "eur": "eu", "gbp": "uk"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("customer_id", ("customer", "payer_id")),
            Rename("currency", ("currency_code", "iso_currency")),
            Rename("channel", ("sales_channel", "source")),
            Rename("capture", ("capture_mode", "settlement")),
        ),
        new_requireds=(
            NewRequired(
                "order_ref",
                string("Your own reference for the order being paid."),
                (("A-1182", "The order reference is A-1182."), ("B-2047", "The order reference is B-2047.")),
            ),
            NewRequired(
                "customer_present",
                boolean("Whether the customer is present when the charge is made."),
                ((True, "The customer is present."), (False, "The customer is not present.")),
            ),
            NewRequired(
                "tax_rate",
                {"type": "number", "minimum": 0, "description": "Tax rate applied, in percent."},
                ((20, "Apply a 20% tax rate."), (7.5, "Apply a 7.5% tax rate.")),
            ),
            NewRequired(
                "risk_check",
                enum(["standard", "strict"], "How strictly the charge is screened for fraud."),
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
    no_call=NoCall(
        "missingRequired",
        notice="Charges are made only against an explicit saved payment method.",
        explanation="payment_method is now required, has no default, and the request does not say which card to charge",
        field="payment_method",
        schema=string(
            "The saved payment method to charge (pm_...). There is no default: a customer's card is never chosen "
            "for them.",
            pattern=r"^pm_[A-Za-z0-9]+$",
        ),
    ),
)

#: Shaped like the invoices of Stripe and Xero (due dates, delivery, one-off or recurring).
INVOICING = BaseSchema(
    id="invoicing",
    title="Invoicing",
    tool="invoices.create",
    description="Create an invoice for a customer.",
    version="2.2.0",
    properties={
        "customer_id": string("The customer to bill.", pattern=r"^cust-\d+$"),
        "due_date": string("Date the payment is due, YYYY-MM-DD.", pattern=DATE),
        "delivery": enum(["email", "post", "portal"], "How the invoice reaches the customer."),
        "schedule": enum(["once", "monthly"], "Bill once, or repeat every month."),
        "discount": {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "description": "Discount as a percentage, for example 12.5.",
        },
        "notes": string("Text printed at the bottom of the invoice."),
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
        string("The customer's purchase order number."),
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

INVOICING_AUTHORED = Authored(
    base=INVOICING,
    extended=Extended(
        Deprecation("invoices.issue"),
        Pagination(
            "invoices.list",
            "List the invoices of a customer, newest first.",
            "customer_id",
            string("The customer whose invoices are listed."),
            quoted("cust-1042", "cust-2290", "cust-3817"),
            "List the invoices of customer {customer_id}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "scope",
            enum(
                ["invoices:write", "subscriptions:write"],
                "OAuth scope the call acts under: invoices:write for a one-off invoice, subscriptions:write for a "
                "recurring one.",
            ),
            "schedule",
            mapped({"once": "invoices:write", "monthly": "subscriptions:write"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("customer_id", ("customer", "account_id")),
            Rename("delivery", ("delivery_method", "send_via")),
            Rename("schedule", ("frequency", "recurrence")),
            Rename("discount", ("discount_percent", "reduction")),
        ),
        new_requireds=(
            NewRequired(
                "currency",
                enum(["usd", "eur", "gbp"], "Currency of the invoice."),
                (("eur", "Bill in euros."), ("gbp", "Bill in pounds.")),
            ),
            NewRequired(
                "payment_terms",
                integer("Days the customer has to pay after the invoice is issued."),
                ((14, "Payment terms are 14 days."), (30, "Payment terms are 30 days.")),
            ),
            NewRequired(
                "language",
                enum(["en", "de", "fr"], "Language the invoice is written in."),
                (("de", "Write it in German."), ("fr", "Write it in French.")),
            ),
            NewRequired(
                "tax_exempt",
                boolean("Whether the customer is exempt from tax."),
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
    no_call=NoCall(
        "removed",
        notice="invoices.create was removed in 3.0.0 with no replacement: invoices are now raised only from "
        "orders in the billing console.",
        explanation="the tool that created invoices was removed with no successor",
        remaining=(
            Endpoint(
                "invoices.list",
                "List the invoices of a customer, newest first.",
                {"customer_id": string("The customer whose invoices are listed.")},
                ("customer_id",),
            ),
            Endpoint(
                "invoices.void",
                "Void an invoice that has not been paid.",
                {"invoice_id": string("The invoice to void.", pattern=r"^inv-\d+$")},
                ("invoice_id",),
            ),
        ),
    ),
)

#: After Stripe Billing's subscriptions API (`collection_method` charge_automatically or
#: send_invoice, `proration_behavior` create_prorations, none or always_invoice, coupons).
BILLING = BaseSchema(
    id="billing",
    title="Subscription billing",
    tool="billing.create_subscription",
    description="Subscribe a customer to a recurring price.",
    version="2022.11.0",
    properties={
        "customer_id": string("The customer who subscribes.", pattern=r"^cus_[A-Za-z0-9]+$"),
        "price_id": string("The recurring price subscribed to."),
        "quantity": integer("Number of seats.", 1),
        "collection": enum(["automatic", "invoice"], "Charge the card on file, or send an invoice each period."),
        "proration": enum(
            ["prorate", "skip", "bill_now"],
            "What a mid-cycle change does: prorate it on the next invoice, skip proration, or invoice it at once.",
        ),
        "discount": {"type": "number", "minimum": 0, "maximum": 100, "description": "Discount as a percentage."},
        "description": string("Note shown on the invoices."),
    },
    required=("customer_id", "price_id", "quantity", "collection", "proration", "discount"),
    pools=(
        verbatim("customer_id", ["cus_Q4fT2m", "cus_8LpZr1", "cus_Vb72Ks", "cus_3nYe0w"]),
        verbatim("price_id", ["price_team_monthly", "price_pro_annual", "price_seat_monthly"]),
        said("quantity", [(5, "5 seats"), (12, "12 seats"), (1, "one seat"), (30, "30 seats")]),
        said(
            "collection",
            [("automatic", "charged to their card on file"), ("invoice", "billed by an invoice they pay by transfer")],
        ),
        said(
            "proration",
            [
                ("prorate", "prorating any mid-cycle change"),
                ("skip", "without prorating mid-cycle changes"),
                ("bill_now", "invoicing any mid-cycle change at once"),
            ],
        ),
        said("discount", [(10, "10%"), (15, "15%"), (25, "25%"), (12.5, "12.5%")]),
    ),
    template="Subscribe customer {customer_id} to {price_id} for {quantity}, {collection}, {proration}, with a "
    "{discount} discount.",
    rename=Rename("price_id", ("price", "plan_id")),
    new_required=NewRequired(
        "billing_anchor_day",
        integer("Day of the month each period starts, 1 to 28.", 1),
        (
            (1, "Bill on the 1st of each month."),
            (15, "Bill on the 15th of each month."),
            (28, "Bill on the 28th of each month."),
        ),
    ),
    enum_change=EnumChange(
        "proration", (("prorate", "create_prorations"), ("skip", "none"), ("bill_now", "always_invoice"))
    ),
    split=Split(
        "collection",
        (
            ("automatic", "billing.subscribe_with_card", "Subscribe a customer charged to the card on file."),
            ("invoice", "billing.subscribe_by_invoice", "Subscribe a customer who is sent an invoice each period."),
        ),
    ),
    type_change=TypeChange(
        "discount",
        {"type": "number", "minimum": 0, "maximum": 1, "description": "Discount as a fraction, for example 0.15."},
        percent_to_fraction,
        "percent -> fraction of 1",
    ),
)

BILLING_AUTHORED = Authored(
    base=BILLING,
    extended=Extended(
        Deprecation("billing.subscriptions.create"),
        Pagination(
            "billing.list_subscriptions",
            "List the subscriptions of a customer, newest first.",
            "customer_id",
            string("The customer whose subscriptions are listed."),
            (("cus_Q4fT2m", "cus_Q4fT2m"), ("cus_8LpZr1", "cus_8LpZr1"), ("cus_Vb72Ks", "cus_Vb72Ks")),
            "List the subscriptions of customer {customer_id}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "product",
            enum(
                ["prod_team", "prod_pro", "prod_seat"],
                "Product the price belongs to: prod_team for price_team_monthly, prod_pro for price_pro_annual, "
                "prod_seat for price_seat_monthly.",
            ),
            "price_id",
            mapped(
                {"price_team_monthly": "prod_team", "price_pro_annual": "prod_pro", "price_seat_monthly": "prod_seat"}
            ),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("customer_id", ("customer", "account_id")),
            Rename("quantity", ("seats", "units")),
            Rename("collection", ("collection_method", "payment_mode")),
            Rename("discount", ("discount_percent", "coupon_percent")),
        ),
        new_requireds=(
            NewRequired(
                "trial_days",
                integer("Days of free trial before the first charge."),
                ((14, "Start with a 14-day trial."), (30, "Start with a 30-day trial.")),
            ),
            NewRequired(
                "cancel_at_period_end",
                boolean("Stop the subscription when the first period ends."),
                ((True, "End it after the first period."), (False, "Keep it renewing.")),
            ),
            NewRequired(
                "currency",
                enum(["usd", "eur", "gbp"], "Currency the subscription is billed in."),
                (("eur", "Bill it in euros."), ("gbp", "Bill it in pounds.")),
            ),
            NewRequired(
                "po_reference",
                string("The customer's purchase order."),
                (("PO-5512", "Their purchase order is PO-5512."), ("PO-8840", "Their purchase order is PO-8840.")),
            ),
        ),
        enum_changes=(
            EnumChange("proration", (("prorate", "PRORATE"), ("skip", "SKIP"), ("bill_now", "BILL_NOW"))),
            EnumChange("proration", (("prorate", "partial"), ("skip", "never"), ("bill_now", "immediate"))),
            EnumChange("collection", (("automatic", "charge_automatically"), ("invoice", "send_invoice"))),
            EnumChange("collection", (("automatic", "AUTO"), ("invoice", "INVOICE"))),
        ),
        splits=(
            split_as(
                BILLING,
                "collection",
                {"automatic": "card_subscriptions.create", "invoice": "invoiced_subscriptions.create"},
            ),
            split_as(
                BILLING,
                "proration",
                {
                    "prorate": "billing.subscribe_prorated",
                    "skip": "billing.subscribe_unprorated",
                    "bill_now": "billing.subscribe_bill_now",
                },
            ),
            split_as(
                BILLING, "collection", {"automatic": "billing.start_autopay", "invoice": "billing.start_invoiced"}
            ),
            split_as(
                BILLING,
                "proration",
                {"prorate": "prorated_plans.start", "skip": "flat_plans.start", "bill_now": "immediate_plans.start"},
            ),
        ),
        type_changes=(
            scaled_to(
                "discount", 100, "Discount in basis points (1% = 100), for example 1250.", "percent -> basis points"
            ),
            unit_object(BILLING, "discount", "%"),
            multi_select(BILLING, "proration"),
            wrap_text(BILLING, "price_id", "id"),
        ),
    ),
    no_call=NoCall(
        "missingRequired",
        notice="Every subscription is sold under a signed order form.",
        explanation="order_form is now required, has no default, and the request names no signed order form",
        field="order_form",
        schema=string(
            "Signed order form the subscription is sold under (of_...). There is no default: sales must supply it.",
            pattern=r"^of_[a-z0-9]+$",
        ),
    ),
)
