"""The provenance records behind `data/PROVENANCE.md` (rendered by core's `provenance_markdown`), and
the licence notice of the Twilio descriptions the real split is derived from, which the generator
appends to that file."""

from __future__ import annotations

from benchmark_core import Provenance

PROVENANCE = [
    Provenance(
        name="benchmark-schema-mutation task generator",
        kind="synthetic",
        url="https://github.com/benchmark-core/benchmark-core/tree/main/packages/benchmark-schema-mutation",
        licence="MIT",
        how_to_get=(
            "python -m benchmark_schema_mutation.generator writes the public split, data/tasks.jsonl (seed "
            "20261015), from 12 base tool schemas written for this project and five mutation kinds; "
            "--split extended writes data/tasks-extended.jsonl (the same seed), 36 tasks of three more kinds "
            "(deprecation, paginationChange, scopeChange); --split full writes data/tasks-full.jsonl (the same "
            "seed), 792 tasks from 36 base schemas: every kind with two requests, a request that must not become a "
            "call and five drift episodes per schema. No third-party benchmark or API documentation text is "
            "copied."
        ),
        retrieved_at="2026-10-15T00:00:00Z",
        contamination_notes=(
            "The public split is committed and will be seen by crawlers: treat it as practice data. Hidden-split "
            "plan: final comparisons use a held-out split written with `--split hidden --seed N` (ids start with "
            "hid-, written to the git-ignored .hidden/ folder); the seed is kept private and the file is loaded "
            "through --tasks or the BENCHMARK_SCHEMA_MUTATION_TASKS_ALLOW allow-list. A hidden split draws every "
            "migration from four authored alternatives per kind and base schema that the public split never uses, "
            "so none of its current schemas (the tools a model is shown) equals a public one, and two hidden seeds "
            "share about a fifth of them (at most 19 of 60 for seeds 2 to 11). `--split hidden-full --seed N` "
            "(hidfull- ids) does the same for the full split's core kinds and drift episodes and shares none of "
            "its current schemas with the committed full split (seeds 2, 3, 5, 7, 11 and 48213)."
        ),
        refresh=(
            "The public split changes only with the generator, and a test checks the committed file byte for "
            "byte. Hidden splits are re-drawn with a new private seed for every minor release, and at least "
            "every six months."
        ),
    ),
    Provenance(
        name="Twilio OpenAPI descriptions (the real split)",
        kind="derived",
        url="https://github.com/twilio/twilio-oai",
        licence="MIT",
        how_to_get=(
            "tools/mine_api_changes.py --repo CLONE reads a clone of twilio/twilio-oai and writes "
            "data/real-changes.json: the request-parameter changes between consecutive final release tags "
            "(0.1.0, commit c2aa94efd70a1b771710314f423548e167a9f071, to 2.6.7, commit "
            "d50069b44ea8cd23141385bdb6db48f16ff75bb5, "
            "2020-08-26 to 2026-04-14, 144 tags; release candidates left out), each linked to its CHANGES.md entry by "
            "release and position. Kept: parameter names, types, formats, enums, SID patterns, item types, required "
            "sets, operation ids, methods, paths, tags, commits, release dates and entry positions. Not kept: any "
            "description, summary, example or changelog text; the tools' descriptions and the requests are written "
            "here. python -m benchmark_schema_mutation.generator --split real writes data/tasks-real.jsonl (seed "
            "20261015) from that file."
        ),
        retrieved_at="2026-04-14T09:26:42Z",
        contamination_notes=(
            "The descriptions and their history are public, so a model may have seen both versions of every "
            "operation; the requests and values are generated here. The report scores tasks by the release year of "
            "their change: changes released after a model's training cutoff (the live subset, "
            "python -m benchmark_schema_mutation.live --since DATE) cannot have been memorised. Final comparisons use "
            "--split hidden-real --seed N (hidreal- ids, git-ignored .hidden/), other requests and values over the "
            "same changes."
        ),
        refresh=(
            "Re-run tools/mine_api_changes.py on a newer clone: it keeps every change already in "
            "data/real-changes.json as it is and appends the changes of the releases since its last tag under new "
            "ids, so the tasks of old changes keep their ids; then regenerate the split. --check mines from scratch "
            "and confirms the file byte for byte."
        ),
    ),
]

#: Appended to data/PROVENANCE.md: the licence of the source the real split is derived from.
TWILIO_LICENCE_SECTION = """
## Licence of the Twilio OpenAPI descriptions

`data/real-changes.json` and `data/tasks-real.jsonl` hold facts derived from
<https://github.com/twilio/twilio-oai>, which is distributed under this licence:

```text
MIT License

Copyright (C) 2023, Twilio, Inc. <help@twilio.com>

Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
```
"""
