from django.core.management.base import BaseCommand, CommandError

from memoryhub.errors import DomainError
from memoryhub.models import Worker
from memoryhub.services.workers import staff_user_get, token_issue, worker_create


class Command(BaseCommand):
    help = "Issue an API token for a worker (agent) or a staff user. The key is printed once."

    def add_arguments(self, parser):
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("--worker", help="worker name")
        target.add_argument("--staff", metavar="USERNAME", help="staff user name")
        parser.add_argument(
            "--create", action="store_true", help="create the worker if it does not exist"
        )
        parser.add_argument("--name", default="", help="a label for the token")
        parser.add_argument("--quiet", action="store_true", help="print only the key")

    def handle(self, *args, **options):
        try:
            if options["worker"]:
                worker = Worker.objects.filter(name=options["worker"]).first()
                if worker is None:
                    if not options["create"]:
                        raise CommandError(
                            f"no worker named {options['worker']!r} (add --create to create it)"
                        )
                    worker = worker_create(name=options["worker"])
                token, key = token_issue(worker=worker, name=options["name"])
                owner = f"worker {worker.name!r} (id {worker.pk})"
            else:
                token, key = token_issue(
                    user=staff_user_get(username=options["staff"]), name=options["name"]
                )
                owner = f"staff user {options['staff']!r}"
        except DomainError as exc:
            raise CommandError(exc.detail) from exc
        if options["quiet"]:
            self.stdout.write(key)
            return
        self.stdout.write(
            f"Token {token.prefix}… for {owner}:\n\n    {key}\n\nIt is shown only now. "
            f"Use it as: Authorization: Token {key}"
        )
