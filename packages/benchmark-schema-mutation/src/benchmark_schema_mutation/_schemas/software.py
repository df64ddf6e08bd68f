"""Software delivery: issue tracking, feature flags, CI/CD, code hosting, container registries, webhooks.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project."""

from __future__ import annotations

from .build import (
    boolean,
    comma_list,
    enum,
    integer,
    mapped,
    multi_select,
    owner,
    owner_and_name,
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
    PAGE_TO_CURSOR,
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

ISSUES = BaseSchema(
    id="issues",
    title="Issue tracker",
    tool="issues.create",
    description="Open an issue in a repository.",
    version="3.2.0",
    properties={
        "repo": string("Repository as owner/name.", pattern=r"^[a-z0-9-]+/[a-z0-9-]+$"),
        "title": string("One-line summary of the issue."),
        "body": string("Longer description, in Markdown."),
        "kind": enum(["bug", "feature", "chore"], "What sort of work the issue tracks."),
        "visibility": enum(["public", "team"], "Who can see the issue."),
        "labels": string('Labels as one comma-separated string without spaces, for example "ui,docs".'),
        "assignee": string("Username to assign; leave out to keep the issue unassigned."),
    },
    required=("repo", "title", "kind", "visibility"),
    pools=(
        verbatim("repo", ["acme/widgets", "northwind/storefront", "lumen/docs-site", "orbit/mobile-app"]),
        together(
            [
                ({"title": "Dark mode toggle resets after reload", "kind": "bug"}, {"kind": "bug report"}),
                ({"title": "CSV export drops the last row", "kind": "bug"}, {"kind": "bug report"}),
                ({"title": "Keyboard shortcut for archiving", "kind": "feature"}, {"kind": "feature request"}),
                ({"title": "Bulk edit for due dates", "kind": "feature"}, {"kind": "feature request"}),
                ({"title": "Upgrade the build image to Node 22", "kind": "chore"}, {"kind": "maintenance chore"}),
                ({"title": "Remove the unused analytics SDK", "kind": "chore"}, {"kind": "maintenance chore"}),
            ]
        ),
        said("visibility", [("public", "anyone can see"), ("team", "only the team can see")]),
        said(
            "labels",
            [
                ("ui,accessibility", "ui and accessibility"),
                ("export,data", "export and data"),
                ("search,i18n", "search and i18n"),
                ("performance", "performance"),
            ],
        ),
    ),
    template='In {repo}, open a {kind} titled "{title}" that {visibility}. Label it {labels}.',
    rename=Rename("title", ("subject", "headline")),
    new_required=NewRequired(
        "severity",
        enum(["low", "medium", "high", "critical"], "How badly the issue hurts users."),
        (
            ("low", "It is low severity."),
            ("high", "Treat it as high severity."),
            ("critical", "Its severity is critical: customers are blocked."),
        ),
    ),
    enum_change=EnumChange("kind", (("bug", "defect"), ("feature", "enhancement"), ("chore", "task"))),
    split=Split(
        "visibility",
        (
            ("public", "issues.create_public", "Open an issue that anyone can see."),
            ("team", "issues.create_team", "Open an issue that only the repository's team can see."),
        ),
    ),
    type_change=TypeChange(
        "labels",
        {"type": "array", "items": {"type": "string"}, "description": "Labels, one per item."},
        comma_list,
        "comma-separated string -> array of strings",
    ),
)

ISSUES_AUTHORED = Authored(
    base=ISSUES,
    extended=Extended(
        Deprecation("issues.open"),
        Pagination(
            "issues.list",
            "List the issues of a repository, newest first.",
            "repo",
            string("Repository as owner/name."),
            quoted("acme/widgets", "lumen/docs-site", "orbit/mobile-app"),
            "List the issues in {repo}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "org",
            string("Organisation the call acts in: the owner part of the repository (acme for acme/widgets)."),
            "repo",
            owner,
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("repo", ("repository", "project")),
            Rename("labels", ("tags", "label_list")),
            Rename("kind", ("type", "category")),
            Rename("visibility", ("audience", "access")),
        ),
        new_requireds=(
            NewRequired(
                "component",
                enum(["frontend", "backend", "infra"], "Part of the system the issue is about."),
                (("frontend", "It concerns the frontend."), ("backend", "It concerns the backend.")),
            ),
            NewRequired(
                "milestone",
                string("Milestone the issue is planned for, for example v2.4."),
                (("v2.4", "Plan it for milestone v2.4."), ("v3.0", "Plan it for milestone v3.0.")),
            ),
            NewRequired(
                "reporter",
                string("Username of the person reporting the issue."),
                (("jkim", "It is reported by jkim."), ("a.osei", "It is reported by a.osei.")),
            ),
            NewRequired(
                "estimate",
                integer("Estimated effort in story points.", 1),
                ((3, "Estimate it at 3 story points."), (8, "Estimate it at 8 story points.")),
            ),
        ),
        enum_changes=(
            EnumChange("kind", (("bug", "incident"), ("feature", "improvement"), ("chore", "maintenance"))),
            EnumChange("kind", (("bug", "BUG"), ("feature", "FEATURE"), ("chore", "CHORE"))),
            EnumChange("visibility", (("public", "everyone"), ("team", "members"))),
            EnumChange("visibility", (("public", "open"), ("team", "internal"))),
        ),
        splits=(
            split_as(
                ISSUES,
                "kind",
                {"bug": "issues.report_bug", "feature": "issues.request_feature", "chore": "issues.add_chore"},
            ),
            split_as(ISSUES, "kind", {"bug": "bugs.create", "feature": "features.create", "chore": "chores.create"}),
            split_as(ISSUES, "visibility", {"public": "issues.open_public", "team": "issues.open_internal"}),
            split_as(ISSUES, "visibility", {"public": "public_issues.create", "team": "team_issues.create"}),
        ),
        type_changes=(
            multi_select(ISSUES, "kind"),
            multi_select(ISSUES, "visibility"),
            wrap_text(ISSUES, "title", "text"),
            TypeChange(
                "repo",
                {
                    "type": "object",
                    "properties": {"owner": {"type": "string"}, "name": {"type": "string"}},
                    "required": ["owner", "name"],
                    "additionalProperties": False,
                    "description": "Repository as an object: its owner and its name.",
                },
                owner_and_name,
                "owner/name string -> {owner, name} object",
            ),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the OAuth scope issues:write.",
        explanation="issues.create needs the issues:write scope and the caller's token grants only read scopes",
        sentence="The token I am calling with grants only the issues:read and metadata:read scopes.",
        scope="issues:write",
        granted=("issues:read", "metadata:read"),
    ),
)

FLAGS = BaseSchema(
    id="flags",
    title="Feature flags",
    tool="flags.create",
    description="Create a feature flag.",
    version="1.4.0",
    properties={
        "key": string("Identifier used in code.", pattern=r"^[a-z][a-z0-9_]*$"),
        "description": string("What the flag switches."),
        "environment": enum(["dev", "staging", "prod"], "Where the flag is created."),
        "scope": enum(["user", "organization"], "Whether the flag is evaluated per user or per organisation."),
        "ttl": {
            "type": "number",
            "minimum": 0,
            "description": "Days until the flag is reported as stale and should be removed.",
        },
        "default_on": {"type": "boolean", "description": "Serve the flag as on until a rule says otherwise."},
    },
    required=("key", "environment", "scope", "ttl"),
    pools=(
        together(
            [
                ({"key": "new_checkout", "description": "New checkout flow"}, {}),
                ({"key": "beta_search", "description": "Beta search ranking"}, {}),
                ({"key": "dark_mode", "description": "Dark mode for the web app"}, {}),
                ({"key": "bulk_export", "description": "Bulk export of reports"}, {}),
            ]
        ),
        said(
            "environment",
            [
                ("dev", "in the development environment"),
                ("staging", "in the pre-release environment"),
                ("prod", "in production"),
            ],
        ),
        said("scope", [("user", "evaluated per user"), ("organization", "evaluated per organisation")]),
        said("ttl", [(14, "two weeks"), (30, "30 days"), (7, "a week"), (1.5, "a day and a half")]),
    ),
    template='Create a feature flag {key} ("{description}") {environment}, {scope}. It goes stale after {ttl}.',
    rename=Rename("key", ("flag_key", "identifier")),
    new_required=NewRequired(
        "owner",
        string("Email of the person responsible for removing the flag."),
        (
            ("mei.lin@example.com", "Mei Lin (mei.lin@example.com) owns the flag."),
            ("t.adeyemi@example.com", "Tunde Adeyemi (t.adeyemi@example.com) owns the flag."),
            ("rosa.g@example.com", "Rosa García (rosa.g@example.com) owns the flag."),
        ),
    ),
    enum_change=EnumChange("environment", (("dev", "development"), ("staging", "preview"), ("prod", "production"))),
    split=Split(
        "scope",
        (
            ("user", "flags.create_user_flag", "Create a flag evaluated per user."),
            ("organization", "flags.create_org_flag", "Create a flag evaluated per organisation."),
        ),
    ),
    type_change=TypeChange(
        "ttl",
        {"type": "integer", "minimum": 0, "description": "Whole hours until the flag is reported as stale."},
        scaled(24),
        "days -> integer hours",
    ),
)

FLAGS_AUTHORED = Authored(
    base=FLAGS,
    extended=Extended(
        Deprecation("flags.define"),
        Pagination(
            "flags.list",
            "List the feature flags of one environment.",
            "environment",
            enum(["dev", "staging", "prod"], "Environment to list."),
            (("prod", "production"), ("staging", "the pre-release environment"), ("dev", "development")),
            "List the feature flags in {environment}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "oauth_scope",
            enum(
                ["flags.dev:write", "flags.staging:write", "flags.prod:write"],
                "OAuth scope the call acts under: flags.<environment>:write for the environment the flag is "
                "created in.",
            ),
            "environment",
            mapped({"dev": "flags.dev:write", "staging": "flags.staging:write", "prod": "flags.prod:write"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("description", ("summary", "label")),
            Rename("environment", ("env", "stage")),
            Rename("scope", ("evaluation", "target")),
            Rename("ttl", ("expires_after", "lifetime_days")),
        ),
        new_requireds=(
            NewRequired(
                "rollout_percent",
                integer("Share of users or organisations who get the flag, 0 to 100."),
                ((10, "Roll it out to 10%."), (50, "Roll it out to half.")),
            ),
            NewRequired(
                "kind",
                enum(["release", "experiment", "ops"], "Why the flag exists."),
                (("release", "It guards a release."), ("experiment", "It runs an experiment.")),
            ),
            NewRequired(
                "ticket",
                string("Tracking ticket for removing the flag."),
                (("FLAG-118", "Track its removal in FLAG-118."), ("FLAG-402", "Track its removal in FLAG-402.")),
            ),
            NewRequired(
                "archived",
                boolean("Whether the flag starts archived."),
                ((False, "It starts active, not archived."), (True, "It starts archived.")),
            ),
        ),
        enum_changes=(
            EnumChange("environment", (("dev", "DEV"), ("staging", "STAGING"), ("prod", "PROD"))),
            EnumChange("environment", (("dev", "local"), ("staging", "qa"), ("prod", "live"))),
            EnumChange("scope", (("user", "per_user"), ("organization", "per_org"))),
            EnumChange("scope", (("user", "individual"), ("organization", "account"))),
        ),
        splits=(
            split_as(
                FLAGS,
                "environment",
                {"dev": "flags.create_in_dev", "staging": "flags.create_in_staging", "prod": "flags.create_in_prod"},
            ),
            split_as(FLAGS, "scope", {"user": "user_flags.create", "organization": "org_flags.create"}),
            split_as(
                FLAGS,
                "environment",
                {"dev": "dev.flags.create", "staging": "staging.flags.create", "prod": "prod.flags.create"},
            ),
            split_as(FLAGS, "scope", {"user": "flags.new_user_flag", "organization": "flags.new_account_flag"}),
        ),
        type_changes=(
            unit_object(FLAGS, "ttl", "days"),
            scaled_to("ttl", 1440, "Whole minutes until the flag is reported as stale.", "days -> integer minutes"),
            multi_select(FLAGS, "environment"),
            wrap_text(FLAGS, "description", "text"),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the OAuth scope flags:admin.",
        explanation="flags.create needs the flags:admin scope and the caller's token grants only flags:read and "
        "flags:evaluate",
        sentence="My API token has the flags:read and flags:evaluate scopes, nothing else.",
        scope="flags:admin",
        granted=("flags:read", "flags:evaluate"),
    ),
)
