"""The seeded simulation (bench/simulate.py): a short run in the suite, the long one a benchmark.

The run drives the real engine, store and moderator client through debates of every format,
several at once, with crashes and faults where features meet; here it must find no violation
on a seed that changes with every commit (no seed is tuned to), replay the same from the same
seed, and still catch a defect planted in the outside world's records.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bench.sim.world import World
from handlers.core.model import Debate, Turn
from tests.handlers.doubles import FakeRoom

ROOT = Path(__file__).resolve().parents[2]
SHORT_RUN = 240  # debates: every format 60 times, well under a minute on 2 cores


def _simulate() -> ModuleType:
    path = ROOT / "bench" / "simulate.py"
    spec = importlib.util.spec_from_file_location("bench_simulate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


SIM = _simulate()
SIM_WORLD = World


def commit_seed() -> int:
    """A seed of the commit under test (its hash's first 8 hex digits): every commit tries
    another, so the run cannot be tuned to one. Without git, the simulator's own text."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        head = ""
    if len(head) >= 8:
        return int(head[:8], 16)
    return sum((ROOT / "bench" / "simulate.py").read_bytes()) % 100_000


async def _run(seed: int, debates: int) -> dict[str, Any]:
    figures: dict[str, Any] = await SIM.simulate(seed, debates)
    figures.pop("seconds")
    figures.pop("worst_stall_ms")  # a measurement: it varies from run to run (bounded apart)
    return figures


async def test_a_short_run_on_this_commit_s_seed_injects_faults_and_finds_no_violation() -> None:
    seed = commit_seed()
    figures = await _run(seed, SHORT_RUN)
    replay = f"replay: .venv/bin/python bench/simulate.py --seed {seed} --debates {SHORT_RUN}"
    assert figures["violations"] == 0, (replay, figures["first_violations"])
    assert figures["debates"] == SHORT_RUN and figures["formats"] == 4
    assert figures["crashes_injected"] >= SHORT_RUN // 2
    assert figures["faults_injected"] >= SHORT_RUN
    assert figures["outsider_events_refused"] > 0
    assert figures["at_once"] > 0 and figures["meanwhile"] > 0 and figures["most_at_once"] > 1
    assert {"concluded", "stopped"} <= set(figures["outcomes"])


def test_a_fate_is_the_seed_s_whatever_order_concurrent_calls_come_in() -> None:
    """Each debate's faults, crashes and answers are drawn per call from the seed, so a seed
    draws the same world however the steps of debates run side by side interleave (the whole
    run can still interleave differently on a busy machine: threads answer when they do)."""
    calls = [("speak:claude", 3), ("outside:room:notify", "speaking:2"), ("speak:ag", 4)]

    def drawn(order: list[tuple[str, object]]) -> dict[tuple[str, object], list[float]]:
        world = SIM_WORLD(5, 7)
        found: dict[tuple[str, object], list[float]] = {}
        for name, key in order * 2:
            found.setdefault((name, key), []).append(world.roll(name, key))
        return found

    assert drawn(calls) == drawn(list(reversed(calls)))
    assert all(first != second for first, second in drawn(calls).values())  # each call its own
    assert SIM_WORLD(5, 7).roll("speak:claude", 3) != SIM_WORLD(6, 7).roll("speak:claude", 3)


async def test_a_turn_shown_cut_short_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A room that shows only a turn's first 50 characters is a violation of the first
    invariant (every reply shown whole)."""
    turn_of = FakeRoom._turn

    def cut(self: FakeRoom, debate: Debate, turn: Turn) -> str:
        return turn_of(self, debate, replace(turn, text=turn.text[:50]))

    monkeypatch.setattr(FakeRoom, "_turn", cut)
    figures = await _run(5, 24)
    assert figures["violations"] > 0
    assert any("not shown whole" in v["what"] for v in figures["first_violations"])
