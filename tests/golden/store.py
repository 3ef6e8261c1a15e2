"""Where the goldens are kept and how a replay is compared with them: `pages/<path>` for each
file of the debate's wiki folder, `closing.txt` for the thread's closing messages, `adr.md` for
the decision as an ADR; a difference
is shown as a unified diff, with the command that rewrites them."""

from __future__ import annotations

import difflib
from pathlib import Path

from tests.golden.replays import Replayed

GOLDEN = Path(__file__).parent
CLOSING = "closing.txt"
ADR = "adr.md"  # the decision as an Architecture Decision Record
UPDATE = "python -m tests.golden --update"
MAX_DIFF_LINES = 400  # the start of a long diff says enough; the command shows the rest


def golden_dir(name: str, language: str) -> Path:
    """A demo's goldens: tests/golden/<format>/<language>/."""
    return GOLDEN / name / language


def expected(replay: Replayed) -> dict[str, str]:
    """The files a demo's goldens hold, by their path in its golden folder."""
    files = {f"pages/{path}": text for path, text in replay.pages.items()}
    return files | {CLOSING: replay.closing, ADR: replay.adr}


def stored(name: str, language: str) -> dict[str, str]:
    """The goldens on disk."""
    folder = golden_dir(name, language)
    return {
        path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def differences(name: str, language: str, files: dict[str, str]) -> str:
    """'' when the replay's files are the goldens byte for byte; else the diff of each."""
    kept = stored(name, language)
    lines: list[str] = []
    for path in sorted(kept.keys() | files.keys()):
        before, after = kept.get(path), files.get(path)
        if before == after:
            continue
        lines += difflib.unified_diff(
            (before or "").splitlines(keepends=True),
            (after or "").splitlines(keepends=True),
            f"golden/{name}/{language}/{path}" if before is not None else "/dev/null",
            f"replay/{name}/{language}/{path}" if after is not None else "/dev/null",
        )
    if not lines:
        return ""
    shown = "".join(lines[:MAX_DIFF_LINES])
    cut = (
        f"\n… {len(lines) - MAX_DIFF_LINES} more diff lines" if len(lines) > MAX_DIFF_LINES else ""
    )
    return f"{name}.{language} differs from its goldens (rewrite them: {UPDATE}):\n{shown}{cut}"
