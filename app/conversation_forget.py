"""Forget this conversation (issue 34, item 3), one verb for the CLI (`companion sessions forget ID`) and the
window's conversation list: the transcript goes, so does every memory only it taught, and the memories other
conversations also support lose it as a source (memory/storage/session_forgetting.py); the saved prompt state
goes too, since it may hold those memories. The receipt lists every place checked."""
from __future__ import annotations

from app.companion import PROMPT_CACHE_PLACE, Companion
from memory.storage import ConversationReceipt, forget_session


def forget_conversation(c: Companion, session_id: str) -> ConversationReceipt:
    """Forget a conversation everywhere and return the receipt; NotFound (one sentence) if there is no such one."""
    receipt = forget_session(c.store, c.transcript, session_id)
    c.forget_prompt_cache()
    receipt.add_place(PROMPT_CACHE_PLACE, c.prompt_cache_gone())
    return receipt


def receipt_lines(receipt: ConversationReceipt) -> list[str]:
    """The receipt in words, for the terminal."""
    n, gone, kept = receipt.messages, len(receipt.forgotten), len(receipt.kept)
    lines = [f"forgot conversation {receipt.session}: {n} message{'' if n == 1 else 's'}, "
             f"{gone} memor{'y' if gone == 1 else 'ies'} only it taught{': ' if gone else ''}"
             f"{', '.join(receipt.forgotten)}"]
    if kept:
        lines.append(f"kept {kept} memor{'y' if kept == 1 else 'ies'} other conversations also support, without this "
                     f"one as a source: {', '.join(receipt.kept)}")
    if receipt.restored:
        lines.append(f"active again (only this conversation had replaced them): {', '.join(receipt.restored)}")
    lines.append(f"checked: {', '.join(receipt.checked)}")
    lines.append("verified: its text is in none of them" if receipt.verified
                 else f"NOT verified: still found in {', '.join(receipt.found_in)}")
    if receipt.unsearched:
        lines.append(f"not searched for: {receipt.unsearched} short or repeated text{'' if receipt.unsearched == 1 else 's'}"
                     " (too short to tell, or still said in another conversation or a kept memory)")
    if receipt.mentioned_in_sessions:
        lines.append("note: the same words are in the conversations "
                     f"{', '.join(receipt.mentioned_in_sessions)}; forget those too to remove them.")
    return lines
