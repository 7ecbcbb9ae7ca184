"""The Models page and the first-start offer of a better model, offscreen, downloading the bundled GGUF (as the
catalog entry `test-smol`, via COMPANION_MODEL_CATALOG) from a real HTTP server on 127.0.0.1
(tests/support/model_server.py) that can stall, refuse or serve the wrong bytes on demand."""
from __future__ import annotations

import json
import re
import socket

import pytest

from app.model_choice import better_model_offer, chat_model_file, download_model, shelf
from app.settings import Settings
from models.download import Progress
from tests.support.model_server import FILE, FILE_PATH, MB, SIZE, base_url, catalog_entry, write_catalog
from ui.i18n import set_language
from ui.model_texts import progress_text, size_text
from ui.models_dialog import ModelsDialog, still_stopping
from ui.settings_dialog import SettingsDialog

DOWNLOAD_MS = 120_000


@pytest.fixture
def host(tmp_path, monkeypatch, model_host, model_script):
    """The real catalog plus `test-smol` (the bundled GGUF), every download through the local server."""
    monkeypatch.setenv("COMPANION_MODEL_CATALOG", str(write_catalog(tmp_path / "catalog.json",
                                                                    catalog_entry("test-smol"))))
    monkeypatch.setenv("COMPANION_MODEL_MIRROR", base_url(model_host))
    return model_script


def open_page(qtbot, home) -> ModelsDialog:
    page = ModelsDialog(home, Settings())
    qtbot.addWidget(page)
    page.show()
    return page


def installed(home, model_id: str) -> bool:
    return {i.entry.id: i for i in shelf(home, Settings()).listings}[model_id].installed


def test_download_shows_progress_then_use_switches_the_chat_model(qtbot, styled, companion_env, host):
    page = open_page(qtbot, companion_env)
    row = page.rows["test-smol"]
    assert row.download.isVisible() and not row.use.isVisible() and not row.progress.isVisible()
    assert row.fit.text() == "Fits this computer" and "English" in row.details.text()
    assert "In use" in page.rows["smollm2-135m"].badges.text()
    reports = []
    page.downloadProgressed.connect(lambda _id, p: reports.append((p.done, p.total, row.progress.value())))
    with qtbot.waitSignal(page.downloadEnded, timeout=DOWNLOAD_MS) as ended:
        row.download.click()
        assert row.progress.isVisible() and row.cancel.isVisible() and not row.download.isVisible()
        assert not page.rows["qwen2.5-1.5b-instruct-q4_k_m"].download.isEnabled()  # one download at a time
    assert ended.args == ["test-smol", "done"]
    done = [d for d, _, _ in reports]
    assert len(reports) >= 2 and done == sorted(done) and done[-1] == SIZE and reports[-1][1] == SIZE
    assert reports[-1][2] == 1000  # the bar is full; reports reached the window while the download ran
    assert row.note.text() == "Downloaded and verified." and "Downloaded" in row.badges.text()
    assert row.use.isVisible() and row.remove.isVisible() and not row.download.isVisible()
    assert not row.progress.isVisible()

    with qtbot.waitSignal(page.chatModelChosen, timeout=5_000):
        row.use.click()
    saved = json.loads((companion_env / "settings.json").read_text())
    assert saved["chat_model_id"] == "test-smol" and page.settings.chat_model_id == "test-smol"
    assert chat_model_file(companion_env, Settings.load(companion_env)).path == companion_env / "models" / \
        "test-smol" / FILE
    assert "In use" in row.badges.text() and not row.use.isVisible() and not row.remove.isVisible()
    assert "Now chatting with Test Smol" in page.status.text()
    assert page.rows["smollm2-135m"].use.isVisible()


def test_cancel_mid_download_installs_nothing_and_a_new_download_resumes(qtbot, styled, companion_env, host):
    host.release.clear()
    host.actions[FILE_PATH] = [f"stall:{5 * MB}"]  # the host sends 5 MB, then waits
    page = open_page(qtbot, companion_env)
    row = page.rows["test-smol"]
    part = companion_env / "models" / "test-smol" / (FILE + ".part")
    row.download.click()
    qtbot.waitUntil(lambda: part.is_file() and part.stat().st_size == 5 * MB, timeout=30_000)  # stalled there
    with qtbot.waitSignal(page.downloadEnded, timeout=30_000) as ended:
        row.cancel.click()
        assert row.cancel.text() == "Stopping…" and not row.cancel.isEnabled()
        host.release.set()  # the stalled transfer ends; the download sees Cancel at its next piece
    assert ended.args == ["test-smol", "cancelled"]
    assert row.note.text().startswith("Download stopped.") and row.download.isVisible() and not row.use.isVisible()
    assert not (companion_env / "models" / "test-smol" / FILE).exists() and not installed(companion_env, "test-smol")
    kept = part.stat().st_size
    with qtbot.waitSignal(page.downloadEnded, timeout=DOWNLOAD_MS) as ended:
        row.download.click()
    assert ended.args == ["test-smol", "done"] and installed(companion_env, "test-smol")
    assert [r["range"] for r in host.requests if r["path"] == FILE_PATH][-1] == f"bytes={kept}-"


def test_remove_asks_then_deletes_the_model(qtbot, styled, companion_env, host, monkeypatch):
    assert download_model(companion_env, Settings(), "test-smol") is not None
    page = open_page(qtbot, companion_env)
    row = page.rows["test-smol"]
    answers = []
    monkeypatch.setattr("ui.ask.confirm", lambda parent, title, text, action: answers.append(text) or len(answers) > 1)
    row.remove.click()  # "Cancel" the first time
    assert installed(companion_env, "test-smol") and "Delete Test Smol from this computer?" in answers[0]
    row.remove.click()
    assert not installed(companion_env, "test-smol") and not (companion_env / "models" / "test-smol").exists()
    assert row.download.isVisible() and not row.remove.isVisible() and not row.use.isVisible()


def test_closing_the_page_mid_download_stops_it_and_uses_nothing(qtbot, styled, companion_env, host):
    host.release.clear()
    host.sticky[FILE_PATH] = f"stall:{5 * MB}"
    page = open_page(qtbot, companion_env)
    part = companion_env / "models" / "test-smol" / (FILE + ".part")
    page.rows["test-smol"].download.click()
    qtbot.waitUntil(lambda: part.is_file() and part.stat().st_size == 5 * MB, timeout=30_000)  # stalled there
    page.close()
    assert still_stopping(companion_env, "test-smol")
    again = open_page(qtbot, companion_env)  # reopened at once: the old download still holds the partial file
    again.rows["test-smol"].download.click()
    assert again.run is None and "still stopping" in again.rows["test-smol"].note.text()
    host.release.set()
    qtbot.waitUntil(lambda: not still_stopping(companion_env, "test-smol"), timeout=30_000)
    assert not installed(companion_env, "test-smol") and not (companion_env / "settings.json").exists()


@pytest.mark.parametrize("problem, words", [("checksum", "does not match its checksum"), ("404", "HTTP 404")])
def test_a_failed_download_is_one_sentence_and_installs_nothing(qtbot, styled, companion_env, host, tmp_path,
                                                                monkeypatch, problem, words):
    if problem == "checksum":
        monkeypatch.setenv("COMPANION_MODEL_CATALOG", str(write_catalog(
            tmp_path / "bad.json", catalog_entry("test-smol", sha256="0" * 64))))
    else:
        host.actions[FILE_PATH] = ["404"]
    page = open_page(qtbot, companion_env)
    row = page.rows["test-smol"]
    with qtbot.waitSignal(page.downloadEnded, timeout=DOWNLOAD_MS) as ended:
        row.download.click()
    assert ended.args == ["test-smol", "failed"]
    assert words in row.note.text() and "\n" not in row.note.text() and row.note.objectName() == "error"
    assert row.download.isVisible() and row.download.isEnabled() and not row.use.isVisible()
    folder = companion_env / "models" / "test-smol"
    assert not (folder / FILE).exists() and not (folder / (FILE + ".part")).exists()
    assert not installed(companion_env, "test-smol")
    set_language("zh_CN")
    try:
        page.retranslate()
        assert ("校验值" if problem == "checksum" else "HTTP 404") in row.note.text()
        assert page.windowTitle() == "模型" and row.download.text() == "重试"  # after a failure the button is Try again
    finally:
        set_language("en")


def test_the_offer_shows_on_first_start_and_never_after_it_is_answered(make_window, qtbot, companion_env, host):
    offered = better_model_offer(companion_env, Settings())
    assert offered is not None  # test-smol (98 MB, 0.5 GB of memory) fits any machine that runs these tests
    window = make_window(wait_model=False)
    offer = window.model_offer
    assert offered.entry.total_size and offered.free_disk_bytes  # the recommended model's size is in the catalog
    size = re.escape(size_text(offered.entry.total_size))
    assert offer.isVisible() and re.fullmatch(  # the free disk moves while others write to it: any measure
        rf"A better model for conversation is available: {re.escape(offered.entry.name)}, a {size} download "
        r"\([\d.]+ [KMG]?B free on this computer\)\.", offer.label.text())
    set_language("zh_CN")
    try:
        offer.retranslate()
        assert re.search(rf"需下载 {size}（这台电脑还有 [\d.]+ [KMG]?B 可用空间）", offer.label.text())
    finally:
        set_language("en")
        offer.retranslate()
    offer.later_button.click()
    assert not offer.isVisible() and window.desk.c.settings.model_offer_dismissed
    assert json.loads((companion_env / "settings.json").read_text())["model_offer_dismissed"] is True
    window.shutdown()
    again = make_window(wait_model=False)
    assert not again.model_offer.isVisible()


def test_show_models_opens_the_page_and_answers_the_offer(make_window, qtbot, companion_env, host):
    window = make_window(wait_model=False)
    assert window.model_offer.isVisible()
    window.model_offer.show_button.click()
    pages = [p for p in window.findChildren(ModelsDialog) if p.isVisible()]
    assert len(pages) == 1 and "test-smol" in pages[0].rows
    assert not window.model_offer.isVisible() and Settings.load(companion_env).model_offer_dismissed
    pages[0].close()


def test_a_model_chosen_from_settings_loads_and_survives_saving_settings(make_window, qtbot, companion_env, host,
                                                                         monkeypatch):
    assert download_model(companion_env, Settings(), "test-smol") is not None
    window = make_window(wait_model=False)

    def models_page(page):  # the user presses "Use this model" and closes the page
        page.rows["test-smol"].use.click()
        return 0

    def settings_dialog(dialog):  # the user opens the Models page from Settings, then presses Save
        dialog.models_button.click()
        assert dialog.model_path.text() == "" and "test-smol" in dialog.model_path.placeholderText()
        return True
    monkeypatch.setattr(ModelsDialog, "exec", models_page)
    monkeypatch.setattr(SettingsDialog, "exec", settings_dialog)
    with qtbot.waitSignal(window.controller.modelLoading, timeout=10_000):
        window.settings_action.trigger()
    qtbot.waitUntil(lambda: window.model_name == FILE, timeout=DOWNLOAD_MS)
    assert window.desk.c.settings.chat_model_id == "test-smol"
    assert Settings.load(companion_env).chat_model_id == "test-smol"
    assert window.desk.c.chat_model_file().path == companion_env / "models" / "test-smol" / FILE


def test_progress_reads_as_done_of_total_speed_and_time_left_in_both_languages(styled):
    halfway = Progress("q.gguf", 400_000_000, 1_117_320_736, 11_500_000.0, 62.0)
    assert progress_text(halfway) == "400.0 MB of 1.1 GB · 11.5 MB/s · 1 min left"
    assert progress_text(Progress("q.gguf", 0, None, 0.0, None)) == "0 B"
    set_language("zh_CN")
    try:
        assert progress_text(halfway) == "400.0 MB / 1.1 GB · 11.5 MB/秒 · 还剩 1 分钟"
    finally:
        set_language("en")


def test_use_bundled_in_settings_also_leaves_the_catalog_model(styled, qtbot, companion_env):
    dialog = SettingsDialog(Settings(chat_model_id="test-smol"), companion_env, "a key", FILE)
    qtbot.addWidget(dialog)
    assert dialog.model_path.placeholderText() == f"Catalog model: {FILE}"
    assert dialog.settings().chat_model_id == "test-smol"
    dialog.bundled.click()
    assert dialog.settings().chat_model_id is None and dialog.settings().chat_model is None
    assert dialog.model_path.placeholderText().startswith("Bundled model:")


def test_offline_is_one_sentence_in_the_ui_language_and_try_again_downloads_when_back(
        qtbot, styled, companion_env, host, model_host, monkeypatch):
    """Issue 37, item 9: no network is said as such (no errno, no checksum), with the mirror setting and Try again."""
    with socket.socket() as s:  # a port where nothing listens on 127.0.0.1: refused, as with no network
        s.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{s.getsockname()[1]}"
    monkeypatch.setenv("COMPANION_MODEL_MIRROR", down)
    page = open_page(qtbot, companion_env)
    for ident in ("test-smol", "qwen2.5-0.5b-instruct-q4_k_m"):  # a pinned checksum, and one asked of the host
        row = page.rows[ident]
        with qtbot.waitSignal(page.downloadEnded, timeout=10_000) as ended:
            row.download.click()
        assert ended.args == [ident, "failed"]
        note = row.note.text()
        assert note.startswith("Cannot connect to 127.0.0.1:") and "model_mirror" in note and "try again" in note
        assert "Errno" not in note and "checksum" not in note and row.download.text() == "Try again"
        assert note.endswith(".") and ". " not in note  # one sentence
    set_language("zh_CN")
    try:
        page.retranslate()
        note = row.note.text()
        assert note.startswith("无法连接到 127.0.0.1:") and "镜像设置" in note and row.download.text() == "重试"
        assert note.count("。") == 1 and note.endswith("。")
        assert not any(word in note for word in ("Cannot", "offline", "Errno", "校验值"))
    finally:
        set_language("en")
        page.retranslate()
    monkeypatch.setenv("COMPANION_MODEL_MIRROR", base_url(model_host))  # the network is back
    row = page.rows["test-smol"]
    with qtbot.waitSignal(page.downloadEnded, timeout=DOWNLOAD_MS) as ended:
        row.download.click()
    assert ended.args == ["test-smol", "done"] and installed(companion_env, "test-smol")


def test_clicking_download_keeps_the_clicked_row_in_view(qtbot, styled, companion_env, host):
    """Issue 37, item 10: the list scrolled away from the row whose Download was pressed."""
    host.release.clear()
    host.sticky[FILE_PATH] = f"stall:{1 * MB}"  # the download stays under way while the view is checked
    page = open_page(qtbot, companion_env)
    page.resize(760, 560)
    page.activateWindow()
    qtbot.waitUntil(page.isActiveWindow)
    scroll = page.scroll
    row = page.rows["test-smol"]
    qtbot.waitUntil(lambda: scroll.verticalScrollBar().maximum() > 0)
    bar = scroll.verticalScrollBar()
    bar.setValue(row.y() + row.height() - scroll.viewport().height())  # the row sits on the bottom edge
    qtbot.wait(50)

    def in_view() -> bool:  # the whole row, its progress bar included
        top = row.mapTo(scroll.viewport(), row.rect().topLeft()).y()
        return top >= 0 and top + row.height() <= scroll.viewport().height()
    assert in_view()
    row.download.setFocus()
    row.download.click()
    qtbot.wait(100)
    try:
        assert row.cancel.isVisible() and row.progress.isVisible() and in_view()
        assert row.cancel.hasFocus()  # focus stays in the row (it went to another row's button, which scrolled)
    finally:
        with qtbot.waitSignal(page.downloadEnded, timeout=30_000):
            row.cancel.click()
            host.release.set()
