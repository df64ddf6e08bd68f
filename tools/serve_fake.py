"""Serve a provider's loopback fake that answers as the offline mock, for trying `run --provider ...`
without a key or a network (the README's "running real models" output comes from it).

    python tools/serve_fake.py anthropic benchmark-rollback-recovery --port 8123 &
    ANTHROPIC_BASE_URL=http://127.0.0.1:8123 ANTHROPIC_API_KEY=sk-fake \\
        benchmark-rollback-recovery run --model claude-fake --provider anthropic

The wire formats are those of `benchmark_core.testing` (FakeOpenAI, FakeAzure, FakeAnthropic, FakeGemini, and
for `run --batch` FakeOpenAIBatches and FakeAnthropicBatches, whose batches take `--processing-delay`
seconds); the OpenAI fakes serve under `/v1`, so their base URL is `http://127.0.0.1:PORT/v1`; the
Azure fake's endpoint is `http://127.0.0.1:PORT` (its deployments under `/openai/deployments/`). Stops
on Ctrl+C or SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from collections.abc import Sequence
from typing import Any, Optional

from benchmark_core import resolve_benchmark
from benchmark_core.testing import (
    FakeAnthropic,
    FakeAnthropicBatches,
    FakeAzure,
    FakeGemini,
    FakeOpenAI,
    FakeOpenAIBatches,
    mock_handler,
)

FAKES: dict[str, Any] = {"openai": FakeOpenAI, "azure": FakeAzure, "anthropic": FakeAnthropic, "gemini": FakeGemini}
BATCH_FAKES: dict[str, Any] = {"openai-batches": FakeOpenAIBatches, "anthropic-batches": FakeAnthropicBatches}


async def serve(wire: str, benchmark_id: str, port: int, key: Optional[str], delay: float) -> None:
    benchmark = resolve_benchmark(benchmark_id)
    if wire in BATCH_FAKES:
        handler = mock_handler(benchmark, wire=wire.removesuffix("-batches"))  # type: ignore[arg-type]
        server = BATCH_FAKES[wire](handler, api_key=key, processing_delay=delay)
    else:
        server = FAKES[wire](handler=mock_handler(benchmark, wire=wire), api_key=key)  # type: ignore[arg-type]
    await server.start(port=port)
    print(f"{wire} fake playing {benchmark.id}'s mock on {server.base_url}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        await server.close()
        if wire in BATCH_FAKES:
            print(f"{len(server.batches)} batches, {sum(server.submissions.values())} items submitted", flush=True)
        else:
            print(f"{server.received} requests served", flush=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("wire", choices=sorted({*FAKES, *BATCH_FAKES}))
    parser.add_argument("benchmark", help="An installed benchmark's id (see `benchmark-core benchmarks`).")
    parser.add_argument("--port", type=int, default=8123)
    parser.add_argument("--key", default=None, help="Refuse requests without this key (default: any key).")
    parser.add_argument("--processing-delay", type=float, default=5.0, help="Batch fakes: seconds a batch runs.")
    args = parser.parse_args(argv)
    asyncio.run(serve(args.wire, args.benchmark, args.port, args.key, args.processing_delay))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
