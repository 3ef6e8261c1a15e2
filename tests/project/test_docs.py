"""The README is a front page a newcomer finds their way from: short, the two commands first,
and every page it and the docs link to is there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = (README, *sorted((ROOT / "docs").glob("*.md")))
LINK = re.compile(r"\]\(([^)\s#]+)(#[^)\s]*)?\)")


def test_the_readme_is_a_front_page_with_the_two_commands_first() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300
    block = lines[lines.index("```bash") + 1 : lines.index("```")]
    commands = [line for line in block if not line.startswith("#")]
    assert commands == [
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/debate-room",
        "bash .ci/run",
    ]


def test_the_readme_leads_to_every_page_of_the_docs() -> None:
    readme = README.read_text(encoding="utf-8")
    for page in PAGES[1:]:
        if page.name == "durable-engines.md":  # a design note, linked from architecture.md
            continue
        assert f"(docs/{page.name})" in readme, page.name


def test_every_local_link_resolves_to_a_file_and_heading() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target, anchor in LINK.findall(text):
            if "://" in target or target.startswith("mailto:"):
                continue
            linked = (page.parent / target).resolve()
            assert linked.exists(), f"{page.name}: {target}"
            if anchor and linked.suffix == ".md":
                slugs = {
                    _slug(h) for h in re.findall(r"^#+ (.+)$", linked.read_text("utf-8"), re.M)
                }
                assert anchor[1:] in slugs, f"{page.name}: {target}{anchor}"


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to -."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")
