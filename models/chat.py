"""The local chat model: a GGUF file run by llama.cpp (llama-cpp-python).

`ChatModel.stream` is a plain generator of text pieces; whoever iterates it (a Qt worker, the
terminal) decides how to show them. `complete_json` answers under a JSON-schema grammar and
satisfies `memory.protocols.Completer`.
"""
from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from models.cpu import physical_cores
from models.errors import ModelError
from models.prompt_cache import PromptCache
from models.prompt_state import cut_back, restore, sequence_state, shared_prefix
from models.resolve import check_gguf

# A GGUF header alone (magic, version, counts) is 24 bytes; anything that small holds no model.
_MIN_GGUF_SIZE = 1024
_CHOOSE_OTHER = "Choose another GGUF file in Settings or pass --model."
# llama.cpp's penalty on tokens of the last 64 (its default window) being generated again. At 1.0 (llama-cpp-python's
# default) the bundled 135M model repeats one sentence until max_tokens; 1.1 is llama.cpp's own CLI default.
REPEAT_PENALTY = 1.1
_DEFANGED_KEPT = 1024  # message texts whose defanged form is remembered (a session's history and memory blocks)
# Evaluating ahead goes in steps of about this long, so a stop (the draft changed, Enter) waits at most one step; the
# first step is small and the next sized from its speed (8 tokens at least, n_batch at most).
_AHEAD_STEP_S = 0.1
_AHEAD_FIRST_STEP = 16
log = logging.getLogger(__name__)


def default_threads() -> int:
    """The physical cores, 1 to 8, for prompt evaluation: llama.cpp scales with them there (2 threads evaluate a
    prompt ~1.7x faster than 1 on 2 cores), and SMT siblings add nothing but contention."""
    return max(1, min(8, physical_cores()))


def generation_threads() -> int:
    """Threads for generating tokens one by one: 1 on a machine of at most 2 physical cores, else `default_threads()`.

    Each generated token is a small step whose threads meet at every layer; on 2 cores (OpenMP waiting passively,
    the app's own threads beside it) a second thread halved the speed of the bundled SmolLM2: 20 instead of 38
    tokens/s, while prompt evaluation with 2 threads took 1.11 s instead of 1.90 s (`n_threads_batch` keeps those)."""
    return 1 if physical_cores() <= 2 else default_threads()


def _silence_llama_log() -> None:
    """Keep llama.cpp's log off stderr during generation.

    llama-cpp-python's level table predates ggml renumbering its log levels, so with
    verbose=False it prints llama.cpp *warnings* (mapped to ERROR) to stderr. Each Llama()
    resets the level, hence this runs after loading.
    """
    import llama_cpp._logger

    llama_cpp._logger.logger.setLevel(logging.CRITICAL)


# The prompt layout for a GGUF that carries no chat template of its own: ChatML, every message in order. Without it
# llama-cpp-python falls back to its llama-2 format, which keeps only the first system message (the persona) and
# drops the memory prefix and the memories chosen for the turn; its head is also not rendered here, so no prompt cache.
FALLBACK_FORMAT = "companion-chatml-fallback"
FALLBACK_TEMPLATE = ("{{ bos_token }}{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
                     "{{ message['content'] }}<|im_end|>\n{% endfor %}"
                     "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
_FALLBACK_STOPS = ["<|im_end|>", "<|im_start|>"]  # plain text to a model without ChatML tokens: stop on them too

_SPECIAL_SHAPES = re.compile(r"<\|[^|<>]{0,40}\|>|</?s>|\[/?INST\]|<(?:start|end)_of_turn>|<\|?[a-z_]{2,30}\|?>")


@dataclass(frozen=True)
class PromptEval:
    """How a request's prompt was processed: tokens reused from the previous call, tokens evaluated anew."""

    reused: int
    evaluated: int


class ChatModel:
    """A loaded llama.cpp model with its context, used for chat replies and JSON extraction.

    Not thread-safe: a llama.cpp context must only ever be used by one thread, so one worker
    thread owns the ChatModel and runs every call (chat and extraction) on it, one at a time.
    The chat template is the one stored in the GGUF (`tokenizer.chat_template`), else ChatML (FALLBACK_TEMPLATE).
    """

    def __init__(self, model_path: str | os.PathLike, n_ctx: int = 4096,
                 n_threads: int | None = None, seed: int | None = None, n_threads_batch: int | None = None,
                 prompt_cache: PromptCache | None = None) -> None:
        self.path = Path(model_path).expanduser()
        size = check_gguf(self.path)
        if size < _MIN_GGUF_SIZE:
            raise ModelError(f"The chat model file {self.path} is too small to be a model. {_CHOOSE_OTHER}")
        # llama.cpp is built with OpenMP, whose threads spin while waiting; when anything else
        # wants the CPU (the embedder, the UI, another program) generation drops ~10x (2.4
        # instead of 30 tokens/s measured on 2 cores). Passive waiting avoids that collapse.
        # It must be set before libgomp loads, i.e. before the first llama_cpp import.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        # Imported here so `import models.chat` stays cheap and works without the native library.
        from llama_cpp import Llama

        # Prompts are evaluated on n_threads_batch threads (default: the physical cores), tokens generated on
        # n_threads (default: `generation_threads()`).
        kwargs: dict[str, Any] = {"n_ctx": n_ctx, "n_threads": n_threads or generation_threads(),
                                  "n_threads_batch": n_threads_batch or default_threads(), "verbose": False}
        if seed is not None:
            kwargs["seed"] = seed
        try:
            # chat_format=None: llama-cpp-python reads the GGUF's own tokenizer.chat_template; _choose_template
            # then makes sure that template (or ours, when there is none) is what formats every prompt.
            self._llm = Llama(model_path=str(self.path), **kwargs)
        except (ValueError, RuntimeError, OSError) as e:
            # llama.cpp says only "Failed to load model from file" (or "Failed to create
            # llama_context" when memory runs out); its own log is silenced with verbose=False.
            if "llama_context" in str(e):
                raise ModelError(
                    f"The chat model {self.path.name} does not fit in memory with a context of "
                    f"{n_ctx} tokens. Choose a smaller context or a smaller model in Settings."
                ) from e
            raise ModelError(
                f"The chat model file {self.path} could not be loaded: it is damaged, incomplete, "
                f"or not a model this version of llama.cpp supports. {_CHOOSE_OTHER}"
            ) from e
        _silence_llama_log()
        self.template = self._choose_template()
        self.last_prompt: PromptEval | None = None
        self.last_finish: str | None = None  # why the last stream ended: "stop", "length" (max_tokens) or None
        self._count_evaluated()
        self.prompt_cache = prompt_cache
        self._cache_tried = False  # the cache file is read at most once, before the first reply
        self._unchecked = False  # preloaded, not yet held against a prompt's head
        self._head: list[int] = []  # the last reply's stable head tokens (fixed prompt + memory prefix)
        self._kept: list[int] = []  # the tokens the cache file holds (read or handed out to be written)
        self._asked: list[dict] | None = None  # the last reply's messages (defanged) and its pieces
        self._reply: list[str] = []
        # A turn's messages are mostly last turn's again: what defanging and the head's rendering gave is kept, so a
        # turn does not pay for them in proportion to the history and the memory prefix (~8 ms at 1,400 tokens).
        self._defanged: dict[str, str] = {}
        self._head_key: tuple = ()
        self._head_rendered: list[int] = []

    def _count_evaluated(self) -> None:
        """Record, per request, how many prompt tokens llama.cpp reused and how many it evaluated.

        Llama.generate keeps the longest token prefix shared with the previous call and then calls
        `eval` once with the rest, at n_tokens = the reused length; that first call is what we record.
        """
        inner = self._llm.eval

        def counted(tokens: Sequence[int]) -> None:
            if self.last_prompt is None:
                self.last_prompt = PromptEval(reused=self._llm.n_tokens, evaluated=len(tokens))
                log.debug("prompt: %d tokens reused, %d evaluated", self._llm.n_tokens, len(tokens))
            inner(tokens)

        self._llm.eval = counted  # type: ignore[method-assign]

    def _choose_template(self) -> str:
        """The Jinja chat template every prompt (and the cached head) is rendered with: the GGUF's own, else ours.

        llama-cpp-python would swap a GGUF template it recognises for one of its named formats (chatml, llama-3, ...)
        and use llama-2 when there is none; those keep only the first system message, so the memory prefix and the
        turn's memories would never reach the model, and the head could not be rendered for the prompt cache."""
        llm = self._llm
        template = llm.metadata.get("tokenizer.chat_template")
        if template and "chat_template.default" in llm._chat_handlers:
            llm.chat_format = "chat_template.default"
            return template
        from llama_cpp import llama_chat_format

        class Fallback(llama_chat_format.Jinja2ChatFormatter):
            def __call__(self, **kwargs: Any) -> Any:
                response = super().__call__(**kwargs)
                response.stop = [*(response.stop or []), *_FALLBACK_STOPS]
                return response

        eos, bos = self._special_texts()
        llm.chat_handler = Fallback(FALLBACK_TEMPLATE, eos, bos, stop_token_ids=[llm.token_eos()]).to_chat_handler()
        llm.chat_format = FALLBACK_FORMAT
        log.info("%s carries no chat template; prompts use ChatML", self.path.name)
        return FALLBACK_TEMPLATE

    def _special_texts(self) -> tuple[str, str]:
        """The text of the end and begin tokens ('' where the model has none), as chat templates see them."""
        llm, model = self._llm, self._llm._model
        eos, bos = llm.token_eos(), llm.token_bos()
        return model.token_get_text(eos) if eos != -1 else "", model.token_get_text(bos) if bos != -1 else ""

    @property
    def n_ctx(self) -> int:
        """The context window in tokens (prompt plus reply)."""
        return self._llm.n_ctx()

    @property
    def chat_format(self) -> str | None:
        """The chat format llama-cpp-python chose, e.g. "chatml" or "chat_template.default"."""
        return self._llm.chat_format

    def count_tokens(self, text: str) -> int:
        """How many tokens `text` takes in this model's vocabulary (without a BOS token)."""
        if not text:
            return 0
        return len(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def count_at_most(self, text: str) -> int:
        """`count_tokens` (counting asks no other process here; the engine's client bounds what it has not counted)."""
        return self.count_tokens(text)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """`count_tokens` of each text (the engine's client asks for them in one request)."""
        return [self.count_tokens(t) for t in texts]

    def defang(self, text: str) -> str:
        """Text with anything that would tokenize as a control token (e.g. `<|im_start|>`) broken up.

        The chat template's output is tokenized with special tokens enabled, so without this a user
        could type a role boundary and write their own system turn.
        """
        if not text:
            return text
        done = self._defanged.get(text)
        if done is None:
            if len(self._defanged) >= _DEFANGED_KEPT:
                self._defanged.clear()
            done = self._defanged[text] = self._defanged_text(text)
        return done

    def _defanged_text(self, text: str) -> str:
        if self._same_tokens(text):
            return text
        broken = _SPECIAL_SHAPES.sub(lambda m: m.group(0)[0] + "\u200b" + m.group(0)[1:], text)
        if self._same_tokens(broken):
            return broken
        return broken.replace("<", "<\u200b").replace("[", "[\u200b")

    def _same_tokens(self, text: str) -> bool:
        data = text.encode("utf-8", "replace")
        return (self._llm.tokenize(data, add_bos=False, special=True)
                == self._llm.tokenize(data, add_bos=False, special=False))

    def stream(self, messages: Sequence[dict], max_tokens: int = 512, temperature: float = 0.7,
               should_stop: Callable[[], bool] | None = None, head: int = 0,
               repeat_penalty: float = REPEAT_PENALTY) -> Iterator[str]:
        """Yield the reply to `messages` piece by piece; stop early once `should_stop()` is true. `last_finish` is
        then llama.cpp's reason for the end ("stop", or "length" when `max_tokens` cut the reply).

        The first `head` messages are the stable head (fixed prompt, memory prefix): with a prompt cache, the first
        reply of this process starts from the saved conversation when its head is the same, and
        `evaluated_conversation` gives what to save after the reply. With head 0 nothing is read or saved."""
        safe = [{**m, "content": self.defang(m.get("content") or "")} for m in messages]
        self.last_prompt = None
        self._head = self._head_tokens(safe[:head]) if head and self.prompt_cache is not None else []
        self._restore_once()
        self._asked, self._reply = safe, []
        self.last_finish = None
        chunks = self._run(lambda: self._llm.create_chat_completion(
            messages=safe, max_tokens=max_tokens, temperature=temperature, stream=True,  # type: ignore[arg-type]
            repeat_penalty=repeat_penalty,
        ))
        try:
            while True:
                chunk = self._run(lambda: next(chunks, None))
                if chunk is None or (should_stop is not None and should_stop()):
                    return
                self.last_finish = chunk["choices"][0].get("finish_reason") or self.last_finish
                piece = chunk["choices"][0]["delta"].get("content")
                if piece:
                    self._reply.append(piece)
                    yield piece
        finally:
            # Closing ends llama-cpp-python's generator, so no more tokens are decoded.
            chunks.close()

    def evaluate_ahead(self, messages: Sequence[dict], head: int = 0,
                       should_stop: Callable[[], bool] | None = None, reply: bool = True) -> PromptEval:
        """Evaluate the prompt a reply to `messages` would start from, without replying, so that the reply to them (or
        to messages that begin the same) evaluates only what differs: a draft, ahead of Enter. The whole prompt, in
        steps of about _AHEAD_STEP_S; between two it stops once `should_stop()` is true, keeping what it evaluated.
        Done, a reply to exactly these messages samples its first token from the logits the last step left, with no
        token evaluated (one more forward pass of the prompt's last token cost ~35-50 ms of the first word on this
        machine). Reads the prompt cache like a reply (with a head), never writes it. Returns the tokens reused and
        evaluated.

        reply=False: `messages` are the conversation so far, which the next turn's prompt begins with (no draft to
        see, as in the terminal): all of their tokens, without the opening of a reply."""
        safe = [{**m, "content": self.defang(m.get("content") or "")} for m in messages]
        self._head = self._head_tokens(safe[:head]) if head and self.prompt_cache is not None else []
        self._restore_once()
        llm = self._llm
        tokens = self._render(safe, generation_prompt=reply)
        if len(tokens) >= self.n_ctx - 1:
            tokens = []  # a reply to it would not fit either: that one says so
        reused = shared_prefix(llm.input_ids[:llm.n_tokens].tolist(), tokens)
        cut_back(llm, reused)
        self.last_prompt = PromptEval(reused, 0)  # set, so the eval counter does not take a step for a reply's prompt
        done, step = reused, _AHEAD_FIRST_STEP
        while done < len(tokens) and not (should_stop is not None and should_stop()):
            batch = tokens[done:done + step]
            started = time.perf_counter()
            llm.eval(batch)
            done += len(batch)
            per_second = len(batch) / max(1e-6, time.perf_counter() - started)
            step = max(8, min(llm.n_batch, int(per_second * _AHEAD_STEP_S)))
        self.last_prompt = PromptEval(reused, done - reused)
        return self.last_prompt

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int = 512) -> str:
        """Return the model's raw JSON answer, generated under a grammar built from `schema`."""
        self.last_prompt = None
        with self._chat_context_kept():
            result = self._run(lambda: self._llm.create_chat_completion(
                messages=[{"role": "system", "content": system}, {"role": "user", "content": self.defang(user)}],
                response_format={"type": "json_object", "schema": schema},
                temperature=0.0,
                # The default 1.1 penalises the quotes and braces JSON is made of.
                repeat_penalty=1.0,
                max_tokens=max_tokens,
            ))
        return result["choices"][0]["message"]["content"] or ""

    def _head_tokens(self, head: list[dict]) -> list[int]:
        """The tokens the chat template (`self.template`, which every prompt is rendered with) gives these leading
        messages, with no generation prompt after them."""
        key = tuple((m.get("role"), m.get("content")) for m in head)
        if key != self._head_key:
            self._head_rendered, self._head_key = self._render_head(head), key
        return list(self._head_rendered)

    def _render_head(self, head: list[dict]) -> list[int]:
        return self._render(head, generation_prompt=False)

    def _render(self, messages: list[dict], generation_prompt: bool) -> list[int]:
        """The prompt tokens of `messages` as chat completion renders them (the same template and tokenization);
        [] when the template cannot render them."""
        from llama_cpp import llama_chat_format

        llm = self._llm
        eos, bos = self._special_texts()
        formatter = llama_chat_format.Jinja2ChatFormatter(self.template, eos, bos,
                                                          add_generation_prompt=generation_prompt)
        try:
            result = formatter(messages=messages)  # type: ignore[arg-type]  # plain role/content dicts, as chat completion takes
        except Exception as e:  # e.g. a template that cannot render a conversation of system messages alone
            log.info("no prompt cache: the chat template did not render the messages (%s)", e)
            return []
        return llm.tokenize(result.prompt.encode("utf-8"), add_bos=not result.added_special, special=True)

    def preload(self) -> int:
        """Read the saved conversation into the empty context now, before any prompt (the engine does this once it
        is ready, while the app opens), so the first reply does not wait for the file; the first prompt then keeps
        it only if it begins with that prompt's head. The tokens loaded."""
        if self._cache_tried or self.prompt_cache is None or self._llm.n_tokens:
            return 0
        self._kept = restore(self._llm, self.prompt_cache, [], self.n_ctx)
        self._cache_tried = self._unchecked = bool(self._kept)
        return len(self._kept)

    def _restore_once(self) -> None:
        """Before this process's first prompt: start from the saved conversation if it begins with the same head
        (a conversation preloaded for another head is dropped, and its file deleted; with no head it is not used)."""
        if self._unchecked:
            self._unchecked = False
            if not self._head or self._kept[:len(self._head)] != self._head:
                cut_back(self._llm, 0)
                if self._head and self.prompt_cache is not None:
                    log.info("prompt cache holds another head (%d tokens, now %d); deleted",
                             len(self._kept), len(self._head))
                    self.prompt_cache.delete()
                self._kept = []
        if self._head and not self._cache_tried and self._llm.n_tokens == 0 and self.prompt_cache is not None:
            self._kept = restore(self._llm, self.prompt_cache, self._head, self.n_ctx)
        self._cache_tried = True

    def evaluated_conversation(self) -> tuple[list[int], bytes] | None:
        """After a reply: the tokens and KV state of its conversation (the messages and the reply, as the next turn's
        prompt renders them) that llama.cpp evaluated, for the prompt cache; None without a cache or a head, when
        they do not go past the head, or when the file already holds exactly them.

        The context is cut back to those tokens: the next turn's prompt shares nothing after them (what follows is
        the reply's last token, sampled but never evaluated, or text the template renders otherwise)."""
        cache, llm, head = self.prompt_cache, self._llm, self._head
        if cache is None or not head or self._asked is None:
            return None
        said = self._render([*self._asked, {"role": "assistant", "content": "".join(self._reply).strip()}],
                            generation_prompt=False)
        n = shared_prefix(llm.input_ids[:llm.n_tokens].tolist(), said)
        if n <= len(head) or said[:len(head)] != head:
            return None
        cut_back(llm, n)
        tokens = said[:n]
        if tokens == self._kept and cache.path.exists():
            return None
        self._kept = tokens
        return tokens, sequence_state(llm)

    @contextlib.contextmanager
    def _chat_context_kept(self) -> Iterator[None]:
        """Put the evaluated chat prompt back after a call with another prompt (JSON extraction between turns).

        Without this the next reply re-evaluates the fixed prompt, the memory prefix and the whole history.
        Only the KV cache and the token ids are copied, in memory (tens of MB for a long prompt); Llama.save_state
        would also copy a logits buffer of n_batch x n_vocab floats that sampling does not need.
        """
        import llama_cpp

        llm = self._llm
        n = llm.n_tokens
        if n == 0:
            yield
            return
        ctx = llm._ctx.ctx
        size = llama_cpp.llama_state_get_size(ctx)
        kv = (ctypes.c_uint8 * size)()
        used = llama_cpp.llama_state_get_data(ctx, kv, size)
        ids = llm.input_ids[:n].copy()
        try:
            yield
        finally:
            if llama_cpp.llama_state_set_data(ctx, kv, used) == used:
                llm.input_ids[:n] = ids
                llm.n_tokens = n
            else:  # cannot happen with the same context; start clean rather than trust a half-restored cache
                llm.reset()
            llm._requires_eval = True

    def close(self) -> None:
        """Free the model and its context now rather than at garbage collection."""
        self._llm.close()

    def __enter__(self) -> ChatModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self, call: Callable[[], Any]) -> Any:
        """Run a llama-cpp-python call, turning a prompt longer than the context into a ModelError."""
        try:
            return call()
        except ValueError as e:
            if "exceed context window" in str(e):
                raise ModelError(
                    f"The conversation is longer than the chat model's context of {self.n_ctx} tokens. "
                    "Start a new session or choose a larger context in Settings."
                ) from e
            raise
