"""The tests' inverse of `split_text`: the original text behind its pieces, exactly."""

from __future__ import annotations

from dataclasses import replace

from bot.discord.render_split import SplitError, _Scanner


def join_pieces(pieces: list[str]) -> str:
    """The original text behind `split_text` (or `FenceSplitter`) pieces, exactly."""
    scanner = _Scanner()
    out: list[str] = []
    last = len(pieces) - 1
    for index, piece in enumerate(pieces):
        body = piece
        if scanner.fence is not None:
            if not body.startswith(scanner.fence.reopen):
                raise SplitError(f"piece {index} does not reopen the open fence")
            body = body[len(scanner.fence.reopen) :]
        if index < last:
            # The trailing closer holds no newline, so the fence state at the cut is the
            # state after the whole piece: open means a closer was added.
            probe = replace(scanner)
            probe.feed(body)
            if probe.fence is not None:
                if not body.endswith(probe.fence.marker):
                    raise SplitError(f"piece {index} does not close the open fence")
                body = body[: -len(probe.fence.marker)]
        scanner.feed(body)
        out.append(body)
    return "".join(out)
