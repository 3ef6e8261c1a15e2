"""How Wiki.js 2.5 says no, as WikiError codes: HTTP-level failures, GraphQL errors, and the
answers of its upload endpoint (`POST /u`, server/controllers/upload.js)."""

from __future__ import annotations

import json
from typing import Any

from tools.wiki.backends import WikiError

VIEW_FORBIDDEN = 6013
DISABLED = "API is disabled"
REVOKED = "API Key is invalid or was revoked"
# multer's LIMIT_FILE_SIZE (uploads.maxFileSize, 5 MB by default): the error carries no
# status, so Express answers it with its 500 error page.
FILE_TOO_LARGE = "File too large"


def parse_json(text: str) -> dict[str, Any]:
    """The body as a JSON object; {} when it is not one (an HTML error page)."""
    try:
        body = json.loads(text)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def http_error(status: int, message: str) -> WikiError:
    """A reply other than 200: one clear line for the failures a person can fix."""
    if DISABLED in message:
        return WikiError(
            "api_disabled", "the Wiki.js API is disabled: turn it on in Administration > API Access"
        )
    if REVOKED in message:
        return WikiError(
            "key_revoked",
            "the Wiki.js API key is invalid or was revoked: "
            "create a new one in Administration > API Access",
        )
    if status == 413:
        return WikiError("too_large", "the page is larger than Wiki.js accepts (413)")
    return WikiError(f"http_{status}", message or f"HTTP {status}")


def upload_error(status: int, text: str) -> WikiError:
    """A refused upload: 403 (the key may not write assets) and 400 (a malformed request)
    come as JSON `{succeeded, message}`; the rest as Express's HTML error page."""
    message = str(parse_json(text).get("message") or "")
    if status == 403:
        return WikiError("forbidden", f"Wiki.js refused the upload ({message or 'HTTP 403'})")
    if status == 413 or FILE_TOO_LARGE in text:
        return WikiError("too_large", "the file is larger than Wiki.js accepts (maxFileSize)")
    known = next((m for m in (DISABLED, REVOKED) if m in text), message)
    return http_error(status, known)


def graphql_error(errors: list[dict[str, Any]]) -> WikiError:
    """The first entry of a reply's `errors`."""
    first = errors[0]
    message = str(first.get("message", ""))
    code = error_code(first)
    if message == "Forbidden" or code == VIEW_FORBIDDEN:
        return WikiError("forbidden", f"Wiki.js refused the API key ({message})")
    return WikiError(str(code) if code else "graphql", message)


def error_code(error: dict[str, Any]) -> int | None:
    """Wiki.js's numeric code of a GraphQL error (6003 not found, ...), if it has one."""
    code = ((error.get("extensions") or {}).get("exception") or {}).get("code")
    return int(code) if isinstance(code, int | str) and str(code).isdigit() else None
