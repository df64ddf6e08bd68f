"""The records the authored data is made of: a base schema with its pools and five core migrations,
the three extended kinds, the held-out alternatives, and the request that must not become a call.

A request is sampled as one `Option` from each pool: an option sets one or more arguments and the
phrases that say them in the request template. Phrases are written so that the same words map onto
the old value and the migrated one ("a feature request" is `feature` before and `enhancement` after
the enum change), which is what makes a stale answer a choice rather than a misreading.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal

import attrs
from attrs import frozen
from benchmark_core import JsonObject, JsonValue


@frozen
class Option:
    """One sampled choice: the arguments it sets and the request phrases that say them."""

    arguments: JsonObject
    phrases: dict[str, str]


Pool = tuple[Option, ...]


@frozen
class Rename:
    """`field` gets a new name; the generator picks one of `new_names`."""

    field: str
    new_names: tuple[str, ...]


@frozen
class NewRequired:
    """A required field is added; each choice is its value and the sentence that asks for it."""

    field: str
    schema: JsonObject
    choices: tuple[tuple[JsonValue, str], ...]


@frozen
class EnumChange:
    """The enum values of `field` are replaced one for one: (old value, new value) pairs."""

    field: str
    mapping: tuple[tuple[str, str], ...]


@frozen
class Split:
    """The tool becomes one tool per value of the discriminator `field`: (value, tool, description)."""

    field: str
    tools: tuple[tuple[str, str, str], ...]


@frozen
class TypeChange:
    """`field` takes a new schema (another type or unit); `convert` maps an old value to the new one."""

    field: str
    schema: JsonObject
    convert: Callable[[JsonValue], JsonValue]
    change: str


@frozen
class BaseSchema:
    """A tool at its previous version, how requests for it are written, and its five migrations.

    `id` is the schema's name in every task built from it (`metadata.baseSchema`)."""

    id: str
    title: str
    tool: str
    description: str
    version: str
    properties: JsonObject
    required: tuple[str, ...]
    pools: tuple[Pool, ...]
    template: str
    rename: Rename
    new_required: NewRequired
    enum_change: EnumChange
    split: Split
    type_change: TypeChange


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
    """The three kinds of the extended split for one base schema."""

    deprecation: Deprecation
    pagination: Pagination
    scope: Scope


@frozen
class Alternatives:
    """The held-out migrations of one base schema, at least four per mutation kind, none of them the
    public one: a hidden split draws each task's migration from these."""

    renames: tuple[Rename, ...]
    new_requireds: tuple[NewRequired, ...]
    enum_changes: tuple[EnumChange, ...]
    splits: tuple[Split, ...]
    type_changes: tuple[TypeChange, ...]


@frozen
class Endpoint:
    """Another tool of the same API, still offered after the base tool is removed: built like every
    tool (named arguments, unknown fields refused)."""

    name: str
    description: str
    properties: JsonObject
    required: tuple[str, ...]


NoCallReason = Literal["removed", "missingRequired", "missingScope"]
#: The reasons a request cannot become a call, in report order.
NO_CALL_REASONS: tuple[NoCallReason, ...] = ("removed", "missingRequired", "missingScope")


@frozen
class NoCall:
    """A request for the base tool that cannot be carried out under the current schema: the right
    answer is no call. The request is the base schema's own (sampled from its pools and written with
    its template, as for every other kind), followed by `sentence` when it is not empty. The current
    schema (`schema_version` the next major, like every migration) depends on `reason_kind`:

    - `"removed"`: the base tool was removed with no successor. The current tools are `remaining`,
      in order (other tools of the same API, none of which does what the request asks), with
      `notice` (which names the removed tool and says it has no replacement) appended, after one
      space, to the first one's description.
    - `"missingRequired"`: the base tool gains the required `field` with `schema`, whose description
      says there is no default. No pool sets it and neither the template nor `sentence` says its
      value, so a call would have to invent it. `notice` is appended to the tool's description.
    - `"missingScope"`: the base tool, unchanged but for `notice` appended to its description, which
      says that it needs the OAuth `scope`. `sentence` says which scopes the caller's token grants
      (`granted`, never `scope`).

    `explanation` is one line saying why no call is right, for the task's metadata.
    """

    reason_kind: NoCallReason
    notice: str
    explanation: str
    sentence: str = ""
    remaining: tuple[Endpoint, ...] = ()
    field: str = ""
    schema: JsonObject = attrs.field(factory=dict)
    scope: str = ""
    granted: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        complete = {
            "removed": bool(self.remaining) and not (self.field or self.scope),
            "missingRequired": bool(self.field and self.schema) and not (self.remaining or self.scope),
            "missingScope": bool(self.scope and self.granted and self.sentence) and self.scope not in self.granted,
        }
        if not complete[self.reason_kind]:
            raise ValueError(f"a {self.reason_kind} NoCall is incomplete or mixes in another reason's fields")


@frozen
class Authored:
    """Everything written by hand for one base schema."""

    base: BaseSchema
    extended: Extended
    held_out: Alternatives
    no_call: NoCall
