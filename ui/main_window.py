"""The main window: sessions on the left, the conversation in the middle, the memory panel docked on the right."""
from __future__ import annotations

import gc
import html
import threading
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QLabel, QMainWindow, QSplitter, QToolBar, QToolButton,
                               QVBoxLayout, QWidget)

from app.clock import Clock
from app.companion import Companion
from app.desktop import KeyNeeded, MemoryDesk, apply_settings, open_companion
from app.follow_ups import Opening, open_conversation
from app.jobs import BACKGROUND
from app.keys import NO_KEYRING
from app.provenance_answer import RecordAnswer
from app.scheduler import ConsolidationScheduler
from app.settings import Settings
from memory import Memory
from memory.learn import ExtractionResult
from memory.storage import ConversationReceipt
from ui import ask, window_state
from ui.chat_controller import ChatController
from ui.chat_view import ChatView
from ui.composer import Composer
from ui.conversation_receipt import conversation_receipt_html
from ui.i18n import error_text, language, set_language, tr, tr_message
from ui.memory_panel import MemoryPanel
from ui.model_offer import ModelOffer
from ui.models_dialog import ModelsDialog
from ui.passphrase import PassphraseDialog
from ui.private_banner import PrivateBanner
from ui.record_actions import RecordActions
from ui.sessions import SessionPane
from ui.settings_dialog import SettingsDialog
from ui.status import StatusIndicator
from ui.style import icon
from ui.watch import DatabaseWatcher
from ui.workers import QtWorker

PANEL_MIN_WIDTH = 300  # the words of a memory still fit beside the edge of an 800 px window
NARROW_WIDTH = 1000  # below this, an open memory panel takes the place of the conversation list
NOTE_MS = 6000  # how long a "Learned: …" note stays in the status bar
# app.keys.NO_KEYRING tells a command-line user to set COMPANION_DB_KEY; here the dialog itself is the way.
NO_KEYRING_UI = ("No system keyring is available here (common on headless Linux), so Companion cannot keep the "
                 "key to your encrypted memories by itself. You can use a passphrase instead. (Setting "
                 "COMPANION_DB_KEY before starting, or installing and unlocking a keyring such as GNOME Keyring or "
                 "KWallet, also works.)")


class DockTitle(QWidget):
    """The memory panel's title bar: a label that fits any script (the default one clips CJK) and a close button."""

    def __init__(self, dock: QDockWidget):
        super().__init__(dock)
        self.setObjectName("dockTitle")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.label = QLabel(self)
        self.label.setObjectName("dockTitleText")
        self.label.setWordWrap(True)  # a long companion name wraps instead of pushing the close button out
        self.close_button = QToolButton(self)
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(dock.hide)
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 6, 6, 6)
        row.addWidget(self.label, 1)
        row.addWidget(self.close_button)


class MainWindow(QMainWindow):
    """Shown at once; the profile opens and the model loads on worker threads while it is up.

    Signals:
        opened(): the profile is open and the window is usable.
        openFailed(str): the profile could not be opened; the sentence why.
        shutDown(): the workers have stopped and the profile is closed.
    """

    opened = Signal()
    openFailed = Signal(str)
    shutDown = Signal()

    def __init__(self, home: Path, clock: Clock, model_override: str | None = None):
        super().__init__()
        self.home, self.clock, self.model_override = home, clock, model_override
        self.companion: Companion | None = None
        self.desk: MemoryDesk | None = None
        self.session_id: str | None = None
        self.private = False  # the conversation shown is private: in memory only (app/private_conversation.py)
        self.model_name = ""
        self._reply_memories: list[Memory] = []
        self._first_text = False  # has the reply in progress shown any text yet
        self._closing = self._closed = False
        self._key_reason = ""  # why the first passphrase was asked for (kept when asking again)
        self._opened_companion: Companion | None = None  # set on the worker, so shutdown closes it whatever happens
        self._shutdown_lock = threading.Lock()
        self.model_worker = QtWorker("companion-model", self)
        self.db_worker = QtWorker("companion-db", self)
        self.controller = ChatController(self.model_worker, self)
        self.scheduler: ConsolidationScheduler | None = None
        self.watcher = DatabaseWatcher(self.db_worker, self)
        self._build()
        self._connect()
        self.retranslate()
        self.resize(1180, 760)
        self._saved_state = window_state.restore(self, home)
        self._reopen_session = True  # the first session list opens the latest conversation

    # -- building ------------------------------------------------------------------------------
    def _build(self) -> None:
        self.setObjectName("mainWindow")
        self.sessions = SessionPane(self)
        self.chat_view = ChatView(self)
        self.composer = Composer(self)
        self.composer.setEnabled(False)
        middle = QWidget(self)
        column = QVBoxLayout(middle)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        self.model_offer = ModelOffer(middle)
        column.addWidget(self.model_offer)
        self.private_banner = PrivateBanner(middle)
        column.addWidget(self.private_banner)
        column.addWidget(self.chat_view, 1)
        column.addWidget(self.composer)
        split = self.split = QSplitter(self)
        split.addWidget(self.sessions)
        split.addWidget(middle)
        split.setStretchFactor(1, 1)
        split.setSizes([230, 900])
        split.setChildrenCollapsible(False)
        self.setCentralWidget(split)
        self.panel = MemoryPanel(self)
        self.panel.setMinimumWidth(PANEL_MIN_WIDTH)
        self.dock = QDockWidget(self)
        self.dock.setObjectName("memoryDock")
        self.dock_title = DockTitle(self.dock)
        self.dock.setTitleBarWidget(self.dock_title)
        self.dock.setWidget(self.panel)
        self.dock.setAllowedAreas(Qt.DockWidgetArea.LeftDockWidgetArea | Qt.DockWidgetArea.RightDockWidgetArea)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.hide()
        self.status = StatusIndicator(self)
        self.statusBar().addWidget(self.status, 1)
        self._build_toolbar()

    def _build_toolbar(self) -> None:
        bar = QToolBar(self)
        bar.setObjectName("mainToolbar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.new_action = QAction(icon("new"), "", self, shortcut=QKeySequence("Ctrl+N"))
        self.memory_action = QAction(icon("memory"), "", self, checkable=True, shortcut=QKeySequence("Ctrl+M"))
        self.memory_action.toggled.connect(self.dock.setVisible)
        self.dock.visibilityChanged.connect(lambda _shown: self.memory_action.setChecked(not self.dock.isHidden()))
        self.dock.visibilityChanged.connect(self._dock_shown)
        self.settings_action = QAction(icon("settings"), "", self, shortcut=QKeySequence("Ctrl+,"))
        self.settings_action.setEnabled(False)
        self.models_action = QAction(icon("models"), "", self, enabled=False)
        self.private_action = QAction(icon("private"), "", self, checkable=True, enabled=False,
                                      shortcut=QKeySequence("Ctrl+Shift+N"))
        self.private_action.setObjectName("privateAction")
        # "New chat" is the sidebar's button (one, not two); Ctrl+N stays through the action on the window.
        self.addAction(self.new_action)
        for action in (self.private_action, self.memory_action, self.models_action, self.settings_action):
            bar.addAction(action)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        QShortcut(QKeySequence("Esc"), self, activated=self.controller.stop)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Quit), self, activated=self.close)

    def _connect(self) -> None:
        self.new_action.triggered.connect(self.new_chat)
        self.private_action.toggled.connect(self.set_private)
        self.settings_action.triggered.connect(self.open_settings)
        self.models_action.triggered.connect(lambda: self.open_models().open())
        self.model_offer.showModels.connect(lambda: self.open_models().open())
        self.composer.sendRequested.connect(self.send)
        self.composer.stopRequested.connect(self.controller.stop)
        self.composer.draftPaused.connect(
            lambda draft: self.controller.anticipate(draft, self.session_id, self.private))
        self.composer.input.textChanged.connect(self.controller.draft_changed)
        self.sessions.newRequested.connect(self.new_chat)
        self.sessions.sessionChosen.connect(self.choose_session)
        self.sessions.renameRequested.connect(self.rename_session)
        self.sessions.deleteRequested.connect(self.delete_session)
        self.sessions.forgetRequested.connect(self.forget_session)
        self.chat_view.memoryClicked.connect(self.show_memory)
        self.panel.errorShown.connect(lambda message: self._show_state("error", message))
        self.panel.sessionRequested.connect(self.open_session)
        self.panel.memoriesLoaded.connect(self.chat_view.sync_memories)
        self.watcher.changed.connect(self._changed_elsewhere)
        c = self.controller
        c.modelLoading.connect(lambda: self._show_state("busy", tr("Loading the chat model…")))
        c.modelReady.connect(self._model_ready)
        c.modelFailed.connect(self._model_failed)
        c.replyStarted.connect(self._reply_started)
        c.replyText.connect(self._reply_text)
        c.replyFinished.connect(self._reply_finished)
        c.replyFailed.connect(self._reply_failed)
        c.learningStarted.connect(self._update_state)
        c.learned.connect(self._learned)
        c.learningFailed.connect(lambda message: self._show_state("error", tr("Could not learn from that message: "
                                                                              "{error}", error=message)))
        for worker in (self.model_worker, self.db_worker):
            worker.failed.connect(lambda exc: self._show_state("error", error_text(exc)))

    def retranslate(self) -> None:
        """Set every text in the current language."""
        name = self.companion.settings.companion_name if self.companion else "Companion"
        self.setWindowTitle(name if name == "Companion" else f"{name} — Companion")
        self.new_action.setText(tr("New chat"))
        self.memory_action.setText(tr("Memory"))
        self.memory_action.setToolTip(tr("What {name} remembers about you (Ctrl+M)", name=name))
        self.settings_action.setText(tr("Settings"))
        self.models_action.setText(tr("Models"))
        self.models_action.setToolTip(tr("Download a better chat model, or choose another"))
        self.private_action.setText(tr("Private conversation"))
        self.private_action.setToolTip(tr("A conversation that is not saved and teaches {name} nothing "
                                          "(Ctrl+Shift+N)", name=name))
        self.dock.setWindowTitle(tr("What {name} remembers", name=name))
        self.dock_title.label.setText(self.dock.windowTitle())
        self.dock_title.close_button.setToolTip(tr("Close the memory panel (Ctrl+M)"))
        self.chat_view.companion_name = self.composer.companion_name = self.panel.companion_name = name
        self.private_banner.companion_name = name
        for part in (self.chat_view, self.composer, self.sessions, self.panel, self.model_offer, self.private_banner,
                     *self.chat_view.findChildren(RecordActions)):
            part.retranslate()
        self._update_state()

    # -- opening the profile -------------------------------------------------------------------
    def open_profile(self, passphrase: str | None = None) -> None:
        """Open the encrypted profile on the database worker (asks for a passphrase if there is no keyring)."""
        self._show_state("busy", tr("Opening your memories…"))

        def job() -> Companion:
            companion = open_companion(self.home, self.clock, self.model_override, passphrase)
            self._opened_companion = companion
            return companion
        self.db_worker.run(job, self._profile_opened, lambda exc: self._profile_failed(exc, passphrase))

    def _profile_opened(self, companion: Companion) -> None:
        self.companion = companion
        self.desk = MemoryDesk(companion)
        set_language(companion.settings.language)
        self.composer.setEnabled(True)
        self.settings_action.setEnabled(True)
        self.models_action.setEnabled(True)
        self.private_action.setEnabled(True)
        self.model_offer.check(self.home, companion.settings, self.model_override)
        self.panel.attach(self.desk, self.db_worker)
        if companion.folder_warning:  # the data folder is open to other accounts: say so where privacy is shown
            warning = companion.folder_warning
            self.panel.banner.show_note(lambda: html.escape(tr_message(warning)), warning=True)
        self.controller.attach(companion)
        self.scheduler = ConsolidationScheduler.for_companion(companion, self._run_scheduled)
        self.scheduler.start()
        self.refresh_sessions()
        self.retranslate()
        self.composer.input.setFocus()
        if self._saved_state.get("panel_open"):
            self.dock.show()
        db = companion.db
        self.watcher.start(lambda: db.read("PRAGMA data_version")[0][0])
        self.opened.emit()

    def _profile_failed(self, exc: BaseException, passphrase: str | None) -> None:
        if isinstance(exc, KeyNeeded):
            self._show_state("idle", tr("Waiting for your passphrase…"))
            QTimer.singleShot(0, lambda: self.ask_passphrase(str(exc), retry=bool(passphrase)))
            return
        self._show_state("error", error_text(exc))
        self.chat_view.reply_failed(error_text(exc))
        self.openFailed.emit(error_text(exc))

    def ask_passphrase(self, reason: str, retry: bool = False) -> None:
        """Explain that no keyring keeps the key and ask for the passphrase to use instead."""
        if not retry:
            self._key_reason = reason
        new = not (self.home / "companion.db").exists()
        why = self._key_reason or reason
        dialog = PassphraseDialog(tr(NO_KEYRING_UI) if why == NO_KEYRING else tr(why), new_database=new, parent=self)
        if retry:
            dialog.show_error(tr(reason))
        if dialog.exec():
            self.open_profile(dialog.value())
            return
        message = tr("Companion cannot open your memories without a key. Restart it to try again, or set "
                     "COMPANION_DB_KEY.")
        self._show_state("error", message)
        self.openFailed.emit(message)

    # -- sessions ------------------------------------------------------------------------------
    def refresh_sessions(self) -> None:
        """Read the session list again."""
        if self.desk is not None:
            self.db_worker.run(self.desk.sessions, self._sessions_read)

    def _sessions_read(self, sessions: list) -> None:
        self.sessions.show_sessions(sessions, self.session_id)
        reopen, self._reopen_session = self._reopen_session, False
        if reopen and sessions and self.session_id is None and not self.controller.replying and not self.private:
            self.open_session(sessions[0].id)  # back where the user was, not an empty chat
        elif reopen and not sessions:
            self._offer_follow_up()  # the first conversation starts here

    def _changed_elsewhere(self) -> None:
        """Another process wrote (e.g. `companion say`): show the memories, the list and this conversation anew."""
        self.panel.refresh()
        self.refresh_sessions()
        if self.session_id is not None and not self.controller.replying and not self.private:
            self.choose_session(self.session_id)

    def new_chat(self) -> None:
        """An empty conversation; it becomes a session with its first message."""
        if self.controller.replying:
            return
        if self.private:  # a new private conversation: the one shown is gone
            self.controller.end_private()
        self.session_id = None
        self.sessions.select(None)
        self.chat_view.clear()
        self.composer.input.setFocus()
        self._offer_follow_up()

    def _offer_follow_up(self) -> None:
        """A new conversation may open with one follow-up about a remembered event (app/follow_ups.py)."""
        if self.companion is None or self.private:  # a follow-up opens a saved conversation: never in a private one
            return
        c, spoken = self.companion, "zh" if language() == "zh_CN" else "en"
        self.db_worker.run(lambda: open_conversation(c, spoken), self._follow_up_opened)

    def _follow_up_opened(self, opening: Opening | None) -> None:
        if opening is None:
            return
        self.refresh_sessions()
        if self.session_id is None and not self.chat_view.bubbles and not self.controller.replying and not self.private:
            self.open_session(opening.session_id)  # shown like any reply, with the memory it came from

    def choose_session(self, session_id: str) -> None:
        """Show a past conversation."""
        if self.desk is None or self.controller.replying:
            self.sessions.select(self.session_id)
            return
        self.private_action.setChecked(False)  # a saved conversation is never continued privately
        self.session_id = session_id
        self.db_worker.run(lambda: self.desk.conversation(session_id),
                           lambda found: self.session_id == session_id and self.chat_view.show_conversation(*found))

    def open_session(self, session_id: str) -> None:
        """Show a conversation and select it in the list (from a link elsewhere)."""
        self.sessions.select(session_id)
        self.choose_session(session_id)

    def rename_session(self, session_id: str) -> None:
        """Ask for a new title."""
        current = next((self.sessions.list.item(r).text() for r in range(self.sessions.list.count())
                        if self.sessions.session_ids()[r] == session_id), "")
        title = ask.text(self, tr("Rename conversation"), tr("Title"), current)
        if title and self.desk is not None:
            self.db_worker.run(lambda: self.desk.rename_session(session_id, title), lambda _: self.refresh_sessions())

    def delete_session(self, session_id: str) -> None:
        """Delete a conversation and its messages, after asking."""
        if self.desk is None or (self.controller.replying and session_id == self.session_id):
            return
        if not ask.confirm(self, tr("Delete conversation"),
                           tr("Delete this conversation and every message in it? Memories learned from it stay "
                              "until you forget them. This cannot be undone."), tr("Delete")):
            return
        if session_id == self.session_id:
            self.new_chat()
        self.db_worker.run(lambda: self.desk.delete_session(session_id), lambda _: self.refresh_sessions())

    def forget_session(self, session_id: str) -> None:
        """Forget a conversation and every memory only it taught, after asking; the receipt shows in the panel."""
        if self.desk is None or (self.controller.replying and session_id == self.session_id):
            return
        title = next((self.sessions.list.item(r).text() for r in range(self.sessions.list.count())
                      if self.sessions.session_ids()[r] == session_id), "")
        if not ask.confirm(self, tr("Forget this conversation"),
                           tr("Forget this conversation? Its messages go, and so does every memory only it taught; "
                              "a memory another conversation also supports stays. This cannot be undone."),
                           tr("Forget")):
            return
        if session_id == self.session_id:
            self.new_chat()
        desk = self.desk
        # On the model worker behind the learning already queued, so that what its last message teaches is
        # learned first and forgotten with it, not stored after the conversation is gone.
        self.model_worker.run(lambda: desk.forget_session(session_id),
                              lambda done: self._conversation_forgotten(title, *done),
                              lambda exc: self._show_state("error", error_text(exc)), priority=BACKGROUND)

    def _conversation_forgotten(self, title: str, receipt: ConversationReceipt, titles: dict[str, str]) -> None:
        self.refresh_sessions()
        self.panel.refresh()
        self.panel.banner.show_note(lambda: conversation_receipt_html(receipt, title, titles),
                                    warning=not receipt.verified, details="\n".join(receipt.checked))
        self.dock.show()  # the proof is shown where forgetting a memory shows it

    def set_private(self, private: bool) -> None:
        """Start a private conversation, or end the one shown (it is gone; a new saved one begins). While a reply is
        written the switch stays as it is."""
        if private == self.private:
            return
        if self.controller.replying:
            self.private_action.setChecked(self.private)
            return
        if self.private:
            self.controller.end_private()
        self.private = private
        self.session_id = None  # either way a new conversation: the saved one shown stays in the list
        self.sessions.select(None)
        self.chat_view.clear()
        self.private_banner.setVisible(private)
        self.composer.set_private(private)
        self.composer.input.setFocus()

    # -- chatting ------------------------------------------------------------------------------
    def send(self, text: str) -> None:
        """Show the message and start the reply."""
        if self.controller.replying or self.companion is None:
            return
        self.chat_view.add_user_message(text)
        self.chat_view.begin_reply()
        self.composer.set_replying(True)
        self.sessions.list.setEnabled(False)
        self.controller.send(self.session_id, text, private=self.private)
        self._update_state()

    def _reply_started(self, session_id: str, memories: list[Memory]) -> None:
        new_session = self.session_id != session_id
        self.session_id = session_id
        self._reply_memories = memories
        self._first_text = False
        self._update_state()
        if new_session:
            self.refresh_sessions()  # the conversation is in the list while its first reply is written

    def _reply_text(self, text: str) -> None:
        self.chat_view.append_reply(text)
        if not self._first_text:
            self._first_text = True
            self._update_state()

    def _reply_finished(self, session_id: str, stopped: bool) -> None:
        answer = self.controller.last_answer
        self.chat_view.end_reply([] if answer else self._reply_memories, stopped, cut=self.controller.last_cut)
        if answer is not None:
            self._add_record_actions(answer)
        self._reply_memories = []
        self._reply_done()
        self.panel.refresh()  # the memories used were reinforced

    def _add_record_actions(self, answer: RecordAnswer) -> RecordActions:
        """Under an answer from the record: open each memory it named in the panel, or forget it."""
        actions = RecordActions(answer)
        actions.openRequested.connect(self.show_memory)
        actions.panelRequested.connect(lambda: (self.dock.show(), self.dock.raise_()))
        by_id = {m.id: m for m in answer.memories}
        actions.forgetRequested.connect(lambda memory_id: self._forget_named(by_id[memory_id], actions))
        self.chat_view.add_under_reply(actions)
        return actions

    def _forget_named(self, memory: Memory, actions: RecordActions) -> None:
        """"Forget this" under an answer: the panel opens, asks, forgets and shows its receipt."""
        self.dock.show()
        self.panel.forget([memory], lambda: actions.mark_forgotten(memory.id))

    def _reply_failed(self, message: str) -> None:
        self.chat_view.reply_failed(message)
        self._reply_done()
        self._show_state("error", message)

    def _reply_done(self) -> None:
        self.composer.set_replying(False)
        self.sessions.list.setEnabled(True)
        self.refresh_sessions()
        self._update_state()

    def _learned(self, result: ExtractionResult) -> None:
        self.panel.refresh()
        self._update_state()
        new = [w.memory for w in result.written if w.action != "reinforced" and w.memory.session_id == self.session_id]
        self.chat_view.add_learned(new)  # under the message it came from, while that conversation is open
        if result.written and not self.controller.replying:
            learned = "; ".join(w.memory.content for w in result.written)
            self._show_state("ready", tr("Learned: {what}", what=learned))
            QTimer.singleShot(NOTE_MS, self._update_state)

    def _run_scheduled(self, job):
        """On an APScheduler thread: hand the consolidation run to the database worker."""
        return self.db_worker.run(job, self._consolidated, lambda exc: self._show_state("error", error_text(exc)))

    def _consolidated(self, result) -> None:
        if result.ran:  # a skipped run (not due yet) is not news
            self.panel.show_consolidation(result)

    # -- memory panel and settings -------------------------------------------------------------
    def show_memory(self, memory_id: str) -> None:
        """Open the panel on one memory."""
        self.dock.show()
        self.dock.raise_()
        self.panel.reveal(memory_id)

    def open_settings(self) -> None:
        """Edit the settings; a new model loads in the background, a new language applies at once."""
        if self.companion is None:
            return
        c = self.companion
        dialog = SettingsDialog(Settings(**vars(c.settings)), self.home, tr(c.key.describe()),
                                self.model_name or "SmolLM2-135M-Instruct", self,
                                open_models=self._models_over)
        if not dialog.exec():
            return
        changed = dialog.settings()
        set_language(changed.language)

        def saved(reload: bool) -> None:
            self.retranslate()
            if self.scheduler is not None:
                self.scheduler.set_hour(changed.consolidation_hour)
            if reload:
                self.controller.reload_model()
        self.db_worker.run(lambda: apply_settings(c, changed), saved)

    def open_models(self, parent: QWidget | None = None) -> ModelsDialog:
        """The Models page over the live settings; a chat model chosen there loads at once."""
        dialog = ModelsDialog(self.home, self.companion.settings, self.model_override, parent or self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.chatModelChosen.connect(self.controller.reload_model)
        return dialog

    def _models_over(self, parent: QWidget) -> Settings:
        """The Models page over the Settings dialog; returns the live settings as the page left them."""
        self.open_models(parent).exec()
        return self.companion.settings

    # -- layout --------------------------------------------------------------------------------
    def fit_panes(self, resize_dock: bool = False) -> None:
        """Share the width: a narrow window shows the panel instead of the conversation list; the panel takes
        at most about half."""
        panel_open = not self.dock.isHidden()
        self.sessions.setVisible(not (panel_open and self.width() < NARROW_WIDTH))
        if panel_open and (resize_dock or self.dock.width() > self.width() // 2):
            target = max(PANEL_MIN_WIDTH, min(640, int(self.width() * 0.45)))
            self.resizeDocks([self.dock], [target], Qt.Orientation.Horizontal)

    def _dock_shown(self, shown: bool) -> None:
        self.fit_panes(resize_dock=shown)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self.fit_panes()

    # -- status --------------------------------------------------------------------------------
    def _model_ready(self, name: str) -> None:
        self.model_name = name
        # Startup made ~100k long-lived objects (Qt wrappers, numpy, tokenizers, fastembed). A full
        # collection scans them all with the GIL held, on whichever thread allocates: measured ~40 ms
        # of frozen window. Frozen objects are skipped; only what is created later is scanned.
        gc.freeze()
        self._update_state()

    def _model_failed(self, message: str) -> None:
        self.model_name = ""
        self._show_state("error", message)

    def _update_state(self) -> None:
        if self.companion is None or self._closing:
            return
        name = self.companion.settings.companion_name
        if self.controller.replying and not self._first_text:
            self._show_state("busy", tr("{name} is reading your message…", name=name))
        elif self.controller.replying:
            self._show_state("busy", tr("{name} is replying…", name=name))
        elif self.controller.learning:
            self._show_state("busy", tr("Remembering what matters from your message…"))
        elif self.model_name:
            self._show_state("ready", tr("Ready · {model} · everything stays on this computer", model=self.model_name))

    def _show_state(self, state: str, text: str) -> None:
        self.status.show_state(state, text)

    # -- closing -------------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        """Stop the reply, let the workers finish (the reply is saved, learning completes), then close."""
        if self._closed:
            event.accept()
            return
        event.ignore()
        if self._closing:
            return
        self._closing = True
        window_state.save(self, self.home, panel_open=not self.dock.isHidden())
        self.controller.stop()
        self.centralWidget().setEnabled(False)
        self.status.show_state("busy", tr("Finishing up before closing…"))
        self.shutDown.connect(self.close)
        threading.Thread(target=self.shutdown, name="companion-shutdown", daemon=True).start()

    def shutdown(self) -> None:
        """Blocking: stop the reply, drain both workers, close the profile. Safe to call more than once."""
        with self._shutdown_lock:
            if self._closed:
                return
            self._closing = True
            self.watcher.stop()
            self.controller.stop()
            if self.scheduler is not None:
                self.scheduler.stop()
            self.model_worker.shutdown()
            self.db_worker.shutdown()
            companion = self._opened_companion or self.companion
            if companion is not None:
                companion.close()
            self._closed = True
        self.shutDown.emit()
