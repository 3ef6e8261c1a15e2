#!/usr/bin/env python3
"""A stand-in for the `claude` CLI in bench/workers.py: a child process that burns about
BURN_SECONDS of CPU (the real CLI's Node process spends about a second per turn), then prints
one stream-json `result` line holding a reply in the debaters' contract."""

from __future__ import annotations

import json
import os
import sys
import time
import uuid

BURN_SECONDS = float(os.environ.get("BENCH_BURN_SECONDS", "0.5"))


def burn(seconds: float) -> int:
    """Spin on this process's own CPU time (not the wall clock: a busy machine burns longer)."""
    end, n = time.process_time() + seconds, 0
    while time.process_time() < end:
        n += sum(i * i for i in range(200))
    return n


def main() -> None:
    """Read the prompt, burn, answer."""
    prompt = sys.stdin.read()
    burn(BURN_SECONDS)
    opinion = f"Bench reply to a prompt of {len(prompt)} characters."
    block = {"opinion": opinion, "stance": "partial"}
    reply = f"Bench.\n\n```json\n{json.dumps(block)}\n```"
    result = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "num_turns": 1,
        "result": reply,
        "session_id": str(uuid.uuid4()),
        "total_cost_usd": 0.0,
        "usage": {"input_tokens": len(prompt) // 4, "output_tokens": len(reply) // 4},
    }
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
