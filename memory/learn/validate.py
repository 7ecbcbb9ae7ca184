"""Validators every memory candidate passes, whether it came from the rules or the model.

In order: closed category; no instruction-like content (a message that attacks loses all its
candidates); worth storing; grounded in the user's own words (not the assistant's); negation kept;
dates made absolute (events need one); confidence and importance thresholds; no duplicates.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

import rjieba

from memory.dates import absolutize, undated
from memory.learn.clause_memory import goes_on_about_someone_else, render, topic_key, without_lead
from memory.learn.clauses import split_clauses, too_long_for_a_fact
from memory.learn.guard import instruction_reason, trivia_reason
from memory.learn.rules.common import zh_clean
from memory.learn.rules.en import MOODS, PETS, RELATIONS, STYLE_NOUN
from memory.learn.rules.events import EVENT_EN, EVENT_ZH
from memory.learn.rules.registry import is_rule_origin
from memory.learn.rules.zh import PETS as PETS_ZH
from memory.learn.rules.zh import RELS as RELS_ZH
from memory.learn.rules.zh_social import MOOD as MOOD_ZH
from memory.learn.thresholds import DUPLICATE_SHARE, GROUNDED_SHARE, SHORT_CHANGE
from memory.records import CATEGORIES, Candidate, Rejection
from memory.text import has_cjk

I = re.IGNORECASE
STOP_EN = frozenset(
    "a an the and or but if of to in on at for with from by is are was were be been am i me my you your we our they "
    "them their theirs themselves it its this that these those do does did have has had not no so very just what when "
    "where who how why which can could would should will about as up out than then there here also s".split())
TEMPLATE_EN = frozenset(
    "works work worked as name named prefers preferred prefer called call lives live living likes like loves love "
    "dislikes dislike enjoys enjoy longer quit feels feel felt has have year years old does want wants companion since "
    "promoted previously relationship broke up trip flight into fan tired originally recently moved usually keeps "
    "sane thinks one uses too many finds is being person user users they'd they're they've isn't doesn't don't stopped "
    "gave given hates hate over around note remember".split())
TEMPLATE_ZH = re.compile(r"用户|名字|不希望|希望|被叫|不再|非常|喜欢|职业是|工作|已经|住在|现在|老家|搬家|害怕|不喜欢|叫|是|的|了|在|和|跟|做|有|"
                         r"前后|周末|一|个")
NEG_QUOTE = re.compile(r"\b(?:not|never|no\s+longer|no\s+more|anymore|any\s+more|hate|hates|dislike|can't\s+stand|quit|stopped|"
                       r"gave\s+up|broke\s+up|nobody|none)\b|n't\b|不|没|别|再也|分手|腻|戒|讨厌|受不了", I)
NEG_IDIOMS = re.compile(r"not\s+for\s+the\s+(?:weak|faint)|not\s+gonna\s+lie|can't\s+wait|can't\s+stop|couldn't\s+be\s+(?:happier|"
                        r"prouder|more)|not\s+bad|no\s+joke|not\s+only|no\s+matter|not\s+sure|don't\s+know\s+what\s+I'd\s+do|"
                        r"don't\s+judge|never\s+mind|can't\s+believe|no\s+idea|why\s+not|"
                        r"不过|不错|不少|不久|不管|不断|不仅|不同|不如|差不多|雷打不动|不得不|忍不住|了不起|对不起|不好意思|要不|不然|"
                        r"不知道|不一定|没想到|没事|不行了|能不能|可不可以|是不是|要不要|好不好|行不行|对不对|会不会|特别|别人|区别|分别|告别|级别|"
                        r"类别|性别|别的|别处|个别|差别|离别|没多久|没有抵抗力|没抵抗力|毫无抵抗力|没得说|没话说|没毛病|"
                        r"don't\s+forget|do\s+not\s+forget|never\s+forget|别忘了|不要忘了|别忘记|不要忘记|"
                        # a request to the companion ("never suggest anything with peanuts") keeps the fact's polarity
                        r"(?:never|don't|do\s+not|no\s+need\s+to)\s+(?:ever\s+)?(?:suggest|recommend|give|send|offer|show|mention|"
                        r"bring\s+up|remind|ask)\b", I)
NEG_CONTENT = re.compile(r"\b(?:not|no|never|no\s+longer|anymore|quit|stopped|dislikes?|hates?|over|tired\s+of|gave\s+up|avoids?|"
                         r"broke\s+up|lost|without|ex|divorc\w*|separated|split|afraid|scared|terrified)\b|n't\b|不|没|别|再也|分手|腻|戒|讨厌|怕|放弃|受不了|卸载|退坑|弃坑|取关|辞职|离职|失业|被裁|绝交|闹掰|闹翻|断交|翻脸|离婚|分开|拉黑|脱粉|爬墙|粉转路|无感", I)




def validate(candidates: list[Candidate], user_text: str, assistant_text: str | None, today: date,
             min_confidence: float = 0.6, min_importance: float = 0.3) -> tuple[list[Candidate], list[Rejection]]:
    """Split candidates into those worth keeping (dates made absolute) and rejections with reasons."""
    kept: list[Candidate] = []
    rejected: list[Rejection] = []
    attack = instruction_reason(user_text)
    message_trivia = trivia_reason(user_text)
    ordered = sorted(candidates, key=lambda c: not is_rule_origin(c.origin))  # rules first: the model may only add
    for cand in ordered:
        cand = _in_users_words(cand, [o.content for o in candidates if o is not cand])
        reason = _check(cand, user_text, assistant_text, attack, message_trivia)
        if reason and reason.startswith(_UNGROUNDED) and (own := _said_by_user(cand)) is not None:
            cand, reason = own, _check(own, user_text, assistant_text, attack, message_trivia)
        if reason is None:
            cand, reason = _with_dates(cand, today)
        if reason is None:
            cand = _own_topic(cand, kept)
            reason = _thresholds(cand, min_confidence, min_importance) or _duplicate(cand, kept)
        if reason:
            rejected.append(Rejection(cand.content, reason))
        else:
            kept.append(cand)
    return kept, rejected


def _check(c: Candidate, user_text: str, assistant_text: str | None, attack: str | None,
           message_trivia: str | None) -> str | None:
    """The first content check the candidate fails, or None."""
    if c.category not in CATEGORIES:
        return f"category not allowed: {c.category}"
    if not c.content.strip():
        return "empty content"
    if attack:
        return f"message rejected: {attack}"
    own = instruction_reason(c.content) or instruction_reason(c.quote or "")
    if own:
        return own
    if message_trivia:
        return f"not worth storing: {message_trivia}"
    if c.source != "explicit" and (too_long_for_a_fact(c.content) or too_long_for_a_fact(c.quote or "")):
        return "a whole ramble, not one fact (too long for one memory)"
    if c.origin.startswith("classifier") and c.change < SHORT_CHANGE and _slight(c.content):
        return "too little to stand on its own as a memory"
    trivia = trivia_reason(c.content) or (trivia_reason(c.quote) if c.quote and not is_rule_origin(c.origin) else None)
    if trivia and not (c.category == "feedback" and trivia.startswith("a question")):
        return f"not worth storing: {trivia}"
    return (_grounding(c, user_text, assistant_text) or _negation_dropped(c, user_text) or _of_someone_else(c, user_text)
            or (None if is_rule_origin(c.origin) or c.origin.startswith("classifier") else _shape(c, user_text)))


def _of_someone_else(c: Candidate, user_text: str) -> str | None:
    """A fact filed as the user's profile whose Chinese words have no subject of their own and go on about the person
    the clause before them is about ("跟老公结婚八年了 他叫王磊 在银行上班": the bank is his job, not the user's)."""
    if c.category != "profile" or not c.quote or not has_cjk(c.quote):
        return None
    at = user_text.find(c.quote)
    before = [k for k in split_clauses(user_text) if k.end <= at] if at > 0 else []
    if before and goes_on_about_someone_else(before[-1].text, c.quote):
        return f"said of someone else, not the user (after \"{before[-1].text}\")"
    return None


# ---------------------------------------------------------------- shape of a model candidate

SHAPES = {
    "profile": re.compile(
        r"\b(?:name|called|call|years?\s+old|age|aged|\d0s|born|works?|working|job|employ\w*|career|profession|student|"
        r"stud(?:y|ies|ying)|major\w*|school|college|university|lives?|living|based|moved|from|hometown|city|town|wakes?|"
        r"sleeps?|routine|usually|shifts?|vegan|vegetarian|allerg\w*|diet|retired|teacher|nurse|engineer|developer|"
        r"doctor|manager|designer)\b|名字|叫|岁|工作|上班|职业|当|做|住|搬|老家|学生|读书|毕业|专业|每天|作息|过敏|吃素|素食|退休",
        re.I),
    "preference": re.compile(
        r"\b(?:likes?|loves?|enjoys?|hates?|dislikes?|prefers?|favou?rite|fan|into|obsessed|can't\s+stand|avoids?|quit|"
        r"stopped|no\s+longer|gave\s+up|passion\w*|hobby|hobbies|tired\s+of|learning|plays?|playing|practi[cs]\w*|collects?|"
        r"collecting|fond)\b|喜欢|讨厌|爱|迷|不吃|不喝|受不了|腻|戒|爱好|兴趣|偏好|口味|在学|学",
        re.I),
    "feedback": re.compile(STYLE_NOUN.pattern + r"|\bcall|\bcompanion|\bassistant|\bAI\b|\byou\b|\btone\b|回复|说话|回答|叫|语气|你",
                           re.I),
}
OWN_PERSON = re.compile(rf"\b(?:my|our)\s+(?:[\w-]+\s+)?(?P<w>{RELATIONS}|{PETS})\b|我(?:的|家)?(?P<z>{RELS_ZH}|{PETS_ZH})", re.I)
MOOD_WORDS = re.compile(rf"\b(?:{MOODS}|feel\w*|felt|stress\w*|anxi\w+|sad|grie\w+|lonel\w+|worried|upset)\b|{MOOD_ZH}|心情|难过|开心",
                        re.I)
ONE_OFF = re.compile(r"\b(?:today|tonight|this\s+morning|this\s+afternoon|yesterday|just\s+now)\b|今天|今晚|今早|刚才|昨天|昨晚", re.I)


def _shape(c: Candidate, user_text: str) -> str | None:
    """A model candidate must look like its category (a job, a like, a person, a dated event, a style wish)."""
    if c.category != "event" and ONE_OFF.search(c.content):
        return "one-off: only about today"
    if c.category == "event":
        return None if (EVENT_EN.search(c.content) or EVENT_ZH.search(c.content)) else "not an event the user will care about"
    if c.category == "relationship":
        own = {(m["w"] or m["z"] or "").lower() for m in OWN_PERSON.finditer(user_text)}
        if MOOD_WORDS.search(c.content) or any(w and w in c.content.lower() for w in own):
            return None
        return "not about the user's people, pets or feelings"
    shape = SHAPES.get(c.category)
    return None if shape is None or shape.search(c.content) else f"does not read as a {c.category} fact"


# ---------------------------------------------------------------- grounding


def _stem(word: str) -> str:
    for suffix in ("ing", "ers", "er", "ed", "es", "s", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _slight(content: str) -> bool:
    """A clause note of under three English words and four Chinese characters ("Marcus", "Rent", "600 quid",
    "们分了") says too little on its own: what it is about was in a clause a rule spoke for, or nowhere.
    On the inner development split, dropping them by content units: P .634→.644, R .675→.673; counting
    words instead keeps "not a dog person" (whose units are just "dog"): P .646→.641, R .675 either way."""
    han = len(re.findall(r"[\u4e00-\u9fff]", content))
    return han < 4 and len(re.findall(r"[A-Za-z0-9']+", content)) < 3


def content_units(text: str) -> list[str]:
    """The meaningful pieces of a content: English word stems and Chinese characters, template words removed."""
    han = TEMPLATE_ZH.sub("", "".join(re.findall(r"[\u4e00-\u9fff]+", text)))
    words = [w for w in re.findall(r"[a-z0-9']+", text.lower().replace("’", "'")) if len(w) > 1 or w.isdigit()]
    words = [w.strip("'").removesuffix("'s") for w in words]
    words = [w for w in words if w and w not in STOP_EN and w not in TEMPLATE_EN]
    return [_stem(w) for w in words if w] + list(han)


def _found(unit: str, haystack: str) -> bool:
    return unit in haystack


_UNGROUNDED = "not grounded in the user's words: "


def _grounding(c: Candidate, user_text: str, assistant_text: str | None) -> str | None:
    """Most of the content's meaningful words must be the user's own; invented details are rejected."""
    units = content_units(c.content)
    if not units:
        return "too vague to store"
    said = user_text.lower().replace("’", "'")
    missing = [u for u in units if not _found(u, said)]
    if len(units) - len(missing) >= GROUNDED_SHARE * len(units) or (len(units) >= 3 and len(missing) == 1):
        return None
    heard = (assistant_text or "").lower()
    if heard and sum(_found(u, heard) for u in missing) >= max(1, len(missing) // 2):
        return "comes from the assistant's words, not the user's"
    return _UNGROUNDED + ", ".join(missing[:4])


# ---------------------------------------------------------------- polarity


def _clauses(text: str) -> list[str]:
    return [p for p in re.split(r"[,.;!?，。；！？\n]|\s+(?:but|and|so|though)\s+|但是|可是", text) if p.strip()]


def _said_by_user(c: Candidate) -> Candidate | None:
    """A rule's rewrite whose words are not the user's ("原神退坑了" -> "对原神已经退坑了，不再追了") said in the user's
    own words instead, with the rule's category and topic; None where the rule's words must stand (an event's carry
    its date, what the user asked to be remembered is kept as asked)."""
    if not is_rule_origin(c.origin) or c.source == "explicit" or c.category == "event" or not c.quote:
        return None
    own = zh_clean(c.quote) if has_cjk(c.quote) else render(c.quote)
    return replace(c, content=own) if own and own != c.content else None


def _in_users_words(c: Candidate, others: list[str]) -> Candidate:
    """A rule's rewrite that leaves out a noun the user said in the clause it quotes ("跟婆婆彻底闹掰了" -> "已经和彻底闹掰了":
    婆婆; "我是个程序员 做安卓开发的" -> "职业是程序员") or, in English, a name ("moved from Leeds to Bristol" -> "Moved
    from Leeds") says it in the user's own words instead, with the rule's category and topic kept. A Chinese noun is
    lost when none of its characters is left. A word another candidate of the message says is that one's fact: the
    rewrite stands ("my name is Alice and I live in Zqxburg": the place stays out of the name). An event keeps the
    rule's words, which carry its absolute date."""
    if not is_rule_origin(c.origin) or c.source == "explicit" or c.category == "event" or not c.quote:
        return c
    if not has_cjk(c.quote):
        low, theirs = c.content.lower(), " ".join(others).lower()
        words = [w.lower() for w in _NAME_EN.findall(c.quote[1:]) if w not in _NOT_NAMES and w.lower() not in low]
        own = render(c.quote)
    else:
        words = [w for w, tag in rjieba.tag(c.quote) if tag.startswith("n") and len(w) >= 2 and has_cjk(w[0])
                 and not set(w) <= _INTERJECTIONS and w[0] not in "我你他她" and not any(ch in c.content for ch in w)]
        theirs = " ".join(others)
        own = zh_clean(c.quote)
    # the user's words would carry another candidate's fact: forgetting that one must leave no trace in this one
    if not words or not own or any(w in theirs for w in words):
        return c
    return replace(c, content=own)


_NAME_EN = re.compile(r"(?<![.!?]\s)\b[A-Z][a-z]+\b")
_NOT_NAMES = {"Im", "Ive", "Id", "Ill", "OK", "Ok", "Lol", "Omg", "Mom", "Dad", "Mum"}


_INTERJECTIONS = set("啊哈呀哦嗯哇呜嘿嘻呵噢")  # "啊啊啊" is tagged a name


def _negation_dropped(c: Candidate, user_text: str) -> str | None:
    """Reject a candidate whose quote negates what its content affirms ("I don't like X" -> "Likes X")."""
    content_negated = bool(NEG_CONTENT.search(c.content))
    # A clause memory is the user's own words, so a negative reading ("i'm deaf", "最近失恋了") is in them;
    # a rule's or the model's rewrite ("Likes X") is what can lose the "not".
    if c.polarity < 0 and not content_negated and not c.origin.startswith("classifier"):
        return "polarity lost: a negative statement stored as positive"
    if content_negated:
        return None
    source = c.quote if c.quote and c.quote in user_text else user_text
    units = set(content_units(c.content))
    for clause in _clauses(source):
        plain = NEG_IDIOMS.sub(" ", without_lead(clause.strip()))  # "I never told you I moved…" negates nothing said
        if not NEG_QUOTE.search(plain):
            continue
        if any(_found(u, clause.lower()) for u in units):
            return f"drops a negation in the user's words: '{clause.strip()}'"
    return None


# ---------------------------------------------------------------- dates, thresholds, duplicates


def _own_topic(c: Candidate, kept: list[Candidate]) -> Candidate:
    """A clause memory whose slot guess a rule candidate on other words already fills is keyed by its own
    topic words instead, so the two stand side by side and neither replaces the other."""
    if any(k.topic == c.topic and is_rule_origin(k.origin) and _apart(c, k) for k in kept if c.topic):
        return replace(c, topic=topic_key(c.category, c.quote or c.content))
    return c


def _apart(c: Candidate, k: Candidate) -> bool:
    """Does a clause memory quote other words of the message than the rule candidate on its topic? Then it
    says something else ("born in Durban" beside the rule's "moved to Aus"), and the slot guess gave way."""
    return (c.origin.startswith("classifier") and bool(c.quote) and bool(k.quote)
            and c.quote not in k.quote and k.quote not in c.quote)


HABIT_DAY = re.compile(r"\b(?P<d>(?:mon|tues|wednes|thurs|fri|satur|sun)day)\s+(?P<n>(?:[a-z-]+\s+){0,2}?(?:class(?:es)?|lessons?|"
                       r"practice|club|group|session|shift|run|dinner|brunch|lunch|league|game|meetup|service|routine|ritual|"
                       r"tradition|date\s+night|market|hike|swim|workout|training|rehearsal|choir|mass))\b", I)


PAST_DAY = re.compile(r"\b(?P<v>passed\s+away|died|broke\s+up|split\s+up|split|left|was|were|had|got|did|went|\w+ed)\s+"
                      r"(?:on\s+)?(?P<d>(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b", I)


def _with_dates(c: Candidate, today: date) -> tuple[Candidate, str | None]:
    """Relative dates in an event's content made absolute (an event must end up with a date); in any other note
    a past day leaves the words for valid_from (when the state began) and a future one is made absolute."""
    if c.category != "event":  # "my thursday pottery class" is a habit; "passed away on Sunday" was last Sunday
        content = HABIT_DAY.sub(lambda m: f"{m['n']} (on {m['d'].capitalize()}s)", c.content)
        content, began = undated(PAST_DAY.sub(lambda m: f"{m['v']} last {m['d']}", content), today)
        return replace(c, content=content, valid_from=began or c.valid_from), None
    content, when = absolutize(c.content, today, with_holidays=True)
    if when is None and c.quote:
        _, when = absolutize(c.quote, today, with_holidays=True)
        if when is not None:
            content = f"{content} ({when.isoformat()})"
    if when is None and c.event_date is None:
        return c, "event without a date"
    return replace(c, content=content, event_date=when or c.event_date), None


def _thresholds(c: Candidate, min_confidence: float, min_importance: float) -> str | None:
    if c.confidence < min_confidence:
        return f"confidence {c.confidence:.2f} below {min_confidence:.2f}"
    if c.importance < min_importance:
        return f"importance {c.importance:.2f} below {min_importance:.2f}"
    return None


def _duplicate(c: Candidate, kept: list[Candidate]) -> str | None:
    """A candidate that repeats one already kept (same topic from the rules, or mostly the same words)."""
    units = set(content_units(c.content))
    for k in kept:
        if c.content.casefold() == k.content.casefold():
            return "duplicate of another candidate"
        if not is_rule_origin(c.origin) and k.category == c.category:
            if c.topic and c.topic == k.topic and not _apart(c, k):
                return f"same topic as a rule candidate ({k.topic})"
            other = set(content_units(k.content))
            if units and len(units & other) >= DUPLICATE_SHARE * min(len(units), len(other) or 1):
                return f"repeats a rule candidate: '{k.content}'"
    return None
