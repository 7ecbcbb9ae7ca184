"""English extraction rules: the shared vocabulary of the English tables, and the profile rules for
name, age, home, diet and daily routine (jobs and studies: `en_work`; feedback: `en_feedback`;
likes, people and moods: `en_social`; everyday life: `en_life`).

Every rule is a `Rule` record: a regex for how people say a thing, and a small function that turns
the match into one atomic third-person sentence with its reconciliation topic. Dated events live in
`memory.learn.rules.events`.
"""
from __future__ import annotations

import re

from memory.learn.rules.common import activity_key, candidate, drop_fillers, quote_for, third_person
from memory.learn.rules.lexicon import alternation, word_set
from memory.learn.rules.registry import Rule
from memory.records import Candidate

I = re.IGNORECASE
ADV = r"(?:(?:really|absolutely|totally|just|genuinely|honestly|seriously|truly|still|kinda|so|" \
      r"kind of|lowkey|super|completely|officially|pretty|very|actually|literally|definitely|(?!only\b)[a-z]{3,}ly)\s+)*"
OBJ_STOP = (r"(?=\s*(?:[,.!?;:…()\n\"]|—|–|\s-\s|$)|\s+(?:lately|recently|so much|these days|right now|"
            r"anymore|any more|at all|tbh|lol|haha\w*|but|and|because|cause|cuz|since|when|though|too|"
            r"as well|now|ever since|for like|on repeat|every|all the time|tonight|today|this week|"
            r"to me|for me|more than|than|if|which|who|so|ago|last|yesterday|after|before|until|while|during|(?:a|one|two|three|four|five|six|few|"
            r"couple\s+of)\s+(?:days?|weeks?|months?|years?)|this\s+(?:morning|week|month|year))\b)")
OBJ = r"(?P<obj>[^\s,.!?;:][^,.!?;:\n]{0,40}?)" + OBJ_STOP
BAD_OBJ = re.compile(
    r"^(?:it|that|this|these|those|you|your|yours|them|him|her|it when|when|how|what|the way|to|being|myself|"
    r"people|everything|nothing|anything|everyone|everybody|someone|so|because|going|getting|having|"
    r"doing|here|there|the moon|me|us|one|a lot|lots|my job|work|the spot|on|by|at|in|for|with|"
    r"trying|caring|talking|thinking|feeling)\b", I)
NAME_STOP = word_set("en_name_stop")
ENDEARMENTS = word_set("en_endearments")
JOBS = alternation("en_jobs", longest_first=True)
RELATIONS = alternation("en_relations", longest_first=True)
PETS = alternation("en_pets", longest_first=True)
MOODS = alternation("en_moods")
STYLE_TOPICS = [
    (r"question", "questions"), (r"emoji|emoticon|smiley", "emoji"),
    (r"joke|jok|humou?r|funny|puns?\b|sarcas|banter|playful", "humor"),
    (r"exclamation", "exclamation"), (r"advice|suggestion|solution|fix (?:it|things)|lectur|preach", "advice"),
    (r"short|long|brief|concise|length|wall of text|paragraph|essay|rambl|wordy|verbose|sentence", "length"),
    (r"quote|pep talk|motivational|platitude|clich|therapy[\s-]+(?:speak|talk)|toxic positivity|silver lining", "motivation"),
    (r"list|bullet", "format"),
    (r"lower[\s-]*case|upper[\s-]*case|capital|caps\b|punctuation", "case"),
    (r"formal|casual|tone|gentle|cheerful|upbeat|positive|serious|direct|honest|blunt|sugarcoat|soften|warm", "tone"),
    (r"call(?:ing)? me|name", "address"), (r"swear|curs", "swearing"), (r"apolog|sorry", "apologies"),
    (r"metric|imperial|grams?\b|celsius|fahrenheit|units|kilos?\b|pounds|miles|cups", "units"),
    (r"self-help|normal\s+person|like\s+a\s+(?:friend|human|person|robot|therapist)|textbook", "tone"),
    (r"tell(?:ing)?\s+me\s+to|remind(?:ing)?\s+me\s+to", "nagging"),
]
STYLE_NOUN = re.compile(
    r"question|emoji|emoticon|smiley|joke|humou?r|puns?\b|sarcas|banter|exclamation|advice|suggestion|"
    r"lectur|preach|short|long|brief|concise|wall of text|paragraph|essay|rambl|wordy|verbose|list|"
    r"bullet|formal|casual|tone|gentle|swear|curs|apolog|sorry|messages?|lower[\s-]*case|upper[\s-]*case|capital\s+letters|"
    r"all\s+caps|caps\s+lock|punctuation|exclamation\s+(?:points|marks)|hashtags|gifs|slang|abbreviations|repl(?:y|ies)|answers?|sentences?|direct|"
    r"honest|blunt|supportive|encouraging|sugarcoat|soften|patient|warm|"
    r"quotes?|pep\s+talks?|motivational|platitudes?|clich|therapy[\s-]+(?:speak|talk)|positivity|silver\s+lining|"
    r"responses?|texts?|tell(?:ing)?\s+me\s+to|remind(?:ing)?\s+me\s+to|(?:giv(?:e|ing)|send(?:ing)?)\s+me\s+(?:[\w-]+\s+)?"
    r"(?:exercises|tips|advice|lectures|homework|lists|links|articles|resources|reminders|affirmations)|"
    r"metric|imperial|grams?\b|celsius|fahrenheit|units\b|kilos?\b|self-help|textbook|"
    r"like\s+a\s+(?:normal\s+person|friend|human|real\s+person|robot|therapist)", I)


def style_topic(text: str) -> str:
    """The feedback topic of a style request ("stop asking questions" -> "feedback:questions")."""
    for pattern, topic in STYLE_TOPICS:
        if re.search(pattern, text, I):
            return f"feedback:{topic}"
    word = re.findall(r"[a-z]{4,}", text.lower())
    return f"feedback:{word[-1] if word else 'style'}"


def _ok_obj(obj: str) -> str | None:
    obj = drop_fillers(obj.strip())
    if not obj or BAD_OBJ.match(obj) or len(obj.split()) > 6 or re.search(r"\d", obj):
        return None
    return obj


def _q(m: re.Match, text: str) -> str:
    return quote_for(text, m.start(), m.end())


def _name(raw: str) -> str | None:
    name = raw.strip(" ,!?'\"")
    title = re.match(r"(?:Dr|Mr|Mrs|Ms|Mx|Prof|Professor|Coach|Doctor|Captain|Miss)\.?\s+(?=[A-Z])", name)
    if title:
        rest = _name(name[title.end():])
        return f"{title.group(0)}{rest}" if rest else None
    name = name.strip(".")
    if not name or name.lower() in NAME_STOP or name.lower() in ENDEARMENTS or not name.isalpha():
        return None
    return name[:1].upper() + name[1:]


# ---------------------------------------------------------------- profile: name, age, home, diet, routine

def _b_name(m: re.Match, text: str) -> Candidate | None:
    name = _name(m["name"])
    if not name:
        return None
    wrong = re.search(rf"\b{re.escape(m['name'])},?\s+not\s+(?P<w>[A-Z][a-z]+)", text[m.start():])
    extra = f" (not {wrong['w']})" if wrong else ""
    return candidate("profile", f"Name is {name}{extra}", _q(m, text), "profile:name")


def _b_address(m: re.Match, text: str) -> Candidate | None:
    before = text[max(0, m.start() - 25):m.start()].lower()
    if re.search(r"(?:don'?t|do not|never|stop|not|no longer|quit|nobody|no one|no-one|noone)\s+(?:\w+\s+)?$", before):
        return None
    if re.search(r"\bonly\s+(?:(?:my|her|his|their|the)\s+)?\w+\s+(?:\w+\s+)?$", before):  # "only my mum calls me Rebecca"
        return None
    name = _name(m["name"])
    if not name:
        return None
    follow = text[m.end():m.end() + 25]
    # a lower-case name needs what closes a name after it; after "go by" only a word of time will do ("I go by bus.")
    closes = (r"\s*(?:[,.!?;)]|$|please|pls|instead|from\s+now|btw|lol|now|though|if|and|haha)" if re.match("call", m[0], I)
              else r"\s+(?:lately|these\s+days|now|instead)")
    if m["name"].islower() and not re.match(closes, follow, I):
        return None
    return candidate("profile", f"Prefers to be called {name}", _q(m, text), "profile:name")


def _b_no_address(m: re.Match, text: str) -> Candidate | None:
    what = re.sub(r"\s+(?:please|pls|plz|lol|ok|okay|thanks|thx)$", "", m["name"].strip(" .,!?'\""), flags=I)
    if not what or what.lower() in ("that", "it", "this", "out", "names"):
        return None
    return candidate("feedback", f"Does not want to be called '{what}'", _q(m, text), "feedback:address",
                     polarity=-1)


def _b_age(m: re.Match, text: str) -> Candidate | None:
    age = int(m["age"])
    if not 13 <= age <= 99:
        return None
    return candidate("profile", f"Is {age} years old", _q(m, text), "profile:age")


def _b_city(m: re.Match, text: str) -> Candidate | None:
    capitalised = re.match(r"[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*(?:,\s*[A-Z]{2}\b)?", m["place"].strip())
    if not capitalised:
        return None
    # a place ends with its sentence: "I live in Nova Scotia. I enjoy Jeopardy" (a short word's full stop goes on: St., Mt.)
    place = re.split(r"(?<!\bSt)(?<!\bMt)(?<!\bFt)\.\s", capitalised.group(0))[0].rstrip(".")
    same = re.search(r"\b(?:still|also)\s+(?:in\s+)?(?P<c>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)?)", text[m.end():])
    if same and same["c"] not in place:
        place += ", " + same["c"]
    moved = m.groupdict().get("moved")
    content = f"Lives in {place}" + (" (moved recently)" if moved else "")
    return candidate("profile", content, _q(m, text), "profile:city")


INTRO = re.compile(r"\b(?:I'm|I\s+am|im|name's|my\s+name\s+is|this\s+is)\s+[A-Z][a-z]+|\bintro\b|\babout\s+me\b|"
                   r"\b(?:quick|some)\s+background\b|\bmyself\s*:", I)


def _b_intro_city(m: re.Match, text: str) -> Candidate | None:
    if not INTRO.search(text) or m["prep"].lower() != "in":
        return None
    return candidate("profile", f"Lives in {m['place']}", _q(m, text), "profile:city")


def _b_from(m: re.Match, text: str) -> Candidate | None:
    place = m["place"].strip()
    return candidate("profile", f"Is originally from {place}", _q(m, text), "profile:hometown")


def _b_diet(m: re.Match, text: str) -> Candidate | None:
    diet = m["diet"].strip().lower()
    extra = re.search(r"\bno\s+(?P<x>(?:meat|dairy|fish|pork|beef|animal)[\w\s]{0,20}?)(?=\s+please|[,.!?]|$)", text, I)
    note = f" (no {extra['x'].strip()})" if extra else ""
    topic = "profile:allergy" if diet.startswith("allergic") else "profile:diet"
    since = re.match(r"\s+since\s+(?:(?:I\s+was\s+)?[\w']+(?:\s+(?:school|college|uni|university|grade))?)", text[m.end():], I)
    note += f" ({since.group(0).strip()})" if since and not note else ""
    return candidate("profile", f"Is {diet}{note}", _q(m, text), topic)


def _b_diet_over(m: re.Match, text: str) -> Candidate | None:
    """A diet given up ("I'm not vegan anymore", "started eating meat again")."""
    diet = m.groupdict().get("diet") or m.groupdict().get("diet2")
    if diet:
        return candidate("profile", f"No longer {diet.lower()}", _q(m, text), "profile:diet", polarity=-1)
    return candidate("profile", f"No longer avoids meat (started {m['again'].lower()})", _q(m, text), "profile:diet", polarity=-1)


def _b_chronotype(m: re.Match, text: str) -> Candidate | None:
    kind = (m["kind"] or m["owl"]).lower()
    what = "a night owl" if "owl" in kind else f"a {kind} person"
    return candidate("profile", f"Is {what}", _q(m, text), "profile:routine:chronotype")


def _b_habit(m: re.Match, text: str) -> Candidate | None:
    act = third_person(m["act"].strip())
    verb, _, rest = act.partition(" ")
    verb = verb + ("es" if verb.endswith(("sh", "ch", "o")) else "s")
    topic = "profile:routine:" + activity_key(m["act"])
    return candidate("profile", f"{verb} {rest} {m['freq']}".replace("  ", " "), _q(m, text), topic)


INTRO_FRAGMENT = (r"(?:^|[,:;]\s*)(?:(?i:a|an)\s+)?(?P<job>(?:[\w-]+\s+){0,2}?(?i:" + JOBS + r"))\s+(?P<prep>in|at|(?i:based\s+in))\s+"
                            r"(?P<place>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})(?=\s*(?:[,.!?;]|$))")


PROFILE_RULES: list[Rule] = [
    Rule("en.profile.name", "en", "profile", 1000,
         r"\bmy\s+name(?:'s|\s+is)\s+(?P<name>[A-Za-z][\w-]*)", _b_name, I),
    Rule("en.profile.name.3", "en", "profile", 1020,
         r"(?i:(?:^|[.!?:,]\s*)(?:my\s+)?(?:name's|names|name\s+is)\s+)(?P<name>[A-ZÀ-Þ][a-zß-ÿ]+)(?![\w'])", _b_name),
    Rule("en.profile.name.4", "en", "profile", 1030,
         r"(?i:\b(?:I'm|I\s+am|im|this\s+is)\s+)(?P<name>[A-ZÀ-Þ][a-zß-ÿ]+)"
                r"(?=\s*(?:[,.!?;)]|—|–|-|$)|\s+(?i:btw|by the way|here|lol|haha|and|from|\())", _b_name),
    Rule("en.profile.address", "en", "profile", 1040,
         r"(?:\b(?:call|calls|calling)\s+me|\bI(?:'ve|\s+have)?\s+(?:been\s+)?(?:go|going|gone)\s+by)\s+"
                r"(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof|Professor|Coach|Doctor|Captain|Miss)\.?\s+)?"
                r"[A-Za-z][\w-]*)", _b_address, I),
    Rule("en.feedback.no_address", "en", "feedback", 1060,
         r"\b(?:don'?t|do\s+not|never|stop|quit|not)\s+(?:\w+\s+)?(?:call|calling)\s+me\s+"
                r"(?P<name>[\w'-]+(?:\s+[\w'-]+)?)(?=\s*(?:[,.!?;]|$)|\s+(?:anymore|please|again|ok|it)\b)", _b_no_address, I),
    Rule("en.profile.age", "en", "profile", 1070,
         r"\b(?:I'm|I\s+am|im)\s+(?P<age>[1-9]\d)(?:\s*(?:years?\s+old|yrs?\s+old|yo|y/o))?"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:years|yrs|yo|and|now|btw|this year)\b)", _b_age, I),
    Rule("en.profile.age.2", "en", "profile", 1080,
         r"(?i:\b(?:I'm|I\s+am|im)\s+)[A-Z][a-z]+\s*,\s*(?P<age>[1-9]\d)(?=\s*(?:[,.!?;]|$|years|yo))", _b_age),
    Rule("en.profile.city", "en", "profile", 1400,
         r"(?:^|[.!?,]\s*)(?:currently\s+|now\s+)?(?P<how>living|based)\s+in\s+"
                r"(?P<place>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})", _b_city),
    Rule("en.profile.city.2", "en", "profile", 1460,
         r"\bI(?:'m|\s+am)?\s*(?:now\s+)?(?:live|living|based|located|reside|staying)\s+in\s+"
                r"(?P<place>[A-Za-z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2}(?:,\s*[A-Z]{2})?)", _b_city, I),
    Rule("en.profile.city.3", "en", "profile", 1470,
         r"(?:\b(?:I|we)\s+|^|[.!?,]\s*)(?:(?:just|recently|finally|officially)\s+)?(?:have\s+|'ve\s+)?(?P<moved>moved|relocated)(?:\s+(?:upstate|downstate|back|out|over|down|up|across\s+the\s+country|abroad|home))?"
                r"\s+to\s+"
                r"(?P<place>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})", _b_city),
    Rule("en.profile.city.4", "en", "profile", 1480,
         r"(?i:\bI(?:'ve|\s+have)\s+|(?:^|[.!?,]\s*)|\bbut\s+|\band\s+)(?i:(?:been\s+)?living|lived|been\s+based|live)\s+in\s+"
                r"(?P<place>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})(?=\s+(?:for|since|now|all|my|about|almost|over)\b|\s*[,.!?;]|$)", _b_city),
    Rule("en.profile.intro_city", "en", "profile", 1510,
         INTRO_FRAGMENT, _b_intro_city),
    Rule("en.profile.from", "en", "profile", 1530,
         r"(?i:\b(?:I'm|I\s+am|im)\s+(?:originally\s+)?from\s+)(?P<place>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})", _b_from),
    Rule("en.profile.diet", "en", "profile", 1540,
         r"(?:\bI(?:'m|\s+am|'ve\s+been|\s+have\s+been|\s+went|\s+turned|\s+became)|(?:^|[.!?,]\s*)been)\s+"
                r"(?:(?:now|fully|strictly|mostly|also|a|an|pretty|super|full|basically)\s+)*(?P<diet>vegan|"
                r"vegetarian|pescatarian|gluten[- ]free|lactose[- ]intolerant|celiac|keto|dairy[- ]free|"
                r"allergic\s+to\s+[\w\s]+?)(?=\s*(?:[,.!?;]|$)|\s+(?:so|and|but|btw|now|lol|since|for|ever|these|lately|most)\b)", _b_diet, I),
    Rule("en.profile.diet_over", "en", "profile", 1550,
         r"\bI(?:'m|\s+am)\s+(?:not\s+(?:a\s+)?(?P<diet>vegan|vegetarian|pescatarian|keto)\s+(?:anymore|any\s+more)|"
                r"no\s+longer\s+(?:a\s+)?(?P<diet2>vegan|vegetarian|pescatarian|keto))\b", _b_diet_over, I),
    Rule("en.profile.diet_over.2", "en", "profile", 1560,
         r"\b(?:started|start|starting|am|I'm|been|back\s+to)\s+(?P<again>eating\s+(?:meat|fish|chicken|dairy)(?:\s+again)?)"
                r"(?=\s+again|\s*[,.!?;]|$|\s+(?:and|but|so|lol|now)\b)", _b_diet_over, I),
    Rule("en.profile.chronotype", "en", "profile", 1590,
         r"\bI(?:'m|\s+am)\s+(?:such\s+|totally\s+|definitely\s+|more\s+of\s+)?(?:a|an)\s+"
                r"(?P<kind>morning|night|early)\s+(?:person|bird)|\bI(?:'m|\s+am)\s+(?:(?:a|such|total|totally|huge|complete|massive|big|"
                r"definitely|a\s+bit\s+of|kind\s+of|kinda)\s+)*(?P<owl>night\s+owl)", _b_chronotype, I),
    Rule("en.profile.chronotype.2", "en", "profile", 1600,
         r"\bI(?:'ve|\s+have)?\s+(?:(?:somehow|weirdly|actually|slowly|officially)\s+)*(?:become|turned\s+into)\s+(?:a|an)\s+"
                r"(?:(?:total|real|full-on|proper)\s+)?(?:(?P<kind>morning|night|early)\s+(?:person|bird)|(?P<owl>night\s+owl))", _b_chronotype, I),
    Rule("en.profile.habit", "en", "profile", 1620,
         r"\bI\s+(?:usually\s+|always\s+|try\s+to\s+|still\s+)?(?P<act>go\s+to\s+the\s+gym|hit\s+the\s+gym|run|swim|meditate|work\s+out|"
                r"do\s+yoga|go\s+running|go\s+swimming|go\s+climbing|bike\s+to\s+work|journal|walk\s+my\s+dog|go\s+to\s+(?:church|mass|"
                r"temple|the\s+mosque|therapy|the\s+farmers\s+market|the\s+library|dance\s+class|choir(?:\s+practice)?)|go\s+hiking|"
                r"go\s+dancing|go\s+fishing|volunteer(?:\s+at\s+(?:a|an|the|my)\s+[\w ]{2,20}?)?|call\s+my\s+\w+|visit\s+my\s+\w+|"
                r"play\s+(?:tennis|soccer|football|basketball|golf|chess|poker|pickleball|board\s+games|d&d|dnd|video\s+games))\s+"
                r"(?P<freq>every\s+(?:morning|day|night|evening|weekend|\w+day)|(?:twice|three\s+times|\w+\s+times)"
                r"\s+a\s+week|daily|before\s+work|after\s+work)", _b_habit, I),
]
