"""The last check before a debate's request leaves the process for Discord.

The engine checks the lease before each effect and the room before each write, but a write
can still wait after that inside discord.py: for a rate limit's bucket, before a retry after a
429, for a connection. A process paused there (a stopped container, a long GC pause) past its
lease would send it when it wakes, over what the debate's new holder showed since (a status
line back to "speaking", its Stop button live again). This trace checks the lease by the
process's own monotonic clock as aiohttp starts each request, after every such wait, and once
more when the connection is in hand, the last wait before the bytes go out. Discord cannot
refuse a write that left before the lease lapsed: the lease runner repairs what such a write
can still spoil (bot/root/lease_runner.py).
"""

from __future__ import annotations

import aiohttp

from handlers.leasing import ACTING_FOR, LeaseGuard, LeaseLost


def lease_fence(guard: LeaseGuard) -> aiohttp.TraceConfig:
    """A trace for the client's HTTP session: a request made for a debate (ACTING_FOR) this
    process may no longer act on raises LeaseLost instead of going out."""

    async def check(*_: object) -> None:
        debate_id = ACTING_FOR.get()
        if debate_id is not None and not guard.holds(debate_id):
            raise LeaseLost(debate_id)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(check)
    trace.on_connection_reuseconn.append(check)
    trace.on_connection_create_end.append(check)
    return trace
