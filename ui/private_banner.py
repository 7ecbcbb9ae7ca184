"""The band above a private conversation ("无痕对话"): it says, while the conversation lasts, that nothing of it is
saved or learned, that memories are still used, and that it is gone once closed (app/private_conversation.py)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget

from ui.i18n import tr


class PrivateBanner(QFrame):
    """Shown only while the conversation is private; the composer below it takes the private colour too."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("privateBanner")
        self.companion_name = "Companion"
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.title = QLabel(self)
        self.title.setObjectName("privateBannerTitle")
        self.text = QLabel(self)
        self.text.setObjectName("privateBannerText")
        self.text.setWordWrap(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(16, 8, 16, 8)
        layout.setSpacing(10)
        layout.addWidget(self.title, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.text, 1)
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        """Set the texts in the current language."""
        self.title.setText(tr("Private conversation"))
        self.text.setText(tr("Not saved and nothing learned; what {name} already remembers is still used. It is gone "
                             "when you close it, and it cannot become a saved conversation.",
                             name=self.companion_name))
