"""What the apps above the foundation contribute to it, declared on their ``AppConfig``.

The foundation (settings, tenancy, API plumbing, the home page) imports no app: it reads
what each installed app declares, so the house is built from the apps upward.

- ``worker_api_urls``: a URL module (with its own ``app_name``) mounted under
  ``/api/v1/workers/<worker_id>/``;
- ``api_urls``: a URL module (with its own ``app_name``) mounted under ``/api/v1/``;
- ``page_urls``: a URL module (with its own ``app_name``) of browser pages, mounted at the
  site root;
- ``schedules()``: the app's recurring django-q2 jobs (``memoryhub.services.schedules``);
- ``attention(user=)``: what needs a person's attention, ``[{level, title, detail, url,
  count}]``, listed first on the home page;
- ``health_report()``: a dict merged into ``/api/v1/health`` and the home page's panel;
- ``overview()``: the home page's figures, ``{"tiers": [{key, name, description, memories,
  detail}], "details": {tier key: text}, "worker_columns": [{key, label, values: {worker
  id: value}, default}]}``, each part optional.
"""

from django.apps import apps


def contributions(name: str) -> list:
    """The value of ``name`` on every installed app that declares it, in INSTALLED_APPS order."""
    found = []
    for config in apps.get_app_configs():
        value = getattr(config, name, None)
        if value is not None:
            found.append(value)
    return found
