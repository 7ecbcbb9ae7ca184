"""Forget this conversation (issue 34, item 3): the transcript goes, so does every memory only it taught; a memory
other conversations also support stays and loses it as a source. Proven like forgetting a memory: the receipt's
places, then every table and every decrypted page of the database file and its WAL. Real encrypted profiles, the
bundled models."""
from __future__ import annotations

import json

from app.chat import ChatService
from app.clock import Clock
from app.companion import PROMPT_CACHE_PLACE, Companion
from app.conversation_forget import forget_conversation
from memory.records import Memory
from memory.storage import record_sources
from memory.storage.sources import supporting_sessions
from memory.storage.store import new_id
from tests.support.traces import traces

PLACES = {"memories", "memory_history", "memory_sources", "memories_fts_content", "memories_fts_data",
          "memory_vectors_vector_chunks00", "messages", "messages_fts_content", "messages_fts_data", "sessions",
          "consolidation_log", "meta", PROMPT_CACHE_PLACE}


def _open(home) -> Companion:
    c = Companion(home, Clock.parse("2026-11-29"))
    c.settings.max_reply_tokens, c.settings.temperature, c.settings.n_ctx = 4, 0.0, 2048
    return c


def _say(chat: ChatService, session: str | None, text: str) -> tuple[str, list[tuple[str, str]]]:
    turn = chat.run(session, text)
    return turn.session_id, [(w.action, w.memory.id) for w in chat.learn(turn).written]


def test_forgetting_a_chat_takes_what_it_alone_taught_and_keeps_what_another_also_said(companion_env):
    c = _open(companion_env)
    try:
        chat = ChatService(c)
        gone, berries = _say(chat, None, "I love Zqxberries so much.")
        gone, tortoise = _say(chat, gone, "My tortoise is called Zqxshelly and she is forty.")
        kept, again = _say(chat, None, "I love Zqxberries so much.")
        kept, sister = _say(chat, kept, "My sister Zqxlena lives in Lviv.")
        # What the pipeline made of them (if this changes, the scenario below needs new sentences)
        assert [a for a, _ in berries + tortoise + again + sister] == ["added", "added", "reinforced", "added"]
        assert again[0][1] == berries[0][1]
        assert supporting_sessions(c.db, berries[0][1]) == {gone, kept}

        receipt = forget_conversation(c, gone)

        assert receipt.verified and receipt.found_in == [], receipt
        assert receipt.forgotten == [tortoise[0][1]] and receipt.kept == [berries[0][1]] and receipt.messages == 4
        assert PLACES <= set(receipt.checked) and any(p.startswith("write-ahead log") for p in receipt.checked)
        assert {m.id for m in c.store.list(status="all")} == {berries[0][1], sister[0][1]}
        assert supporting_sessions(c.db, berries[0][1]) == {kept} and c.store.get(berries[0][1]).session_id == kept
        assert [s.id for s in c.transcript.sessions()] == [kept]
        assert not c.prompt_cache_path.exists()
        assert traces(c, ["Zqxshelly", "zqxshelly", "tortoise", "she is forty"]) == {}
        assert "pages" in traces(c, ["Zqxberries"])["Zqxberries"]  # still said in the other conversation
    finally:
        c.close()


def test_a_memory_first_heard_in_the_forgotten_chat_keeps_the_other_chats_words_and_a_replaced_one_comes_back(
        companion_env):
    c = _open(companion_env)
    try:
        t = c.transcript
        other, gone = t.create_session("Breakfast talk"), t.create_session("I adore Zqxberries in Zqxsummer")
        said_there = t.add_message(other.id, "user", "I love Zqxberries")
        said_here = t.add_message(gone.id, "user", "I adore Zqxberries in Zqxsummer, honestly")
        moved = t.add_message(gone.id, "user", "We moved to Zqxholm in the spring")
        t.add_message(gone.id, "assistant", "Zqxholm sounds lovely, tell me about the new flat!")
        # heard first in the conversation to forget, then again in the other one
        shared = c.store.add(Memory(new_id(), "preference", "Loves Zqxberries", quote="I adore Zqxberries in Zqxsummer",
                                    session_id=gone.id, message_id=said_here.id))
        record_sources(c.db, gone.id, said_here.id, [(shared.id, shared.quote)])
        c.store.reinforce(shared.id, reason="said again")
        record_sources(c.db, other.id, said_there.id, [(shared.id, "I love Zqxberries")])
        # a place the other conversation taught, replaced by one only the forgotten one taught
        city = c.store.add(Memory(new_id(), "profile", "Lives in Oslo", quote="I live in Oslo", session_id=other.id,
                                  message_id=said_there.id))
        newer = c.store.supersede(city.id, Memory(new_id(), "profile", "Lives in Zqxholm (since 2026-04)",
                                                  quote="We moved to Zqxholm", session_id=gone.id,
                                                  message_id=moved.id), reason="moved")
        by_hand = c.store.add(Memory(new_id(), "preference", "Likes quiet mornings", source="explicit"))

        receipt = forget_conversation(c, gone.id)

        assert receipt.verified, receipt
        assert receipt.forgotten == [newer.id] and receipt.kept == [shared.id] and receipt.restored == [city.id]
        stays = c.store.get(shared.id)
        assert (stays.session_id, stays.message_id, stays.quote) == (other.id, said_there.id, "I love Zqxberries")
        assert c.store.get(city.id).status == "active" and c.store.get(city.id).superseded_by is None
        assert c.store.get(by_hand.id).content == "Likes quiet mornings"
        assert traces(c, ["Zqxsummer", "zqxsummer", "I adore", "Zqxholm", "zqxholm", "new flat"]) == {}
        assert {"memories", "pages"} <= set(traces(c, ["Lives in Oslo"])["Lives in Oslo"])
    finally:
        c.close()


def test_the_command_prints_a_receipt_and_bad_input_is_one_sentence(cli, companion_env):
    session = cli.json("say", "--json", "--wait-memory", "My tortoise is called Zqxshelly and she is forty.")["session"]
    assert cli.json("memory", "list", "--json")
    assert (companion_env / "prompt-state.bin").exists()
    text = cli.run("sessions", "forget", session).stdout
    assert f"forgot conversation {session}: 2 messages, 1 memory only it taught" in text
    assert "verified: its text is in none of them" in text and PROMPT_CACHE_PLACE in text
    assert cli.json("memory", "list", "--status", "all", "--json") == []
    assert not (companion_env / "prompt-state.bin").exists()
    for missing in (session, "s_nosuchthing"):  # twice, and never there
        run = cli.run("sessions", "forget", missing, check=False)
        assert run.returncode == 2 and run.stdout == "", run
        assert run.stderr.count("\n") == 1 and f"No conversation has the id '{missing}'" in run.stderr


def test_the_json_receipt_has_the_memory_receipts_fields_and_the_conversations(cli):
    session = cli.json("say", "--json", "Good morning!")["session"]
    receipt = cli.json("sessions", "forget", session, "--json")
    assert {"forgotten", "verified", "checked", "found_in", "mentioned_in_sessions"} <= set(receipt)
    assert receipt["session"] == session and receipt["messages"] == 2 and receipt["verified"] is True
    assert receipt["forgotten"] == [] and receipt["kept"] == [] and receipt["restored"] == []
    assert json.dumps(receipt) and cli.json("sessions", "list", "--json") == []


def test_short_or_repeated_words_are_counted_not_searched_and_where_they_still_are_is_named(companion_env):
    c = _open(companion_env)
    try:
        t = c.transcript
        other, gone = t.create_session("Market"), t.create_session("Zqxplans for the weekend")
        t.add_message(other.id, "user", "See you at the Zqxmarket tomorrow")
        for text in ("ok", "See you at the Zqxmarket tomorrow", "My Zqxsecret plan is a surprise party"):
            t.add_message(gone.id, "user", text)
        receipt = forget_conversation(c, gone.id)
        assert receipt.verified and receipt.messages == 3, receipt
        assert receipt.unsearched == 2 and receipt.mentioned_in_sessions == [other.id]
        assert traces(c, ["Zqxsecret", "zqxsecret", "Zqxplans", "zqxplans"]) == {}
        assert "messages" in traces(c, ["Zqxmarket"])["Zqxmarket"]
    finally:
        c.close()


def test_an_older_profile_gets_each_memorys_first_source_when_it_opens(companion_env):
    c = _open(companion_env)
    session = c.transcript.create_session("Before sources were kept")
    said = c.transcript.add_message(session.id, "user", "I play the Zqxharp")
    m = c.store.add(Memory(new_id(), "preference", "Plays the Zqxharp", quote="I play the Zqxharp",
                           session_id=session.id, message_id=said.id))
    with c.db.transaction() as conn:  # as a database made before migration m005 was
        conn.execute("DROP TABLE memory_sources")
        conn.execute("DELETE FROM _migrations WHERE name = 'm005_memory_sources'")
    c.close()
    c = _open(companion_env)
    try:
        assert c.db.read("SELECT memory_id, session_id, message_id, quote FROM memory_sources") == [
            (m.id, session.id, said.id, "I play the Zqxharp")]
        assert forget_conversation(c, session.id).forgotten == [m.id]
    finally:
        c.close()


def test_words_another_conversation_gave_a_memory_are_not_taken_for_a_trace(companion_env):
    """"I love tea" from the forgotten conversation is inside "I love tea with milk", a deleted conversation's words on
    another memory (deleting keeps what it taught): that is not the forgotten text left behind (the receipt said NOT
    verified before)."""
    c = _open(companion_env)
    try:
        t = c.transcript
        gone, a, b = (t.create_session(f"Zqxchat {n}") for n in "GAB")
        here = t.add_message(gone.id, "user", "Honestly, I love tea")
        there = t.add_message(a.id, "user", "Tea is my thing")
        milk = t.add_message(b.id, "user", "I love tea with milk")
        tea = c.store.add(Memory(new_id(), "preference", "Loves tea", quote="I love tea", session_id=gone.id,
                                 message_id=here.id))
        record_sources(c.db, a.id, there.id, [(tea.id, "Tea is my thing")])
        green = c.store.add(Memory(new_id(), "preference", "Drinks tea with milk", quote="Tea is my thing",
                                   session_id=a.id, message_id=there.id))
        record_sources(c.db, b.id, milk.id, [(green.id, "I love tea with milk")])
        t.delete_session(b.id)  # deleted, not forgotten: what it taught stays, with its words
        receipt = forget_conversation(c, gone.id)
        assert receipt.verified and receipt.kept == [tea.id] and receipt.forgotten == [], receipt
        assert c.store.get(tea.id).quote == "Tea is my thing"
        assert traces(c, ["Honestly, I love tea", "honestly i love tea"]) == {}
    finally:
        c.close()
