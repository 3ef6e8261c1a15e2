"""Benchmark: the reply parser on adversarial shapes (issue 12, item 3).

    .venv/bin/python bench/parse.py [--mb 1.0] [--repeat 5] [--json]

Each shape is built at about `--mb` megabytes and parsed `--repeat` times; the best time
counts (the machine is shared). `worst_ms_per_mb` is the slowest shape's milliseconds per
megabyte: the target is 1 MB of the worst shape in under 100 ms. `mb_per_s` is over all shapes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from handlers.core.reply_parser import parse_reply  # noqa: E402  # after the path set-up above

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
}


def measure(text: str, repeat: int) -> float:
    """The best of `repeat` parses, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        parse_reply(text)
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
        seconds = measure(text, args.repeat)
        megabytes = len(text.encode("utf-8", "surrogatepass")) / MB
        rows.append({"shape": name, "mb": megabytes, "ms": seconds * 1000})
    total_mb = sum(r["mb"] for r in rows)
    total_s = sum(r["ms"] for r in rows) / 1000
    worst = max(rows, key=lambda r: r["ms"] / r["mb"])
    summary = {
        "mb_per_s": round(total_mb / total_s, 1),
        "worst_ms_per_mb": round(worst["ms"] / worst["mb"], 2),
        "worst_shape": worst["shape"],
        "shapes": [
            {k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()} for r in rows
        ],
    }
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    print(f"{'shape':28} {'MB':>6} {'ms':>8} {'ms/MB':>8}")
    for row in rows:
        per_mb = row["ms"] / row["mb"]
        print(f"{row['shape']:28} {row['mb']:6.2f} {row['ms']:8.2f} {per_mb:8.2f}")
    print(f"\nall shapes: {summary['mb_per_s']} MB/s; worst: {summary['worst_shape']} "
          f"at {summary['worst_ms_per_mb']} ms/MB (target < 100)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
