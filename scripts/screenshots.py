"""Render the desktop app to PNG under docs/screenshots/ (a throwaway profile with a few memories and a chat).

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]

Runs offscreen unless QT_QPA_PLATFORM says otherwise (under Xvfb: QT_QPA_PLATFORM=xcb xvfb-run -s "-screen 0
1440x900x24"; Chinese needs a CJK font such as fonts-noto-cjk). Each view at 1280x800 and 800x600, English and
Chinese: main-window.png, memory-panel-800x600.png, settings-zh_CN.png, models.png, follow-up.png,
how-do-you-know-zh_CN.png, models-offline-800x600.png, memory-receipt-800x600-zh_CN.png, chinese-to-built-in.png,
model-offer.png, … (`--views answers` or `--views fit` renders only those kinds; `--languages en` one language).
"""
from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QWidget  # noqa: E402

from app.clock import Clock  # noqa: E402
from app.settings import Settings  # noqa: E402
from memory.records import Memory  # noqa: E402
from memory.storage import record_sources  # noqa: E402
from memory.storage.store import new_id  # noqa: E402
from ui import ask  # noqa: E402
from ui.harness import settle, throwaway_window, wait_for  # noqa: E402
from ui.i18n import set_language, tr  # noqa: E402
from ui.main_window import MainWindow  # noqa: E402
from ui.memory_dialogs import HistoryDialog  # noqa: E402
from ui.models_dialog import ModelsDialog  # noqa: E402
from ui.settings_dialog import SettingsDialog  # noqa: E402

MEMORIES = [
    ("profile", "Prefers to be called Mia", dict(source="explicit", confidence=1.0, importance=0.9, pinned=True,
                                                  quote="remember that I like to be called Mia")),
    ("profile", "Works as a nurse in Lyon", dict(importance=0.7, quote="I'm a nurse here in Lyon")),
    ("preference", "Likes the show Friends (since 2026-10-05)", dict(importance=0.5, quote="I love Friends")),
    ("relationship", "Sister Lily had a baby in November 2026", dict(importance=0.8,
                                                                     quote="my sister Lily just had her baby")),
    ("event", "Driving test on 2026-12-04", dict(event_date="2026-12-04", importance=0.8,
                                                 quote="my driving test is next Friday")),
    ("feedback", "Does not want to be called 'sweetie'", dict(source="explicit", importance=0.9,
                                                             quote="please don't call me sweetie")),
    ("preference", "Drinks green tea in the morning", dict(importance=0.4, disabled=True)),
]
REPLY = ("Good luck on **Friday**, Mia! A few things that help on the day of a driving test:\n\n"
         "1. Sleep well and eat something light.\n2. Arrive *early* and adjust the seat and mirrors.\n"
         "3. Say what you check out loud — examiners like that.\n\nYou have practised a lot. You've got this.")


def seed(window: MainWindow) -> tuple[dict[str, Memory], str]:
    """Memories (one of them replaced later) and a short conversation whose reply used some of them."""
    store, transcript = window.desk.c.store, window.desk.c.transcript
    made = {}
    with store.db.transaction():
        for category, content, extra in MEMORIES:
            made[content] = store.add(Memory(new_id(), category, content, **extra))
    coffee = store.add(Memory(new_id(), "preference", "Likes strong coffee", quote="I need my coffee"))
    store.supersede(coffee.id, Memory(new_id(), "preference", "Stopped drinking coffee (since 2026-11-20)",
                                      quote="I quit coffee last week"), "said the opposite")
    session = transcript.create_session("Driving test nerves")
    transcript.add_message(session.id, "user", "My driving test is next Friday and I'm so nervous. Any tips?")
    used = [made["Prefers to be called Mia"].id, made["Driving test on 2026-12-04"].id]
    transcript.add_message(session.id, "assistant", REPLY, used)
    transcript.add_message(session.id, "user", "Thanks! Also, please remember that my sister Lily's baby is "
                                               "called Noah.")
    other = transcript.create_session("Weekend plans")
    transcript.add_message(other.id, "user", "Any ideas for a rainy Sunday?")
    return made, session.id


PRIVATE_CHAT = {
    "en": ("I had a rough day at work and I just want to vent, without any of it being kept.",
           "Of course, Mia. Nothing of this conversation is saved or learned. Tell me what happened."),
    "zh_CN": ("今天上班很不顺，我只想发发牢骚，不想让你记住。", "好的，Mia。这次对话不会保存，也不会被记住。说说发生了什么吧。"),
}


def privacy_shots(window: MainWindow, out: Path) -> None:
    """A private conversation in each language, then the receipt of forgetting a conversation in each."""
    for language in LANGUAGES:
        set_language(language)
        window.retranslate()
        window.private_action.setChecked(True)
        said, reply = PRIVATE_CHAT[language]
        window.chat_view.add_user_message(said)
        window.chat_view.begin_reply()
        window.chat_view.append_reply(reply)
        window.chat_view.end_reply([])
        save(window, out / shot_name("private-conversation", SIZES[0], language))
        window.private_action.setChecked(False)
    set_language("en")
    window.retranslate()
    c, weekend = window.desk.c, next(s.id for s in window.desk.sessions() if s.title == "Weekend plans")
    said = c.transcript.add_message(weekend, "user", "When it rains we always play board games.")
    games = c.store.add(Memory(new_id(), "preference", "Plays board games when it rains", session_id=weekend,
                               message_id=said.id, quote="we always play board games"))
    record_sources(c.db, weekend, said.id, [(games.id, games.quote)])
    ask.confirm = lambda *_args, **_kw: True  # the question is the user's to answer; here it is answered yes
    window.forget_session(weekend)
    while not window.panel.banner.isVisible():
        settle(100)
    for language in LANGUAGES:
        set_language(language)
        window.retranslate()
        save(window, out / shot_name("forget-conversation", SIZES[0], language))


def save(widget: QWidget, path: Path) -> None:
    settle(300)
    widget.grab().save(str(path))
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


SIZES = ((1280, 800), (800, 600))
LANGUAGES = ("en", "zh_CN")


def shot_name(kind: str, size: tuple[int, int], language: str) -> str:
    """main-window.png for the default (1280x800, English); else e.g. memory-panel-800x600-zh_CN.png."""
    parts = [kind] + ([f"{size[0]}x{size[1]}"] if size != SIZES[0] else []) + ([language] if language != "en" else [])
    return "-".join(parts) + ".png"


# Issue 34: a new chat opening with a follow-up, and "how do you know that?" answered from the record.
FOLLOW_UP_EVENT = {"en": ("event", "Job interview on 2026-12-04", dict(event_date="2026-12-04", importance=0.9,
                                                                     quote="I have a job interview on Friday", created_at="2026-11-29T10:00:00")),
                   "zh_CN": ("event", "2026-12-04去医院面试", dict(event_date="2026-12-04", importance=0.9,
                                                              quote="我周五去医院面试",
                                                              created_at="2026-11-29T10:00:00"))}
HOW_DO_YOU_KNOW = {"en": "How do you know that?", "zh_CN": "你怎么知道的？"}


def answer_shots(out: Path, languages: tuple[str, ...]) -> None:
    """follow-up.png (a new chat two days after the event) and how-do-you-know.png, per language."""
    for language in languages:
        set_language(language)
        settings = Settings(companion_name="Juniper", model_offer_dismissed=True, language=language)
        window = throwaway_window(settings, Clock.parse("2026-12-06"), SIZES[0], "companion-shots-")
        _made, session_id = seed(window)
        category, content, extra = FOLLOW_UP_EVENT[language]
        window.desk.c.store.add(Memory(new_id(), category, content, **extra))
        window.new_chat()
        for _ in range(100):  # the follow-up is made on the database worker
            if window.chat_view.remembered:
                break
            settle(100)
        window.chat_view.remembered[0].toggle.setChecked(True)
        save(window, out / shot_name("follow-up", SIZES[0], language))
        window.choose_session(session_id)
        settle(600)
        window.send(HOW_DO_YOU_KNOW[language])
        wait_for(window.controller.replyFinished, 60_000)
        save(window, out / shot_name("how-do-you-know", SIZES[0], language))
        window.shutdown()


# Issue 37: the Models page offline, a forget receipt at 800x600, a Chinese message to the built-in model, and
# the first-start offer with its size and the free disk.
CHINESE_TO_BUNDLED = "我叫小林，在成都当护士，最爱吃火锅"


def closed_port_url() -> str:
    """A url on 127.0.0.1 where nothing listens: connecting is refused, as with no network (no real network)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def fit_shots(out: Path, languages: tuple[str, ...]) -> None:
    """models-offline, memory-receipt, chinese-to-built-in and model-offer, at 1280x800 and 800x600 per language."""
    os.environ["COMPANION_MODEL_MIRROR"] = closed_port_url()
    for language in languages:
        set_language(language)
        first = throwaway_window(Settings(companion_name="Juniper", language=language), Clock.parse("2026-11-29"),
                                 SIZES[0], "companion-shots-")
        for size in SIZES:
            first.resize(*size)
            save(first, out / shot_name("model-offer", size, language))
        first.shutdown()
        settings = Settings(companion_name="Juniper", model_offer_dismissed=True, language=language)
        window = throwaway_window(settings, Clock.parse("2026-11-29"), SIZES[0], "companion-shots-")
        made, session_id = seed(window)
        window.refresh_sessions()
        for size in SIZES:
            window.resize(*size)
            models = window.open_models()
            models.show()
            row = next(r for r in models.rows.values() if r.listing.recommended)
            row.download.click()
            wait_for(models.downloadEnded, 30_000)
            models.scroll.ensureWidgetVisible(row)
            save(models, out / shot_name("models-offline", size, language))
            models.close()
        window.new_chat()
        settle(400)
        window.send(CHINESE_TO_BUNDLED)
        wait_for(window.controller.replyFinished, 60_000)
        for size in SIZES:
            window.dock.hide()
            window.resize(*size)
            save(window, out / shot_name("chinese-to-built-in", size, language))
        window.choose_session(session_id)
        for size in SIZES:
            window.resize(*size)
            window.show_memory(made["Sister Lily had a baby in November 2026"].id)
            settle(300)
            receipt = window.desk.forget_with_titles([made["Sister Lily had a baby in November 2026"].id])
            window.panel._forgotten(receipt)
            save(window, out / shot_name("memory-receipt", size, language))
            made["Sister Lily had a baby in November 2026"] = window.desk.c.store.add(
                Memory(new_id(), "relationship", "Sister Lily had a baby in November 2026", importance=0.8))
        window.shutdown()
    os.environ.pop("COMPANION_MODEL_MIRROR")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--views", choices=("all", "answers", "fit"), default="all",
                        help="answers: only the follow-up and 'how do you know' shots; fit: only issue 37's (the "
                             "Models page offline, a forget receipt, Chinese to the built-in model, the offer)")
    parser.add_argument("--languages", nargs="+", choices=LANGUAGES, default=list(LANGUAGES))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.views == "answers":
        answer_shots(out, tuple(args.languages))
        return 0
    if args.views == "fit":
        fit_shots(out, tuple(args.languages))
        return 0
    set_language("en")
    # The offer of a better model belongs to a first start, not to this profile with a history.
    settings = Settings(companion_name="Juniper", model_offer_dismissed=True)
    window = throwaway_window(settings, Clock.parse("2026-11-29"), SIZES[0], "companion-shots-")
    made, session_id = seed(window)
    window.refresh_sessions()
    window.choose_session(session_id)
    settle(800)
    for language in args.languages:
        set_language(language)
        window.retranslate()
        window.choose_session(session_id)
        settle(600)
        window.chat_view.remembered[0].toggle.setChecked(True)
        for size in SIZES:
            window.dock.hide()
            window.resize(*size)
            save(window, out / shot_name("main-window", size, language))
            window.show_memory(made["Driving test on 2026-12-04"].id)
            save(window, out / shot_name("memory-panel", size, language))
        window.dock.hide()
        window.resize(*SIZES[0])
        steps = window.desk.history(next(m.id for m in window.panel.model.memories() if "Stopped" in m.content))
        history = HistoryDialog(steps, steps[-1].memory.id, window)
        history.show()
        save(history, out / shot_name("memory-history", SIZES[0], language))
        history.close()
        c = window.desk.c
        dialog = SettingsDialog(c.settings, window.home, tr(c.key.describe()), window.model_name, window,
                                open_models=window._models_over)
        dialog.show()
        save(dialog, out / shot_name("settings", SIZES[0], language))
        dialog.close()
        models = ModelsDialog(window.home, c.settings, parent=window)
        models.show()
        save(models, out / shot_name("models", SIZES[0], language))
        models.close()
    privacy_shots(window, out)
    window.shutdown()
    answer_shots(out, tuple(args.languages))
    fit_shots(out, tuple(args.languages))
    return 0


if __name__ == "__main__":
    sys.exit(main())
