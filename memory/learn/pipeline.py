"""The per-turn memory pipeline: candidates (rules + model) → validators → reconciliation."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from datetime import date

from memory.learn import model_extract, reconcile
from memory.learn.answers import read_with_question
from memory.learn.classifier import ClauseScore, TrainedExtractor, shipped_extractor
from memory.learn.clause_memory import CHANGE_ONLY, clause_candidates
from memory.learn.corrections import Correction, corrections, reply_corrections, with_corrections
from memory.learn.decision import OWN_WORDS, Decider, origin_kind, shipped_decision
from memory.learn.enrich import quoted_spans, with_neighbours
from memory.learn.features import attack_text
from memory.learn.guard import instruction_reason, unfinished_reason
from memory.learn.outcomes import outcome_candidate
from memory.learn.readings import in_own_words, other_readings
from memory.dates import undated
from memory.learn.rules.candidates import RULES, extract_candidates
from memory.learn.rules.common import sentences
from memory.learn.rules.registry import compile_all, is_rule_origin
from memory.learn.supersede import Replacements
from memory.learn.thresholds import CHANGE_CONFIDENCE, MIN_CONFIDENCE, MIN_IMPORTANCE
from memory.learn.validate import validate
from memory.learn.predicates import predicate, value
from memory.protocols import Completer
from memory.recall.hybrid import search
from memory.records import Candidate, Memory, Rejection, about
from memory.storage.store import MemoryStore
from memory.storage.vector_index import one_blas_thread
from memory.text import clean, tokens, without_emoji

log = logging.getLogger(__name__)
MAX_LEARN_CHARS = 4000
_ORIGIN_RANK = {"rule": 0, "model": 1}


@dataclass(frozen=True)
class Thresholds:
    """Minimum confidence and importance for a candidate to be kept (settings)."""

    min_confidence: float = MIN_CONFIDENCE
    min_importance: float = MIN_IMPORTANCE


@dataclass
class Written:
    """A memory the pipeline wrote (or would write, in a dry run) and what it did."""

    memory: Memory
    action: str
    origin: str = ""  # the rule or classifier that proposed it, with the classifier's scores
    candidate: Candidate | None = None  # the proposal it was made from

    def to_json(self) -> dict:
        data = self.memory.to_json()
        data["action"] = self.action
        data["origin"] = self.origin
        if self.candidate is not None:
            said_on = self.memory.valid_from or self.memory.created_at
            data["structure"] = structure(self.candidate, date.fromisoformat(said_on[:10]) if said_on else None)
        return data


def structure(c: Candidate, today: date | None = None) -> dict:
    """What a memory says, as its parts: the topic key reconciliation matches on, the predicate and value
    (memory/learn/predicates.py), polarity, about whom (a named person's relationship topic, else the user), the day a
    state began, how sure the change head is that it states a change, and which proposer decided it (the rule's id
    and the heads' scores are in `origin`). `today`: the day it was said (an event before it `happened on`)."""
    return {"topic": c.topic, "predicate": predicate(c.category, c.topic, c.polarity, c.change, c.event_date, today),
            "value": value(c.topic), "polarity": "negative" if c.polarity < 0 else "positive", "about": about(c.topic),
            "valid_from": c.valid_from.isoformat() if c.valid_from else None,
            "change": round(c.change, 3), "proposer": c.origin.partition(":")[0] or None, "keep": c.keep}


@dataclass
class ExtractionResult:
    """What one run wrote and what it rejected, with reasons."""

    written: list[Written] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"written": [w.to_json() for w in self.written], "rejected": [r.to_json() for r in self.rejected]}


def warm_up() -> None:
    """Compile every rule's pattern and load the shipped extractor now. Both happen on first use otherwise, in
    the middle of extracting the first messages (the patterns alone took ~0.6 s of the first 120 messages'
    extraction), so an app that starts its memory ahead of the first message calls this."""
    compile_all(RULES)
    shipped_extractor()


class MemoryPipeline:
    """Learns from one user message (with the companion's previous message as context).

    A message that stops mid-sentence yields nothing on its own; given as `previous_user` with the next
    message, the two are read as one, so an instruction split over turns meets the guard whole.
    """

    def __init__(self, store: MemoryStore, completer: Completer | None = None, thresholds: Thresholds = Thresholds(),
                 use_trained: bool = True, extractor: TrainedExtractor | None = None, decision: Decider | None = None):
        self.store = store
        self.completer = completer
        self.thresholds = thresholds
        self.use_trained = use_trained
        self._extractor = extractor
        self._replacements: Replacements | None = None
        self._decision = decision

    def process(self, user_text: str, assistant_text: str | None, today: date, *, session_id: str | None = None,
                message_id: str | None = None, dry_run: bool = False,
                previous_user: str | None = None, answering: Memory | None = None) -> ExtractionResult:
        """Run the whole pipeline; with dry_run nothing is stored. `answering`: the remembered event the companion's
        previous message asked about (a follow-up): the answer becomes its outcome (memory/learn/outcomes.py).

        Its products are small and run on one BLAS thread: a second one polls for ~0.1 s after each, and on 2
        cores that would take a core from the reply that may start right after (models/embedder.py)."""
        with one_blas_thread():
            return self._process(user_text, assistant_text, today, session_id=session_id, message_id=message_id,
                                 dry_run=dry_run, previous_user=previous_user, answering=answering)

    def _process(self, user_text: str, assistant_text: str | None, today: date, *, session_id: str | None,
                 message_id: str | None, dry_run: bool, previous_user: str | None,
                 answering: Memory | None = None) -> ExtractionResult:
        result = ExtractionResult()
        user_text = _plain(user_text)
        if previous_user and unfinished_reason(_plain(previous_user)):
            user_text = _plain(previous_user).strip() + " " + user_text.strip()
        assistant_text = _plain(assistant_text)[-MAX_LEARN_CHARS:] if assistant_text else None
        if len(user_text) > MAX_LEARN_CHARS:  # a pasted document, not something said; the rules slow down with length
            result.rejected.append(Rejection(_excerpt(user_text), f"too long to learn from ({len(user_text)} "
                                                                     f"characters; at most {MAX_LEARN_CHARS})"))
            return result
        attack = instruction_reason(user_text)
        unfinished = None if attack else unfinished_reason(user_text)  # read whole with the next message
        said = user_text  # a short answer is read whole with the companion's question (memory/learn/answers.py)
        said_corrections = corrections(said) + reply_corrections(said, assistant_text, today)
        # a question whose value the answer corrects ("…the wedding on the 12th?" + "the 2nd!! and no") is not answered
        if not (attack or unfinished or _corrects_the_reply(said_corrections, assistant_text)):
            user_text = read_with_question(said, assistant_text) or said
        candidates = [] if attack or unfinished else extract_candidates(user_text, assistant_text, today)
        if self.trained is not None and not (attack or unfinished):
            # every text the heads read (the attack head's included), in one embedding batch
            self.trained.prefetch(self.trained.message_texts(user_text) + [attack_text(said)]
                                  + [c.quote or c.content for c in candidates])
            attack = self._classifier_attack(said)
        refused = f"message rejected: {attack}" if attack else unfinished
        if refused:  # the model is not even asked: an attack never reaches extraction as input
            result.rejected.append(Rejection(_excerpt(said), refused))
            return result
        if answering is not None and answering.status == "active" and answering.category == "event":
            self._record_outcome(answering, said, today, session_id, message_id, dry_run, result)
        corrected = self._corrected(said_corrections, today, session_id, message_id, dry_run, result)
        scores: list[ClauseScore] = []
        if self.trained is not None:
            candidates = _with_change(self.trained, candidates, user_text)
            scores = self.trained.score_message(user_text)  # once: every stage reads the same clause scores
            # The rule candidates the decision keeps speak for their clauses; the heads speak for the rest.
            standing, turned_down = validate(candidates, user_text, assistant_text, today,
                                             self.thresholds.min_confidence, self.thresholds.min_importance)
            result.rejected.extend(turned_down)
            # A rule's fact often goes on in the clause after its quote ("下周六搬家 从浦东搬去闵行"): the decision reads
            # it whole, and the heads do not claim that clause as a fact of its own.
            whole = self._completed(standing, user_text, assistant_text, scores, today)
            first_of = {_key(w): _key(c) for c, w in zip(standing, whole)}
            decided, declined = self._decide(whole, scores, user_text)
            result.rejected.extend(declined)
            # validated again below with the rest, from their first form (in the words the decision chose)
            rules_decided = {first_of[_key(c)]: c for c in decided}
            standing = [_as_decided(c, rules_decided) for c in candidates if _key(c) in rules_decided]
            standing = self._completed(standing, user_text, assistant_text, scores, today)
            clauses = clause_candidates(self.trained, user_text, today, quoted_spans(user_text, standing),
                                        scores=scores)
            candidates = standing + clauses + clause_candidates(
                self.trained, user_text, today, quoted_spans(user_text, standing + clauses), change_only=True,
                scores=scores)
        candidates += self._model_candidates(user_text, assistant_text, result)
        accepted, rejected = validate(candidates, user_text, assistant_text, today,
                                      self.thresholds.min_confidence, self.thresholds.min_importance)
        result.rejected.extend(rejected)
        if self.trained is not None:  # the rules were decided above; the heads' and the model's proposals now
            proposed = [c for c in accepted if not is_rule_origin(c.origin)]
            decided, declined = self._decide(proposed, scores, user_text, others=accepted)
            result.rejected.extend(declined)
            accepted = [c for c in accepted if is_rule_origin(c.origin)] + decided
        kept = self._completed(_dedupe(accepted), user_text, assistant_text, scores, today, rules_done=True)
        kept = [_began_in_its_sentence(c, user_text, today) for c in kept]
        kept = [replace(c, content=without_emoji(c.content)) for c in kept]  # the note, not the mood it was said in
        if corrected:  # the words that corrected a memory are not a fact of their own ("不是豆豆 是朵朵")
            kept = [c for c in kept if not any(_overlapping(c.said or c.quote, q, said) for q in corrected)]
        if user_text != said:  # the memory quotes what the user said, not the statement it was read as
            kept = [replace(c, said=said) for c in kept]
        if self.trained is not None:  # what reconciliation will score, in one batch
            self.trained.prefetch([c.quote or c.content for c in kept])
        vectors = self.store.embedder.embed([c.content for c in kept]) if kept else []  # one batch, not one call each
        # The active memories, read once for the message; what its own candidates retire drops out as they go.
        active = self.store.list(status="active") if kept and self.replacements is not None else None
        for cand, vector in zip(kept, vectors):
            retired = self._reconcile(cand, vector, today, session_id, message_id, dry_run, result, active)
            if active is not None and retired:
                active = [m for m in active if m.id not in retired]
        return result

    @property
    def trained(self) -> TrainedExtractor | None:
        """The trained extractor, loaded on first use (commands that never extract do not pay for it),
        reading sentence vectors from the store's multilingual embedder."""
        if self.use_trained and (self._extractor is None or self._extractor.encoder is None):
            self._extractor = (self._extractor or shipped_extractor()).with_encoder(self.store.multilingual)
        return self._extractor if self.use_trained else None

    @property
    def replacements(self) -> Replacements | None:
        """The trained pair model that decides what a new statement replaces (None with rules only)."""
        if self.trained is None:
            return None
        if self._replacements is None or self._replacements.extractor is not self.trained:
            self._replacements = Replacements(self.trained)
        return self._replacements

    @property
    def decision(self) -> Decider:
        """The trained decision model (memory/learn/decision.py), loaded on first use."""
        if self._decision is None:
            self._decision = shipped_decision()
        return self._decision

    def _decide(self, cands: list[Candidate], scores: list[ClauseScore], text: str,
                others: list[Candidate] | None = None) -> tuple[list[Candidate], list[Rejection]]:
        """The candidates the decision model keeps. A clause the heads proposed that it does not keep is proposed
        as a change only (kept if it replaces a stored memory); one proposed as a change only that it keeps is a
        fact of its own. What the user asked to be remembered always stands."""
        model = self.decision
        if not cands:
            return cands, []
        readings = [(i, r) for i, c in enumerate(cands)
                    for r in [c] + (other_readings(c, scores, text) if origin_kind(c.origin) != "rule"
                                    else in_own_words(c, others or cands, text))]
        probabilities = model.keep_probabilities([r for _, r in readings], scores, text, others or cands)
        best: dict[int, tuple[Candidate, float]] = {}
        for (i, r), p in zip(readings, probabilities):  # the surest reading of each candidate's words
            if i not in best or p > best[i][1]:
                best[i] = (r, p)
        kept, declined = [], []
        for c, p in (best[i] for i in range(len(cands))):
            kind, keep = origin_kind(c.origin), c.source == "explicit" or p >= model.bar(c)
            c = replace(c, keep=round(p, 3))
            if kind == "classifier-change" and keep:
                kept.append(replace(c, origin="classifier" + c.origin[len(CHANGE_ONLY):]))
            elif kind == "classifier" and not keep:
                kept.append(replace(c, origin=CHANGE_ONLY + c.origin[len("classifier"):]))
            elif keep or kind == "classifier-change":
                kept.append(c)
            else:
                declined.append(Rejection(c.content, f"the decision model does not keep it (p {p:.2f} < {model.bar(c):.2f})"))
        return kept, declined

    def _completed(self, kept: list[Candidate], user_text: str, assistant_text: str | None,
                   scores: list[ClauseScore], today: date, rules_done: bool = False) -> list[Candidate]:
        """Each candidate with the neighbouring clauses that complete it (memory/learn/enrich.py), where the
        completed one still passes the validators; with `rules_done`, the rule candidates were completed already."""
        if not scores or self.trained is None:
            return kept
        out = []
        for cand, fuller in zip(kept, with_neighbours(kept, user_text, scores, today)):
            if rules_done and is_rule_origin(cand.origin):
                fuller = cand
            if fuller is not cand and validate([fuller], user_text, assistant_text, today, self.thresholds.min_confidence,
                                               self.thresholds.min_importance)[0]:
                cand = fuller
            out.append(cand)
        return out

    def _classifier_attack(self, text: str) -> str | None:
        """The trained attack head's verdict, as a reason, when it calls the message an instruction."""
        if self.trained is None:
            return None
        p = self.trained.attack_score(text)
        return f"reads as an instruction to the companion (classifier {p:.2f})" if p >= self.trained.attack_threshold else None

    def _model_candidates(self, user_text: str, assistant_text: str | None, result: ExtractionResult) -> list[Candidate]:
        if self.completer is None:
            return []
        known = [h.memory for h in search(self.store, user_text, k=5)]
        try:
            return model_extract.propose(self.completer, user_text, assistant_text, known)
        except model_extract.ModelAnswerError as exc:
            # The rule candidates still stand; the failure is visible, not a silent "nothing found".
            log.warning("model extraction answer unusable: %s", exc)
            result.rejected.append(Rejection("(model answer)", f"model answer unusable: {exc}"))
            return []

    def _corrected(self, said_corrections: list[Correction], today: date, session_id: str | None,
                   message_id: str | None, dry_run: bool, result: ExtractionResult) -> list[str]:
        """Each remembered fact the message corrects a value of, said right in its place (memory/learn/corrections.py);
        the words that said each correction, and each correction of the companion's words that the memory already
        holds right."""
        if not said_corrections:
            return []
        found, already = with_corrections(self.store.list(status="active"), said_corrections, today)
        for old, cand in found:
            self._replace(old, cand, f"corrected on {today.isoformat()}", f"{cand.source} (a correction: {cand.quote})",
                          today, session_id, message_id, dry_run, result)
        return [cand.quote for _, cand in found] + [c.quote for c in already]

    def _record_outcome(self, event: Memory, answer: str, today: date, session_id: str | None, message_id: str | None,
                        dry_run: bool, result: ExtractionResult) -> None:
        """The answer to a follow-up, as the event's outcome: it replaces the plan it followed up."""
        cand = outcome_candidate(event, answer)
        if cand is not None:
            self._replace(event, cand, f"how it went, told on {today.isoformat()}", f"{cand.source} (asked how it went)",
                          today, session_id, message_id, dry_run, result)

    def _replace(self, old: Memory, cand: Candidate, reason: str, why: str, today: date, session_id: str | None,
                 message_id: str | None, dry_run: bool, result: ExtractionResult) -> None:
        """Write the candidate in place of one memory the caller already chose (no reconciliation to decide it)."""
        decision = reconcile.Decision("superseded", reconcile.memory_from(cand, today), [old], reason)
        decision.memory.session_id, decision.memory.message_id = session_id, message_id
        memory = decision.memory
        if not dry_run:
            memory = reconcile.apply(self.store, decision, self.store.embedder.embed([cand.content])[0], why)
        result.written.append(Written(memory, "superseded", cand.origin, cand))

    def _reconcile(self, cand: Candidate, vector: list[float], today: date, session_id: str | None,
                   message_id: str | None, dry_run: bool, result: ExtractionResult,
                   active: list[Memory] | None = None) -> set[str]:
        """Decide and (unless dry_run) apply one candidate; the ids of the memories it retires."""
        fresh = frozenset(w.memory.id for w in result.written)
        decision = reconcile.decide(self.store, cand, today, vector, fresh, self.replacements, active)
        if decision.action == "rejected":
            result.rejected.append(Rejection(cand.content, decision.reason))
            return set()
        decision.memory.session_id, decision.memory.message_id = session_id, message_id
        if dry_run:
            result.written.append(Written(decision.memory, decision.action, cand.origin, cand))
            return set()
        why = f"{cand.source} ({cand.origin})"
        memory = reconcile.apply(self.store, decision, vector, why)
        result.written.append(Written(memory, decision.action, cand.origin, cand))
        return {m.id for m in decision.replaces} if decision.action == "superseded" else set()


def _with_change(model: TrainedExtractor, candidates: list[Candidate], text: str) -> list[Candidate]:
    """Rule candidates with the change head's reading of their quoted words ("finally quit…", 调到)."""
    scores = model.score_texts([c.quote or c.content for c in candidates])
    return [replace(c, change=s.change, context=text) for c, s in zip(candidates, scores)]


def _began_in_its_sentence(c: Candidate, text: str, today: date) -> Candidate:
    """A stated change with no day of its own began on a past day its sentence says ("bought a bike last month,
    cycling to the office every day now": the cycling, and the end of what it replaces, date from last month)."""
    at = text.find(c.quote) if c.quote else -1
    if c.valid_from is not None or c.category == "event" or c.change < CHANGE_CONFIDENCE or at < 0:
        return c
    sentence = next((s for s in sentences(text) if s.start <= at < s.end), None)
    began = undated(sentence.text, today)[1] if sentence is not None else None
    return replace(c, valid_from=began) if began is not None and began <= today else c


def _key(c: Candidate) -> tuple[str, str, str]:
    """A rule candidate before and after validation (which may rewrite its words and dates, not these) and the
    decision (which may choose the user's own words for its note)."""
    return c.origin.removesuffix(OWN_WORDS), c.quote, c.category


def _as_decided(c: Candidate, decided: dict[tuple[str, str, str], Candidate]) -> Candidate:
    """A rule candidate as the decision chose it: its probability, and the user's own words when they won."""
    chosen = decided.get(_key(c))
    if chosen is None:
        return c
    if OWN_WORDS in chosen.origin:  # the user's words of the whole fact, completed before the decision read it
        return replace(c, content=chosen.content, quote=chosen.quote, origin=chosen.origin, keep=chosen.keep)
    return replace(c, keep=chosen.keep)


def _plain(text: str | None) -> str:
    """Control characters and broken surrogates out; phone keyboards' curly apostrophes (I’m, don’t) as
    plain ones, so every rule reads them."""
    return clean(text or "").translate(_APOSTROPHES)


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'"})


def _excerpt(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    """One candidate per topic (or per content): explicit beats stated beats inferred, rules beat the model. Two
    events on the same day quoting the same words are one event ("my driving test is on the 28th": two date rules
    matched it), and two notes of one category whose quotes hold one another are one: the one quoting more kept."""
    best: dict[str, Candidate] = {}
    for c in cands:
        key = c.topic or c.content.casefold()
        old = best.get(key)
        if old is None or _rank(c) > _rank(old):
            best[key] = c
    kept = list(best.values())
    twins = [(a, b) for a in kept for b in kept if a is not b and _same_event(a, b)]
    return [c for c in kept if not any(c is a and _surer(b) > _surer(a) for a, b in twins)]


def _surer(c: Candidate) -> tuple:
    """Of two readings of one fact: the one quoting more of it, then the note keeping more of the quote's words
    ("在厦门一所大学读研二…" over "现在研二…"), then the one the decision model is surer of."""
    if c.category == "event":
        return (0, 0, c.keep or 0.0, _rank(c))
    said = set(tokens(c.content))
    return (len(c.quote or ""), sum(w in said for w in set(tokens(c.quote or ""))), c.keep or 0.0, _rank(c))


def _same_event(a: Candidate, b: Candidate) -> bool:
    """Two readings of one fact: events on the same day quoting the same words, or two notes of one category whose
    quotes hold one another and which say mostly the same words ("在厦门一所大学读研二，方向是…" by the city rule
    and "现在研二，方向是…" by the grade rule)."""
    if not (a.quote and b.quote and a.category == b.category and (a.quote in b.quote or b.quote in a.quote)):
        return False
    if a.category == "event":
        return a.event_date is not None and a.event_date == b.event_date
    said_a, said_b = set(tokens(a.content)), set(tokens(b.content))  # "Works as a nurse" / "Lives in Leeds": two
    return len(said_a & said_b) >= 0.6 * min(len(said_a), len(said_b)) > 0


def _rank(c: Candidate) -> tuple:
    return ({"explicit": 2, "stated": 1}.get(c.source, 0), -_ORIGIN_RANK.get(c.origin.split(":")[0], 1), c.confidence)


def _corrects_the_reply(said: list[Correction], assistant_text: str | None) -> bool:
    """Does one of the message's corrections name a value the companion's last message said?"""
    heard = (assistant_text or "").casefold()
    return any(w.casefold() in heard for c in said for w in c.wrong) if heard else False


def _overlapping(quote: str, other: str, text: str) -> bool:
    """Do two quotes of one message share half of the shorter one (by where they stand in it)?"""
    a, b = text.find(quote), text.find(other)
    if not quote or not other or a < 0 or b < 0:
        return bool(quote and other) and (quote in other or other in quote)
    shared = max(0, min(a + len(quote), b + len(other)) - max(a, b))
    return shared >= 0.5 * min(len(quote), len(other))
