"""Answers from the record (issue 34, item 4): "how do you know that?" and "what do you remember about me?".

Both are built from what is stored, never generated: the chat model is not asked. "How do you know" lists
the memories that shaped the companion's previous reply (the "used" memories saved on that message), each
with the user's own words (the memory's provenance quote), the day they said them and the conversation.
"What do you remember about me" gives a short summary by category, in the memory index's order.

Which messages ask this is a short list of phrases per language, matched against the whole message
(punctuation and a leading "so"/"那" aside), like "remember that…": a longer message that merely contains
"how do you know" ("how do you know so much about trains?") is an ordinary message.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.companion import Companion
from memory import Memory, Message, NotFound
from memory.recall import INDEX_ORDER, ranked_for_index

SOURCE_PHRASES = frozenset({
    "how do you know", "how do you know that", "how did you know", "how did you know that",
    "why do you think that", "why do you think so", "why do you say that", "what makes you think that",
    "when did i say that", "when did i tell you that", "when did i say so", "where did you get that",
    "where did you get that from",
    "你怎么知道", "你怎么知道的", "你是怎么知道的", "你咋知道", "为什么这么说", "你为什么这么说", "为什么这样说",
    "我什么时候说过", "我什么时候说过这个", "我什么时候说过这些", "我什么时候说的", "我什么时候跟你说过",
    "我什么时候告诉过你", "我啥时候说过",
})
SUMMARY_PHRASES = frozenset({
    "what do you remember about me", "what do you know about me", "what have you remembered about me",
    "what do you remember of me",
    "你记得我什么", "你都记得我什么", "你还记得我什么", "你记得关于我的什么", "关于我你记得什么", "你都知道我什么",
    "你知道我什么",
})
_LEAD = re.compile(r"^(?:(?:so|but|and|ok|okay|wait|hmm|hm|um|well|then)\b[\s,]*|(?:那|那么|可是|但是|诶|咦|嗯)[，,\s]*)",
                   re.IGNORECASE)
_EDGES = re.compile(r"^[\s\"'“”‘’.,!?~…。，！？、]+|[\s\"'“”‘’.,!?~…。，！？、呢吗啊呀]+$")
SUMMARY_PER_CATEGORY = 3
_QUOTE_CHARS = 160
_HEADINGS = {
    "en": {"profile": "Who you are", "feedback": "How you want me to talk", "relationship": "People and feelings",
           "preference": "Likes and dislikes", "event": "Dates"},
    "zh": {"profile": "关于你", "feedback": "你希望我怎么说话", "relationship": "你在乎的人和心情",
           "preference": "喜欢和不喜欢", "event": "日子"},
}


@dataclass
class RecordAnswer:
    """An answer built from the record: its text (Markdown) and the memories it names."""

    kind: str  # "source" (how do you know) or "summary" (what do you remember about me)
    text: str
    memories: list[Memory] = field(default_factory=list)


def question_kind(text: str) -> str | None:
    """'source', 'summary', or None for a message that is not one of these questions."""
    said = " ".join(text.replace("’", "'").split()).casefold()
    said = _EDGES.sub("", _LEAD.sub("", _EDGES.sub("", said)))
    if said in SOURCE_PHRASES:
        return "source"
    if said in SUMMARY_PHRASES:
        return "summary"
    return None


def record_answer(c: Companion, session_id: str, history: list[Message], text: str,
                  language: str) -> RecordAnswer | None:
    """The answer from the record when `text` asks one of these questions, else None."""
    kind = question_kind(text)
    if kind == "summary":
        return _summary(c, language)
    if kind == "source":
        return _sources(c, session_id, history, language)
    return None


def _sources(c: Companion, session_id: str, history: list[Message], language: str) -> RecordAnswer:
    previous = next((m for m in reversed(history) if m.role == "assistant"), None)
    zh = language == "zh"
    if previous is None:
        return RecordAnswer("source", "这次对话里我还没说过什么，所以没有可以追溯的内容。" if zh else
                            "I have not said anything in this conversation yet, so there is nothing to trace back.")
    if not previous.memories_used:
        return RecordAnswer("source", "我上一条回复没有用到关于你的任何记忆，只是根据我们这次的对话。" if zh else
                            "My last reply did not use anything I remember about you; it came from this "
                            "conversation alone.")
    found = c.store.usable(previous.memories_used)
    by_id = {m.id: m for m in found}
    memories = [by_id[i] for i in previous.memories_used if i in by_id]
    lines = [("我上一条回复用到了这些记忆：" if zh else
              ("My last reply drew on this memory:" if len(memories) == 1 else
               f"My last reply drew on these {len(memories)} memories:")), ""]
    lines += [f"{n}. {_cited(c, m, session_id, zh)}" for n, m in enumerate(memories, 1)]
    gone = len(previous.memories_used) - len(memories)
    if gone:
        lines += ["", (f"另有 {gone} 条当时用到的记忆已经被忘记或关闭了。" if zh else
                       "1 more memory it used has since been forgotten or turned off." if gone == 1 else
                       f"{gone} more memories it used have since been forgotten or turned off.")]
    lines += ["", ("可以在记忆面板里打开或忘记其中任何一条，或者用 `companion memory forget ID`。" if zh else
                   "You can open or forget any of them in the memory panel, or with `companion memory forget ID`.")]
    return RecordAnswer("source", "\n".join(lines).replace("\n\n\n", "\n\n"), memories)


def _cited(c: Companion, m: Memory, session_id: str, zh: bool) -> str:
    """One memory with the user's words, when and where they said them, and its id."""
    said_in = _message(c, m)
    quote = m.quote or (said_in.content if said_in else None)
    day = (said_in.created_at if said_in else m.created_at or "")[:10]
    where = _conversation(c, m, session_id, zh)
    if quote and (m.session_id or quote != m.content):  # words the user said, in a chat or to `memory extract`
        words = quote if len(quote) <= _QUOTE_CHARS else quote[:_QUOTE_CHARS - 1] + "…"
        source = (f"你 {day} {'在' + where if where else ''}说过：“{words}”" if zh else f"you said “{words}” on {day}{where}")
    else:  # typed into the memory panel or `companion memory add`, or imported: not said in a conversation
        source = f"你 {day} 直接添加的" if zh else f"you added it directly on {day}"
    return f"**{m.content}** — {source}。`{m.id}`" if zh else f"**{m.content}** — {source}. `{m.id}`"


def _message(c: Companion, m: Memory) -> Message | None:
    if not (m.session_id and m.message_id):
        return None
    return next((x for x in c.transcript.messages(m.session_id) if x.id == m.message_id), None)


def _conversation(c: Companion, m: Memory, session_id: str, zh: bool) -> str:
    """Where the words were said: this conversation, another one by its title, or one since deleted."""
    if not m.session_id:
        return ""
    if m.session_id == session_id:
        return "这次对话里" if zh else ", earlier in this conversation"
    try:
        title = c.transcript.get_session(m.session_id).title
    except NotFound:
        return "一个已删除的对话里" if zh else ", in a conversation since deleted"
    return f"对话“{title}”里" if zh else f", in the conversation “{title}”"


def _summary(c: Companion, language: str) -> RecordAnswer:
    zh = language == "zh"
    memories = ranked_for_index(c.store.usable())
    if not memories:
        return RecordAnswer("summary", "我还没有记住关于你的任何事。" if zh else "I do not remember anything about you yet.")
    n = len(memories)
    lines = [f"我记得关于你的 {n} 件事：" if zh else
             ("I remember 1 thing about you:" if n == 1 else f"I remember {n} things about you:")]
    shown: list[Memory] = []
    for category in INDEX_ORDER:
        group = [m for m in memories if m.category == category]
        if not group:
            continue
        heading = _HEADINGS["zh" if zh else "en"][category]
        lines += ["", f"**{heading}**（{len(group)}）" if zh else f"**{heading}** ({len(group)})"]
        lines += [f"- {m.content}" for m in group[:SUMMARY_PER_CATEGORY]]
        if len(group) > SUMMARY_PER_CATEGORY:
            more = len(group) - SUMMARY_PER_CATEGORY
            lines.append(f"- 还有 {more} 条" if zh else f"- and {more} more")
        shown += group[:SUMMARY_PER_CATEGORY]
    lines += ["", ("全部记忆都在记忆面板里（Ctrl+M），也可以用 `companion memory list` 查看。" if zh else
                   "Everything is in the memory panel (Ctrl+M), or `companion memory list`.")]
    return RecordAnswer("summary", "\n".join(lines), shown)
