from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from memoryhub.api.errors import json_error_response
from memoryhub.selectors.health import system_health
from memoryhub.selectors.overview import attention, system_overview


@login_required
def home(request):
    health = system_health()
    context = system_overview() | {
        "health": health,
        "attention": attention(user=request.user, health=health),
    }
    return render(request, "memoryhub/home.html", context)


@login_required
def health_panel(request):
    return render(request, "partials/_health.html", {"health": system_health()})


def not_found(request, exception=None):
    if request.path.startswith("/api/"):
        return json_error_response("not_found", f"no endpoint at {request.path}", 404)
    return render(request, "404.html", status=404)


def server_error(request):
    if request.path.startswith("/api/"):
        return json_error_response("server_error", "internal error; it has been logged", 500)
    return render(request, "500.html", status=500)
