from django.core.management.base import BaseCommand

from memoryhub.env import envstr
from memoryhub.services.admin_user import admin_user_ensure


class Command(BaseCommand):
    help = (
        "Create an admin (superuser) if none exists. Password from MEMORYHUB_ADMIN_PASSWORD, "
        "else generated and printed once."
    )

    def handle(self, *args, **options):
        username = envstr("MEMORYHUB_ADMIN_USERNAME", "admin")
        user, password = admin_user_ensure(
            username=username, password=envstr("MEMORYHUB_ADMIN_PASSWORD")
        )
        if password is None:
            self.stdout.write(f"Admin user exists: log in as {user.get_username()!r}.")
            return
        shown = (
            password
            if not envstr("MEMORYHUB_ADMIN_PASSWORD")
            else "(from MEMORYHUB_ADMIN_PASSWORD)"
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Created admin user {user.get_username()!r} with password: {shown}\n"
                "This password is printed only now. Change it in /admin/ after logging in."
            )
        )
