"""The window follows what other processes write to the profile (`companion memory add`, `companion say`)."""
from __future__ import annotations

from app.settings import Settings


def test_panel_and_session_list_follow_writes_from_another_process(make_window, qtbot, cli, companion_env):
    Settings(max_reply_tokens=8).save(companion_env)
    window = make_window(wait_model=False)
    window.memory_action.trigger()
    qtbot.waitUntil(lambda: not window.db_worker.busy, timeout=10_000)
    assert window.panel.model.rowCount() == 0 and window.sessions.list.count() == 0

    cli.run("memory", "add", "Has a cat called Miso", "--category", "relationship")
    qtbot.waitUntil(lambda: any("Miso" in m.content for m in window.panel.model.memories()), timeout=15_000)
    assert window.panel.count.text() == "1 of 1"

    cli.run("say", "Hello from the terminal")
    qtbot.waitUntil(lambda: window.sessions.list.count() == 1, timeout=15_000)
    assert window.sessions.list.item(0).text().startswith("Hello from the terminal")


def test_a_data_folder_open_to_other_accounts_is_pointed_out_in_the_panel(make_window, qtbot, companion_env):
    import os
    Settings().save(companion_env)
    os.chmod(companion_env, 0o755)
    window = make_window(wait_model=False)
    window.memory_action.trigger()
    assert window.panel.banner.isVisible()
    assert "can be read by other accounts" in window.panel.banner.label.text()
    assert f"chmod 700 {companion_env}" in window.panel.banner.label.text()
