"""Shared fixtures: the players alice and bob, and API clients acting as them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="correct horse battery")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="staple battery horse")
