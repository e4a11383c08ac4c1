"""The few SVG primitives the drawings share: numbers, escaping, the document.

Numbers are written with at most two decimals and no trailing zeros, so a
drawing's bytes depend on the game only, never on float noise.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\""


def num(value: float) -> str:
    """A coordinate as the drawing writes it: 12, 12.5, 12.33 (never -0)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def text(value: str) -> str:
    """Character data, escaped."""
    return escape(value)


def attr(value: str) -> str:
    """An attribute value, quoted and escaped."""
    return quoteattr(value)


def label(x: float, y: float, content: str, size: float = 12, anchor: str = "middle", extra: str = "") -> str:
    """A line of text centred (or anchored) at (x, y), its baseline a third of the size below."""
    return (
        f'<text x="{num(x)}" y="{num(y + size / 3)}" font-size="{num(size)}" text-anchor="{anchor}" {FONT}{extra}>'
        f"{text(content)}</text>"
    )


def document(width: float, height: float, body: list[str], title: str) -> str:
    """A whole SVG file: the XML declaration, a title for viewers and screen readers, a white background."""
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="{SVG_NS}" version="1.1" width="{num(width)}" height="{num(height)}" viewBox="0 0 {num(width)} {num(height)}">',
        f"<title>{text(title)}</title>",
        f'<rect x="0" y="0" width="{num(width)}" height="{num(height)}" fill="#ffffff"/>',
    ]
    return ascii_only("\n".join(head + body + ["</svg>", ""]))


def ascii_only(markup: str) -> str:
    """The markup with every non-ASCII character written as a character reference: the file is ASCII, so it
    reads the same whatever encoding a viewer assumes."""
    return markup.encode("ascii", "xmlcharrefreplace").decode("ascii")
