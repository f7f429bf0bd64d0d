"""``make run``: prepare the database, then run the web server and the task cluster."""

import ctypes
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


def _web_env() -> dict[str, str]:
    """The web workers run the embedding model one thread each (OMP_NUM_THREADS=1 unless
    set): several processes on a few cores each starting a thread per core for one
    query's embedding only fight each other and PostgreSQL for the cores."""
    return {"OMP_NUM_THREADS": "1", **os.environ}


def _own_group() -> None:
    """Run in each child before it starts: a process group of its own, so that a Ctrl-C or a
    signal to serve's group reaches serve alone and serve stops each child in order (the
    task cluster, signalled with its workers at once, hung for 15 s and was killed), and
    on Linux a SIGTERM when serve dies, so that a killed serve leaves no orphans."""
    os.setpgid(0, 0)
    if sys.platform.startswith("linux"):
        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class Command(BaseCommand):
    help = "Migrate, ensure an admin, then serve the web app (gunicorn) and the django-q2 cluster."

    def add_arguments(self, parser):
        parser.add_argument("--bind", default=os.environ.get("MEMORYHUB_BIND", "127.0.0.1:8000"))
        parser.add_argument(
            "--web-workers", type=int, default=int(os.environ.get("MEMORYHUB_WEB_WORKERS", "3"))
        )
        parser.add_argument(
            "--web-threads",
            type=int,
            default=int(os.environ.get("MEMORYHUB_WEB_THREADS", "1")),
            help="threads per web worker (above 1: gthread workers, a request waiting on "
            "the database or a remote model frees its process for another; on two CPU-bound "
            "cores bench_load measured no gain)",
        )
        parser.add_argument(
            "--no-cluster", action="store_true", help="do not start the django-q2 cluster"
        )

    def handle(self, *args, **options):
        call_command("migrate", interactive=False, verbosity=1)  # creates the cache table too
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("ensure_admin")
        call_command("ensure_schedules", verbosity=0)
        if settings.NEO4J_URL:
            try:
                call_command("graph_install")
            except Exception as exc:  # noqa: BLE001 - Neo4j down must not keep the site down
                self.stderr.write(
                    f"Neo4j schema not installed ({exc}); the outbox keeps changes until it is up."
                )
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
        children: list[subprocess.Popen] = []
        if not options["no_cluster"]:
            children.append(subprocess.Popen([*manage, "qcluster"], preexec_fn=_own_group))
        children.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "memoryhub.wsgi:application",
                    "--bind",
                    options["bind"],
                    "--workers",
                    str(options["web_workers"]),
                    "--threads",
                    str(options["web_threads"]),
                    # With threads an agent's next call reuses its connection: gunicorn's
                    # 2 s default closed idle ones while a busy agent was sending on one (a
                    # read error in bench_load); 20 s stays under a proxy's usual 60 s.
                    "--keep-alive",
                    "20",
                    "--access-logfile",
                    "-",
                    "--timeout",
                    "120",
                ],
                cwd=settings.BASE_DIR,
                env=_web_env(),
                preexec_fn=_own_group,
            )
        )
        host = options["bind"]
        self.stdout.write(
            self.style.SUCCESS(
                f"\nMemoryHub is serving http://{host}/  "
                "(admin: /admin/, API: /api/v1/, docs: /api/docs/)\n"
                "Press Ctrl-C to stop. `make stop` also stops the embedded PostgreSQL.\n"
            )
        )
        stopping = False

        def stop(signum, frame):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping and all(child.poll() is None for child in children):
                time.sleep(0.5)
        finally:
            for child in children:
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)
            for child in children:
                try:
                    child.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    child.kill()
        failed = [c for c in children if c.returncode not in (0, -signal.SIGTERM, None)]
        if failed and not stopping:
            raise SystemExit(f"a child process exited with {failed[0].returncode}")
