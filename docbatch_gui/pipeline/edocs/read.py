"""Which reader a file of data needs, and the file read: an XML (УПД, CII, UBL), an
ЭДО package (a zip of such XML with its signatures), or a PDF with an invoice inside
(Factur-X, ZUGFeRD, XRechnung)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from docbatch_gui.pipeline.archives import ZipLimits, open_zip, read_member
from docbatch_gui.pipeline.edocs import DataDocument
from docbatch_gui.pipeline.edocs.cii import is_cii, is_ubl, read_cii, read_ubl
from docbatch_gui.pipeline.edocs.embedded import has_embedded_invoice
from docbatch_gui.pipeline.edocs.upd import is_upd, read_upd
from docbatch_gui.pipeline.edocs.xmlsafe import MAX_XML_BYTES, XmlRefused, local, parse_bounded

#: an ЭДО package's signatures and receipts: kept beside the job, not verified
KEPT_SUFFIXES = (".sig", ".sgn", ".p7s", ".bin")


@dataclass
class DataReading:
    documents: list[DataDocument] = field(default_factory=list)
    #: files kept beside the job as they came (signatures, the buyer's title)
    kept: list[tuple[str, bytes]] = field(default_factory=list)


def read_xml(data: bytes, name: str) -> DataDocument:
    root = parse_bounded(data, name)
    if is_upd(root):
        return read_upd(root, name)
    if is_cii(root):
        return read_cii(root, name)
    if is_ubl(root):
        return read_ubl(root, name)
    namespace = etree.QName(root).namespace
    shown = local(root.tag) + (f" in {namespace}" if namespace else "")
    raise XmlRefused.coded("xml_unknown", {"file": name, "root": shown})


def read_package(data: bytes, name: str, limits: ZipLimits | None = None) -> DataReading:
    """Every XML of the archive as a document; signatures and buyer's titles kept."""
    archive = open_zip(data, name, limits or ZipLimits())
    reading = DataReading()
    with archive:
        for member in archive.infolist():
            if member.is_dir():
                continue
            base = member.filename.rsplit("/", 1)[-1]
            lower = base.lower()
            if lower.endswith(KEPT_SUFFIXES) or lower.startswith("on_nschfdoppok"):
                reading.kept.append((base, read_member(archive, member, name, MAX_XML_BYTES)))
            elif lower.endswith(".xml"):
                content = read_member(archive, member, name, MAX_XML_BYTES)
                document = read_xml(content, f"{name}: {base}")
                reading.documents.append(_from(document, base))
    if not reading.documents:
        raise XmlRefused.coded("edo_no_documents", {"file": name})
    return reading


def _from(document: DataDocument, member: str) -> DataDocument:
    return DataDocument(document.doc_type, document.fields, document.lines, document.source, member)


def read_facturx(data: bytes, name: str) -> DataDocument:
    """The invoice embedded in a PDF, with the ``factur-x`` library."""
    # deferred: factur-x (pypdf), 0.38 s to import
    from facturx import get_xml_from_pdf  # imports pypdf: only for such a PDF

    try:
        embedded, xml = get_xml_from_pdf(data, check_xsd=False)
    except Exception as exc:  # the library raises what pypdf raises on a damaged PDF
        raise XmlRefused.coded("facturx_unreadable", {"file": name, "error": str(exc)}) from None
    if not xml:
        raise XmlRefused.coded("facturx_none", {"file": name})
    document = read_xml(xml, f"{name}: {embedded}")
    kind = "Factur-X" if "factur" in str(embedded).lower() else "ZUGFeRD / XRechnung"
    return DataDocument(
        document.doc_type, document.fields, document.lines, f"{kind} ({document.source})"
    )


def read_data_file(path: Path, name: str) -> DataReading:
    """The documents of a file that is data; raises UnsupportedInput in one line."""
    data = path.read_bytes()
    suffix = Path(name).suffix.lower()
    if suffix == ".zip":
        return read_package(data, name)
    if suffix == ".pdf":
        return DataReading([read_facturx(data, name)])
    return DataReading([read_xml(data, name)])


def is_data_file(path: Path) -> bool:
    """Read from data rather than pictures: XML, an ЭДО zip, or a PDF with an invoice."""
    suffix = path.suffix.lower()
    if suffix in (".xml", ".zip"):
        return True
    return suffix == ".pdf" and has_embedded_invoice(path)  # from its bytes: no MuPDF here
