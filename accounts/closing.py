"""What closing an account does to the account itself: credentials revoked, and either the
row deleted or, when others' race results still name the player, a nameless stand-in.

`games.account_closing.close` is the whole path (games, races, ratings first).
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_grant_model,
    get_id_token_model,
    get_refresh_token_model,
)

from accounts import sessions
from accounts.models import ApiToken, PlayerSettings
from accounts.usernames import DELETED_PREFIX


def revoke_credentials(user: User) -> None:
    """Every signed-in session (their websockets told, as for "sign out everywhere"),
    personal tokens, OAuth grants and tokens, and the OAuth apps the player registered;
    each token's deletion closes the websockets it opened (api.realtime.revocation)."""
    sessions.sign_out_others(user, None)
    ApiToken.objects.filter(user=user).delete()
    for model in (
        get_refresh_token_model(),
        get_access_token_model(),
        get_id_token_model(),
        get_grant_model(),
        get_application_model(),
    ):
        model.objects.filter(user=user).delete()


def remove(user: User, *, keep_row: bool) -> None:
    """Delete the account, or (`keep_row`) strip it to a stand-in others' results can name:
    `deleted-player-…`, no address, no password, inactive (no session of it is valid)."""
    if not keep_row:
        user.delete()
        return
    user.username = f"{DELETED_PREFIX}player-{secrets.token_hex(5)}"
    user.email = user.first_name = user.last_name = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()
    PlayerSettings.objects.filter(user=user).delete()
