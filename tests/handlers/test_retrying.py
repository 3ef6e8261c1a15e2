"""The one retry rule: what is tried again, how often, and the waits between."""

from __future__ import annotations

import pytest

from handlers import retrying
from handlers.ports import DebaterError, FailureKind
from handlers.retrying import Retry

RULE = Retry(on=lambda exc: isinstance(exc, DebaterError), attempts=4, first_s=2.0, longest_s=60.0)


class Calls:
    """A call that fails with the queued errors, then answers "ok"; waits recorded."""

    def __init__(self, *errors: Exception) -> None:
        self.errors = list(errors)
        self.tries = 0
        self.waits: list[float] = []

    async def __call__(self) -> str:
        self.tries += 1
        if self.errors:
            raise self.errors.pop(0)
        return "ok"

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)


def failed(retry_after: float | None = None) -> DebaterError:
    return DebaterError(FailureKind.TIMEOUT, "down", retry_after)


async def test_the_waits_double_and_a_retry_after_makes_one_longer() -> None:
    retrying.set_testing(False)
    calls = Calls(failed(), failed(30), failed())
    heard: list[int] = []
    answer = await retrying.retrying(
        calls, RULE, sleep=calls.sleep, on_retry=lambda _e, n: heard.append(n)
    )
    assert (answer, calls.tries, calls.waits, heard) == ("ok", 4, [2.0, 30.0, 8.0], [1, 2, 3])


async def test_the_last_failure_is_raised_once_the_tries_run_out() -> None:
    calls = Calls(*(failed() for _ in range(5)))
    with pytest.raises(DebaterError):
        await retrying.retrying(calls, RULE, sleep=calls.sleep)
    assert calls.tries == 4


async def test_a_failure_the_rule_does_not_name_is_raised_at_once() -> None:
    calls = Calls(ValueError("a bug"))
    with pytest.raises(ValueError, match="a bug"):
        await retrying.retrying(calls, RULE, sleep=calls.sleep)
    assert (calls.tries, calls.waits) == (1, [])


async def test_the_testing_switch_turns_the_waits_off_but_not_the_tries() -> None:
    retrying.set_testing(True)
    calls = Calls(failed(), failed(30))
    assert await retrying.retrying(calls, RULE, sleep=calls.sleep) == "ok"
    assert (calls.tries, calls.waits) == (3, [0.0, 0.0])


async def test_a_rule_that_waits_out_an_outage_keeps_its_waits_under_the_switch() -> None:
    retrying.set_testing(True)
    patient = Retry(
        on=lambda _exc: True, attempts=None, first_s=0.5, longest_s=10.0, even_in_tests=True
    )
    calls = Calls(failed(), failed())
    assert await retrying.retrying(calls, patient, sleep=calls.sleep) == "ok"
    assert calls.waits == [0.5, 1.0]
