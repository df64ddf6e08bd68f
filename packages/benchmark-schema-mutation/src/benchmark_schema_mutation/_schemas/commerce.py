"""Commerce: shipping, product catalogue, inventory, parcel tracking, bookings.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project."""

from __future__ import annotations

from .build import (
    boolean,
    enum,
    mapped,
    multi_select,
    said,
    scaled,
    split_as,
    string,
    unit_object,
    verbatim,
    wrap_text,
)
from .types import (
    OFFSET_TO_PAGE,
    Alternatives,
    Authored,
    BaseSchema,
    Deprecation,
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

SHIPPING = BaseSchema(
    id="shipping",
    title="Shipping",
    tool="shipments.create",
    description="Create a shipment for an order.",
    version="3.0.0",
    properties={
        "order_id": string("The order being shipped.", pattern=r"^ORD-\d+$"),
        "address": string("Full delivery address on one line."),
        "service": enum(["ground", "express", "overnight"], "Delivery speed."),
        "handover": enum(["pickup", "dropoff"], "The courier collects the parcel, or we drop it at a depot."),
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
        enum(["documents", "merchandise", "gift"], "What the parcel holds, for customs."),
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

SHIPPING_AUTHORED = Authored(
    base=SHIPPING,
    extended=Extended(
        Deprecation("shipments.book"),
        Pagination(
            "shipments.list",
            "List shipments of one delivery speed, newest first.",
            "service",
            enum(["ground", "express", "overnight"], "Delivery speed."),
            (("ground", "ground"), ("express", "express"), ("overnight", "overnight")),
            "List the {service} shipments: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "country",
            enum(["GB", "PT", "CA"], "Destination country code (ISO 3166-1 alpha-2); accounts are per country."),
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
    held_out=Alternatives(
        renames=(
            Rename("order_id", ("order", "order_ref")),
            Rename("service", ("service_level", "speed")),
            Rename("handover", ("collection", "handoff")),
            Rename("weight", ("weight_kg", "mass")),
        ),
        new_requireds=(
            NewRequired(
                "signature",
                boolean("Whether the recipient must sign on delivery."),
                ((True, "The recipient must sign for it."), (False, "No signature is needed.")),
            ),
            NewRequired(
                "packaging",
                enum(["envelope", "box", "tube"], "What the item is packed in."),
                (("box", "It is packed in a box."), ("tube", "It is packed in a tube.")),
            ),
            NewRequired(
                "reference",
                string("Reference printed on the label."),
                (("RMA-5521", "Print RMA-5521 on the label."), ("GIFT-07", "Print GIFT-07 on the label.")),
            ),
            NewRequired(
                "fragile",
                boolean("Whether the parcel holds something fragile."),
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
    no_call=NoCall(
        "missingRequired",
        notice="Every shipment is billed to an explicit courier account.",
        explanation="billing_account is now required, has no default, and the request does not name one",
        field="billing_account",
        schema=string(
            "Courier account number the shipment is billed to, for example ACC-204417. There is no default account.",
            pattern=r"^ACC-\d{6}$",
        ),
    ),
)
