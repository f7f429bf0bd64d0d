from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from memoryhub import views
from memoryhub.contributions import contributions

urlpatterns = [
    path("", views.home, name="home"),
    path("health-panel", views.health_panel, name="health-panel"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("memoryhub.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    # Each app's pages (``AppConfig.page_urls``), in its own namespace.
    *(path("", include(module)) for module in contributions("page_urls")),
]

handler404 = "memoryhub.views.not_found"
handler500 = "memoryhub.views.server_error"
