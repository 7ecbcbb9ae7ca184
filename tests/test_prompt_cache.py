"""The evaluated head and open conversation outlive the engine: real SmolLM2, real engine processes, a real encrypted
profile."""
from __future__ import annotations

import os
import stat
import struct
from pathlib import Path

import pytest

from app.chat import CUT_MARK, ChatService
from app.clock import Clock
from app.companion import Companion
from app.memory_service import MemoryService
from models.chat import FALLBACK_FORMAT
from models.engine_client import ChatEngine
from models.prompt_cache import PromptCache, derive_key, model_identity
from models.resolve import resolve_chat_model

SECRET_MEMORY = "Keeps a blue heron named Quillon on the balcony"
TODAY = "2026-11-29"


def _open(home) -> Companion:
    c = Companion(home, Clock.parse(TODAY))
    c.settings.max_reply_tokens = 4
    c.settings.temperature = 0.0
    c.settings.n_ctx = 2048
    return c


def _first_reply_after_start(home, text: str = "Hello, how are you?") -> tuple[int, int]:
    """(reused, evaluated) prompt tokens of the first reply of a freshly opened profile and engine."""
    c = _open(home)
    try:
        chat = ChatService(c)
        chat.run(None, text)
        p = c.chat_model().last_prompt
        return p.reused, p.evaluated
    finally:
        c.close()


@pytest.fixture
def profile(companion_env):
    c = _open(companion_env)
    MemoryService(c).add(SECRET_MEMORY, category="profile")
    c.close()
    return companion_env


def test_the_first_reply_after_a_restart_reuses_the_saved_head_and_the_file_holds_no_plaintext(profile):
    cold_reused, cold_evaluated = _first_reply_after_start(profile)
    cache = profile / "prompt-state.bin"
    assert cold_reused == 0 and cache.exists()
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    warm_reused, warm_evaluated = _first_reply_after_start(profile, "Good morning again!")
    assert warm_reused > 100 and warm_evaluated * 3 < cold_evaluated, (cold_evaluated, warm_reused, warm_evaluated)
    data = cache.read_bytes()
    c = _open(profile)
    fixed = ChatService(c).fixed_prompt("en")
    c.close()
    for plain in ("Quillon", "heron", SECRET_MEMORY, fixed[:40], fixed.split("\n")[0][:30]):
        for encoded in (plain.encode(), plain.encode("utf-16-le")):
            assert encoded not in data, plain
    assert not (profile / "prompt-state.bin.tmp").exists()


def test_a_session_continued_after_a_restart_keeps_its_prefix_and_the_saved_head(profile):
    """What was learned during a session does not change that session's prefix after a restart (the saved state is
    of the old one): it stays in its note, and joins the prefix of the next session."""
    c = _open(profile)
    chat = ChatService(c)
    first = chat.run(None, "Hello, how are you?")
    MemoryService(c).add("Works night shifts at the hospital", category="profile")
    second = chat.run(first.session_id, "I'm tired today.")
    prefix = second.messages[1]["content"]
    assert "night shifts" not in prefix and "night shifts" in second.messages[-2]["content"]
    c.close()
    c = _open(profile)
    try:
        chat = ChatService(c)
        again = chat.run(first.session_id, "Good morning again!")
        p = c.chat_model().last_prompt
        head_tokens = sum(c.chat_model().count_tokens(m["content"]) for m in again.messages[:2])
        assert again.messages[1]["content"] == prefix and p.reused > head_tokens, (p.reused, head_tokens)
        assert again.messages[:len(second.messages)] == second.messages  # its note stays where it was, once
        assert sum("night shifts" in m["content"] for m in again.messages) == 1
        later = chat.prepare(None, "A new day!")
        assert "night shifts" in later.messages[1]["content"]
    finally:
        c.close()


def test_the_open_conversation_outlives_a_restart_encrypted_and_the_next_reply_evaluates_only_what_is_new(profile):
    """The history joins the saved state: the first reply after a restart evaluates its own message and the template's
    few tokens around it, like a warm turn, not the conversation again; the note an earlier turn showed is back at its
    spot (the prompt comes out as before). The file holds none of the conversation's words."""
    c = _open(profile)
    chat = ChatService(c)
    first = chat.run(None, "My neighbour Orsolya repairs violins in her workshop.")
    MemoryService(c).add("Plays the cello in an amateur orchestra", category="preference")
    second = chat.run(first.session_id, "I play the cello in an orchestra, rehearsal is on Thursday.")
    note = second.messages[-2]
    assert note["role"] == "system" and "cello" in note["content"], second.messages
    warm = c.chat_model().last_prompt
    c.close()
    data = (profile / "prompt-state.bin").read_bytes()
    for plain in ("Orsolya", "violins", "rehearsal", "cello", "Quillon", second.reply.strip()[:20]):
        for encoded in (plain.encode(), plain.encode("utf-16-le")):
            assert not plain.strip() or encoded not in data, plain
    c = _open(profile)
    try:
        text = "What should I practise?"
        third = ChatService(c).run(first.session_id, text)
        p = c.chat_model().last_prompt
        assert third.messages[:len(second.messages)] == second.messages  # the note is where it was
        history = sum(c.chat_model().count_tokens(m["content"]) for m in second.messages)
        # The reply was cut at 4 tokens: its saved text ends in a mark the model never said, evaluated as a warm turn would
        mark = c.chat_model().count_tokens(f"\n\n{CUT_MARK}") if second.cut else 0
        assert p.reused > history and p.evaluated <= c.chat_model().count_tokens(text) + mark + 16, (p, warm, history)
    finally:
        c.close()


def test_deleting_a_conversation_deletes_the_saved_state_that_holds_it(profile, cli):
    first = _first_reply_after_start(profile)
    assert first and (profile / "prompt-state.bin").exists()
    c = _open(profile)
    session = c.transcript.sessions()[0].id
    c.close()
    cli.run("sessions", "delete", session)
    assert not (profile / "prompt-state.bin").exists()


def test_a_changed_prefix_invalidates_the_cache(profile):
    _first_reply_after_start(profile)
    c = _open(profile)
    MemoryService(c).add("Is training for a marathon in Chengdu", category="profile")
    c.close()
    reused, evaluated = _first_reply_after_start(profile, "Good morning again!")
    assert reused == 0, "another head must not start from the old state"
    # …and the new head was written in its place: the next start reuses that one
    reused, _ = _first_reply_after_start(profile, "Hi once more!")
    assert reused > 100


def test_a_corrupted_file_is_ignored_and_replaced(profile):
    _first_reply_after_start(profile)
    cache = profile / "prompt-state.bin"
    data = bytearray(cache.read_bytes())
    data[len(data) // 2] ^= 0xFF
    cache.write_bytes(bytes(data))
    reused, _ = _first_reply_after_start(profile, "Good morning again!")
    assert reused == 0
    assert cache.exists() and cache.read_bytes() != bytes(data)
    reused, _ = _first_reply_after_start(profile, "Hi once more!")
    assert reused > 100
    cache.write_bytes(b"CPC1 cut short")
    reused, _ = _first_reply_after_start(profile, "Hello there")
    assert reused == 0 and cache.exists() and len(cache.read_bytes()) > 1000


def test_forgetting_a_memory_deletes_the_cache(profile):
    _first_reply_after_start(profile)
    cache = profile / "prompt-state.bin"
    assert cache.exists()
    c = _open(profile)
    service = MemoryService(c)
    secret = next(m for m in service.memories() if m.content == SECRET_MEMORY)
    service.forget([secret.id])
    assert not cache.exists()
    c.close()
    _first_reply_after_start(profile)
    c = _open(profile)
    assert cache.exists()
    MemoryService(c).forget_all()
    assert not cache.exists()
    c.close()


def test_another_model_or_key_does_not_use_the_file_and_deletes_it(tmp_path):
    resolved = resolve_chat_model(None)
    messages = [{"role": "system", "content": "You are a kind companion. " * 20},
                {"role": "system", "content": "Notes about the user: likes tea."},
                {"role": "user", "content": "Hi!"}]
    salt = os.urandom(16)
    key = derive_key("ab" * 32, "raw", salt)
    path = tmp_path / "prompt-state.bin"
    right = PromptCache(path, key, salt, model_identity(resolved.path, resolved.sha256))

    def first_reused(cache: PromptCache) -> int:
        with ChatEngine(resolved.path, n_ctx=1024, n_threads=2, seed=1, prompt_cache=cache) as e:
            "".join(e.stream(messages, max_tokens=2, temperature=0.0, head=2))
            return e.last_prompt.reused

    assert first_reused(right) == 0 and path.exists()
    assert first_reused(right) > 20
    other_model = PromptCache(path, key, salt, "sha256:" + "0" * 64)
    assert first_reused(other_model) == 0  # deleted, then written again for "that" model
    assert first_reused(right) == 0
    other_key = PromptCache(path, derive_key("cd" * 32, "raw", salt), salt, right.model)
    assert first_reused(other_key) == 0
    assert first_reused(other_key) > 20


def test_the_cache_key_is_derived_not_the_database_key():
    salt = bytes(16)
    raw = "ab" * 32
    assert derive_key(raw, "raw", salt) != bytes.fromhex(raw)
    assert derive_key(raw, "raw", salt) != derive_key(raw, "raw", bytes([1]) * 16)
    assert derive_key("correct horse", "passphrase", salt) != derive_key("correct horse!", "passphrase", salt)


def test_the_cache_is_written_in_pieces_a_write_given_up_leaves_the_old_file_and_no_plaintext(tmp_path):
    """The engine's writer writes a piece at a time (waiting while a request is in hand) and gives up after a forget."""
    salt = os.urandom(16)
    cache = PromptCache(tmp_path / "prompt-state.bin", derive_key("ab" * 32, "raw", salt), salt, "sha256:" + "1" * 64)
    state = SECRET_MEMORY.encode() * (3 * 2 ** 20 // len(SECRET_MEMORY))  # several pieces of one plain text
    asked: list[int] = []
    tmp = cache.write_temporary(2048, [1, 2, 3], state, lambda: not asked.append(1))
    assert tmp is not None and len(asked) >= 4 and not cache.path.exists()
    assert SECRET_MEMORY.encode() not in tmp.read_bytes()
    cache.commit(tmp)
    assert cache.read(2048) == ([1, 2, 3], state) and not tmp.exists()
    asked.clear()
    assert cache.write_temporary(2048, [4, 5], state, lambda: len(asked) < 2 and not asked.append(1)) is None
    assert not tmp.exists() and cache.read(2048) == ([1, 2, 3], state)


def test_forgetting_during_a_reply_keeps_that_reply_from_writing_the_cache_again(profile):
    c = _open(profile)
    try:
        c.settings.max_reply_tokens = 48
        chat, service = ChatService(c), MemoryService(c)
        turn = chat.prepare(None, "Tell me a long story about a lighthouse.")
        pieces = chat.stream(turn)
        next(pieces)  # the engine is generating; it writes the cache only after its last token
        secret = next(m for m in service.memories() if m.content == SECRET_MEMORY)
        service.forget([secret.id])
        for _ in pieces:
            pass
        chat.finish(turn)
        c.chat_model().close()  # the engine ends once its cache writer has nothing left to write
        assert not (profile / "prompt-state.bin").exists()
        chat.run(turn.session_id, "And then?")  # a reply that started after the forgetting writes it again
        c.chat_model().close()
        assert (profile / "prompt-state.bin").exists()
    finally:
        c.close()


def _without_chat_template(folder) -> Path:
    """The bundled GGUF with its tokenizer.chat_template key renamed (same length, so the file stays valid)."""
    key = b"tokenizer.chat_template"
    data = resolve_chat_model(None).path.read_bytes()
    field = struct.pack("<Q", len(key)) + key
    assert data.count(field) == 1
    path = folder / "no-template.gguf"
    path.write_bytes(data.replace(field, struct.pack("<Q", len(key)) + b"tokenizer.chat_templatX"))
    return path


def test_a_model_without_a_chat_template_sees_every_system_message_and_gets_the_prompt_cache(tmp_path):
    path = _without_chat_template(tmp_path)
    persona = {"role": "system", "content": "You are a kind companion. " * 20}
    notes = {"role": "system", "content": "Notes about the user: likes tea and keeps a heron named Quillon."}
    hello = {"role": "user", "content": "Hi!"}
    salt = os.urandom(16)
    cache = PromptCache(tmp_path / "prompt-state.bin", derive_key("ab" * 32, "raw", salt), salt,
                        model_identity(path, None))

    def first_prompt(messages: list[dict], with_cache: bool = True) -> tuple[int, int, str | None]:
        with ChatEngine(path, n_ctx=1024, n_threads=2, seed=1, prompt_cache=cache if with_cache else None) as e:
            "".join(e.stream(messages, max_tokens=2, temperature=0.0, head=2))
            return e.last_prompt.reused, e.last_prompt.evaluated, e.chat_format

    _, without_notes, chat_format = first_prompt([persona, hello], with_cache=False)
    _, with_notes, _ = first_prompt([persona, notes, hello], with_cache=False)
    assert chat_format == FALLBACK_FORMAT
    assert with_notes > without_notes + 10, (without_notes, with_notes)  # the notes reach the model
    reused, _, _ = first_prompt([persona, notes, hello])
    assert reused == 0 and cache.path.exists()
    reused, _, _ = first_prompt([persona, notes, {"role": "user", "content": "Good morning!"}])
    assert reused > 100


def test_a_conversation_preloaded_at_start_is_kept_only_for_a_prompt_with_its_head(tmp_path):
    from models.chat import ChatModel

    resolved = resolve_chat_model(None)
    salt = os.urandom(16)
    cache = PromptCache(tmp_path / "prompt-state.bin", derive_key("ab" * 32, "raw", salt), salt,
                        model_identity(resolved.path, resolved.sha256))
    persona = {"role": "system", "content": "You are a kind companion. " * 20}
    notes = {"role": "system", "content": "<memory>\nLikes tea.\n</memory>"}
    talk = [persona, notes, {"role": "user", "content": "Hi!"}]

    def reply(messages: list[dict], head: int = 2) -> tuple[int, int]:
        with ChatModel(resolved.path, n_ctx=1024, n_threads=2, seed=1, prompt_cache=cache) as model:
            loaded = model.preload()
            "".join(model.stream(messages, max_tokens=2, temperature=0.0, head=head))
            kept = model.evaluated_conversation()
            if kept is not None:
                cache.write(model.n_ctx, *kept)
            return loaded, model.last_prompt.reused

    assert reply(talk) == (0, 0) and cache.path.exists()
    loaded, reused = reply([*talk, {"role": "assistant", "content": "Hello!"}, {"role": "user", "content": "Tea?"}])
    assert loaded > 100 and reused > 100
    loaded, reused = reply(talk, head=0)  # no head (nothing may be cached): loaded, not used, the file kept
    assert loaded > 100 and reused == 0 and cache.path.exists()
    other = {"role": "system", "content": "<memory>\nLikes coffee.\n</memory>"}
    loaded, reused = reply([persona, other, {"role": "user", "content": "Hi!"}])
    assert loaded > 100 and reused == 0  # another head: dropped (and the file replaced by this reply's)


def test_the_first_reply_after_a_restart_waits_for_no_history_counts(profile):
    """After a restart no message of the conversation is counted yet: a conversation that fits the context by its
    bytes is not counted before the reply (it was one request for all of them, before that one a message), and the
    engine it asks has read the saved conversation once warm_up returned."""
    c = _open(profile)
    chat = ChatService(c)
    session = None
    for text in ("I repair bicycles on weekends.", "My sister lives in Porto.", "I am learning Portuguese."):
        session = chat.run(session, text).session_id
    c.close()
    c = _open(profile)
    try:
        engine = c.warm_up()
        counted: list[list[str]] = []
        send = engine._send

        def sending(rid, op, **fields):
            if op == "count":
                counted.append(fields["texts"])
            send(rid, op, **fields)

        engine._send = sending  # type: ignore[method-assign]
        ChatService(c).run(session, "Any tips for the language?")
        history = [m.content for m in c.transcript.messages(session)][:6]  # the three turns before this one
        assert not [texts for texts in counted if set(history) & set(texts)], counted
        assert c.chat_model().last_prompt.reused > 100
    finally:
        c.close()
