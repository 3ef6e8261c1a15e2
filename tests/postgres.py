"""A real PostgreSQL server for the tests, run from the machine's own binaries.

One server per test session (initdb + pg_ctl in a temporary folder, on a free port, its unix
socket in that folder), a fresh schema per test (a database of its own, as far as the bot
can tell: every table it makes and reads is in that schema). PostgreSQL
refuses to run as root: as root, the binaries run as the `postgres` system user (runuser).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from tools.store.db import to_dollar_params

T = TypeVar("T")
SERVER_USER = "postgres"  # the system user that runs the server when the tests run as root
DATABASE = "debate_room_tests"


def binaries() -> Path | None:
    """The folder of initdb and pg_ctl: $PG_BIN, else the newest /usr/lib/postgresql/*/bin."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0,
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """A running server; `new_database()` gives each test its own database."""

    bin: Path
    root: Path
    port: int = field(default_factory=_free_port)
    _numbers: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, name: str) -> str:
        return f"postgresql://{SERVER_USER}@127.0.0.1:{self.port}/{name}"

    def _run(self, *argv: str) -> None:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", SERVER_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr or done.stdout}\n{tail}")

    def start(self) -> None:
        """initdb and start the server (fast and unsafe settings: test data only)."""
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam(SERVER_USER)
            except KeyError:
                raise RuntimeError(
                    f"running as root, and there is no {SERVER_USER!r} user to run the server as"
                ) from None
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        self.root.chmod(0o700)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SERVER_USER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        self.resume()
        self._run(
            "createdb", "-h", str(self.root), "-p", str(self.port), "-U", SERVER_USER, DATABASE
        )

    def resume(self) -> None:
        """Start the server on its data folder (again, after `pause`)."""
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        log = str(self.root / "server.log")
        data = str(self.data)
        self._run("pg_ctl", "start", "-w", "-t", "60", "-D", data, "-l", log, "-o", options)

    def pause(self) -> None:
        """Stop the server at once, as a crash or an outage would, keeping its data."""
        self._run("pg_ctl", "stop", "-m", "immediate", "-w", "-D", str(self.data))

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        try:
            self._run("pg_ctl", "stop", "-m", "immediate", "-w", "-D", str(self.data))
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    async def new_database(self) -> str:
        """The URL of a new, empty database of a test's own: a schema of its own in the tests'
        database, named by the URL's search_path (four times faster than CREATE DATABASE);
        Database.open migrates it."""
        name = f"t{os.getpid()}_{next(self._numbers)}"
        admin = await asyncpg.connect(self.url(DATABASE))
        try:
            await admin.execute(f"CREATE SCHEMA {name}")
        finally:
            await admin.close()
        return f"{self.url(DATABASE)}?search_path={name}"


def start_server() -> PostgresServer:
    """Start a server from the machine's binaries; RuntimeError when there are none."""
    found = binaries()
    if found is None or not (found / "pg_ctl").exists():
        raise RuntimeError(
            "no PostgreSQL binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on PATH: "
            "install PostgreSQL (Debian: apt-get install -y postgresql) or set PG_BIN"
        )
    root = Path(tempfile.mkdtemp(prefix="debate-room-pg-"))
    server = PostgresServer(found, root)
    try:
        server.start()
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return server


class SyncReader:
    """Reads a PostgreSQL database from code that cannot await (a crash plan's tick): an
    asyncpg connection on an event loop of its own, in its own thread."""

    def __init__(self, url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._conn = self._call(asyncpg.connect(url))

    def _call(self, step: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(step, self._loop).result(timeout=30)

    def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """One row (an asyncpg Record: by index and by name), or None."""
        return self._call(self._conn.fetchrow(to_dollar_params(sql), *params))

    def close(self) -> None:
        self._call(self._conn.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()
