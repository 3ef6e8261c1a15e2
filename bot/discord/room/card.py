"""The approval card in Discord, as a layout: the proposal with Open / Not now (and the formats
to choose from), then how it ended and who ended it, its controls removed."""

from __future__ import annotations

from bot.discord.layouts import card_layout
from bot.discord.room.records import NO_PINGS, RoomRecords
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
        await self._records.send_once(debate, "card", view=card_layout(debate, strings))

    async def close(self, debate: Debate) -> None:
        """Say how the card ended (and who ended it) and remove its buttons."""
        message = await self._records.message(debate.id, "card")
        if message is None:
            return
        decided_by = await self._proposals.decided_by(debate.id) or debate.setup.approved_by
        strings = self._strings.of(debate)
        layout = card_layout(debate, strings, closed=True, decided_by=decided_by)
        # A card posted as an embed (before the layouts) becomes a layout: its embed is cleared.
        await message.edit(embed=None, view=layout, allowed_mentions=NO_PINGS)
