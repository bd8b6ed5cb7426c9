"""URL configuration: the pages, the API under /api/, its schema and docs, the admin."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from stichbuch.js_catalogue import javascript_catalogue


class ApiDocsView(SpectacularSwaggerSplitView):
    """Swagger UI from the app's own static files (drf-spectacular-sidecar), its start
    script as a separate request: the page passes the CSP without inline script."""

    template_name = "api/swagger_ui.html"


urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # The scripts' sentences (the djangojs catalogue) in the language the URL names.
    path("jsi18n/<str:language>/", javascript_catalogue, name="javascript-catalog"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("clubs.api_urls")),
    path("api/", include("ledger.api_urls")),
    path("api/", include("games.api_urls")),
    path("api/", include("live.api_urls")),
    path("api/", include("tournaments.api_urls")),
    path("api/", include("analysis.api_urls")),
    path("", include("web.urls")),
    path("", include("clubs.urls")),
    path("", include("games.page_urls")),
    path("", include("ledger.page_urls")),
    path("", include("live.page_urls")),
    path("", include("tournaments.page_urls")),
    path("", include("analysis.page_urls")),
]

# Under /api/ a URL that matches nothing answers JSON, as the API's other refusals do.
handler404 = "stichbuch.api.not_found"
