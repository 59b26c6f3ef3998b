"""Shared fixtures: the players alice and bob, and API clients acting as them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.support.play import token_client


@pytest.fixture
def alice(db: None) -> User:
    return User.objects.create_user("alice", password="correct horse battery")


@pytest.fixture
def bob(db: None) -> User:
    return User.objects.create_user("bob", password="staple battery horse")


@pytest.fixture
def alice_api(alice: User) -> APIClient:
    return token_client(alice)


@pytest.fixture
def bob_api(bob: User) -> APIClient:
    return token_client(bob)
