from __future__ import annotations

from django.urls import path
from django.views.generic import TemplateView

urlpatterns = [path("", TemplateView.as_view(template_name="base.html"), name="home")]
