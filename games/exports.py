"""'Download my data': one zip archive of everything the service keeps about a player.

JSON for the account, settings, ratings and puzzles; a CSV of every game with its code,
rule, result, times and move log. A task builds it (`build`, safe to run twice) and
counts the games done as it goes, so the page can show progress. Only its owner can
download it, until it expires (`EXPORT_KEEP_SECONDS`).
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.links import LinkExpired
from accounts.models import PlayerSettings
from games import events
from games.fairness import visibility
from games.models import DataExport, Game, MoveLogEntry, PlayerStats
from games.puzzles.models import PuzzleAttempt, PuzzleCard, PuzzlePlayer
from games.races.models import RaceRating
from ops.errors import ServiceError

_PENDING = [DataExport.Status.QUEUED, DataExport.Status.RUNNING]
#: Games whose rows are written between two progress reports.
PROGRESS_EVERY = 50
GAME_COLUMNS = [
    "id",
    "code",
    "rule",
    "result",
    "score",
    "moves",
    "cards_on_foundations",
    "assisted",
    "daily_date",
    "ranked",
    "raced",
    "created_at",
    "first_move_at",
    "finished_at",
    "seconds_played",
    "move_log",
]


class ExportInProgress(ServiceError):
    """An export is already being built; its id is in `export`."""

    code = "export-in-progress"
    status = 409
    message = _("Your data is already being gathered: wait for that archive.")

    def __init__(self, export_id: int) -> None:
        super().__init__(f"Export {export_id} is still being built.")
        self.export_id = export_id

    def details(self) -> dict[str, object]:
        return {"export": self.export_id}


class ExportNotReady(ServiceError):
    code = "export-not-ready"
    status = 409
    message = _("This archive is not ready yet.")


class ExportNotFound(ServiceError):
    code = "export-not-found"
    status = 404
    message = _("No such archive of your data.")


def ask(user: User) -> DataExport:
    """Queue a new export; refused while one is queued or running (also when two asks race:
    the database's constraint lets one in)."""
    pending = DataExport.objects.filter(owner=user, status__in=_PENDING).first()
    if pending is not None:
        raise ExportInProgress(pending.pk)
    try:
        with transaction.atomic():
            export = DataExport.objects.create(owner=user)
            events.happened(events.ExportWanted(export.pk))
    except IntegrityError:
        pending = DataExport.objects.filter(owner=user, status__in=_PENDING).first()
        raise ExportInProgress(pending.pk if pending else 0) from None
    return export


def latest(user: User) -> DataExport | None:
    return DataExport.objects.filter(owner=user).defer("archive").order_by("-pk").first()


def _owned(user: User, export_id: int) -> DataExport:
    export = DataExport.objects.filter(owner=user, pk=export_id).first()
    if export is None:
        raise ExportNotFound(f"Player {user.pk} has no export {export_id}.")
    return export


def download(user: User, export_id: int) -> tuple[str, bytes]:
    """The owner's archive while it is kept: its file name and its bytes."""
    export = _owned(user, export_id)
    if export.status != DataExport.Status.READY or export.archive is None:
        raise ExportNotReady(f"Export {export_id} is {export.status}.")
    if export.expires_at is not None and export.expires_at <= timezone.now():
        raise LinkExpired(f"Export {export_id} expired at {export.expires_at:%Y-%m-%d %H:%M}.")
    name = f"yukon-data-{export.created_at:%Y-%m-%d}.zip"
    return name, bytes(export.archive)


def _rows(queryset: models.QuerySet[Any], *leave_out: str) -> list[dict[str, Any]]:
    return [
        {key: value for key, value in row.items() if key not in leave_out}
        for row in queryset.values()
    ]


def _json(data: object) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder, indent=2, ensure_ascii=False)


def _account(user: User) -> dict[str, Any]:
    player_settings = PlayerSettings.for_user(user)
    return {
        "username": user.username,
        "email": user.email,
        "email_confirmed": player_settings.email_confirmed,
        "guest": player_settings.is_guest,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
    }


def _game_row(game: Game, log: Iterable[str]) -> list[object]:
    """A game's row; a deal still secret (today's daily, a running race) keeps its code and
    moves out, as every other door does (games.fairness.visibility.hides_code)."""
    secret = visibility.hides_code(game)
    return [
        game.pk,
        "" if secret else game.code,
        game.rule,
        game.status,
        game.score,
        game.move_count,
        game.cards_on_foundations,
        game.assisted,
        game.daily_date or "",
        game.ranked,
        game.raced,
        game.created_at.isoformat(),
        game.first_move_at.isoformat() if game.first_move_at else "",
        game.finished_at.isoformat() if game.finished_at else "",
        round(game.elapsed().total_seconds(), 3),
        "" if secret else " ".join(log),
    ]


def _report(export: DataExport, done: int) -> None:
    DataExport.objects.filter(pk=export.pk).update(games_done=done)


def build(export_id: int) -> None:
    """Write the archive of export `export_id`; nothing to do once it is ready (a retry)."""
    export = DataExport.objects.select_related("owner").filter(pk=export_id).first()
    if export is None or export.status == DataExport.Status.READY:
        return
    user = export.owner
    games = Game.objects.filter(owner=user).order_by("pk")
    export.status, export.games_total, export.games_done = (
        DataExport.Status.RUNNING,
        games.count(),
        0,
    )
    export.save(update_fields=["status", "games_total", "games_done"])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("account.json", _json(_account(user)))
        archive.writestr("settings.json", _json(PlayerSettings.for_user(user).to_dict()))
        ratings = {
            "statistics": _rows(PlayerStats.objects.filter(player=user), "id", "player_id"),
            "races": _rows(RaceRating.objects.filter(player=user), "id", "player_id"),
            "puzzles": _rows(PuzzlePlayer.objects.filter(player=user), "id", "player_id"),
        }
        archive.writestr("ratings.json", _json(ratings))
        puzzles = {
            "attempts": _rows(PuzzleAttempt.objects.filter(player=user), "id", "player_id"),
            "deck": _rows(PuzzleCard.objects.filter(player=user), "id", "player_id"),
        }
        archive.writestr("puzzles.json", _json(puzzles))
        table = io.StringIO()
        writer = csv.writer(table)
        writer.writerow(GAME_COLUMNS)
        for done, game in enumerate(games.iterator(chunk_size=PROGRESS_EVERY), start=1):
            log = MoveLogEntry.objects.filter(game=game).values_list("text", flat=True)
            writer.writerow(_game_row(game, log))
            if done % PROGRESS_EVERY == 0:
                _report(export, done)
        archive.writestr("games.csv", table.getvalue())
    now = timezone.now()
    export.archive, export.status = buffer.getvalue(), DataExport.Status.READY
    export.games_done, export.finished_at = export.games_total, now
    export.expires_at = now + timedelta(seconds=settings.EXPORT_KEEP_SECONDS)
    export.save(update_fields=["archive", "status", "games_done", "finished_at", "expires_at"])
