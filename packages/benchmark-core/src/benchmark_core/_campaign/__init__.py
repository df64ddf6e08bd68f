"""Evaluation campaigns: a sweep of models x benchmarks from one TOML file (`plan`, `sweep`), and the
leaderboard over a results folder (`leaderboard`, its Markdown and HTML pages)."""
