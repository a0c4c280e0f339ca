"""Where webhooks may be sent: every address the host resolves to must pass the policy.

Link-local addresses (which include the cloud metadata service at 169.254.169.254), the other
clouds' metadata addresses, unspecified and multicast addresses are always refused; loopback
only when allowed; an allow list, when given, must contain every resolved address.

An IPv6 address that carries an IPv4 address inside it (IPv4-mapped and -compatible, NAT64,
6to4, Teredo) reaches that IPv4 address on a network that translates it, so the policy judges
the IPv4 addresses it embeds, not the wrapper.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

import msgspec

__all__ = ["METADATA_ADDRESSES", "EgressPolicy", "TargetRefused", "embedded_ipv4", "target_of"]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

METADATA_ADDRESSES = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254",   # AWS, GCP, Azure IMDS, OpenStack, DigitalOcean
    "169.254.170.2",     # AWS ECS task metadata
    "fd00:ec2::254",     # AWS IMDS over IPv6
    "100.100.100.200",   # Alibaba Cloud
    "168.63.129.16",     # Azure wire server
    "192.0.0.192",       # Oracle Cloud
))
_ALWAYS_DENIED = tuple(ipaddress.ip_network(n) for n in (
    "169.254.0.0/16", "fe80::/10", "0.0.0.0/8", "::/128", "224.0.0.0/4", "ff00::/8", "255.255.255.255/32",
))

_NAT64_WELL_KNOWN = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
# RFC 6052 places the IPv4 address by prefix length, skipping bits 64-71; a local-use prefix
# inside 64:ff9b:1::/48 may be any of these lengths, so every placement is judged. A placement
# that lands in 0.0.0.0/8 reads the zero padding around the address, not a destination.
_RFC6052_OCTETS = ((12, 13, 14, 15), (9, 10, 11, 12), (7, 9, 10, 11), (6, 7, 9, 10))
_PADDING = ipaddress.ip_network("0.0.0.0/8")


def embedded_ipv4(ip: IPAddress) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address embeds (mapped, compatible, NAT64, 6to4, Teredo); none for others."""
    if isinstance(ip, ipaddress.IPv4Address):
        return []
    packed = ip.packed
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if ip in _NAT64_WELL_KNOWN:
        return [ipaddress.IPv4Address(packed[12:])]
    if ip in _NAT64_LOCAL:
        placed = [ipaddress.IPv4Address(bytes(packed[i] for i in octets)) for octets in _RFC6052_OCTETS]
        return [v4 for v4 in placed if v4 not in _PADDING] or placed[:1]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        server, client = ip.teredo
        return [server, client]
    # ::/128 and ::1 are the unspecified and loopback addresses themselves, not compatible forms.
    if ip in _IPV4_COMPATIBLE and int(ip) > 1:
        return [ipaddress.IPv4Address(packed[12:])]
    return []


class TargetRefused(ValueError):
    """The webhook URL points somewhere the policy forbids; the message says why."""


class EgressPolicy(msgspec.Struct, frozen=True):
    allow_loopback: bool = False
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()

    def refusal(self, address: str) -> str | None:
        """Why ``address`` is refused, or ``None`` when it may be contacted."""
        ip: IPAddress = ipaddress.ip_address(address.split("%", 1)[0])
        inner = embedded_ipv4(ip)
        if not inner:
            return self._judge(ip)
        for net in _nets(self.deny):
            if ip.version == net.version and ip in net:
                return f"{ip} is in the denied network {net}"
        for v4 in inner:
            if (why := self._judge(v4)) is not None:
                return f"{ip} embeds {v4}: {why}"
        return None

    def _judge(self, ip: IPAddress) -> str | None:
        if ip in METADATA_ADDRESSES:
            return f"{ip} is a cloud metadata address"
        for net in _ALWAYS_DENIED:
            if ip.version == net.version and ip in net:
                return f"{ip} is in {net}, which webhooks may never reach"
        if ip.is_loopback and not self.allow_loopback:
            return f"{ip} is a loopback address (TICKMARK_WEBHOOK_ALLOW_LOOPBACK is off)"
        for net in _nets(self.deny):
            if ip.version == net.version and ip in net:
                return f"{ip} is in the denied network {net}"
        allow = _nets(self.allow)
        if allow and not any(ip.version == n.version and ip in n for n in allow):
            return f"{ip} is outside TICKMARK_WEBHOOK_ALLOW"
        return None

    async def check(self, url: str) -> list[str]:
        """Resolve the URL's host and check every address; returns them, or raises TargetRefused."""
        parts, port = target_of(url)
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError) as exc:
            raise TargetRefused(f"cannot resolve {parts.hostname}: {exc}") from None
        addresses = sorted({str(info[4][0]) for info in infos})
        if not addresses:
            raise TargetRefused(f"{parts.hostname} resolves to no address")
        for address in addresses:
            if (why := self.refusal(address)) is not None:
                raise TargetRefused(f"{parts.hostname} resolves to {why}")
        return addresses


_MAX_URL = 2048


def target_of(url: str) -> tuple[SplitResult, int]:
    """The URL's parts and port, or TargetRefused saying what makes it unusable as a webhook."""
    if len(url) > _MAX_URL:
        raise TargetRefused(f"the webhook URL is {len(url)} characters; at most {_MAX_URL}")
    # urlsplit silently drops tabs and newlines, so a URL carrying them would be checked as one
    # thing and stored as another.
    if bad := next((c for c in url if ord(c) < 0x21 or ord(c) == 0x7F), None):
        raise TargetRefused(f"the webhook URL contains the control or space character {bad!r}")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise TargetRefused(f"the webhook URL is malformed: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetRefused("the webhook URL must be http:// or https:// with a host")
    if parts.username or parts.password:
        raise TargetRefused("the webhook URL must not carry credentials; sign with the secret instead")
    if port == 0:
        raise TargetRefused("the webhook URL's port must be 1-65535")
    return parts, port or (443 if parts.scheme == "https" else 80)


def _nets(specs: tuple[str, ...]) -> list[IPNetwork]:
    return [ipaddress.ip_network(s, strict=False) for s in specs]
