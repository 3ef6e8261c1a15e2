"""Ports stay narrow: every Protocol of the engine (handlers/), the adapters (tools/) and the
admin commands' read side names six methods at most (a port per concern: the debates, their
effect queue, their timers, the turn log, ...). A Discord front's own Protocols (what its
buttons ask of it) are the front's business, outside this rule."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLACES = ("handlers", "tools", "bot/admin.py", "bot/stats.py")
MOST = 6


def _ports() -> dict[str, int]:
    """Each Protocol class, as path:name, with how many methods it names."""
    found = {}
    for place in PLACES:
        paths = [ROOT / place] if place.endswith(".py") else (ROOT / place).rglob("*.py")
        for path in paths:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and any(
                    ast.unparse(base).endswith("Protocol") for base in node.bases
                ):
                    methods = [
                        n
                        for n in node.body
                        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                    ]
                    found[f"{path.relative_to(ROOT)}:{node.name}"] = len(methods)
    return found


def test_no_port_names_more_than_six_methods() -> None:
    assert {name: n for name, n in _ports().items() if n > MOST} == {}


def test_the_check_sees_the_storage_ports() -> None:
    ports = _ports()
    assert ports["handlers/store_ports.py:Timers"] == MOST
    assert ports["handlers/store_ports.py:Debates"] == 3
    assert ports["bot/admin.py:AdminReads"] == 5
    assert ports["bot/stats.py:SeatReads"] == 2
