"""OpenAPI schema generation (drf-spectacular), kept apart from ``stichbuch.api``.

drf-spectacular imports DRF's generic views, which import the pagination class
named in the settings; were both in one module, the import would be circular.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework.permissions import AllowAny

# The one shape of every refusal (stichbuch.api.exception_handler, DRF, axes):
# {"detail": "message"} or {"field": ["message", ...], "non_field_errors": [...]}.
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A refusal with a human message: `detail`, or the fields' messages.",
    "properties": {"detail": {"type": "string"}},
    # Field names map to their messages (a list of strings, or nested for nested input).
    "additionalProperties": True,
}
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's schema, naming operations and nested serializers after their view.

    Every view nests its own ``InputSerializer``/``OutputSerializer``; without the
    view's name in front, all of them would be one clashing component "Input".
    Each view is one operation, so its class name (``SeasonCloseApi`` →
    ``season_close``) is a unique operationId; derived from the path, a list and
    a detail URL would collide.
    """

    def get_operation_id(self) -> str:
        name = type(self.view).__name__.removesuffix("Api").removesuffix("View")
        operation_id = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
        methods = [m for m in self.view.allowed_methods if m not in ("OPTIONS", "HEAD")]
        if len(methods) > 1:
            operation_id = f"{operation_id}_{self.method.lower()}"
        return operation_id

    def map_parsers(self) -> list[str]:
        """The request bodies the API documents: JSON (the contract). The form parsers
        stay for DRF's browsable API in development; clients send JSON."""
        media_types: list[str] = super().map_parsers()
        return [m for m in media_types if m == "application/json"] or media_types

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        """The view's own answers, plus every refusal the operation can give.

        Derived here, once, from the operation's method, body, parameters,
        authentication, throttles and path, so no view has to annotate them:

        - 400 bad input (a body, a query parameter, one sent empty) or a state
          forbidding a write: any operation;
        - 401 / 403: the view needs a logged-in member (and his role);
        - 404: an object in the path (or a page number) that is not there, or not his;
        - 409 a conflict with data just saved, 422 a rule of the game refused,
          413 a body over the size limit, 415 a body not JSON: writes;
        - 429: throttled views (and axes' lockout on logging in).
        """
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code, description in self._refusals():
            responses.setdefault(code, self._error_response(description))
        return responses

    def _refusals(self) -> list[tuple[str, str]]:
        view = self.view
        writes = self.method in WRITE_METHODS
        takes_body = self.method in ("POST", "PUT", "PATCH")
        needs_login = any(p is not AllowAny for p in view.permission_classes)
        # Any operation: a query parameter sent empty is refused (refuse_empty_query_parameters).
        refusals = [("400", "Bad input, or a state that forbids it: the message says why.")]
        if needs_login:
            refusals.append(("401", "Not logged in (no or an unknown token)."))
            refusals.append(("403", "Not allowed for this member's role."))
        if "{" in self.path or needs_login or self._get_paginator() is not None:
            refusals.append(("404", "No such object here (or no such page)."))
        if writes:
            refusals.append(("409", "Conflicts with what was saved meanwhile; reload."))
        if takes_body:
            refusals.append(("413", "The body is larger than allowed."))
            refusals.append(("415", "The body is not JSON (or form data)."))
            refusals.append(("422", "Refused by a rule of the game: the reason and its code."))
        if view.throttle_classes or "auth" in self.path:
            refusals.append(("429", "Too many requests: wait (see Retry-After)."))
        return refusals

    def _error_response(self, description: str) -> dict[str, Any]:
        component = ResolvedComponent(
            name="Error", type=ResolvedComponent.SCHEMA, object="Error", schema=ERROR_SCHEMA
        )
        self.registry.register_on_missing(component)
        # A refusal is rendered like the view's answers: JSON, or CSV for a CSV download.
        media_types = [r.media_type for r in self.view.renderer_classes] or ["application/json"]
        content = {media_type: {"schema": component.ref} for media_type in media_types}
        return {"description": description, "content": content}

    def _get_paginator(self) -> Any:
        """The paginator of a GET that answers a page (``stichbuch.api.paginated_response``).

        Stichbuch's list views are plain ``APIView``s with no ``pagination_class``, so
        drf-spectacular would document a bare array where the view answers the page
        envelope ``{"count", "next", "previous", "results"}``.
        """
        paginator = super()._get_paginator()
        if paginator is None and self.method == "GET" and _answers_a_page(type(self.view)):
            from stichbuch.api import DefaultPagination  # not at import: see the docstring

            paginator = DefaultPagination()
        return paginator

    def _get_serializer_name(
        self, serializer: Any, direction: Any, bypass_extensions: bool = False
    ) -> str:
        name: str = super()._get_serializer_name(serializer, direction, bypass_extensions)
        qualname = type(serializer).__qualname__
        if "." in qualname and "<locals>" not in qualname:
            outer = qualname.split(".")[0].removesuffix("Api")
            if not name.startswith(outer):
                name = outer + name
        return name


def _answers_a_page(view_class: type) -> bool:
    get = getattr(view_class, "get", None)
    try:
        return get is not None and "paginated_response(" in inspect.getsource(get)
    except (OSError, TypeError):
        return False
