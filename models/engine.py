"""The engine process: the only place llama.cpp runs. It owns one ChatModel and answers the app over a pipe.

  python -m models.engine      (started by `models.engine_client.ChatEngine`, not by people)

One JSON object per line on stdin and stdout, every request carrying an integer `id`:
  {"op": "load", "path", "n_ctx", "n_threads", "n_threads_batch", "seed", "prompt_cache"}
                                  → {"ready": {"n_ctx", "n_threads", "n_threads_batch", "chat_format"}}
  {"op": "count", "texts": [...]}                        → {"counts": [...]}
  {"op": "chat", "messages", "max_tokens", "temperature", "head", "repeat_penalty"} → {"piece": "…"}… then
      {"done": true, "prompt": [reused, evaluated], "finish": "stop" | "length" | null}
  {"op": "ahead", "messages", "head", "reply"}  → {"done": true, "prompt": [reused, evaluated]}: the prompt a chat
      request with these messages would evaluate, evaluated now without a reply (a paused draft), in steps a stop can
      end; "reply": false, the messages are the conversation so far and no reply's opening is evaluated (the terminal)
  {"op": "json", "system", "user", "schema", "max_tokens"} → {"text": "…"}
  {"op": "stop"}   read at once by a second thread: the chat (or ahead) request with that id (or older) ends at the
                  next token (or step)
  {"op": "forget"} read at once too: the app deleted the prompt cache (memories were forgotten); a reply under way
                   does not write it again (its head may hold them), the next one does
Failures answer {"error": {"code", "message"}}; while it works on a request and uses CPU it says {"alive": true} about
once a second, so the app can tell slow (a long prompt on a busy machine) from hung or frozen. When stdin closes (the app went away) the process exits.

One Llama lives for the whole process, so each turn reuses the prompt tokens the previous turn evaluated. With a
`prompt_cache` (models/prompt_cache.py: file, key, salt, model; given here on stdin, never in argv or the
environment) and a `head` (the stable leading messages; 0 means nothing is cached) the evaluated conversation — the
head, the history and the reply — also outlives the process: taken after a reply and written encrypted by a writer
thread (the next request does not wait for the file; the writer waits while a request is in hand), read before the
first reply of the next engine.
"""
from __future__ import annotations

import json
import logging
import os
import queue
import signal
import sys
import threading
import time
from typing import Any, Callable, TextIO

from models.chat import REPEAT_PENALTY, ChatModel
from models.errors import ModelError
from models.prompt_cache import PromptCache

log = logging.getLogger(__name__)
_ALIVE_EVERY_S = 1.0
_WRITE_GRACE_S = 10.0  # how long an engine whose app went away still finishes writing the prompt cache
# Held while a written prompt cache replaces the old file, and while a forget deletes it: a state taken before a forget
# never becomes the file. An app that closes the pipe exits the process only after the writer is drained.
_writing = threading.Lock()
_WORKING_CPU_S = 0.01  # CPU seconds per second that count as working (waiting on a lock or a pipe uses ~none)


class Channel:
    """The protocol side of stdout: one JSON line per message, flushed at once (the main and the alive thread write)."""

    def __init__(self, out: TextIO):
        self._out = out
        self._lock = threading.Lock()
        self.sent_at = time.monotonic()

    def send(self, rid: int, **fields: Any) -> None:
        line = json.dumps({"id": rid, **fields}) + "\n"
        with self._lock:
            self._out.write(line)
            self._out.flush()
            self.sent_at = time.monotonic()


class InHand:
    """Whether the engine has a request in hand (set while it works on one); the prompt cache's writer waits for it
    to clear. Read by the alive thread, the stdin thread at exit, and the writer."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._set = False

    def set(self) -> None:
        with self._cond:
            self._set = True

    def clear(self) -> None:
        with self._cond:
            self._set = False
            self._cond.notify_all()

    def is_set(self) -> bool:
        return self._set

    def wait_clear(self) -> None:
        with self._cond:
            self._cond.wait_for(lambda: not self._set)


class CacheWriter:
    """Writes the prompt cache on its own thread, so a long conversation's state (tens of MB) never holds up the next
    request; of states waiting, only the newest is written. It writes only while no request is in hand: the file is
    encrypted and written a piece at a time, and a request that arrives meanwhile (the next Enter, soon after a
    reply) finds the writer waiting, not encrypting, writing or flushing beside it; it goes on once the engine is
    idle. A state taken before a forget is never written (a write under way is given up)."""

    def __init__(self, cache: PromptCache, n_ctx: int, forgets: list[int], in_hand: InHand):
        self.cache, self._n_ctx, self._forgets, self._in_hand = cache, n_ctx, forgets, in_hand
        self._cond = threading.Condition()
        self._waiting: tuple[list[int], bytes, int] | None = None
        self._busy = False
        threading.Thread(target=self._run, daemon=True, name="engine-cache-writer").start()

    def put(self, tokens: list[int], state: bytes, forgets_seen: int) -> None:
        """Write these tokens' state (replacing one still waiting) unless a forget comes after `forgets_seen`."""
        with self._cond:
            self._waiting = (tokens, state, forgets_seen)
            self._cond.notify_all()

    def drain(self, timeout: float) -> None:
        """Wait (at most timeout seconds) until nothing waits to be written and no write is under way."""
        with self._cond:
            self._cond.wait_for(lambda: self._waiting is None and not self._busy, timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._waiting is not None)
                assert self._waiting is not None
                (tokens, state, seen), self._waiting, self._busy = self._waiting, None, True
            try:
                self._write(tokens, state, seen)
            except OSError as e:
                log.warning("could not write the prompt cache: %s", e)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _write(self, tokens: list[int], state: bytes, seen: int) -> None:
        def go_on() -> bool:  # before each piece: wait while a request is in hand; give up after a forget
            self._in_hand.wait_clear()
            return self._forgets[0] == seen

        tmp = self.cache.write_temporary(self._n_ctx, tokens, state, go_on)
        if tmp is None:
            return
        with _writing:  # a forget deletes the file under this lock: a state taken before it is not put in place
            if self._forgets[0] == seen:
                self.cache.commit(tmp)
            else:
                tmp.unlink(missing_ok=True)


def _read_requests(inbox: queue.Queue, stop_upto: list[int], forgets: list[int],
                   writer: list[CacheWriter | None], busy: InHand) -> None:
    """On a second thread: queue requests; stop and forget take effect at once; EOF ends the process, once the
    request in hand has ended (it is told to stop) and handed its prompt state to the writer, and that is written."""
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("op") == "stop":
            stop_upto[0] = max(stop_upto[0], int(msg["id"]))
        elif msg.get("op") == "forget":
            with _writing:  # states taken before this are not written (a write under way gives up)
                forgets[0] += 1
                if writer[0] is not None:
                    writer[0].cache.delete()
        else:
            inbox.put(msg)
    # The app went away, perhaps while a reply it had stopped reading (cut short, looping) was still winding down:
    # that reply stops at its next piece and hands over its state before the writer is drained.
    stop_upto[0] = sys.maxsize
    deadline = time.monotonic() + _WRITE_GRACE_S
    while busy.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)
    if writer[0] is not None:
        writer[0].drain(max(0.0, deadline - time.monotonic()))
    _writing.acquire(timeout=_WRITE_GRACE_S)
    os._exit(0)


def _say_alive_while_working(channel: Channel, current: list[int], busy: InHand) -> None:
    """On a third thread: while a request is in hand and this process used CPU in the last second, say so.

    One llama.cpp decode of a long prompt can take a minute on a busy machine, so tokens alone cannot tell slow
    from hung; CPU time can (a deadlocked or frozen engine uses none)."""
    last_cpu = time.process_time()
    while True:
        time.sleep(_ALIVE_EVERY_S)
        cpu = time.process_time()
        if busy.is_set() and cpu - last_cpu >= _WORKING_CPU_S and time.monotonic() - channel.sent_at >= _ALIVE_EVERY_S:
            channel.send(current[0], alive=True)
        last_cpu = cpu


def _answer(model: ChatModel, req: dict, channel: Channel, stopped: Callable[[], bool], forgets: list[int],
            writer: CacheWriter | None) -> None:
    rid, op = req["id"], req["op"]
    if op == "count":
        channel.send(rid, counts=[model.count_tokens(t) for t in req["texts"]])
    elif op == "chat":
        forgets_before = forgets[0]
        for piece in model.stream(req["messages"], max_tokens=req["max_tokens"], temperature=req["temperature"],
                                  should_stop=stopped, head=req.get("head", 0),
                                  repeat_penalty=req.get("repeat_penalty", REPEAT_PENALTY)):
            channel.send(rid, piece=piece)
        p = model.last_prompt
        kept = model.evaluated_conversation() if writer is not None else None
        if kept is not None and writer is not None:  # handed over before "done": an app that closes now still gets it
            writer.put(*kept, forgets_before)
        channel.send(rid, done=True, prompt=[p.reused, p.evaluated] if p else None, finish=model.last_finish)
    elif op == "ahead":
        p = model.evaluate_ahead(req["messages"], head=req.get("head", 0), should_stop=stopped,
                                 reply=req.get("reply", True))
        channel.send(rid, done=True, prompt=[p.reused, p.evaluated])
    elif op == "json":
        channel.send(rid, text=model.complete_json(req["system"], req["user"], req["schema"], req["max_tokens"]))
    else:
        channel.send(rid, error={"code": None, "message": f"unknown request {op!r}"})


def serve(channel: Channel) -> int:
    """Load the model named by the first request, then answer requests one at a time until stdin closes."""
    inbox: queue.Queue = queue.Queue()
    stop_upto, forgets = [0], [0]
    writer_box: list[CacheWriter | None] = [None]
    busy = InHand()
    threading.Thread(target=_read_requests, args=(inbox, stop_upto, forgets, writer_box, busy), daemon=True,
                     name="engine-stdin").start()
    load = inbox.get()
    current = [load["id"]]
    busy.set()
    threading.Thread(target=_say_alive_while_working, args=(channel, current, busy), daemon=True,
                     name="engine-alive").start()
    try:
        cache = PromptCache.from_wire(load["prompt_cache"]) if load.get("prompt_cache") else None
        model = ChatModel(load["path"], n_ctx=load["n_ctx"], n_threads=load["n_threads"], seed=load.get("seed"),
                          prompt_cache=cache, n_threads_batch=load.get("n_threads_batch"))
        writer_box[0] = CacheWriter(cache, model.n_ctx, forgets, busy) if cache is not None else None
    except ModelError as e:
        channel.send(load["id"], error={"code": e.code, "message": str(e)})
        return 1
    channel.send(load["id"], ready={"n_ctx": model.n_ctx, "n_threads": model._llm.n_threads,
                                    "n_threads_batch": model._llm.n_threads_batch,
                                    "chat_format": model.chat_format, "pid": os.getpid()})
    model.preload()  # the saved conversation, read while the app opens (a request sent meanwhile waits for it)
    while True:
        busy.clear()
        req = inbox.get()
        rid = current[0] = req["id"]
        busy.set()
        try:
            _answer(model, req, channel, lambda: stop_upto[0] >= rid, forgets, writer_box[0])
        except ModelError as e:
            channel.send(rid, error={"code": e.code, "message": str(e)})
        except Exception as e:  # a bug: named plainly to the app, and the engine keeps serving
            channel.send(rid, error={"code": None, "message": repr(e)})


def main() -> int:
    # The protocol gets a private copy of stdout; fd 1 becomes stderr, so nothing native code prints can
    # corrupt it. Ctrl+C in a terminal reaches the whole process group: it stops a reply, not the engine.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return serve(Channel(out))


if __name__ == "__main__":
    sys.exit(main())
