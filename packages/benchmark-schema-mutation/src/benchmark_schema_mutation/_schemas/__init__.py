"""The authored data of the benchmark, kept apart from the logic that turns it into tasks.

`types` holds the records, `build` the helpers the data is written with, one module per domain
group holds the schemas of that group (each an `Authored`: the base schema with its pools and five
core migrations, its three extended kinds, its held-out alternatives and its no-call request), and
`catalogue` puts them in generation order.

To add a base schema, write its `Authored` in the module of its domain and append it to
`catalogue.ADDED` (never to `PUBLIC`, whose order fixes the committed public and extended bytes);
the full split changes with it, so regenerate its task file. `tests/test_schema_mutation_data.py`
holds every schema to the invariants the generator and the grader rely on.
"""
