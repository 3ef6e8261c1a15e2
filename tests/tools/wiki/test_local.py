"""LocalWiki's files on disk."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tools.wiki.backends import LocalWiki


async def test_pages_are_readable_like_any_file_written_here(tmp_path: Path) -> None:
    wiki = LocalWiki(tmp_path)
    await wiki.write("debates/1-x/agenda", "제목", "# 본문", None)
    files = [p for p in tmp_path.rglob("*.md") if not p.name.startswith(".tmp-")]
    assert len(files) == 1
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o666 & ~mask
