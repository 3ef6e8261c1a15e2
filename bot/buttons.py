"""The event each button stands for, by its action, from the person and what its custom_id
names: the one table of the people's controls. Discord's buttons (bot/discord/views.py) are
built from it, and the console's keys (bot/console/app.py) name its actions."""

from __future__ import annotations

from collections.abc import Callable

from handlers.core.events import (
    BudgetDecided,
    Event,
    OptionChosen,
    ProposalApproved,
    ProposalDeclined,
    SkipRequested,
    StopRequested,
)

# A new button is a line here. Skip names the ask it was shown for (`:<turn>:<seat>`), a
# pause's buttons their pause (`:<at>`, the turn count): an old one answers no later one.
BUTTON_EVENTS: dict[str, Callable[..., Event]] = {
    "open": ProposalApproved,
    "decline": ProposalDeclined,
    "stop": StopRequested,
    # (a Skip from before it named its ask names none: not taken)
    "skip": lambda actor, turn="0", seat="-": SkipRequested(actor, seat, int(turn)),
    "extend": lambda actor, at: BudgetDecided(actor, "extend", int(at)),
    "conclude": lambda actor, at: BudgetDecided(actor, "conclude", int(at)),
    "consensus": lambda actor, at: BudgetDecided(actor, "consensus", int(at)),
    "resume": lambda actor, at: BudgetDecided(actor, "resume", int(at)),
    "option": OptionChosen,  # a card option beyond the menus: `:<key>:<value>`
}
