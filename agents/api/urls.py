"""The agents app's endpoints, mounted under ``/api/v1/workers/<worker_id>/``."""

app_name = "agents-api"

urlpatterns: list = []
