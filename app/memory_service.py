"""The memory verbs, one way for both front ends: the CLI (`app/cli/memory.py`) and the desktop panel
(`app/desktop.py`) call these and nothing else to change what is remembered.

Every check lives here once: the instruction guard in `add` and `edit` (as in extraction and import),
argument ranges, and the disk errors of an export, so no path can store what another refuses.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Iterable, Iterator

from app.companion import PROMPT_CACHE_PLACE, Companion
from app.errors import UserError, write_error
from app.portability import export_json, export_markdown, import_memories, read_import
from app.private import write_private
from app.scheduler import consolidate_profile, gates_for, lock_for
from app.settings import Settings
from memory import HistoryEntry, Memory, NotFound
from memory.consolidation import ConsolidationResult, Progress, precheck
from memory.learn import ExtractionResult, extract_candidates, instruction_reason
from memory.recall import Hit, Weights, current_index, search
from memory.storage import MAX_CONTENT, ForgetReceipt, forget, forget_all, new_id

EVERY_STATUS = ("active", "superseded", "expired")
MAX_K = 1000
Skipped = list[tuple[str, str]]


@dataclass
class HistoryStep:
    """One memory of a supersede chain with the changes recorded on it."""

    memory: Memory
    entries: list[HistoryEntry]


def check_addable(text: str) -> None:
    """Refuse text that reads as an instruction to the companion (it is never stored, however it comes)."""
    _refuse_instructions("Not remembered", text)


def edit_changes(content: str | None = None, category: str | None = None, importance: float | None = None,
                 pinned: bool | None = None, disabled: bool | None = None) -> dict:
    """The changes an edit asks for, checked: UserError if there are none or one is not acceptable."""
    changes = {k: v for k, v in (("content", content), ("category", category), ("importance", importance),
                                 ("pinned", pinned), ("disabled", disabled)) if v is not None}
    if not changes:
        raise UserError("invalid_input", "Nothing to change: give --content, --category, --importance, "
                                         "--pin/--unpin or --disable/--enable.")
    if content is not None:
        _refuse_instructions("Not saved", content)
    if importance is not None and not 0 <= importance <= 1:
        raise UserError("invalid_input", "--importance must be between 0 and 1.")
    return changes


def check_k(k: int) -> None:
    """How many search results may be asked for."""
    if k < 1 or k > MAX_K:
        raise UserError("invalid_input", f"--k must be between 1 and {MAX_K}.")


def _refuse_instructions(verb: str, text: str) -> None:
    reason = instruction_reason(text)
    if reason:
        raise UserError("instruction_refused",
                        f"{verb}: that reads as an {reason}, and Companion only remembers facts about you.")


class MemoryService:
    """Add, edit, pin, disable, forget, search, history, export, import, extract and consolidate."""

    def __init__(self, companion: Companion):
        self.c = companion

    # -- reading ---------------------------------------------------------------------------------
    def memories(self, category: str | None = None, status: str = "active") -> list[Memory]:
        """Memories of one status ('all' for every status), optionally of one category, oldest first."""
        return self.c.store.list(category=category, status=status)

    def by_ids(self, ids: Iterable[str]) -> dict[str, Memory]:
        """The memories that still exist among these ids."""
        found = {}
        for memory_id in dict.fromkeys(ids):
            try:
                found[memory_id] = self.c.store.get(memory_id)
            except NotFound:
                pass
        return found

    def search(self, query: str, k: int = 10, weights: Weights | None = None,
               every_status: bool = False) -> list[Hit]:
        """The best matches of the hybrid search (active memories unless every_status)."""
        check_k(k)
        statuses = EVERY_STATUS if every_status else ("active",)
        return search(self.c.store, query, k, weights=weights or Weights(), statuses=statuses)

    def search_many(self, queries: list[str], k: int = 10) -> Iterator[tuple[str, list[Hit]]]:
        """(query, hits) for each query in order, embedded in one batch."""
        check_k(k)
        texts = [q or " " for q in queries]
        vectors = self.c.embedder.embed(texts) if queries else []
        multilingual = self.c.store.multilingual
        multi = multilingual.embed(texts) if queries and multilingual is not None else [None] * len(queries)
        for query, vector, multi_vector in zip(queries, vectors, multi):
            yield query, search(self.c.store, query, k, query_vector=vector, multilingual_vector=multi_vector)

    def history(self, memory_id: str) -> list[HistoryEntry]:
        """The recorded changes of one memory, oldest first."""
        return self.c.store.history(memory_id)

    def history_chain(self, memory_id: str) -> list[HistoryStep]:
        """The supersede chain through this memory, oldest first, each with its recorded changes."""
        everything = {m.id: m for m in self.memories(status="all")}
        if memory_id not in everything:
            raise NotFound(f"No memory has the id {memory_id!r}.")
        replaced_by = {m.superseded_by: m.id for m in everything.values() if m.superseded_by}
        first, seen = memory_id, {memory_id}
        while first in replaced_by and replaced_by[first] not in seen:
            first = replaced_by[first]
            seen.add(first)
        chain: list[HistoryStep] = []
        current: str | None = first
        while current in everything and current not in {s.memory.id for s in chain}:
            chain.append(HistoryStep(everything[current], self.history(current)))
            current = everything[current].superseded_by
        return chain

    def index(self) -> str:
        """The always-on index of what is remembered (rebuilt first if missing or stale)."""
        return current_index(self.c.store)

    # -- changing --------------------------------------------------------------------------------
    def add(self, text: str, category: str | None = None, event_date: str | None = None) -> Memory:
        """Remember text by hand (source: explicit); the rules guess the category if none is given."""
        check_addable(text)
        today = self.c.clock.today()
        # The rules slow down with length; too long a text is refused by the store anyway.
        category = category or _guess_category(text[:MAX_CONTENT], today)
        memory = Memory(new_id(), category, text, source="explicit", confidence=1.0, importance=0.7,
                        event_date=event_date, valid_from=today.isoformat(), quote=text)
        with self.c.store.db.transaction():
            return self.c.store.add(memory, reason="added by hand")

    def edit(self, memory_id: str, content: str | None = None, category: str | None = None,
             importance: float | None = None, pinned: bool | None = None,
             disabled: bool | None = None) -> Memory:
        """Change a memory as the user asked; instruction-like text is refused as everywhere else."""
        changes = edit_changes(content, category, importance, pinned, disabled)
        return self.c.store.update(memory_id, reason="edited by the user", **changes)

    def pin(self, memory_id: str, pinned: bool = True) -> Memory:
        """Pin (or unpin) a memory: a pinned memory is always known and never decays."""
        return self.edit(memory_id, pinned=pinned)

    def disable(self, memory_id: str, disabled: bool = True) -> Memory:
        """Disable (or enable) a memory: a disabled memory is kept but never used."""
        return self.edit(memory_id, disabled=disabled)

    def forget(self, memory_ids: Iterable[str]) -> ForgetReceipt:
        """Forget these memories everywhere (the saved prompt state too) and return the receipt."""
        self.c.forget_prompt_cache()
        return self._with_prompt_cache(forget(self.c.store, list(dict.fromkeys(memory_ids))))

    def forget_all(self) -> ForgetReceipt:
        """Forget every memory (the saved prompt state too) and return the receipt."""
        self.c.forget_prompt_cache()
        return self._with_prompt_cache(forget_all(self.c.store))

    def _with_prompt_cache(self, receipt: ForgetReceipt) -> ForgetReceipt:
        """The receipt, with the prompt cache file among the places checked: clean only if no such file is left
        (it is encrypted, so it cannot be searched for the text; gone is the proof)."""
        receipt.add_place(PROMPT_CACHE_PLACE, self.c.prompt_cache_gone())
        return receipt

    # -- files -----------------------------------------------------------------------------------
    def export_text(self, fmt: str) -> str:
        """Every memory as 'json' (the export format) or 'md' (a page for people)."""
        return export_json(self.c.store) if fmt == "json" else export_markdown(self.c.store)

    def export(self, path: Path, fmt: str) -> int:
        """Write every memory to path as 'json' or 'md'; returns how many were written."""
        text = self.export_text(fmt)
        try:
            write_private(Path(path), text + "\n")
        except OSError as exc:
            raise write_error(path, exc) from exc
        return len(self.memories(status="all"))

    def import_file(self, path: Path) -> tuple[list[Memory], Skipped]:
        """Import an export file: (imported, [(content, why skipped)])."""
        return self.import_items(read_import(Path(path)))

    def import_items(self, items: list[dict]) -> tuple[list[Memory], Skipped]:
        """Import the memories read from an export file (`read_import`): (imported, [(content, why skipped)])."""
        return import_memories(self.c.store, items)

    # -- learning and tidying --------------------------------------------------------------------
    def extract(self, text: str, assistant: str | None = None, dry_run: bool = False,
                previous_user: str | None = None, use_model: bool | None = None) -> ExtractionResult:
        """Run the extraction pipeline on one user message, without chatting."""
        return self.c.pipeline(use_model=use_model).process(text, assistant, self.c.clock.today(),
                                                            dry_run=dry_run, previous_user=previous_user)

    def consolidate(self, force: bool = False, progress: Progress | None = None) -> ConsolidationResult:
        """Consolidate now (gated; force skips every gate but the lock)."""
        return consolidate_profile(self.c, force=force, progress=progress)


def consolidation_skipped(home: Path, now, force: bool) -> str | None:
    """Why consolidation would not run, from the gates that need no database (None: open it and run)."""
    return precheck(lock_for(home), now, gates_for(Settings.load(home)), force)


def _guess_category(text: str, today: date) -> str:
    cands = extract_candidates(text, None, today)
    return cands[0].category if cands else "profile"
