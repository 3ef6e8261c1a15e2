"""The fake Wiki.js's uploads answer as server/controllers/upload.js (v2.5.314) does, so the
backend's tests against it mean something: the multipart shape, the key, the limits, the
stored name, an overwrite, and the path a file is served at."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.fakes.fake_wikijs import FULL_KEY, FakeWikiJs

KEY = {"Authorization": f"Bearer {FULL_KEY}"}
SVG = b"<svg xmlns='http://www.w3.org/2000/svg'/>"


@pytest.fixture
async def fake() -> AsyncIterator[FakeWikiJs]:
    server = FakeWikiJs()
    await server.start()
    yield server
    await server.stop()


def form(*parts: tuple[str, str | bytes, str | None]) -> aiohttp.FormData:
    """Parts in order: (name, value, file name or None for a plain field)."""
    data = aiohttp.FormData(quote_fields=False)  # the file name as a browser sends it
    for name, value, filename in parts:
        if filename is None:  # typed, so that a form without a file is multipart too
            data.add_field(name, value, content_type="text/plain")
        else:
            data.add_field(name, value, filename=filename, content_type="image/svg+xml")
    return data


ROOT = ("mediaUpload", json.dumps({"folderId": 0}), None)
FILE = ("mediaUpload", SVG, "concepts.svg")


async def post(fake: FakeWikiJs, data: aiohttp.FormData, key: bool = True) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{fake.url}/u", data=data, headers=KEY if key else {}) as response,
    ):
        return response.status, await response.text()


@pytest.mark.parametrize(
    ("parts", "key", "status", "says"),
    [
        ((ROOT, FILE), True, 200, "ok"),
        ((ROOT, FILE), False, 403, "You are not authorized to upload files."),
        ((ROOT,), True, 400, "Missing upload payload."),
        ((ROOT, FILE, FILE), True, 400, "You cannot upload multiple files"),
        ((FILE,), True, 400, "Missing upload folder metadata."),
        ((("mediaUpload", "{not json", None), FILE), True, 400, "Missing upload folder metadata."),
        ((ROOT, ("file", SVG, "concepts.svg")), True, 500, "Unexpected field"),
        ((ROOT, ("mediaUpload", b"x" * 101, "big.svg")), True, 500, "File too large"),
    ],
)
async def test_an_upload_is_answered_as_wiki_js_answers_it(
    fake: FakeWikiJs,
    parts: tuple[tuple[str, str | bytes, str | None], ...],
    key: bool,
    status: int,
    says: str,
) -> None:
    fake.assets.max_file_size = 100
    answered, text = await post(fake, form(*parts), key)
    assert answered == status and says in text
    assert bool(fake.assets.files) is (status == 200)


async def test_a_name_is_stored_as_wiki_js_cleans_it_and_a_second_upload_overwrites(
    fake: FakeWikiJs,
) -> None:
    for content in (SVG, SVG + b" "):
        data = form(ROOT, ("mediaUpload", content, "My Diagram;1.SVG"))
        assert await post(fake, data) == (200, "ok")
    assert list(fake.assets.files) == ["my_diagram_1.svg"]
    assert fake.assets.files["my_diagram_1.svg"].uploads == 2
    async with aiohttp.ClientSession() as session:
        for path in ("/my_diagram_1.svg", "/en/my_diagram_1.svg"):  # a locale prefix is dropped
            async with session.get(f"{fake.url}{path}") as response:
                assert response.status == 200 and await response.read() == SVG + b" "
        async with session.get(f"{fake.url}/other.svg") as response:
            assert response.status == 404


async def test_the_api_switched_off_answers_the_error_page(fake: FakeWikiJs) -> None:
    fake.api_enabled = False
    status, text = await post(fake, form(ROOT, FILE))
    assert status == 500 and "API is disabled" in text and fake.assets.files == {}


async def test_folders_are_made_once_lower_cased_and_an_unknown_folder_stores_nothing(
    fake: FakeWikiJs,
) -> None:
    assert fake.assets.create_folder(0, "Debates")[0] == 0
    assert fake.assets.create_folder(0, "debates")[0] == 2002
    assert fake.assets.create_folder(99, "x")[0] == 1
    assert fake.assets.children(0) == [{"id": 1, "slug": "debates", "name": "debates"}]
    lost = form(("mediaUpload", json.dumps({"folderId": 99}), None), FILE)
    assert await post(fake, lost) == (200, "ok")  # the failed save is only logged
    assert fake.assets.files == {}
