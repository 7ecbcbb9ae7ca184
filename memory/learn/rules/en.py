"""English extraction rules: profile, preferences, people, moods and feedback.

Every rule is a row in a table: a regex for how people say a thing, and a small function that
turns the match into one atomic third-person sentence with its reconciliation topic. Dated events
live in `memory.learn.rules.events`.
"""
from __future__ import annotations

import re
from memory.learn.rules.apostrophes import loosen_apostrophes  # noqa: F401 - en_life reads it here
from memory.learn.rules.lexicon import alternation, word_set
from memory.learn.rules.common import activity_key, candidate, drop_fillers, norm_object, quote_for, third_person
from memory.learn.rules.registry import Builder, Rule  # noqa: F401 - Builder: the other tables' type
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
TEACH_SUBJECTS = (r"chem(?:istry)?|bio(?:logy)?|physics|math|maths|english|history|science|art|music|spanish|french|german|"
                  r"latin|pe|gym|band|drama|econ(?:omics)?|civics|geography|computer\s+science|cs|social\s+studies|ela|reading|"
                  r"theater|theatre|ceramics|choir|health|algebra|geometry|calculus|stats|statistics|psych(?:ology)?")
TEACH_LEVELS = (r"(?:kindergarten|preschool|elementary(?: school)?|middle school|high school|college|\d+(?:st|nd|rd|th) grade|"
                r"first grade|second grade|third grade|fourth grade|fifth grade|sixth grade|seventh grade|eighth grade|ap)\s+"
                r"(?:" + TEACH_SUBJECTS + r")|chem|bio|econ|maths|geography|drama|social studies|algebra|geometry|calculus|"
                r"seventh grade|eighth grade|"
                r"kindergarten|preschool|pre-k|daycare|elementary(?: school)?|middle school|high school|"
                r"\d+(?:st|nd|rd|th) grade|first grade|second grade|third grade|fourth grade|fifth grade|"
                r"sixth grade|special ed(?:ucation)?|esl|math|science|english|history|art|music|"
                r"chemistry|biology|physics|spanish|french|pe|yoga|piano|swimming")
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


# ---------------------------------------------------------------- profile

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
    name = _name(m["name"])
    if not name:
        return None
    follow = text[m.end():m.end() + 25]
    if m["name"].islower() and not re.match(r"\s*(?:[,.!?;)]|$|please|pls|instead|from\s+now|btw|lol|now|"
                                            r"though|if|and|haha)", follow, I):
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


def _b_age_range(m: re.Match, text: str) -> Candidate | None:
    decade = m.group(0).split("my", 1)[1].strip()
    return candidate("profile", f"Is in their {decade}", _q(m, text), "profile:age")


def _b_job(m: re.Match, text: str) -> Candidate | None:
    job = m["job"].strip()
    art = _article(job)
    where = _where(m)
    return candidate("profile", f"Works as {art} {job}{where}", _q(m, text), "profile:job")


def _where(m: re.Match) -> str:
    where = (m.groupdict().get("where") or "").strip()
    where = re.sub(r"\s+(?:last|this|next)\s+(?:week|month|year)$|\s+(?:now|lol|lately)$", "", where, flags=I)
    return " " + third_person(where) if where else ""


def _b_the_job(m: re.Match, text: str) -> Candidate | None:
    """"I'm the manager at Bloom now, they promoted me": a job said with "the"."""
    if not (re.match(r"[A-Z]", m["org"]) or re.search(r"\b(?:promoted|hired|new\s+job|got\s+the\s+job|took\s+over)\b", text, I)):
        return None
    promoted = " (promoted)" if re.search(r"\bpromoted\b", text, I) else ""
    return candidate("profile", f"Works as the {m['job'].strip()} at {third_person(m['org'].strip())}{promoted}", _q(m, text), "profile:job")


def _b_been_doing(m: re.Match, text: str) -> Candidate | None:
    """"been bartending for 6 years now": the user's trade."""
    how = re.sub(r"\s+", " ", m["how"]).replace("yrs", "years").replace("yr", "year")
    return candidate("profile", f"Has been {m['verb'].lower()} {how}", _q(m, text), "profile:job")


def _b_new_job(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"Works at {third_person(m['org'].strip())} (new job)", _q(m, text), "profile:job")


def _b_dropped_out(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"No longer studying: dropped out of {third_person(m['what'].strip())}", _q(m, text), "profile:study",
                     polarity=-1)


def _b_doing_now(m: re.Match, text: str) -> Candidate | None:
    """"i'm driving for uber now": a job said as what the user does these days."""
    return candidate("profile", f"Is {m['verb'].lower()} {m['prep'].lower()} {m['org'].strip()} now", _q(m, text), "profile:job")


def _b_passed(m: re.Match, text: str) -> Candidate | None:
    """"I finally passed my CPA exam": a qualification the user now holds."""
    if re.search(r"\b(?:hope|hoping|if|think|pray|praying|wish|need\s+to|have\s+to|gotta|want\s+to)\b[^.!?]*$", text[:m.start()], I):
        return None
    what = third_person(m["what"].strip())
    return candidate("profile", f"Passed {what}", _q(m, text), f"profile:credential:{norm_object(m['what'])}")


def _b_job_generic_you(m: re.Match, text: str) -> Candidate | None:
    return _b_job(m, text)


def _b_student(m: re.Match, text: str) -> Candidate | None:
    level = (m.groupdict().get("level") or "").lower()
    who = f"Is a {level} student" if level else "Is a student"
    school = f" at {m['school']}" if m["school"] else ""
    return candidate("profile", f"{who} studying {m['subj'].strip()}{school}", _q(m, text), "profile:job")


def _b_status(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"Is {m['job'].lower()}", _q(m, text), "profile:job")


def _b_promoted(m: re.Match, text: str) -> Candidate | None:
    job = re.sub(r"^(?:a|an|the)\s+", "", m["job"].strip(), flags=I)
    return candidate("profile", f"Works as {job}{_where(m)} (promoted)", _q(m, text), "profile:job")


def _b_not_job(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"No longer works as a {m['job']}", _q(m, text), "profile:job", polarity=-1)


def _article(word: str) -> str:
    return "an" if re.match(r"[aeio]|u(?!x|i\b|ser|ni|ti|r[oa]|s)|8|11\b|18\b|(?-i:RN|LPN|ER|ICU|MRI|NP)\b", word, I) and \
        not re.match(r"eu|one\b", word, I) else "a"


def _b_teach(m: re.Match, text: str) -> Candidate | None:
    level = m["level"].strip()
    return candidate("profile", f"Works as {_article(level)} {level} teacher", _q(m, text), "profile:job")


HYPOTHETICAL_BEFORE = re.compile(r"\b(?:imagine|imagining|never|could|would|wouldn't|couldn't|dream\w*|thinking|think|"
                                 r"considering|consider|about|like|if|what|how|not|want|wanted|wanna|hope|hoping|"
                                 r"plan\w*|become|becoming|try\w*|idea\s+of|instead\s+of|rather)\b\W*(?:\w+\W+)?$", I)


def _b_being_job(m: re.Match, text: str) -> Candidate | None:
    """"being a pharmacist on 4 hrs of sleep ..." said of oneself: the user's job."""
    before = text[max(0, m.start() - 30):m.start()]
    after = text[m.end():m.end() + 25]
    clause = re.split(r"[.!?;,\n]", text[:m.start()])[-1]
    if HYPOTHETICAL_BEFORE.search(before) or re.match(r"\s+(?:must|sounds|seems|looks|would|could|might|is\s+(?:a|the)\s+dream)\b", after, I) \
            or not re.search(r"\b(?:I|I'm|im|my|me)\b", text, I) or \
            re.search(r"\b(?:he|she|they|his|her|their|you|your|my\s+(?:" + RELATIONS + r"))\b|\b[A-Z][a-z]+\s+(?:loves|hates|likes|is)\b", clause, I):
        return None
    return _b_job(m, text)


def _b_job_aside(m: re.Match, text: str) -> Candidate | None:
    """A job given in passing after a first-person work cue: "since i work from home (ux writer, ...)"."""
    before = text[max(0, m.start() - 60):m.start()]
    if not re.search(r"\bI\s+(?:\w+\s+)?(?:work|freelance|started|quit|got\s+hired)\b|\bmy\s+(?:job|work|day\s+job)\b", before, I):
        return None
    return _b_job(m, text)


def _b_job_here(m: re.Match, text: str) -> Candidate | None:
    """"Pharmacist here, ..." / "tired nurse here": the speaker introducing their job."""
    former = re.search(r"\b(?P<w>retired|former|ex-)\s*(?=" + re.escape(m["job"]) + r")", m.group(0), I)
    if former:
        word = "former" if former["w"].lower().startswith("ex") else former["w"].lower()
        return candidate("profile", f"Is a {word} {m['job'].strip()}", _q(m, text), "profile:job")
    return _b_job(m, text)


def _b_job_verb(m: re.Match, text: str) -> Candidate | None:
    verb = m["verb"].lower()
    verb = re.sub(r"\s+", " ", verb)
    verb = {"do": "Does", "teach": "Teaches", "wait tables": "Waits tables", "babysit": "Babysits",
            "work retail": "Works retail"}.get(verb, verb.capitalize() + "s")
    phrase = third_person(drop_fillers(m["rest"].strip()))
    return candidate("profile", f"{verb} {phrase}", _q(m, text), "profile:job")


def _b_shift(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"Works {m['shift']}{_where(m)}", _q(m, text), "profile:job")


def _b_works_at(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"Works at {third_person(drop_fillers(m['org'].strip()))}", _q(m, text), "profile:job")


def _b_quit_job(m: re.Match, text: str) -> Candidate | None:
    verb = {"lost": "Lost"}.get(m["verb"].lower(), "Quit")
    return candidate("profile", f"{verb} their job", _q(m, text), "profile:job", polarity=-1)


def _b_city(m: re.Match, text: str) -> Candidate | None:
    capitalised = re.match(r"[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)*(?:,\s*[A-Z]{2}\b)?", m["place"].strip())
    if not capitalised:
        return None
    place = capitalised.group(0).rstrip(".")
    same = re.search(r"\b(?:still|also)\s+(?:in\s+)?(?P<c>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)?)", text[m.end():])
    if same and same["c"] not in place:
        place += ", " + same["c"]
    moved = m.groupdict().get("moved")
    content = f"Lives in {place}" + (" (moved recently)" if moved else "")
    return candidate("profile", content, _q(m, text), "profile:city")


INTRO = re.compile(r"\b(?:I'm|I\s+am|im|name's|my\s+name\s+is|this\s+is)\s+[A-Z][a-z]+|\bintro\b|\babout\s+me\b|"
                   r"\b(?:quick|some)\s+background\b|\bmyself\s*:", I)


def _b_intro_job(m: re.Match, text: str) -> Candidate | None:
    if not INTRO.search(text):
        return None
    job = m["job"].strip()
    art = "an" if job[:1].lower() in "aeiou" and not re.match(r"U[A-Z]|u[bns]i|eu", job) else "a"
    return candidate("profile", f"Works as {art} {job} {m['prep'].lower()} {m['place']}", _q(m, text).lstrip(", "), "profile:job")


def _b_intro_city(m: re.Match, text: str) -> Candidate | None:
    if not INTRO.search(text) or m["prep"].lower() != "in":
        return None
    return candidate("profile", f"Lives in {m['place']}", _q(m, text), "profile:city")


def _b_intro_bare(m: re.Match, text: str) -> Candidate | None:
    if not INTRO.search(text):
        return None
    if m["parent"]:
        return candidate("relationship", f"Is a {m['parent'].lower()}", _q(m, text).lstrip(", "), "relationship:status")
    job = m["job"].strip()
    art = "an" if job[:1].lower() in "aeiou" and not re.match(r"U[A-Z]|u[bns]i|eu", job) else "a"
    return candidate("profile", f"Works as {art} {job}", _q(m, text).lstrip(", "), "profile:job")


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


def _b_sleep(m: re.Match, text: str) -> Candidate | None:
    span = f"{m['a'].strip()} to {m['b'].strip()}"
    return candidate("profile", f"Usually sleeps from {span}", _q(m, text), "profile:routine:sleep")


def _b_wake(m: re.Match, text: str) -> Candidate | None:
    what = re.sub(r"\s+", " ", m["what"].lower())
    verb, _, rest = what.partition(" ")
    verb = {"go": "goes", "get": "gets", "wake": "wakes", "fall": "falls"}[verb]
    kind = "wake" if what in ("wake up", "get up") else "bed"
    tail = (m["tail"] or "").strip()
    content = f"Usually {verb} {rest} at {m['t'].strip()}" + (f" {tail}" if tail else "")
    return candidate("profile", content, _q(m, text), f"profile:routine:{kind}")


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
    Rule("en.profile.name.2", "en", "profile", 1010,
         r"(?i:\b(?:it's|its|it\s+is|name's)\s+)(?P<name>[A-Z][a-z]+)\b(?=\s+with\s+an?\s+[A-Z]\b|,?\s+not\s+[A-Z][a-z]+)", _b_name),
    Rule("en.profile.name.3", "en", "profile", 1020,
         r"(?i:(?:^|[.!?:,]\s*)(?:my\s+)?(?:name's|names|name\s+is)\s+)(?P<name>[A-ZÀ-Þ][a-zß-ÿ]+)(?![\w'])", _b_name),
    Rule("en.profile.name.4", "en", "profile", 1030,
         r"(?i:\b(?:I'm|I\s+am|im|this\s+is)\s+)(?P<name>[A-ZÀ-Þ][a-zß-ÿ]+)"
                r"(?=\s*(?:[,.!?;)]|—|–|-|$)|\s+(?i:btw|by the way|here|lol|haha|and|from|\())", _b_name),
    Rule("en.profile.address", "en", "profile", 1040,
         r"\b(?:call|calls|calling)\s+me\s+(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof|Professor|Coach|Doctor|Captain|Miss)\.?\s+)?"
                r"[A-Za-z][\w-]*)", _b_address, I),
    Rule("en.profile.address.2", "en", "profile", 1050,
         r"\bI(?:'ve|\s+have|'m|\s+am)?\s+(?:started\s+|been\s+|now\s+|actually\s+|mostly\s+)*(?:go|going|prefer\s+to\s+go|want\s+to\s+go|wanna\s+go)\s+by\s+"
                r"(?P<name>(?-i:[A-Z])[\w-]*)", _b_address, I),
    Rule("en.feedback.no_address", "en", "feedback", 1060,
         r"\b(?:don'?t|do\s+not|never|stop|quit|not)\s+(?:\w+\s+)?(?:call|calling)\s+me\s+"
                r"(?P<name>[\w'-]+(?:\s+[\w'-]+)?)(?=\s*(?:[,.!?;]|$)|\s+(?:anymore|please|again|ok|it)\b)", _b_no_address, I),
    Rule("en.profile.age", "en", "profile", 1070,
         r"\b(?:I'm|I\s+am|im)\s+(?P<age>[1-9]\d)(?:\s*(?:years?\s+old|yrs?\s+old|yo|y/o))?"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:years|yrs|yo|and|now|btw|this year)\b)", _b_age, I),
    Rule("en.profile.age.2", "en", "profile", 1080,
         r"(?i:\b(?:I'm|I\s+am|im)\s+)[A-Z][a-z]+\s*,\s*(?P<age>[1-9]\d)(?=\s*(?:[,.!?;]|$|years|yo))", _b_age),
    Rule("en.profile.age.3", "en", "profile", 1090,
         r"\bI\s+(?:just\s+)?turned\s+(?P<age>[1-9]\d)\b", _b_age, I),
    Rule("en.profile.age_range", "en", "profile", 1100,
         r"\bin\s+my\s+(?P<dec>(?:early|mid|late)[\s-]+)?(?:twenties|thirties|forties|fifties|sixties|"
                r"[2-6]0s)\b", _b_age_range, I),
    Rule("en.profile.not_job", "en", "profile", 1110,
         r"\bI(?:'m|\s+am)\s+(?:not|no longer)\s+(?:a|an)\s+(?P<job>" + JOBS + r")\b"
                r"(?:\s+(?:anymore|any more))?", _b_not_job, I),
    Rule("en.profile.job", "en", "profile", 1120,
         r"\b(?:I'm|I\s+am|im)\s+(?:(?:now|currently|actually|still|officially|finally|technically|also)\s+)*(?:a|an)\s+"
                r"(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))\b"
                r"(?P<where>\s+(?:at|for|in|to|with)\s+(?:(?:St|Mt|Ft|Dr)\.\s*)?[^,.!?;\n]{2,40}?)?(?=\s*(?:[,.!?;)]|—|$)|\s+(?:and|but|so|lol|now)\b)", _b_job, I),
    Rule("en.profile.job.2", "en", "profile", 1130,
         r"(?:\bI(?:'ve|\s+have)\s+|(?:^|[.!?,]\s*)|\bbut\s+|\band\s+)been\s+(?:a|an)\s+(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))"
                r"\s+(?:for|since)\s+", _b_job, I),
    Rule("en.profile.job.3", "en", "profile", 1140,
         r"(?:^|[.!?,]\s*)(?:(?:and|so|now)\s+)?(?:(?:now|finally|officially)\s+)+(?:a|an)\s+(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))"
                r"(?=\s*(?:[,.!?;)]|$)|\s+(?:and|but|so|lol|now)\b|\s*[^\w\s])", _b_job, I),
    Rule("en.profile.job.4", "en", "profile", 1150,
         r"\bbeing\s+(?:a|an)\s+(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))\s+(?:is|has\s+been|can\s+be|was)\b", _b_job, I),
    Rule("en.profile.being_job", "en", "profile", 1160,
         r"\bbeing\s+(?:a|an)\s+(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))\s+(?=(?:on|with|during|through|at|in|while|"
                r"after|before|this|these|today|right\s+now|lately)\b)", _b_being_job, I),
    Rule("en.profile.job_aside", "en", "profile", 1170,
         r"\(\s*(?:(?:a|an)\s+)?(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))\s*(?=[,;)]|\s+(?:aka|btw|lol)\b)", _b_job_aside, I),
    Rule("en.profile.job_here", "en", "profile", 1180,
         r"(?:^|[.!?]\s+)(?:(?:hi|hey|hello|ok|so|yeah)[,!]?\s+)?(?:(?:(?:just\s+)?(?:a|an)|fellow|tired|exhausted|burnt[- ]out|"
                r"burned[- ]out|overworked|retired|former|ex-|new|lonely|sleepy|broke)\s*)?(?P<job>(?:[\w-]+\s+){0,1}?(?:" + JOBS + r"))\s+here\b(?!\s*\?)"
                r"(?!\s+(?:is|was|are|were|said|says|told|and\s+there|at|in|to|for))", _b_job_here, I),
    Rule("en.profile.the_job", "en", "profile", 1190,
         r"\b(?:I'm|I\s+am|im)\s+(?:(?:now|officially|finally|currently)\s+)?the\s+(?:new\s+)?(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))"
                r"\s+(?:at|of|for)\s+(?P<org>(?:(?:a|an|the|my|our)\s+)?[\w'&.-]+(?:\s+[\w'&.-]+){0,3}?)(?=\s*(?:[,.!?;)]|$)|\s+(?:now|and|but|so|lol)\b)", _b_the_job, I),
    Rule("en.profile.address.3", "en", "profile", 1200,
         r"\bI(?:'d|\s+would)\s+(?:much\s+)?(?:rather|prefer\s+to|like\s+to)\s+(?:be\s+called|go\s+by)\s+(?P<name>(?-i:[A-Z])[\w-]*)", _b_address, I),
    Rule("en.profile.dropped_out", "en", "profile", 1210,
         r"\bI\s+(?:(?:just|finally|officially|basically)\s+)*dropped\s+out\s+of\s+(?P<what>(?:law|med|grad|nursing|high|art|"
                r"film|culinary|medical|graduate|beauty)\s+school|college|uni|university|my\s+(?:phd|ph\.d\.?|masters|master's|program|degree|"
                r"course|bootcamp|apprenticeship))\b", _b_dropped_out, I),
    Rule("en.profile.doing_now", "en", "profile", 1220,
         r"\bI(?:'m|\s+am)\s+(?:(?:now|currently|just|basically)\s+)?(?P<verb>driving|delivering|working|bartending|waitressing|"
                r"nannying|tutoring|freelancing|cleaning|dog\s+walking|waiting\s+tables)\s+(?P<prep>for|at)\s+(?P<org>(?-i:[A-Z])[\w'&.-]*"
                r"(?:\s+(?-i:[A-Z])[\w'&.-]*){0,2}|uber|lyft|doordash|instacart|amazon|grubhub|ubereats|deliveroo)"
                r"(?=\s+(?:now|full[- ]time|part[- ]time|these\s+days|for\s+now)\b)", _b_doing_now, I),
    Rule("en.profile.passed", "en", "profile", 1230,
         r"\bI\s+(?:(?:finally|officially|just|actually|totally)\s+)*(?:passed|aced|cleared)\s+(?P<what>(?:my|the)\s+(?:[\w-]+\s+){0,3}?"
                r"(?:exams?|boards|bar(?:\s+exam)?|license|licensing\s+exam|certification|cert|driving\s+test|road\s+test|"
                r"(?:NCLEX|MCAT|LSAT|CPA|step\s+[123]|qualifying|quals)(?:\s+exams?)?|defen[cs]e))\b(?!\s+(?:exam|test))", _b_passed, I),
    Rule("en.profile.job.5", "en", "profile", 1240,
         r"\bI\s+(?:really\s+|absolutely\s+|honestly\s+)*(?:love|like|enjoy|hate|miss)\s+being\s+(?:a|an)\s+"
                r"(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))\b(?!\s+(?:friend|mom|dad|parent|sister|brother|kid))", _b_job, I),
    Rule("en.profile.job_verb", "en", "profile", 1250,
         r"\bI\s+(?P<verb>run|own|manage)\s+(?P<rest>(?:a|an|my\s+own|our|the)\s+(?:[\w-]+\s+){0,2}?(?:bakery|cafe|café|"
                r"shop|store|business|restaurant|company|studio|salon|gym|practice|farm|bar|boutique|agency|startup|firm|"
                r"clinic|daycare|food\s+truck|bookstore|coffee\s+shop)(?:\s+(?:downtown|in\s+[A-Z][\w-]+|online|from\s+home))?)", _b_job_verb, I),
    Rule("en.profile.job.6", "en", "profile", 1260,
         r"\b(?:got|started|landed|accepted|took|start)\s+(?:a|my|the)\s+(?:new\s+)?(?:job|position|role)\s+as\s+"
                r"(?:a|an)\s+(?P<job>[^,.!?;\n]{2,40}?)(?P<where>\s+(?:at|for|in)\s+[^,.!?;\n]{2,40}?)?"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|last|this|today|yesterday)\b)", _b_job, I),
    Rule("en.profile.job_generic_you", "en", "profile", 1270,
         r"(?:^|[,.!?;]\s*|\bwhen\s+you're\s+|\bwhen\s+you\s+are\s+)(?:as|being)?\s*(?:a|an)\s+(?P<job>(?:[\w-]+\s+){0,2}?"
                r"(?:" + JOBS + r"))(?=\s*,\s*I\b|\s*$|\s*[.!?])", _b_job_generic_you, I),
    Rule("en.profile.student", "en", "profile", 1280,
         r"\b(?:a|an)\s+(?P<level>freshman|sophomore|junior|senior|first-year|second-year|third-year|final-year|grad|"
                r"graduate|phd|master's|undergrad|college|university|nursing|med|law)\s*(?:student\s+)?(?:studying|majoring\s+in)\s+"
                r"(?P<subj>[\w ]{2,30}?)(?:\s+at\s+(?P<school>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*))?(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol)\b)", _b_student, I),
    Rule("en.profile.student.2", "en", "profile", 1290,
         r"(?i:\bI(?:'m|\s+am)?\s+(?:currently\s+)?(?:studying|majoring\s+in|study)\s+)(?P<subj>[\w ]{2,30}?)\s+at\s+"
                r"(?P<school>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*)*)", _b_student),
    Rule("en.profile.status", "en", "profile", 1300,
         r"\bI(?:'m|\s+am)\s+(?:now\s+|finally\s+|officially\s+)?(?P<job>retired|unemployed|between\s+jobs|self-employed)\b", _b_status, I),
    Rule("en.profile.job.7", "en", "profile", 1310,
         r"\bI\s+work\s+(?:from\s+home\s+|remotely\s+|part[- ]time\s+|full[- ]time\s+|freelance\s+)?as\s+(?:a|an)\s+"
                r"(?P<job>[^,.!?;\n]{2,40}?)"
                r"(?P<where>\s+(?:at|for|in)\s+[^,.!?;\n]{2,40}?)?(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so)\b)", _b_job, I),
    Rule("en.profile.promoted", "en", "profile", 1320,
         r"\b(?:they|my boss|my manager|they've)\s+(?:just\s+)?(?:made|promoted)\s+me\s+(?:to\s+)?"
                r"(?P<job>(?:a\s+|an\s+|the\s+)?[\w -]{2,30}?)(?P<where>\s+(?:at|for|in)\s+[^,.!?;\n]{2,40}?)?"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:last|this|yesterday|today|and|but|lol)\b)", _b_promoted, I),
    Rule("en.profile.promoted.2", "en", "profile", 1330,
         r"\bI\s+(?:just\s+)?got\s+promoted\s+to\s+(?P<job>[\w -]{2,30}?)"
                r"(?P<where>\s+(?:at|for|in)\s+[^,.!?;\n]{2,40}?)?(?=\s*(?:[,.!?;]|$)|\s+(?:last|this|and|but)\b)", _b_promoted, I),
    Rule("en.profile.teach", "en", "profile", 1340,
         r"\b(?:I\s+teach|teaching)\s+(?P<level>" + TEACH_LEVELS + r")\b(?!\s+(?:myself|to\s+my))", _b_teach, I),
    Rule("en.profile.job_verb.2", "en", "profile", 1350,
         r"\bI\s+(?P<verb>do|run|manage|own)\s+(?P<rest>(?:the\s+|a\s+|an\s+|my\s+own\s+)?[\w-]+(?:\s+[\w-]+)?"
                r"\s+(?:for|at)\s+[^,.!?;\n]{2,50}?)(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol)\b)", _b_job_verb, I),
    Rule("en.profile.job.8", "en", "profile", 1360,
         r"(?:^|[.!?,;]\s*)as\s+(?:a|an)\s+(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))\s*,?\s+(?=(?:I|I'm|I've|we)\b)", _b_job, I),
    Rule("en.profile.been_doing", "en", "profile", 1370,
         r"(?:\bI(?:'ve|\s+have)\s+|(?:^|[.!?,;]\s*))been\s+(?P<verb>bartending|waitressing|waiting\s+tables|nannying|tutoring|teaching|"
                r"nursing|freelancing|bartending|serving|driving\s+for\s+[A-Z]\w+|cooking\s+professionally|coding\s+professionally|"
                r"cutting\s+hair|doing\s+hair|doing\s+nails)\s+(?P<how>for\s+(?:\d{1,2}|a\s+few|a\s+couple|two|three|four|five|six|seven|"
                r"eight|nine|ten|fifteen|twenty)\+?\s+(?:yrs?|years?)|since\s+(?:19|20)\d\d)", _b_been_doing, I),
    Rule("en.profile.job_verb.3", "en", "profile", 1380,
         r"\bI\s+(?P<verb>drive|cook|write|code|design|clean|deliver|bartend|volunteer|nanny|tutor|edit|build|teach|"
                r"wait\s+tables|work\s+retail|"
                r"waitress|babysit|coach|serve)\s+"
                r"(?P<rest>(?:[\w-]+\s+)?(?:for|at)\s+(?:(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(?:company|firm|agency|startup|hospital|"
                r"school|restaurant|bank|store|shop|cafe|bar|pub|brewery|diner|hotel|magazine|newspaper|studio|nonprofit|charity|clinic|"
                r"warehouse|app|service|college|university|academy|daycare|gym|salon|club|lounge|bistro|bakery)|(?-i:[A-Z])[\w'&-]*"
                r"(?:\s+(?-i:[A-Z])[\w'&-]*)*)(?:\s+(?:in|downtown\s+in)\s+(?-i:[A-Z])[\w'.-]*(?:\s+(?-i:[A-Z])[\w'.-]*)?)?)", _b_job_verb, I),
    Rule("en.profile.job_verb.4", "en", "profile", 1390,
         r"\bI\s+(?:(?:still|currently|now|mostly|just)\s+)?(?P<verb>work)\s+(?P<rest>(?:the\s+)?(?:front\s+desk|register|"
                r"cash\s+register|counter|reception|door|bar|kitchen|grill|fryer|floor|help\s+desk|deli\s+counter|night\s+desk|drive[- ]thru|"
                r"checkout|phones)\s+(?:at|for|in)\s+(?:(?:a|an|the|my)\s+)?[\w'&-]+(?:\s+[\w'&-]+){0,3}?)"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol|now|mostly)\b)", _b_job_verb, I),
    Rule("en.profile.city", "en", "profile", 1400,
         r"(?:^|[.!?,]\s*)(?:currently\s+|now\s+)?(?P<how>living|based)\s+in\s+"
                r"(?P<place>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})", _b_city),
    Rule("en.profile.job.9", "en", "profile", 1410,
         r"(?i:(?:^|[.!?,]\s*)(?:currently\s+|now\s+)?working\s+as\s+(?:a|an)\s+)(?P<job>[^,.!?;\n]{2,40}?)"
                r"(?P<where>\s+(?:at|for|in)\s+[^,.!?;\n]{2,40}?)?(?=\s*(?:[,.!?;]|$))", _b_job),
    Rule("en.profile.name.5", "en", "profile", 1420,
         r"(?i:^|[.!?,]\s*)(?P<name>[A-Z][a-z]+)\s+here\b(?!\s+(?:is|was|and|in|at|for|to))", _b_name),
    Rule("en.profile.shift", "en", "profile", 1430,
         r"\bI\s+work\s+(?P<shift>nights|night\s+shifts?|the\s+night\s+shift|overnights|evenings|weekends|"
                r"early\s+mornings|double\s+shifts|12-hour\s+shifts|the\s+graveyard\s+shift|graveyard)(?P<where>\s+(?:at|for|in)\s+[^,.!?;\n]{2,50}?)?"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol)\b)", _b_shift, I),
    Rule("en.profile.works_at", "en", "profile", 1440,
         r"(?i:\bI\s+(?:also\s+|currently\s+|now\s+)?work\s+(?:remotely\s+|part[- ]time\s+|full[- ]time\s+|from\s+home\s+)?(?:at|for)\s+)"
                r"(?P<org>(?i:a|an|the)\s+[^,.!?;\n]{2,40}?|[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*)*)"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol|now|as)\b)", _b_works_at),
    Rule("en.profile.quit_job", "en", "profile", 1450,
         r"\bI\s+(?:just\s+)?(?P<verb>quit|left|lost)\s+my\s+job\b", _b_quit_job, I),
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
    Rule("en.profile.city.5", "en", "profile", 1490,
         r"(?i:\bI(?:'m|\s+am)\s+(?:currently\s+|now\s+)?in\s+)(?!(?:IT|HR|Sales|Marketing|Finance|Love|Grade|Year|Class|School)\b)"
                r"(?P<place>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})(?=\s*,\s*[A-Z]|\s*[.!]*\s*$|\s+(?i:btw|these\s+days)\b)", _b_city),
    Rule("en.profile.intro_job", "en", "profile", 1500,
         INTRO_FRAGMENT, _b_intro_job),
    Rule("en.profile.intro_city", "en", "profile", 1510,
         INTRO_FRAGMENT, _b_intro_city),
    Rule("en.profile.intro_bare", "en", "profile", 1520,
         r"(?:^|[,:;]\s*)(?:(?P<parent>(?i:(?:single\s+)?(?:mom|mum|dad|mother|father|parent)\s+of\s+"
                r"(?:one|two|three|four|five|\d)(?:\s+(?:kids|boys|girls))?))|(?:(?i:a|an)\s+)?(?P<job>(?:[\w-]+\s+){0,2}?(?i:" + JOBS + r")))"
                r"(?=\s*(?:[,;.!]|$))", _b_intro_bare),
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
    Rule("en.profile.sleep", "en", "profile", 1570,
         r"\bI(?:'m|\s+am)?\s+(?:usually|normally|typically|always|mostly)\s+(?:asleep|sleeping|in\s+bed|sleep)\s+"
                r"(?:from\s+)?(?:like\s+|around\s+|about\s+)?(?P<a>\d{1,2}(?::\d\d)?\s*(?:am|pm)?)\s*"
                r"(?:to|-|–|till|until)\s*(?P<b>\d{1,2}(?::\d\d)?\s*(?:am|pm)?)", _b_sleep, I),
    Rule("en.profile.wake", "en", "profile", 1580,
         r"\bI\s+(?:usually\s+|normally\s+|always\s+|typically\s+)?(?:now\s+)?(?P<what>wake\s+up|get\s+up|go\s+to\s+bed|"
                r"go\s+to\s+sleep|fall\s+asleep)\s+(?:at|around|by|before)\s+(?:like\s+)?(?P<t>\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|"
                r"p\.m\.)?)(?P<tail>\s+(?:now|these\s+days|every\s+day|on\s+weekdays|most\s+days))?", _b_wake, I),
    Rule("en.profile.chronotype", "en", "profile", 1590,
         r"\bI(?:'m|\s+am)\s+(?:such\s+|totally\s+|definitely\s+|more\s+of\s+)?(?:a|an)\s+"
                r"(?P<kind>morning|night|early)\s+(?:person|bird)|\bI(?:'m|\s+am)\s+(?:(?:a|such|total|totally|huge|complete|massive|big|"
                r"definitely|a\s+bit\s+of|kind\s+of|kinda)\s+)*(?P<owl>night\s+owl)", _b_chronotype, I),
    Rule("en.profile.chronotype.2", "en", "profile", 1600,
         r"\bI(?:'ve|\s+have)?\s+(?:(?:somehow|weirdly|actually|slowly|officially)\s+)*(?:become|turned\s+into)\s+(?:a|an)\s+"
                r"(?:(?:total|real|full-on|proper)\s+)?(?:(?P<kind>morning|night|early)\s+(?:person|bird)|(?P<owl>night\s+owl))", _b_chronotype, I),
    Rule("en.profile.new_job", "en", "profile", 1610,
         r"(?:\bI\s+(?:just\s+|finally\s+|officially\s+)?|(?:^|[.!?]\s*)(?:just\s+|finally\s+)?)(?:got|landed|started|accepted|took)\s+"
                r"(?:a|the)\s+(?:new\s+)?(?:job|position|gig|role)\s+(?:at|with)\s+(?P<org>(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*){0,3}"
                r"|(?:a|an|the)\s+[\w'&-]+(?:\s+[\w'&-]+){0,2}?)(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol|as|starting|next)\b)", _b_new_job, I),
    Rule("en.profile.habit", "en", "profile", 1620,
         r"\bI\s+(?:usually\s+|always\s+|try\s+to\s+|still\s+)?(?P<act>go\s+to\s+the\s+gym|hit\s+the\s+gym|run|swim|meditate|work\s+out|"
                r"do\s+yoga|go\s+running|go\s+swimming|go\s+climbing|bike\s+to\s+work|journal|walk\s+my\s+dog|go\s+to\s+(?:church|mass|"
                r"temple|the\s+mosque|therapy|the\s+farmers\s+market|the\s+library|dance\s+class|choir(?:\s+practice)?)|go\s+hiking|"
                r"go\s+dancing|go\s+fishing|volunteer(?:\s+at\s+(?:a|an|the|my)\s+[\w ]{2,20}?)?|call\s+my\s+\w+|visit\s+my\s+\w+|"
                r"play\s+(?:tennis|soccer|football|basketball|golf|chess|poker|pickleball|board\s+games|d&d|dnd|video\s+games))\s+"
                r"(?P<freq>every\s+(?:morning|day|night|evening|weekend|\w+day)|(?:twice|three\s+times|\w+\s+times)"
                r"\s+a\s+week|daily|before\s+work|after\s+work)", _b_habit, I),
]


# ---------------------------------------------------------------- feedback to the companion

def _request_content(req: str) -> str:
    req = third_person(drop_fillers(req.split(",")[0].strip(" ?!.")))
    req = re.sub(r"\byour\b", "its", re.sub(r"\byourself\b", "itself", req, flags=I), flags=I)
    req = re.sub(r"\s+(?:lol|lmao|haha\w*|pls|please|ok|okay)$", "", req, flags=I)
    neg = re.match(r"(?:don't|do\s+not|never)\s+(?P<rest>.+)", req, I)
    if neg:
        return f"Does not want the companion to {neg['rest']}"
    if re.match(r"(?:no\s+more|less|fewer|no)\b", req, I):
        return f"Wants {req}"
    return f"Wants the companion to {req}"


def _b_request(m: re.Match, text: str) -> Candidate | None:
    req = m["req"]
    quoted = re.search(r"\b(?:saying|using|writing|typing)\s+['\"“‘]", req, I)
    if not (STYLE_NOUN.search(req) or quoted) or re.search(r"\bcall(?:ing)?\s+me\b", req, I):
        return None
    topic = f"feedback:phrase:{quoted_words.group(1).lower()}" if (quoted_words := re.search(
        r"['\"“‘]([^'\"”’]{2,40})['\"”’]", req)) else style_topic(req)
    return candidate("feedback", _request_content(req), _q(m, text), topic)


def _b_no_need(m: re.Match, text: str) -> Candidate | None:
    """"You don't have to be so formal" asks the companion not to be."""
    req = re.sub(r"\b(?:w|with)\s+me\b", "with me", m["req"], flags=I)
    if not STYLE_NOUN.search(req):
        return None
    return candidate("feedback", _request_content("don't " + req), _q(m, text), style_topic(req), polarity=-1)


def _b_allowed(m: re.Match, text: str) -> Candidate | None:
    what = re.sub(r"\s+", " ", m["what"].lower())
    return candidate("feedback", f"Is fine with {what}", _q(m, text), style_topic(what))


def _b_rather_you(m: re.Match, text: str) -> Candidate | None:
    req = third_person(drop_fillers(m["req"].split(",")[0].strip(" .!?")))
    req = re.sub(r"^(?:didn't|did\s+not|don't|wouldn't|would\s+not)\s+", "not ", req, flags=I)
    return candidate("feedback", f"Would rather the companion {req}", _q(m, text), style_topic(req))


def _b_hate_when_you(m: re.Match, text: str) -> Candidate | None:
    what = third_person(drop_fillers(m["what"].strip(" .!?")))
    return candidate("feedback", f"Dislikes it when the companion {what}", _q(m, text), style_topic(what), polarity=-1)


def _b_prefers_style(m: re.Match, text: str) -> Candidate | None:
    what = third_person(m["what"].strip())
    return candidate("feedback", f"Prefers {what}", _q(m, text), style_topic(what))


def _b_too_many(m: re.Match, text: str) -> Candidate | None:
    what = m["x"].strip()
    if not STYLE_NOUN.search(what):
        return None
    return candidate("feedback", f"Finds the companion uses too many {what}", _q(m, text), style_topic(what))


def _b_your_messages(m: re.Match, text: str) -> Candidate | None:
    adj = re.sub(r"^too\s+", "", m["adj"].lower())
    return candidate("feedback", f"Finds the companion's {m['what'].lower()} too {adj}", _q(m, text), style_topic(adj))


def _b_too_much(m: re.Match, text: str) -> Candidate | None:
    what = m["what"].lower()
    topic = {"joke": "feedback:humor", "apologise": "feedback:apologies", "apologize": "feedback:apologies"}.get(what, "feedback:length")
    verb = what + ("s" if not what.endswith("e") else "s")
    return candidate("feedback", f"Finds the companion {verb} too much", _q(m, text), topic)


def _b_too_adj(m: re.Match, text: str) -> Candidate | None:
    adj = m["adj"].lower()
    return candidate("feedback", f"Finds the companion too {adj}", _q(m, text), style_topic(adj) if STYLE_NOUN.search(adj) else
                     "feedback:tone")


REQ_VERBS = (r"(?:stop|quit|avoid|not|start|try\s+to|tone\s+down|chill(?:\s+out)?\s+(?:on|with)|ease\s+off(?:\s+on)?|"
             r"dial\s+(?:it\s+)?(?:back|down)(?:\s+on)?|go\s+lighter\s+on|lighten\s+up\s+on|type|tone\s+it\s+down\s+with|cut\s+(?:down|back)\s+on|"
             r"cut\s+out|use\s+(?:less|fewer|more)|be\s+(?:more|less)|keep|go\s+easy\s+on|lay\s+off|ease\s+up\s+on|"
             r"skip|drop|ditch|lose|limit|write|answer|reply|respond|talk|speak|send|use|give)\b")
FEEDBACK_RULES: list[Rule] = [
    Rule("en.feedback.request", "en", "feedback", 2000,
         r"\b(?:can|could|would|will)\s+(?:you|u|ya)\s+(?:please\s+|plz\s+|maybe\s+|pls\s+|just\s+|kindly\s+|try\s+and\s+)*"
                r"(?P<req>" + REQ_VERBS + r"[^?.!\n]*)", _b_request, I),
    Rule("en.profile.job.10", "en", "profile", 2010,
         r"\b(?P<job>(?:[\w-]+\s+)?(?:" + JOBS + r"))\s+life\b(?!\s+(?:insurance|coach))", _b_job, I),
    Rule("en.feedback.request.2", "en", "feedback", 2020,
         r"\b(?:you\s+can|feel\s+free\s+to)\s+(?:just\s+|totally\s+)?"
                r"(?P<req>(?:drop|lose|skip|ditch|relax|stop|cut|be)\b[^?.!\n,]*)", _b_request, I),
    Rule("en.feedback.no_need", "en", "feedback", 2030,
         r"\b(?:(?:you|u|ya)\s+(?:don't|dont|do\s+not)\s+(?:have|need)\s+to|no\s+need\s+to)\s+(?:always\s+|just\s+)?"
                r"(?P<req>(?:be|use|say|ask|apologi[sz]e|sugarcoat|write|add|end|start|keep|give|send)\b[^?.!\n,]*)", _b_no_need, I),
    Rule("en.feedback.allowed", "en", "feedback", 2040,
         r"\b(?P<what>swearing|cursing|profanity|emojis?|slang|sarcasm|dark\s+humou?r|long\s+(?:messages|answers|replies)|"
                r"memes|bad\s+words)\s+(?:is|are)\s+(?:(?:totally|completely|honestly|actually|also|100%)\s+)?(?:fine|ok|okay|welcome|"
                r"allowed|cool)\b", _b_allowed, I),
    Rule("en.feedback.request.3", "en", "feedback", 2050,
         r"(?:^|[.!?:]\s*|,\s*|\b(?:also|and|oh|but|so|pls|please|ok|okay|dude|bro|man|omg|hey|yo|seriously|ugh|lol|"
                r"girl|babe|bestie)\s+)(?:please\s+|pls\s+|just\s+|can\s+we\s+)?"
                r"(?P<req>(?:stop|quit|don't|do\s+not|never|avoid|tone\s+down|tone\s+it\s+down\s+(?:with|on)|go\s+easy\s+on|ease\s+up\s+on|lay\s+off|"
                r"chill(?:\s+out)?\s+(?:on|with)|dial\s+(?:it\s+)?(?:back|down)\s+on|ease\s+off(?:\s+on)?|go\s+lighter\s+on|"
                r"lighten\s+up\s+on|hold\s+off\s+on|less|fewer|no\s+more|no(?=\s+[\w\s-]{2,30}?\s+please)|cut\s+(?:out|back\s+on|"
                r"down\s+on)|keep|be\s+(?:more|less)|use\s+(?:less|fewer|more))\b[^?.!\n]*)", _b_request, I),
    Rule("en.feedback.rather_you", "en", "feedback", 2060,
         r"\bI(?:'d|\s+would)\s+(?:rather|prefer)\s+(?:it\s+if\s+)?you\s+(?P<req>(?:didn't|did\s+not|don't|not|wouldn't|"
                r"stopped|used|kept|were|just|talked|spoke|asked)\b[^.!?\n]*)", _b_rather_you, I),
    Rule("en.feedback.hate_when_you", "en", "feedback", 2070,
         r"\bI\s+(?:really\s+)?(?:hate|dislike|don't\s+like|can't\s+stand)\s+(?:it\s+)?when\s+you\s+(?P<what>[^.!?,\n]{3,60})", _b_hate_when_you, I),
    Rule("en.feedback.prefers_style", "en", "feedback", 2080,
         r"\bI\s+(?:prefer|like|want|need|'d\s+prefer|would\s+prefer|'d\s+like|would\s+like|'d\s+rather\s+have)\s+"
                r"(?P<what>(?:shorter|short|longer|brief|briefer|fewer|less|more|no|simpler)\s+(?:answers|replies|"
                r"responses|messages|texts|emojis|questions|jokes|advice)[^,.!?;\n]*)", _b_prefers_style, I),
    Rule("en.feedback.your_messages", "en", "feedback", 2090,
         r"\byour\s+(?P<what>messages|replies|answers|responses|texts)\s+are\s+(?:(?:way|too|so|really|a\s+bit|kinda|"
                r"getting|always)\s+)*(?P<adj>too\s+long|long|too\s+short|too\s+formal|formal|too\s+wordy|wordy|too\s+cheesy|"
                r"cheesy|robotic|repetitive|too\s+much)\b", _b_your_messages, I),
    Rule("en.feedback.too_much", "en", "feedback", 2100,
         r"\byou\s+(?:always\s+|sometimes\s+|kinda\s+|honestly\s+)?(?P<what>talk|ramble|write|text|apologi[sz]e|joke)\s+"
                r"(?:(?:way|a\s+bit|a\s+little|kinda|so\s+much)\s+)?too\s+much\b(?![^.!\n]*\?)", _b_too_much, I),
    Rule("en.feedback.too_adj", "en", "feedback", 2110,
         r"\byou(?:'re|\s+are|\s+sound)\s+(?:being\s+)?(?:(?:way|a\s+bit|a\s+little|kinda|so|sometimes|always)\s+)*too\s+"
                r"(?P<adj>formal|wordy|long-winded|cheery|chipper|peppy|serious|robotic|preachy|pushy|intense|clinical|stiff|"
                r"fake|cheesy|dramatic|repetitive)\b", _b_too_adj, I),
    Rule("en.feedback.too_many", "en", "feedback", 2120,
         r"\byou\s+(?:always\s+|keep\s+)?(?:ask|use|say|send|make|give|add)(?:ing)?\s+(?:way\s+)?too\s+"
                r"(?:many|much)\s+(?P<x>[\w\s]{2,25}?)(?=\s*(?:[,.!?;]|$))", _b_too_many, I),
]
