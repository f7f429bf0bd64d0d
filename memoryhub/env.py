"""Typed readers for configuration from the environment.

Every reader raises ImproperlyConfigured on a value it cannot parse, so that a typo
("ture", "10O") stops the process instead of silently becoming a default.
A ``NAME_FILE`` variable, when set, is read instead of ``NAME`` (docker secrets).
"""

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envstr(name: str, default: str | None = None) -> str | None:
    file_path = os.environ.get(f"{name}_FILE")
    if file_path:
        try:
            with open(file_path, encoding="utf-8") as fh:
                return fh.read().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE={file_path!r} cannot be read: {exc}") from exc
    value = os.environ.get(name)
    return default if value is None else value


def envbool(name: str, default: bool) -> bool:
    value = envstr(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use true/false, 1/0, yes/no)")


def envint(name: str, default: int, *, minimum: int | None = None) -> int:
    value = envstr(name)
    if value is None or value.strip() == "":
        return default
    try:
        number = int(value.strip())
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from exc
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} must be at least {minimum}")
    return number


def envfloat(name: str, default: float) -> float:
    value = envstr(name)
    if value is None or value.strip() == "":
        return default
    try:
        return float(value.strip())
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number") from exc


def envlist(name: str, default: list[str]) -> list[str]:
    value = envstr(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def envchoice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = (envstr(name) or default).strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} is not one of: {', '.join(choices)}")
    return value
