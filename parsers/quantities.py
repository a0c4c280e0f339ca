"""What a stored fact's ``metric`` id says, as one typed value, and the only place ids are written or read.

A fact's metric is a registry id (``revenue``), a room label (``label:<normalised label>``), or a
derived quantity of one of those: a printed growth rate (``growth:revenue``), a printed share of
total revenue (``share:cloud_revenue``), a ratio of two quantities (``ratio:operating_cash_flow/capex``).
The ids are what PostgreSQL indexes and what events carry; everything else handles ``Quantity``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

import msgspec

__all__ = ["Quantity", "QuantityKind", "growth_metric", "is_label", "label_id", "label_text", "quantity", "ratio_metric",
           "root_metric", "share_metric"]

QuantityKind = Literal["value", "growth", "share", "ratio"]

_GROWTH, _SHARE, _RATIO, _LABEL = "growth:", "share:", "ratio:", "label:"


class Quantity(msgspec.Struct, frozen=True):
    """One stored quantity: what is measured, and how it is derived from a base quantity."""

    kind: QuantityKind
    base: str
    """A registry id or ``label:...``: the quantity grown, shared, or divided."""
    denominator: str | None = None
    """For a ratio: the quantity divided by."""

    @property
    def id(self) -> str:
        if self.kind == "growth":
            return _GROWTH + self.base
        if self.kind == "share":
            return _SHARE + self.base
        if self.kind == "ratio":
            return f"{_RATIO}{self.base}/{self.denominator}"
        return self.base


@lru_cache(maxsize=8192)
def quantity(metric: str) -> Quantity:
    """The typed reading of a stored metric id."""
    if metric.startswith(_GROWTH):
        return Quantity("growth", metric[len(_GROWTH):])
    if metric.startswith(_SHARE):
        return Quantity("share", metric[len(_SHARE):])
    if metric.startswith(_RATIO) and "/" in metric:
        num, den = metric[len(_RATIO):].split("/", 1)
        return Quantity("ratio", num, den)
    return Quantity("value", metric)


def growth_metric(metric: str) -> str:
    """Metric id of a printed year-over-year growth rate of ``metric``."""
    return Quantity("growth", metric).id


def share_metric(metric: str) -> str:
    """Metric id of a printed share of total revenue held by ``metric``."""
    return Quantity("share", metric).id


def ratio_metric(numerator: str, denominator: str) -> str:
    """Metric id of a claimed ratio between two quantities ("OCF covered capex 1.3x")."""
    return Quantity("ratio", numerator, denominator).id


def root_metric(metric: str) -> str:
    """The base quantity a growth or share id is derived from; any other id unchanged."""
    q = quantity(metric)
    return q.base if q.kind in ("growth", "share") else metric


def label_id(normalised: str) -> str:
    """Metric id for a quantity outside the registry, named by its normalised label."""
    return _LABEL + normalised


def is_label(metric: str) -> bool:
    """True for a quantity outside the registry, named by a room's or deck's own label."""
    return metric.startswith(_LABEL)


def label_text(metric: str) -> str:
    """The label words of a ``label:`` id (or the id itself for a registry id)."""
    return metric[len(_LABEL):] if is_label(metric) else metric
