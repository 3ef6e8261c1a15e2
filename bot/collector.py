"""Python's cyclic garbage collector, settled for a long-running bot once it has started.

At the interpreter's default (a young-generation collection every 700 new objects), 50 debates
at once paid for a young collection every seven turns, of most of a millisecond each (a young
container is traversed with everything it holds), and now and then a full one over every
object of the start-up (modules, discord.py's state, pydantic's schemas: some 85,000):
together 0.2 ms a turn, a twentieth of the bot's CPU (`bench/engine_load.py`), against
0.02 ms once settled.
So, once started, the bot freezes what start-up made (`gc.freeze`: kept for the life of the
process, never scanned again) and collects the young generation every 10,000 new objects.
Reference counting frees all but cyclic garbage at once as before; cycles wait a little
longer, which costs at most a few megabytes.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)

YOUNG_THRESHOLD = 10_000  # new objects between young-generation collections (Python: 700)


def settle_after_start() -> None:
    """Freeze the objects start-up made and collect the young generation less often."""
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    log.info(
        "garbage collector: %d start-up objects frozen; young objects collected every %d",
        gc.get_freeze_count(),
        YOUNG_THRESHOLD,
    )
