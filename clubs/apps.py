from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs")
    default_auto_field = "django.db.models.BigAutoField"
