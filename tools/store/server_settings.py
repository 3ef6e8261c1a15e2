"""Every SQL statement on `server_settings`: `/debate config` per server (channel 0) or channel."""

from __future__ import annotations

from handlers.core.server_config import ServerConfig
from tools.store.db import Database

SELECT = """
SELECT channel_id, language, format, rounds, roster, threshold FROM server_settings
WHERE guild_id = ? AND channel_id IN (0, ?)
"""
UPSERT = """
INSERT INTO server_settings (guild_id, channel_id, language, format, rounds, roster, threshold)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, channel_id) DO UPDATE SET language = excluded.language,
    format = excluded.format, rounds = excluded.rounds, roster = excluded.roster,
    threshold = excluded.threshold
"""


class ServerSettings:
    """The stored choices; a channel's win over its server's, field by field."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def lookup(self, guild_id: int, channel_id: int) -> ServerConfig:
        """What applies in a channel of a server (empty: the global defaults)."""
        found = await self._scopes(guild_id, channel_id)
        return found.get(channel_id, ServerConfig()).over(found.get(0, ServerConfig()))

    async def stored(self, guild_id: int, channel_id: int = 0) -> ServerConfig:
        """What one scope (a server: channel 0) holds by itself."""
        return (await self._scopes(guild_id, channel_id)).get(channel_id, ServerConfig())

    async def _scopes(self, guild_id: int, channel_id: int) -> dict[int, ServerConfig]:
        rows = await self._db.fetch_all(SELECT, (guild_id, channel_id))
        return {
            int(r[0]): ServerConfig(str(r[1]), str(r[2]), int(r[3]), str(r[4]), str(r[5]))
            for r in rows
        }

    async def store(self, guild_id: int, channel_id: int, config: ServerConfig) -> None:
        """Keep a scope's choices (replacing what it held)."""
        values = (config.language, config.format, config.rounds, config.roster, config.threshold)
        await self._db.execute(UPSERT, (guild_id, channel_id, *values))
