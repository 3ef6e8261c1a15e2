"""Benchmark: anonymous peers' rewriting of a brief (`anonymize`) on hostile text.

    .venv/bin/python bench/anonymize.py [--mb 1,2] [--repeat 3] [--json]

Each shape is built at each size of `--mb` (megabytes of UTF-8) and rewritten with the names a
debater of a three-seat debate hides (vendors, model ids, seat names, a persona, and their
Hangul and katakana spellings), `--repeat` times; the best time counts, in CPU seconds of this
process (the machine is shared: time spent waiting for a core is not the rewriting's).
`worst_ms_per_mb` is the slowest shape's milliseconds per megabyte at the largest size: the
target is 100 ms/MB for the hostile shapes of near misses (`near_miss_ms_per_mb`). `growth` is
the largest size's ms/MB over the smallest's: about 1 when the time grows linearly with the
text. The last shapes are dense with real names (one every 15 to 30 characters): each costs
about a microsecond and a half, mostly the regex engine's match for it. `first_call_ms` is one
short brief with names not seen before: building and compiling their pattern (later briefs
reuse it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# After the path set-up above:
from handlers.core.anonymous.peers import anonymize, peer_names
from handlers.core.model import (
    AG,
    CLAUDE,
    GEMINI,
    Backend,
    Debate,
    ParsedReply,
    Participant,
    Phase,
    Proposal,
    Setup,
    Turn,
    TurnMeta,
)

MB = 1_000_000
ROSTER = (
    Participant(AG, Backend.AG_RELAY, "AG"),
    Participant(CLAUDE, Backend.CLAUDE_CLI, "Claude"),
    Participant(GEMINI, Backend.GEMINI_CLI, "Gemini", persona="a cost reviewer"),
)
MODELS = {AG: "gemini-2.5-pro", CLAUDE: "claude-sonnet-4-5-20250929", GEMINI: "gemini-2.5-flash"}

SHAPES: dict[str, str] = {  # one unit of each, repeated to the size
    "near misses": "Claudx Gemin1 Anthropix Googl AGx Sonne Opu Haik DeepMin Antigravit "
    "클로 제미 구그 앤트로 クロ Ｃｌａｕｄ Сlaud claudx-sonne geminx-cl a cost review ",
    "near misses, invisible letters": "C\u200bl\u200ba\u200bu\u200bd\u200bx G\u00ade\u00admx ",
    "near misses, invisible runs": "Clau" + "\u200b" * 200 + "dx ",
    "near misses, lookalikes": "Сlаudх Gеminх Аnthrοpiх Gοοglх ",
    "near misses, fullwidth": "Ｃｌａｕｄｘ Ｇｅｍｉｎｘ Ａｎｔｈｒｏｐｉｘ ",
    "lower-case words with a name inside": "philanthropic octopus tagagenda AGREE ",
    "version digits": "Claude" + "1." * 40 + " ",
    "characters that fold to two": "ﬁﬂ㈜ Claudx ",
    "ordinary Korean": "논거를 정리합니다. 운영 부담이 핵심입니다.\n",
    "ordinary English": "The cache layer should keep hot keys close to the application servers. ",
    "names between separator runs": "claude - _ - code - - sonnet _ _ ",
    "real names, every spelling": "Claude3, 클로드는, Ｃｌａｕｄｅ, Cl\u200baude, Сlаude, "
    "gemini-2.5-pro, 제미나이의, AG와, MyClaudeBot, a cost reviewer, claude_code. ",
}
NEAR_MISSES = [name for name in SHAPES if name.startswith("near misses")]


def names() -> dict[str, str]:
    """What the first seat hides in its brief, once each seat has spoken."""
    now = datetime.now(UTC)
    proposal = Proposal(1, "topic", "question?", "reason", 0.9, "context", (1,))
    debate = Debate(1, proposal, Phase.SPEAKING, now, setup=Setup(3, roster=ROSTER))
    turns = [
        Turn(1, n, 1, seat, "", "", "", ParsedReply(""), TurnMeta(model=model), now)
        for n, (seat, model) in enumerate(MODELS.items(), 1)
    ]
    return peer_names(debate, AG, turns)


def measure(run: Callable[[], object], repeat: int) -> float:
    """The best of `repeat` runs, in CPU seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def first_call_ms(hidden: dict[str, str]) -> float:
    """One short brief with names whose pattern is not compiled yet."""
    re.purge()
    start = time.process_time()
    anonymize("Claude와 AG의 주장", hidden)
    return (time.process_time() - start) * 1000


def main(argv: list[str] | None = None) -> int:
    """Print the table (or one JSON object with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", default="1,2", help="sizes in megabytes, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = sorted(float(size) for size in args.mb.split(","))
    hidden = names()
    first_ms = first_call_ms(hidden)
    rows: list[dict[str, Any]] = []
    for shape, unit in SHAPES.items():
        per_mb: list[float] = []
        for size in sizes:
            text = unit * max(1, int(size * MB) // len(unit.encode()))
            megabytes = len(text.encode()) / MB
            seconds = measure(lambda text=text: anonymize(text, hidden), args.repeat)
            per_mb.append(seconds * 1000 / megabytes)
            rows.append({"shape": shape, "mb": megabytes, "ms": seconds * 1000})
        rows[-1]["growth"] = per_mb[-1] / per_mb[0]
    largest = [row for row in rows if "growth" in row]
    worst = max(largest, key=lambda r: r["ms"] / r["mb"])
    near = max((r for r in largest if r["shape"] in NEAR_MISSES), key=lambda r: r["ms"] / r["mb"])
    summary = {
        "worst_ms_per_mb": round(worst["ms"] / worst["mb"], 1),
        "worst_shape": worst["shape"],
        "near_miss_ms_per_mb": round(near["ms"] / near["mb"], 1),
        "growth": round(max(r["growth"] for r in largest), 2),
        "first_call_ms": round(first_ms, 1),
        "names": len(hidden),
        "shapes": [
            {k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()} for r in rows
        ],
    }
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    print(f"{'shape':38} {'MB':>6} {'ms':>8} {'ms/MB':>8}")
    for row in rows:
        print(f"{row['shape']:38} {row['mb']:6.2f} {row['ms']:8.1f} {row['ms'] / row['mb']:8.1f}")
    print(
        f"\nworst: {summary['worst_shape']} at {summary['worst_ms_per_mb']} ms/MB; near misses: "
        f"{summary['near_miss_ms_per_mb']} ms/MB (target 100); growth {summary['growth']} "
        f"(1: linear); first call {summary['first_call_ms']} ms ({summary['names']} names)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
