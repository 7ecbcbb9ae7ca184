"""A quiet banner above the conversation that offers the recommended chat model once, while only the bundled
135M model (which cannot hold a conversation) is there. Either answer is remembered in the settings."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSize, Signal
from PySide6.QtWidgets import QBoxLayout, QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from app.model_choice import OfferedModel, better_model_offer, dismiss_model_offer
from app.settings import Settings
from ui.i18n import tr
from ui.model_texts import size_text


def offer_text(offer: OfferedModel) -> str:
    """The banner's sentence: the model, how large its download is, and the free disk it goes to."""
    name, size = offer.entry.name, offer.entry.total_size
    if size is None:
        return tr("A better model for conversation is available: {name}.", name=name)
    if offer.free_disk_bytes is None:
        return tr("A better model for conversation is available: {name}, a {size} download.", name=name,
                  size=size_text(size))
    return tr("A better model for conversation is available: {name}, a {size} download ({free} free on this "
              "computer).", name=name, size=size_text(size), free=size_text(offer.free_disk_bytes))


class ModelOffer(QFrame):
    """"A better model for conversation is available: … [Show models] [Not now]".

    Signals:
        showModels(): the user wants the Models page.
    """

    showModels = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("modelOffer")
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.show_button = QPushButton(self)
        self.show_button.setObjectName("offerShow")
        self.later_button = QPushButton(self)
        self.later_button.setObjectName("offerLater")
        self.buttons = QHBoxLayout()
        self.buttons.setSpacing(6)
        self.buttons.addStretch(1)
        self.buttons.addWidget(self.show_button)
        self.buttons.addWidget(self.later_button)
        layout = self.box = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        layout.setContentsMargins(14, 8, 10, 8)
        layout.addWidget(self.label, 1)
        layout.addLayout(self.buttons)
        self.show_button.clicked.connect(self._show_models)
        self.later_button.clicked.connect(self._answer)
        self.offer: OfferedModel | None = None
        self._home: Path | None = None
        self._settings: Settings | None = None
        self.hide()

    def check(self, home: Path, settings: Settings, model_override: str | None = None) -> bool:
        """Show the offer if it applies to this profile (`settings` is the profile's live object); True if shown."""
        self._home, self._settings = home, settings
        self.offer = better_model_offer(home, settings, model_override)
        self.retranslate()
        self.setVisible(self.offer is not None)
        return self.offer is not None

    def retranslate(self) -> None:
        """Every text in the current language."""
        self.label.setText(offer_text(self.offer) if self.offer is not None else "")
        self.show_button.setText(tr("Show models"))
        self.later_button.setText(tr("Not now"))

    def _one_line_width(self) -> int:
        """The width the sentence and both buttons need side by side."""
        m = self.box.contentsMargins()
        text = self.label.fontMetrics().horizontalAdvance(self.label.text())
        return m.left() + m.right() + text + self.box.spacing() + self.buttons.minimumSize().width()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        """As narrow as the buttons: in a narrow window they go under the sentence instead of widening it."""
        hint = super().minimumSizeHint()
        m = self.box.contentsMargins()
        return QSize(min(hint.width(), m.left() + m.right() + self.buttons.minimumSize().width()), hint.height())

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        wide = self.width() >= self._one_line_width()
        direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        if self.box.direction() != direction:
            self.box.setDirection(direction)

    def _show_models(self) -> None:
        self._answer()
        self.showModels.emit()

    def _answer(self) -> None:
        """Either button answers the offer for good."""
        self.hide()
        if self._home is not None and self._settings is not None:
            dismiss_model_offer(self._home, self._settings)
