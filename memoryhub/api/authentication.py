from datetime import timedelta

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from memoryhub.selectors.workers import token_authenticate


class AgentPrincipal:
    """``request.user`` for a worker token: an authenticated agent, never staff."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False

    def __init__(self, token):
        self.token = token
        self.worker = token.worker

    def __str__(self) -> str:
        return f"agent:{self.worker.name}"


class ApiTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Token <key>`` (``Bearer <key>`` works too)."""

    keywords = ("token", "bearer")
    touch_interval = timedelta(minutes=1)

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode(errors="replace").lower() not in self.keywords:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Authorization header must be 'Token <key>'")
        try:
            key = header[1].decode()
        except UnicodeDecodeError as exc:
            raise exceptions.AuthenticationFailed("token contains invalid characters") from exc
        token = token_authenticate(key=key)
        if token is None:
            raise exceptions.AuthenticationFailed("invalid or revoked token")
        if token.user_id is not None and not (token.user.is_active and token.user.is_staff):
            raise exceptions.AuthenticationFailed("the token's user is no longer active staff")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > self.touch_interval:
            type(token).objects.filter(pk=token.pk).update(last_used_at=now)
        principal = token.user if token.user_id is not None else AgentPrincipal(token)
        return principal, token

    def authenticate_header(self, request):
        return "Token"


class ApiTokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = ApiTokenAuthentication
    name = "TokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>`",
        }
