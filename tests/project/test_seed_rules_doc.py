"""docs/seed-rules/ names, for each rule of the user's documents, the test that holds it: every
test it names exists, so a renamed or deleted test cannot leave a rule looking held."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(r"(tests/[\w/]+\.py)(?:::(\w+))?")


def _defined(path: Path) -> set[str]:
    """The test functions (and classes) a test file defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {node.name for node in ast.walk(tree) if isinstance(node, kinds)}


def test_every_test_the_seed_rules_cite_exists() -> None:
    cited = 0
    for page in sorted((ROOT / "docs" / "seed-rules").glob("*.md")):
        for file, name in CITED.findall(page.read_text(encoding="utf-8")):
            path = ROOT / file
            assert path.is_file(), f"{page.name}: {file}"
            if name:
                assert name in _defined(path), f"{page.name}: {file}::{name}"
            cited += 1
    assert cited >= 50  # the five files cite their tests
