"""Every script in bench/ runs to the end at tiny sizes and prints its figures.

The figures are not judged (a smoke run is too small, and the machine is shared); what is
checked is that each script still runs against the code as it is today and still prints every
field that the README and docs/performance.md name. A new script in bench/ without a case here
fails `test_every_bench_script_has_a_smoke_run`.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.clis import installed_or_skip
from tests.fakes.discord_spec import VIOLATES
from tests.fakes.fake_anthropic import find_claude_bin
from tests.postgres import binaries

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
TIMEOUT_S = 240  # generous: a shared machine can be slow; a hung script still ends the test

# Modules of bench/ that are not scripts, and the script whose smoke run imports and runs them.
COVERED_BY = {
    "moderator_cost_autogen.py": "moderator_cost.py",
    "parse_inputs.py": "parse.py",
    **{f"sim/{name}.py": "simulate.py" for name in ("checks", "people", "ports", "run", "world")},
}


def _claude() -> None:
    installed_or_skip(find_claude_bin(), "claude")


def _autogen() -> None:
    if importlib.util.find_spec("autogen_agentchat") is None:
        _missing("autogen-agentchat (the `bench` extra) is missing; `bash .ci/run` installs it")


def _postgres() -> None:
    if binaries() is None:
        _missing("PostgreSQL's server binaries are not installed; `bash .ci/run` installs them")


def _missing(reason: str) -> None:
    """A skip that says why; in CI (CI=true), where .ci/run installed it, a failure."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


@dataclass(frozen=True)
class Case:
    """One script's smoke run: its arguments and the fields its `--json` object must hold."""

    script: str
    args: str  # space-separated, as typed
    fields: str = ""  # the names, space-separated
    needs: tuple[Callable[[], None], ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    stdin: str = ""


CASES = [
    Case(
        "anonymize.py",
        "--mb 0.01,0.02 --repeat 1 --json",
        "worst_ms_per_mb worst_shape near_miss_ms_per_mb growth first_call_ms names shapes",
    ),
    Case(
        "claude_overhead.py",
        "--turns 1 --json",
        "ours_median_s bare_median_s overhead_ratio",
        needs=(_claude,),
    ),
    Case(
        "detection.py",
        "--thresholds 0.5 --json",
        "cards_per_1000_messages decisions_found_share unwanted_cards brier reliability"
        " by_threshold default_threshold scorer",
    ),
    Case(
        "engine_load.py",
        "--json --sizes 1 --rounds 2 --paced-size 1 --paced-think-s 0.01",
        "p50_ms p95_ms p95_ms_at_100 p95_ms_paced cpu_ms_per_turn cpu_ms_per_extra_turn"
        " cpu_ms_per_debate_setup rest_calls_per_turn sqlite_writes_per_turn rss_mb_per_debate",
    ),
    Case(
        "live.py",
        "--json --chars 600 --gap-s 0.02",
        "first_text_s api_to_thread_s edits_per_reply rate_limited",
        needs=(_claude,),
    ),
    Case(
        "live.py",
        "--json --chars 600 --gap-s 0.02 --structured",
        "first_text_s api_to_thread_s edits_per_reply rate_limited",
        needs=(_claude,),
    ),
    Case(
        "moderator_cost.py",
        "--json",
        "turn4_input_tokens turn40_input_tokens growth_ratio ours_cumulative_tokens"
        " autogen_cumulative_tokens cumulative_ratio requests_per_turn"
        " detection_requests_per_1000_messages brief_overhead_chars_turn40",
        needs=(_autogen,),
    ),
    Case(
        "parse.py",
        "--mb 0.01 --repeat 1 --json",
        "mb_per_s worst_ms_per_mb worst_shape worst_reader worst_growth worst_growth_pair"
        " loop_ms_per_mb loop_worst_ms loop_worst_pair shapes",
    ),
    Case(
        "seat_stats.py",
        "--json --debates 3 --repeat 1",
        "debates_in_server state_bytes_mean read_debates_ms read_stances_ms count_ms render_ms"
        " total_ms answer_ms loop_worst_ms loop_idle_worst_ms",
    ),
    Case(
        "simulate.py",
        "--seed 1 --debates 4 --json",
        "debates formats crashes_injected faults_injected violations paid_repeats restarts"
        " at_once meanwhile most_at_once worst_stall_ms",
    ),
    Case(
        "wiki_entry.py",
        "--json --debates 3 --entries 2",
        "cpu_us_per_entry sys_share cpu_us_per_entry_by_thread",
    ),
    Case(
        "workers.py",
        "--json --workers 1,2 --debates 2 --rounds 1 --repeat 1 --burn 0.01",
        "turns_per_s_sqlite turns_per_s_1 cpu_s_per_turn_1 machine_busy_1 turns_per_s_2"
        " scaling_2 cores debates rounds",
        needs=(_postgres,),
    ),
]
# Not a benchmark of its own: workers.py's stand-in for the claude CLI, run here on its own too.
CPU_CLAUDE = Case(
    "cpu_claude.py", "", env={"BENCH_BURN_SECONDS": "0.01"}, stdin="a prompt of 25 characters"
)
_CLI = {"claude_overhead.py", "live.py"}


def run_script(case: Case) -> subprocess.CompletedProcess[str]:
    """The script in a process group of its own (its children too) under TIMEOUT_S."""
    env = {**os.environ, **case.env}
    with subprocess.Popen(
        [sys.executable, str(BENCH / case.script), *shlex.split(case.args)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as proc:
        try:
            out, err = proc.communicate(case.stdin, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            pytest.fail(f"{case.script} ran over {TIMEOUT_S} s:\n{err[-3000:]}")
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    assert done.returncode == 0, f"{case.script} exited {done.returncode}:\n{err[-3000:]}"
    return done


def last_json(stdout: str) -> dict[str, Any]:
    """The JSON object a script prints last."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    assert lines, "the script printed nothing"
    figures = json.loads(lines[-1])
    assert isinstance(figures, dict)
    return figures


@pytest.mark.bench
@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=c.script, marks=[pytest.mark.cli] if c.script in _CLI else [])
        for c in CASES
    ],
)
def test_bench_script_prints_its_figures(case: Case) -> None:
    for need in case.needs:
        need()
    done = run_script(case)
    figures = last_json(done.stdout)
    missing = set(case.fields.split()) - set(figures)
    assert not missing, f"{case.script} no longer prints {sorted(missing)}: {figures}"
    refused = [line for line in done.stderr.splitlines() if line.startswith(VIOLATES)]
    assert not refused, "\n".join(refused)  # the fake Discord's spec check (see discord_spec)


@pytest.mark.bench
def test_cpu_claude_answers_in_the_debaters_contract() -> None:
    case = CPU_CLAUDE
    result = last_json(run_script(case).stdout)
    assert result["type"] == "result"
    assert not result["is_error"]
    assert "```json" in result["result"]
    assert f"{len(case.stdin)} characters" in result["result"]


@pytest.mark.bench
def test_make_recordings_writes_the_recorded_inputs_again(tmp_path: Path) -> None:
    """The recordings in bench/data/ are what the script writes (deterministic)."""
    case = Case("data/make_recordings.py", f"--out {shlex.quote(str(tmp_path))}")
    run_script(case)
    for name in ("debate_40_turns.jsonl", "busy_channel.jsonl", "busy_channel_marks.json"):
        written = (tmp_path / name).read_text(encoding="utf-8")
        assert written == (BENCH / "data" / name).read_text(encoding="utf-8"), name


def test_every_bench_script_has_a_smoke_run() -> None:
    smoked = {c.script for c in [*CASES, CPU_CLAUDE]} | {"data/make_recordings.py"}
    smoked |= set(COVERED_BY)
    found = {p.relative_to(BENCH).as_posix() for p in BENCH.rglob("*.py")}
    found = {name for name in found if not name.endswith("__init__.py")}
    assert found - smoked == set(), "a bench script without a smoke run here"
    assert smoked - found == set(), "a smoke run of a script that is gone"
