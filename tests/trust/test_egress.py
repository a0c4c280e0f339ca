"""Webhook egress: an IPv6 address that embeds an IPv4 one (mapped, compatible, NAT64, 6to4,
Teredo) is judged by the IPv4 address it reaches, and a URL that cannot be checked as written
(control characters, an impossible port, credentials) is refused with the reason."""

from __future__ import annotations

import pytest

from services.egress import EgressPolicy, TargetRefused, target_of

METADATA_FORMS = [
    "::ffff:169.254.169.254",        # IPv4-mapped
    "::169.254.169.254",             # IPv4-compatible
    "64:ff9b::169.254.169.254",      # NAT64, well-known prefix
    "64:ff9b::a9fe:a9fe",            # the same, written in hex
    "64:ff9b:1::a9fe:a9fe",          # NAT64 local-use prefix, /96 placement
    "64:ff9b:1:a9fe:a9:fe00::",      # NAT64 local-use prefix, /48 placement (skips bits 64-71)
    "2002:a9fe:a9fe::1",             # 6to4
    "2001:0:4136:e378:8000:63bf:5601:5601",  # Teredo, client 169.254.169.254 (stored inverted)
]


@pytest.mark.parametrize("address", METADATA_FORMS)
def test_every_ipv6_form_of_the_metadata_address_is_refused(address: str):
    why = EgressPolicy().refusal(address)
    assert why is not None, f"{address} reaches 169.254.169.254 on a translating network"
    # A local-use NAT64 address may place its IPv4 part in several ways; each is judged.
    assert "169.254.169.254" in why or (address.startswith("64:ff9b:1:") and "169.254." in why), why


@pytest.mark.parametrize("address", [
    "::ffff:127.0.0.1", "::127.0.0.1", "64:ff9b::127.0.0.1", "2002:7f00:1::", "64:ff9b:1:0:7f:0:100:0",
])
def test_loopback_inside_ipv6_is_loopback(address: str):
    why = EgressPolicy().refusal(address)
    assert why is not None and "loopback" in why
    assert EgressPolicy(allow_loopback=True).refusal(address) is None


@pytest.mark.parametrize("address", ["64:ff9b::10.1.2.3", "::ffff:10.1.2.3", "2002:a01:203::7"])
def test_a_denied_network_is_denied_through_its_ipv6_embeddings(address: str):
    why = EgressPolicy(deny=("10.0.0.0/8",)).refusal(address)
    assert why is not None and "10.0.0.0/8" in why and "10.1.2.3" in why


def test_an_allow_list_of_ipv4_networks_admits_their_nat64_forms_and_nothing_else():
    policy = EgressPolicy(allow=("198.51.100.0/24",))
    assert policy.refusal("64:ff9b::198.51.100.7") is None
    assert policy.refusal("198.51.100.7") is None
    why = policy.refusal("64:ff9b::203.0.113.9")
    assert why is not None and "outside TICKMARK_WEBHOOK_ALLOW" in why


def test_a_denied_ipv6_prefix_stays_denied_though_what_it_embeds_is_public():
    assert EgressPolicy(deny=("64:ff9b::/96",)).refusal("64:ff9b::8.8.8.8") is not None


@pytest.mark.parametrize("address", ["64:ff9b::8.8.8.8", "64:ff9b:1::808:808", "2002:808:808::1", "::ffff:8.8.8.8",
                                     "2606:4700::1111"])
def test_public_destinations_pass(address: str):
    assert EgressPolicy().refusal(address) is None


def test_the_ipv6_loopback_and_unspecified_addresses_are_not_read_as_ipv4_compatible():
    assert "loopback" in (EgressPolicy().refusal("::1") or "")
    assert EgressPolicy(allow_loopback=True).refusal("::1") is None
    assert "::/128" in (EgressPolicy(allow_loopback=True).refusal("::") or "")


@pytest.mark.parametrize(("url", "said"), [
    ("http://example.com/\r\nX-Injected: 1", "control or space character"),
    ("http://example.com/a b", "control or space character"),
    ("http://exa\tmple.com/", "control or space character"),
    ("http://example.com:99999/", "malformed"),
    ("http://example.com:-1/", "malformed"),
    ("http://example.com:0/", "port"),
    ("http://[::1/", "malformed"),
    ("http://user:pw@example.com/", "credentials"),
    ("ftp://example.com/", "http:// or https://"),
    ("http://example.com/" + "a" * 3000, "at most 2048"),
])
def test_a_url_that_cannot_be_checked_as_written_is_refused_with_the_reason(url: str, said: str):
    with pytest.raises(TargetRefused) as refused:
        target_of(url)
    assert said in str(refused.value)


async def test_the_check_refuses_a_name_that_resolves_to_an_embedded_metadata_address():
    with pytest.raises(TargetRefused) as refused:
        await EgressPolicy().check("http://[64:ff9b::a9fe:a9fe]:8080/hook")
    assert "169.254.169.254" in str(refused.value)
