"""run_cli with `on_line`: stdout handed over line by line while the program runs, whole after."""

from __future__ import annotations

import sys
from pathlib import Path

from tools.cli_process import run_cli

PROGRAM = """
import os, sys, time
data = sys.stdin.buffer.read()
print("first", len(data), flush=True)
while not os.path.exists(sys.argv[1]):  # until the reader has seen the first line
    time.sleep(0.01)
print("x" * 200_000, flush=True)  # longer than a stream reader's default line limit
sys.stdout.write("last line without a newline")
"""


async def test_lines_arrive_while_the_program_runs_and_nothing_is_lost(tmp_path: Path) -> None:
    seen = tmp_path / "seen"
    lines: list[str] = []

    def on_line(line: str) -> None:
        lines.append(line)
        seen.touch()  # the program goes on only once this line was handed over

    prompt = b"p" * 1_000_000  # more than a pipe holds: stdin is fed while stdout is read
    run = await run_cli(
        [sys.executable, "-c", PROGRAM, str(seen)],
        stdin=prompt, cwd=tmp_path, env={}, timeout_s=60, grace_s=1, on_line=on_line,
    )  # fmt: skip
    assert run.exit_code == 0
    assert lines == ["first 1000000\n", "x" * 200_000 + "\n"]
    assert run.stdout == "".join(lines) + "last line without a newline"
