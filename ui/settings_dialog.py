"""The Settings dialog: the model, the companion's name and persona (only here, never through chat), memory, language."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QSize, QTimer
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QGroupBox, QHBoxLayout,
                               QLabel, QLayout, QLineEdit, QPushButton, QSpinBox, QVBoxLayout, QWidget)

from app.desktop import check_model_file
from app.settings import ENGINE_HANG_RANGE, Settings
from assets import persona_names
from ui import ask
from ui.i18n import AUTO, LANGUAGES, tr, tr_message


class SettingsDialog(QDialog):
    """Edits a copy of the settings; `settings()` returns the edited copy once accepted."""

    def __init__(self, settings: Settings, home: Path, key_description: str, model_in_use: str,
                 parent: QWidget | None = None, open_models: Callable[[QWidget], Settings] | None = None):
        super().__init__(parent)
        self.original = settings
        self._open_models = open_models
        self.setWindowTitle(tr("Settings"))
        self.setMinimumWidth(520)
        self.name = QLineEdit(settings.companion_name, self)
        self.persona = QComboBox(self)
        for p in persona_names():
            self.persona.addItem(tr(p.replace("_", " ").capitalize()), p)
        self.persona.setCurrentIndex(max(0, self.persona.findData(settings.persona)))
        self.persona_note = QLabel(self)  # how the chosen persona differs from the others, in one line
        self.persona_note.setObjectName("dialogNote")
        self.persona_note.setWordWrap(True)
        self.persona.currentIndexChanged.connect(lambda _i: self._describe_persona())
        self._describe_persona()
        self.language = QComboBox(self)
        self.language.addItem(tr("Automatic (system language)"), AUTO)
        for code, label in LANGUAGES.items():
            self.language.addItem(label, code)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        self.model_path = WholePlaceholderEdit(settings.chat_model or "", self)
        self.model_path.setObjectName("modelPath")
        self.model_path.setPlaceholderText(tr("Catalog model: {name}", name=model_in_use) if settings.chat_model_id
                                           else tr("Bundled model: {name}", name=model_in_use))
        self.model_path.textChanged.connect(self._check_model)
        self.model_error = QLabel(self)
        self.model_error.setObjectName("error")
        self.model_error.setWordWrap(True)
        self.n_ctx = _spin(512, 131072, settings.n_ctx, step=512, suffix=" " + tr("tokens"))
        self.n_threads = _spin(0, 256, settings.n_threads or 0, special=tr("Automatic"))
        self.hang_seconds = _spin(*ENGINE_HANG_RANGE, settings.engine_hang_seconds, step=5, suffix=" " + tr("seconds"))
        self.hang_seconds.setToolTip(tr("The chat engine is stopped after this long without any sign of progress; "
                                        "your next message starts it again."))
        self.memory_on = QCheckBox(tr("Remember things about me from our chats"), self)
        self.memory_on.setChecked(settings.memory_enabled)
        self.follow_ups_on = QCheckBox(tr("Follow-ups: a new chat may start by asking about a date you mentioned"), self)
        self.follow_ups_on.setChecked(settings.follow_ups)
        self.tidy_on = QCheckBox(tr("Tidy up memories once a day, at"), self)
        self.tidy_on.setChecked(settings.consolidation_enabled)
        self.tidy_hour = _spin(0, 23, settings.consolidation_hour, suffix=":00")
        self.tidy_on.toggled.connect(self.tidy_hour.setEnabled)
        self.tidy_hour.setEnabled(settings.consolidation_enabled)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self._layout(home, key_description)
        self._check_model()

    def _layout(self, home: Path, key_description: str) -> None:
        companion = QFormLayout()
        companion.addRow(tr("Name"), self.name)
        companion.addRow(tr("Persona"), self.persona)
        companion.addRow("", self.persona_note)
        companion.addRow(tr("Language"), self.language)
        browse = QPushButton(tr("Choose…"), self)
        browse.clicked.connect(self._browse)
        bundled = self.bundled = QPushButton(tr("Use bundled"), self)
        bundled.clicked.connect(self._use_bundled)
        picker = QHBoxLayout()
        picker.addWidget(self.model_path, 1)
        picker.addWidget(browse)
        picker.addWidget(bundled)
        model = QFormLayout()
        model.addRow(tr("Model file (GGUF)"), picker)
        model.addRow("", self.model_error)
        if self._open_models is not None:
            self.models_button = QPushButton(tr("Download a better model…"), self)
            self.models_button.setObjectName("modelsButton")
            self.models_button.clicked.connect(self._show_models)
            model.addRow("", self.models_button)
        model.addRow(tr("Context size"), self.n_ctx)
        model.addRow(tr("Threads"), self.n_threads)
        model.addRow(tr("Stop a stuck engine after"), self.hang_seconds)
        tidy = QHBoxLayout()
        tidy.addWidget(self.tidy_on)
        tidy.addWidget(self.tidy_hour)
        tidy.addStretch(1)
        memory = QFormLayout()
        memory.addRow(self.memory_on)
        memory.addRow(self.follow_ups_on)
        memory.addRow(tidy)
        where = QLabel(tr("Data folder") + f": {home}\n" + tr("Encryption") + f": {key_description}", self)
        where.setObjectName("dialogNote")
        where.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)  # never smaller than its text: no clipping
        for title, form in ((tr("Companion"), companion), (tr("Chat model"), model), (tr("Memory"), memory)):
            box = QGroupBox(title, self)
            box.setLayout(form)
            layout.addWidget(box)
        layout.addWidget(where)
        layout.addWidget(self.buttons)

    def _describe_persona(self) -> None:
        summary = persona_summary(self.persona.currentData())
        self.persona_note.setText(summary)
        self.persona_note.setVisible(bool(summary))

    def _browse(self) -> None:
        start = self.model_path.text().strip() or str(Path.home())
        chosen = ask.model_path(self, str(Path(start).parent if Path(start).is_file() else start))
        if chosen:
            self.model_path.setText(chosen)

    def _use_bundled(self) -> None:
        """Back to the bundled model: no file, and no catalog model either."""
        self.model_path.setText("")
        self.original = replace(self.original, chat_model_id=None)
        self.model_path.setPlaceholderText(tr("Bundled model: {name}", name="SmolLM2-135M-Instruct"))

    def _show_models(self) -> None:
        """The Models page over this dialog; a model chosen there is kept when this dialog saves."""
        live = self._open_models(self)
        chat_changed = (live.chat_model_id, live.chat_model) != (self.original.chat_model_id, self.original.chat_model)
        self.original = replace(self.original, chat_model_id=live.chat_model_id, chat_model=live.chat_model,
                                embedding_model_id=live.embedding_model_id,
                                model_offer_dismissed=live.model_offer_dismissed)
        if chat_changed:
            self.model_path.setText(live.chat_model or "")
            if live.chat_model_id:
                self.model_path.setPlaceholderText(tr("Catalog model: {name}", name=live.chat_model_id))

    def _check_model(self) -> str:
        """Say what is wrong with the chosen model file (in the UI's language), or hide the note; returns it."""
        path = self.model_path.text().strip()
        # "Choose a GGUF file in Settings" is advice for the command line; the user is in Settings already.
        problem = tr_message(check_model_file(path), drop=("in Settings",)) if path else ""
        self._show_note(problem)
        return problem

    def _show_note(self, text: str) -> None:
        self.model_error.setText(text)
        self.model_error.setVisible(bool(text))
        QTimer.singleShot(0, self._fit_note)

    def _fit_note(self) -> None:
        """Make room for every line of the note (a window does not grow for a wrapped label by itself), or give
        the room back once it is gone."""
        note = self.model_error
        note.setMinimumHeight(note.heightForWidth(note.width()) if note.isVisibleTo(self) else 0)
        if note.isVisibleTo(self):
            self.resize(self.width(), max(self.height(), self.sizeHint().height()))
        else:
            self.adjustSize()

    def accept(self) -> None:
        """Save, unless the model file is unusable: then say so where the problem is instead of closing."""
        problem = self._check_model()
        if problem:
            self._show_note(tr("Not saved: fix the model file or clear it (Use bundled) first.") + " " + problem)
            self.model_path.setFocus()
            return
        super().accept()

    def settings(self) -> Settings:
        """The settings as edited."""
        return replace(
            self.original,
            companion_name=" ".join(self.name.text().split())[:40] or "Companion",
            persona=self.persona.currentData(),
            language=self.language.currentData(),
            chat_model=self.model_path.text().strip() or None,
            n_ctx=self.n_ctx.value(),
            n_threads=self.n_threads.value() or None,
            engine_hang_seconds=self.hang_seconds.value(),
            memory_enabled=self.memory_on.isChecked(),
            follow_ups=self.follow_ups_on.isChecked(),
            consolidation_enabled=self.tidy_on.isChecked(),
            consolidation_hour=self.tidy_hour.value(),
        )


def persona_summary(persona: str) -> str:
    """One line on how a shipped persona (assets/personas) speaks, so the choice says what it changes."""
    return {
        "default": tr("Warm and down-to-earth, like a friend: curious about your life, chatty, in short paragraphs."),
        "gentle": tr("Calm and soft-spoken: short, unhurried sentences and quiet encouragement; never presses you "
                     "to say more."),
    }.get(persona, "")


# Chinese glyphs come from a fallback font taller than the Latin one the box is sized by: sized by this too.
_TALL_SAMPLE = "自动词元Ágy"


def _spin(low: int, high: int, value: int, step: int = 1, suffix: str = "", special: str = "") -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setSingleStep(step)
    spin.setValue(value)
    spin.setSuffix(suffix)
    if special:
        spin.setSpecialValueText(special)
    frame = spin.sizeHint().height() - spin.fontMetrics().height()  # the box's own frame and padding
    spin.setMinimumHeight(spin.fontMetrics().boundingRect(_TALL_SAMPLE).height() + frame + 2)  # +2: the inner edit
    return spin


class WholePlaceholderEdit(QLineEdit):
    """A line edit never narrower than its placeholder ("Bundled model: SmolLM2-135M-…" was cut short), measured
    in the font it is drawn with (the stylesheet's, and a fallback font's for Chinese)."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        hint = super().minimumSizeHint()
        margins = self.textMargins()
        needed = self.fontMetrics().horizontalAdvance(self.placeholderText()) + margins.left() + margins.right()
        return QSize(max(hint.width(), needed + 16), hint.height())  # 16: the frame and the text's inner margin

    def setPlaceholderText(self, text: str) -> None:  # noqa: N802 (Qt override)
        super().setPlaceholderText(text)
        self.updateGeometry()
