"""Fixtures for the desktop app: the real window on the bundled models, shut down cleanly after each test."""
from __future__ import annotations

import os
from datetime import date

import pytest

# qapp is session-scoped, so it exists before the per-test environment of tests/conftest.py is set.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from app.clock import Clock
from memory.records import Memory
from ui.i18n import set_language
from ui.style import apply_style

TODAY = date(2026, 11, 29)
OPEN_TIMEOUT_MS = 240_000  # the first test assembles the embedding model
MODEL_TIMEOUT_MS = 120_000


@pytest.fixture
def styled(qapp):
    """The application with Companion's look, in English."""
    apply_style(qapp)
    set_language("en")
    return qapp


@pytest.fixture
def make_window(qtbot, styled, companion_env):
    """Builds the real MainWindow on this test's profile; every window is shut down after the test."""
    from ui.main_window import MainWindow
    windows = []

    def make(open_profile: bool = True, wait_model: bool = True, **kwargs) -> MainWindow:
        window = MainWindow(companion_env, Clock(TODAY), **kwargs)
        qtbot.addWidget(window, before_close_func=lambda w: w.shutdown())
        window.show()
        windows.append(window)
        if open_profile:
            with qtbot.waitSignal(window.opened, timeout=OPEN_TIMEOUT_MS):
                window.open_profile()
            if wait_model:
                qtbot.waitUntil(lambda: bool(window.model_name), timeout=MODEL_TIMEOUT_MS)
        return window

    yield make
    for window in windows:
        window.shutdown()


@pytest.fixture
def window(make_window):
    """An opened window with the chat model loaded."""
    return make_window()


def sample_memories() -> list[Memory]:
    """A few memories of every kind, oldest first, for model and rendering tests."""
    return [
        Memory("m_1", "profile", "Prefers to be called Ada", source="explicit", confidence=1.0, importance=0.9,
               quote="call me Ada", created_at="2026-11-01T10:00:00", pinned=True),
        Memory("m_2", "preference", "Likes the show Friends (since 2026-10-05)", importance=0.5,
               quote="I love Friends", created_at="2026-11-02T10:00:00", last_used_at="2026-11-20T09:00:00"),
        Memory("m_3", "event", "Math exam on 2026-11-30", event_date="2026-11-30", importance=0.8,
               created_at="2026-11-03T10:00:00"),
        Memory("m_4", "preference", "Used to like coffee", status="superseded", superseded_by="m_5",
               created_at="2026-11-04T10:00:00"),
        Memory("m_5", "preference", "No longer drinks coffee (since 2026-11-20)", created_at="2026-11-20T10:00:00",
               disabled=True),
    ]
