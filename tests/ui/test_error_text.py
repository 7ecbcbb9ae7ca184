"""The desktop shows a known error in the UI language, chosen by its code, never by parsing its text."""
from __future__ import annotations

import json

from app.errors import CODES, UserError
from assets import ASSETS_DIR
from memory import KeyWrong, NotFound
from models.errors import ModelError
from ui.i18n import error_text, set_language

ZH = json.loads((ASSETS_DIR / "i18n" / "zh_CN.json").read_text(encoding="utf-8"))


def test_known_errors_are_translated_by_code():
    set_language("zh_CN")
    try:
        wrong = KeyWrong("Could not decrypt the database at /x/companion.db: the key is wrong or the file is damaged.")
        assert error_text(wrong) == ZH["error:key_wrong"]
        assert error_text(NotFound("No memory has the id 'm_1'.")) == ZH["error:not_found"]
        assert error_text(ModelError("The chat model could not be loaded.")) == ZH["error:model_unusable"]
        assert error_text(UserError("disk_full", "The disk is full.")) == ZH["error:disk_full"]
        # Every sentence has a catalog translation (placeholders filled in): that, not the code's sentence.
        missing = ModelError("The chat model file /m.gguf is missing.")
        assert error_text(missing) == "聊天模型文件 /m.gguf 不存在。"
        # Only some sentences have one: the code's sentence, not half a translation.
        half = ModelError("The chat model file /m.gguf is missing. Something nobody translated.")
        assert error_text(half) == ZH["error:model_unusable"]
        # A sentence the catalog translates exactly keeps its own translation.
        exact = "That passphrase does not open your memories. Try again."
        assert error_text(UserError("key_needed", exact)) == ZH[exact]
        # No translation for the code: the English sentence, as it is.
        assert error_text(UserError("unavailable", "Not from here.")) == "Not from here."
        assert error_text(ValueError("boom")) == "出了点问题：ValueError('boom')"
    finally:
        set_language("en")
    assert error_text(wrong) == str(wrong)


def test_every_code_the_desktop_can_meet_has_a_chinese_sentence():
    assert sorted(c for c in CODES if f"error:{c}" not in ZH) == ["key_needed", "unavailable"]
