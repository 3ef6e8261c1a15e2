"""Who the adversarial format seats beside the roster: the Reconciler, a fresh session on the
backend and model the debate's options name."""

from __future__ import annotations

from handlers.core.model import Backend, Participant
from handlers.core.participants import COLOUR_OTHER

RECONCILER_ID = "reconciler"
# The Reconciler's backend and model (ADVERSARIAL_RECONCILER*), stored on the debate at its
# proposal with the other option defaults, so every process seats the same Reconciler.
RECONCILER_BACKEND = "adversarial.reconciler"
RECONCILER_MODEL = "adversarial.reconciler_model"


def reconciler_of(options: tuple[tuple[str, str], ...]) -> Participant:
    """The Reconciler the options name: a participant of its own, so its session starts
    fresh (on the Claude CLI and its own model unless the options say otherwise)."""
    chosen = dict(options)
    backend = Backend(chosen.get(RECONCILER_BACKEND, Backend.CLAUDE_CLI.value))
    model = chosen.get(RECONCILER_MODEL, "")
    return Participant(RECONCILER_ID, backend, "Reconciler", COLOUR_OTHER, model=model)
