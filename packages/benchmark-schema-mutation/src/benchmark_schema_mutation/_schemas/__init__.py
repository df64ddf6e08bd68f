"""The authored data of the benchmark, kept apart from the logic that turns it into tasks.

`types` holds the records, `build` the helpers the data is written with, one module per domain
group holds the schemas of that group (each with its extended kinds, held-out alternatives and
no-call request), and `catalogue` puts them in generation order.
"""
