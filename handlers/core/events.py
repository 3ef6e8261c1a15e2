"""What happens to a debate (events, past tense); what the engine does about it (effects) is
in handlers/core/effects.py. Front ends build events and hand them to the engine's one verb,
`submit`; `kind` tells them apart where they are stored (the gateway's inbox)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, TypeAdapter

from handlers.core.card.events import (
    BudgetChosen,
    FormatChosen,
    OptionChosen,
    ProposalApproved,
    ProposalDeclined,
    ProposalExpired,
)
from handlers.core.ending.events import ConclusionReady, StopRequested
from handlers.core.moderation.events import Judged, TaskDone
from handlers.core.people.events import BudgetDecided, PeopleSaid, UserAnswered
from handlers.core.poll.events import MinorityReported, PollClosed
from handlers.core.spending.events import TimerDue
from handlers.core.steelman.events import SteelmanRequested
from handlers.core.turns.events import DebaterFailed, ReplyReceived, SkipRequested
from handlers.core.wiki.events import WikiReported

__all__ = [
    "EVENT_ADAPTER",
    "BudgetChosen",
    "BudgetDecided",
    "ConclusionReady",
    "DebaterFailed",
    "Event",
    "FormatChosen",
    "Judged",
    "MinorityReported",
    "OptionChosen",
    "PeopleSaid",
    "PollClosed",
    "ProposalApproved",
    "ProposalDeclined",
    "ProposalExpired",
    "ReplyReceived",
    "SkipRequested",
    "SteelmanRequested",
    "StopRequested",
    "TaskDone",
    "TimerDue",
    "UserAnswered",
    "WikiReported",
]

Event = Annotated[
    ProposalApproved
    | FormatChosen
    | OptionChosen
    | BudgetChosen
    | BudgetDecided
    | ProposalDeclined
    | ProposalExpired
    | ReplyReceived
    | DebaterFailed
    | Judged
    | UserAnswered
    | PeopleSaid
    | StopRequested
    | SkipRequested
    | ConclusionReady
    | TaskDone
    | MinorityReported
    | TimerDue
    | PollClosed
    | SteelmanRequested
    | WikiReported,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)
