"""Names and texts made safe for each format voyage writes, one function per format.

A name is the referee's (a ship, a port, a campaign, a person), and every output that
carries one is read by someone else: players open the journal in a browser, a spreadsheet
opens the CSV. So whatever a name holds - Markdown links and images, HTML, a spreadsheet
formula, control characters or a right-to-left override from a file edited by hand - it
reaches the reader as the letters it is, never as markup, a formula or reordered text:

- Markdown (:func:`md_text`): every character Markdown or GitHub's dialect reads as
  markup is backslash-escaped, and the bare addresses GitHub turns into links
  ("https://...", "www.", "a@b.example") are broken by an escape that reads the same;
  :func:`md_code` makes a code span, and :func:`md_with_code` keeps the `commands` voyage's
  own messages quote as code spans, which show any name in them as its letters;
- HTML (:func:`html_text`): ``&``, ``<``, ``>`` and quotes as entities;
- CSV (:func:`csv_cell`): a cell a spreadsheet would read as a formula (it starts with
  ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) gets a leading apostrophe, as
  OWASP's CSV injection advice recommends;
- pictures (:func:`plain_pictures`): matplotlib draws each text as its letters, never as
  TeX between dollar signs;
- JSON (:func:`json_text`): the encoder (voyage.base.jsontext) quotes every string, and
  the characters it would leave raw that no name may hold (DEL and the C1 controls, line
  separators, bidirectional overrides) are written as ``\\uXXXX``: the same value, read
  back, but no raw control in the file.

In Markdown, HTML and CSV, characters a one-line name may not hold (voyage.base.text: control
characters, line separators, bidirectional overrides) are shown as U+FFFD, so an old or
hand-edited campaign cannot break a line or turn the text around.
"""

from __future__ import annotations

import html
import re
from typing import Any

from voyage.base.jsontext import dumps_indented

#: What stands in for a character no name may hold.
REPLACEMENT = "\ufffd"
# Escaped everywhere: emphasis, code, links, HTML, tables, headings, entities (&amp;),
# and GitHub's ~~strikethrough~~.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#&~!])")
# GitHub links bare addresses: "https://host", "www.host", "someone@host". An escaped ":",
# "." or "@" reads the same and is no longer an address.
_MD_AUTOLINK = re.compile(r"(?<=[A-Za-z0-9]):(?=//)|(?<=\bwww)\.|@(?=\w)", re.I)
#: The first characters of a CSV cell a spreadsheet evaluates (OWASP: CSV injection).
CSV_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


# Every character voyage.base.text.control_character refuses in a name: the Cc controls
# (C0, DEL, C1), the line and paragraph separators, surrogates and the bidirectional
# overrides and isolates; one expression, so a long export is scanned at C speed.
_RAW_IN_JSON = "\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_REFUSED = re.compile(f"[\x00-\x1f{_RAW_IN_JSON}]")
# What json leaves raw in its strings (it escapes the C0 controls itself, and its own
# newlines and indents are structure, not text)
_JSON_RAW = re.compile(f"[{_RAW_IN_JSON}]")


def visible(text: Any) -> str:
    """``text`` on one line: runs of whitespace one space, and each character a name may
    not hold (control characters, bidirectional overrides) replaced by U+FFFD."""
    words = " ".join(str(text).split())
    return words if _REFUSED.search(words) is None else _REFUSED.sub(REPLACEMENT, words)


def md_text(text: Any) -> str:
    """Plain text made safe for Markdown: no markup, no HTML, no links, no table breaks."""
    return _md_escaped(visible(text))


def _md_escaped(words: str) -> str:
    escaped = _MD_SPECIAL.sub(r"\\\1", words)
    if "://" not in escaped and "www." not in escaped.lower() and "@" not in escaped:
        return escaped  # no address to break: most of a long log's lines
    return _MD_AUTOLINK.sub(lambda m: "\\" + m.group(0), escaped)


def md_with_code(text: Any) -> str:
    """Text whose `backticked` parts are code spans (the commands voyage's own messages
    tell the referee to type), every other part :func:`md_text`. A code span shows its
    letters as they are, so whatever name stands in one, it stays plain; an unpaired
    backtick is shown as one."""
    parts = visible(text).split("`")
    if len(parts) % 2 == 0:  # an odd backtick: the last part is words, not code
        parts[-2:] = [parts[-2] + "`" + parts[-1]]
    return "".join(
        (md_code(part) if part.strip() else "") if n % 2 else _md_escaped(part)
        for n, part in enumerate(parts)
    )


def md_code(text: str) -> str:
    """Text as an inline code span (a roll line), whatever backticks it holds."""
    text = visible(text)
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def html_text(text: Any) -> str:
    """Plain text made safe for HTML, in an element or a quoted attribute."""
    return html.escape(visible(text), quote=True)


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as written: text on one line (:func:`visible`), with a
    leading apostrophe when it starts like a formula; numbers, and None, as they are."""
    if not isinstance(value, str):
        return value
    text = visible(value)
    return "'" + text if text.startswith(CSV_FORMULA_STARTS) else text


def json_text(value: Any) -> str:
    """``value`` as indented JSON text (UTF-8 letters as they are), every character no name
    may hold written as a ``\\uXXXX`` escape."""
    text = dumps_indented(value)  # outside its strings JSON is ASCII
    if (text.isascii() and "\x7f" not in text) or _JSON_RAW.search(text) is None:
        return text  # ASCII is checked far faster than any expression scans
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def plain_pictures(matplotlib: Any) -> None:
    """Have ``matplotlib`` (the module, imported by the picture's code) draw every text as
    the letters it holds: by default a name between dollar signs ("$x$") is read as TeX,
    and a broken one ("$\\frac{$") stops the picture."""
    matplotlib.rcParams["text.parse_math"] = False
