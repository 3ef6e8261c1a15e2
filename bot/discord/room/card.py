"""The approval card in Discord: the proposal with Open / Not now (and the formats to choose
from), then how it ended and who ended it, its buttons removed."""

from __future__ import annotations

from bot.discord import embeds
from bot.discord.room.records import NO_PINGS, RoomRecords
from bot.discord.views import card_view
from handlers.core.i18n import Strings
from handlers.core.model import Debate
from tools.store.proposals import Proposals


class Card:
    """Posts the card once and edits it to its end."""

    def __init__(self, records: RoomRecords, proposals: Proposals, strings: Strings) -> None:
        self._records, self._proposals, self._strings = records, proposals, strings

    async def post(self, debate: Debate) -> None:
        """The approval card with its buttons."""
        strings = self._strings.of(debate)
        embed, view = embeds.card_embed(debate, strings), card_view(debate, strings)
        await self._records.send_once(debate, "card", embed=embed, view=view)

    async def close(self, debate: Debate) -> None:
        """Say how the card ended (and who ended it) and remove its buttons."""
        message = await self._records.message(debate.id, "card")
        if message is None:
            return
        decided_by = await self._proposals.decided_by(debate.id) or debate.setup.approved_by
        strings = self._strings.of(debate)
        embed = embeds.card_embed(debate, strings, closed=True, decided_by=decided_by)
        await message.edit(embed=embed, view=None, allowed_mentions=NO_PINGS)
