from django import template

from review.selectors.decisions import reason_label

register = template.Library()


@register.filter(name="reason_label")
def reason_label_filter(code) -> str:
    """``number_changed`` → "number change" (the words the review pages use)."""
    return reason_label(str(code or ""))
