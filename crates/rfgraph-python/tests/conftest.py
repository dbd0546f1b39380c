"""Shared paths for the rfgraph package's tests."""

import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture
def repo():
    """The repository's root (examples, README)."""
    return REPO
