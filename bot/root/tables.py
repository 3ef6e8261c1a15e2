"""The one database, opened here, and each adapter's own table built from it."""

from __future__ import annotations

from tools.store.claims import DatabaseClaims
from tools.store.db import Database
from tools.store.debates import SqliteStore
from tools.store.inbox import Inbox
from tools.store.leases import LeasedStore, Leases, LeaseTiming
from tools.store.proposals import Proposals
from tools.store.quota import ModeratorQuota
from tools.store.room_messages import RoomMessages
from tools.store.seat_records import SeatRecords
from tools.store.server_settings import ServerSettings
from tools.store.sessions import AgentSessions
from tools.store.wiki_outbox import LandedPages, OutboxQueue


class Tables:
    """Hands each adapter its table; the database itself stays with the root."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @classmethod
    async def open(cls, target: str) -> Tables:
        """The database at `target` (an SQLite path or a postgresql:// URL), migrated."""
        return cls(await Database.open(target))

    @property
    def dialect(self) -> str:
        """ "sqlite" or "postgres"."""
        return self._db.dialect

    async def close(self) -> None:
        """Close the database."""
        await self._db.close()

    def store(self, leases: Leases | None = None) -> SqliteStore:
        """The engine's store: of every debate, or (with `leases`) fenced by this process's."""
        return SqliteStore(self._db) if leases is None else LeasedStore(self._db, leases)

    def room_messages(self) -> RoomMessages:
        """What the rooms and the AG relay posted, under a key per debate."""
        return RoomMessages(self._db)

    def proposals(self) -> Proposals:
        """Who decided each card."""
        return Proposals(self._db)

    def server_settings(self) -> ServerSettings:
        """What `/debate config` set per server and channel."""
        return ServerSettings(self._db)

    def seat_records(self) -> SeatRecords:
        """What `/debate stats` reads: a server's debates and its turns' stances."""
        return SeatRecords(self._db)

    def quota(self, budget: int) -> ModeratorQuota:
        """The moderator's requests per day, against `budget`."""
        return ModeratorQuota(self._db, budget)

    def sessions(self, participant: str) -> AgentSessions:
        """A CLI seat's sessions per debate."""
        return AgentSessions(self._db, participant)

    def outbox(self) -> tuple[OutboxQueue, LandedPages]:
        """The wiki's queued writes, and what landed where."""
        return OutboxQueue(self._db), LandedPages(self._db)

    def inbox(self) -> Inbox:
        """The events stored for the process that holds each debate's lease."""
        return Inbox(self._db)

    def claims(self) -> DatabaseClaims:
        """Which of several gateway processes acts on each message or click."""
        return DatabaseClaims(self._db)

    def leases(self, owner: str, timing: LeaseTiming) -> Leases:
        """This process's leases on the debates it runs."""
        return Leases(self._db, owner, timing)
