"""Who is signed in, in the one shape the API's `GET /auth/me` answers and the app shell
writes into its page (so the browser app learns it without asking)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from accounts.models import PlayerSettings


def me_dict(user: User) -> dict[str, Any]:
    player_settings = PlayerSettings.for_user(user)
    return {
        "id": user.pk,
        "username": user.username,
        "email": user.email,
        "email_confirmed": player_settings.email_confirmed,
        "guest": player_settings.is_guest,
        "settings": player_settings.to_dict(),
    }
