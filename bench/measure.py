"""Small helpers shared by the benchmark commands."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from django.core.management.base import BaseCommand

from memoryhub.progress import Progress


def percentiles(samples_ms: list[float]) -> dict:
    data = np.asarray(samples_ms)
    return {
        "p50": float(np.percentile(data, 50)),
        "p95": float(np.percentile(data, 95)),
        "mean": float(data.mean()),
        "n": int(data.size),
    }


def fmt(stats: dict) -> str:
    return f"p50 {stats['p50']:7.2f} ms   p95 {stats['p95']:7.2f} ms   (n={stats['n']})"


class BenchCommand(BaseCommand):
    """A benchmark command: its figures go to stdout as they come (``log``)."""

    def log(self, text: str = "") -> None:
        self.stdout.write(text)
        self.stdout.flush()


def embed_in_batches(
    embedder, texts: list[str], *, dimension: int, stream, label: str = "embedding", batch=256
) -> tuple[np.ndarray, float]:
    """``texts`` embedded ``batch`` at a time with a progress display on ``stream``: the
    matrix and the seconds it took."""
    progress = Progress(len(texts), label, stream=stream)
    vectors = np.zeros((len(texts), dimension), dtype=np.float32)
    for start in range(0, len(texts), batch):
        vectors[start : start + batch] = embedder.embed_documents(texts[start : start + batch])
        progress.advance(min(batch, len(texts) - start))
    return vectors, progress.finish()


class Precomputed:
    """An embedder that returns vectors computed beforehand (to time writes alone)."""

    name = "precomputed"

    def __init__(self, vectors: dict[str, np.ndarray]):
        self.vectors = vectors

    def embed_documents(self, texts):
        return np.stack([self.vectors[t] for t in texts])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def http_server(
    base_dir: Path, *, workers: int = 1, threads: int = 1, preload: bool = False, env=None
):
    """gunicorn serving this project on a free loopback port, for API timings. ``env``:
    variables set for the server only (on top of this process's)."""
    port = _free_port()
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE=os.environ.get("DJANGO_SETTINGS_MODULE", "memoryhub.settings"),
        **(env or {}),
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "memoryhub.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            *(["--preload"] if preload else []),
            "--timeout",
            "300",
            "--log-level",
            "warning",
        ],
        cwd=base_dir,
        env=env,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/v1/health", timeout=2).read()
                break
            except OSError:
                if process.poll() is not None or time.time() > deadline:
                    raise RuntimeError("the benchmark HTTP server did not start") from None
                time.sleep(0.3)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def post_json(url: str, body: dict, token: str) -> dict:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())
