"""The engine stays free of Discord, and its pure core free of any I/O."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PURE_CORE = [
    "state_machine.py",
    "model.py",
    "events.py",
    "reply_parser.py",
    "reply_fields.py",
    "shorten.py",
    "fences.py",
    "wiki_actions.py",
]
IO_MODULES = {
    "discord",
    "aiosqlite",
    "sqlite3",
    "httpx",
    "aiohttp",
    "google",
    "subprocess",
    "asyncio",
    "socket",
    "requests",
    "urllib",
    "os",
    "pathlib",
    "tools",
    "bot",
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_module_in_handlers_imports_discord() -> None:
    offenders = [p.name for p in (ROOT / "handlers").rglob("*.py") if "discord" in _imports(p)]
    assert offenders == []


def test_the_pure_core_imports_no_io() -> None:
    for name in PURE_CORE:
        found = _imports(ROOT / "handlers" / name) & IO_MODULES
        assert found == set(), f"handlers/{name} imports {found}"


def test_the_check_itself_sees_imports() -> None:
    # guards against a walker that finds nothing: this very file imports ast and pathlib
    assert {"ast", "pathlib"} <= _imports(Path(__file__))
