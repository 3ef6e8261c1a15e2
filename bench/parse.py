"""Benchmark: every reader of outside text on hostile shapes, at two sizes.

    .venv/bin/python bench/parse.py [--mb 1.0] [--repeat 2] [--only REGEX] [--json]

Each shape (bench/parse_inputs.py) is built at about `--mb` megabytes and at twice that, and
given to every reader of text that comes from outside: a debater's reply by each format's
contract (the free format's JSON, the boardroom's vote layout, the adversarial prefixes, the
ledger's fields), what the formats read again (`noted`, the adversarial roles' points and their
ids, its result page and closing block), the rules' intake audit, a concession's quote check,
the moderator's task object and answer validation, the Claude CLI's stdout and stream, the
Gemini CLI's stdout, the AG relay's tag. A reader whose input wraps the reply (a CLI's stdout,
the adversarial roles' answers) is built from the shape beforehand, untimed; its megabytes are
those it reads. A reader to which some shapes are only more text reads the others only.

Each read runs `--repeat` times; the best counts, in CPU time of this process (the machine is
shared). Printed per reader and shape: ms per MB at both sizes and `growth`, the time at twice
the size over the time at the size (about 2 is linear, 4 quadratic; pairs under 1 ms are noise,
left out of `worst_growth`). `worst_ms_per_mb` is the slowest pair's, target ≤ 100.
`loop_worst_ms` is the longest read at twice the size among the reads that run on the event
loop in one step (the contract parse, the result page, the quote check run in a worker thread:
handlers.effects_runner), target ≤ 100.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# After the path set-up above:
from bench.parse_inputs import (
    MB,
    SHAPES,
    claude_stdout,
    gemini_stdout,
    size_of,
    stream_reads,
)
from bot.discord.ag.reply import tag_of, without_tag
from handlers.core.formats import format_named
from handlers.core.formats.adversarial.audit import (
    Audit,
    Evidence,
    Intake,
    Route,
    Tier,
    rules_audit,
)
from handlers.core.formats.adversarial.contract import (
    ADVOCATE,
    EvidencePoints,
    missing,
)
from handlers.core.formats.adversarial.result import (
    Answers,
    render_result,
    render_summary,
    uncited,
)
from handlers.core.formats.boardroom.reply import parse_position
from handlers.core.formats.ledger.text import missing_fields
from handlers.core.model import ParsedReply, Turn, TurnMeta
from handlers.core.reply.parser import json_block, task_object
from handlers.core.turns.concessions import verdict
from tools.claude.output import classify, window_of
from tools.claude.stream import progress, result_line
from tools.gemini.cli import last_json
from tools.gemini.schemas import JudgeReply, validated


def _turn(text: str) -> Turn:
    return Turn(1, 1, 1, "ag", text, text, "", ParsedReply(text), TurnMeta(), datetime.now(UTC))


def _ledger(text: str) -> object:
    return json_block(text), missing_fields(_turn(text))  # the block the fields are read from


AUDIT = Audit("q", evidence=tuple(Evidence(f"E{i}", "x", "supports") for i in range(1, 40)))
FULL = Route(Tier.FULL, ("high_stakes",), True, Intake.READY)


def _quoting(text: str) -> tuple[str, str]:
    """A concession quoting the whole reply (`convinced_by`), and the reply it is looked for in."""
    return text, text


def _quote_check(given: tuple[str, str]) -> object:
    quote, reply = given
    return verdict("b", quote, (_turn(reply),))


def _every_role(text: str) -> Answers:
    """The text as each role's answer (a probe reads as any role does: left out, for time)."""
    return Answers(text, text, text, (), text)


def _claude_read(stdout: str) -> object:
    """What ClaudeCodeDebater reads of a finished run (its `_read`)."""
    return window_of(stdout), classify(0, stdout, "", 0.0), result_line(stdout)


def _streamed(reads: list[list[str]]) -> object:
    """The stream as ClaudeCodeDebater reads it, the text so far shown after each read (the
    display keeps the latest)."""
    shown: list[str] = [""]
    on_lines = progress(lambda text: shown.__setitem__(0, text))
    for lines in reads:
        on_lines(lines)
    return shown[0]


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Reader:
    """One reader: what it reads, built untimed from the shape, and whether it runs on the loop."""

    read: Callable[[Any], object]
    prepare: Callable[[str], Any] = _same
    on_loop: bool = False
    shapes: str = ""  # a regex: the shapes it reads, where the others would tell nothing new


# Shapes that are not JSON structure: what a reader of lines (the adversarial sections) can
# be made slow by; the others it reads as any text.
LINES = r"^(?!.*(nesting|brackets|`\{|flood, then|unterminated|fence flood|huge valid|block))"
STREAMED = "^(normal reply|lone surrogates|NUL characters|blank lines|one long line|ids flood)$"
READERS: dict[str, Reader] = {
    "free (JSON contract)": Reader(format_named("free").parse),
    "boardroom (contract)": Reader(format_named("boardroom").parse),
    "adversarial (contract)": Reader(format_named("adversarial").parse),
    "ledger (fields)": Reader(_ledger, on_loop=True),
    "boardroom (noted)": Reader(lambda t: parse_position(t, 1), on_loop=True),
    "adversarial (noted)": Reader(lambda t: missing(t, ADVOCATE), on_loop=True),
    # Read by the result page and the closing block, which the effects runner and the export
    # file (tools/wiki/export.export_file) render in a worker thread.
    "adversarial (points)": Reader(lambda t: uncited("advocate", EvidencePoints(t), AUDIT.ids)),
    "adversarial (result page)": Reader(
        lambda a: render_result(AUDIT, FULL, a), _every_role, shapes=LINES
    ),
    "adversarial (summary)": Reader(
        lambda a: render_summary(AUDIT, FULL, a), _every_role, shapes=LINES
    ),
    "adversarial (rules audit)": Reader(lambda t: rules_audit("q", (t,)), on_loop=True),
    "concession (quote check)": Reader(_quote_check, _quoting),
    "moderator (task object)": Reader(task_object, on_loop=True),
    "moderator (validated)": Reader(lambda t: validated(t, None, JudgeReply), on_loop=True),
    "claude CLI (stdout)": Reader(_claude_read, claude_stdout, on_loop=True),
    "claude CLI (raw stdout)": Reader(_claude_read, on_loop=True),
    # On the loop, a step per read of 64 KiB: no one stall. The reply is escaped into JSON
    # lines: its shape changes little but their number and size.
    "claude CLI (stream)": Reader(_streamed, stream_reads, shapes=STREAMED),
    "gemini CLI (stdout)": Reader(last_json, gemini_stdout, on_loop=True),
    "AG relay (tag)": Reader(
        lambda t: (tag_of(SimpleNamespace(content=t)), without_tag(t, (1, 2))), on_loop=True
    ),
}


def measure(read: Callable[[Any], object], given: object, repeat: int) -> float:
    """The best of `repeat` reads, in seconds of this process's CPU (the machine is shared)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        read(given)
        best = min(best, time.process_time() - start)
    return best


def rows_for(size: int, repeat: int, only: re.Pattern[str]) -> list[dict[str, Any]]:
    """Every (reader, shape) pair that `only` selects, read at `size` and at twice `size`."""
    rows: list[dict[str, Any]] = []
    for shape, build in SHAPES.items():
        texts = (build(size), build(2 * size))
        for name, reader in READERS.items():
            if not only.search(f"{name} {shape}") or not re.search(reader.shapes, shape):
                continue
            row: dict[str, Any] = {"reader": name, "shape": shape, "on_loop": reader.on_loop}
            for label, text in zip(("", "_2x"), texts, strict=True):
                given = reader.prepare(text)
                row[f"mb{label}"] = size_of(given) / MB
                row[f"ms{label}"] = measure(reader.read, given, repeat) * 1000
            row["growth"] = row["ms_2x"] / max(row["ms"], 1e-6)
            rows.append(row)
    return rows


def summary_of(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures the README and docs/performance.md name."""
    per_mb = [(r["ms"] / r["mb"], r) for r in rows] + [(r["ms_2x"] / r["mb_2x"], r) for r in rows]
    worst_per_mb, worst = max(per_mb, key=lambda pair: pair[0])
    timed = [r for r in rows if r["ms"] >= 1.0] or rows
    steepest = max(timed, key=lambda r: r["growth"])
    loop = [r for r in rows if r["on_loop"]] or rows
    loop_per_mb = max(
        ms / r["mb" if key == "ms" else "mb_2x"]
        for r in loop
        for key, ms in (("ms", r["ms"]), ("ms_2x", r["ms_2x"]))
    )
    longest = max(loop, key=lambda r: r["ms_2x"])
    total_mb = sum(r["mb"] + r["mb_2x"] for r in rows)
    total_s = sum(r["ms"] + r["ms_2x"] for r in rows) / 1000
    return {
        "mb_per_s": round(total_mb / total_s, 1),
        "worst_ms_per_mb": round(worst_per_mb, 2),
        "worst_shape": worst["shape"],
        "worst_reader": worst["reader"],
        "worst_growth": round(steepest["growth"], 2),
        "worst_growth_pair": f"{steepest['reader']} on {steepest['shape']}",
        "loop_ms_per_mb": round(loop_per_mb, 2),
        "loop_worst_ms": round(longest["ms_2x"], 2),
        "loop_worst_pair": f"{longest['reader']} on {longest['shape']}",
        "shapes": [
            {k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()} for r in rows
        ],
    }


def main(argv: list[str] | None = None) -> int:
    """Print the table (or one JSON object with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--only", default="", help="a regex on 'reader shape': measure those")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = rows_for(int(args.mb * MB), args.repeat, re.compile(args.only))
    summary = summary_of(rows)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    print(f"{'reader':26} {'shape':30} {'MB':>5} {'ms/MB':>8} {'at 2x':>8} {'growth':>6}")
    for r in rows:
        print(
            f"{r['reader']:26} {r['shape']:30} {r['mb']:5.2f} {r['ms'] / r['mb']:8.2f} "
            f"{r['ms_2x'] / r['mb_2x']:8.2f} {r['growth']:6.2f}"
        )
    print(
        f"\nall: {summary['mb_per_s']} MB/s; worst: {summary['worst_reader']} on "
        f"{summary['worst_shape']} at {summary['worst_ms_per_mb']} ms/MB (target ≤ 100); "
        f"steepest growth: {summary['worst_growth']} ({summary['worst_growth_pair']}, ≈2 is "
        f"linear); on the loop: {summary['loop_worst_ms']} ms at 2x "
        f"({summary['loop_worst_pair']}; target ≤ 100)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
