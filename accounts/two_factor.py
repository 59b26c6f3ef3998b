"""Two-factor sign-in: a TOTP authenticator app (RFC 6238) and ten one-time recovery codes.

A player turns it on in two steps (a secret to scan, then a first code that proves the
app holds it) and off with a current code. Every sign-in with a password then needs a
second factor (`sign_in_check`), and so does anything else that must be sure of the
player (`check_second_factor`, e.g. deleting the account). A code is accepted once:
the step it belongs to is remembered. Wrong codes are counted per player: after
`MAX_FAILURES` within `FAILURE_WINDOW` every code is refused for the rest of the window,
from any address, so guessing the six digits takes far longer than a code lives.
"""

from __future__ import annotations

import base64
import io
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta

import pyotp
import segno
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import RecoveryCode, TwoFactor, hash_token
from ops.errors import ServiceError

ISSUER = "Yukon"
#: Seconds a code lives (the authenticator apps' default), and the neighbouring steps
#: accepted on either side for a phone whose clock is a little off.
STEP_SECONDS = 30
CLOCK_DRIFT_STEPS = 1
RECOVERY_CODES = 10
MAX_FAILURES = 5
FAILURE_WINDOW = timedelta(minutes=15)


class TwoFactorRefusal(ServiceError):
    """A refusal of two-factor sign-in: its sentence says it all, in English too."""

    def __init__(self) -> None:
        super().__init__(str(self.message))


class SecondFactorRequired(TwoFactorRefusal):
    code = "second-factor-required"
    status = 401
    message = _(
        "This account has two-factor sign-in: send the code from your authenticator app "
        "(or a recovery code) in 'code'."
    )


class WrongSecondFactor(TwoFactorRefusal):
    code = "wrong-second-factor"
    status = 403
    message = _("That code is not right: type the code your authenticator app shows now.")


class SecondFactorReused(TwoFactorRefusal):
    code = "second-factor-reused"
    status = 403
    message = _("That code was already used: wait for the next one in your authenticator app.")


class SecondFactorThrottled(TwoFactorRefusal):
    code = "second-factor-throttled"
    status = 429
    message = _(
        "Too many wrong codes: two-factor sign-in is locked for a while "
        "(see 'retry_after_seconds')."
    )

    def __init__(self, retry_after: timedelta) -> None:
        super().__init__()
        self.retry_after_seconds = max(1, int(retry_after.total_seconds() + 0.999))

    def details(self) -> dict[str, object]:
        return {"retry_after_seconds": self.retry_after_seconds}


class TwoFactorAlreadyOn(TwoFactorRefusal):
    code = "two-factor-already-on"
    status = 409
    message = _("Two-factor sign-in is already on: turn it off first to use another app.")


class TwoFactorOff(TwoFactorRefusal):
    code = "two-factor-off"
    status = 409
    message = _("Two-factor sign-in is off for this account.")


class TwoFactorNotStarted(TwoFactorRefusal):
    code = "two-factor-not-started"
    status = 409
    message = _("Start setting up two-factor sign-in first: there is no secret to confirm yet.")


@dataclass(frozen=True)
class Setup:
    """What a player needs to add the account to an authenticator app."""

    secret: str
    otpauth_uri: str
    qr_svg: str


def is_on(user: User) -> bool:
    return TwoFactor.objects.filter(user=user, confirmed_at__isnull=False).exists()


def status(user: User) -> dict[str, object]:
    left = RecoveryCode.objects.filter(user=user, used_at__isnull=True).count()
    on = is_on(user)
    return {"enabled": on, "recovery_codes_left": left if on else 0}


def begin_setup(user: User) -> Setup:
    """A new secret for the player's app (replacing one never confirmed)."""
    if is_on(user):
        raise TwoFactorAlreadyOn()
    secret = pyotp.random_base32()
    TwoFactor.objects.update_or_create(user=user, defaults={"secret": secret, "last_step": 0})
    uri = pyotp.TOTP(secret, interval=STEP_SECONDS).provisioning_uri(
        name=user.username, issuer_name=ISSUER
    )
    svg = io.BytesIO()
    segno.make(uri, error="m").save(svg, kind="svg", scale=4, border=2, xmldecl=False)
    data_uri = "data:image/svg+xml;base64," + base64.b64encode(svg.getvalue()).decode("ascii")
    return Setup(secret, uri, data_uri)


def confirm_setup(user: User, code: str) -> list[str]:
    """Turn two-factor sign-in on with a first code from the app; the recovery codes, once."""
    if not TwoFactor.objects.filter(user=user, confirmed_at__isnull=True).exists():
        if is_on(user):
            raise TwoFactorAlreadyOn()
        raise TwoFactorNotStarted()
    _check(user, code, pending=True)
    TwoFactor.objects.filter(user=user).update(confirmed_at=timezone.now())
    return new_recovery_codes(user)


def disable(user: User, code: str) -> None:
    """Turn two-factor sign-in off; needs a current code (or a recovery code)."""
    check_second_factor(user, code)
    TwoFactor.objects.filter(user=user).delete()
    RecoveryCode.objects.filter(user=user).delete()


def replace_recovery_codes(user: User, code: str) -> list[str]:
    """Ten new recovery codes for a current code; the old ones stop working."""
    check_second_factor(user, code)
    return new_recovery_codes(user)


def new_recovery_codes(user: User) -> list[str]:
    codes = [_recovery_code() for _ in range(RECOVERY_CODES)]
    with transaction.atomic():
        RecoveryCode.objects.filter(user=user).delete()
        RecoveryCode.objects.bulk_create(
            RecoveryCode(user=user, code_hash=hash_token(_normalized(code))) for code in codes
        )
    return codes


def sign_in_check(user: User, code: str | None) -> None:
    """The second step of a sign-in whose password was right: nothing to do when
    two-factor sign-in is off; else the code must be good."""
    if not is_on(user):
        return
    if not code:
        raise SecondFactorRequired()
    check_second_factor(user, code)


def check_second_factor(user: User, code: str) -> None:
    """Accept `code` (from the app, or an unused recovery code) for `user`, or refuse it.

    For anything that must be sure of the player beyond the session (account deletion):
    refuses with `TwoFactorOff` when the player has none, so call it only when `is_on`.
    """
    _check(user, code, pending=False)


def _check(user: User, code: str, *, pending: bool) -> None:
    """One attempt: accepted, or counted as a failure (in its own transaction, which the
    refusal must not roll back) and refused."""
    with transaction.atomic():
        device = (
            TwoFactor.objects.select_for_update()
            .filter(user=user, confirmed_at__isnull=pending)
            .first()
        )
        if device is None:
            raise TwoFactorOff()
        refusal = _judge(device, code, pending=pending)
        if refusal is None:
            device.failures, device.failures_since = 0, None
        elif not isinstance(refusal, SecondFactorThrottled):
            _count_failure(device)
        device.save(update_fields=["last_step", "failures", "failures_since"])
    if refusal is not None:
        raise refusal


def _judge(device: TwoFactor, code: str, *, pending: bool) -> ServiceError | None:
    """None when `code` is accepted (its step or recovery code is used up), else the refusal."""
    now = timezone.now()
    if device.failures >= MAX_FAILURES and device.failures_since is not None:
        unlocks = device.failures_since + FAILURE_WINDOW
        if now < unlocks:
            return SecondFactorThrottled(unlocks - now)
    typed = _normalized(code)
    step = _matching_step(device.secret, typed)
    if step is not None:
        if step <= device.last_step:
            return SecondFactorReused()
        device.last_step = step
        return None
    if not pending and _use_recovery_code(device.user_id, typed):
        return None
    return WrongSecondFactor()


def _matching_step(secret: str, typed: str) -> int | None:
    """The time step whose code is `typed`, among the current one and its neighbours."""
    if not (len(typed) == 6 and typed.isdigit()):
        return None
    totp = pyotp.TOTP(secret, interval=STEP_SECONDS)
    now_step = int(time.time()) // STEP_SECONDS
    for step in range(now_step - CLOCK_DRIFT_STEPS, now_step + CLOCK_DRIFT_STEPS + 1):
        if secrets.compare_digest(totp.at(step * STEP_SECONDS), typed):
            return step
    return None


def _use_recovery_code(user_id: int, typed: str) -> bool:
    used = RecoveryCode.objects.filter(
        user_id=user_id, code_hash=hash_token(typed), used_at__isnull=True
    ).update(used_at=timezone.now())
    return used == 1


def _count_failure(device: TwoFactor) -> None:
    now = timezone.now()
    if device.failures_since is None or now - device.failures_since >= FAILURE_WINDOW:
        device.failures, device.failures_since = 1, now
    else:
        device.failures += 1


#: Recovery codes: ten characters of an alphabet without look-alikes (no 0/O, 1/I/L),
#: shown as two groups of five; typed in any case, with or without the dash or spaces.
RECOVERY_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def _recovery_code() -> str:
    chars = "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(10))
    return f"{chars[:5]}-{chars[5:]}"


def _normalized(code: str) -> str:
    return "".join(code.split()).replace("-", "").upper()
