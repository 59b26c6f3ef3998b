# The Yukon service image: one image, three roles chosen by the command (see docker-compose.yml):
#   migrate  - `python manage.py migrate` once, before any worker starts
#   web      - the HTTP API on granian (WSGI): Django's sync path is ~2x cheaper per request
#   ws       - websockets on uvicorn (ASGI) with the Redis channel layer

# Stage 0: the engine's hot modules compiled by mypyc (docs/solver.md, "Compiled core"), apart,
# so that the C compiler and the dev tools (mypy, setuptools) stay out of the image. The build
# fails here rather than ship an interpreted engine by accident.
FROM python:3.12-slim
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* \
    && pip install --no-cache-dir "uv==0.13.9"
WORKDIR /app
COPY pyproject.toml uv.lock ./
RUN uv sync --frozen --only-group dev --no-install-project
COPY games/__init__.py games/__init__.py
COPY games/engine games/engine
RUN rm -f games/engine/*.so games/engine/_compiled.stamp \
    && .venv/bin/python -m games.engine.build && test -f games/engine/_compiled.stamp

# Stage 1: the image.
FROM python:3.12-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    UV_PROJECT_ENVIRONMENT=/app/.venv \
    UV_LINK_MODE=copy \
    PATH=/app/.venv/bin:$PATH \
    YUKON_DATA_DIR=/app/data

RUN pip install --no-cache-dir "uv==0.13.9" \
    && groupadd --system yukon \
    && useradd --system --gid yukon --home-dir /app --shell /usr/sbin/nologin yukon

WORKDIR /app
# Dependencies first: this layer is reused until pyproject.toml or uv.lock change.
COPY pyproject.toml uv.lock ./
# Compiled here: PYTHONDONTWRITEBYTECODE (and a read-only /app for the yukon user) would
# otherwise make every worker compile each module it imports, seconds per (re)start.
RUN uv sync --frozen --no-dev --no-install-project --compile-bytecode

COPY . .
# The compiled engine replaces whatever a local build left in the context; its stamp holds the
# hash of these very sources, so the engine loads it (games/engine/native.py).
COPY --from=0 /app/games/engine/*.so /app/games/engine/_compiled.stamp games/engine/
# Static files are collected at build time (whitenoise serves them with hashed names).
# The build needs throwaway secrets only because DEBUG is off; they are not kept.
RUN DEBUG=false SECRET_KEY=build-only-secret-key-never-used-at-runtime-0123456789 \
    DEAL_KEY=build-only DATABASE_URL=postgresql://build@localhost/build \
    python manage.py collectstatic --noinput \
    && python -m compileall -q accounts api frontend games ops yukon_site manage.py \
    && chown -R yukon:yukon /app/data

USER yukon
EXPOSE 8000
ENV DEBUG=false WEB_WORKERS=2
# Default role: the web, HTTP and websockets in one kind of ASGI worker, one per core
# (docs/operations.md, "Topology"). Compose overrides the command for `migrate` and `worker`.
CMD ["sh", "-c", "exec uvicorn yukon_site.asgi:application --host 0.0.0.0 --port 8000 --workers \"$WEB_WORKERS\" --lifespan off --no-access-log --no-proxy-headers --ws-per-message-deflate false --timeout-graceful-shutdown 20"]
