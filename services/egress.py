"""Where webhooks may be sent: every address the host resolves to must pass the policy.

Link-local addresses (which include the cloud metadata service at 169.254.169.254), the other
clouds' metadata addresses, unspecified and multicast addresses are always refused; loopback
only when allowed; an allow list, when given, must contain every resolved address.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

import msgspec

__all__ = ["METADATA_ADDRESSES", "EgressPolicy", "TargetRefused"]

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


class TargetRefused(ValueError):
    """The webhook URL points somewhere the policy forbids; the message says why."""


class EgressPolicy(msgspec.Struct, frozen=True):
    allow_loopback: bool = False
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()

    def refusal(self, address: str) -> str | None:
        """Why ``address`` is refused, or ``None`` when it may be contacted."""
        ip: IPAddress = ipaddress.ip_address(address.split("%", 1)[0])
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
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
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise TargetRefused("the webhook URL must be http:// or https:// with a host")
        if parts.username or parts.password:
            raise TargetRefused("the webhook URL must not carry credentials; sign with the secret instead")
        port = parts.port or (443 if parts.scheme == "https" else 80)
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


def _nets(specs: tuple[str, ...]) -> list[IPNetwork]:
    return [ipaddress.ip_network(s, strict=False) for s in specs]
