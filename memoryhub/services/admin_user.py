import secrets

from django.contrib.auth import get_user_model
from django.db import transaction


@transaction.atomic
def admin_user_ensure(
    *, username: str = "admin", password: str | None = None, email: str = ""
) -> tuple[object, str | None]:
    """Create a superuser when none exists. Returns (user, password) where password is
    the one to show (generated when not given), or (existing superuser, None)."""
    User = get_user_model()
    existing = User.objects.filter(is_superuser=True).order_by("pk").first()
    if existing is not None:
        return existing, None
    password = password or secrets.token_urlsafe(12)
    user = User.objects.create_superuser(username=username, email=email, password=password)
    return user, password
