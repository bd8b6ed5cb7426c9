"""OpenAPI schema generation (drf-spectacular), kept apart from ``stichbuch.api``.

drf-spectacular imports DRF's generic views, which import the pagination class
named in the settings; were both in one module, the import would be circular.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema


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
