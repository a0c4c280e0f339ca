"""XBRL instance documents (XML): numeric facts with their contexts, read with a hardened parser."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from lxml import etree

from parsers.filings.assemble import main_periods
from parsers.filings.ixbrl import XbrlFact, contexts_from, fact_from, units_from
from parsers.filings.sections import SectionTree
from parsers.model import DocumentInfo, ParsedDocument
from parsers.periods import parse_fye

__all__ = ["parse_xbrl", "safe_xml_parser"]

_XBRLI = "{http://www.xbrl.org/2003/instance}"


def safe_xml_parser() -> etree.XMLParser:
    """No entity expansion, no network, no huge trees: billion-laughs and XXE come back as errors."""
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                           remove_comments=True, remove_pis=True)


def parse_xbrl(data: bytes) -> ParsedDocument:
    """Facts of an XBRL instance; it has no tables or prose, so sections and passages are empty."""
    root = etree.fromstring(data, safe_xml_parser())
    contexts = contexts_from(root.iter(f"{_XBRLI}context"))
    units = units_from(root.iter(f"{_XBRLI}unit"))
    dei: dict[str, str] = {}
    xfacts: list[XbrlFact] = []
    for el in root:
        tag = el.tag
        if not isinstance(tag, str) or tag.startswith(_XBRLI) or "linkbase" in tag:
            continue
        ctx = el.get("contextRef")
        if not ctx:
            continue
        ns, _, name = tag[1:].partition("}")
        prefix = el.prefix or ns.rsplit("/", 2)[-2]
        concept = f"{prefix}:{name}"
        text = (el.text or "").strip()
        if prefix == "dei":
            dei.setdefault(concept, text)
            continue
        unit = el.get("unitRef")
        if not unit or not text:
            continue
        try:
            value = Decimal(text)
        except InvalidOperation:
            continue
        decimals = el.get("decimals")
        scale = -int(decimals) if decimals and decimals.lstrip("-").isdigit() and int(decimals) < 0 else 0
        xfacts.append(XbrlFact(concept, ctx, units.get(unit), value, scale, decimals, text, el.get("id")))
    fye = parse_fye(dei.get("dei:CurrentFiscalYearEndDate"))
    entity = dei.get("dei:EntityRegistrantName", "")
    facts = []
    for x in xfacts:
        c = contexts.get(x.context)
        if c is not None:
            f = fact_from(x, c, entity, fye)
            if f is not None:
                facts.append(f)
    tree = SectionTree()
    info = DocumentInfo(format="xbrl", entity=entity or None, form=dei.get("dei:DocumentType"),
                        fiscal_year_end=f"--{fye[0]:02d}-{fye[1]:02d}" if fye else None,
                        periods=main_periods(facts), ticker=dei.get("dei:TradingSymbol"))
    return ParsedDocument(document=info, sections=tree.finish(), tables=[], facts=facts, passages=[])


