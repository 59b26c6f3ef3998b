"""Password hashing in the test process: production's Argon2, at the smallest cost.

Nearly every test signs up a player or two (alice, bob), and Argon2 at production cost
(100 MiB and two passes over it) takes a second and more on a busy machine. The suite's
hasher is production's list with Argon2 swapped for the same algorithm at low cost, so
passwords are still really hashed and checked (and still start with `argon2$`); server
processes the tests start keep production's cost, and so does every deployment.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.hashers import Argon2PasswordHasher
from django.test import override_settings

PRODUCTION_ARGON2 = "django.contrib.auth.hashers.Argon2PasswordHasher"


class QuickArgon2PasswordHasher(Argon2PasswordHasher):
    """Argon2id with one pass over 64 KiB: the same hashes, checked the same way, cheaply."""

    time_cost = 1
    memory_cost = 64
    parallelism = 1


def quick_password_hashing() -> None:
    """Hash with the quick Argon2 wherever production hashes with Argon2, for the whole run."""
    quick = f"{__name__}.{QuickArgon2PasswordHasher.__name__}"
    hashers = [quick if name == PRODUCTION_ARGON2 else name for name in settings.PASSWORD_HASHERS]
    override_settings(PASSWORD_HASHERS=hashers).enable()
