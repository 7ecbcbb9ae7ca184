"""Dated events in English and Chinese: an event word and a future date said together.

The content keeps the date words as the user said them ("Interview at Spotify next Friday");
the validator turns them absolute with `memory.dates.absolutize` and sets `event_date`.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

from memory.dates import DateMention, find_dates
from memory.learn.rules import zh as rules_zh
from memory.learn.rules.common import (Span, candidate, clauses, drop_fillers, norm_object, sentences, split_span,
                                       third_person, zh_clean)
from memory.learn.rules.registry import Rule
from memory.records import Candidate

I = re.IGNORECASE
EVENT_EN = re.compile(
    r"\b(?:performance\s+review|annual\s+review|review|evaluation|appraisal|close\s+on\s+(?:our|my|the|a)\s+(?:first\s+|new\s+)?"
    r"(?:house|home|apartment|condo|place)|closing|move-in|moving\s+out|lease\s+signing|"
    r"baby\s+is\s+due|baby's\s+due|final(?=\s+(?:is|exam|on|tomorrow|next|this)\b|'s)|"
    r"exams?|tests?|finals|midterms?|quiz|interview|defen[cs]e|recital|concert|gig|flight|trip|vacation|"
    r"wedding|birthday|anniversary|appointment|surgery|operation|procedure|check-?up|physical|scan|biopsy|"
    r"deadline|presentation|performance|audition|tryout|game|match|race|marathon|half[- ]marathon|graduation|"
    r"ceremony|party|due\s+date|moving\s+day|hearing|court\s+date|conference|orientation|first\s+day|start\s+date|"
    r"launch|exhibition|tournament|competition|meeting|reunion|funeral|baby\s+shower|shower|bar\s+exam|MCAT|LSAT|"
    r"GRE|SAT|IELTS|TOEFL|dentist|doctor's|date\s+night|concert|show|play|opening|premiere|retreat|camp|"
    r"colonoscopy|endoscopy|mammogram|MRI|CT\s+scan|ultrasound|x-?ray|blood\s+(?:test|work)|bloodwork|vaccin\w+|physio|"
    r"appt|orthodontist|braces|therapy\s+session|visa|citizenship|naturali[sz]ation|oath\s+ceremony|"
    r"wisdom\s+teeth|root\s+canal|graduating|getting\s+married|moving\s+(?:apartments?|house|out|in)|move\s+(?:out|in)|"
    r"lands?\s+in|landing\s+in|arriv(?:e|es|ing)\s+(?:in|at|on)|coming\s+to\s+visit|come\s+to\s+visit|visiting\s+me)\b", I)
PAST_EN = re.compile(r"\b(?:had|went\s+to|was\s+at|were\s+at|attended|did|finished|got\s+back\s+from|survived)\s+"
                     r"(?:(?:a|an|my|the|his|her|their|our|its)\s+)?(?:[\w'-]+\s+){0,2}?$", I)
TRAVEL_EN = re.compile(r"\b(?P<verb>fly(?:ing)?\s+out|fly(?:ing)?|leav(?:e|ing)|depart(?:ing)?|head(?:ing)?\s+(?:out|off)"
                       r"|take\s+off|set(?:ting)?\s+off)\b", I)
DEST_EN = re.compile(
    r"\b(?P<how>flights?\s+to|trip\s+to|tickets?\s+to|booked|going\s+to|visiting|fly(?:ing)?\s+to|head(?:ing)?\s+to|"
    r"off\s+to)\s+(?:(?i:my|a|the)\s+)?(?P<dest>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)"
    r"(?P<why>\s+(?i:for\s+(?:our|my|his|her|their|a)\s+[\w']+(?:\s+[\w']+)?|to\s+(?:see|visit)\s+(?:my\s+)?[\w']+))?")
TRIP_HOME = re.compile(r"\b(?:flying|going|heading|driving|travel+ing|taking\s+the\s+train)\s+(?:back\s+)?home\b"
                       r"(?P<why>\s+(?:to\s+(?:see|visit)|for)\s+(?:my\s+|our\s+)?[\w']+(?:\s+[\w']+)?)?", re.IGNORECASE)
TRIP_EN = re.compile(
    r"\b(?P<how2>driving|going|heading|road[- ]tripping|flying|traveling|travelling|taking\s+the\s+train)\s+(?:up\s+|down\s+|out\s+|"
    r"over\s+|back\s+)?to\s+(?P<art>the|my|our|his|her)\s+(?P<dest2>(?!(?:gym|office|store|shop|mall|class|church|bathroom|kitchen|"
    r"supermarket|bank|library|doctor|dentist)\b)[a-z][\w'-]*(?:\s+(?!(?:on|in|at|for|the|this|next|tomorrow|tonight|day)\b)"
    r"[a-z][\w'-]*)?)", re.IGNORECASE)
MOD_STOP = frozenset("is was are the a an my our his her their got have has had booked finally i we and of for to at "
                     "in on it's its this next with so just big first i'm im get getting scheduled schedule set up "
                     "i've lol omg ok okay also then got my, is, it, that, there's there".split())
COMPLEMENT = re.compile(r"\s+(?:at|with|for|to)\s+(?:(?:the|my|a|an)\s+)?(?:[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*)*|"
                        r"[\w'’-]+(?:'s\s+[\w'’-]+)?(?:\s+(?:job|office|school|company|clinic|hospital|place|studio|gym))?)|(?<=\bin)\s+[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*)*")
AFTER_DATE = re.compile(r"\s+(?:at|in)\s+(?:(?:my|the|a|an|our)\s+)?[\w'’-]+(?:\s+[\w'’-]+){0,2}?(?=\s*(?:[,.!?;]|$|\s+and\b|"
                        r"\s+(?:so|but|lol)\b|[^\w\s']))")
ANAPHORA = re.compile(r"^(?:it's|it\s+is|its|that's|which\s+is|it'll\s+be|it\s+will\s+be)\b", I)
EVENT_ZH = re.compile(
    r"考试|期末考|期中考|考研|初试|复试|笔试|面试|答辩|复查|体检|检查|手术|看病|看医生|去医院|生日|婚礼|结婚|订婚|"
    r"毕业典礼|毕业|典礼|出发|航班|飞机|飞往|旅行|旅游|出差|演唱会|音乐会|比赛|演出|开学|入职|报到|搬家|聚会|约会|"
    r"雅思|托福|高考|中考|会议|汇报|截止|发布会|展览|预产期|纪念日|年会|路演|试讲|考级|比赛|马拉松|婚宴|相亲|回国|回家|"
    r"拔牙|智齿|补牙|看牙|牙医|洗牙|做手术|开刀|产检|打疫苗|签证|演讲|考驾照|科目[一二三四]|路考|答辩|开庭|搬新家|入学|报名|"
    r"(?<![参思备])考(?![虑察验古究])|见[^，。！？]{0,5}(?:爸妈|父母|家长)|见导师|见客户|见家长|见面|开会|约了|预约|复诊|婚检|考核|述职|汇报|交论文|截稿|上岗|开题|中期|评审|"
    r"团建|领证|登记结婚|聚餐|出游|度假|蜜月|看兽医|兽医|露营|看展|爬山|放(?:暑|寒)?假|去[\u4e00-\u9fff]{1,6}?(?:玩|旅行|旅游|度假)|过来看我|来看我|回老家")

EVENT_MORE = re.compile(r"自驾|旅拍|毕业旅行|出去玩|出国玩|去[\u4e00-\u9fff]{2,6}?(?:自驾|玩|转转|逛逛|打卡)|要生了|生宝宝|生孩子|待产|"
                        r"(?<![起])飞(?:去|到|往|回)?[\u4e00-\u9fff]{2}")
COUNTDOWN = re.compile(r"(?:还有|还剩|只剩|倒计时)(?P<n>\d{1,3}|[一二三四五六七八九十两俩]{1,3}|半)(?P<unit>天|个?星期|个?礼拜|周|个月)(?:不到|左右)?")


def has_countdown(text: str) -> bool:
    """"还有十天就要…": a date `find_dates` does not read until `dated_words` rewrites it."""
    return any(m["n"] != "半" or m["unit"] == "个月" for m in COUNTDOWN.finditer(text))


def dated_words(text: str, today: date) -> str:
    """Rewrite relative dates the validator would not render as a bare date: a countdown ("还有十天" -> "十天后")
    and a weekend ("这周末" -> "这周六", the day `memory.dates` gives a weekend), so the stored memory keeps only
    the ISO date and not "<date>周末"."""
    text = COUNTDOWN.sub(lambda m: f"{m['n'].replace('俩', '两')}{m['unit']}后" if m["n"] != "半" or m["unit"] == "个月"
                         else m.group(0), text)
    for d in reversed(find_dates(text, today)):
        if "周末" in d.text:
            weeks = (d.date - (today - timedelta(days=today.weekday()))).days // 7
            if 0 <= weeks <= 2:
                rel = "" if d.text == "周末" else ("这", "下", "下下")[weeks]  # a bare 周末 is this week's: a bare 周六
                text = text[:d.start] + rel + "周" + "一二三四五六日"[d.date.weekday()] + text[d.end:]
    return text


YEARLY = re.compile(r"\b(?:every|each|always|usually|most)\b|每年|每逢|一年到头|年年|一般|通常|总是|习惯", I)
HABIT_ZH = re.compile(r"一般|通常|经常|基本|总是|习惯|喜欢|常常|每个?(?:周|星期)")


def _future(text: str, today: date) -> list[DateMention]:
    """Dates still ahead: what happens today ("今天加班到九点", "gym tonight") is the day's chit-chat. A holiday is one
    only when it is not a yearly habit ("every christmas we…", "一年到头就过年能歇几天")."""
    dates = [d for d in find_dates(text, today, with_holidays=True) if d.date > today]
    if dates and YEARLY.search(text) and not find_dates(text, today):
        return []
    return dates


def _shout_fix(text: str) -> str:
    """A SHOUTED sentence reads better as normal case ("I GOT AN INTERVIEW AT SPOTIFY")."""
    words = re.findall(r"[A-Za-z]{2,}", text)
    caps = [w for w in words if w.isupper()]
    if len(caps) < 3 or len(caps) < len(words) * 0.6:
        return text
    return re.sub(r"[A-Za-z]+", lambda m: m.group(0).lower() if len(m.group(0)) <= 3 or m.group(0).lower()
                  in MOD_STOP else m.group(0).capitalize(), text)


def _noun_phrase(sent: str, kw: re.Match, dates: list[DateMention], offset: int) -> str:
    """The event with its modifiers and complement: "daughter Ava's piano recital", "interview at Spotify"."""
    mods: list[str] = []
    for word in reversed(sent[:kw.start()].split()[-4:]):
        if word.lower() in MOD_STOP or not re.fullmatch(r"[\w'’-]+", word):
            break
        mods.insert(0, word)
    if not mods and kw.group(0).lower().endswith("ing"):  # "my brother is graduating"
        who = re.search(r"\b(?:my|our)\s+(?P<w>[\w'-]+)\s+(?:is|are|'s)\s+$", sent[:kw.start()], I)
        mods = [who["w"]] if who else mods
    phrase = " ".join(mods + [kw.group(0).lower()])
    comp = COMPLEMENT.match(sent, kw.end())
    if comp and not any(d.start < offset + comp.end() and d.end > offset + comp.start() for d in dates):
        phrase += comp.group(0)
    return third_person(phrase)


def _travel(text: str, sent: Span, prev: Span | None) -> tuple[str, Span] | None:
    """A trip: "booked Lisbon for our anniversary, we fly out August 14" -> ("Trip to Lisbon ...", span)."""
    for span in filter(None, (sent, prev)):
        home = TRIP_HOME.search(span.text) if span is sent else None
        if home:
            return "Trip home" + third_person(home["why"] or ""), span
        local = TRIP_EN.search(span.text) if span is sent else None
        if local:
            return f"Trip to {third_person(local['art'].lower())} {local['dest2']}", span
        found = DEST_EN.search(span.text) if span else None
        if found and (TRAVEL_EN.search(sent.text) or found["how"].lower().startswith(("flight", "trip"))):
            kind = "Flight" if found["how"].lower().startswith("flight") else "Trip"
            why = third_person(found["why"] or "")
            return f"{kind} to {found['dest']}{why}", span
    return None


def _en_sentence_event(text: str, sents: list[Span], i: int, today: date) -> Candidate | None:
    sent, prev = sents[i], sents[i - 1] if i else None
    dates = _future(sent.text, today)
    if not dates:
        return None
    when = dates[0]
    date_text = sent.text[when.start:when.end]
    trip = _travel(text, sent, prev)
    if trip:
        verb = TRAVEL_EN.search(sent.text)
        lead = re.sub(r"^(fly|leave|depart|head|set|take)\w*", lambda m: {"fly": "flying", "leave": "leaving",
                      "depart": "departing", "head": "heading", "set": "setting", "take": "taking"}[m.group(1).lower()],
                      verb["verb"].lower()) if verb else ""
        if date_text.lower() in trip[0].lower():  # "Trip home for christmas": the date is already in it
            content = trip[0]
        else:
            content = f"{trip[0]}, {lead} {date_text}" if lead else f"{trip[0]} {date_text}"
        src = trip[1]
    else:
        src = sent
        kws = list(EVENT_EN.finditer(_shout_fix(sent.text)))
        if not kws and prev and ANAPHORA.match(sent.text):
            src, kws = prev, list(EVENT_EN.finditer(_shout_fix(prev.text)))
        if not kws:
            return None
        kw = min(kws, key=lambda k: abs(k.start() - when.start)) if src is sent else kws[-1]
        if PAST_EN.search(src.text[:kw.start()]):
            return None  # "had surgery on tuesday" is over, whatever date a bare weekday would give
        content = _noun_phrase(_shout_fix(src.text), kw, dates if src is sent else [], 0) + " " + date_text
        tail = AFTER_DATE.match(sent.text, when.end)
        if tail and src is sent:
            content += third_person(tail.group(0))
        if src is sent:
            content = _in_own_words(sent, kw.start(), when.start, when.end) or content
    start, end = min(src.start, sent.start), max(src.end, sent.end)
    topic = "event:" + norm_object(re.split(r",|\s+" + re.escape(date_text), content)[0])
    return candidate("event", content, text[start:end], topic)


def _in_own_words(sent: Span, *at: int) -> str | None:
    """The clauses of a sentence that hold the event word and its date, as a note in the third person
    ("Final interview round with Shopify next tuesday"): the noun phrase alone loses whom it is with.
    None when that stretch is too long to be one fact."""
    pieces = [p for cl in clauses(sent) for p in split_span(cl, _JOINED)]
    parts = [p for p in pieces if any(p.start - sent.start <= a < p.end - sent.start for a in at)]
    if not parts:
        return None
    words = _shout_fix(sent.text[parts[0].start - sent.start:parts[-1].end - sent.start])
    words = re.sub(r"^(?:and|so|also|btw|ok|okay|omg|lol|ugh|well)\b[\s,]*", "", drop_fillers(words), flags=I).strip()
    return third_person(words) if 0 < len(words) <= EVENT_WORDS_CHARS else None


EVENT_WORDS_CHARS = 120
_JOINED = re.compile(r"\s+(?:and|but|so|plus)\s+", I)  # "my mom has a cold and the 14th is her birthday"


def english_events(text: str, today: date) -> list[Candidate]:
    """Events said in English, one per sentence that holds a future date."""
    sents = sentences(text)
    found = (_en_sentence_event(text, sents, i, today) for i in range(len(sents)))
    return [c for c in found if c]


def _zh_topic(clause: str, today: date) -> str:
    """The event without its date and linking words: "教资面试定在下个月5号" -> "event:教资面试"."""
    for d in sorted(find_dates(clause, today), key=lambda d: -d.start):
        clause = clause[:d.start] + clause[d.end:]
    body = re.sub(r"定在|定于|安排在|是在|就要|要去|就|要|是|在|了|，", "", zh_clean(clause))
    return "event:" + norm_object(body[:12])


def chinese_events(text: str, today: date) -> list[Candidate]:
    """Events said in Chinese: a clause with a future date and an event word (or its neighbour has one)."""
    out: list[Candidate] = []
    for sent in sentences(text):
        parts = clauses(sent)
        for j, cl in enumerate(parts):
            if not (_future(cl.text, today) or has_countdown(cl.text)):
                continue
            if re.search(r"周末|周[一二三四五六日天]|星期", cl.text) and HABIT_ZH.search(cl.text):
                continue  # "周末喜欢去爬山" is a habit, not a plan for this weekend
            kw = (EVENT_ZH.search(cl.text) or EVENT_MORE.search(cl.text)
                  or EVENT_EN.search(" ".join(re.findall(r"[A-Za-z][\w'-]*", cl.text))))  # "后天有个presentation"
            span = cl
            if not kw and j + 1 < len(parts) and EVENT_ZH.search(parts[j + 1].text):
                span = Span(text[cl.start:parts[j + 1].end], cl.start, parts[j + 1].end)
                kw = EVENT_ZH.search(span.text)
            if not kw:
                continue
            said = dated_words(span.text, today)
            out.append(candidate("event", rules_zh.zh_note(said), span.text, _zh_topic(said, today)))
    return out


SCAN_RULES: list[Rule] = [
    Rule("zh.event.dated", "zh", "event", 13020, None, scan=chinese_events),
    Rule("en.event.dated", "en", "event", 14010, None, scan=english_events),
]
