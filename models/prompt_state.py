"""What llama.cpp evaluated, as tokens and sequence state: taken after a reply for the prompt cache, put back at start.

The state of a conversation is the key/value cache of its tokens (sequence 0 of the context, no logits), so the
next engine starts where the last one stopped: the fixed prompt, the memory prefix and the open conversation's
history are not evaluated again. `models/prompt_cache.py` keeps it encrypted on disk; this module only moves it
between a live `Llama` and bytes.
"""
from __future__ import annotations

import ctypes
import logging
from typing import Any, Sequence

from models.prompt_cache import PromptCache

log = logging.getLogger(__name__)


def shared_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading tokens a and b have in common."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def cut_back(llm: Any, n: int) -> None:
    """Keep only the first n evaluated tokens of the context (the rest is dropped from the KV cache)."""
    if n < llm.n_tokens:
        llm._ctx.kv_cache_seq_rm(-1, n, -1)
        llm.n_tokens = n
        llm._requires_eval = True  # the logits are of a dropped position: the next prompt replays one token


def sequence_state(llm: Any) -> bytes:
    """The KV cache of the evaluated tokens (sequence 0), without logits: what `restore` puts back."""
    import llama_cpp

    ctx = llm._ctx.ctx
    size = llama_cpp.llama_state_seq_get_size(ctx, 0)
    buf = (ctypes.c_uint8 * size)()
    used = llama_cpp.llama_state_seq_get_data(ctx, buf, size, 0)
    # One copy of the bytes: slicing the ctypes array (`bytes(buf[:used])`) first built a list of one Python int per
    # byte, ~0.6 s for the 21 MB of a 906-token SmolLM2 state, after every reply, before the engine said it was done.
    return ctypes.string_at(buf, used)


def restore(llm: Any, cache: PromptCache, head: Sequence[int], n_ctx: int) -> list[int]:
    """Put the saved state back into an empty context when it begins with `head` (the fixed prompt and memory
    prefix the next prompt starts with); the tokens put back, or [] (a file of another head is deleted).

    The saved tokens may go on past what the next prompt shares (another conversation, a note that changed):
    llama-cpp-python keeps the shared part and evaluates from where they differ."""
    import llama_cpp

    found = cache.read(n_ctx)
    if found is None:
        return []
    tokens, state = found
    if list(tokens[:len(head)]) != list(head) or len(tokens) < len(head):
        log.info("prompt cache holds another head (%d tokens, now %d); deleted", len(tokens), len(head))
        cache.delete()
        return []
    buf = (ctypes.c_uint8 * len(state)).from_buffer_copy(state)
    if llama_cpp.llama_state_seq_set_data(llm._ctx.ctx, buf, len(state), 0) != len(state):
        log.warning("prompt cache state did not load; deleted")
        llm.reset()
        cache.delete()
        return []
    llm.input_ids[:len(tokens)] = tokens
    llm.n_tokens = len(tokens)
    llm._requires_eval = True
    log.info("prompt cache: %d tokens loaded (head %d)", len(tokens), len(head))
    return list(tokens)
