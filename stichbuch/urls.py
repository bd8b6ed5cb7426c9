"""URL configuration: the pages, the API under /api/, its schema and docs, the admin."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("clubs.api_urls")),
    path("api/", include("ledger.api_urls")),
    path("api/", include("games.api_urls")),
    path("api/", include("live.api_urls")),
    path("", include("clubs.urls")),
    path("", include("games.page_urls")),
    path("", include("ledger.page_urls")),
    path("", include("live.page_urls")),
]
