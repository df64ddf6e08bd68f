"""Commerce: shipping, product catalogue, inventory, parcel tracking, table bookings.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project. The schemas added for the full split say
which public API's shape and migrations they follow."""

from __future__ import annotations

from .build import (
    LOCAL_TIME,
    as_text,
    boolean,
    date_object,
    date_parts,
    datetime_object,
    datetime_parts,
    decimal_string,
    enum,
    integer,
    mapped,
    money_parts,
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

_DATE = r"^\d{4}-\d{2}-\d{2}$"

#: Shaped like EasyPost's and Shippo's shipments (address, service level, parcel weight).
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

#: After Shopify's Admin products API (status active or draft, cursor pagination since 2019-07)
#: and its move from float prices to decimal strings.
CATALOG = BaseSchema(
    id="catalog",
    title="Product catalogue",
    tool="catalog.create_product",
    description="Add a product to the shop's catalogue.",
    version="2.1.0",
    properties={
        "title": string("Product name shown to shoppers."),
        "vendor": string("Brand that makes the product."),
        "sku": string("Stock-keeping unit.", pattern=r"^SKU-\d{5}$"),
        "category": enum(["apparel", "home", "electronics"], "Department the product is listed under."),
        "status": enum(["active", "draft"], "On sale now, or kept as a draft."),
        "price": {"type": "number", "minimum": 0, "description": "Price in dollars, for example 19.99."},
        "description": string("Longer text for the product page."),
    },
    required=("title", "vendor", "sku", "category", "status", "price"),
    pools=(
        together(
            [
                ({"title": "Merino crew sweater", "category": "apparel"}, {"category": "a clothing item"}),
                ({"title": "Linen shirt", "category": "apparel"}, {"category": "a clothing item"}),
                ({"title": "Stoneware mug set", "category": "home"}, {"category": "a homeware item"}),
                ({"title": "Walnut serving board", "category": "home"}, {"category": "a homeware item"}),
                ({"title": "Wireless earbuds", "category": "electronics"}, {"category": "an electronics item"}),
                ({"title": "USB-C charging dock", "category": "electronics"}, {"category": "an electronics item"}),
            ]
        ),
        verbatim("vendor", ["Fjord Goods", "Kite & Co", "Basalt Supply"]),
        verbatim("sku", ["SKU-10482", "SKU-22917", "SKU-30561", "SKU-47730"]),
        said("status", [("active", "on sale right away"), ("draft", "kept as a draft for now")]),
        said("price", [(49.5, "$49.50"), (19.99, "$19.99"), (120, "$120"), (7.25, "$7.25")]),
    ),
    template='Add "{title}" by {vendor} to the catalogue as {category}, SKU {sku}, priced at {price} and {status}.',
    rename=Rename("vendor", ("brand", "manufacturer")),
    new_required=NewRequired(
        "tax_code",
        string("Sales-tax code of the product.", pattern=r"^PC\d{6}$"),
        (
            ("PC040100", "Its tax code is PC040100."),
            ("PC030000", "Its tax code is PC030000."),
            ("PC090400", "Its tax code is PC090400."),
        ),
    ),
    enum_change=EnumChange(
        "category", (("apparel", "clothing"), ("home", "home_and_garden"), ("electronics", "consumer_electronics"))
    ),
    split=Split(
        "status",
        (
            ("active", "catalog.publish_product", "Add a product that is on sale at once."),
            ("draft", "catalog.create_draft_product", "Add a product as a draft, not yet on sale."),
        ),
    ),
    type_change=TypeChange(
        "price",
        {
            "type": "string",
            "pattern": r"^\d+\.\d{2}$",
            "description": 'Price in dollars as a decimal string with two decimals, for example "19.99".',
        },
        decimal_string,
        "number -> decimal string with two decimals",
    ),
)

CATALOG_AUTHORED = Authored(
    base=CATALOG,
    extended=Extended(
        Deprecation("catalog.products.create"),
        Pagination(
            "catalog.list_products",
            "List the products of one vendor, by title.",
            "vendor",
            string("Brand whose products are listed."),
            (("Fjord Goods", "Fjord Goods"), ("Kite & Co", "Kite & Co"), ("Basalt Supply", "Basalt Supply")),
            "List the products by {vendor}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "scope",
            enum(
                ["products:publish", "products.drafts:write"],
                "OAuth scope the call acts under: products:publish for a product on sale at once, "
                "products.drafts:write for a draft.",
            ),
            "status",
            mapped({"active": "products:publish", "draft": "products.drafts:write"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("title", ("name", "product_title")),
            Rename("sku", ("item_code", "sku_code")),
            Rename("category", ("product_category", "department")),
            Rename("price", ("list_price", "amount")),
        ),
        new_requireds=(
            NewRequired(
                "weight_grams",
                integer("Shipping weight in whole grams.", 1),
                ((350, "It weighs 350 g."), (1200, "It weighs 1200 g.")),
            ),
            NewRequired(
                "taxable",
                boolean("Whether sales tax is charged."),
                ((True, "Charge sales tax on it."), (False, "It is exempt from sales tax.")),
            ),
            NewRequired(
                "origin_country",
                enum(["PT", "VN", "DE"], "Country the product is made in (ISO 3166-1 alpha-2)."),
                (("PT", "It is made in Portugal."), ("VN", "It is made in Vietnam.")),
            ),
            NewRequired(
                "barcode",
                string("EAN-13 barcode.", pattern=r"^\d{13}$"),
                (
                    ("5601234567897", "Its barcode is 5601234567897."),
                    ("4006381333931", "Its barcode is 4006381333931."),
                ),
            ),
        ),
        enum_changes=(
            EnumChange("category", (("apparel", "APPAREL"), ("home", "HOME"), ("electronics", "ELECTRONICS"))),
            EnumChange("category", (("apparel", "fashion"), ("home", "household"), ("electronics", "tech"))),
            EnumChange("status", (("active", "published"), ("draft", "unpublished"))),
            EnumChange("status", (("active", "ACTIVE"), ("draft", "DRAFT"))),
        ),
        splits=(
            split_as(CATALOG, "status", {"active": "products.publish", "draft": "products.draft"}),
            split_as(
                CATALOG,
                "category",
                {
                    "apparel": "catalog.add_apparel",
                    "home": "catalog.add_homeware",
                    "electronics": "catalog.add_electronics",
                },
            ),
            split_as(CATALOG, "status", {"active": "live_products.create", "draft": "draft_products.create"}),
            split_as(
                CATALOG,
                "category",
                {
                    "apparel": "apparel_items.create",
                    "home": "home_items.create",
                    "electronics": "electronics_items.create",
                },
            ),
        ),
        type_changes=(
            TypeChange(
                "price",
                {
                    "type": "object",
                    "properties": {"units": {"type": "integer"}, "nanos": {"type": "integer"}},
                    "required": ["units", "nanos"],
                    "additionalProperties": False,
                    "description": "Price as whole dollars plus nanos (billionths of a dollar): 19.99 is "
                    "{units: 19, nanos: 990000000}.",
                },
                money_parts,
                "dollars -> {units, nanos} object",
            ),
            scaled_to("price", 100, "Price in whole cents, for example 1999.", "dollars -> integer cents"),
            multi_select(CATALOG, "category"),
            wrap_text(CATALOG, "title", "text"),
        ),
    ),
    no_call=NoCall(
        "missingRequired",
        notice="Every product names the shipping profile that prices its delivery.",
        explanation="shipping_profile is now required, has no default, and the request does not name one",
        field="shipping_profile",
        schema=string(
            "Shipping profile that sets the delivery rates, for example sp_4471. There is no default profile.",
            pattern=r"^sp_\d+$",
        ),
    ),
)

#: After Square's Inventory API (batch changes with reasons such as PHYSICAL_COUNT, quantities as
#: decimal strings, cursor pages) and Shopify's inventory adjustments.
INVENTORY = BaseSchema(
    id="inventory",
    title="Inventory",
    tool="inventory.adjust_stock",
    description="Change the stock count of an item at one location.",
    version="1.3.0",
    properties={
        "location_id": string("The stock location.", pattern=r"^LOC-\d+$"),
        "sku": string("The item's stock-keeping unit."),
        "quantity": integer("How many units are added or removed.", 1),
        "direction": enum(["add", "remove"], "Whether the units are added to or removed from the count."),
        "reason": enum(["received", "damaged", "recount"], "Why the count changes."),
        "note": string("Free text kept with the change."),
    },
    required=("location_id", "sku", "quantity", "direction", "reason"),
    pools=(
        verbatim("location_id", ["LOC-101", "LOC-204", "LOC-318", "LOC-455"]),
        verbatim("sku", ["TEA-EARLGREY-250", "MUG-STONE-12", "BAG-TOTE-NAT", "CANDLE-FIG-200"]),
        said("quantity", [(12, "12 units"), (3, "3 units"), (48, "48 units"), (1, "a single unit")]),
        together(
            [
                ({"direction": "add", "reason": "received"}, {"direction": "Add", "reason": "a delivery that arrived"}),
                ({"direction": "remove", "reason": "damaged"}, {"direction": "Remove", "reason": "damaged stock"}),
                ({"direction": "add", "reason": "recount"}, {"direction": "Add", "reason": "a count that found more"}),
                (
                    {"direction": "remove", "reason": "recount"},
                    {"direction": "Remove", "reason": "a count that found fewer"},
                ),
            ]
        ),
        verbatim("note", ["Pallet 7 from the supplier", "Weekly count", "Water damage in aisle 3", "Shelf audit"]),
    ),
    template='{direction} {quantity} of {sku} at location {location_id}, for {reason}. Note: "{note}".',
    rename=Rename("sku", ("item_sku", "catalog_sku")),
    new_required=NewRequired(
        "occurred_on",
        string("Day the change happened, YYYY-MM-DD.", pattern=_DATE),
        (
            ("2026-03-02", "It happened on 2 March 2026."),
            ("2026-07-19", "It happened on 19 July 2026."),
            ("2026-10-08", "It happened on 8 October 2026."),
        ),
    ),
    enum_change=EnumChange("reason", (("received", "restock"), ("damaged", "waste"), ("recount", "physical_count"))),
    split=Split(
        "direction",
        (
            ("add", "inventory.receive_stock", "Add units to the stock count of an item."),
            ("remove", "inventory.remove_stock", "Remove units from the stock count of an item."),
        ),
    ),
    type_change=TypeChange(
        "quantity",
        {
            "type": "string",
            "pattern": r"^\d+$",
            "description": 'How many units, as a decimal string, for example "12".',
        },
        as_text,
        "integer -> decimal string",
    ),
)

INVENTORY_AUTHORED = Authored(
    base=INVENTORY,
    extended=Extended(
        Deprecation("inventory.batch_change"),
        Pagination(
            "inventory.list_counts",
            "List the stock counts at one location, by SKU.",
            "location_id",
            string("The stock location."),
            (("LOC-101", "LOC-101"), ("LOC-204", "LOC-204"), ("LOC-318", "LOC-318")),
            "List the stock counts at {location_id}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "warehouse",
            enum(
                ["north", "south"],
                "Warehouse the location belongs to: north for LOC-101 and LOC-204, south for LOC-318 and LOC-455.",
            ),
            "location_id",
            mapped({"LOC-101": "north", "LOC-204": "north", "LOC-318": "south", "LOC-455": "south"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("location_id", ("location", "store_id")),
            Rename("quantity", ("qty", "units")),
            Rename("reason", ("reason_code", "cause")),
            Rename("note", ("memo", "comment")),
        ),
        new_requireds=(
            NewRequired(
                "employee_id",
                string("Employee who made the change.", pattern=r"^E\d{4}$"),
                (("E2231", "Employee E2231 made the change."), ("E4410", "Employee E4410 made the change.")),
            ),
            NewRequired(
                "unit_cost",
                {"type": "number", "minimum": 0, "description": "Cost of one unit in dollars."},
                ((2.4, "Each unit cost $2.40."), (11, "Each unit cost $11.")),
            ),
            NewRequired(
                "batch",
                string("Production batch of the units."),
                (("B-2026-014", "They are from batch B-2026-014."), ("B-2026-233", "They are from batch B-2026-233.")),
            ),
            NewRequired(
                "notify_buyer",
                boolean("Tell the buyer of the location about the change."),
                ((True, "Tell the location's buyer."), (False, "No need to tell the buyer.")),
            ),
        ),
        enum_changes=(
            EnumChange("reason", (("received", "RECEIVED"), ("damaged", "DAMAGED"), ("recount", "RECOUNT"))),
            EnumChange("reason", (("received", "inbound"), ("damaged", "shrinkage"), ("recount", "audit"))),
            EnumChange("direction", (("add", "increase"), ("remove", "decrease"))),
            EnumChange("direction", (("add", "in"), ("remove", "out"))),
        ),
        splits=(
            split_as(INVENTORY, "direction", {"add": "stock_in.record", "remove": "stock_out.record"}),
            split_as(
                INVENTORY,
                "reason",
                {
                    "received": "inventory.record_delivery",
                    "damaged": "inventory.record_damage",
                    "recount": "inventory.record_recount",
                },
            ),
            split_as(INVENTORY, "direction", {"add": "inventory.increment", "remove": "inventory.decrement"}),
            split_as(
                INVENTORY,
                "reason",
                {"received": "deliveries.record", "damaged": "write_offs.record", "recount": "stock_counts.record"},
            ),
        ),
        type_changes=(
            multi_select(INVENTORY, "reason"),
            unit_object(INVENTORY, "quantity", "each"),
            wrap_text(INVENTORY, "sku", "code"),
            TypeChange(
                "location_id",
                {
                    "type": "array",
                    "items": {"type": "string", "pattern": r"^LOC-\d+$"},
                    "description": "The stock locations, one per item.",
                },
                one_item_list,
                "one location -> array of locations",
            ),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the permission INVENTORY_WRITE.",
        explanation="changing a stock count needs INVENTORY_WRITE and the caller's token can only read",
        sentence="The access token I have was granted INVENTORY_READ and ITEMS_READ only.",
        scope="INVENTORY_WRITE",
        granted=("INVENTORY_READ", "ITEMS_READ"),
    ),
)

#: After AfterShip's trackings API (carrier slugs, delivery estimates, notification settings) and
#: EasyPost's trackers (return parcels tracked apart).
TRACKING = BaseSchema(
    id="tracking",
    title="Parcel tracking",
    tool="tracking.create_tracker",
    description="Start following a parcel and keep its customer informed.",
    version="3.4.0",
    properties={
        "tracking_number": string("The carrier's tracking number.", pattern=r"^[A-Z0-9]{10,22}$"),
        "carrier": enum(["dhl", "ups", "royal_mail"], "Carrier that moves the parcel."),
        "order_ref": string("The shop's order reference."),
        "updates": enum(["none", "milestones", "every_scan"], "Which tracking events the customer is told about."),
        "direction": enum(["outbound", "return"], "A parcel going to the customer, or one coming back."),
        "expected_delivery": string("Day the carrier expects to deliver, YYYY-MM-DD.", pattern=_DATE),
        "customer_email": string("Where updates are sent."),
    },
    required=("tracking_number", "carrier", "order_ref", "updates", "direction", "expected_delivery"),
    pools=(
        together(
            [
                ({"tracking_number": "JD014600003828472341", "carrier": "dhl"}, {"carrier": "DHL"}),
                ({"tracking_number": "1Z999AA10123456784", "carrier": "ups"}, {"carrier": "UPS"}),
                ({"tracking_number": "RM123456785GB", "carrier": "royal_mail"}, {"carrier": "Royal Mail"}),
                ({"tracking_number": "1Z12345E0205271688", "carrier": "ups"}, {"carrier": "UPS"}),
            ]
        ),
        verbatim("order_ref", ["W-88213", "W-90455", "W-91002", "W-93377"]),
        said(
            "updates",
            [
                ("none", "without sending the customer any updates"),
                ("milestones", "telling the customer about key milestones only"),
                ("every_scan", "telling the customer about every scan"),
            ],
        ),
        said("direction", [("outbound", "an outgoing parcel"), ("return", "a customer's return")]),
        said(
            "expected_delivery",
            [("2026-02-11", "11 February 2026"), ("2026-06-30", "30 June 2026"), ("2026-09-04", "4 September 2026")],
        ),
    ),
    template="Track {direction}: {carrier} number {tracking_number} for order {order_ref}, due {expected_delivery}, "
    "{updates}.",
    rename=Rename("tracking_number", ("tracking_code", "waybill")),
    new_required=NewRequired(
        "destination_country",
        enum(["GB", "DE", "US", "FR"], "Country the parcel is delivered in (ISO 3166-1 alpha-2)."),
        (
            ("GB", "It is going to the United Kingdom."),
            ("DE", "It is going to Germany."),
            ("US", "It is going to the United States."),
        ),
    ),
    enum_change=EnumChange("updates", (("none", "off"), ("milestones", "key_events"), ("every_scan", "all_events"))),
    split=Split(
        "direction",
        (
            ("outbound", "tracking.track_shipment", "Follow a parcel on its way to the customer."),
            ("return", "tracking.track_return", "Follow a parcel the customer sends back."),
        ),
    ),
    type_change=TypeChange(
        "expected_delivery",
        date_object("Day the carrier expects to deliver, as separate year, month and day numbers."),
        date_parts,
        "YYYY-MM-DD string -> {year, month, day} object",
    ),
)

TRACKING_AUTHORED = Authored(
    base=TRACKING,
    extended=Extended(
        Deprecation("tracking.trackers.create"),
        Pagination(
            "tracking.list_trackers",
            "List the parcels followed with one carrier, newest first.",
            "carrier",
            enum(["dhl", "ups", "royal_mail"], "Carrier to list."),
            (("dhl", "DHL"), ("ups", "UPS"), ("royal_mail", "Royal Mail")),
            "List the {carrier} parcels we are tracking: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "carrier_account",
            enum(
                ["ca_dhl_main", "ca_ups_main", "ca_rm_main"],
                "Carrier account the tracker is billed to: ca_dhl_main for DHL, ca_ups_main for UPS, ca_rm_main for "
                "Royal Mail.",
            ),
            "carrier",
            mapped({"dhl": "ca_dhl_main", "ups": "ca_ups_main", "royal_mail": "ca_rm_main"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("carrier", ("courier", "slug")),
            Rename("order_ref", ("order_id", "reference")),
            Rename("updates", ("notifications", "notify")),
            Rename("expected_delivery", ("eta", "due_date")),
        ),
        new_requireds=(
            NewRequired(
                "language",
                enum(["en", "de", "fr"], "Language of the customer's updates."),
                (("de", "Write the updates in German."), ("fr", "Write the updates in French.")),
            ),
            NewRequired(
                "customer_name",
                string("Name used in the updates."),
                (("Ines Duarte", "The customer is Ines Duarte."), ("Tom Becker", "The customer is Tom Becker.")),
            ),
            NewRequired(
                "signature_required",
                boolean("Whether someone must sign for the parcel."),
                ((True, "Someone must sign for it."), (False, "No signature is needed.")),
            ),
            NewRequired(
                "weight_grams",
                integer("Parcel weight in whole grams.", 1),
                ((800, "It weighs 800 g."), (2300, "It weighs 2300 g.")),
            ),
        ),
        enum_changes=(
            EnumChange("updates", (("none", "NONE"), ("milestones", "MILESTONES"), ("every_scan", "EVERY_SCAN"))),
            EnumChange("updates", (("none", "silent"), ("milestones", "major"), ("every_scan", "verbose"))),
            EnumChange("direction", (("outbound", "forward"), ("return", "reverse"))),
            EnumChange("carrier", (("dhl", "dhl-express"), ("ups", "ups-ground"), ("royal_mail", "royal-mail"))),
        ),
        splits=(
            split_as(
                TRACKING, "direction", {"outbound": "outbound_trackers.create", "return": "return_trackers.create"}
            ),
            split_as(
                TRACKING,
                "carrier",
                {"dhl": "tracking.track_dhl", "ups": "tracking.track_ups", "royal_mail": "tracking.track_royal_mail"},
            ),
            split_as(
                TRACKING,
                "updates",
                {
                    "none": "tracking.track_quietly",
                    "milestones": "tracking.track_milestones",
                    "every_scan": "tracking.track_every_scan",
                },
            ),
            split_as(
                TRACKING, "direction", {"outbound": "tracking.follow_delivery", "return": "tracking.follow_return"}
            ),
        ),
        type_changes=(
            multi_select(TRACKING, "updates"),
            multi_select(TRACKING, "carrier"),
            wrap_text(TRACKING, "order_ref", "id"),
            TypeChange(
                "tracking_number",
                {
                    "type": "array",
                    "items": {"type": "string", "pattern": r"^[A-Z0-9]{10,22}$"},
                    "description": "Tracking numbers of the parcels, one per item.",
                },
                one_item_list,
                "one number -> array of numbers",
            ),
        ),
    ),
    no_call=NoCall(
        "removed",
        notice="tracking.create_tracker was removed in 4.0.0 with no replacement: trackers are now created only "
        "when a label is bought.",
        explanation="the tool that started tracking a parcel was removed with no successor",
        remaining=(
            Endpoint(
                "tracking.get_tracker",
                "Read the events of a parcel already followed.",
                {"tracker_id": string("The tracker to read.", pattern=r"^trk_[a-z0-9]+$")},
                ("tracker_id",),
            ),
            Endpoint(
                "tracking.stop_tracker",
                "Stop following a parcel.",
                {"tracker_id": string("The tracker to stop.", pattern=r"^trk_[a-z0-9]+$")},
                ("tracker_id",),
            ),
        ),
    ),
)

#: After OpenTable's and Resy's booking APIs (party size, seating areas, instant or request
#: bookings) and Calendly's v2 scheduling (start times as separate date and time in some clients).
BOOKING = BaseSchema(
    id="booking",
    title="Table bookings",
    tool="booking.create_reservation",
    description="Book a table at a restaurant.",
    version="2.5.0",
    properties={
        "venue_id": string("The restaurant.", pattern=r"^ven_[a-z0-9]+$"),
        "guest_name": string("Name the table is booked under."),
        "party_size": integer("Number of guests.", 1),
        "start": string("Local arrival time, YYYY-MM-DDTHH:MM.", pattern=LOCAL_TIME),
        "seating": enum(["indoor", "outdoor", "bar"], "Where the guests sit."),
        "confirmation": enum(["instant", "request"], "Book at once, or ask the restaurant to confirm."),
        "occasion": string("Birthday, anniversary and the like."),
    },
    required=("venue_id", "guest_name", "party_size", "start", "seating", "confirmation"),
    pools=(
        verbatim("venue_id", ["ven_lisboa01", "ven_leith22", "ven_toronto7", "ven_porto3"]),
        verbatim("guest_name", ["Ana Ferreira", "Callum Reid", "Mei Wong", "Jonas Berg"]),
        said("party_size", [(2, "two"), (4, "four"), (6, "six"), (3, "three")]),
        said(
            "start",
            [
                ("2026-03-14T19:30", "on 14 March 2026 at 19:30"),
                ("2026-05-22T12:45", "on 22 May 2026 at 12:45"),
                ("2026-12-31T21:00", "on 31 December 2026 at 21:00"),
            ],
        ),
        said("seating", [("indoor", "inside"), ("outdoor", "outside on the terrace"), ("bar", "at the bar")]),
        said(
            "confirmation",
            [("instant", "Book it straight away."), ("request", "Send it as a request for the restaurant to confirm.")],
        ),
    ),
    template="Book a table for {party_size} at {venue_id} under the name {guest_name} {start}, seated {seating}. "
    "{confirmation}",
    rename=Rename("guest_name", ("customer_name", "booked_as")),
    new_required=NewRequired(
        "contact_email",
        string("Where the confirmation is sent."),
        (
            ("ana.f@example.pt", "Send the confirmation to ana.f@example.pt."),
            ("c.reid@example.co.uk", "Send the confirmation to c.reid@example.co.uk."),
            ("mei.wong@example.ca", "Send the confirmation to mei.wong@example.ca."),
        ),
    ),
    enum_change=EnumChange("seating", (("indoor", "inside"), ("outdoor", "terrace"), ("bar", "counter"))),
    split=Split(
        "confirmation",
        (
            ("instant", "booking.book_instantly", "Book a table at once."),
            ("request", "booking.request_booking", "Ask the restaurant to confirm a booking."),
        ),
    ),
    type_change=TypeChange(
        "start",
        datetime_object("Local arrival as separate date (YYYY-MM-DD) and time (HH:MM)."),
        datetime_parts,
        "YYYY-MM-DDTHH:MM string -> {date, time} object",
    ),
)

BOOKING_AUTHORED = Authored(
    base=BOOKING,
    extended=Extended(
        Deprecation("booking.reservations.create"),
        Pagination(
            "booking.list_reservations",
            "List the bookings of a restaurant, in arrival order.",
            "venue_id",
            string("The restaurant."),
            (("ven_lisboa01", "ven_lisboa01"), ("ven_leith22", "ven_leith22"), ("ven_porto3", "ven_porto3")),
            "List the bookings at {venue_id}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "market",
            enum(
                ["lisbon", "porto", "edinburgh", "toronto"],
                "City the restaurant is in: lisbon for ven_lisboa01, porto for ven_porto3, edinburgh for "
                "ven_leith22, toronto for ven_toronto7.",
            ),
            "venue_id",
            mapped(
                {"ven_lisboa01": "lisbon", "ven_porto3": "porto", "ven_leith22": "edinburgh", "ven_toronto7": "toronto"}
            ),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("venue_id", ("restaurant_id", "venue")),
            Rename("party_size", ("covers", "guests")),
            Rename("seating", ("area", "table_area")),
            Rename("start", ("arrival", "starts_at")),
        ),
        new_requireds=(
            NewRequired(
                "high_chair",
                boolean("Whether a high chair is needed."),
                ((True, "They need a high chair."), (False, "No high chair is needed.")),
            ),
            NewRequired(
                "deposit_cents",
                integer("Deposit taken when booking, in cents."),
                ((2000, "Take a $20 deposit (2000 cents)."), (0, "Take no deposit (0 cents).")),
            ),
            NewRequired(
                "source",
                enum(["phone", "walk_in", "web"], "How the booking reached us."),
                (("phone", "They booked by phone."), ("web", "They booked on the website.")),
            ),
            NewRequired(
                "dietary",
                string("Dietary needs the kitchen must know about."),
                (("vegetarian", "One guest is vegetarian."), ("nut allergy", "One guest has a nut allergy.")),
            ),
        ),
        enum_changes=(
            EnumChange("seating", (("indoor", "INDOOR"), ("outdoor", "OUTDOOR"), ("bar", "BAR"))),
            EnumChange("seating", (("indoor", "dining_room"), ("outdoor", "patio"), ("bar", "bar_counter"))),
            EnumChange("confirmation", (("instant", "confirmed"), ("request", "pending"))),
            EnumChange("confirmation", (("instant", "auto"), ("request", "manual"))),
        ),
        splits=(
            split_as(
                BOOKING, "confirmation", {"instant": "instant_bookings.create", "request": "booking_requests.create"}
            ),
            split_as(
                BOOKING,
                "seating",
                {"indoor": "booking.book_indoor", "outdoor": "booking.book_outdoor", "bar": "booking.book_bar"},
            ),
            split_as(BOOKING, "confirmation", {"instant": "booking.confirm_table", "request": "booking.ask_for_table"}),
            split_as(
                BOOKING,
                "seating",
                {"indoor": "indoor_tables.book", "outdoor": "outdoor_tables.book", "bar": "bar_seats.book"},
            ),
        ),
        type_changes=(
            multi_select(BOOKING, "seating"),
            wrap_text(BOOKING, "guest_name", "full_name"),
            TypeChange(
                "party_size",
                {
                    "type": "object",
                    "properties": {"adults": {"type": "integer", "minimum": 1}},
                    "required": ["adults"],
                    "additionalProperties": False,
                    "description": "Guests by age group; every guest the request counts is an adult.",
                },
                wrapped("adults"),
                "count -> object {adults}",
            ),
            unit_object(BOOKING, "party_size", "guests"),
        ),
    ),
    no_call=NoCall(
        "missingRequired",
        notice="Every booking is secured with a card against no-shows.",
        explanation="card_token is now required, has no default, and the request gives no card",
        field="card_token",
        schema=string(
            "Token of the card that secures the booking against no-shows (tok_...). There is no default card.",
            pattern=r"^tok_[A-Za-z0-9]+$",
        ),
    ),
)
