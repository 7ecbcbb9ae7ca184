"""Shared helpers for the bilingual extraction rules: spans, clauses, candidates, normalization."""
from __future__ import annotations

import re
from dataclasses import dataclass

from memory.records import Candidate

# (confidence, importance) per kind of fact; moods matter less later than who someone is.
DEFAULTS: dict[str, tuple[float, float]] = {
    "profile": (0.85, 0.8),
    "preference": (0.8, 0.6),
    "relationship": (0.85, 0.7),
    "mood": (0.75, 0.5),
    "event": (0.85, 0.8),
    "feedback": (0.9, 0.9),
}

SENTENCE_END = re.compile(r"(?<!\d)[.](?!\d)|[!?;\n。！？；…]+|\s[-–—]{1,2}\s|[—]")
# A space between two Chinese characters ends a clause too, as in memory/learn/clauses.py: people who type
# without punctuation separate thoughts with spaces ("跟老公结婚五年了 他叫周明 住在西安 最近在备孕"), and a rule's
# quote and note hold the piece it matched, not the whole run (issue 36, one fact per note).
CLAUSE_END = re.compile(r"[,，、:：()（）]|\s[-–—]{1,2}\s|—|(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")


@dataclass(frozen=True)
class Span:
    """A piece of the user's text with its offsets, so quotes stay exact substrings."""

    text: str
    start: int
    end: int


def _split(text: str, pattern: re.Pattern[str], offset: int = 0) -> list[Span]:
    spans, pos = [], 0
    for m in pattern.finditer(text):
        spans.append(Span(text[pos:m.start()], offset + pos, offset + m.start()))
        pos = m.end()
    spans.append(Span(text[pos:], offset + pos, offset + len(text)))
    out = []
    for s in spans:
        lead = len(s.text) - len(s.text.lstrip())
        body = s.text.strip()
        if body:
            out.append(Span(body, s.start + lead, s.start + lead + len(body)))
    return out


def sentences(text: str) -> list[Span]:
    """Split a message into sentences (English and Chinese end marks, dashes, new lines)."""
    return _split(text, SENTENCE_END)


def clauses(sentence: Span) -> list[Span]:
    """Split one sentence into comma-level clauses, keeping absolute offsets."""
    return _split(sentence.text, CLAUSE_END, sentence.start)


def split_span(span: Span, pattern: re.Pattern[str]) -> list[Span]:
    """A span cut where a pattern matches, the pieces keeping absolute offsets."""
    return _split(span.text, pattern, span.start)


def quote_for(text: str, start: int, end: int) -> str:
    """The smallest run of whole clauses of `text` that covers [start, end)."""
    qs, qe = start, end
    for sent in sentences(text):
        for cl in clauses(sent):
            if cl.end > start and cl.start < end:
                qs, qe = min(qs, cl.start), max(qe, cl.end)
    return text[qs:qe].strip()


def clause_at(text: str, pos: int) -> Span:
    """The clause of `text` that contains offset `pos`."""
    for sent in sentences(text):
        for cl in clauses(sent):
            if cl.start <= pos < cl.end:
                return cl
    return Span(text, 0, len(text))


def candidate(kind: str, content: str, quote: str, topic: str, polarity: int = 1,
              category: str | None = None) -> Candidate:
    """Build a rule Candidate with the default confidence/importance of its kind."""
    conf, imp = DEFAULTS[kind]
    return Candidate(category=category or ("relationship" if kind == "mood" else kind),
                     content=tidy(content), quote=quote.strip(), source="stated",
                     confidence=conf, importance=imp, origin="rule", topic=topic,
                     polarity=polarity)


def tidy(content: str) -> str:
    """Collapse spaces, drop dangling punctuation and capitalise the first letter."""
    text = re.sub(r"\s+", " ", content).strip(" ,;:-–—")
    text = re.sub(r"\s+([,.;:!?)])", r"\1", text)
    text = re.sub(r"[!~]+$|[，,、;；]+$", "", text).strip()
    return text[:1].upper() + text[1:] if text[:1].isascii() else text


FILLER_EN = re.compile(
    r"\b(?:honestly|literally|actually|really|genuinely|totally|lowkey|basically|just|"
    r"tbh|tbf|lol|lmao|haha+|omg|btw|kinda|sorta|absolutely|like(?=\s+\d)|ngl|bro|bruh|ugh+|smh|fr(?=\W*$))\b\s*", re.I)
PRONOUNS_EN = [(r"\bmy\b", "their"), (r"\bMy\b", "Their"), (r"\bme\b", "them"),
               (r"\bmine\b", "theirs"), (r"\bmyself\b", "themselves"), (r"\bI'm\b", "they're"),
               (r"\bI've\b", "they've"), (r"\bI'd\b", "they'd"), (r"\bI'll\b", "they'll"),
               (r"\bI am\b", "they are"), (r"\bI was\b", "they were"), (r"\bI wasn't\b", "they weren't"),
               (r"\bI\b", "they"), (r"\bour\b", "their"), (r"\bwe\b", "they"), (r"\bus\b", "them")]
# A quotation: a quote mark that does not sit inside a word (so the apostrophes of "I'm" and "Jehovah's"
# never open one) up to the next closing mark that does not either.
_QUOTED = re.compile(r"((?<![A-Za-z])['\"“‘][^'\"”’]*['\"”’](?![A-Za-z]))")


def third_person(text: str) -> str:
    """Rewrite first-person pronouns inside a phrase to third person ("my" -> "their"); quoted words stay."""
    parts = _QUOTED.split(text)
    for i in range(0, len(parts), 2):
        for pat, rep in PRONOUNS_EN:
            parts[i] = re.sub(pat, rep, parts[i])
    return "".join(parts)


def drop_fillers(text: str) -> str:
    """Remove conversational fillers ("honestly", "lol", "tbh") from an English phrase."""
    return re.sub(r"\s+", " ", FILLER_EN.sub("", text)).strip()


def uncaps(text: str) -> str:
    """Turn SHOUTED words into normal case (keeps short acronyms like "NYC")."""
    return re.sub(r"\b[A-Z]{5,}\b", lambda m: m.group(0).capitalize(), text)


ARTICLES = re.compile(r"^(?:the|a|an|my|our|some|this|that|these|those|all)\s+", re.I)
TRAILERS = re.compile(
    r"\s+(?:lately|recently|so much|these days|right now|anymore|any more|at all|tbh|lol|"
    r"too|as well|though|now|again|ever|either)$", re.I)
KINDS = re.compile(r"^(?:tv\s+show|show|movie|film|band|game|video\s+game|book|series|song|podcast|album|singer|artist|"
                   r"anime|team|musical|play|app|brand|channel|youtuber|author|restaurant)\s+(?=\S)", re.I)
GERUNDS = re.compile(r"^(?:drinking|eating|playing|doing|watching|listening to|going to|"
                     r"reading|having|using|smoking|learning|studying|practi[cs]ing)\s+", re.I)
ZH_VERB_HEAD = re.compile(r"^(?:打|练|玩|看|吃|喝|听|追|刷|学|做|去|跑)(?=[\u4e00-\u9fff]{2}|(?<!跑)(?<!学)[\u4e00-\u9fff]$)")


ACTIVITIES = [
    (r"hit\s+the\s+gym|go\s+to\s+the\s+gym|gym|work\s+out|workouts?|lift|training|train", "gym"),
    (r"go\s+(?:for\s+a\s+)?run(?:ning)?|run|runs|running|jog|jogging", "run"),
    (r"swim|swimming|go\s+swimming", "swim"), (r"do\s+yoga|yoga", "yoga"),
    (r"go\s+climbing|climb|climbing|boulder|bouldering", "climb"),
    (r"walk\s+(?:my|the)\s+dog|dog\s+walks?", "dog walk"), (r"meditate|meditation", "meditation"),
    (r"study|studying|revision", "study"),
]


def activity_key(act: str) -> str:
    """One routine topic for the many ways of naming an activity ("hit the gym", "workout" -> "gym")."""
    act = re.sub(r"\s+", " ", act.strip().lower())
    for pattern, key in ACTIVITIES:
        if re.fullmatch(pattern, act, re.I):
            return key
    return norm_object(act)


def norm_object(obj: str) -> str:
    """Normalize a liked/disliked thing into a reconciliation key ("the Taylor Swift" -> "taylor swift")."""
    key = re.sub(r"[《》「」『』“”\"'‘’]", "", obj).strip().lower()
    key = re.sub(r"'s$", "", key)
    for _ in range(3):
        key = ARTICLES.sub("", key)
        key = TRAILERS.sub("", key)
        key = GERUNDS.sub("", key)
        key = KINDS.sub("", key)
    key = ZH_VERB_HEAD.sub("", key)
    return re.sub(r"\s+", " ", key).strip(" .,!?。，！？")


EMOJI = re.compile("[\U0001F000-\U0001FFFF\u2600-\u27BF\uFE0F\u200d]+")
ZH_LEAD = re.compile(r"^(?:哦+|噢+|喔+|哎+|欸|忘了(?:跟你)?说|(?:我)?(?:跟你说|告诉你)(?:一下|一?[个件](?:好消息|坏消息|秘密|八卦|事儿?)?)?|你知道吗|对了|不过|而且|但是|然后|其实|说真的|说实话|话说|哈哈+|嗯+|啊+|唉|诶|"
                     r"所以|另外|还有|总之|反正|好消息|天哪|我跟你讲|说起来|顺便说一下|顺便|话说回来|讲真|请?记住|记得|别忘了|不要忘了|帮我记一下|帮我记住|记一下|"
                     # a correction or a confession announced before the fact ("纠正下上次说的 老大是高一了")
                     r"(?:纠正|更正)一?下(?:我?上次说的)?|说出来(?:你)?别笑)[，,！!：:]?")
# Laughter typed for tone anywhere in a clause ("俩一个线上一个线下哈哈 今年二十三"); quoted, it is what is talked about.
ZH_LAUGH = re.compile(r"(?<![“「\"'‘])(?:哈{2,}|嘿嘿+|呵呵+|嘻嘻+|[hH]{3,})(?![”」\"'’])[，,!！~～]*\s*")
ZH_KIN = [("我妈", "妈妈"), ("我爸", "爸爸"), ("我姐", "姐姐"), ("我哥", "哥哥"), ("我弟", "弟弟"), ("我妹", "妹妹"),
          ("我家", "家里"), ("给我", ""), ("我们", ""), ("我的", ""), ("我", ""), ("你们", ""), ("你", "")]


# 我 after a verb that takes the user as its object, or closing the clause after one, is not the subject
# a note about the user leaves out: kept (marked, so the subject rule below does not drop it).
ZH_OBJECT_ME = re.compile(r"(?<=[把被让叫陪催逼烦骂劝哄自跟给帮教带请替向对])我|(?<=喜欢|讨厌|告诉)我(?=[^们的]|$)")  # 自我介绍, 自我怀疑: one word
_KEEP = "\uE000"


def zh_clean(text: str) -> str:
    """Make a Chinese clause read as a note about the user: no subject 我, no 你, no chatty lead-in or trailing particles."""
    text = EMOJI.sub("", text).strip()
    for _ in range(2):
        text = ZH_LEAD.sub("", text).strip()
    for old, new in ZH_KIN:
        text = text.replace(old + old[-1], new) if old in ("我妈", "我爸") else text
        if old == "我":  # the user as the object stays: "妈妈特别喜欢我", "体检报告把我吓到了"
            text = ZH_OBJECT_ME.sub(_KEEP, text)
        text = text.replace(old, new)
    text = text.replace(_KEEP, "我")
    text = re.sub(r"\s{2,}", " ", ZH_LAUGH.sub(" ", text)).strip()
    text = re.sub(r"[啦呀哦呢吧啊嘛哈~～!！。.…、，,]+$", "", text)
    return re.sub(r"(妈|爸|姐|妹|哥|弟)\1\1", r"\1\1", text).strip()  # "我妹妹" → "妹妹", not "妹妹妹"
