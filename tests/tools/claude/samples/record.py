"""Re-record the samples of the installed CLI: run it against the fake, save what it printed.

    .venv/bin/python -m tests.tools.claude.samples.record

Each sample is one JSON file: the CLI version, exit code, stdout and stderr, as they came.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.fakes.fake_anthropic import FakeAnthropic, find_claude_bin

HERE = Path(__file__).parent
DEAD_URL = "http://127.0.0.1:9"  # the discard port: nothing listens there
# name: (statuses scripted on the fake, prompt, extra arguments)
CASES: dict[str, tuple[tuple[str | int, ...], str, tuple[str, ...]]] = {
    "success": ((), "hello", ()),
    "denied": ((), 'CALL_TOOL Read {"file_path": "/etc/hostname"}', ()),
    "is_error_429": ((429,), "hello", ()),
    "is_error_401": ((401,), "hello", ()),
    "is_error_403": ((403,), "hello", ()),
    "is_error_500": ((500,), "hello", ()),
    "is_error_529": ((529,), "hello", ()),
    "is_error_400": ((400,), "hello", ()),
    "unreachable": ((), "hello", ()),
    "error_max_turns": ((), 'CALL_TOOL Read {"file_path": "x.txt"}', ("--max-turns", "1")),
    "no_session": ((), "hello", ("--resume", "11111111-2222-4333-8444-555555555555")),
    "usage_error": ((), "hello", ("--no-such-option",)),
}
STREAM = ("--output-format", "stream-json", "--verbose", "--include-partial-messages")
STREAM_REPLY = "스트리밍 답장: first line\nsecond line with ```code``` and 끝."
# Streamed (`stream_*.json`): the reply in 8-character deltas; a tool call streams two messages.
STREAM_CASES: dict[str, tuple[tuple[str | int, ...], str, tuple[str, ...]]] = {
    "stream_success": ((), "hello", STREAM),
    "stream_tool": ((), 'CALL_TOOL Read {"file_path": "notes.txt"}', STREAM),
    "stream_is_error_429": ((429,), "hello", STREAM),
    "stream_no_session": (
        (),
        "hello",
        (*STREAM, "--resume", "11111111-2222-4333-8444-555555555555"),
    ),
}


def record(binary: Path, version: str) -> None:
    """Run every case once and write `<version>/<case>.json`."""
    out_dir = HERE / version
    out_dir.mkdir(exist_ok=True)
    with FakeAnthropic() as fake, tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "notes.txt").write_text("a note\n")
        fake.stream_chunk = 8
        for name, (statuses, prompt, extra) in (CASES | STREAM_CASES).items():
            fake.script(*statuses)
            if name == "stream_success":
                fake.script_replies(STREAM_REPLY)
            env = fake.cli_env(Path(tmp) / "config")
            if name == "unreachable":
                env["ANTHROPIC_BASE_URL"] = DEAD_URL
            output = () if name in STREAM_CASES else ("--output-format", "json")
            argv = [str(binary), "-p", *output, "--tools", "Read,Grep,Glob"]
            done = subprocess.run(
                [*argv, *extra],
                input=prompt,
                capture_output=True,
                text=True,
                env=env,
                cwd=tmp,
                timeout=120,
                check=False,
            )
            sample = {
                "version": version,
                "exit_code": done.returncode,
                "stdout": done.stdout,
                "stderr": done.stderr,
            }
            path = out_dir / f"{name}.json"
            path.write_text(json.dumps(sample, indent=2, ensure_ascii=False) + "\n")
            print(f"{path.relative_to(HERE)}: exit {done.returncode}")


def main() -> int:
    """Record with the CLI the tests use."""
    binary = find_claude_bin()
    if binary is None:
        print("claude CLI not found (set CLAUDE_BIN or run bash .ci/run)", file=sys.stderr)
        return 1
    version = subprocess.run(
        [str(binary), "--version"], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()[0]
    record(binary, version)
    return 0


if __name__ == "__main__":
    sys.exit(main())
