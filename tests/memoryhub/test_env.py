import pytest
from django.core.exceptions import ImproperlyConfigured

from memoryhub.env import envbool, envint, envlist, envstr


def test_it_reads_booleans(monkeypatch):
    for raw, expected in [("true", True), ("1", True), ("YES", True), ("off", False), ("0", False)]:
        monkeypatch.setenv("X_FLAG", raw)
        assert envbool("X_FLAG", not expected) is expected
    monkeypatch.delenv("X_FLAG")
    assert envbool("X_FLAG", True) is True


def test_a_typo_is_an_error_not_a_default(monkeypatch):
    monkeypatch.setenv("X_FLAG", "ture")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG='ture' is not a boolean"):
        envbool("X_FLAG", False)
    monkeypatch.setenv("X_NUM", "10O")
    with pytest.raises(ImproperlyConfigured, match="not an integer"):
        envint("X_NUM", 1)
    monkeypatch.setenv("X_NUM", "0")
    with pytest.raises(ImproperlyConfigured, match="at least 1"):
        envint("X_NUM", 1, minimum=1)


def test_it_reads_lists_and_files(monkeypatch, tmp_path):
    monkeypatch.setenv("X_LIST", "a, b,,c ")
    assert envlist("X_LIST", []) == ["a", "b", "c"]
    secret = tmp_path / "secret"
    secret.write_text("s3cret\n")
    monkeypatch.setenv("X_SECRET_FILE", str(secret))
    assert envstr("X_SECRET") == "s3cret"
    monkeypatch.setenv("X_SECRET_FILE", str(tmp_path / "missing"))
    with pytest.raises(ImproperlyConfigured, match="cannot be read"):
        envstr("X_SECRET")
