"""The layers: the engine free of Discord and I/O, adapters free of the front ends, no cycles.

The import graph is read with `ast` from every module of the product packages, imports inside
functions and under `if TYPE_CHECKING:` included: a circle that only the type checker walks is
still two modules that cannot be read, changed or moved one without the other.
"""

from __future__ import annotations

import ast
import dataclasses
import sys
from pathlib import Path

from handlers.core.model import Debate

ROOT = Path(__file__).resolve().parents[2]
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


MAX_DEBATE_FIELDS = 12


def test_no_module_in_handlers_imports_discord() -> None:
    offenders = [p.name for p in (ROOT / "handlers").rglob("*.py") if "discord" in _imports(p)]
    assert offenders == []


CORE = ROOT / "handlers" / "core"
CORE_MAY_IMPORT = {"handlers", "pydantic"}  # itself (checked below to be handlers.core), pydantic


def test_the_pure_core_imports_only_itself_the_standard_library_and_pydantic() -> None:
    # The folder is the rule: a new file in handlers/core/ is checked without being listed.
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = _imported_names(tree)
        outside = {n.split(".")[0] for n in names} - sys.stdlib_module_names - CORE_MAY_IMPORT
        engine = {
            n for n in names if n.startswith("handlers") and not n.startswith("handlers.core")
        }
        assert outside == set(), f"{path.relative_to(ROOT)} imports {outside}"
        assert engine == set(), f"{path.relative_to(ROOT)} imports the engine: {engine}"
        assert _imports(path) & IO_MODULES == set(), f"{path.relative_to(ROOT)} does I/O"


def test_the_core_check_sees_the_core() -> None:
    assert len(list(CORE.rglob("*.py"))) >= 20


def test_a_format_is_pure_data_and_functions() -> None:
    # A format names prompt templates; reading them (prompts/) is the engine's business.
    formats = sorted((CORE / "formats").rglob("*.py"))  # the shared parts and every format's
    assert len(formats) >= 20
    for path in formats:
        found = _imports(path) & (IO_MODULES | {"prompts"})
        assert found == set(), f"{path.name} imports {found}"


PACKAGES = ("bot", "handlers", "tools", "prompts", "migrations")
# handlers (the engine) imports none of these; tools (the adapters) never imports bot.
ENGINE_FORBIDDEN = {
    "bot",
    "tools",
    "discord",
    "aiosqlite",
    "sqlite3",
    "subprocess",
    "aiohttp",
    "google",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}


def _imported_names(tree: ast.AST) -> set[str]:
    """Every dotted name an import statement names (`from a import b` gives `a` and `a.b`)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _known(name: str, modules: dict[str, Path]) -> str:
    """The product module a dotted name lies in ("" when it is outside the product)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


def _graph() -> dict[str, set[str]]:
    """Module -> the product modules it imports (the longest known prefix of each name)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets = {_known(imported, modules) for imported in _imported_names(tree)}
        graph[name] = targets - {"", name}
    return graph


def _top_levels(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {name.split(".")[0] for name in _imported_names(tree)}


def test_adapters_never_import_the_front_ends() -> None:
    offenders = {
        m for m, p in _modules().items() if m.startswith("tools") and "bot" in _top_levels(p)
    }
    assert offenders == set()


def test_adapters_import_no_format() -> None:
    # A format is one folder: an adapter takes what it needs from the registry (names) and
    # from the request (a task's answer model), never from a format's own modules.
    folders = {p.parent.name for p in (ROOT / "handlers/core/formats").glob("*/__init__.py")}
    assert {"free", "adversarial", "boardroom", "ledger"} <= folders
    owned = tuple(f"handlers.core.formats.{name}" for name in folders)
    offenders = {
        m: sorted(
            n
            for n in _imported_names(ast.parse(p.read_text(encoding="utf-8")))
            if n.startswith(owned)
        )
        for m, p in _modules().items()
        if m.startswith("tools")
    }
    assert {m: found for m, found in offenders.items() if found} == {}


def test_the_engine_imports_no_front_end_adapter_or_io_library() -> None:
    found = {
        m: sorted(_top_levels(p) & ENGINE_FORBIDDEN)
        for m, p in _modules().items()
        if m.startswith("handlers") and _top_levels(p) & ENGINE_FORBIDDEN
    }
    assert found == {}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_between_modules() -> None:
    assert _cycles(_graph()) == []


def _package(name: str) -> str:
    """The package a module is counted in: its second-level package (`bot.console.room` is in
    `bot.console`); a top-level module is its own."""
    return ".".join(name.split(".")[:2])


def _package_graph() -> dict[str, set[str]]:
    """Package -> the packages its modules import."""
    graph: dict[str, set[str]] = {}
    for name, targets in _graph().items():
        package = _package(name) if name.count(".") >= 2 else name
        imported = {_package(t) if t.count(".") >= 2 else t for t in targets}
        graph.setdefault(package, set()).update(imported - {package})
    return graph


def test_no_import_cycle_between_packages() -> None:
    # the console and the demo each stand on their own: the demo uses the console, never back
    assert _cycles(_package_graph()) == []
    assert "bot.console" in _package_graph()["bot.demo"]
    assert "bot.demo" not in _package_graph()["bot.console"]


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_imports_inside_functions() -> None:
    # bot/__main__.py imports the Discord app inside a function, so discord.py loads only to run
    assert "bot.root.discord_app" in _graph()["bot.__main__"]


def test_the_graph_sees_imports_only_the_type_checker_reads() -> None:
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.settings import S\n"
    assert "bot.settings" in _imported_names(ast.parse(source))


def test_exactly_one_module_constructs_the_engine() -> None:
    builders = set()
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("DebateHandler"):
                builders.add(name)
    assert builders == {"bot.root.engine"}


RAW_DATABASE = {
    "tools.store.db.Database",
    "tools.store.db_port.Database",
    "tools.store.db_sqlite",
    "tools.store.db_postgres",
}
HOLDERS = ("tools.store", "bot.root")  # the store, and the composition root that opens it


def _raw_database_users() -> set[str]:
    """The product modules outside the store and the root that import the database itself."""
    users = set()
    for name, path in _modules().items():
        imported = _imported_names(ast.parse(path.read_text(encoding="utf-8")))
        if not name.startswith(HOLDERS) and any(
            n == raw or n.startswith(f"{raw}.") for n in imported for raw in RAW_DATABASE
        ):
            users.add(name)
    return users


def test_only_the_store_and_the_composition_root_hold_the_database() -> None:
    # Every other module gets its own table (or a port) from bot/root, never the database.
    assert _raw_database_users() == set()


def test_the_database_check_sees_the_holders() -> None:
    holders = {
        name
        for name, path in _modules().items()
        if "tools.store.db.Database" in _imported_names(ast.parse(path.read_text("utf-8")))
    }
    assert {"bot.root.tables", "tools.store.debates"} <= holders


def test_one_module_starts_programs() -> None:
    starters = set()
    for name, path in _modules().items():
        source = path.read_text(encoding="utf-8")
        if "create_subprocess" in source or "subprocess" in _top_levels(path):
            starters.add(name)
    assert starters == {"tools.cli_process"}


def test_the_check_itself_sees_imports() -> None:
    # guards against a walker that finds nothing: this very file imports ast and pathlib
    assert {"ast", "pathlib"} <= _imports(Path(__file__))


def test_a_debate_is_a_handful_of_sub_records() -> None:
    """`Debate` keeps at most twelve top-level fields: a concern's state is its package's
    sub-record (docs/architecture.md), not another field every feature writes."""
    fields = dataclasses.fields(Debate)
    assert len(fields) <= MAX_DEBATE_FIELDS, [f.name for f in fields]
