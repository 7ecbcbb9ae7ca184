"""Searching the memory panel ranks by the chat's hybrid score and hides what falls below its relevance floor."""
from __future__ import annotations

import pytest

from memory.records import Memory
from memory.storage import new_id
from ui.memory_model import FIELDS

MEMORIES = [
    ("profile", "Works as a nurse at the children's hospital"),
    ("relationship", "Has a dog called Biscuit"),
    ("preference", "Likes the show Friends"),
    ("event", "Driving test on 2026-12-04"),
    ("profile", "住在上海"),
    ("preference", "喜欢喝乌龙茶"),
    ("relationship", "妹妹叫小美"),
    ("feedback", "Does not want to be called 'sweetie'"),
    ("preference", "Goes running on Sunday mornings"),
]


def _rows(panel) -> list[str]:
    proxy = panel.proxy
    return [proxy.index(r, FIELDS.index("content")).data() for r in range(proxy.rowCount())]


@pytest.fixture
def panel(make_window, qtbot):
    window = make_window(wait_model=False)
    window.memory_action.trigger()
    store = window.desk.c.store
    with store.db.transaction():
        for category, content in MEMORIES:
            store.add(Memory(new_id(), category, content))
    window.panel.refresh()
    qtbot.waitUntil(lambda: window.panel.model.rowCount() == len(MEMORIES), timeout=10_000)
    return window.panel


def _search(panel, qtbot, text: str) -> list[str]:
    panel.search.setText(text)
    qtbot.waitUntil(lambda: panel.proxy.scores is not None and not panel.worker.busy
                    and not panel._search_timer.isActive(), timeout=20_000)
    return _rows(panel)


@pytest.mark.parametrize("query, best", [
    ("Biscuit", "Has a dog called Biscuit"),
    ("上海", "住在上海"),
    ("dog", "Has a dog called Biscuit"),
    ("nurse", "Works as a nurse at the children's hospital"),
    ("乌龙茶", "喜欢喝乌龙茶"),
])
def test_search_puts_the_best_hit_first_and_hides_the_rest(panel, qtbot, query, best):
    normal = _rows(panel)
    _search(panel, qtbot, "Biscuit")  # a search before: the second one must rank again, not keep this order
    rows = _search(panel, qtbot, query)
    assert rows[0] == best
    assert 1 <= len(rows) <= 3, rows
    assert panel.count.text() == f"{len(rows)} of {len(MEMORIES)}"
    panel.search.clear()
    qtbot.waitUntil(lambda: panel.proxy.scores is None and not panel._search_timer.isActive(), timeout=5_000)
    assert _rows(panel) == normal
    assert panel.count.text() == f"{len(MEMORIES)} of {len(MEMORIES)}"


def test_search_in_the_chinese_ui_ranks_the_same(panel, qtbot):
    from ui.i18n import set_language
    set_language("zh_CN")
    try:
        panel.retranslate()
        rows = _search(panel, qtbot, "上海")
        assert rows[0] == "住在上海" and len(rows) < len(MEMORIES)
        assert str(len(rows)) in panel.count.text() and str(len(MEMORIES)) in panel.count.text()
    finally:
        set_language("en")
