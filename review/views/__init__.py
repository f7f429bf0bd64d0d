"""The review app's pages: one module per area, each with its ``urlpatterns``."""
