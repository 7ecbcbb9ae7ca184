"""Chat turns on the model worker: load the model, stream a reply in small batches, stop, then learn."""
from __future__ import annotations

import logging
import threading
import time

from PySide6.QtCore import QObject, Signal

from app.chat import ChatService, PreparedTurn
from app.companion import Companion
from app.jobs import BACKGROUND, CHAT, SOON
from app.provenance_answer import RecordAnswer
from memory.learn import ExtractionResult
from ui.i18n import error_text
from ui.workers import QtWorker

log = logging.getLogger(__name__)
BATCH_SECONDS = 0.03  # streamed text reaches the UI at most ~33 times a second


class ChatController(QObject):
    """Owns the conversation's use of the model worker (a llama.cpp context serves one thread only).

    Signals:
        modelLoading(): the chat model started loading.
        modelReady(str): the model is loaded; carries its file name.
        modelFailed(str): the model could not be loaded; carries the sentence why.
        replyStarted(str, list): a reply is about to stream; the session id and the memories it uses.
        replyText(str): the next batch of streamed text.
        replyFinished(str, bool): the reply is saved; the session id and whether it was stopped.
        replyFailed(str): no reply; the sentence why.
        learningStarted(): extraction on the user's message began (after the reply).
        learned(object): extraction finished; carries the ExtractionResult.
        learningFailed(str): extraction failed; the sentence why.
    """

    modelLoading = Signal()
    modelReady = Signal(str)
    modelFailed = Signal(str)
    replyStarted = Signal(str, list)
    replyText = Signal(str)
    replyFinished = Signal(str, bool)
    replyFailed = Signal(str)
    learningStarted = Signal()
    learned = Signal(object)
    learningFailed = Signal(str)

    def __init__(self, worker: QtWorker, parent: QObject | None = None):
        super().__init__(parent)
        self.worker = worker
        self.companion: Companion | None = None
        self.chat: ChatService | None = None
        self.private_chat: ChatService | None = None  # the private conversation's, in memory only
        self._stop = threading.Event()
        self._draft_cancel = threading.Event()  # set: the paused draft being worked on ahead changed or was sent
        self.replying = False
        self.last_cut = False  # the last reply was ended by the app (length limit or looping), for its mark
        self.last_answer: RecordAnswer | None = None  # the last reply was built from the record ("how do you know")
        self.learning = 0  # extraction jobs queued or running (counted on the main thread)
        self.learningStarted.connect(self._on_learning_started)

    def attach(self, companion: Companion) -> None:
        """Start serving an open profile and load its chat model in the background."""
        self.companion = companion
        self.chat = ChatService(companion)
        self.private_chat = ChatService(companion, private=True)
        self.load_model()

    def load_model(self) -> None:
        """Load the chat model and the embedders on the model worker (the window stays responsive)."""
        self.modelLoading.emit()
        self.worker.run(lambda: self.companion.warm_up().path.name, self.modelReady.emit,
                        lambda exc: self.modelFailed.emit(error_text(exc)), priority=CHAT)

    def reload_model(self) -> None:
        """Load the model again (after its settings changed), once the current work is done."""
        self.worker.run(self.companion.unload_chat_model, priority=CHAT)
        self.load_model()

    def send(self, session_id: str | None, text: str, private: bool = False) -> None:
        """Start a turn: the reply streams through replyText; learning follows at background priority (a private
        conversation's turn is neither saved nor learned from)."""
        if self.replying or self.chat is None:
            return
        self.draft_changed()
        self.replying = True
        self._stop.clear()
        chat = self.private_chat if private else self.chat
        self.worker.run(lambda: self._turn(chat, session_id, text), self._turn_done, self._turn_failed, priority=CHAT)

    def end_private(self) -> None:
        """Close the private conversation: its messages, held only by its chat service, are dropped."""
        if self.companion is not None and not self.replying:
            self.private_chat = ChatService(self.companion, private=True)

    def anticipate(self, draft: str, session_id: str | None = None, private: bool = False) -> None:
        """Work on a paused draft on the model worker (after any chat request, before queued learning): embed it and
        have the engine evaluate the prompt it would bring, so that sending it evaluates only what changed. Nothing
        while a reply streams (the worker is busy with it); the work stops as soon as the draft changes or is sent.
        A private draft is worked on by the private service (no stable head: the engine caches none of it)."""
        if self.replying or self.chat is None:
            return
        self.draft_changed()
        cancel = self._draft_cancel = threading.Event()
        chat = self.private_chat if private else self.chat  # the service that will send it holds its vectors
        # A failure costs nothing but the head start (sending does it all again), so it is only logged.
        self.worker.run(lambda: chat.anticipate(draft, session_id, cancel.is_set), None,
                        lambda exc: log.info("draft not worked on ahead: %s", exc), priority=SOON)

    def draft_changed(self) -> None:
        """The draft is no longer the one that paused: work on it ahead stops at its next step (a reply waits for
        no more than that)."""
        self._draft_cancel.set()

    def stop(self) -> None:
        """Stop the reply at the next piece; what was said so far is kept."""
        self._stop.set()

    def _turn(self, chat: ChatService, session_id: str | None, text: str) -> PreparedTurn:
        """On the model worker: prepare, stream in batches, save."""
        turn = chat.prepare(session_id, text)
        self.replyStarted.emit(turn.session_id, list(turn.memories))
        batch, sent_at = [], time.monotonic()
        try:
            for piece in chat.stream(turn, should_stop=self._stop.is_set):
                batch.append(piece)
                if time.monotonic() - sent_at >= BATCH_SECONDS:
                    self.replyText.emit("".join(batch))
                    batch, sent_at = [], time.monotonic()
        finally:
            if batch:
                self.replyText.emit("".join(batch))
            turn.stopped = turn.stopped or self._stop.is_set()
            chat.finish(turn)  # a failed or stopped reply is saved as far as it got
            if not turn.private:  # also when the engine failed: the user's message is still learned from
                self._queue_learning(turn)
        return turn

    def _queue_learning(self, turn: PreparedTurn) -> None:
        """On the model worker: queue extraction behind any waiting chat request (or run it now when closing)."""
        self.learningStarted.emit()
        queued = self.worker.run(lambda: self.chat.learn(turn), self._learned, self._learn_failed, priority=BACKGROUND)
        if queued.done() and isinstance(queued.exception(), RuntimeError):
            # The window is closing and the worker takes no new jobs: learn before the thread ends.
            self.chat.learn(turn)

    def _turn_done(self, turn: PreparedTurn) -> None:
        self.replying = False
        self.last_cut = turn.cut
        self.last_answer = turn.answer
        self.replyFinished.emit(turn.session_id, turn.stopped)

    def _turn_failed(self, exc: BaseException) -> None:
        self.replying = False
        self.replyFailed.emit(error_text(exc))

    def _on_learning_started(self) -> None:
        self.learning += 1

    def _learned(self, result: ExtractionResult) -> None:
        self.learning -= 1
        self.learned.emit(result)

    def _learn_failed(self, exc: BaseException) -> None:
        self.learning -= 1
        self.learningFailed.emit(error_text(exc))
