"""Pages above the apps: see ``web.pages``."""
