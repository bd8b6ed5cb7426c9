"""The API's JSON parser: DRF's, with the limits Django applies to form posts, and a few more.

Kept apart from ``stichbuch.api``: DRF reads ``DEFAULT_PARSER_CLASSES`` while it
defines ``APIView``, so this module must not import DRF's views.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers, status
from rest_framework.utils import json

# No request body of Stichbuch nests deeper than a handful of levels (an import:
# body, records, record, events, event, hands, cards).
MAX_JSON_DEPTH = 32


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "request_too_large"


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, bounded.

    DRF reads a JSON body from the raw stream, past Django's
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` check, so that limit is applied here (413).
    A body nested deeper than ``MAX_JSON_DEPTH`` or holding a string that is not
    valid Unicode (a lone surrogate such as ``"\\ud800"``) is a 400: unchecked,
    the first made Python's decoder raise ``RecursionError`` and the second failed
    when encoded again — both answered a 500.
    """

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise RequestTooLarge(_("The request body is larger than %(n)d bytes.") % {"n": limit})
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        try:
            data = json.loads(raw.decode(encoding), parse_constant=json.strict_constant)
        except RecursionError:
            raise exceptions.ParseError(_("The JSON is nested too deeply.")) from None
        except ValueError as error:
            raise exceptions.ParseError(f"JSON parse error - {error}") from None
        check_json(data)
        if not isinstance(data, dict | list):
            # Operations take an object (the import also a list of records); a bare
            # null, number or string would otherwise pass as "no fields given".
            raise exceptions.ParseError(
                {"non_field_errors": [_("The body must be a JSON object.")]}
            )
        return data


def check_json(data: Any) -> None:
    """Refuse JSON nested deeper than ``MAX_JSON_DEPTH`` or with strings that are not Unicode."""
    problem = json_problem(data)
    if problem is not None:
        raise exceptions.ParseError(problem)


def json_problem(data: Any) -> str | None:
    """Why ``data`` (parsed JSON) is refused — nested deeper than ``MAX_JSON_DEPTH``,
    or a string that is not valid Unicode — or None. Walks without recursion, so
    any depth is judged."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return _("The JSON holds a string that is not valid Unicode.")
        elif isinstance(value, dict | list):
            if depth > MAX_JSON_DEPTH:
                return _("The JSON is nested more than %(n)d levels deep.") % {"n": MAX_JSON_DEPTH}
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                stack.append((key, depth + 1))
                stack.append((item, depth + 1))
    return None
