"""`python -m tests.golden --update`: replay every demo and write its golden pages and closing
messages under tests/golden/<format>/<language>/ (the folder is replaced, so a page no longer
written goes); without `--update`, say which goldens differ from a replay."""

from __future__ import annotations

import argparse
import shutil
import sys

from tests.golden.replays import DEMOS, replayed
from tests.golden.store import GOLDEN, differences, expected, golden_dir


def main(argv: list[str] | None = None) -> int:
    """Write (`--update`) or check the goldens; 1 when a check finds a difference."""
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    parser.add_argument("--update", action="store_true", help="write the goldens from a replay")
    args = parser.parse_args(argv)
    differ = 0
    for name, language in DEMOS:
        files = expected(replayed(name, language))
        folder = golden_dir(name, language)
        if args.update:
            shutil.rmtree(folder, ignore_errors=True)
            for relative, text in files.items():
                (folder / relative).parent.mkdir(parents=True, exist_ok=True)
                (folder / relative).write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {folder.relative_to(GOLDEN.parent.parent)} ({len(files)} files)")
        elif found := differences(name, language, files):
            differ = 1
            print(found)
    return differ


if __name__ == "__main__":
    sys.exit(main())
