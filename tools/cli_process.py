"""Command-line programs as bounded subprocesses: an argument list (never a shell), their own
process group, a timeout, then terminate → wait → kill, and nothing left running after."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from handlers.core.model import FailureKind
from handlers.ports import DebaterError

_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD", re.I)
_MIN_SECRET_LEN = 8  # shorter values would redact ordinary words


class CliTimedOut(Exception):
    """The program did not finish in time; its process group has been stopped."""


class CliFailure(DebaterError):
    """A failed CLI turn: the engine's failure kind plus the exit code and stderr."""

    def __init__(
        self,
        kind: FailureKind,
        detail: str,
        retry_after: float | None = None,
        *,
        exit_code: int | None = None,
        stderr: str = "",
        cost_usd: float = 0.0,
    ) -> None:
        super().__init__(kind, detail, retry_after, cost_usd)
        self.exit_code = exit_code
        self.stderr = stderr


@dataclass(frozen=True)
class CliRun:
    """What one finished run gave back."""

    exit_code: int
    stdout: str
    stderr: str
    latency_s: float


# The bot's own secrets: no CLI the bot starts sees them (unless it needs one: `keep`).
BOT_SECRETS = ("DISCORD_TOKEN", "GEMINI_API_KEY", "WIKIJS_API_KEY")


def cli_environment(
    base: Mapping[str, str] | None, extra: Mapping[str, str], *, keep: Iterable[str] = ()
) -> dict[str, str]:
    """A CLI's environment: `base` (default: ours) less the bot's secrets but `keep`, + `extra`."""
    env = dict(os.environ if base is None else base)
    for name in set(BOT_SECRETS) - set(keep):
        env.pop(name, None)
    return env | dict(extra)


class Redactor:
    """Replaces the values of secret-looking variables with *** in text meant for people."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self._secrets = [
            value
            for name, value in env.items()
            if _SECRET_NAME.search(name) and len(value) >= _MIN_SECRET_LEN
        ]

    def __call__(self, text: str) -> str:
        """`text` without any secret in it."""
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text


async def run_cli(
    argv: list[str],
    *,
    stdin: bytes | None,
    cwd: Path,
    env: Mapping[str, str],
    timeout_s: float,
    grace_s: float,
    on_lines: Callable[[list[str]], None] | None = None,
) -> CliRun:
    """Run once; OSError if it cannot start, CliTimedOut past `timeout_s`.

    With `on_lines`, stdout is read as it comes and its complete lines are handed over too,
    those of one read together (the whole stdout is still returned). A cancelled caller (a
    Stop) ends the process group before the cancellation goes on.
    """
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=cwd,
        env=dict(env),
        start_new_session=True,  # its own process group: a kill takes its children too
    )
    try:
        async with asyncio.timeout(timeout_s):
            if on_lines is None:
                out, err = await proc.communicate(stdin)
            else:
                out, err = await _communicate_lines(proc, stdin, on_lines)
    except TimeoutError:
        await stop_group(proc, grace_s)
        raise CliTimedOut(f"no answer within {timeout_s:g} s") from None
    except asyncio.CancelledError:
        await asyncio.shield(stop_group(proc, grace_s))
        raise
    finally:
        signal_group(proc.pid, signal.SIGKILL)  # whatever the program started ends with it
    return CliRun(
        exit_code=proc.returncode if proc.returncode is not None else -1,
        stdout=out.decode("utf-8", "replace"),
        stderr=err.decode("utf-8", "replace"),
        latency_s=time.monotonic() - started,
    )


async def _communicate_lines(
    proc: asyncio.subprocess.Process, stdin: bytes | None, on_lines: Callable[[list[str]], None]
) -> tuple[bytes, bytes]:
    """`communicate`, with stdout's lines handed to `on_lines` as soon as they are complete:
    the lines one read completes, together (a reader that shows the text so far after them
    does so once per read, not once per line of a burst)."""
    if proc.stdout is None or proc.stderr is None:
        raise TypeError("the process was started without stdout/stderr pipes")
    feeding = asyncio.ensure_future(_feed(proc, stdin))  # alongside: no pipe can fill up
    errors = asyncio.ensure_future(proc.stderr.read())
    out = bytearray()
    done = 0  # stdout up to here was handed over
    try:
        # Read in chunks, not readline(): a result line can exceed the reader's line limit.
        while chunk := await proc.stdout.read(1 << 16):
            searched = len(out)  # no newline after `done` before this chunk
            out += chunk
            end = out.rfind(b"\n", searched)
            if end >= 0:
                _hand_over(on_lines, bytes(out[done : end + 1]))
                done = end + 1
        await feeding
        err = await errors
    finally:
        feeding.cancel()
        errors.cancel()
    await proc.wait()
    return bytes(out), err


async def _feed(proc: asyncio.subprocess.Process, data: bytes | None) -> None:
    """Write stdin and close it; a program that exits without reading it is not an error."""
    if proc.stdin is None:
        return
    with contextlib.suppress(ConnectionError):  # it exited first: its stdout says why
        proc.stdin.write(data or b"")
        await proc.stdin.drain()
    proc.stdin.close()


def _hand_over(on_lines: Callable[[list[str]], None], block: bytes) -> None:
    """The block's lines (it ends with a newline), each with its newline."""
    lines = [f"{line}\n" for line in block.decode("utf-8", "replace").split("\n")[:-1]]
    try:
        on_lines(lines)
    except Exception:  # a progress callback's boundary: the run is what counts
        logging.getLogger(__name__).warning("progress callback failed", exc_info=True)


async def stop_group(proc: asyncio.subprocess.Process, grace_s: float) -> None:
    """Terminate the process group, wait up to `grace_s`, then kill it."""
    signal_group(proc.pid, signal.SIGTERM)
    try:
        async with asyncio.timeout(grace_s):
            await proc.wait()
    except TimeoutError:
        signal_group(proc.pid, signal.SIGKILL)
        await proc.wait()


def signal_group(pgid: int, sig: signal.Signals) -> None:
    """Signal a process group that may already be gone."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
