"""Untrusted text made safe for a page. Memory content is written by agents (and, through
them, by whoever talks to the agents): markdown is rendered, then every tag and attribute
outside a short allow-list is dropped (nh3), so a ``<script>`` or an ``onerror=`` in a
section renders inert."""

import markdown as _markdown
import nh3

ALLOWED_TAGS = {
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "del",
    "em",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "li",
    "ol",
    "p",
    "pre",
    "strong",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "td": {"align"}, "th": {"align"}}


def render_markdown(text: str) -> str:
    """Sanitised HTML of a markdown text (raw HTML in it is escaped or dropped)."""
    html = _markdown.markdown(text or "", extensions=["tables", "fenced_code", "sane_lists"])
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
