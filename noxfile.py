"""The gate. `nox` with no arguments runs, in order:

lint (ruff) -> types (mypy --strict) -> build (three wheels and sdists into dist/, `twine check`ed
and held to one lockstep version by tools/release_check.py) -> tests (the wheels installed into a
clean venv, each package's tests run against them) -> tests-3.10 and tests-3.13 (the same on the oldest
and the newest supported Python, when installed) -> core_alone (benchmark-core installed by itself and imported) ->
authoring (`benchmark-core new` and the guide's package, installed, run and tested) -> docs (the
documentation site built with `mkdocs build --strict` into artifacts/site/, then opened in headless
Chromium through Playwright) -> inspect (the wheels with the `inspect` extra: each package's test_inspect.py drives
`inspect eval`, offline) -> analysis (the `analysis` extra: DataFrames and `export`) -> ray (the `ray`
extra: shards as Ray tasks on a local cluster) -> agents (the OpenAI Agents SDK and pydantic-ai run every
public rollback-recovery episode and the example's through MCP, rows equal to the mock runner's) -> e2e
(tools/e2e.py against the installed wheels).

`nox -s release_check [-- --tag vX.Y.Z]` is the build session's checks on their own, with a tag to
check (what the release workflow runs before it publishes). `nox -s bench` runs the runner and
grading benchmarks, `nox -s bench_stats` the statistics one and `nox -s bench_data` the merge and
DataFrame ones (not part of the gate: speed is measured, not asserted).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nox

ROOT = Path(__file__).parent
DIST = ROOT / "dist"
PACKAGES = ("benchmark-core", "benchmark-schema-mutation", "benchmark-rollback-recovery")
RUNTIME_DEPS = (
    "attrs>=23.1",
    "cattrs>=23.2",
    "click>=8.1",
    "aiohttp>=3.9",
    "mcp>=2,<3",
    'tomli>=2; python_version < "3.11"',
)
#: pytest below 10: pytest-playwright 0.10.0 defines its `base_url` session fixture as an instance method
#: (`_BaseUrlFallback`), which pytest 9.2 warns pytest 10 removes (PytestRemovedIn10Warning in the gate).
TEST_DEPS = ("pytest>=8,<10", "pytest-aiohttp>=1.0", "hypothesis>=6")
#: The browser tests' driver: Playwright for Python through pytest-playwright, on the system's Chromium
#: (`benchmark_core.testing.browser`), so no `playwright install` download. Wheels for 3.10 to 3.13.
BROWSER_DEPS = ("playwright==1.65.2", "pytest-playwright==0.10.0")
#: benchmark-core's `inspect` extra, as its pyproject.toml pins it (mypy needs it for the Inspect modules).
INSPECT_DEPS = ("inspect_ai>=0.3.285,<0.4",)
#: The official SDKs behind Inspect's own `anthropic/` and `google/` providers, which the inspect
#: session drives against benchmark-core's fakes (tested with anthropic 2.14.0, google-genai 3.6.1).
PROVIDER_SDKS = ("anthropic>=2.14,<3", "google-genai>=3.6,<4")
#: The third-party MCP client the e2e session drives (an exact version: its output is asserted on).
INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
SOURCES = [f"packages/{p}/src" for p in PACKAGES]
TESTS = [f"packages/{p}/tests" for p in PACKAGES]
#: The tests that need the `inspect` extra; only the `inspect` session runs them.
INSPECT_TESTS = [f"{t}/test_inspect.py" for t in TESTS]
#: benchmark-core's `analysis` and `ray` extras, as its pyproject.toml pins them.
MSGSPEC = "msgspec>=0.18,<1"
ANALYSIS_DEPS = ("pandas>=2.0,<3", "pyarrow>=14,<24", MSGSPEC)
RAY_DEPS = ("ray>=2.40,<3",)
#: The tests that need those extras; only the `analysis` and `ray` sessions run them.
ANALYSIS_TESTS = ["packages/benchmark-core/tests/test_analysis.py"]
RAY_TESTS = ["packages/benchmark-core/tests/test_ray.py"]
#: Tests of the leaderboard's msgspec reader: the tests session runs them without msgspec (its paths
#: skip), the `analysis` session again with it, so the msgspec paths are tested too.
MSGSPEC_TESTS = [
    "packages/benchmark-core/tests/sweep/test_light_rows.py",
    "packages/benchmark-core/tests/sweep/test_leaderboard_light.py",
]
EXTRA_TESTS = [*INSPECT_TESTS, *ANALYSIS_TESTS, *RAY_TESTS]
#: What builds the documentation site (mkdocs.yml), in ranges known to build it --strict and offline.
DOCS_DEPS = (
    "mkdocs>=1.6,<2",
    "mkdocs-material>=9.6,<10",
    "mkdocstrings[python]>=1.0,<2",
    "mkdocstrings-python>=2.0,<3",
    # mkdocstrings formats the API pages' signatures with ruff (or black).
    "ruff>=0.6",
)
RELEASE_DEPS = ("build>=1.2", "twine>=6.1")
#: The agent frameworks the agents session puts in front of the episodes (exact versions: their
#: rows are compared with the mock runner's).
AGENT_FRAMEWORKS = ("openai-agents==0.24.0", "pydantic-ai-slim[openai,mcp]==2.68.0")
#: The framework whose MCP client needs mcp<2 (smolagents' mcpadapt), installed in a venv of its own
#: beside the session's, as the docs recommend; its MCP 1.x client is also checked on both transports.
MCP1_AGENT_DEPS = ("smolagents[mcp,openai]==1.26.0", "mcp>=1.26,<2")

nox.options.sessions = [
    "lint",
    "types",
    "build",
    "tests",
    "tests-3.10",
    "tests-3.13",
    "core_alone",
    "authoring",
    "docs",
    "inspect",
    "analysis",
    "ray",
    "agents",
    "e2e",
]
nox.options.reuse_existing_virtualenvs = False
# A contributor without Python 3.10 or 3.13 still gets a full gate on their own Python; CI installs both.
nox.options.error_on_missing_interpreters = False


@nox.session
def lint(session: nox.Session) -> None:
    session.install("ruff>=0.6")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def types(session: nox.Session) -> None:
    # pandas-stubs types the `analysis` extra's pandas (pandas ships none); pyarrow and Ray are
    # left untyped (mypy.ini), so the session does not install them. types-PyYAML: tests/release
    # reads the release workflow with PyYAML. tomli: mypy checks for Python 3.10 (mypy.ini), where
    # the sweep file is read with it, whatever Python runs mypy.
    session.install(
        "mypy>=1.10",
        "nox",
        "types-PyYAML",
        "tomli>=2",
        "pandas-stubs>=2.2,<3",
        MSGSPEC,
        *RUNTIME_DEPS,
        *TEST_DEPS,
        *BROWSER_DEPS,
        *INSPECT_DEPS,
    )
    session.run("mypy", *SOURCES, "tools", "noxfile.py")
    # Each tests folder has its own conftest module, so each is checked on its own.
    for tests_dir in [*TESTS, "tests/authoring", "tests/docs", "tests/release"]:
        session.run("mypy", tests_dir)


def _build_and_check(session: nox.Session, *check_args: str) -> None:
    """The three sdists and wheels into dist/, `twine check`ed, and the version rules of
    tools/release_check.py (one version, exact pins, a changelog section) on the built files; first
    the script's own tests."""
    session.install(*RELEASE_DEPS, *TEST_DEPS, "pyyaml>=6")
    session.run("pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "release"))
    shutil.rmtree(DIST, ignore_errors=True)
    for package in PACKAGES:
        session.run("python", "-m", "build", "--outdir", str(DIST), f"packages/{package}")
    session.run("twine", "check", "--strict", *sorted(str(p) for p in DIST.iterdir()))
    session.run("python", str(ROOT / "tools" / "release_check.py"), "--dist", str(DIST), *check_args)


@nox.session
def build(session: nox.Session) -> None:
    _build_and_check(session)


@nox.session(name="release_check")
def release_check(session: nox.Session) -> None:
    """What the release workflow checks before it publishes, without publishing: the build session,
    and `-- --tag vX.Y.Z` to check that a tag names the distributions' version."""
    _build_and_check(session, *session.posargs)


def _wheels() -> list[str]:
    wheels = sorted(str(p) for p in DIST.glob("*.whl"))
    if len(wheels) != len(PACKAGES):
        raise RuntimeError(f"expected {len(PACKAGES)} wheels in {DIST}, found {len(wheels)}: run `nox -s build`")
    return wheels


def _install_wheels(session: nox.Session) -> None:
    """Third-party packages from the index, ours only from dist/ (what would be published)."""
    _wheels()
    session.install(*RUNTIME_DEPS, *TEST_DEPS)
    session.install("--no-index", "--find-links", str(DIST), *PACKAGES)


def _run_tests(session: nox.Session) -> None:
    _install_wheels(session)
    session.install(*BROWSER_DEPS)
    # Run from a scratch folder so that nothing in packages/*/src can shadow the installed wheels.
    tmp = Path(session.create_tmp())
    session.chdir(tmp)
    session.run(
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--import-mode=importlib",
        *(f"--ignore={ROOT / t}" for t in EXTRA_TESTS),
        *(str(ROOT / t) for t in TESTS),
        *session.posargs,
    )


@nox.session
def tests(session: nox.Session) -> None:
    _run_tests(session)


@nox.session(name="tests-3.10", python="3.10")
def tests_310(session: nox.Session) -> None:
    _run_tests(session)


@nox.session(name="tests-3.13", python="3.13")
def tests_313(session: nox.Session) -> None:
    _run_tests(session)


@nox.session
def core_alone(session: nox.Session) -> None:
    """benchmark-core without the benchmarks: installs, imports, runs its example offline."""
    session.install(*RUNTIME_DEPS)
    core = [w for w in _wheels() if Path(w).name.startswith("benchmark_core-")]
    session.install("--no-index", "--find-links", str(DIST), *core)
    session.chdir(session.create_tmp())
    session.run("python", "-c", "import benchmark_core, sys; print(benchmark_core.__version__, sys.version)")
    session.run("benchmark-core", "run", "--model", "offline", "--provider", "mock", "--json")
    session.run("benchmark-core", "benchmarks")


@nox.session
def authoring(session: nox.Session) -> None:
    """A new author's path, followed literally: `benchmark-core new demo-bench`, and the package that
    docs/writing-a-benchmark.md's blocks describe, each installed (offline, on the benchmark-core
    wheel from dist/), run with the mock, tested with its own tests and checked with its own ruff
    and mypy settings; tools/sync_guide.py finds and fixes a drifted guide."""
    _install_wheels(session)
    # hatchling builds the new packages without an index (--no-build-isolation); ruff and mypy check
    # that a new package passes its own lint and strict-typing settings.
    session.install("hatchling>=1.24", "ruff>=0.6", "mypy>=1.10")
    session.chdir(session.create_tmp())
    session.run("pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "authoring"), *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """The documentation site: `mkdocs build --strict` (broken links, missing pages and unresolved
    API references fail it) into artifacts/site/, then tests/docs opens it in headless Chromium."""
    session.install(*DOCS_DEPS, *RUNTIME_DEPS, *TEST_DEPS, *BROWSER_DEPS)
    session.install(*(f"./packages/{p}" for p in PACKAGES))
    # Material's notice about MkDocs 2.0 goes to the log on every build; it says nothing about ours.
    session.run(
        "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"), env={"NO_MKDOCS_2_WARNING": "1"}
    )
    session.chdir(session.create_tmp())
    session.run("pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "docs"), *session.posargs)


@nox.session(name="inspect")
def inspect_session(session: nox.Session) -> None:
    """The Inspect AI integration: the wheels with benchmark-core's `inspect` extra, `inspect eval`
    on all three benchmarks with benchmark-mock and mockllm, and Inspect's Anthropic and Google
    providers (their official SDKs) against benchmark-core's fakes. Offline: no test reaches a network."""
    _wheels()
    session.install(*RUNTIME_DEPS, *TEST_DEPS, *INSPECT_DEPS, *PROVIDER_SDKS)
    # Without the index, so the extra's own pin must accept the inspect_ai just installed.
    session.install("--no-index", "--find-links", str(DIST), "benchmark-core[inspect]", *PACKAGES)
    session.chdir(session.create_tmp())
    tests = [str(ROOT / t) for t in INSPECT_TESTS] + [
        str(ROOT / "packages/benchmark-core/tests/test_inspect_optional.py")
    ]
    session.run("pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib", *tests, *session.posargs)


def _extra_session(session: nox.Session, extra: str, deps: tuple[str, ...], tests: list[str]) -> None:
    """The wheels with one of benchmark-core's extras, and the tests that need it."""
    _wheels()
    session.install(*RUNTIME_DEPS, *TEST_DEPS, *deps)
    # Without the index, so the extra's own pin must accept what was just installed.
    session.install("--no-index", "--find-links", str(DIST), f"benchmark-core[{extra}]", *PACKAGES)
    session.chdir(session.create_tmp())
    paths = [str(ROOT / t) for t in tests]
    session.run("pytest", "-q", "-p", "no:cacheprovider", "--import-mode=importlib", *paths, *session.posargs)


@nox.session
def analysis(session: nox.Session) -> None:
    """Results as data: the wheels with the `analysis` extra (pandas, pyarrow, msgspec); frames and
    `export` over real reports, the extras' libraries still unimported by `import benchmark_core`,
    and the leaderboard's rows read by msgspec."""
    optional = "packages/benchmark-core/tests/test_analysis_optional.py"
    _extra_session(session, "analysis", ANALYSIS_DEPS, [*ANALYSIS_TESTS, optional, *MSGSPEC_TESTS])


@nox.session
def ray(session: nox.Session) -> None:
    """Ray: the wheels with the `ray` extra; a local Ray cluster (two CPUs) runs a run's shards as Ray
    tasks against a loopback OpenAI-compatible server, and the merged report equals the unsharded one."""
    _extra_session(session, "ray", RAY_DEPS, RAY_TESTS)


@nox.session
def agents(session: nox.Session) -> None:
    """Agents no one here wrote: the OpenAI Agents SDK (over stdio), pydantic-ai and smolagents (over
    streamable HTTP), pinned, each run sealed by `run --agent` on every public rollback-recovery
    episode and the example's, against the `fake-model` command playing the mock's policies; their
    rows must equal the mock runner's (tools/agents_proof.py). smolagents needs mcp<2, so it runs
    from a venv of its own outside the runner's, whose MCP 1.x client is also checked against the
    stdio bridge and the streamable HTTP endpoint of a run."""
    _install_wheels(session)
    session.install(*AGENT_FRAMEWORKS)
    mcp1 = Path(session.bin).parent.parent / "agents-mcp1"  # beside the runner's venv, not in it
    session.run("python", "-m", "venv", "--clear", str(mcp1))
    session.run(str(mcp1 / "bin" / "python"), "-m", "pip", "install", "-q", *MCP1_AGENT_DEPS, external=True)
    proof = [str(ROOT / "tools" / "agents_proof.py"), "--mcp1-python", str(mcp1 / "bin" / "python")]
    session.run("python", *proof, *session.posargs)


def _install_inspector(session: nox.Session) -> Path:
    """MCP Inspector, the third-party MCP client e2e drives, from npm at the pinned version."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        session.error("e2e drives MCP Inspector, which needs Node.js (>= 20) and npm on PATH; install them first")
    prefix = Path(session.create_tmp()) / "node"
    session.run("npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", INSPECTOR, external=True)
    return prefix / "node_modules" / ".bin" / "mcp-inspector"


@nox.session
def e2e(session: nox.Session) -> None:
    _install_wheels(session)
    inspector = _install_inspector(session)
    expect = [arg for package in PACKAGES for arg in ("--expect", package)]
    session.run(
        "python",
        str(ROOT / "tools" / "e2e.py"),
        "--report",
        str(ROOT / "artifacts" / "e2e-report.json"),
        "--inspector",
        str(inspector),
        *expect,
    )


@nox.session
def bench(session: nox.Session) -> None:
    """Speed figures with their floors and ratios: runner throughput against a bare aiohttp loop
    (2,000 tasks at concurrency 50, then 20,000 at 200, with client CPU per task), adaptive
    concurrency under a 100 requests/s rate limit (2,000 tasks at --concurrency 200; ideal 20 s), the
    CLI's cold start against `import click, attrs, cattrs`, POST /v1/score under wrk against a bare
    aiohttp handler (skipped, with a note, when wrk is not installed), and grading throughput of both
    benchmarks (tools/bench_grading.py)."""
    _install_wheels(session)
    runner = str(ROOT / "tools" / "bench_runner.py")
    session.run("python", runner, *session.posargs)
    session.run("python", runner, "--sizes", "20000", "--concurrency", "200")
    session.run("python", runner, "--rate-limit", "100", "--sizes", "2000", "--concurrency", "200")
    session.run("python", str(ROOT / "tools" / "bench_startup.py"))
    if shutil.which("wrk") is None:
        session.log("wrk is not installed (Debian: apt-get install wrk): POST /v1/score figures skipped")
    else:
        session.run("python", str(ROOT / "tools" / "bench_http.py"), external=True)
    session.run("python", str(ROOT / "tools" / "bench_grading.py"))


@nox.session(name="bench_stats")
def bench_stats(session: nox.Session) -> None:
    """Bootstrap timings on 100,000 rows, and a leaderboard of 20 models x 792 tasks against the time
    to read its reports (printed, not asserted; see docs/statistics.md and docs/performance.md)."""
    _install_wheels(session)
    session.run("python", str(ROOT / "tools" / "bench_stats.py"), *session.posargs)
    session.run("python", str(ROOT / "tools" / "bench_leaderboard.py"))


@nox.session(name="bench_data")
def bench_data(session: nox.Session) -> None:
    """Merging 8 shards of 20,000 rows (target 2 s), and 100,000 rows of 50 reports into a DataFrame
    (target 3 s); printed, not asserted."""
    _wheels()
    session.install(*RUNTIME_DEPS, *ANALYSIS_DEPS)
    session.install("--no-index", "--find-links", str(DIST), "benchmark-core[analysis]", *PACKAGES)
    session.run("python", str(ROOT / "tools" / "bench_merge.py"), *session.posargs)
    session.run("python", str(ROOT / "tools" / "bench_merge.py"), "--benchmark", "benchmark-schema-mutation")
    session.run("python", str(ROOT / "tools" / "bench_analysis.py"))
