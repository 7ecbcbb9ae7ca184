"""The receipt of forgetting a conversation, in words (app/conversation_forget.py): what went, what stayed, and the
proof, written like a forgotten memory's (ui/memory_panel.py)."""
from __future__ import annotations

import html

from memory.storage import ConversationReceipt
from ui.i18n import tr
from ui.memory_panel import proof_lines


def conversation_receipt_html(receipt: ConversationReceipt, title: str,
                              session_titles: dict[str, str] | None = None) -> str:
    """What forgetting one conversation did, and where the app looked afterwards."""
    n, gone, kept = receipt.messages, len(receipt.forgotten), len(receipt.kept)
    lines = [f"<b>{html.escape(tr('Forgot the conversation “{title}”.', title=title))}</b>",
             tr("{n} messages", n=n) if n != 1 else tr("1 message")]
    lines[-1] += " · " + (tr("{n} memories only it taught", n=gone) if gone != 1 else tr("1 memory only it taught"))
    if kept:
        lines.append(tr("Kept 1 memory that another conversation also supports, without this one as its source.")
                     if kept == 1 else
                     tr("Kept {n} memories that other conversations also support, without this one as their source.",
                        n=kept))
    if receipt.restored:
        lines.append(tr("Back in use: {n} memories it had replaced.", n=len(receipt.restored))
                     if len(receipt.restored) != 1 else tr("Back in use: 1 memory it had replaced."))
    return "<br>".join(lines + proof_lines(receipt, session_titles))
