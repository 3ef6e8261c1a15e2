"""Benchmark: every reader of a debater's reply on adversarial shapes (issues 12 and 30).

    .venv/bin/python bench/parse.py [--mb 1.0] [--repeat 5] [--json]

Each shape is built at about `--mb` megabytes and read by each format's reader (the free
format's JSON contract, the boardroom's vote layout, the adversarial prefixes and the rules'
intake audit, the ledger's fields) `--repeat` times; the best time counts (the machine is
shared). `worst_ms_per_mb` is the slowest (reader, shape) pair's milliseconds per megabyte:
the target is 1 MB of the worst shape in under 100 ms. `mb_per_s` is over all pairs.

`loop_ms_per_mb` is the same for the reads that run on the event loop: a reply's contract
parse runs in a worker thread past 64 KiB (handlers.effects_runner.parse_off_loop), but the
format's `noted` reads the reply again inside the state machine: the boardroom its vote
layout, the adversarial format its missing prefixes. The target: no stall over 50 ms on a
1 MB answer.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# After the path set-up above:
from handlers.core.formats.adversarial_audit import rules_audit  # noqa: E402
from handlers.core.formats.adversarial_contract import ADVOCATE, missing, parse_prefix  # noqa: E402
from handlers.core.formats.boardroom_reply import parse_contract, parse_position  # noqa: E402
from handlers.core.formats.ledger_text import missing_fields  # noqa: E402
from handlers.core.model import ParsedReply, Turn, TurnMeta  # noqa: E402
from handlers.core.reply_parser import json_block, parse_reply  # noqa: E402

MB = 1_000_000
BLOCK = '\n```json\n{"opinion": "끝", "stance": "agree", "question": "왜?"}\n```\n'


def _fill(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


SHAPES: dict[str, Callable[[int], str]] = {
    "deep nesting, fenced": lambda n: "```json\n" + _fill('{"opinion": ', n) + "\n```",
    "deep nesting, closed": lambda n: _fill('{"a": [', n // 2) + "1" + _fill("]}", n // 3),
    '`{"` flood': lambda n: _fill('{"', n),
    '`{"opinion": {"` flood': lambda n: _fill('{"opinion": {"', n),
    "flood, then a block": lambda n: _fill('{"opinion": ["', n) + BLOCK,
    "unterminated strings": lambda n: _fill('{"opinion": "a', n),
    "fence flood": lambda n: _fill('```json\n{"opinion":\n', n),
    "one long line": lambda n: _fill("가나다 ", n) + BLOCK,
    "normal reply": lambda n: _fill("논거를 정리합니다. 운영 부담이 핵심입니다.\n\n", n) + BLOCK,
    "huge valid block": lambda n: json.dumps({"opinion": "x" * n, "stance": "agree"}),
    "numbered flood": lambda n: _fill("1. a\n2. b\n3. c\n", n),
    "blank lines": lambda n: "1. VOTE: YES\n" + "\n" * n + "2. x",
    "space-only lines": lambda n: _fill("   \n", n),
    "numbers mid-line": lambda n: _fill("a1.b2)c3.", n),
    "quoted votes": lambda n: _fill('{"vote": "no"} ', n) + "\n1. VOTE: YES",
    "padded evidence lines": lambda n: _fill("- E1 |" + " " * 3990 + "x |    nope\n", n),
    "pipes flood": lambda n: _fill("E2 | a |", n),
}


def _ledger(text: str) -> object:
    turn = Turn(1, 1, 1, "ag", text, text, "", ParsedReply(text), TurnMeta(), datetime.now(UTC))
    return json_block(text), missing_fields(turn)  # the block the ledger's fields are read from


READERS: dict[str, Callable[[str], object]] = {
    "free (JSON contract)": parse_reply,
    "boardroom (votes)": lambda t: (parse_contract(t), parse_position(t, 1), parse_position(t, 2)),
    "adversarial (prefixes)": parse_prefix,
    "adversarial (rules audit)": lambda t: rules_audit("q", (t,)),
    "ledger (fields)": _ledger,
}
ON_LOOP: dict[str, Callable[[str], object]] = {  # what `noted` reads, per format
    "boardroom (noted)": lambda t: parse_position(t, 1),
    "adversarial (noted)": lambda t: missing(t, ADVOCATE),
}


def measure(read: Callable[[str], object], text: str, repeat: int) -> float:
    """The best of `repeat` reads, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        read(text)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    """Print the table (or one JSON object with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    size = int(args.mb * MB)
    rows: list[dict[str, Any]] = []
    for name, build in SHAPES.items():
        text = build(size)
        megabytes = len(text.encode("utf-8", "surrogatepass")) / MB
        for reader, read in (READERS | ON_LOOP).items():
            seconds = measure(read, text, args.repeat)
            rows.append({"reader": reader, "shape": name, "mb": megabytes, "ms": seconds * 1000})
    total_mb = sum(r["mb"] for r in rows)
    total_s = sum(r["ms"] for r in rows) / 1000
    worst = max(rows, key=lambda r: r["ms"] / r["mb"])
    on_loop = max((r for r in rows if r["reader"] in ON_LOOP), key=lambda r: r["ms"] / r["mb"])
    summary = {
        "mb_per_s": round(total_mb / total_s, 1),
        "worst_ms_per_mb": round(worst["ms"] / worst["mb"], 2),
        "worst_shape": worst["shape"],
        "worst_reader": worst["reader"],
        "loop_ms_per_mb": round(on_loop["ms"] / on_loop["mb"], 2),
        "shapes": [
            {k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()} for r in rows
        ],
    }
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    print(f"{'reader':26} {'shape':24} {'MB':>6} {'ms':>8} {'ms/MB':>8}")
    for row in rows:
        per_mb = row["ms"] / row["mb"]
        print(
            f"{row['reader']:26} {row['shape']:24} {row['mb']:6.2f} {row['ms']:8.2f} {per_mb:8.2f}"
        )
    print(f"\nall: {summary['mb_per_s']} MB/s; worst: {summary['worst_reader']} on "
          f"{summary['worst_shape']} at {summary['worst_ms_per_mb']} ms/MB (target < 100); "
          f"on the loop: {summary['loop_ms_per_mb']} ms/MB (target < 50)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
