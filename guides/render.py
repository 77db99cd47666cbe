"""A guide's Markdown turned into the HTML of its page, with the maintained `markdown` library.

- Raw HTML in the files is escaped, never passed through (the files are ours, but a page of the
  site must not carry markup nobody reviewed as markup).
- Tables (the extension) sit in a box that scrolls sideways on a phone; headings get ids (the toc
  extension, Unicode kept, so Russian headings have ids too and the in-page links work).
- Links: to another served guide → its /help/ page (anchor kept); to a place in the same page →
  kept; to the web (http, https, mailto) → kept; to any other file of the repository (code, the
  rules, the operators' and developers' guides) → the link's words with the file's path in the
  repository as plain text, since the site does not serve it; anything else (javascript:, data:) →
  the words alone. Images that are not on the web become their alt text.

The result is kept in memory per file and its modification time: the files change on deploy only,
and a page then costs no more than a template.
"""

from __future__ import annotations

import functools
import html as html_lib
import posixpath
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import markdown
from django.conf import settings
from django.urls import reverse
from markdown.extensions.toc import slugify_unicode
from markdown.treeprocessors import Treeprocessor

from guides.catalogue import guide_of

WEB_SCHEMES = {"http", "https", "mailto"}


@dataclass(frozen=True)
class Rendered:
    title: str  # the text of the file's first-level heading
    contents: tuple[tuple[str, str], ...]  # (id, text) of each second-level heading
    html: str  # the body, the first-level heading taken out (the page shows it)


def render(path: Path) -> Rendered:
    return _render(str(path), path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=32)
def _render(path: str, mtime_ns: int) -> Rendered:
    source = Path(path)
    md = markdown.Markdown(
        extensions=["tables", "toc", "sane_lists"],
        extension_configs={"toc": {"slugify": slugify_unicode, "permalink": False}},
        output_format="html",
    )
    # No raw HTML: blocks and inline tags are escaped as text.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    processor = _Rewrite(md, source)
    md.treeprocessors.register(processor, "guides_rewrite", 1)  # after toc (5): the ids are set
    html = md.convert(source.read_text(encoding="utf-8"))
    # The toc's names are HTML already; the template escapes them again, so they go as plain text.
    contents = tuple((t["id"], html_lib.unescape(t["name"])) for t in _flatten(md.toc_tokens) if t["level"] == 2)
    return Rendered(title=processor.title, contents=contents, html=html)


def _flatten(tokens):
    for token in tokens:
        yield token
        yield from _flatten(token["children"])


class _Rewrite(Treeprocessor):
    def __init__(self, md, source: Path):
        super().__init__(md)
        self.source = source
        self.title = ""

    def run(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            for child in list(parent):
                if child.tag == "h1" and not self.title and parent is root:
                    self.title = "".join(child.itertext()).strip()
                    _remove(parent, child)
                elif child.tag == "table":
                    child.set("class", "table guide-table")
                    index = list(parent).index(child)
                    box = etree.Element("div", {"class": "scroll"})
                    box.tail, child.tail = child.tail, None
                    parent.remove(child)
                    box.append(child)
                    parent.insert(index, box)
        for element in list(root.iter("a")):
            self._link(element)
        for parent in list(root.iter()):
            for child in list(parent):
                if child.tag == "img" and urlsplit(child.get("src", "")).scheme not in WEB_SCHEMES:
                    _replace_with_text(parent, child, child.get("alt", ""))

    def _link(self, a: etree.Element) -> None:
        href = a.get("href", "")
        parts = urlsplit(href)
        if parts.scheme in WEB_SCHEMES:
            return
        if parts.scheme or parts.netloc:  # javascript:, data:, //elsewhere: the words alone
            _unlink(a)
            return
        if not parts.path:  # #a-heading of this page
            return
        target = (self.source.parent / parts.path).resolve()
        guide = guide_of(target)
        if guide is not None:
            url = reverse("guides:guide", kwargs={"slug": guide.slug})
            a.set("href", url + (f"#{parts.fragment}" if parts.fragment else ""))
            return
        _unlink(a, _repository_path(target))


def _repository_path(target: Path) -> str | None:
    root = Path(settings.BASE_DIR).resolve()
    try:
        return posixpath.join(*target.relative_to(root).parts)
    except ValueError:
        return None


def _unlink(a: etree.Element, path: str | None = None) -> None:
    """The link's words as plain text, followed by the repository path in parentheses if given."""
    a.tag = "span"
    a.attrib.clear()
    if path and path != "".join(a.itertext()).strip().strip("`"):
        code = etree.SubElement(a, "code")
        code.text = path
        if len(a) > 1:
            a[-2].tail = (a[-2].tail or "") + " ("
        else:
            a.text = (a.text or "") + " ("
        code.tail = ")"


def _remove(parent: etree.Element, child: etree.Element) -> None:
    _replace_with_text(parent, child, "")


def _replace_with_text(parent: etree.Element, child: etree.Element, text: str) -> None:
    """Take the element out, keeping its tail (and the given text) in the flow."""
    index = list(parent).index(child)
    extra = text + (child.tail or "")
    parent.remove(child)
    if index == 0:
        parent.text = (parent.text or "") + extra
    else:
        previous = parent[index - 1]
        previous.tail = (previous.tail or "") + extra
