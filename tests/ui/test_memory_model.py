"""The memory panel's item models: Qt's model tester, filtering, ranking, in-place refresh, inline edits."""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPersistentModelIndex, Qt

from tests.ui.conftest import sample_memories
from ui.memory_model import CHECK_COLUMNS, CONTENT, FIELDS, ID_ROLE, MemoryFilterProxy, MemoryTableModel


def _model(memories=None) -> MemoryTableModel:
    model = MemoryTableModel()
    model.set_memories(sample_memories() if memories is None else memories)
    return model


def _proxy(model) -> MemoryFilterProxy:
    proxy = MemoryFilterProxy()
    proxy.setSourceModel(model)
    return proxy


def _ids(proxy) -> list[str]:
    return [proxy.index(r, 0).data(ID_ROLE) for r in range(proxy.rowCount())]


def test_table_model_passes_qt_model_tester(qtmodeltester, styled):
    model = _model()
    qtmodeltester.check(model, force_py=True)
    qtmodeltester.check(_proxy(model), force_py=True)


def test_model_tester_also_passes_while_rows_change(qtmodeltester, styled):
    model = _model([])
    qtmodeltester.check(model, force_py=True)
    model.set_memories(sample_memories())
    model.set_memories(sample_memories()[1:])
    model.set_memories([replace(m, content=m.content + "!") for m in sample_memories()])


def test_newest_memory_is_on_top_and_refresh_keeps_rows_in_place(styled):
    model = _model()
    assert model.memory_at(0).id == "m_5"
    kept = QPersistentModelIndex(model.index(model.row_of("m_2"), CONTENT))
    memories = sample_memories()
    memories[1] = replace(memories[1], content="Loves the show Friends")
    memories.append(replace(memories[0], id="m_6", content="Lives in Lyon", pinned=False))
    model.set_memories(memories)
    assert model.memory_at(0).id == "m_6"
    assert kept.isValid() and kept.data() == "Loves the show Friends"
    model.set_memories([m for m in memories if m.id != "m_6"])
    assert model.row_of("m_6") == -1 and kept.data() == "Loves the show Friends"


def test_proxy_filters_by_status_and_category(styled):
    proxy = _proxy(_model())
    assert set(_ids(proxy)) == {"m_1", "m_2", "m_3", "m_5"}
    proxy.set_status("superseded")
    assert _ids(proxy) == ["m_4"]
    proxy.set_status("all")
    proxy.set_category("preference")
    assert set(_ids(proxy)) == {"m_2", "m_4", "m_5"}


def test_search_scores_filter_and_rank_best_first(styled):
    proxy = _proxy(_model())
    proxy.set_scores({"m_3": 0.4, "m_1": 0.9})
    assert _ids(proxy) == ["m_1", "m_3"]
    proxy.set_scores(None)
    assert len(_ids(proxy)) == 4


def test_inline_edit_and_checkbox_ask_the_database_through_a_signal(qtbot, styled):
    model = _model()
    row = model.row_of("m_2")
    with qtbot.waitSignal(model.changeRequested) as blocker:
        assert model.setData(model.index(row, CONTENT), "  Likes   the show Seinfeld ")
    assert blocker.args == ["m_2", {"content": "Likes the show Seinfeld"}]
    assert model.index(row, CONTENT).data() == "Likes the show Seinfeld"
    pinned = next(c for c, name in CHECK_COLUMNS.items() if name == "pinned")
    with qtbot.waitSignal(model.changeRequested) as blocker:
        assert model.setData(model.index(row, pinned), Qt.CheckState.Checked.value, Qt.ItemDataRole.CheckStateRole)
    assert blocker.args == ["m_2", {"pinned": True}]
    assert not model.setData(model.index(row, FIELDS.index("status")), "expired")


def test_cells_read_like_a_person_would_say_them(styled):
    model = _model()
    row = model.row_of("m_3")
    assert model.index(row, FIELDS.index("importance")).data() == "80%"
    assert model.index(row, FIELDS.index("event_date")).data() == "2026-11-30"
    assert model.index(row, FIELDS.index("last_used_at")).data() == "never"
    assert "Math exam" in model.index(row, CONTENT).data(Qt.ItemDataRole.ToolTipRole)
    assert model.headerData(0, Qt.Orientation.Horizontal) == "Memory"


def test_a_turned_off_memory_says_off_in_the_status_column_in_both_languages(styled):
    from ui.i18n import set_language
    model = _model()  # m_5 is active and turned off, m_2 active and on, m_4 replaced
    status = FIELDS.index("status")
    words = lambda: {model.index(r, 0).data(ID_ROLE): model.index(r, status).data() for r in range(model.rowCount())}  # noqa: E731
    assert [words()[i] for i in ("m_5", "m_2", "m_4")] == ["Off", "Current", "Replaced"]
    set_language("zh_CN")
    try:
        assert [words()[i] for i in ("m_5", "m_2")] == ["停用", "当前"]
    finally:
        set_language("en")
