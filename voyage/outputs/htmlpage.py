"""One self-contained HTML page from Markdown: rendered by cmark-gfm (GitHub's own
CommonMark renderer, through cmarkgfm) with its tables, pictures embedded as data: URIs, so
the file can be mailed or posted alone. cmarkgfm is imported only when a page is rendered.

cmark-gfm renders in C: a 1,000-day voyage's log (330 KB of Markdown) in under a hundredth of
a second, where the Python parser it replaces took a fifth. Raw HTML in the Markdown is left
out of the page (cmark's safe default; voyage escapes every name, so its only raw HTML is
the ``<details>`` of folded rolls) and nothing it writes is read as markup."""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import unquote

from voyage.base.escape import html_text

STYLE = """
body { font-family: Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto;
       padding: 0 1em; line-height: 1.5; color: #1b1b1b; background: #fbf8f1; }
h1, h2, h3 { font-family: 'Trebuchet MS', sans-serif; color: #173a5e; }
table { border-collapse: collapse; } td, th { border: 1px solid #c9c1ad; padding: .2em .5em; }
code { font-size: .85em; background: #efe9da; padding: 0 .2em; }
img { max-width: 100%; height: auto; }
"""
_IMAGE = re.compile(r'<img src="([^"]+)"')


def markdown_to_html(
    markdown: str, title: str, base: Path | None = None, staged: Mapping[Path, Path] | None = None
) -> str:
    """A whole HTML document; local pictures (relative to ``base``) embedded as data URIs.
    ``staged``: pictures not yet in place (absolute path -> the file holding it now, as
    voyage.base.atomicfile.FileBatch.where says)."""
    import cmarkgfm

    body = cmarkgfm.markdown_to_html_with_extensions(markdown, extensions=["table"])
    if base is not None:
        body = _IMAGE.sub(lambda m: f'<img src="{_embedded(m.group(1), base, staged or {})}"', body)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html_text(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body>\n{body}</body>\n</html>\n"
    )


def _embedded(src: str, base: Path, staged: Mapping[Path, Path]) -> str:
    """``src`` as a data: URI when it names a PNG beside the page, else as it was."""
    path = base / unquote(src)
    if src.startswith(("data:", "http:", "https:")) or path.suffix.lower() != ".png":
        return src
    path = staged.get(Path(os.path.abspath(path)), path)
    if not path.is_file():
        return src
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")
