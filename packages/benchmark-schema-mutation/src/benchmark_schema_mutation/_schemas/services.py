"""Services a product calls: search indexes, translation, geocoding.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project. The schemas added for the full split say
which public API's shape and migrations they follow."""

from __future__ import annotations

from .build import (
    boolean,
    enum,
    integer,
    mapped,
    multi_select,
    one_item_list,
    said,
    scaled,
    scaled_to,
    split_as,
    string,
    suffixed,
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

#: After Elasticsearch's create-index API (`number_of_replicas`, `refresh_interval` as a time
#: string such as "30s", language analyzers) and Algolia's ranking by custom attributes.
SEARCH = BaseSchema(
    id="search",
    title="Search indexes",
    tool="search.create_index",
    description="Create a full-text search index.",
    version="7.17.0",
    properties={
        "name": string("Index name: lowercase letters, digits and dashes.", pattern=r"^[a-z0-9-]+$"),
        "owner_team": string("Team that owns the index."),
        "language": enum(["english", "portuguese", "german"], "Language the text analyzer is built for."),
        "ranking": enum(["relevance", "recency"], "Rank results by relevance, or newest first."),
        "replicas": integer("Copies of each shard kept for failover."),
        "refresh_interval": {
            "type": "number",
            "minimum": 0,
            "description": "Seconds between refreshes that make new documents searchable.",
        },
    },
    required=("name", "language", "ranking", "replicas", "refresh_interval"),
    pools=(
        verbatim("name", ["products-eu", "help-articles", "job-postings", "recipes-v2"]),
        verbatim("owner_team", ["search-platform", "content", "growth"]),
        said("language", [("english", "English"), ("portuguese", "Portuguese"), ("german", "German")]),
        said("ranking", [("relevance", "ranked by relevance"), ("recency", "with the newest documents first")]),
        said("replicas", [(1, "one replica"), (2, "two replicas"), (0, "no replicas")]),
        said(
            "refresh_interval",
            [(1, "every second"), (5, "every 5 seconds"), (30, "every 30 seconds"), (60, "every minute")],
        ),
    ),
    template="Create a search index {name} for {language} text, owned by {owner_team}, {ranking}, with {replicas}; "
    "make new documents searchable {refresh_interval}.",
    rename=Rename("name", ("index_name", "index")),
    new_required=NewRequired(
        "shards",
        integer("Number of primary shards.", 1),
        ((1, "Give it 1 primary shard."), (3, "Give it 3 primary shards."), (6, "Give it 6 primary shards.")),
    ),
    enum_change=EnumChange("language", (("english", "en"), ("portuguese", "pt"), ("german", "de"))),
    split=Split(
        "ranking",
        (
            ("relevance", "search.create_relevance_index", "Create an index that ranks results by relevance."),
            ("recency", "search.create_recency_index", "Create an index that ranks the newest documents first."),
        ),
    ),
    type_change=TypeChange(
        "refresh_interval",
        {
            "type": "string",
            "pattern": r"^\d+s$",
            "description": 'Refresh interval as a time string, for example "30s".',
        },
        suffixed("s"),
        'seconds -> time string ("30s")',
    ),
)

SEARCH_AUTHORED = Authored(
    base=SEARCH,
    extended=Extended(
        Deprecation("search.indexes.create"),
        Pagination(
            "search.list_indexes",
            "List the indexes a team owns, by name.",
            "owner_team",
            string("Team whose indexes are listed."),
            (("search-platform", "search-platform"), ("content", "content"), ("growth", "growth")),
            "List the search indexes owned by {owner_team}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "cluster",
            enum(
                ["search-us", "search-eu"],
                "Cluster the index is created on, by language: search-us for English, search-eu for Portuguese and "
                "German.",
            ),
            "language",
            mapped({"english": "search-us", "portuguese": "search-eu", "german": "search-eu"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("language", ("analyzer", "locale")),
            Rename("ranking", ("sort_mode", "ranking_mode")),
            Rename("replicas", ("number_of_replicas", "replica_count")),
            Rename("refresh_interval", ("refresh_seconds", "refresh")),
        ),
        new_requireds=(
            NewRequired(
                "synonyms_set",
                string("Synonym set applied at search time."),
                (
                    ("retail-synonyms", "Apply the retail-synonyms set."),
                    ("help-synonyms", "Apply the help-synonyms set."),
                ),
            ),
            NewRequired(
                "typo_tolerance",
                boolean("Whether misspelt queries still match."),
                ((True, "Tolerate typos in queries."), (False, "Match queries exactly as typed.")),
            ),
            NewRequired(
                "max_result_window",
                integer("Deepest result a search may page to.", 1),
                ((10000, "Let searches page to result 10000."), (500, "Let searches page to result 500.")),
            ),
            NewRequired(
                "tier",
                enum(["hot", "warm"], "Storage tier of the index."),
                (("hot", "Keep it on the hot tier."), ("warm", "Keep it on the warm tier.")),
            ),
        ),
        enum_changes=(
            EnumChange("language", (("english", "ENGLISH"), ("portuguese", "PORTUGUESE"), ("german", "GERMAN"))),
            EnumChange("language", (("english", "eng"), ("portuguese", "por"), ("german", "deu"))),
            EnumChange("ranking", (("relevance", "score"), ("recency", "date_desc"))),
            EnumChange("ranking", (("relevance", "RELEVANCE"), ("recency", "RECENCY"))),
        ),
        splits=(
            split_as(SEARCH, "ranking", {"relevance": "relevance_indexes.create", "recency": "recency_indexes.create"}),
            split_as(
                SEARCH,
                "language",
                {
                    "english": "search.create_english_index",
                    "portuguese": "search.create_portuguese_index",
                    "german": "search.create_german_index",
                },
            ),
            split_as(
                SEARCH, "ranking", {"relevance": "search.build_scored_index", "recency": "search.build_time_index"}
            ),
            split_as(
                SEARCH,
                "language",
                {"english": "en_indexes.create", "portuguese": "pt_indexes.create", "german": "de_indexes.create"},
            ),
        ),
        type_changes=(
            scaled_to("refresh_interval", 1000, "Milliseconds between refreshes.", "seconds -> integer ms"),
            unit_object(SEARCH, "refresh_interval", "s"),
            multi_select(SEARCH, "language"),
            wrap_text(SEARCH, "name", "id"),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the create_index privilege.",
        explanation="creating an index needs the create_index privilege and the caller's key may only read",
        sentence="The API key I use has only the read and view_index_metadata privileges.",
        scope="create_index",
        granted=("read", "view_index_metadata"),
    ),
)

#: After DeepL's API (`target_lang` EN deprecated for EN-GB and EN-US, PT for PT-PT and PT-BR;
#: `text` as an array; `formality` more or less) and Google Translate v3's projects and glossaries.
TRANSLATION = BaseSchema(
    id="translation",
    title="Translation",
    tool="translate.translate_text",
    description="Translate a text into another language.",
    version="1.9.0",
    properties={
        "text": string("The text to translate."),
        "source_lang": enum(["fr", "es", "it"], "Language of the text."),
        "target_lang": enum(
            ["en", "pt", "de"], "Language to translate into: British English, European Portuguese, German."
        ),
        "formality": enum(["formal", "informal"], "Register of the translation."),
        "glossary_id": string("Glossary whose terms must be used.", pattern=r"^gl_[a-z0-9_]+$"),
    },
    required=("text", "source_lang", "target_lang", "formality"),
    pools=(
        together(
            [
                ({"text": "Merci pour votre commande.", "source_lang": "fr"}, {"source_lang": "French"}),
                ({"text": "Le colis arrivera demain.", "source_lang": "fr"}, {"source_lang": "French"}),
                ({"text": "Su reserva está confirmada.", "source_lang": "es"}, {"source_lang": "Spanish"}),
                ({"text": "La riunione è spostata a lunedì.", "source_lang": "it"}, {"source_lang": "Italian"}),
            ]
        ),
        said(
            "target_lang",
            [("en", "into British English"), ("pt", "into European Portuguese"), ("de", "into German")],
        ),
        said("formality", [("formal", "in a formal register"), ("informal", "in a casual register")]),
        verbatim("glossary_id", ["gl_retail_terms", "gl_support_v2", "gl_legal_basic"]),
    ),
    template='Translate the {source_lang} text "{text}" {target_lang}, {formality}, using glossary {glossary_id}.',
    rename=Rename("target_lang", ("target_language", "to_lang")),
    new_required=NewRequired(
        "model_type",
        enum(["quality_optimized", "latency_optimized"], "Trade quality against speed."),
        (
            ("quality_optimized", "Favour quality over speed."),
            ("latency_optimized", "Favour speed over quality."),
        ),
    ),
    enum_change=EnumChange("target_lang", (("en", "EN-GB"), ("pt", "PT-PT"), ("de", "DE"))),
    split=Split(
        "formality",
        (
            ("formal", "translate.translate_formal", "Translate a text in a formal register."),
            ("informal", "translate.translate_informal", "Translate a text in a casual register."),
        ),
    ),
    type_change=TypeChange(
        "text",
        {"type": "array", "items": {"type": "string"}, "description": "The texts to translate, one per item."},
        one_item_list,
        "one text -> array of texts",
    ),
)

TRANSLATION_AUTHORED = Authored(
    base=TRANSLATION,
    extended=Extended(
        Deprecation("translate.text"),
        Pagination(
            "translate.list_glossaries",
            "List the glossaries for one source language.",
            "source_lang",
            enum(["fr", "es", "it"], "Source language of the glossaries."),
            (("fr", "French"), ("es", "Spanish"), ("it", "Italian")),
            "List the glossaries for {source_lang} source text: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "project",
            enum(
                ["proj-retail", "proj-support", "proj-legal"],
                "Project that owns the glossary: proj-retail for gl_retail_terms, proj-support for gl_support_v2, "
                "proj-legal for gl_legal_basic.",
            ),
            "glossary_id",
            mapped({"gl_retail_terms": "proj-retail", "gl_support_v2": "proj-support", "gl_legal_basic": "proj-legal"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("text", ("source_text", "q")),
            Rename("source_lang", ("source_language", "from_lang")),
            Rename("formality", ("tone", "register")),
            Rename("glossary_id", ("glossary", "glossary_ref")),
        ),
        new_requireds=(
            NewRequired(
                "preserve_formatting",
                boolean("Keep the text's punctuation and casing as they are."),
                ((True, "Keep its formatting as it is."), (False, "Formatting may be corrected.")),
            ),
            NewRequired(
                "tag_handling",
                enum(["xml", "html"], "Markup the text may contain."),
                (("html", "It may contain HTML tags."), ("xml", "It may contain XML tags.")),
            ),
            NewRequired(
                "split_sentences",
                enum(["0", "1", "nonewlines"], "Sentence splitting: 0 none, 1 everywhere, nonewlines not at newlines."),
                (("0", "Do not split it into sentences (0)."), ("nonewlines", "Split sentences, but not at newlines.")),
            ),
            NewRequired(
                "context",
                string("Text around the one to translate, to guide word choice."),
                (
                    ("An order confirmation email.", 'For context: "An order confirmation email."'),
                    ("A hotel booking page.", 'For context: "A hotel booking page."'),
                ),
            ),
        ),
        enum_changes=(
            EnumChange("target_lang", (("en", "EN-US"), ("pt", "PT-BR"), ("de", "DE-DE"))),
            EnumChange("target_lang", (("en", "eng"), ("pt", "por"), ("de", "deu"))),
            EnumChange("formality", (("formal", "more"), ("informal", "less"))),
            EnumChange("formality", (("formal", "prefer_more"), ("informal", "prefer_less"))),
        ),
        splits=(
            split_as(
                TRANSLATION,
                "formality",
                {"formal": "formal_translations.create", "informal": "informal_translations.create"},
            ),
            split_as(
                TRANSLATION,
                "target_lang",
                {"en": "translate.to_english", "pt": "translate.to_portuguese", "de": "translate.to_german"},
            ),
            split_as(
                TRANSLATION,
                "source_lang",
                {"fr": "translate.from_french", "es": "translate.from_spanish", "it": "translate.from_italian"},
            ),
            split_as(
                TRANSLATION,
                "target_lang",
                {
                    "en": "english_translations.create",
                    "pt": "portuguese_translations.create",
                    "de": "german_translations.create",
                },
            ),
        ),
        type_changes=(
            multi_select(TRANSLATION, "target_lang"),
            wrap_text(TRANSLATION, "text", "content"),
            multi_select(TRANSLATION, "formality"),
            wrap_text(TRANSLATION, "glossary_id", "id"),
        ),
    ),
    no_call=NoCall(
        "missingRequired",
        notice="Every request names the paid plan its characters are billed to.",
        explanation="usage_plan is now required, has no default, and the request does not say which plan pays",
        field="usage_plan",
        schema=string(
            "Paid plan the characters are billed to, for example plan_pro_eu. There is no default plan.",
            pattern=r"^plan_[a-z0-9_]+$",
        ),
    ),
)

#: After Google's Geocoding API (`region` biasing by ccTLD, `result_type`, `location_type` such as
#: ROOFTOP and APPROXIMATE) and Mapbox's v6 geocoding (types address, postcode and place).
GEOCODING = BaseSchema(
    id="geocoding",
    title="Geocoding",
    tool="maps.geocode",
    description="Find the coordinates of an address.",
    version="5.1.0",
    properties={
        "address": string("The address as a person would write it."),
        "region": enum(["pt", "gb", "ca"], "Country to prefer, as its internet country code."),
        "result_type": enum(["street_address", "postal_code", "locality"], "What sort of place to return."),
        "precision": enum(["rooftop", "approximate"], "Exact building coordinates, or an approximate point."),
        "radius": {"type": "number", "minimum": 0, "description": "Kilometres around the caller's position to search."},
        "language": string("Language of the returned names, as a two-letter code."),
    },
    required=("address", "region", "result_type", "precision", "radius"),
    pools=(
        together(
            [
                ({"address": "Rua Augusta 45, Lisboa", "region": "pt"}, {"region": "in Portugal"}),
                ({"address": "Praça da Liberdade 12, Porto", "region": "pt"}, {"region": "in Portugal"}),
                ({"address": "12 Harbour Street, Leith, Edinburgh", "region": "gb"}, {"region": "in the UK"}),
                ({"address": "88 King Street West, Toronto", "region": "ca"}, {"region": "in Canada"}),
            ]
        ),
        said(
            "result_type",
            [
                ("street_address", "the exact street address"),
                ("postal_code", "the postcode area"),
                ("locality", "the town or city"),
            ],
        ),
        said("precision", [("rooftop", "rooftop precision"), ("approximate", "approximate precision")]),
        said("radius", [(5, "5 km"), (25, "25 km"), (2.5, "2.5 km"), (0.8, "800 m")]),
        verbatim("language", ["en", "pt", "fr"]),
    ),
    template='Find "{address}" {region}: I want {result_type} at {precision}, searching within {radius} of me, with '
    "names in language {language}.",
    rename=Rename("address", ("query", "search_text")),
    new_required=NewRequired(
        "session_token",
        string("Token grouping the lookups of one search session."),
        (
            ("sess-8c21", "Use session token sess-8c21."),
            ("sess-40fa", "Use session token sess-40fa."),
            ("sess-9d07", "Use session token sess-9d07."),
        ),
    ),
    enum_change=EnumChange(
        "result_type", (("street_address", "address"), ("postal_code", "postcode"), ("locality", "place"))
    ),
    split=Split(
        "precision",
        (
            ("rooftop", "maps.geocode_rooftop", "Find the exact building coordinates of an address."),
            ("approximate", "maps.geocode_approximate", "Find an approximate point for an address."),
        ),
    ),
    type_change=TypeChange(
        "radius",
        integer("Whole metres around the caller's position to search, for example 5000."),
        scaled(1000),
        "kilometres -> integer metres",
    ),
)

GEOCODING_AUTHORED = Authored(
    base=GEOCODING,
    extended=Extended(
        Deprecation("maps.search_address"),
        Pagination(
            "maps.list_saved_places",
            "List the saved places in one country.",
            "region",
            enum(["pt", "gb", "ca"], "Country, as its internet country code."),
            (("pt", "Portugal"), ("gb", "the UK"), ("ca", "Canada")),
            "List the saved places in {region}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "data_region",
            enum(["eu", "uk", "na"], "Where the lookup is processed: eu for pt, uk for gb, na for ca."),
            "region",
            mapped({"pt": "eu", "gb": "uk", "ca": "na"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("region", ("country_bias", "region_code")),
            Rename("result_type", ("types", "place_type")),
            Rename("precision", ("accuracy", "location_type")),
            Rename("radius", ("radius_km", "proximity")),
        ),
        new_requireds=(
            NewRequired(
                "limit",
                integer("Most results to return.", 1),
                ((1, "Return only the best match."), (5, "Return up to 5 matches.")),
            ),
            NewRequired(
                "autocomplete",
                boolean("Treat the address as a prefix still being typed."),
                ((False, "The address is complete."), (True, "The address is still being typed.")),
            ),
            NewRequired(
                "worldview",
                enum(["us", "gb", "in"], "Whose view of disputed borders the results follow."),
                (("gb", "Follow the UK's view of borders."), ("us", "Follow the US view of borders.")),
            ),
            NewRequired(
                "permanent",
                boolean("Whether the results will be stored."),
                ((True, "We will store the results."), (False, "We will not store the results.")),
            ),
        ),
        enum_changes=(
            EnumChange(
                "result_type",
                (("street_address", "STREET_ADDRESS"), ("postal_code", "POSTAL_CODE"), ("locality", "LOCALITY")),
            ),
            EnumChange("result_type", (("street_address", "street"), ("postal_code", "zip"), ("locality", "city"))),
            EnumChange("precision", (("rooftop", "ROOFTOP"), ("approximate", "APPROXIMATE"))),
            EnumChange("precision", (("rooftop", "exact"), ("approximate", "estimated"))),
        ),
        splits=(
            split_as(
                GEOCODING, "precision", {"rooftop": "rooftop_geocodes.get", "approximate": "approximate_geocodes.get"}
            ),
            split_as(
                GEOCODING,
                "result_type",
                {
                    "street_address": "maps.find_address",
                    "postal_code": "maps.find_postcode",
                    "locality": "maps.find_place",
                },
            ),
            split_as(GEOCODING, "region", {"pt": "maps.geocode_pt", "gb": "maps.geocode_gb", "ca": "maps.geocode_ca"}),
            split_as(
                GEOCODING,
                "result_type",
                {
                    "street_address": "address_lookup.run",
                    "postal_code": "postcode_lookup.run",
                    "locality": "locality_lookup.run",
                },
            ),
        ),
        type_changes=(
            unit_object(GEOCODING, "radius", "km"),
            multi_select(GEOCODING, "result_type"),
            wrap_text(GEOCODING, "address", "text"),
            multi_select(GEOCODING, "region"),
        ),
    ),
    no_call=NoCall(
        "removed",
        notice="maps.geocode was removed in 6.0.0 with no replacement: addresses are now looked up only through "
        "the client-side autocomplete widget.",
        explanation="the tool that geocoded addresses was removed with no successor",
        remaining=(
            Endpoint(
                "maps.reverse_geocode",
                "Find the address at a point.",
                {
                    "lat": {"type": "number", "description": "Latitude."},
                    "lng": {"type": "number", "description": "Longitude."},
                },
                ("lat", "lng"),
            ),
            Endpoint(
                "maps.get_place",
                "Read a place by its id.",
                {"place_id": string("The place to read.")},
                ("place_id",),
            ),
        ),
    ),
)
