"""Fixtures for the web page's browser tests: one Chromium per module, a server per test."""

from __future__ import annotations

import pytest
from page_support import launch_chromium, watched_page
from support import http_server


@pytest.fixture(scope="module")
def browser():
    with launch_chromium() as chromium:
        yield chromium


@pytest.fixture
def site(workspace):
    with http_server(workspace) as base:
        yield base


@pytest.fixture
def page(browser, site):
    with watched_page(browser) as p:
        yield p


@pytest.fixture
def settled(monkeypatch):
    """Files count as settled at once (outside tests: 3 seconds after their last write, see
    FileState.settled): what the caches keep for other processes is kept at once."""
    from limpet.server.store import _paths

    monkeypatch.setattr(_paths, "RACY_NS", 0)
