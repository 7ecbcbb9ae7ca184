"""A short answer read with the companion's question: "two, both rescues" after "Any pets?" says "I have pets".

Alone, an elliptical answer has no subject ("每天至少三杯", "since March, still can't do an F chord"), so no
memory can name its topic and nothing can ever replace it. When the companion's message ends with a question
about the user and the user's reply is short and carries no subject of its own, the question is turned into
the user's statement (second person to first, the question's order to a statement's) and the answer is set in
it: in Chinese the question word takes the answer's first part (你住在哪个城市 + 成都 → 我住在成都), in English
the answer follows the statement (How long have you been playing guitar + since March → I have been playing
guitar since March). The pipeline then reads that statement as it reads anything the user says; the memory
keeps the user's own words as its quote.

It is grammar, not a list of questions: any question whose subject is "you"/"你" is turned, and a Chinese question
with no subject, which is asked of the user ("平时打游戏吗", "最近在追什么剧"). The question is the last one the
message asks, wherever it stands ("When's your birthday? I want to remember it"), without an aside after a comma
("…, if you don't mind me asking"). A no to a yes-or-no question about the user is the negative statement ("Do you
drink coffee?" + "nope" → "I don't drink coffee"); a no to the companion's offer to treat the user some way is the
request not to ("Want me to use more emojis?" + "pls no" → "Don't use more emojis"; "要不要我多用点表情包？" +
"不用，正常说话就好" → "别多用点表情包，正常说话就好"). Any other question about the companion itself ("want me to
remind you?" + "yes please") and a bare "yes"/"嗯" are left alone.
"""
from __future__ import annotations

import re

from memory.learn.rules.lexicon import alternation
from memory.text import has_cjk, has_negation

MAX_ANSWER_WORDS = 12
MAX_ANSWER_CHARS_ZH = 24

_EN_QUESTION = re.compile(r"[^.!?\n]*\?")
_ZH_QUESTION = re.compile(r"[^。！？!?\n~～]*(?:[？?]|[吗呢吧嘛](?=[\s～~。，,！!]|$))")
_EN_SELF = re.compile(r"\b(?:i|i'm|i'd|i'll|me|my|we|us|our|let's|let me)\b", re.IGNORECASE)
_EN_FULL = re.compile(r"^(?:i|i'm|im|i've|ive|i'd|my|we|we're|our|yes|yeah|yep|no|nope|nah|not)\b", re.IGNORECASE)
_EN_MY_THING = re.compile(r"^my(?: [\w'-]+){1,2}(?:[,.!]|$)", re.IGNORECASE)  # "my nan, no contest": a who, not a statement
_EN_BARE = re.compile(r"^(?:yes|yeah|yep|yup|ya|no|nope|nah|ok|okay|sure|maybe|kinda|sort of|not really|idk|"
                      r"i don't know|dunno|lol|haha|hmm+)[\s!.?~]*$", re.IGNORECASE)
_EN_YES = re.compile(r"^(?:yes|yeah|yep|yup|ya|yea|sure|definitely|of course)\b[\s,!.~-]+(?=\S)", re.IGNORECASE)
# a no: its word first, or a bare no after a filler ("pls no", "god no"); "pls don't sugarcoat it" asks something
_EN_NO = re.compile(r"^(?:(?:pls|please|god|hell|ugh|oh|lol|haha|honestly|tbh|hard|big|absolutely|definitely)[\s,.!]+(?:no|nope|nah)\b"
                    r"|(?:no|nope|nah|not|never|none|nothing|neither|don't|do not|can't|haven't|not really)\b)",
                    re.IGNORECASE)
_ZH_NO = re.compile(r"^(?:不|没|别|无|算了|并不|从不|从来不|一点也不)")
_ZH_BARE = re.compile(r"^(?:嗯+|对|是的?|好的?|有|没有|不是|还行|还好|一般|哈+|emmm*|啊+)[\s!！。~～.]*$")
_ZH_NEW_TOPIC = re.compile(r"^(?:对了|话说|其实|哦对|顺便|另外|不过)")
_ZH_OPINION = re.compile(r"觉得|认为|看法|怎么样|如何|你看|你说")
_ZH_WH = re.compile(r"什么时候|啥时候|怎么(?=[\u4e00-\u9fff])|多高|多大|多重|多远|哪天|哪年|几号|几点|几月几号|什么[\u4e00-\u9fff]?|哪(?:个|家|所|种|里|儿|边|年|天|位)?[\u4e00-\u9fff]{0,2}?(?=[的了上工做住读在去吗呢？?，,]|$)"
                    r"|多久|多长时间|几[个只位岁点年天次杯本]?|多少[\u4e00-\u9fff]?|谁|干嘛|干啥|啥")
# English question shapes, each with how its statement is said: (pattern, template). {rest} is what follows the
# subject with you/your turned to me/my; answers follow the statement.
_EN_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.IGNORECASE), t) for p, t in (
    (r"^what(?:'s| is) your (?P<rest>.+?) called$", "My {rest} is called"),
    (r"^what(?:'s| is) your (?P<rest>.+?) like$", "My {rest} is"),  # "What's your best friend like?"
    (r"^(?:what|who)(?:'s| is) the (?P<rest>.+)$", "The {rest} is"),  # "Who's the best cook in your family?"
    (r"^who(?:'s| is) (?P<name>(?-i:[A-Z][\w'-]+))$", "{name} is"),  # "Who's Jas?" + "my flatmate!"
    (r"^(?:what|who)(?:'s| is) your (?P<rest>.+)$", "My {rest} is"),
    (r"^(?:when|where|what time)(?:'s| is) your (?P<rest>.+)$", "My {rest} is"),
    (r"^(?:when|where|what time)(?:'s| is) the (?P<rest>.+)$", "The {rest} is"),
    (r"^when (?:does|do|did|will) (?:the |your )(?P<rest>.+)$", "My {rest}:"),
    (r"^(?:which|what) (?:day|date|weekend|week|month|time) (?:is|'s) (?P<rest>.+)$", "{rest} is"),
    (r"^when(?:'s| is) (?!it\b|that\b|this\b)(?P<rest>.+)$", "{rest} is"),
    (r"^what do you do (?:for (?:work|a living|a job)|now)$", "I work as"),
    (r"^what are your (?P<rest>.+)$", "My {rest} are"),
    (r"^how (?:old|tall|big|far|long) (?:is|are) your (?P<rest>.+)$", "My {rest} is"),
    (r"^how long (?:till|until|before) (?:your|the) (?P<rest>.+)$", "My {rest}:"),
    (r"^(?:what|which) (?:(?:kind|sort|type)s? of )?(?P<thing>\w+(?: \w+){0,2}?) (?:do|did) you (?P<rest>.+)$", "I {rest}"),  # "what kind of music do you like" + "90s hip hop": the answer is the object
    (r"^where (?:do|did) you (?P<rest>.+)$", "I {rest} in"),
    (r"^how long have you (?P<rest>.+)$", "I have {rest}"),
    (r"^how long (?:do|did) you (?P<rest>.+)$", "I {rest} for"),
    (r"^how (?:often|many [\w ]+?|much [\w ]+?) (?:do|did) you (?P<rest>.+)$", "I {rest}:"),
    (r"^how (?:often|many [\w ]+?|much [\w ]+?) (?:are|have) you (?P<rest>.+)$", "I am {rest}:"),
    (r"^how (?:do) you (?:two|both|guys) (?P<rest>.+)$", "We {rest}:"),
    (r"^how did you (?:two|both|guys) (?P<rest>.+)$", "We {past}:"),  # "how did you two meet" + "dating app!"
    (r"^how (?:do|did) you (?P<rest>.+)$", "I {rest}:"),
    (r"^(?:what|who|when) (?:do|did) you (?P<rest>.+)$", "I {rest}:"),
    (r"^where are you (?P<rest>.+)$", "I am {rest} in"),
    (r"^(?:what|who|when) are you (?P<rest>.+)$", "I am {rest}:"),
    (r"^(?:what|who) have you (?P<rest>.+)$", "I have {rest}:"),
    (r"^do you (?P<rest>.+)$", "I {rest}:"),
    (r"^did you (?P<rest>.+)$", "I did {rest}:"),
    (r"^are you (?P<rest>.+)$", "I am {rest}:"),
    (r"^were you (?P<rest>.+)$", "I was {rest}:"),
    (r"^have you (?P<rest>.+)$", "I have {rest}:"),
    (r"^(?:can|could) you (?P<rest>.+)$", "I can {rest}:"),
))
_EN_NEGATIVES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.IGNORECASE), t) for p, t in (
    (r"^do you (?P<rest>.+)$", "I don't {rest}"),
    (r"^are you (?P<rest>.+)$", "I am not {rest}"),
    (r"^have you (?P<rest>.+)$", "I haven't {rest}"),
    (r"^did you (?P<rest>.+)$", "I didn't {rest}"),
))
_EN_NO_WORDS = re.compile(r"^(?:(?:pls|please|god|hell|ugh|oh|hard|big|absolutely|definitely|no|nope|nah|not really|not at all|"
                          r"not(?= *[,.!~-]| *$)|never(?= *[,.!~-]| *$)|none|tbh|honestly|really|"
                          r"lol|haha|thanks|thank you|thx|ty)\b[\s,.!~-]*)+",
                          re.IGNORECASE)
_EN_LEAD = re.compile(r"^.*?\b(?=(?:what|what's|which|where|when|who|how|do|did|are|were|have|can|could)\s)",
                      re.IGNORECASE)
_EN_PREPOSITION = re.compile(r"^(?:since|for|about|around|in|at|on|from|with|by|like|every|each|once|twice)\b",
                             re.IGNORECASE)


def read_with_question(answer: str, assistant: str | None) -> str | None:
    """The answer said whole with the companion's closing question, or None when it is no such answer."""
    if not assistant or not answer.strip():
        return None
    answer = answer.strip()
    named = _pronoun_named(answer, assistant)
    if named is not None:
        return named
    if has_cjk(answer) or has_cjk(assistant):
        return _zh(answer, assistant) if has_cjk(answer) and has_cjk(assistant) else None
    return _en(answer, assistant)


def _en(answer: str, assistant: str) -> str | None:
    said_yes = _EN_YES.match(answer) is not None
    answer = _EN_YES.sub("", answer).strip() or answer  # "yep, friday at 9": the details are the answer
    asked = _EN_QUESTION.findall(assistant)
    words = re.split(r"(?<=[.!?])\s", answer.strip(), maxsplit=1)[0].split()  # the answer is its first sentence;
    if not asked or len(words) > MAX_ANSWER_WORDS or answer.rstrip().endswith("?"):  # what follows is said as is
        return None
    question = _named(asked[-1], assistant)  # the last question asked ("When's your birthday? I want to remember it")
    if _EN_MOMENT.search(question) and re.match(r"\W*(?:did you|(?:(?:do )?you )?want me to|(?:should|shall) i|would "
                                               r"you like me to)\b", _EN_LEAD.sub("", question.strip()), re.IGNORECASE):
        return None  # how a moment went, or an offer for the moment: "did you get any sleep last night?", "want me to
        # pick a film for tonight?" — nothing to keep, whatever the answer
    if _EN_NO.match(answer) and not said_yes:  # "yes pls, don't sugarcoat stuff" is a yes
        return _en_no(answer, question)
    if _EN_BARE.match(answer) or _EN_FULL.match(answer) and not _EN_MY_THING.match(answer):
        return None
    other = re.search(r",? or (?=(?:are|do|is|have|would|will|did|were|should) (?:you|i)\b)", question, re.IGNORECASE)
    if other and not said_yes:  # two questions: "Do you have a garden, or are you more of a windowsill person?"
        if not re.search(r"\b(?:else|other)\b", question[other.end():], re.IGNORECASE):
            return None  # which one the answer answers, it says itself
        question = question[other.end():]  # "…call you Alex, or do you prefer something else?" + "Lexi please"
    for head in _heads(question):
        if _EN_SELF.search(head):
            continue  # the companion asks about itself
        head, chose = _en_either(head, answer)
        if not chose and _EN_EITHER.search(head):
            return None  # "morning person or night owl?" + "up at 5 every day": it took no side; read it as said
        said = _without_the_side(answer, chose)
        for pattern, template in _EN_SHAPES:
            m = pattern.match(head)
            if m:
                if _EN_YES_NO.match(head) and not chose and not said_yes and has_negation(answer):
                    return None  # "Did you ever get into the Marvel films?" + "tried, … not my thing": no yes to say
                parts = {k: _first_person(v) for k, v in m.groupdict().items()}
                if "{past}" in template:
                    parts["past"] = _past(parts.get("rest", ""))
                statement = template.format(**parts).strip()
                return _joined(statement, said.rstrip(" .!")) if said else statement
        if chose:  # "Cats or dogs?" + "dogs obviously": a taste said
            statement = f"I prefer {_first_person(head[:1].lower() + head[1:])}"
            return _joined(statement + ":", said.rstrip(" .!")) if said else statement
    return None


def _pronoun_named(answer: str, assistant: str) -> str | None:
    """An answer that opens on he/she about the one person of the user's the companion's message names, said with
    that person ("You mention your brother a lot! What does he do?" + "he's a sous chef…" → "My brother is a sous
    chef…"; "你老公平时做饭吗？" + "他？不会做饭" → "我老公不会做饭"); None otherwise."""
    if has_cjk(answer):
        opener = re.match(r"(?:他|她)[？?，,\s]*(?=[\u4e00-\u9fff])", answer)
        people = {m.group(1) for m in re.finditer(rf"你(?:的|家)?({_ZH_RELATIONS})", assistant)}
        return f"我{people.pop()}{answer[opener.end():]}" if opener and len(people) == 1 else None
    opener = re.match(r"(?:he|she)(?:'s|\s+is)\s+", answer, re.IGNORECASE)
    people = {m.group(1).lower() for m in re.finditer(rf"\byour\s+({_EN_RELATIONS})\b", assistant, re.IGNORECASE)}
    return f"My {people.pop()} is {answer[opener.end():]}" if opener and len(people) == 1 else None


_ZH_RELATIONS = alternation("zh_relations", longest_first=True)
_EN_RELATIONS = alternation("en_relations", longest_first=True)


def _without_the_side(answer: str, side: str) -> str:
    """The answer without the side of an either-or question it opens on (said in the statement already)."""
    if not side:
        return answer
    words = side.split()
    words = words[_article(words):]
    m = re.match(r"\s*(?:(?:a|an|the)\s+)?" + r"\W*\s*".join(re.escape(w.rstrip("s")) + r"s?" for w in words)
                 + r"\b[\s,.!:;-]*", answer, re.IGNORECASE)
    return answer[m.end():] if m else answer


_ARTICLES = frozenset({"a", "an", "the"})


def _article(words: list[str]) -> int:
    """1 when a side of an either-or question opens on an article, said or not in the answer ("a night owl")."""
    return int(len(words) > 1 and words[0].casefold() in _ARTICLES)


_EN_EITHER = re.compile(r"\b(?P<a>[\w'-]+(?: [\w'-]+){0,2}) or (?P<b>[\w'-]+(?: [\w'-]+){0,2})")


def _en_either(question: str, answer: str) -> tuple[str, str]:
    """An either-or question with the side the answer took in place of both ("Sweet or savoury for breakfast" +
    "savoury. eggs" → "savoury for breakfast"); as asked when the answer took neither side."""
    m = _EN_EITHER.search(question)
    if m is None:
        return question, ""
    said = [w.rstrip("s").casefold() for w in re.findall(r"[\w'-]+", answer)[:4]]
    said = said[1:] if said[:1] and said[0] in _ARTICLES else said[:3]
    for side in ("b", "a"):
        words = m.group(side).split()
        lead = _article(words) if side == "b" else 0  # "…or a night owl" + "night owl"
        for k in range(min(len(words) - lead, len(said)), 0, -1):
            chosen = words[:lead + k] if side == "b" else words[-k:]
            if [w.rstrip("s").casefold() for w in chosen[lead:]] == said[:k]:
                other = m.group("a" if side == "b" else "b").split()
                other = other[-(k + lead):] if side == "b" else other[:k + _article(other)]
                start = m.start() + len(m.group("a")) - len(" ".join(other if side == "b" else chosen))
                end = m.end() - (len(m.group("b")) - len(" ".join(chosen)) if side == "b" else len(m.group("b")) - len(" ".join(other)))
                return question[:start] + " ".join(chosen) + question[end:], " ".join(chosen)
    return question, ""


_EN_INTERJECTION = re.compile(r"^(?:(?:oh+|ooh+|oof|aw+|wow|ah+|hmm+|yay|eek|omg|ha+|ok(?:ay)?|so|right)\b[\s,!.]*)+", re.IGNORECASE)


def _named(question: str, assistant: str) -> str:
    """The question with its "it" named by the short remark just before it ("Parents' evening, eek 😬 When is it?" asks
    when parents' evening is; "Oh, the family reunion! Which weekend is it?"; "Your mum's birthday is coming up, right?
    What day is it?"); a when-question with no thing of its own takes it after a dash ("Oof, surgery. When do you go
    in?" asks "When do you go in — the surgery")."""
    if re.search(r"\bit\b", question, re.IGNORECASE):
        thing = _remark_thing(question, assistant)
        return re.sub(r"\bit\b", thing, question, count=1, flags=re.IGNORECASE) if thing else question
    bare = re.search(r"\bwhen (?:do|are|will) you (\w+)(?: (?:in|out|off|away|back|up))?\s*\??\s*$", question, re.IGNORECASE)
    thing = _remark_thing(question, assistant) if bare else ""
    return f"{question.rstrip(' ?')} — {thing}?" if thing else question


def _remark_thing(question: str, assistant: str) -> str:
    """The thing the short remark just before the question names ("the surgery"), or ""."""
    lead = _EN_LEAD.match(question)
    at = assistant.rfind(question.strip()) if question.strip() in assistant else 0
    before = assistant[:at] + (question[:lead.end()] if lead else "")  # the remark, also inside the question's sentence
    before = "".join(ch if ch.isascii() else " " for ch in before)  # emoji out
    remark = [r for r in re.split(r"[.!?\n]", before) if r.strip()]
    if not remark:
        return ""
    thing = _EN_INTERJECTION.sub("", remark[-1].strip()).split(",")[0].strip()
    subject = re.match(r"((?:your|the)\b.*?)\s+(?:is|are|was)\b", thing, re.IGNORECASE)  # "Your mum's birthday is coming up"
    if subject and len(subject.group(1).split()) <= 4:
        thing = subject.group(1)
    words = thing.split()
    if not 1 <= len(words) <= 4 or _EN_SELF.search(thing) or re.search(r"\b(?:is|are|was|sounds?|looks?)\b", thing, re.I):
        return ""
    return thing if re.match(r"(?:the|your|my|a|an|this|that)\b", thing, re.IGNORECASE) else "the " + thing


def _heads(question: str) -> list[str]:
    """The question without what leads up to it, then cut before each aside after a comma, longest first
    ("What do you do for work, if you don't mind me asking?" is asked by "What do you do for work")."""
    question = _EN_LEAD.sub("", question.strip().rstrip("?").strip(), count=1)
    question = re.sub(r",?\s+(?:and|or) (?:why|how come|not|what else|anything else)$", "", question, flags=re.IGNORECASE)
    # an "or" whose other side is a no asks yes or no ("are you into horror at all, or is that a hard no")
    question = re.sub(r",?\s+or (?:is (?:that|it) )?(?:a )?(?:\w+ )?(?:no|nah|not|never)\b[\w ]*$", "", question,
                      flags=re.IGNORECASE)
    pieces = question.split(", ")
    return [", ".join(pieces[:k]) for k in range(len(pieces), 0, -1)]


def _en_no(answer: str, question: str) -> str | None:
    """A no to a yes-or-no question about the user, said as the negative statement ("Do you drink coffee?" + "nope,
    can't stand it" → "I don't drink coffee: can't stand it"); a no to the companion's offer to treat the user some
    way ("Want me to use more emojis?" + "pls no") is the request not to; a no to anything else is left alone."""
    details = _EN_NO_WORDS.sub("", answer).strip(" ,.!~-")
    for head in _heads(question):
        offer = _EN_OFFER.match(head)
        if offer:
            request = f"Don't {_first_person(offer['rest'])}"
            return f"{request}: {details}" if details else request
        if _EN_SELF.search(head):
            continue
        for pattern, negative in _EN_NEGATIVES:
            m = pattern.match(head)
            if m:
                if not details and negative.startswith("I didn't"):
                    return None  # "did you sleep ok?" + "no": how a day went, nothing to keep
                statement = negative.format(rest=_first_person(m["rest"]))
                return f"{statement}: {details}" if details else statement
    return None


_EN_YES_NO = re.compile(r"^(?:do|did|are|were|have|can|could) you\b", re.IGNORECASE)
_EN_MOMENT = re.compile(r"\b(?:tonight|today|tomorrow|yesterday|last night|this (?:morning|afternoon|evening|time)|"
                        r"right now|for now|for a (?:bit|sec|second|minute|while)|in time|real quick)\b", re.IGNORECASE)
_EN_OFFER = re.compile(r"^(?:(?:do )?you )?(?:(?:want|would you like) me to|(?:should|shall) i) (?P<rest>.+)$", re.IGNORECASE)


def _first_person(text: str) -> str:
    """What the question says of "you", said by the user: your → my, you → me, yourself → myself; "any" out."""
    swap = {"your": "my", "yours": "mine", "you": "me", "yourself": "myself", "any": ""}
    out = re.sub(r"\b(your|yours|you|yourself|any)\b", lambda m: swap[m.group(1).lower()], text, flags=re.IGNORECASE)
    out = _EN_ASKED_WHEN.sub("", out)  # "how old is your daughter now": when it is asked, not what
    return re.sub(r"\s{2,}", " ", out).strip()


_EN_ASKED_WHEN = re.compile(r"\s+(?:now|again|these days|lately|at the moment|right now|currently|at all)\s*$", re.IGNORECASE)


_IRREGULAR_PAST = {"meet": "met", "get": "got", "go": "went", "find": "found", "come": "came", "start": "started",
                   "begin": "began", "take": "took", "make": "made", "have": "had", "do": "did", "see": "saw",
                   "hear": "heard", "know": "knew", "buy": "bought", "give": "gave", "leave": "left"}


def _past(rest: str) -> str:
    """The verb phrase in the past ("meet" → "met", "end up there" → "ended up there")."""
    verb, _, tail = rest.partition(" ")
    low = verb.lower()
    past = _IRREGULAR_PAST.get(low) or (low + "d" if low.endswith("e") else low[:-1] + "ied" if re.search(r"[^aeiou]y$", low)
                                      else low + "ed")
    return f"{past} {tail}".strip()


def _joined(statement: str, answer: str) -> str:
    if statement.endswith(" is") and re.match(r"[A-Z][a-z]+(?:'s|\s+is|\s+was)\b", answer):
        return f"{statement[:-3]} {answer}"  # "My best friend is" + "Kemi is chaos in human form"
    if statement.endswith(":"):
        head = statement[:-1]
        return f"{head} {answer}" if _EN_PREPOSITION.match(answer) else f"{head}: {answer}"
    if statement.endswith((" in", " for")) and _EN_PREPOSITION.match(answer):
        statement = statement.rsplit(" ", 1)[0]  # "I live in" + "in Leeds"
    return f"{statement} {answer}"


def _zh(answer: str, assistant: str) -> str | None:
    asked = _zh_asked(assistant)
    if not asked or len(answer) > MAX_ANSWER_CHARS_ZH or _ZH_BARE.match(answer):
        return None
    if _ZH_NO.match(answer):
        return _zh_declined(answer, asked) or _zh_negated(answer, asked)
    if re.match(r"[我俺]", answer) or re.search(r"[你您？?]", answer) or _ZH_NEW_TOPIC.match(answer):
        return None  # a statement of its own, words to the companion, a question back, or a new topic
    if "我" in asked or _ZH_OPINION.search(asked):
        return None  # the companion speaks of itself ("让我猜猜", "要我提醒你吗") or asks what the user thinks
    # the question is its last part: after the remark before it ("哇要去旅游！什么时候出发" → "什么时候出发"), or from
    # the part that names the user on ("听起来好累呀～你平时一般几点睡")
    question = re.sub(r"^.*[，,：:]\s*(?=[^，,：:]*[你您][^，,：:]*$)", "", asked)
    question = re.split(r"[，,：:！!～~。\s]", question.strip())[-1].strip() or question
    # a question with no subject is asked of the user (Chinese leaves "you" out: "平时打游戏吗", "最近在追什么剧")
    question = re.sub(r"(?:来着|了?没有?)?(?:[吗呢吧啊呀啦]|(?<!干)嘛)?[\s～~。？?]*$", "", question).replace("你们", "我们").replace("您", "我").replace("你", "我")
    if not question:
        return None
    if "还是" in question:  # "你是早起型还是夜猫子" + "夜猫子 不到两点睡不着": the side the answer took
        return _zh_either(question, answer)
    wh = _ZH_WH.search(question)
    if wh and _ZH_WHEN.fullmatch(wh.group(0)) and len(re.sub(r"[是的了要在]", "", question.replace(wh.group(0), ""))) <= 2:
        last = re.split(r"[，,：:！!～~。\s]", asked.strip())[-1].strip()
        topic = _zh_topic_before(assistant, last)  # "你说要回老家过年，票买好了吗？哪天走？": when is what was said before
        if topic:
            return f"{topic}，{answer}"
    if not wh:  # a yes-or-no question: the statement, then the answer's details, unless the answer says otherwise
        if re.search(r"[不没别无非]", re.split(r"[\s，,。！!～~]", answer, maxsplit=1)[0]):
            return None  # "你平时喝酒吗？" + "滴酒不沾": no yes to say it with
        return f"{question}，{answer}"
    if re.match(r"(?:对|嗯|是的|是啊|没错)[\s，,。！!]", answer):
        return None  # a yes to something before the question: which part answers it is not said
    first = re.split(r"(?<=[^，,。 ])(?=[，,。 ])", answer, maxsplit=1)[0]  # the answer's first part fills the blank
    tail = answer[len(first):].lstrip("，,。 ")
    rest = question[wh.end():]
    first = first.strip()
    if first.endswith("了") and rest.startswith("了"):
        rest = rest[1:]  # "跑了多久了" + "三年多了": one 了
    lead = question[:wh.start()]
    overlap = next((k for k in range(min(len(lead), len(first), 3), 0, -1) if lead.endswith(first[:k])), 0)
    said = lead + first[overlap:] + rest  # "这次旅行跟谁一起去" + "跟室友小周": one 跟
    return f"{said}，{tail}" if tail else said


_ZH_WHEN = re.compile(r"什么时候|啥时候|哪天|几号|几月几号|哪年|哪个月|几点")
_ZH_TOPIC_LEAD = re.compile(r"^(?:你说要|你说|你不是要|你不是|听说你要|听说你|你们的|你的|你们|你要|你)")
_ZH_TOPIC_TAIL = re.compile(r"(?:定了|买好了|订好了|好了|准备好了)?(?:对吧|是吧|了吗|吗|嘛|呢|呀|啊|没|没有)?$")


def _zh_topic_before(assistant: str, asked: str) -> str:
    """What the companion's message spoke of before its question, said by the user: its longest clause, without
    "你说要"/"对吧"-like words around it ("你不是要去成都出差嘛 定了哪天吗" → "去成都出差"); "" when there is none."""
    before = assistant[:assistant.rfind(asked)] if asked in assistant else ""
    clauses = [_ZH_TOPIC_TAIL.sub("", _ZH_TOPIC_LEAD.sub("", c.strip())) for c in re.split(r"[，,。！!？?～~\s]", before)]
    clauses = [c for c in clauses if len(re.findall(r"[\u4e00-\u9fff]", c)) >= 2 and "我" not in c]
    return max(clauses, key=len).replace("你", "我") if clauses else ""


def _zh_asked(assistant: str) -> str | None:
    """The companion's last question: the last sentence ending in a question mark or particle, or what follows it
    when that still asks ("考研报名是不是快开始了？你初试大概啥时候")."""
    found = list(_ZH_QUESTION.finditer(assistant))
    if not found:
        return None
    after = assistant[found[-1].end():].strip(" ？?。～~！!")
    if after and "我" not in after and _ZH_WH.search(after):  # "你在读研对吧？读的啥专业呀"
        return after
    last = found[-1].group(0).strip()
    if len(found) > 1 and re.fullmatch(r"[\s，,]*([\u4e00-\u9fff])不\1[？?\s]*", last):
        return found[-2].group(0).strip()  # "你平时怎么去公司呀？远不远？": the question, not its tag
    return last


def _zh_either(question: str, answer: str) -> str | None:
    """An either-or question said with the side the answer took ("我是早起型还是夜猫子" + "夜猫子…" → "我是夜猫子…");
    None when the answer took neither side ("食堂还是外卖" + "自己带饭")."""
    before, after = question.split("还是", 1)
    first = re.split(r"[\s，,。！!～~]", answer, maxsplit=1)[0]
    side_a = re.split(r"[是用在去坐看听玩喝吃要]", before)[-1]
    side_b = re.split(r"[，,呢吗呀啊吧]", after)[0]
    taken = [side for side in (side_b, side_a) if side and (first in side or side in first)]
    if not first or not taken and not any(ch in side for side in (side_a, side_b) for ch in first):
        return None
    tail = answer[len(first):].strip(" ，,。")
    said = before[:len(before) - len(side_a)] + (taken[0] if taken and first in taken[0] else first) + after[len(side_b):]
    return f"{said}，{tail}" if tail else said


def _zh_negated(answer: str, asked: str) -> str | None:
    """A no that names the verb of a yes-or-no question, with the question's object put after it ("你会不会游泳？" +
    "不会 小时候呛过水" → "不会游泳 小时候呛过水"; "你喝茶吗" + "不喝" → "不喝茶"). None when the object is said already
    or the verb is not the question's."""
    m = re.match(r"([不没])([\u4e00-\u9fff])", answer)
    question = re.sub(r"(?:[吗呢吧啊呀啦]|(?<!干)嘛)?[\s～~。？?]*$", "", re.split(r"[，,：:！!～~。]", asked)[-1].strip())
    if m is None or m.group(2) not in question or "你" not in question and "您" not in question:
        return None
    at = question.index(m.group(2)) + 1
    obj = re.sub(rf"^不{m.group(2)}", "", question[at:])  # "会不会游泳": the object after the A-not-A
    obj = re.split(r"[吗呢吧啊呀啦]", obj)[0]
    if not obj or obj in answer or _ZH_WH.search(obj):
        return None
    return answer[:2] + obj + answer[2:]


_ZH_OFFER = re.compile(r"(?:要不要|需不需要|需要|要)?我(?:以后)?(?P<rest>.+?)(?:可以|行|好|可以不|行不行|好不好)?(?:吗|不)?$")
_ZH_DECLINE = re.compile(r"^(?:(?:不用|不要|不需要|别|算了|不了)[了啦吧呀哈]*[\s，,。！!~～]*)+")


def _zh_declined(answer: str, asked: str) -> str | None:
    """A no to the companion's offer to treat the user some way ("要不要我多用点表情包？" + "不用，正常说话就好"):
    the request not to, with what the user wants instead; a no to anything else is left alone."""
    question = re.sub(r"(?:[吗呢吧啊呀啦])?[\s～~。？?]*$", "", re.split(r"[，,：:！!～~。]", asked)[-1].strip())
    offer = _ZH_OFFER.fullmatch(question) if _ZH_DECLINE.match(answer) else None
    if not offer:
        return None
    rest = offer["rest"].replace("你", "我")
    details = _ZH_DECLINE.sub("", answer).strip()
    return f"别{rest}，{details}" if details else f"别{rest}"
