"""A local wiki folder that cannot be written is said at once, as such, while the debate runs:
not "cannot reach the wiki" after a few retries."""

from __future__ import annotations

from pathlib import Path

from handlers.core.effects import WriteAgenda
from handlers.core.i18n import Strings
from tests.tools.wiki.support import ControlledSleep, Notices, OutboxFactory, debate
from tools.wiki.backends import LocalWiki


async def test_an_unwritable_local_folder_is_said_at_the_first_failed_write(
    tmp_path: Path, make_outbox: OutboxFactory
) -> None:
    blocker = tmp_path / "wiki"
    blocker.write_text("a file where the folder should be")  # even root cannot write below it
    notices, sleep = Notices(), ControlledSleep(open_=False)
    outbox = make_outbox(LocalWiki(blocker / "pages"), notices, sleep)
    await outbox.write(debate(), WriteAgenda())
    await sleep.until(1)  # the first attempt failed; no retry has run yet
    [(debate_id, key, params)] = notices.said
    assert (debate_id, key, params["count"]) == (7, "wiki.unwritable", "1")
    assert str(blocker) in params["reason"]
    said = Strings("en")(key, **params)
    assert "cannot be written" in said and "reach" not in said
