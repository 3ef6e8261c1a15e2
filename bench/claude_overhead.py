"""Benchmark: what ClaudeCodeDebater adds to a bare `claude -p` call.

    .venv/bin/python bench/claude_overhead.py [--turns 20] [--json]

Both sides run the real CLI against the loopback fake Anthropic API, alternating call by call
(the order flips every round so drift hits both equally). Each side keeps its own session and
resumes it every turn, so both transcripts grow alike. The bare side runs the very same argument
list in a plain subprocess, without the debater's lock, semaphore, SQLite session row, output
classification or process-group handling: the ratio is the wrapper's cost, not the CLI's.
One warm-up call per side is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

# `tests.fakes` is not installed; run from anywhere
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from handlers.core.model import CLAUDE
from handlers.ports import TurnRequest  # after the path set-up above
from tests.fakes.fake_anthropic import FakeAnthropic, find_claude_bin
from tools.claude.debater import ClaudeCodeDebater
from tools.store.db import Database
from tools.store.sessions import AgentSessions

SYSTEM_PROMPT = (
    "You are one of two debaters in a structured design debate moderated by a third party. "
    "You never write code. Every reply ends with one JSON block.\n"
) * 8
TOOLS = "Read,Grep,Glob,WebSearch,WebFetch"
TURN_TEXT = "상대의 주장: 캐시는 Redis로 시작해야 한다. 운영 부담은 관리형 서비스로 줄인다. " * 25
INSERT_DEBATE = (
    "INSERT INTO debates (id, channel_id, topic, phase, state, created_at, updated_at) "
    "VALUES (1, 1, 'bench', 'speaking', '{}', ?, ?)"
)


async def bare_call(argv: list[str], prompt: str, cwd: Path, env: dict[str, str]) -> str:
    """One plain `claude -p` call; returns its session id."""
    proc = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=cwd,
        env=env,
    )
    out, err = await asyncio.wait_for(proc.communicate(prompt.encode()), 120)
    if proc.returncode != 0:
        raise RuntimeError(f"bare call failed ({proc.returncode}): {err.decode()[:300]}")
    return session_of(out.decode())


def session_of(stdout: str) -> str:
    """The session id on the `result` line that ends a `--output-format stream-json` run (the
    debater's argument list asks for stream-json: one JSON object a line, the record last)."""
    for line in reversed(stdout.splitlines()):
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and data.get("type") == "result":
            return str(data["session_id"])
    raise RuntimeError(f"bare call printed no result line: {stdout[-300:]}")


class Sides:
    """The two sides of the benchmark: the debater, and the same CLI call run bare."""

    def __init__(self, debater: ClaudeCodeDebater, env: dict[str, str], bare_dir: Path) -> None:
        self.debater = debater
        self.env = {**env, "CLAUDE_CODE_MAX_RETRIES": "0"}
        self.bare_dir = bare_dir
        self.bare_session: str | None = None

    async def ours(self, turn: int) -> float:
        """One turn through ClaudeCodeDebater; seconds."""
        request = TurnRequest(debate_id=1, turn=turn, round=turn, prompt=f"{turn}: {TURN_TEXT}")
        started = time.perf_counter()
        await self.debater.speak(request)
        return time.perf_counter() - started

    async def bare(self, turn: int) -> float:
        """The same call without the wrapper; seconds."""
        started = time.perf_counter()
        argv = self.debater.command(self.bare_session)
        prompt = f"{turn}: {TURN_TEXT}"
        self.bare_session = await bare_call(argv, prompt, self.bare_dir, self.env)
        return time.perf_counter() - started


async def measure(binary: str, turns: int) -> tuple[list[float], list[float]]:
    """Time `turns` calls of each side, alternating; returns (ours, bare) in seconds."""
    with FakeAnthropic() as fake, tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = fake.cli_env(root / "config")
        db = await Database.open(str(root / "bench.sqlite3"))
        now = datetime.now(UTC).isoformat()
        await db.execute(INSERT_DEBATE, (now, now))
        debater = ClaudeCodeDebater(
            AgentSessions(db, CLAUDE),
            binary=binary,
            system_prompt=SYSTEM_PROMPT,
            model=None,
            tools=TOOLS,
            timeout_s=120,
            max_retries=0,
            max_concurrency=2,
            workdir_root=root / "data",
            env=env,
            keep_api_key=True,
        )
        (root / "bare").mkdir()
        sides = Sides(debater, env, root / "bare")
        ours: list[float] = []
        bare: list[float] = []
        try:
            await sides.ours(0)  # warm-up, not counted
            await sides.bare(0)
            for turn in range(1, turns + 1):
                if turn % 2:
                    ours.append(await sides.ours(turn))
                    bare.append(await sides.bare(turn))
                else:
                    bare.append(await sides.bare(turn))
                    ours.append(await sides.ours(turn))
        finally:
            await db.close()
        return ours, bare


def summary(ours: list[float], bare: list[float]) -> dict[str, float]:
    """The benchmark's fields, by the names README.md and the smoke test read."""
    ours_median, bare_median = statistics.median(ours), statistics.median(bare)
    return {
        "ours_median_s": round(ours_median, 4),
        "bare_median_s": round(bare_median, 4),
        "overhead_ratio": round(ours_median / bare_median, 4),
    }


def table(ours: list[float], bare: list[float], version: str) -> str:
    """A readable table of both sides."""
    lines = [
        f"claude overhead: {len(ours)} turns per side, claude {version}, fake Anthropic API",
        f"{'':<22}{'median':>9}{'min':>9}{'max':>9}",
    ]
    for name, values in (("ClaudeCodeDebater", ours), ("bare claude -p", bare)):
        lines.append(
            f"{name:<22}{statistics.median(values):>8.3f}s{min(values):>8.3f}s{max(values):>8.3f}s"
        )
    ratio = summary(ours, bare)["overhead_ratio"]
    verdict = "met" if ratio <= 1.10 else f"missed by {ratio - 1.10:.2f}"
    lines.append(f"{'overhead ratio':<22}{ratio:>9.3f}  (target <= 1.10: {verdict})")
    return "\n".join(lines)


def main() -> int:
    """Run the benchmark and print the table, or one JSON object with --json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    binary = find_claude_bin()
    if binary is None:
        print("claude CLI not found: set CLAUDE_BIN or run `bash .ci/run`", file=sys.stderr)
        return 1
    ours, bare = asyncio.run(measure(str(binary), args.turns))
    if args.json:
        print(json.dumps(summary(ours, bare)))
    else:
        version = subprocess.run(
            [str(binary), "--version"], capture_output=True, text=True, check=False, timeout=60
        ).stdout.split(" ")[0]
        print(table(ours, bare, version))
    return 0


if __name__ == "__main__":
    sys.exit(main())
