def htmx_partial(request) -> bool:
    """True when the request wants a fragment (htmx, but not a boosted navigation)."""
    return bool(request.htmx and not request.htmx.boosted)
