"""Fixtures for the rules-language tests."""

from __future__ import annotations

import pytest
from dsl_helpers import make_registry

from dsl import Registry, load_rules


@pytest.fixture
def reg() -> Registry:
    return make_registry()


@pytest.fixture
def load(reg: Registry):  # type: ignore[no-untyped-def]
    def _load(text: str, name: str = "test.rules", **kw):  # type: ignore[no-untyped-def]
        return load_rules([(name, text)], reg, **kw)

    return _load
