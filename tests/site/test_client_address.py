"""The client's address: the socket's, unless a configured trusted proxy forwarded it."""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from ipaddress import ip_network
from typing import TYPE_CHECKING, Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory, override_settings
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.request import Request

from api.throttles import ClientThrottle, LoginThrottle
from ops.client_address import client_address
from tests.support.servers import asgi_server

if TYPE_CHECKING:
    from rest_framework.views import APIView
from yukon_site.env import env_int, env_networks

PROXY = "10.0.0.5"
PROXIES = (ip_network("10.0.0.0/24"), ip_network("fd00::/8"))


def address(peer: str, forwarded_for: str | None = None) -> str:
    meta: dict[str, Any] = {"REMOTE_ADDR": peer}
    if forwarded_for is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return client_address(RequestFactory().get("/", **meta))


def test_without_trusted_proxies_the_socket_address_counts() -> None:
    assert address("198.51.100.7", "203.0.113.9") == "198.51.100.7"


@override_settings(TRUSTED_PROXIES=PROXIES)
def test_a_header_from_a_peer_that_is_no_trusted_proxy_is_ignored() -> None:
    assert address("198.51.100.7", "203.0.113.9") == "198.51.100.7"


@override_settings(TRUSTED_PROXIES=PROXIES)
def test_a_trusted_proxy_names_the_client() -> None:
    assert address(PROXY, "203.0.113.9") == "203.0.113.9"


@override_settings(TRUSTED_PROXIES=PROXIES)
def test_what_the_client_claimed_left_of_its_own_address_is_ignored() -> None:
    assert address(PROXY, "192.0.2.1, 127.0.0.1, 203.0.113.9") == "203.0.113.9"


@override_settings(TRUSTED_PROXIES=PROXIES)
def test_every_trusted_hop_is_skipped_from_the_right() -> None:
    assert address(PROXY, "192.0.2.1, 203.0.113.9, 10.0.0.7,10.0.0.6") == "203.0.113.9"


@override_settings(TRUSTED_PROXIES=PROXIES)
def test_when_every_hop_is_trusted_the_leftmost_counts() -> None:
    assert address(PROXY, "10.0.0.9, 10.0.0.8") == "10.0.0.9"


@override_settings(TRUSTED_PROXIES=PROXIES)
def test_the_walk_stops_at_an_entry_that_is_not_an_address() -> None:
    assert address(PROXY, "203.0.113.9, unknown, 10.0.0.8") == "10.0.0.8"
    assert address(PROXY, "") == PROXY


@override_settings(TRUSTED_PROXIES=PROXIES)
def test_addresses_are_written_one_way_so_one_client_has_one_bucket() -> None:
    assert address("fd00::1", "2001:DB8:0:0::1") == "2001:db8::1"
    assert address(PROXY, "::ffff:203.0.113.9") == "203.0.113.9"


def test_the_setting_reads_networks_and_single_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUSTED_PROXIES", " 10.0.0.0/8, 127.0.0.1 ,::1")
    assert env_networks("TRUSTED_PROXIES") == (
        ip_network("10.0.0.0/8"),
        ip_network("127.0.0.1/32"),
        ip_network("::1/128"),
    )
    monkeypatch.delenv("TRUSTED_PROXIES")
    assert env_networks("TRUSTED_PROXIES") == ()


@pytest.mark.parametrize("raw", ["nginx", "10.0.0.1/8", "10.0.0.0/33", "1"])
def test_a_bad_trusted_proxy_is_refused(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("TRUSTED_PROXIES", raw)
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES"):
        env_networks("TRUSTED_PROXIES")


def _views(patterns: list[URLPattern | URLResolver]) -> list[type[APIView]]:
    found: list[type[APIView]] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _views(pattern.url_patterns)
        elif view_class := getattr(pattern.callback, "cls", None):
            found.append(view_class)
    return found


def test_every_throttle_keys_on_the_client_address() -> None:
    throttles = {t for view in _views(get_resolver().url_patterns) for t in view.throttle_classes}
    assert throttles, "no throttled view found"
    assert all(issubclass(throttle, ClientThrottle) for throttle in throttles), throttles


@override_settings(TRUSTED_PROXIES=PROXIES)
def test_the_access_log_names_the_client(db: None, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="ops.access"):
        Client(REMOTE_ADDR=PROXY).get("/healthz", headers={"X-Forwarded-For": "203.0.113.9"})
    (line,) = [record for record in caplog.records if record.name == "ops.access"]
    assert line.__dict__["client"] == "203.0.113.9"


def _login(url: str, forged: str) -> int:
    request = urllib.request.Request(
        f"{url}/api/v1/auth/login",
        data=json.dumps({"username": "nobody", "password": "guess"}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": forged},
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.django_db(transaction=True)
def test_a_server_process_ignores_a_forged_header_from_loopback() -> None:
    """uvicorn rewrites the client from X-Forwarded-For for loopback peers unless told not to."""
    with asgi_server({"THROTTLE_LOGIN": "2/min", "LOG_LEVEL": "WARNING"}) as server:
        statuses = [_login(server.url, f"203.0.113.{index}") for index in range(4)]
    assert statuses == [401, 401, 429, 429]


def throttle_ident(peer: str) -> str:
    return LoginThrottle().get_ident(Request(RequestFactory().get("/", REMOTE_ADDR=peer)))


def test_ipv6_clients_count_by_their_64_network() -> None:
    """One home or one server gets a /64 (2^64 addresses): keyed per address, it held as
    many throttle buckets. IPv4 stays per address."""
    assert throttle_ident("2001:db8:1:2::1") == throttle_ident("2001:db8:1:2:ffff:ee:dd:9")
    assert throttle_ident("2001:db8:1:2::1") != throttle_ident("2001:db8:1:3::1")
    assert throttle_ident("203.0.113.1") != throttle_ident("203.0.113.2")
    assert throttle_ident("::ffff:203.0.113.1") == throttle_ident("203.0.113.1")


@pytest.mark.parametrize(("prefix", "same"), [(128, False), (64, True), (48, True)])
def test_the_ipv6_prefix_length_is_a_setting(prefix: int, same: bool) -> None:
    with override_settings(THROTTLE_IPV6_PREFIX=prefix):
        assert (throttle_ident("2001:db8:1:2::1") == throttle_ident("2001:db8:1:2::2")) is same
        assert (throttle_ident("2001:db8:1:2::1") == throttle_ident("2001:db8:1:3::1")) is (
            prefix <= 48
        )


@pytest.mark.parametrize("raw", ["129", "-1", "64.5", "/64"])
def test_a_bad_ipv6_prefix_is_refused(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("THROTTLE_IPV6_PREFIX", raw)
    with pytest.raises(ImproperlyConfigured, match="THROTTLE_IPV6_PREFIX"):
        env_int("THROTTLE_IPV6_PREFIX", 64, maximum=128)


def test_the_access_log_keeps_the_exact_ipv6_address(
    db: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="ops.access"):
        Client(REMOTE_ADDR="2001:db8:1:2:ffff:ee:dd:9").get("/healthz")
    (line,) = [record for record in caplog.records if record.name == "ops.access"]
    assert line.__dict__["client"] == "2001:db8:1:2:ffff:ee:dd:9"
