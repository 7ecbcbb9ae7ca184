"""The Markdown export says a memory's state in the app's words ('off', 'replaced'), not internal field names."""
from __future__ import annotations

from app.clock import Clock
from app.companion import Companion
from app.portability import export_markdown
from memory.records import Memory
from memory.storage import new_id


def test_markdown_export_says_off_and_replaced(companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    try:
        c.store.add(Memory(new_id(), "preference", "Drinks green tea in the morning", disabled=True))
        old = c.store.add(Memory(new_id(), "preference", "Likes strong coffee"))
        c.store.supersede(old.id, Memory(new_id(), "preference", "Stopped drinking coffee"), "said the opposite")
        page = export_markdown(c.store)
    finally:
        c.close()
    assert "- Drinks green tea in the morning (off)" in page
    assert "~~Likes strong coffee~~ (replaced)" in page
    assert "disabled" not in page and "superseded" not in page
