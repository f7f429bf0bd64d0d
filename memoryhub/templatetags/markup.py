from django import template
from django.utils.safestring import mark_safe

from memoryhub.markup import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text) -> str:
    """``{{ section.content|markdown }}``: rendered and sanitised (``memoryhub.markup``)."""
    return mark_safe(render_markdown(str(text or "")))  # noqa: S308 - sanitised by nh3
