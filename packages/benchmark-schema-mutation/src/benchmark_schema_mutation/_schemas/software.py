"""Software delivery: issue tracking, feature flags, CI/CD pipelines, pull requests, container registries, webhooks.

Each schema comes with its extended kinds, its held-out alternatives and its no-call request
(`Authored`); the text is original to this project. The schemas added for the full split say
which public API's shape and migrations they follow."""

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

_REPO_OBJECT = {
    "type": "object",
    "properties": {"owner": {"type": "string"}, "name": {"type": "string"}},
    "required": ["owner", "name"],
    "additionalProperties": False,
}

#: Shaped like GitHub's issues API (`POST /repos/{owner}/{repo}/issues`: title, body, labels, assignees).
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

#: Shaped like LaunchDarkly's feature flags API (a key, per-environment settings, temporary flags).
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

#: After GitLab's pipelines API (`POST /projects/:id/pipeline`, timeouts in seconds) and GitHub
#: Actions' workflow_dispatch (inputs, `ref` as the branch).
CI = BaseSchema(
    id="ci",
    title="CI/CD pipelines",
    tool="ci.trigger_pipeline",
    description="Start a pipeline run for a branch of a project.",
    version="2.3.0",
    properties={
        "project": string("Project as group/name.", pattern=r"^[a-z0-9-]+/[a-z0-9-]+$"),
        "ref": string("Branch to build."),
        "environment": enum(["review", "staging", "production"], "Where the pipeline deploys when it passes."),
        "run_mode": enum(["full", "smoke"], "Run every job, or only the smoke tests."),
        "timeout": {"type": "number", "minimum": 0, "description": "Minutes before the run is cancelled."},
        "title": string("Text shown on the pipeline run."),
    },
    required=("project", "ref", "environment", "run_mode", "timeout"),
    pools=(
        verbatim("project", ["acme/api-gateway", "northwind/web-shop", "lumen/search-indexer", "orbit/payments-core"]),
        verbatim("ref", ["main", "release/2.4", "hotfix/login-timeout", "feature/dark-mode"]),
        said(
            "environment",
            [
                ("review", "to a review app"),
                ("staging", "to the pre-release environment"),
                ("production", "to production"),
            ],
        ),
        said("run_mode", [("full", "running every job"), ("smoke", "running only the smoke tests")]),
        said(
            "timeout",
            [(30, "30 minutes"), (45, "45 minutes"), (90, "an hour and a half"), (7.5, "seven and a half minutes")],
        ),
    ),
    template="Trigger a pipeline for {project} on {ref}, deploying {environment} and {run_mode}. Cancel it if it "
    "runs longer than {timeout}.",
    rename=Rename("ref", ("branch", "git_ref")),
    new_required=NewRequired(
        "triggered_by",
        string("Username recorded as having started the run."),
        (
            ("dchen", "Record dchen as the person who started it."),
            ("a.kowalski", "Record a.kowalski as the person who started it."),
            ("release-bot", "Record release-bot as the one who started it."),
        ),
    ),
    enum_change=EnumChange(
        "environment", (("review", "preview"), ("staging", "pre_production"), ("production", "live"))
    ),
    split=Split(
        "run_mode",
        (
            ("full", "ci.run_full_pipeline", "Start a run of every job of the pipeline."),
            ("smoke", "ci.run_smoke_tests", "Start a run of the smoke-test jobs only."),
        ),
    ),
    type_change=TypeChange(
        "timeout",
        integer("Whole seconds before the run is cancelled, for example 1800."),
        scaled(60),
        "minutes -> integer seconds",
    ),
)

CI_AUTHORED = Authored(
    base=CI,
    extended=Extended(
        Deprecation("ci.pipelines.create"),
        Pagination(
            "ci.list_pipelines",
            "List the pipeline runs of a project, newest first.",
            "project",
            string("Project as group/name."),
            (
                ("acme/api-gateway", "acme/api-gateway"),
                ("northwind/web-shop", "northwind/web-shop"),
                ("orbit/payments-core", "orbit/payments-core"),
            ),
            "List the pipeline runs of {project}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "namespace",
            string("Namespace the run is billed to: the group part of the project (acme for acme/api-gateway)."),
            "project",
            owner,
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("project", ("repository", "project_path")),
            Rename("environment", ("deploy_target", "stage")),
            Rename("run_mode", ("mode", "suite")),
            Rename("timeout", ("max_duration", "timeout_minutes")),
        ),
        new_requireds=(
            NewRequired(
                "runner_tag",
                enum(["linux-x64", "linux-arm64", "macos"], "Which runners may pick up the jobs."),
                (("linux-arm64", "Run it on the ARM Linux runners."), ("macos", "Run it on the macOS runners.")),
            ),
            NewRequired(
                "use_cache",
                boolean("Whether jobs may restore the dependency cache."),
                ((False, "Do not restore the dependency cache."), (True, "Restore the dependency cache.")),
            ),
            NewRequired(
                "commit_sha",
                string("Exact commit to build, 7 to 40 hex digits.", pattern=r"^[0-9a-f]{7,40}$"),
                (("3f9c2ab", "Build commit 3f9c2ab."), ("a81d07e", "Build commit a81d07e.")),
            ),
            NewRequired(
                "priority",
                integer("Queue priority, 1 (highest) to 5.", 1),
                ((1, "Give it the highest queue priority, 1."), (4, "Give it queue priority 4.")),
            ),
        ),
        enum_changes=(
            EnumChange("environment", (("review", "review_app"), ("staging", "stage"), ("production", "prod"))),
            EnumChange("environment", (("review", "REVIEW"), ("staging", "STAGING"), ("production", "PRODUCTION"))),
            EnumChange("run_mode", (("full", "all_jobs"), ("smoke", "smoke_only"))),
            EnumChange("run_mode", (("full", "complete"), ("smoke", "quick"))),
        ),
        splits=(
            split_as(
                CI,
                "environment",
                {"review": "ci.deploy_review", "staging": "ci.deploy_staging", "production": "ci.deploy_production"},
            ),
            split_as(
                CI,
                "environment",
                {
                    "review": "review_pipelines.trigger",
                    "staging": "staging_pipelines.trigger",
                    "production": "production_pipelines.trigger",
                },
            ),
            split_as(CI, "run_mode", {"full": "ci.trigger_full", "smoke": "ci.trigger_smoke"}),
            split_as(CI, "run_mode", {"full": "full_pipelines.run", "smoke": "smoke_pipelines.run"}),
        ),
        type_changes=(
            multi_select(CI, "environment"),
            wrap_text(CI, "ref", "name"),
            unit_object(CI, "timeout", "min"),
            TypeChange(
                "project",
                {**_REPO_OBJECT, "description": "Project as an object: its group as owner, and its name."},
                owner_and_name,
                "group/name string -> {owner, name} object",
            ),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the OAuth scope pipelines:trigger.",
        explanation="starting a pipeline needs pipelines:trigger and the caller's token can only read",
        sentence="My access token has only the read_repository and read_api scopes.",
        scope="pipelines:trigger",
        granted=("read_repository", "read_api"),
    ),
)

#: After GitHub's pull requests API (`POST /repos/{owner}/{repo}/pulls`, draft pull requests, the
#: merge method of the merge endpoint) and its move from comma lists to arrays of reviewers.
PULLS = BaseSchema(
    id="pulls",
    title="Code review",
    tool="pulls.create",
    description="Open a pull request from one branch into another.",
    version="4.0.2",
    properties={
        "repo": string("Repository as owner/name.", pattern=r"^[a-z0-9-]+/[a-z0-9-]+$"),
        "head": string("Branch holding the changes."),
        "base": string("Branch the changes go into."),
        "title": string("One-line summary of the change."),
        "merge_method": enum(["merge", "squash", "rebase"], "How the change lands when it is merged."),
        "state": enum(["ready", "draft"], "Ready for review now, or a draft."),
        "reviewers": string('Usernames as one comma-separated string without spaces, for example "ana,bo".'),
    },
    required=("repo", "head", "base", "title", "merge_method", "state"),
    pools=(
        verbatim("repo", ["fjord/ledger", "kite/frontend", "basalt/cli", "meridian/infra"]),
        together(
            [
                ({"head": "fix/null-avatar", "title": "Fix crash on a missing avatar"}, {}),
                ({"head": "feat/csv-import", "title": "Import contacts from CSV"}, {}),
                ({"head": "chore/bump-go-1-23", "title": "Build with Go 1.23"}, {}),
                ({"head": "perf/cache-sessions", "title": "Cache session lookups"}, {}),
            ]
        ),
        verbatim("base", ["main", "develop"]),
        said(
            "merge_method",
            [("merge", "a merge commit"), ("squash", "one squashed commit"), ("rebase", "rebased commits")],
        ),
        said("state", [("ready", "ready for review"), ("draft", "as a draft")]),
        said(
            "reviewers",
            [
                ("mchen,oadebayo", "mchen and oadebayo"),
                ("lpetrov", "lpetrov"),
                ("sgarcia,tnguyen", "sgarcia and tnguyen"),
            ],
        ),
    ),
    template='In {repo}, open a pull request "{title}" from {head} into {base}, {state}, to land as {merge_method}. '
    "Ask {reviewers} to review it.",
    rename=Rename("head", ("source_branch", "from_branch")),
    new_required=NewRequired(
        "closes_issue",
        integer("Number of the issue the pull request closes.", 1),
        ((412, "It closes issue 412."), (1088, "It closes issue 1088."), (57, "It closes issue 57.")),
    ),
    enum_change=EnumChange(
        "merge_method", (("merge", "merge_commit"), ("squash", "squash_merge"), ("rebase", "rebase_merge"))
    ),
    split=Split(
        "state",
        (
            ("ready", "pulls.create_ready", "Open a pull request that is ready for review."),
            ("draft", "pulls.create_draft", "Open a draft pull request."),
        ),
    ),
    type_change=TypeChange(
        "reviewers",
        {"type": "array", "items": {"type": "string"}, "description": "Usernames, one per item."},
        comma_list,
        "comma-separated string -> array of strings",
    ),
)

PULLS_AUTHORED = Authored(
    base=PULLS,
    extended=Extended(
        Deprecation("pulls.open"),
        Pagination(
            "pulls.list",
            "List the open pull requests of a repository, newest first.",
            "repo",
            string("Repository as owner/name."),
            (("fjord/ledger", "fjord/ledger"), ("kite/frontend", "kite/frontend"), ("basalt/cli", "basalt/cli")),
            "List the open pull requests in {repo}: {page}.",
            OFFSET_TO_PAGE,
        ),
        Scope(
            "owner",
            string("Account the call acts for: the owner part of the repository (fjord for fjord/ledger)."),
            "repo",
            owner,
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("title", ("subject", "name")),
            Rename("base", ("target_branch", "into")),
            Rename("merge_method", ("strategy", "merge_strategy")),
            Rename("reviewers", ("requested_reviewers", "review_by")),
        ),
        new_requireds=(
            NewRequired(
                "auto_merge",
                boolean("Merge on its own once the checks pass and it is approved."),
                ((True, "Let it merge on its own once approved."), (False, "Do not let it merge on its own.")),
            ),
            NewRequired(
                "ticket",
                string("Tracker ticket the change belongs to.", pattern=r"^[A-Z]+-\d+$"),
                (("PLAT-311", "It belongs to ticket PLAT-311."), ("WEB-77", "It belongs to ticket WEB-77.")),
            ),
            NewRequired(
                "risk",
                enum(["low", "high"], "How risky the change is to deploy."),
                (("low", "It is a low-risk change."), ("high", "It is a high-risk change.")),
            ),
            NewRequired(
                "changelog",
                string("Line for the release notes."),
                (
                    ("Faster logins.", 'Its release note reads "Faster logins."'),
                    ("Bug fixes.", 'Its release note reads "Bug fixes."'),
                ),
            ),
        ),
        enum_changes=(
            EnumChange("merge_method", (("merge", "MERGE"), ("squash", "SQUASH"), ("rebase", "REBASE"))),
            EnumChange("merge_method", (("merge", "no_ff"), ("squash", "squashed"), ("rebase", "linear"))),
            EnumChange("state", (("ready", "open"), ("draft", "wip"))),
            EnumChange("state", (("ready", "ready_for_review"), ("draft", "work_in_progress"))),
        ),
        splits=(
            split_as(
                PULLS,
                "merge_method",
                {"merge": "pulls.create_merge", "squash": "pulls.create_squash", "rebase": "pulls.create_rebase"},
            ),
            split_as(
                PULLS,
                "merge_method",
                {"merge": "merge_pulls.open", "squash": "squash_pulls.open", "rebase": "rebase_pulls.open"},
            ),
            split_as(PULLS, "state", {"ready": "pulls.open_for_review", "draft": "pulls.open_draft"}),
            split_as(PULLS, "state", {"ready": "pull_reviews.create", "draft": "pull_drafts.create"}),
        ),
        type_changes=(
            multi_select(PULLS, "merge_method"),
            multi_select(PULLS, "state"),
            wrap_text(PULLS, "title", "text"),
            TypeChange(
                "repo",
                {**_REPO_OBJECT, "description": "Repository as an object: its owner and its name."},
                owner_and_name,
                "owner/name string -> {owner, name} object",
            ),
        ),
    ),
    no_call=NoCall(
        "removed",
        notice="pulls.create was removed in 5.0.0 with no replacement: pull requests are now opened only by "
        "pushing a branch with the command-line client.",
        explanation="the tool that opened pull requests was removed with no successor",
        remaining=(
            Endpoint(
                "pulls.get",
                "Read one pull request.",
                {"repo": string("Repository as owner/name."), "number": integer("Pull request number.", 1)},
                ("repo", "number"),
            ),
            Endpoint(
                "pulls.merge",
                "Merge an approved pull request.",
                {"repo": string("Repository as owner/name."), "number": integer("Pull request number.", 1)},
                ("repo", "number"),
            ),
        ),
    ),
)

#: After Amazon ECR's CreateRepository (scanning configuration, tag mutability, encryption) and
#: Docker Hub's repositories API (public or private).
REGISTRY = BaseSchema(
    id="registry",
    title="Container registry",
    tool="registry.create_repository",
    description="Create an image repository in the container registry.",
    version="1.6.0",
    properties={
        "namespace": string("Organisation that owns the repository."),
        "name": string("Repository name: lowercase letters, digits, dots, dashes.", pattern=r"^[a-z0-9][a-z0-9.-]*$"),
        "description": string("Short description shown on the repository page."),
        "visibility": enum(["public", "private"], "Who may pull images."),
        "scanning": enum(["none", "basic", "enhanced"], "How pushed images are scanned for vulnerabilities."),
        "storage_limit": {"type": "number", "minimum": 0, "description": "Most storage the images may use, in GiB."},
    },
    required=("namespace", "name", "visibility", "scanning", "storage_limit"),
    pools=(
        verbatim("namespace", ["acme", "northwind", "lumen-labs", "orbit"]),
        together(
            [
                ({"name": "api-server", "description": "The public API server"}, {}),
                ({"name": "worker", "description": "Background job worker"}, {}),
                ({"name": "ml-inference", "description": "Model serving images"}, {}),
                ({"name": "docs.site", "description": "Static documentation site"}, {}),
            ]
        ),
        said("visibility", [("public", "anyone can pull from it"), ("private", "only the organisation can pull")]),
        said(
            "scanning",
            [
                ("none", "with no vulnerability scanning"),
                ("basic", "with a basic scan of each pushed image"),
                ("enhanced", "with continuous, in-depth scanning"),
            ],
        ),
        said("storage_limit", [(2, "2 GiB"), (0.5, "half a GiB"), (10, "10 GiB"), (1.25, "1.25 GiB")]),
    ),
    template='Create a container repository {name} under {namespace} ("{description}"), {scanning}; {visibility}. '
    "Cap its storage at {storage_limit}.",
    rename=Rename("name", ("repository_name", "repo_name")),
    new_required=NewRequired(
        "tag_mutability",
        enum(["mutable", "immutable"], "Whether a pushed tag may later point at another image."),
        (
            ("immutable", "Tags must never be moved once pushed."),
            ("mutable", "Tags may be moved to newer images."),
        ),
    ),
    enum_change=EnumChange("scanning", (("none", "disabled"), ("basic", "on_push"), ("enhanced", "continuous"))),
    split=Split(
        "visibility",
        (
            ("public", "registry.create_public_repository", "Create a repository anyone can pull from."),
            ("private", "registry.create_private_repository", "Create a repository only the organisation can pull."),
        ),
    ),
    type_change=TypeChange(
        "storage_limit",
        integer("Most storage the images may use, in whole MiB (1 GiB = 1024 MiB)."),
        scaled(1024),
        "GiB -> integer MiB",
    ),
)

REGISTRY_AUTHORED = Authored(
    base=REGISTRY,
    extended=Extended(
        Deprecation("registry.repositories.create"),
        Pagination(
            "registry.list_repositories",
            "List the repositories of an organisation, by name.",
            "namespace",
            string("Organisation whose repositories are listed."),
            (("acme", "acme"), ("northwind", "northwind"), ("orbit", "orbit")),
            "List the container repositories of {namespace}: {page}.",
            PAGE_TO_OFFSET,
        ),
        Scope(
            "oauth_scope",
            enum(
                ["repo:public_write", "repo:private_write"],
                "OAuth scope the call acts under: repo:public_write for a public repository, repo:private_write "
                "for a private one.",
            ),
            "visibility",
            mapped({"public": "repo:public_write", "private": "repo:private_write"}),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("namespace", ("organization", "owner")),
            Rename("description", ("summary", "about")),
            Rename("scanning", ("scan_mode", "vulnerability_scan")),
            Rename("storage_limit", ("quota", "size_limit")),
        ),
        new_requireds=(
            NewRequired(
                "retention_days",
                integer("Days an untagged image is kept before it is deleted.", 1),
                ((14, "Delete untagged images after 14 days."), (90, "Delete untagged images after 90 days.")),
            ),
            NewRequired(
                "architecture",
                enum(["amd64", "arm64"], "CPU architecture of the images."),
                (("arm64", "The images are for ARM (arm64)."), ("amd64", "The images are for x86 (amd64).")),
            ),
            NewRequired(
                "team",
                string("Team that maintains the images."),
                (("platform", "The platform team maintains it."), ("data-eng", "The data-eng team maintains it.")),
            ),
            NewRequired(
                "signed_only",
                boolean("Refuse pushes of images without a signature."),
                ((True, "Accept signed images only."), (False, "Accept unsigned images too.")),
            ),
        ),
        enum_changes=(
            EnumChange("scanning", (("none", "NONE"), ("basic", "BASIC"), ("enhanced", "ENHANCED"))),
            EnumChange("scanning", (("none", "never"), ("basic", "push"), ("enhanced", "always"))),
            EnumChange("visibility", (("public", "open"), ("private", "restricted"))),
            EnumChange("visibility", (("public", "PUBLIC"), ("private", "PRIVATE"))),
        ),
        splits=(
            split_as(REGISTRY, "visibility", {"public": "public_repos.create", "private": "private_repos.create"}),
            split_as(
                REGISTRY,
                "visibility",
                {"public": "registry.publish_repository", "private": "registry.create_internal_repository"},
            ),
            split_as(
                REGISTRY,
                "scanning",
                {
                    "none": "registry.create_unscanned",
                    "basic": "registry.create_scanned",
                    "enhanced": "registry.create_monitored",
                },
            ),
            split_as(
                REGISTRY,
                "scanning",
                {
                    "none": "unscanned_repos.create",
                    "basic": "scanned_repos.create",
                    "enhanced": "monitored_repos.create",
                },
            ),
        ),
        type_changes=(
            multi_select(REGISTRY, "scanning"),
            wrap_text(REGISTRY, "description", "text"),
            unit_object(REGISTRY, "storage_limit", "GiB"),
            scaled_to(
                "storage_limit", 1024 * 1024, "Most storage in whole KiB (1 GiB = 1048576 KiB).", "GiB -> integer KiB"
            ),
        ),
    ),
    no_call=NoCall(
        "missingRequired",
        notice="Every repository is encrypted with a key its owner names.",
        explanation="encryption_key is now required, has no default, and the request does not name a key",
        field="encryption_key",
        schema=string(
            "ARN of the KMS key that encrypts the images. There is no default key.", pattern=r"^arn:aws:kms:"
        ),
    ),
)

#: After Stripe's webhook endpoints API (`enabled_events`, API versions per endpoint) and GitHub's
#: repository hooks (content type json or form, delivery timeouts).
WEBHOOKS = BaseSchema(
    id="webhooks",
    title="Webhooks",
    tool="webhooks.create_endpoint",
    description="Register a URL that receives event notifications.",
    version="2.0.0",
    properties={
        "url": string("HTTPS address that receives the events.", pattern=r"^https://"),
        "description": string("What the endpoint is for."),
        "events": string('Events as one comma-separated string without spaces, for example "a.b,c.d".'),
        "payload_format": enum(["json", "form"], "How each event is encoded."),
        "retry_policy": enum(["none", "linear", "exponential"], "How failed deliveries are retried."),
        "timeout": {"type": "number", "minimum": 0, "description": "Seconds to wait for the endpoint to answer."},
    },
    required=("url", "events", "payload_format", "retry_policy", "timeout"),
    pools=(
        verbatim(
            "url",
            [
                "https://hooks.fjord.example/stripe",
                "https://api.kite.example/webhooks/billing",
                "https://ops.basalt.example/incoming",
                "https://meridian.example/hooks/orders",
            ],
        ),
        verbatim("description", ["Order sync", "Billing alerts", "Fraud review queue", "Warehouse notifications"]),
        said(
            "events",
            [
                ("invoice.paid,invoice.payment_failed", "invoice.paid and invoice.payment_failed"),
                ("customer.created", "customer.created"),
                ("charge.refunded,charge.dispute.created", "charge.refunded and charge.dispute.created"),
            ],
        ),
        said("payload_format", [("json", "as JSON"), ("form", "form-encoded")]),
        said(
            "retry_policy",
            [
                ("none", "never retry a failed delivery"),
                ("linear", "retry failed deliveries at a steady interval"),
                ("exponential", "retry failed deliveries with growing gaps"),
            ],
        ),
        said("timeout", [(5, "5 seconds"), (2.5, "2.5 seconds"), (10, "10 seconds"), (0.75, "750 ms")]),
    ),
    template='Register a webhook at {url} ("{description}") for {events}, sent {payload_format}; {retry_policy}. '
    "Give up on a delivery after {timeout}.",
    rename=Rename("url", ("endpoint_url", "target_url")),
    new_required=NewRequired(
        "secret_ref",
        string("Name of the stored secret that signs the payloads."),
        (
            ("whsec-orders", "Sign the payloads with the stored secret whsec-orders."),
            ("whsec-billing", "Sign the payloads with the stored secret whsec-billing."),
            ("whsec-ops", "Sign the payloads with the stored secret whsec-ops."),
        ),
    ),
    enum_change=EnumChange("retry_policy", (("none", "off"), ("linear", "fixed"), ("exponential", "backoff"))),
    split=Split(
        "payload_format",
        (
            ("json", "webhooks.create_json_endpoint", "Register an endpoint that receives JSON events."),
            ("form", "webhooks.create_form_endpoint", "Register an endpoint that receives form-encoded events."),
        ),
    ),
    type_change=TypeChange(
        "events",
        {"type": "array", "items": {"type": "string"}, "description": "Events, one per item."},
        comma_list,
        "comma-separated string -> array of strings",
    ),
)

WEBHOOKS_AUTHORED = Authored(
    base=WEBHOOKS,
    extended=Extended(
        Deprecation("webhooks.endpoints.create"),
        Pagination(
            "webhooks.list_endpoints",
            "List the endpoints subscribed to one event.",
            "event",
            string("Event name, for example invoice.paid."),
            (
                ("invoice.paid", "invoice.paid"),
                ("customer.created", "customer.created"),
                ("charge.refunded", "charge.refunded"),
            ),
            "List the webhook endpoints subscribed to {event}: {page}.",
            PAGE_TO_CURSOR,
        ),
        Scope(
            "scope",
            enum(
                ["webhooks.billing:write", "webhooks.customers:write", "webhooks.payments:write"],
                "OAuth scope the call acts under, by the area of the events: webhooks.billing:write for invoice "
                "events, webhooks.customers:write for customer events, webhooks.payments:write for charge events.",
            ),
            "events",
            mapped(
                {
                    "invoice.paid,invoice.payment_failed": "webhooks.billing:write",
                    "customer.created": "webhooks.customers:write",
                    "charge.refunded,charge.dispute.created": "webhooks.payments:write",
                }
            ),
        ),
    ),
    held_out=Alternatives(
        renames=(
            Rename("description", ("label", "name")),
            Rename("events", ("enabled_events", "topics")),
            Rename("retry_policy", ("retries", "retry_mode")),
            Rename("timeout", ("timeout_seconds", "deadline")),
        ),
        new_requireds=(
            NewRequired(
                "api_version",
                enum(["2025-01-15", "2025-09-30"], "API version the event payloads are rendered in."),
                (
                    ("2025-09-30", "Render the events in API version 2025-09-30."),
                    ("2025-01-15", "Render the events in API version 2025-01-15."),
                ),
            ),
            NewRequired(
                "active",
                boolean("Whether deliveries start at once."),
                ((True, "Start delivering at once."), (False, "Create it paused.")),
            ),
            NewRequired(
                "max_retries",
                integer("Most delivery attempts after the first."),
                ((3, "Retry at most 3 times."), (8, "Retry at most 8 times.")),
            ),
            NewRequired(
                "contact_email",
                string("Who is told when deliveries keep failing."),
                (
                    ("ops@fjord.example", "Tell ops@fjord.example if deliveries keep failing."),
                    ("dev@kite.example", "Tell dev@kite.example if deliveries keep failing."),
                ),
            ),
        ),
        enum_changes=(
            EnumChange("retry_policy", (("none", "NONE"), ("linear", "LINEAR"), ("exponential", "EXPONENTIAL"))),
            EnumChange(
                "retry_policy", (("none", "disabled"), ("linear", "constant"), ("exponential", "exponential_backoff"))
            ),
            EnumChange("payload_format", (("json", "application/json"), ("form", "application/x-www-form-urlencoded"))),
            EnumChange("payload_format", (("json", "JSON"), ("form", "FORM"))),
        ),
        splits=(
            split_as(WEBHOOKS, "payload_format", {"json": "json_hooks.create", "form": "form_hooks.create"}),
            split_as(
                WEBHOOKS, "payload_format", {"json": "webhooks.subscribe_json", "form": "webhooks.subscribe_form"}
            ),
            split_as(
                WEBHOOKS,
                "retry_policy",
                {
                    "none": "webhooks.create_without_retries",
                    "linear": "webhooks.create_with_fixed_retries",
                    "exponential": "webhooks.create_with_backoff",
                },
            ),
            split_as(
                WEBHOOKS,
                "retry_policy",
                {"none": "once_hooks.create", "linear": "steady_hooks.create", "exponential": "backoff_hooks.create"},
            ),
        ),
        type_changes=(
            scaled_to(
                "timeout", 1000, "Whole milliseconds to wait for the endpoint to answer.", "seconds -> integer ms"
            ),
            wrap_text(WEBHOOKS, "url", "href"),
            multi_select(WEBHOOKS, "payload_format"),
            unit_object(WEBHOOKS, "timeout", "s"),
        ),
    ),
    no_call=NoCall(
        "missingScope",
        notice="Requires the OAuth scope webhooks:write.",
        explanation="registering an endpoint needs webhooks:write and the caller's key can only read",
        sentence="The restricted key I am using grants only events:read and webhooks:read.",
        scope="webhooks:write",
        granted=("events:read", "webhooks:read"),
    ),
)
