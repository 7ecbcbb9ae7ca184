"""The chat model runs in an engine process: real SmolLM2, a real child, real kills (kill -9, SIGSTOP)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.chat import INTERRUPTED_MARK, ChatService
from app.clock import Clock
from app.companion import Companion
from app.errors import user_error
from app.settings import Settings
from models.engine_client import ChatEngine
from models.errors import EngineError, ModelError
from models.resolve import resolve_chat_model
from tests.support.engine_kill import KillOnNextRequest

STORY = [{"role": "user", "content": "Tell me a very long story about a lighthouse keeper and his cat."}]


def _broken_gguf(folder: Path) -> Path:
    """A file that starts like a GGUF (magic, version 3) and then is garbage."""
    path = folder / "broken.gguf"
    path.write_bytes(b"GGUF" + (3).to_bytes(4, "little") + os.urandom(8192))
    return path


@pytest.fixture(scope="module")
def engine():
    with ChatEngine(resolve_chat_model(None).path, n_ctx=1024, n_threads=2, seed=7) as e:
        yield e


@pytest.fixture
def companion(companion_env):
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    yield c
    c.close()


def test_the_app_process_streams_a_real_reply_without_loading_llama_cpp(companion_env):
    script = ("import sys\n"
              "from pathlib import Path\n"
              "from app.chat import ChatService\nfrom app.clock import Clock\nfrom app.companion import Companion\n"
              f"c = Companion(Path({str(companion_env)!r}), Clock.parse('2026-11-29'))\n"
              "c.settings.max_reply_tokens = 8\n"
              "pieces = []\n"
              "turn = ChatService(c).run(None, 'Hello there!', on_piece=pieces.append)\n"
              "engine = c.chat_model().pid\n"
              "c.close()\n"
              "print(len(pieces), engine, 'llama_cpp' in sys.modules, "
              "any(m.startswith('llama_cpp') for m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    n_pieces, engine_pid, loaded, any_loaded = out.stdout.split()
    assert int(n_pieces) > 0 and int(engine_pid) != os.getpid()
    assert (loaded, any_loaded) == ("False", "False")


def test_stop_ends_the_stream_and_nothing_of_it_leaks_into_the_next_reply(engine):
    "".join(engine.stream(STORY, max_tokens=4, temperature=0.0))  # the prompt is evaluated: later runs reuse it alike
    pieces = []
    for piece in engine.stream(STORY, max_tokens=48, temperature=0.0, should_stop=lambda: len(pieces) >= 3):
        pieces.append(piece)
    assert len(pieces) == 3
    again = list(engine.stream(STORY, max_tokens=48, temperature=0.0))
    # The same greedy reply from the start: no piece the stopped reply was still making came through here.
    assert again[:3] == pieces and len(again) > 3
    assert engine.last_prompt.reused > 0 and engine.started == 1


def test_stop_is_honoured_even_while_the_engine_says_nothing(engine):
    stop = {"now": False}
    pieces = []
    for piece in engine.stream(STORY, max_tokens=200, temperature=0.7, should_stop=lambda: stop["now"]):
        pieces.append(piece)
        if len(pieces) == 2:
            os.kill(engine.pid, signal.SIGSTOP)  # frozen: no more tokens arrive
            stop["now"] = True
    os.kill(engine.pid, signal.SIGCONT)
    assert len(pieces) == 2  # the stream ended on Stop, not on the hang timeout
    assert engine.count_tokens("still the same engine") > 0 and engine.started == 1


def test_a_hung_engine_is_stopped_after_the_configured_silence_and_the_next_request_starts_a_new_one(engine):
    engine.hang_seconds = 2
    first = engine.pid
    try:
        with pytest.raises(EngineError, match="no sign of progress for 2 s") as failed:
            for _ in engine.stream(STORY, max_tokens=200):
                os.kill(engine.pid, signal.SIGSTOP)
    finally:
        engine.hang_seconds = 60
    assert user_error(failed.value).code == "engine_failed"
    with pytest.raises(ProcessLookupError):
        os.kill(first, 0)  # killed and reaped
    assert "".join(engine.stream(STORY, max_tokens=4, temperature=0.0)) and engine.pid != first


def test_a_broken_gguf_is_one_sentence(tmp_path):
    with pytest.raises(ModelError) as refused:
        ChatEngine(_broken_gguf(tmp_path), n_ctx=512, n_threads=1)
    message = str(refused.value)
    assert "could not be loaded" in message and "broken.gguf" in message and "\n" not in message
    assert user_error(refused.value).code == "model_unusable"


def test_kill_9_mid_reply_keeps_the_partial_reply_marked_learns_and_the_next_message_gets_a_new_engine(companion):
    companion.settings.max_reply_tokens = 300
    chat = ChatService(companion)
    seen = []

    def kill_after_three(piece: str) -> None:
        seen.append(piece)
        if len(seen) == 3:
            os.kill(companion.chat_model().pid, signal.SIGKILL)

    first_engine = companion.chat_model().pid
    with pytest.raises(EngineError, match=r"stopped unexpectedly \(killed by SIGKILL\)"):
        chat.run(None, "I work as a nurse in Chengdu. Tell me a very long story about a lighthouse.",
                 on_piece=kill_after_three)
    session = companion.transcript.sessions()[0].id
    saved = companion.transcript.messages(session)
    assert [m.role for m in saved] == ["user", "assistant"]
    assert saved[-1].content == "".join(seen).strip() + "\n\n" + INTERRUPTED_MARK and len(seen) >= 3
    assert any("nurse" in m.content for m in companion.store.list())  # the user's message was learned from
    companion.settings.max_reply_tokens = 8
    second = chat.run(session, "Hello again!")
    assert second.reply.strip() and companion.chat_model().pid != first_engine
    assert companion.chat_model().started == 2


NURSE = "I work as a nurse in Chengdu. Tell me a very long story about a lighthouse."


def test_kill_9_before_the_first_piece_saves_the_turn_marked_and_still_learns_from_the_message(companion):
    """`say` runs ChatService.run: the engine dies right after the reply was asked for, before it evaluated the prompt.
    Enter asks the engine for no count when the prompt fits by its bounds, so the reply is the first request (a prompt
    near the context's end is counted first: tests/test_evaluate_ahead.py)."""
    chat = ChatService(companion)
    companion.settings.max_reply_tokens = 8
    first_engine = companion.chat_model().pid
    killer = KillOnNextRequest(first_engine)
    with pytest.raises(EngineError) as failed:
        chat.run(None, NURSE, on_piece=lambda piece: pytest.fail(f"a piece came from a frozen engine: {piece!r}"))
    assert killer.wait()["op"] == "chat"
    said = user_error(failed.value)
    assert said.code == "engine_failed" and "\n" not in said.message
    assert said.message.startswith("The chat engine stopped unexpectedly (killed by SIGKILL).")
    session = companion.transcript.sessions()[0].id
    saved = companion.transcript.messages(session)
    assert [(m.role, m.content) for m in saved] == [("user", NURSE), ("assistant", INTERRUPTED_MARK)]
    assert any("nurse" in m.content for m in companion.store.list())  # the user's message was learned from
    second = chat.run(session, "Hello again!")
    assert second.reply.strip() and companion.chat_model().pid != first_engine


def test_cli_chat_survives_kill_9_before_the_first_piece_and_learns_from_the_message(cli, companion_env):
    Settings(max_reply_tokens=8).save(companion_env)
    cli.run("memory", "list")  # creates the profile and its key
    proc = subprocess.Popen([str(cli_path()), "--home", str(companion_env), "chat"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _read_until(proc, "you> ")
        proc.stdin.write("Hello there!\n")
        proc.stdin.flush()
        _read_until(proc, "you> ")  # the first reply is done: the engine is loaded and idle
        killer = KillOnNextRequest(_engine_child(proc.pid))
        proc.stdin.write("I work as a nurse in Chengdu.\n")
        proc.stdin.flush()
        assert killer.wait()["op"] == "chat"  # Enter asks for no count when the prompt fits by its bounds
        shown = _read_until(proc, "you> ")
        proc.stdin.write("/quit\n")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0 and "[interrupted]" in shown  # the terminal chat carries on
    assert err.strip() == ("The chat engine stopped unexpectedly (killed by SIGKILL). What it said so far is kept; "
                           "your next message starts it again.")
    assert any("nurse" in m["content"] for m in cli.json("memory", "list", "--json"))
    session = cli.run("sessions", "list").stdout.split()[0]
    assert INTERRUPTED_MARK in cli.run("sessions", "show", session).stdout


def _read_until(proc: subprocess.Popen, marker: str) -> str:
    """What the process writes to stdout up to and including `marker`."""
    seen = ""
    while not seen.endswith(marker):
        char = proc.stdout.read(1)
        assert char, f"the process ended; it wrote {seen!r}"
        seen += char
    return seen


def _engine_child(pid: int) -> int | None:
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return int(children[0]) if children else None


def test_cli_say_survives_kill_9_of_the_engine_with_one_sentence_and_the_next_say_works(cli, companion_env):
    Settings(max_reply_tokens=300).save(companion_env)
    cli.run("memory", "list")  # creates the profile and its key before the timed part
    cmd = [str(cli_path()), "--home", str(companion_env), "say",
           "I work as a nurse in Chengdu. Tell me a very long story about a lighthouse."]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        said = proc.stdout.read(1)  # the reply has started streaming
        child = _engine_child(proc.pid)
        os.kill(child, signal.SIGKILL)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert said and proc.returncode == 2
    assert err.strip().count("\n") == 0 and "Traceback" not in err
    assert err.startswith("companion: The chat engine stopped unexpectedly (killed by SIGKILL).")
    listed = cli.json("memory", "list", "--json")
    assert any("nurse" in m["content"] for m in listed)
    session = cli.run("sessions", "list").stdout.split()[0]
    shown = cli.run("sessions", "show", session).stdout
    assert INTERRUPTED_MARK in shown
    Settings(max_reply_tokens=8).save(companion_env)
    again = cli.json("say", "Hello again!", "--session", session, "--json")
    assert again["reply"]


def test_cli_with_a_broken_gguf_says_one_sentence(cli, tmp_path):
    proc = cli.run("--model", str(_broken_gguf(tmp_path)), "say", "hello", check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0 and "could not be loaded" in proc.stderr


def cli_path() -> Path:
    return Path(sys.executable).with_name("companion")


def _gone(pid: int) -> bool:
    try:
        return "\nState:\tZ" in Path(f"/proc/{pid}/status").read_text()  # a zombie no longer runs
    except FileNotFoundError:
        return True


def test_the_engine_ends_by_itself_when_the_app_process_is_killed():
    script = ("import sys, time\nfrom models.engine_client import ChatEngine\nfrom models.resolve import resolve_chat_model\n"
              "e = ChatEngine(resolve_chat_model(None).path, n_ctx=512, n_threads=1)\n"
              "print(e.pid, flush=True)\ntime.sleep(600)\n")
    app = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        engine = int(app.stdout.readline())
        assert not _gone(engine)
    finally:
        app.kill()
        app.wait()
    deadline = time.monotonic() + 20
    while not _gone(engine) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(engine), "the engine outlived the app process"
