"""The console's colours: the Discord embeds' (bot.formatting), as rich names them."""

from __future__ import annotations

from bot import formatting as colours
from bot.formatting import hex_colour

# The Discord embeds' colours, so a debate reads the same in both places.
MODERATOR_GREY = hex_colour(colours.MODERATOR_GREY)
USER_AMBER = hex_colour(colours.USER_AMBER)
WARNING_ORANGE = hex_colour(colours.WARNING_ORANGE)
