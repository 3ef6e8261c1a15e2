"""run_cli with `on_lines`: stdout handed over by lines while the program runs, whole after."""

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

    def on_lines(read: list[str]) -> None:
        lines.extend(read)
        seen.touch()  # the program goes on only once the first line was handed over

    prompt = b"p" * 1_000_000  # more than a pipe holds: stdin is fed while stdout is read
    run = await run_cli(
        [sys.executable, "-c", PROGRAM, str(seen)],
        stdin=prompt,
        cwd=tmp_path,
        env={},
        timeout_s=60,
        grace_s=1,
        on_lines=on_lines,
    )
    assert run.exit_code == 0
    assert lines == ["first 1000000\n", "x" * 200_000 + "\n"]
    assert run.stdout == "".join(lines) + "last line without a newline"


async def test_the_lines_of_one_write_are_handed_over_together(tmp_path: Path) -> None:
    # A stream reader shows the text so far once per hand-over: a burst of deltas must come
    # as one, not as a hand-over per line (each would cost a join of the whole text).
    burst = "".join(f"delta {i}\n" for i in range(300))  # under PIPE_BUF: one atomic write
    calls: list[list[str]] = []
    run = await run_cli(
        [sys.executable, "-c", f"import sys; sys.stdout.write({burst!r}); sys.stdout.flush()"],
        stdin=None,
        cwd=tmp_path,
        env={},
        timeout_s=60,
        grace_s=1,
        on_lines=calls.append,
    )
    assert run.stdout == burst
    assert calls == [burst.splitlines(keepends=True)]
