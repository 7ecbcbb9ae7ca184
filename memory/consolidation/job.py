"""Consolidation ("dream"): gates, then orient → gather → consolidate → prune and index, with a readable log.

Per-turn extraction may be wrong; this job makes the store right again. This version is rules-only:
no model is asked, so a bad model answer cannot change anything. Each change is its own transaction
together with its log line, so a crash at any point leaves the store consistent and the log truthful.
Memories the user disabled are left exactly as they are.
"""
from __future__ import annotations

import json
import re
from calendar import monthrange
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Callable

import numpy as np

from memory.consolidation.lock import RunLock
from memory.dates import absolutize
from memory.errors import NotFound
from memory.recall.index import rebuild, warning
from memory.records import SOURCES, Memory
from memory.storage.forgetting import forget
from memory.storage.store import MAX_CONTENT, MemoryStore
from memory.storage import vectors
from memory.storage.vectors import _set_meta
from memory.text import STOPWORDS, has_cjk, has_negation, tokens

Progress = Callable[[str], None]

MIN_HOURS, MIN_SESSIONS = 24, 5
NEIGHBOUR_COSINE = 0.55
CONTRADICTION_COSINE = 0.6
MERGE_COSINE, TIGHT_MERGE_COSINE = 0.75, 0.70
SUBJECT_JACCARD, TIGHT_SUBJECT_JACCARD = 0.5, 0.4
DECAY, DECAY_DAYS = 0.95, 7
WEAK_STRENGTH, WEAK_UNUSED_DAYS = 0.2, 90
# With the index over its caps, the next run also lets go of memories that are merely weak.
TIGHT_WEAK_STRENGTH, TIGHT_WEAK_UNUSED_DAYS = 0.35, 60
EVENT_GRACE_DAYS = 2  # a just-passed event stays (in past tense) so the companion can ask how it went
SUPERSEDED_RETENTION_DAYS, EXPIRED_RETENTION_DAYS = 30, 180
PAST_EN, PAST_ZH = " (past)", "（已过去）"
_RECURRING = re.compile(r"birthday|anniversary|生日|纪念日", re.IGNORECASE)
JSON_FIELDS = ("ran", "skipped_reason", "merged", "superseded", "expired", "decayed", "purged", "index_lines")


@dataclass(frozen=True)
class Gates:
    """When an automatic run may happen (the settings and the issue's defaults)."""

    enabled: bool = True
    min_hours: float = MIN_HOURS
    min_sessions: int = MIN_SESSIONS


@dataclass
class ConsolidationResult:
    """What one run did, or why it did not run."""

    ran: bool
    skipped_reason: str | None = None
    merged: int = 0
    superseded: int = 0
    expired: int = 0
    decayed: int = 0
    purged: int = 0
    index_lines: int = 0
    details: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        """The stable JSON shape of `memory consolidate --json`."""
        return {k: getattr(self, k) for k in JSON_FIELDS}


# -- gates ---------------------------------------------------------------------------------------
def precheck(lock: RunLock, now: datetime, gates: Gates, force: bool) -> str | None:
    """The gates that need no database (enabled, time since the last run); the reason to skip, or None."""
    if force:
        return None
    if not gates.enabled:
        return "consolidation is turned off in settings"
    last = lock.state().last_run
    # A last run "in the future" means the clock was moved back (or fixed by --today): it blocks nothing.
    if last is not None and timedelta(0) <= now - last < timedelta(hours=gates.min_hours):
        hours = (now - last).total_seconds() / 3600
        return f"the last run was {hours:.1f} h ago; runs are at least {gates.min_hours:g} h apart"
    return None


def last_run(store: MemoryStore, lock: RunLock) -> datetime | None:
    """When consolidation last ran: the lock's mtime, else the last finished log entry."""
    stamp = lock.state().last_run
    if stamp is not None:
        return stamp
    rows = store.db.read("SELECT max(finished_at) FROM consolidation_log")
    return datetime.fromisoformat(rows[0][0]) if rows and rows[0][0] else None


def changed_sessions(store: MemoryStore, since: datetime | None) -> int:
    """How many chat sessions changed since that time (all of them when there was no run yet)."""
    stamp = since.replace(microsecond=0).isoformat() if since else ""
    return store.db.read("SELECT count(*) FROM sessions WHERE updated_at > ?", (stamp,))[0][0]


def consolidate(store: MemoryStore, lock: RunLock, gates: Gates = Gates(), force: bool = False,
                progress: Progress | None = None) -> ConsolidationResult:
    """Check the gates cheapest first (force skips all but the lock), then run the four phases."""
    now = store.db.clock()
    reason = precheck(lock, now, gates, force)
    since = last_run(store, lock) if reason is None else None
    if reason is None and not force:
        n = changed_sessions(store, since)
        if n < gates.min_sessions:
            reason = f"only {n} session{'s' if n != 1 else ''} changed since the last run; {gates.min_sessions} needed"
    if reason is None and not lock.acquire(now):
        holder = lock.holder(now)
        reason = f"another consolidation is running (pid {holder})" if holder else "another process took the lock"
    if reason is not None:
        return ConsolidationResult(ran=False, skipped_reason=reason)
    try:
        result = _Run(store, since, progress or (lambda phase: None)).run()
    except BaseException:
        lock.release(store.db.clock(), completed=False)
        raise
    lock.release(store.db.clock())
    return result


# -- the run -------------------------------------------------------------------------------------
@dataclass(eq=False)
class _Item:
    """An active memory as the merge rules see it."""

    m: Memory
    subject: frozenset[str]
    negative: bool
    cjk: bool
    vec: np.ndarray | None


class _Run:
    """One consolidation run: its clock, its log row, its counters."""

    def __init__(self, store: MemoryStore, since: datetime | None, progress: Progress):
        self.store, self.db, self.progress = store, store.db, progress
        self.now = store.db.clock()
        self.today = self.now.date()
        self.since = since
        self.result = ConsolidationResult(ran=True)
        self.tight = False
        self.extra: dict = {}
        self.log_id = 0

    def run(self) -> ConsolidationResult:
        self.progress("orient")
        self._orient()
        self.progress("gather")
        changed = self._gather()
        self.progress("consolidate")
        self._absolute_dates(changed)
        self._past_events()
        self._merge()
        self.progress("prune")
        self._decay()
        self._soft_expire()
        self._purge()
        self.progress("index")
        self._index()
        self._finish()
        return self.result

    # -- log ----------------------------------------------------------------------------------
    def _note(self, conn, action: str, memory: Memory | None, reason: str, content: str | None = None) -> None:
        item = {"action": action, "memory_id": memory.id if memory else None,
                "content": content if content is not None else (memory.content if memory else None), "reason": reason}
        self.result.details.append(item)
        conn.execute("UPDATE consolidation_log SET details = json_insert(details, '$[#]', json(?)) WHERE rid = ?",
                     (json.dumps(item, ensure_ascii=False), self.log_id))

    def _finish(self) -> None:
        summary = {**self.result.to_json(), **self.extra, "tightened": self.tight}
        del summary["ran"], summary["skipped_reason"]
        with self.db.transaction() as conn:
            conn.execute("UPDATE consolidation_log SET finished_at = ?, summary = ? WHERE rid = ?",
                         (self.db.now(), json.dumps(summary), self.log_id))

    # -- orient and gather --------------------------------------------------------------------
    def _orient(self) -> None:
        """What is stored, and whether the last index had to be cut (then this run tightens)."""
        self.tight = warning(self.store) is not None
        counts = dict(self.db.read("SELECT status, count(*) FROM memories GROUP BY status"))
        self.extra["memories_before"] = counts
        with self.db.transaction() as conn:
            cur = conn.execute("INSERT INTO consolidation_log(started_at, summary, details) VALUES (?, ?, '[]')",
                               (self.db.now(), json.dumps({"running": True, "memories_before": counts})))
            self.log_id = cur.lastrowid

    def _gather(self) -> set[str]:
        """Sessions and memories changed since the last run; the ids of those memories."""
        stamp = self.since.replace(microsecond=0).isoformat() if self.since else ""
        self.extra["sessions_changed"] = changed_sessions(self.store, self.since)
        rows = self.db.read("SELECT id FROM memories WHERE updated_at > ? OR created_at > ?", (stamp, stamp))
        self.extra["memories_changed"] = len(rows)
        return {r[0] for r in rows}

    def _active(self) -> list[Memory]:
        return [m for m in self.store.list() if not m.disabled]

    # -- consolidate --------------------------------------------------------------------------
    def _absolute_dates(self, changed: set[str]) -> None:
        """Relative dates left in new memories become absolute, counted from the day they were said."""
        fixed = 0
        for m in self._active():
            if m.id not in changed:
                continue
            said = _day(m.created_at) or _day(m.valid_from) or self.today
            text, first = absolutize(m.content, said)
            changes: dict = {"content": text} if text != m.content else {}
            if m.category == "event" and not m.event_date and first:
                changes["event_date"] = first.isoformat()
            if changes:
                with self.db.transaction() as conn:
                    self.store.update(m.id, reason="consolidation: dates made absolute", **changes)
                    self._note(conn, "dated", m, f"dates made absolute (said on {said.isoformat()})", text)
                fixed += 1
        self.extra["dates_fixed"] = fixed

    def _past_events(self) -> None:
        """Passed events: yearly ones move to next year, recent ones turn past tense, older ones expire."""
        for m in self._active():
            when = _day(m.event_date) if m.category == "event" else None
            if when is None or when >= self.today:
                continue
            with self.db.transaction() as conn:
                if _RECURRING.search(m.content):
                    nxt = _next_yearly(when, self.today)
                    self.store.update(m.id, reason="consolidation: yearly date moved on", event_date=nxt.isoformat(),
                                      content=m.content.replace(when.isoformat(), nxt.isoformat()))
                    self._note(conn, "renewed", m, f"{when.isoformat()} has passed; next one on {nxt.isoformat()}")
                elif (self.today - when).days > EVENT_GRACE_DAYS:
                    self.store.update(m.id, reason=f"consolidation: the date {when.isoformat()} has passed",
                                      status="expired", valid_to=when.isoformat())
                    self._note(conn, "expired", m, f"the date {when.isoformat()} has passed")
                    self.result.expired += 1
                elif not m.content.endswith((PAST_EN, PAST_ZH)):
                    text = m.content + (PAST_ZH if has_cjk(m.content) else PAST_EN)
                    self.store.update(m.id, reason="consolidation: the event has happened", content=text)
                    self._note(conn, "past", m, f"the date {when.isoformat()} has passed", text)

    def _merge(self) -> None:
        """Near-duplicates become one memory; contradictions and replaced values are superseded."""
        by_category: dict[str, list[Memory]] = {}
        for m in self._active():
            by_category.setdefault(m.category, []).append(m)
        for memories in by_category.values():
            items = self._items(memories)
            for cluster in _clusters(items, self._relation):
                if len(cluster) > 1:
                    self._resolve(cluster)

    def _items(self, memories: list[Memory]) -> list[_Item]:
        rids = {self.store.rid_of(m.id): m for m in memories}
        vecs = _vectors(self.store, list(rids))
        items = [_Item(m, subject_of(m.content), has_negation(m.content), has_cjk(m.content), vecs.get(rid))
                 for rid, m in rids.items()]
        items.sort(key=lambda it: (it.m.created_at or "", it.m.id), reverse=True)  # newest first
        return items

    def _relation(self, a: _Item, b: _Item) -> str | None:
        """'duplicate', 'contradiction', 'replaced' (same topic, new value) or None."""
        jaccard_min = TIGHT_SUBJECT_JACCARD if self.tight else SUBJECT_JACCARD
        merge_cos = TIGHT_MERGE_COSINE if self.tight else MERGE_COSINE
        same_topic = bool(a.m.topic) and a.m.topic == b.m.topic
        if a.m.category == "event" and a.m.event_date != b.m.event_date and not same_topic:
            return None
        inter = len(a.subject & b.subject)
        contained = inter > 0 and inter == min(len(a.subject), len(b.subject))
        jaccard = inter / len(a.subject | b.subject) if inter else 0.0
        cjk = a.cjk or b.cjk  # the bundled embedder does not understand Chinese: words decide alone
        cos = float(a.vec @ b.vec) if a.vec is not None and b.vec is not None and not cjk else 0.0
        if a.negative != b.negative:
            lexical = contained or jaccard >= jaccard_min
            return "contradiction" if same_topic or (lexical and (cjk or cos >= CONTRADICTION_COSINE)) else None
        if contained and jaccard >= jaccard_min and (cjk or cos >= merge_cos):
            return "duplicate"
        if contained and not cjk and cos >= 0.9:
            return "duplicate"
        return "replaced" if same_topic else None

    def _resolve(self, cluster: list[_Item]) -> None:
        """Keep one memory of a cluster that talks about one thing; supersede the rest, in one transaction."""
        with self.db.transaction():
            # The run's snapshot may be old by now: a pin, a use or an edit made since then must not be
            # overwritten with it. Re-read under the write lock; an edited or vanished member waits a run.
            if self._refreshed(cluster):
                self._merge_cluster(cluster)

    def _refreshed(self, cluster: list[_Item]) -> bool:
        for it in cluster:
            try:
                now = self.store.get(it.m.id)
            except NotFound:  # forgotten meanwhile
                return False
            if (now.content, now.category, now.status, now.disabled) != (
                    it.m.content, it.m.category, it.m.status, it.m.disabled):
                return False
            it.m = now
        return True

    def _merge_cluster(self, cluster: list[_Item]) -> None:
        winner = max(cluster, key=lambda it: (_rank(it.m), it.m.created_at or "", it.m.id))
        relation = {id(it): self._relation(it, winner) for it in cluster if it is not winner}
        group = [winner] + [it for it in cluster if relation.get(id(it)) == "duplicate"]
        replaced = [it for it in cluster if relation.get(id(it)) == "replaced"]
        opposite = [it for it in cluster if relation.get(id(it)) == "contradiction"]
        if len(group) + len(replaced) + len(opposite) < 2:
            return
        state = [winner] + group[1:] + replaced
        older = [it for it in opposite if (it.m.created_at or "") < (winner.m.created_at or "")]
        union = frozenset().union(*(it.subject for it in group))
        survivor = max(group, key=lambda it: (it.m.pinned, len(it.subject & union), _rank(it.m), it.m.confidence,
                                              it.m.created_at or ""))
        changes = _evidence(survivor.m, [it.m for it in group], [it.m for it in cluster])
        if older:
            latest = max(older, key=lambda it: it.m.created_at or "")
            since = min((_said(it.m) for it in state if (it.m.created_at or "") > (latest.m.created_at or "")),
                        default=_said(winner.m))
            statement = change_statement(latest.m.content, survivor.m.content, since)
            changes["content"] = statement if len(statement) <= MAX_CONTENT else f"{survivor.m.content} (since {since})"
            changes["valid_from"] = since
        with self.db.transaction() as conn:
            kept = self.store.update(survivor.m.id, reason="consolidation: kept for its topic", **changes)
            hits = sum(it.m.hit_count for it in group)
            used = max((it.m.last_used_at for it in group if it.m.last_used_at), default=None)
            conn.execute("UPDATE memories SET hit_count = ?, last_used_at = ? WHERE id = ?", (hits, used, kept.id))
            if kept.content != survivor.m.content:
                self._note(conn, "restated", kept, f"states the change since {changes.get('valid_from')}")
            for it in group:
                if it is not survivor:
                    self._supersede(conn, it.m, kept, "merged", "same as")
            for it in replaced:
                self._supersede(conn, it.m, kept, "superseded", "replaced by the newer")
            for it in opposite:
                why = "contradicted by the later" if it in older else f"conflicts with the {kept.source}"
                self._supersede(conn, it.m, kept, "superseded", why)

    def _supersede(self, conn, old: Memory, by: Memory, action: str, why: str) -> None:
        # History names the survivor by id only: forgetting it must not leave its words in another's history.
        self.store.update(old.id, reason=f"consolidation: {why} {by.id}", status="superseded",
                          valid_to=self.today.isoformat(), superseded_by=by.id)
        self._note(conn, action, old, f"{why} {by.id}: {by.content}")
        if action == "merged":
            self.result.merged += 1
        else:
            self.result.superseded += 1

    # -- prune --------------------------------------------------------------------------------
    def _decay(self) -> None:
        """strength ×0.95 per 7 days since last use, unless pinned or used within the last 7 days.

        All in one transaction with the watermark 'decay_through', so a run never decays the same time
        twice, even after a crash. Like reinforcement on use, decay writes no history rows.
        """
        rows = self.db.read("SELECT value FROM meta WHERE key = 'decay_through'")
        prev = datetime.fromisoformat(rows[0][0]) if rows else None
        week = timedelta(days=DECAY_DAYS)
        updates = []
        for m in self._active():
            last = _stamp(m.last_used_at) or _stamp(m.created_at)
            if m.pinned or last is None or self.now - last < week:
                continue
            start = last if prev is None or prev < last + week else prev
            days = (self.now - start).total_seconds() / 86400
            new = m.strength * DECAY ** (days / DECAY_DAYS)
            if days > 0 and m.strength - new > 1e-6:
                updates.append((new, m.id))
        mark = max(prev, self.now) if prev else self.now
        with self.db.transaction() as conn:
            conn.executemany("UPDATE memories SET strength = ? WHERE id = ?", updates)
            _set_meta(conn, "decay_through", mark.replace(microsecond=0).isoformat())
            if updates:
                n = len(updates)
                self._note(conn, "decayed", None, f"{n} memor{'y' if n == 1 else 'ies'} unused for over "
                                                  f"{DECAY_DAYS} days lost strength (×{DECAY} per {DECAY_DAYS} days)")
        self.result.decayed = len(updates)

    def _soft_expire(self) -> None:
        """Weak memories nobody used for a long time leave the active set (status 'expired')."""
        floor, days = (TIGHT_WEAK_STRENGTH, TIGHT_WEAK_UNUSED_DAYS) if self.tight else (WEAK_STRENGTH, WEAK_UNUSED_DAYS)
        for m in self._active():
            last = _stamp(m.last_used_at) or _stamp(m.created_at)
            if m.pinned or m.strength >= floor or last is None or (self.now - last).days < days:
                continue
            why = f"weak (strength {m.strength:.2f}) and unused for {(self.now - last).days} days"
            if self.tight:
                why += "; the index was full"
            with self.db.transaction() as conn:
                self.store.update(m.id, reason=f"consolidation: {why}", status="expired",
                                  valid_to=self.today.isoformat())
                self._note(conn, "expired", m, why)
            self.result.expired += 1

    def _purge(self) -> None:
        """Delete everywhere what was superseded over 30 days ago or expired beyond its retention."""
        due = {"superseded": self.today - timedelta(days=SUPERSEDED_RETENTION_DAYS),
               "expired": self.today - timedelta(days=EXPIRED_RETENTION_DAYS)}
        counts = {"superseded": 0, "expired": 0}
        ids = []
        for status, cutoff in due.items():
            for m in self.store.list(status=status):
                ended = _day(m.valid_to) or _day(m.updated_at)
                if ended is not None and ended < cutoff:
                    ids.append(m.id)
                    counts[status] += 1
        if not ids:
            return
        # forget() also scrubs every log line that mentions these memories: the purge note names none.
        forget(self.store, ids)
        with self.db.transaction() as conn:
            self._note(conn, "purged", None, f"deleted everywhere: {counts['superseded']} superseded over "
                       f"{SUPERSEDED_RETENTION_DAYS} days ago, {counts['expired']} expired over "
                       f"{EXPIRED_RETENTION_DAYS} days ago")
        self.result.purged = len(ids)

    def _index(self) -> None:
        build = rebuild(self.store, tight=self.tight)
        self.result.index_lines = build.lines
        self.extra["index_bytes"] = build.bytes
        if build.cut:
            with self.db.transaction() as conn:
                self._note(conn, "index_full", None, f"the index shows {build.shown} of {build.total} memories "
                           f"({build.lines} lines, {build.bytes} bytes); the next run tightens it")


# -- rules shared by the phases ------------------------------------------------------------------
_NOT_SUBJECT = frozenset(
    "like likes liked love loves loved enjoy enjoys enjoyed adore adores hate hates hated dislike dislikes disliked "
    "prefer prefers preferred fan fond big favourite favorite really truly quite much more most longer anymore any "
    "never used since again still now lately recently doesn don didn isn aren wasn won hasn t s ll ve re "
    "drinking eating playing watching listening reading doing going having using their theirs they user past "
    "喜欢 爱 讨厌 不 没 没有 再 再也 了 很 非常 特别 最 以前 现在 起 自 已经 不再 还 也 都 挺 超 真 好 已 过去".split())
_ZH_VERB_HEAD = "爱喝吃看听玩打去"


def subject_of(text: str) -> frozenset[str]:
    """The words that say what a memory is about, without sentiment, negation, fillers and dates."""
    out = set()
    for tok in tokens(text):
        if tok in STOPWORDS or tok in _NOT_SUBJECT or tok.isdigit():
            continue
        if has_cjk(tok):
            while len(tok) > 1 and tok[0] in _ZH_VERB_HEAD:
                tok = tok[1:]
            if tok in _NOT_SUBJECT or tok in _ZH_VERB_HEAD:
                continue
        elif len(tok) < 2:
            continue
        elif len(tok) > 3 and tok.endswith("s") and not tok.endswith("ss"):
            tok = tok[:-1]
        out.add(tok)
    return frozenset(out)


def _clusters(items: list[_Item], relation: Callable[[_Item, _Item], str | None]) -> list[list[_Item]]:
    """Groups around a seed (the newest memory of the group): an item joins the first group whose seed it relates to.

    Relations are not transitive ("Likes tea" ~ "Loves tea" ~ "Really enjoys tea" need not hold pairwise),
    so membership is decided against the seed only; neighbours by vector, word or topic keep it cheap.
    """
    clusters: list[list[_Item]] = []
    if not items:
        return clusters
    dim = next((len(it.vec) for it in items if it.vec is not None), 1)
    mat = np.stack([it.vec if it.vec is not None else np.zeros(dim, dtype=np.float32) for it in items])
    sims = mat @ mat.T
    by_word: dict[str, list[int]] = {}
    seeds: dict[int, int] = {}  # item index of a seed → its cluster
    for i, it in enumerate(items):
        near = set(np.nonzero(sims[i, :i] >= NEIGHBOUR_COSINE)[0].tolist())
        near |= {j for w in it.subject | {f"topic:{it.m.topic}"} for j in by_word.get(w, ())}
        target = next((seeds[j] for j in sorted(near) if j in seeds and relation(it, items[j])), None)
        if target is None:
            seeds[i] = target = len(clusters)
            clusters.append([])
        clusters[target].append(it)
        for w in it.subject | ({f"topic:{it.m.topic}"} if it.m.topic else set()):
            by_word.setdefault(w, []).append(i)
    return clusters


def _vectors(store: MemoryStore, rids: list[int]) -> dict[int, np.ndarray]:
    with store.db.lock:
        return vectors.stored(store.db.conn, rids)


def _evidence(survivor: Memory, group: list[Memory], cluster: list[Memory]) -> dict:
    """The strongest evidence of the duplicates, carried over to the one that stays."""
    changes = {"confidence": max(m.confidence for m in group),
               "importance": max(m.importance for m in cluster),
               "strength": max(m.strength for m in group),
               "pinned": any(m.pinned for m in cluster),
               "topic": survivor.topic or next((m.topic for m in cluster if m.topic), None)}
    starts = [m.valid_from for m in group if m.valid_from]
    if starts:
        changes["valid_from"] = min(starts)
    if survivor.category == "event" and not survivor.event_date:
        changes["event_date"] = next((m.event_date for m in group if m.event_date), None)
    return changes


_SINCE = re.compile(r"\s*(\(since \d{4}-\d{2}-\d{2}\)|（自\d{4}-\d{2}-\d{2}起）)\s*$")
_CHANGED = re.compile(r"^(?:Used to .+?; since \d{4}-\d{2}-\d{2}, |以前.+?；自\d{4}-\d{2}-\d{2}起)(.+)$")
_IRREGULAR = {"is": "be", "has": "have", "does": "do", "goes": "go"}
_VERBS = frozenset("likes loves enjoys prefers adores hates dislikes is has does goes plays watches eats drinks "
                   "reads listens lives works studies wants uses owns follows supports practices runs rides "
                   "collects cooks makes keeps needs visits swims sings draws writes wears".split())
_LOWER_OK = _VERBS | frozenset("no not never now doesn't does isn't hasn't stopped quit gave".split())


def change_statement(old: str, new: str, since: str) -> str:
    """One memory that states a change: "Used to like coffee; since 2026-11-29, doesn't like coffee anymore"."""
    old, new = _SINCE.sub("", old), _SINCE.sub("", new)
    current = _CHANGED.match(old)
    old = current.group(1) if current else old
    if has_cjk(old) or has_cjk(new):
        return f"以前{old}；自{since}起{new}"
    first, _, rest = old.partition(" ")
    word = first.lower()
    if word in _VERBS:
        base = _IRREGULAR.get(word) or (word[:-3] + "y" if word.endswith("ies") else
                                        word[:-2] if word.endswith(("ches", "shes", "sses", "xes")) else word[:-1])
        head, _, tail = new.partition(" ")
        lowered = head.lower() + " " + tail if head.lower() in _LOWER_OK or head.lower().endswith("n't") else new
        return f"Used to {base} {rest}; since {since}, {lowered.strip()}"
    return f"Since {since}: {new} (before: {old})"


def _rank(m: Memory) -> int:
    """explicit > stated > inferred."""
    return len(SOURCES) - SOURCES.index(m.source) if m.source in SOURCES else 0


def _said(m: Memory) -> str:
    return (m.valid_from or m.created_at or "")[:10]


def _stamp(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def _day(text: str | None) -> date | None:
    stamp = _stamp(text)
    return stamp.date() if stamp else None


def _next_yearly(when: date, today: date) -> date:
    """The same day of the year on or after today (29 February becomes the 28th in common years)."""
    for year in (today.year, today.year + 1):
        nxt = date(year, when.month, min(when.day, monthrange(year, when.month)[1]))
        if nxt >= today:
            return nxt
    raise AssertionError("unreachable: next year's date is always after today")
