"""The fake Wiki.js's resolvers: what a real Wiki.js 2.5 does for each operation the bot uses.

graphql-core calls these as field resolvers (method name = field name, hence the camelCase).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from graphql import GraphQLError

if TYPE_CHECKING:
    from tests.fakes.fake_wikijs import FakePage, FakeWikiJs

EDITORS = frozenset({"markdown", "ckeditor", "code", "asciidoc", "api", "raw"})


def _code_error(message: str, code: int) -> GraphQLError:
    return GraphQLError(message, extensions={"exception": {"code": code}})


def _result(code: int = 0, slug: str = "ok", message: str = "") -> dict[str, Any]:
    return {"succeeded": code == 0, "errorCode": code, "slug": slug, "message": message}


def _not_in_mutation_reply(_info: Any) -> None:
    # Selecting these in a create/update reply makes Wiki.js return page: null with an error.
    raise GraphQLError("Cannot return null for non-nullable field Page.editor.")


def _page_view(page: FakePage, *, in_mutation: bool = False) -> dict[str, Any]:
    view: dict[str, Any] = {
        "id": page.id,
        "path": page.path,
        "hash": f"{page.id:040x}",
        "title": page.title,
        "description": page.description,
        "isPrivate": page.is_private,
        "isPublished": page.is_published,
        "privateNS": None,
        "publishStartDate": "",
        "publishEndDate": "",
        "tags": [
            {
                "id": i + 1,
                "tag": t,
                "title": t,
                "createdAt": page.created_at,
                "updatedAt": page.updated_at,
            }
            for i, t in enumerate(page.tags)
        ],
        "content": page.content,
        "render": page.content,
        "toc": "[]",
        "contentType": "markdown",
        "createdAt": page.created_at,
        "updatedAt": page.updated_at,
        "editor": page.editor,
        "locale": page.locale,
        "scriptCss": page.script_css,
        "scriptJs": page.script_js,
        "authorId": 1,
        "authorName": "API",
        "authorEmail": "api@localhost",
        "creatorId": 1,
        "creatorName": "API",
        "creatorEmail": "api@localhost",
    }
    if in_mutation:
        view["editor"] = view["locale"] = _not_in_mutation_reply
    return view


class Root:
    """Query and Mutation roots: graphql-core calls these methods as field resolvers."""

    def __init__(self, fake: FakeWikiJs) -> None:
        self.fake = fake

    def pages(self, info: Any) -> _Pages:
        return _Pages(self.fake, info.context["user"])

    def assets(self, info: Any) -> _Assets:
        return _Assets(self.fake, info.context["user"])

    def authentication(self, info: Any) -> dict[str, Any]:
        if info.context["user"] != "admin":
            raise GraphQLError("Forbidden")
        return {"apiState": self.fake.api_enabled, "apiKeys": [], "strategies": []}


class _Assets:
    """`assets { folders, createFolder }`: @auth(requires: ["manage:system", ...]) on each."""

    def __init__(self, fake: FakeWikiJs, user: str) -> None:
        self.fake = fake
        self.admin = user == "admin"

    def folders(self, _info: Any, parentFolderId: int) -> list[dict[str, Any]]:
        if not self.admin:
            raise GraphQLError("Forbidden")
        return self.fake.assets.children(parentFolderId)

    def createFolder(
        self, _info: Any, parentFolderId: int, slug: str, name: str | None = None
    ) -> dict[str, Any]:
        if not self.admin:
            raise GraphQLError("Forbidden")
        code, result_slug, message = self.fake.assets.create_folder(parentFolderId, slug)
        return {"responseResult": _result(code, result_slug, message)}


class _Pages:
    def __init__(self, fake: FakeWikiJs, user: str) -> None:
        self.fake = fake
        self.admin = user == "admin"

    def singleByPath(self, _info: Any, path: str, locale: str) -> dict[str, Any]:
        if not self.admin:
            raise _code_error("You are not authorized to view this page.", 6013)
        page = self.fake.page_at(path, locale)  # exact match: "/x" does not find "x"
        if page is None:
            raise _code_error("This page does not exist.", 6003)
        return _page_view(page)

    def search(
        self, _info: Any, query: str, path: str | None = None, locale: str | None = None
    ) -> dict[str, Any]:
        """Like Wiki.js's basic engine: the query as one phrase in a title, a description or
        the content, case aside."""
        self.fake.searches.append(query)
        wanted = query.casefold()
        hits = [
            p
            for p in self.fake.pages.values()
            if locale in (None, p.locale)
            and (path is None or p.path.startswith(path))
            and any(wanted in text.casefold() for text in (p.title, p.description, p.content))
        ]
        results = [
            {
                "id": str(p.id),
                "title": p.title,
                "description": p.description,
                "path": p.path,
                "locale": p.locale,
            }
            for p in hits
        ]
        return {"results": results, "suggestions": [], "totalHits": len(results)}

    def list(self, _info: Any, locale: str | None = None, **_: Any) -> list[dict[str, Any]]:
        chosen = [p for p in self.fake.pages.values() if locale in (None, p.locale)]
        return [_page_view(p) | {"tags": p.tags} for p in chosen]

    def create(self, _info: Any, **args: Any) -> dict[str, Any]:
        if not self.admin:
            raise GraphQLError("Forbidden")
        path = _strip_one_slash(args["path"])
        if _illegal(path):
            return {"responseResult": _result(6005, "PageIllegalPath", "Illegal path.")}
        if self.fake.page_at(path, args["locale"]) is not None:
            message = "Cannot create this page because an entry already exists at the same path."
            return {"responseResult": _result(6002, "PageDuplicateCreate", message)}
        if not args["content"].strip():
            return {"responseResult": _result(6004, "PageEmptyContent", "Content is empty.")}
        if args["locale"] != "en" or args["editor"] not in EDITORS:
            return {"responseResult": _result(1, "ForeignKeyViolationError", "foreign key")}
        texts = (path, args["title"], args["description"], *(args["tags"] or ()))
        if any(len(text or "") > 255 for text in texts):
            return {"responseResult": _result(1, "DataError", "value too long (255)")}
        page = self.fake.store(
            path=path,
            locale=args["locale"],
            title=args["title"],
            description=args["description"],
            content=args["content"],
            editor=args["editor"],
            is_published=args["isPublished"],
            is_private=args["isPrivate"],
            tags=[t for t in args["tags"] if t],
            script_css=args.get("scriptCss") or "",
            script_js=args.get("scriptJs") or "",
        )
        return {
            "responseResult": _result(message="Page created."),
            "page": _page_view(page, in_mutation=True),
        }

    def update(self, _info: Any, **args: Any) -> dict[str, Any]:
        if not self.admin:
            raise GraphQLError("Forbidden")
        page = self.fake.pages.get(args["id"])
        if page is None:
            return {"responseResult": _result(6003, "PageNotFound", "This page does not exist.")}
        if args.get("content") is not None and not args["content"].strip():
            return {"responseResult": _result(6004, "PageEmptyContent", "Content is empty.")}
        for key, attr in (
            ("content", "content"),
            ("title", "title"),
            ("description", "description"),
        ):
            if args.get(key) is not None:
                setattr(page, attr, args[key])
        if args.get("tags") is not None:
            page.tags = [t for t in args["tags"] if t]
        page.is_published = args.get("isPublished") is True  # omitted means unpublished
        page.script_css = args.get("scriptCss") or ""  # omitted means wiped
        page.script_js = args.get("scriptJs") or ""
        page.versions += 1
        page.updated_at = self.fake.tick()
        moved = ("path" in args and args["path"] != page.path) or (
            "locale" in args and args["locale"] != page.locale
        )
        if moved:  # the content is already saved; the move itself fails
            code = 6006 if "locale" in args else 1
            return {"responseResult": _result(code, "PageMoveFailed", "path collision")}
        return {
            "responseResult": _result(message="Page updated."),
            "page": _page_view(page, in_mutation=True),
        }


def _strip_one_slash(path: str) -> str:
    path = path.removeprefix("/")
    return path.removesuffix("/")


def _illegal(path: str) -> bool:
    return any(bad in path for bad in (".", " ", "\\", "//")) or not path
