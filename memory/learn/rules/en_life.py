"""English extraction rules for everyday life: routines, studies, health, hobbies and how things
stand with the people the user talks about (without a relation word: "Jordan and I aren't speaking").

Same shape as the other rule tables: a regex for how people say a thing, and a small function that
turns the match into one atomic third-person sentence with its reconciliation topic.
"""
from __future__ import annotations

import re
from datetime import date

from memory.dates import find_dates
from memory.learn.rules.apostrophes import loosen_apostrophes
from memory.learn.rules.common import ACTIVITIES, candidate, drop_fillers, norm_object, third_person
from memory.learn.rules.en import OBJ, PETS, RELATIONS, I, _ok_obj, _q
from memory.learn.rules.en_social import NOT_NAMES, _predicate
from memory.learn.rules.events import EVENT_EN
from memory.learn.rules.lexicon import alternation, word_set
from memory.learn.rules.registry import Rule
from memory.records import Candidate

# ---------------------------------------------------------------- routines


def _b_commute(m: re.Match, text: str) -> Candidate | None:
    val = drop_fillers(m["val"].strip())
    return candidate("profile", f"Commute is {third_person(val)}", _q(m, text), "profile:routine:commute")


WHEN_EVERY = (r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekday|weekend|morning|evening|night|day|week|"
              r"(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:morning|afternoon|evening|night)|other\s+\w+day|single\s+day|"
              r"work\s+day|workday|friday\s+night|saturday\s+night")
NOT_A_ROUTINE = re.compile(r"(?:feel|felt|think|wish|want|hate|dread|cry|worry|regret|miss|wonder|can't|cannot|don't|never|forget|"
                           r"realize|realise|get\s+(?:so|really|more)|am|'m|was|wake\s+up\s+(?:tired|exhausted|sad|anxious)|"
                           r"swear|somehow|still|just\s+want|tell\s+myself|promise|argue|fight|complain|stress|panic|end\s+up)\b", I)


def _b_every(m: re.Match, text: str) -> Candidate | None:
    """"every sunday morning i do the long run w my running club": a routine."""
    act = drop_fillers(m["act"].strip())
    if NOT_A_ROUTINE.match(act) or len(act.split()) < 2:
        return None
    when = re.sub(r"\s+", " ", m["when"].strip())
    when = " ".join(w.capitalize() if w.lower().endswith("day") and w.lower() not in ("day", "workday") else w.lower()
                    for w in when.split())
    words = re.sub(r"^(?:do|have|get|go|make|play|grab|hit)\s+(?=\w)", "", act, flags=I).split()
    key = next((k for p, k in ACTIVITIES if re.search(r"\b(?:" + p + r")\b", act, I)), norm_object(" ".join(words[:2])))
    who = "" if m["who"].lower() == "i" else "they and others " if m["who"].lower() == "we" else \
        "they and " + third_person(m["who"].split(None, 2)[-1] if False else re.sub(r"(?i)^me\s+and\s+", "", m["who"])) + " "
    if not who:
        verb, _, rest = act.partition(" ")
        verb = {"do": "does", "go": "goes", "have": "has"}.get(verb.lower(), verb if verb.endswith("s") else
                                                                verb + ("es" if verb.endswith(("sh", "ch", "x")) else "s"))
        act = f"{verb} {rest}"
    return candidate("profile", f"Every {when}: {who}{third_person(act)}", _q(m, text), "profile:routine:" + key)


ROUTINE_RULES: list[Rule] = [
    Rule("en.profile.every", "en", "profile", 5000,
         r"(?:^|[.!?,;]\s*|\b(?:and|so|also|now|plus)\s+)(?:(?:basically|usually|pretty\s+much)\s+)?every\s+"
                r"(?P<when>" + WHEN_EVERY + r")\s*,?\s+(?P<who>I|we|me\s+and\s+(?:my|the)\s+[\w-]+)\s+(?:(?:usually|always|normally|still|now|try\s+to)\s+)?"
                r"(?P<act>[a-z][^,.!?;\n]{3,60}?)(?=\s*(?:[,.!?;]|$)|\s+(?:and\s+then|then|but|so|lol|because|cuz)\b)", _b_every, I),
    Rule("en.profile.commute", "en", "profile", 5030,
         r"\bmy\s+(?:daily\s+)?commute\s+(?:is|'s|has\s+become|became)\s+(?:now\s+|currently\s+|usually\s+|basically\s+|just\s+)?"
                r"(?P<val>[^,.!?;\n]*?(?:\d|bike|cycle|train|bus|drive|car|walk|subway|metro|tube|ferry|hour|min)[^,.!?;\n]*?)"
                r"(?=\s*(?:[,.!?;)]|$)|\s+(?:since|because|cause|cuz|but|and|so|lol|now)\b)", _b_commute, I),
]

# ---------------------------------------------------------------- studies, health, hobbies


def _b_degree(m: re.Match, text: str) -> Candidate | None:
    deg = m["deg"].lower().replace("masters", "master's").replace("bachelors", "bachelor's")
    art = "an" if deg[:1] in "aeiou" or deg in ("mba", "msc") else "a"
    return candidate("profile", f"Is doing {art} {deg} in {m['subj'].strip()}", _q(m, text), "profile:study")


def _b_student_at(m: re.Match, text: str) -> Candidate | None:
    level = m["level"].lower()
    subj = f" studying {m['subj'].strip()}" if m["subj"] else ""
    return candidate("profile", f"Is a {level} at {m['school'].strip()}{subj}", _q(m, text), "profile:study")


def _b_diagnosed(m: re.Match, text: str) -> Candidate | None:
    what = m["what"].strip()
    if re.match(r"(?:it|that|this|something|nothing|a\s+(?:cold|sinus|chest|ear|throat|bad\s+cold)|the\s+flu|flu|covid|strep|"
                r"food\s+poisoning|an?\s+\w+\s+infection)\b", what, I):
        return None
    return candidate("profile", f"Was diagnosed with {what}", _q(m, text), f"profile:health:{norm_object(what)}")


def _b_condition(m: re.Match, text: str) -> Candidate | None:
    span = re.sub(r"^(?:got|have|had|been\s+having|'ve\s+had|have\s+had)\s+", "", m["what"].strip(), flags=I)
    when = re.search(r"\b(?:the\s+(?:last|past)\s+(?:few\s+)?(?:days|weeks|months)|lately|recently|these\s+days|for\s+(?:weeks|months))",
                     text[m.end():m.end() + 40], I)
    note = f" ({when.group(0)})" if when else ""
    return candidate("mood", f"Has {drop_fillers(span)}{note}", _q(m, text), "relationship:mood")


INSTRUMENTS = alternation("en_instruments", space=r"\s+")
SPORTS = alternation("en_sports_and_games", space=r"\s+")


def _b_plays(m: re.Match, text: str) -> Candidate | None:
    obj = re.sub(r"\s+", " ", m["obj"].lower())
    where = third_person(m["where"] or "")
    return candidate("preference", f"Plays {obj}{where}", _q(m, text), f"preference:{obj}")


def _b_learning(m: re.Match, text: str) -> Candidate | None:
    obj = _ok_obj(m["obj"])
    if not obj or obj.lower() in ("lot", "stuff", "things", "much"):
        return None
    how = "training for" if "training" in m.group(0).lower() else "learning to" if m["to"] else "learning"
    return candidate("preference", f"Is {how} {third_person(obj)}", _q(m, text), f"preference:{norm_object(obj)}")


def _b_miss(m: re.Match, text: str) -> Candidate | None:
    rel = m["rel"].lower()
    return candidate("relationship", f"Misses their {rel}", _q(m, text), f"relationship:{rel}")


LIFE_RULES: list[Rule] = [
    Rule("en.preference.learning", "en", "preference", 5400,
         r"\bI(?:'ve|\s+have|'m|\s+am)?\s+(?:been\s+|just\s+|recently\s+|finally\s+|also\s+)*(?:started\s+|began\s+)?"
                r"(?:learning|picked\s+up|taking\s+up|took\s+up|training\s+for)\s+(?:how\s+to\s+play\s+|to\s+play\s+)?(?P<to>to\s+)?"
                r"(?:the\s+|a\s+|an\s+|my\s+first\s+)?" + OBJ, _b_learning, I),
    Rule("en.relationship.miss", "en", "relationship", 5420,
         r"\bI\s+(?:really\s+|so\s+|still\s+|just\s+)*miss\s+my\s+(?:(?:late|old)\s+)?(?P<rel>" + RELATIONS + r")\b(?!\s+(?-i:[A-Z]))", _b_miss, I),
    Rule("en.profile.degree", "en", "profile", 5430,
         r"\b(?:for|doing|pursuing|starting|started|finishing|working\s+on|studying\s+for|in\s+the\s+middle\s+of|halfway\s+through)\s+"
                r"(?:my|a|an)\s+(?P<deg>master'?s|masters|phd|ph\.d\.?|bachelor'?s|bachelors|mba|msc|ma|doctorate|degree)\s+(?:degree\s+)?in\s+"
                r"(?P<subj>[\w ]{2,30}?)(?=\s*(?:[,.!?;)]|$)|\s+(?:and|but|at|so|lol|now|which|it's|this|next)\b)", _b_degree, I),
    Rule("en.profile.student_at", "en", "profile", 5440,
         r"\b(?:a|an)\s+(?P<level>freshman|sophomore|junior|senior|first-year|second-year|third-year|final-year|grad\s+student|"
                r"phd\s+student|master's\s+student|student)\s+at\s+(?P<school>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*){0,3})"
                r"(?:\s*,?\s*(?:studying|majoring\s+in)\s+(?P<subj>[\w ]{2,30}?)(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol)\b))?", _b_student_at),
    Rule("en.profile.diagnosed", "en", "profile", 5450,
         r"(?:\bI(?:'ve|\s+have)?\s+|(?:^|[.!?,]\s*)|\bjust\s+)(?:just\s+|recently\s+|finally\s+|officially\s+)*(?:got|was|been|"
                r"have\s+been|'ve\s+been|got\s+officially)\s+(?:officially\s+|finally\s+)?diagnosed\s+with\s+(?P<what>[\w' -]{2,30}?)"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:at|and|but|so|last|this|when|a|in|after|which|lol|yesterday|today)\b)", _b_diagnosed, I),
    Rule("en.mood.condition", "en", "mood", 5460,
         r"\bI(?P<what>(?:'ve|\s+have)?\s+(?:had|been\s+having|got|have)\s+(?:(?:really|so|super|pretty|such|very|some)\s+)*"
                r"(?:(?:bad|terrible|awful|crippling|horrible|severe|constant|a\s+lot\s+of|so\s+much)\s+)?(?:anxiety|depression|"
                r"panic\s+attacks?|insomnia|burnout|brain\s+fog))\b", _b_condition, I),
    Rule("en.mood.condition.2", "en", "mood", 5470,
         r"\bmy\s+(?P<what>anxiety|depression|insomnia|ocd|adhd|stress)\s+(?:has\s+been|is|'s\s+been|is\s+getting)\s+"
                r"(?:(?:really|so|super|pretty|kinda|very)\s+)*(?:bad|awful|terrible|rough|worse|through\s+the\s+roof|out\s+of\s+control|"
                r"acting\s+up)", _b_condition, I),
    Rule("en.preference.plays", "en", "preference", 5480,
         r"\bI\s+(?:also\s+|still\s+|mostly\s+|mainly\s+)?play\s+(?:the\s+)?(?P<obj>" + INSTRUMENTS + "|" + SPORTS + r")\b"
                r"(?P<where>\s+(?:in|for|with|on)\s+(?:a|an|my|our|the)\s+[\w\s-]{0,30}?(?:band|orchestra|choir|team|league|club|group))?", _b_plays, I),
]

# ---------------------------------------------------------------- how things stand with someone

COUPLE_RELS = (r"partner|husband|wife|boyfriend|girlfriend|fianc[ée]e?|spouse|bf|gf|hubby|wifey|other\s+half|significant\s+other")
COUPLE_STATE = (r"(?:have|'ve)\s+been\s+(?:together|married|dating|engaged|trying\s+(?:for\s+a\s+baby|to\s+(?:get\s+pregnant|conceive|"
                r"have\s+(?:a\s+baby|a\s+kid|kids)))|doing\s+(?:ivf|IVF|long[\s-]distance))|been\s+(?:together|married)|are\s+(?:(?:finally|officially)\s+)?"
                r"(?:married|engaged|expecting|getting\s+married|moving\s+in\s+together|living\s+together|trying\s+for\s+a\s+baby|"
                r"having\s+a\s+baby|going\s+through\s+a\s+rough\s+patch|in\s+couples\s+therapy|separating|getting\s+divorced|"
                r"long[\s-]distance)|(?:just\s+|finally\s+|officially\s+)?(?:got\s+(?:married|engaged)|moved\s+in\s+together|had\s+a\s+baby|"
                r"bought\s+a\s+house|adopted\s+a\s+\w+)")
CLOSE_PRED = (r"(?:basically\s+|pretty\s+much\s+|literally\s+|practically\s+|kind\s+of\s+|kinda\s+)?(?:raised\s+me|brought\s+me\s+up|"
              r"took\s+care\s+of\s+me|is\s+my\s+(?:rock|hero|best\s+friend|person|everything|whole\s+world|world|safe\s+place)|"
              r"means\s+(?:the\s+world|everything|so\s+much|a\s+lot)\s+to\s+me|is\s+everything\s+to\s+me)")
TROUBLE = (r"(?:set(?:ting)?\s+)?boundaries|issues|problems|tension|drama|a\s+(?:big\s+|huge\s+|massive\s+|bad\s+)?(?:fight|argument|row)|"
           r"an\s+argument|a\s+falling[\s-]out|a\s+hard\s+time|trouble")


def _b_couple_state(m: re.Match, text: str) -> Candidate | None:
    rel = re.sub(r"\s+", " ", (m["rel"] or m.groupdict().get("rel2") or "").lower())
    pred = third_person(drop_fillers(m["pred"].strip()))
    return candidate("relationship", f"They and their {rel} {pred}", _q(m, text), f"relationship:{rel}")


def _b_close(m: re.Match, text: str) -> Candidate | None:
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    pred = third_person(drop_fillers(m["pred"].strip()))
    return candidate("relationship", f"{rel.capitalize()} {pred}", _q(m, text), f"relationship:{rel}")


def _b_trouble(m: re.Match, text: str) -> Candidate | None:
    rel = m["rel"].lower()
    lead = (m["lead"] or "").strip()
    lead = third_person(drop_fillers(lead)) + " " if lead else "Dealing with "
    return candidate("relationship", f"{lead}{m['what'].strip()} with their {rel}", _q(m, text), f"relationship:{rel}")


NAME = r"(?P<name>(?-i:[A-Z][a-z]+))"
FALLOUT = (r"(?:we(?:'re|\s+are)\s+(?:not|no\s+longer)\s+(?:speaking|talking|friends)|we\s+(?:don't|do\s+not)\s+(?:speak|talk)\s+"
           r"(?:anymore|any\s+more)|we(?:'re|\s+are)\s+(?:done|over)|we\s+(?:fell\s+out|had\s+a\s+(?:huge\s+|big\s+)?falling[\s-]out|"
           r"stopped\s+talking)|I\s+(?:don't|do\s+not|can't|cannot|won't)\s+trust\s+(?:him|her|them)|I(?:'m|\s+am)\s+(?:so\s+)?done\s+"
           r"with\s+(?:him|her|them)|I\s+(?:blocked|unfollowed|cut\s+off)\s+(?:him|her|them)|I\s+cut\s+(?:him|her|them)\s+off|"
           r"I\s+(?:hate|can't\s+stand)\s+(?:him|her|them)\s+(?:now|anymore)|(?:he|she|they)\s+(?:ghosted|betrayed|blocked)\s+me|"
           r"threw\s+me\s+under\s+the\s+bus|stabbed\s+me\s+in\s+the\s+back|lied\s+to\s+me)")
FALLOUT = loosen_apostrophes(FALLOUT[:-1] + r"|(?:he|she|they)\s+cheated\s+on\s+me|cheated\s+on\s+me|it(?:'s|\s+is)\s+(?:over|done)"
                                                r"\s*(?:between\s+us)?(?=\s*[.!]|$))")
SUBJECT_VERB = (r"(?:just\s+|totally\s+|literally\s+|basically\s+)?(?:moved|threw|lied|stole|cheated|ghosted|blocked|betrayed|left|said|"
                r"told|took|broke|stopped|started|never|always|keeps|kept|got|has|had|is|was|and\s+I)\b")
STARTERS = word_set("en_sentence_starters")
LIFE_NEWS = (r"(?:just\s+)?(?:passed\s+away|died|was\s+put\s+down|had\s+to\s+be\s+put\s+(?:down|to\s+sleep)|crossed\s+the\s+rainbow\s+bridge|"
             r"is\s+in\s+(?:the\s+)?hospital|was\s+(?:rushed|taken)\s+to\s+(?:the\s+)?(?:hospital|vet|ER)|(?:got|was)\s+diagnosed\s+with\s+"
             r"[\w\s]{2,20}?|is\s+(?:really\s+)?sick|has\s+cancer)")


def _named(name: str) -> bool:
    return name not in NOT_NAMES and name not in STARTERS


def fallout(text: str) -> list[Candidate]:
    """Someone the user names, and a sign they fell out ("Jordan moved out ... we're not speaking anymore")."""
    cue = re.search(FALLOUT, text, I)
    if not cue:
        return []
    before = text[:cue.end()]
    who = [m for m in re.finditer(r"(?:^|[.!?]\s+|,\s+)(?:(?:turns\s+out|apparently|so|and|but|then|well|ugh|omg|lol|wow|"
                                  r"(?:I\s+)?found\s+out|guess\s+what|update)[:,]?\s+)*(?:that\s+)?" + NAME + r"\s+" + SUBJECT_VERB, before, I)
           if _named(m["name"])]
    if not who:
        return []
    name = who[-1]["name"]
    start = who[-1].start("name")
    clause = third_person(drop_fillers(cue.group(0)))
    return [candidate("relationship", f"No longer close to {name} ({clause})", text[start:cue.end()],
                      f"relationship:{name.lower()}", -1)]


def _b_named_apart(m: re.Match, text: str) -> Candidate | None:
    if not _named(m["name"]):
        return None
    how = third_person(drop_fillers(m["how"].strip()))
    return candidate("relationship", f"No longer close to {m['name']} (they {how})", _q(m, text),
                     f"relationship:{m['name'].lower()}", -1)


def _b_named_news(m: re.Match, text: str) -> Candidate | None:
    if not _named(m["name"]):
        return None
    pred = third_person(drop_fillers(m["pred"].strip()))
    return candidate("relationship", f"{m['name']} {pred}", _q(m, text), f"relationship:{m['name'].lower()}")


PEOPLE_RULES: list[Rule] = [
    Rule("en.relationship.couple_state", "en", "relationship", 6000,
         r"\b(?:(?:my|our)\s+(?P<rel>" + COUPLE_RELS + r")\s+(?:and\s+I|&\s+I|and\s+me)|(?:me|I)\s+(?:and|&)\s+my\s+(?P<rel2>"
                + COUPLE_RELS + r"))\s+(?P<pred>(?:" + COUPLE_STATE + r")[^,.!?;\n]{0,40}?)"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol|which|it's|its)\b)", _b_couple_state, I),
    Rule("en.relationship.close", "en", "relationship", 6010,
         r"\bmy\s+(?:(?:older|younger|little|big|late)\s+)?(?P<rel>" + RELATIONS + r")\s+(?P<pred>" + CLOSE_PRED + r")", _b_close, I),
    Rule("en.relationship.couple_state.2", "en", "relationship", 6020,
         r"\bmy\s+(?:(?:older|younger|little|big)\s+)?(?P<rel>" + RELATIONS + r")\s+and\s+I\s+(?P<pred>(?:(?:don't|do\s+not|never|barely|"
                r"haven't|rarely)\s+(?:really\s+|even\s+)?(?:talk|speak|get\s+along|see\s+each\s+other|spoken)|(?:aren't|are\s+not|were\s+never)\s+"
                r"(?:really\s+)?(?:close|talking|speaking)|are\s+(?:super\s+|really\s+|so\s+|very\s+|pretty\s+)?(?:close|best\s+friends|"
                r"inseparable)|(?:fight|argue)\s+(?:a\s+lot|all\s+the\s+time|constantly)|(?:fell\s+out|had\s+a\s+(?:big\s+|huge\s+)?fight))"
                r"[^,.!?;\n]{0,30}?)(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol|which)\b)", _b_couple_state, I),
    Rule("en.relationship.trouble", "en", "relationship", 6030,
         r"(?P<lead>\b(?:working|work|struggling|dealing|having|had|been\s+having)\s+(?:on\s+|with\s+)?)?"
                r"\b(?P<what>" + TROUBLE + r")\s+with\s+my\s+(?P<rel>" + RELATIONS + r")\b", _b_trouble, I),
    Rule("en.relationship.named_apart", "en", "relationship", 6040,
         NAME + r"\s+(?i:and\s+I|&\s+I)\s+(?P<how>(?i:aren't|are\s+not|are\s+no\s+longer|haven't\s+(?:spoken|talked)|"
                r"don't\s+(?:speak|talk)|stopped\s+(?:talking|speaking)|fell\s+out|had\s+a\s+(?:huge\s+|big\s+)?falling[\s-]out)"
                r"(?i:\s+(?:friends|speaking|talking|close|in\s+touch))?(?i:\s+(?:anymore|any\s+more|since\s+\w+))?)", _b_named_apart),
    Rule("en.relationship.named_news", "en", "relationship", 6050,
         r"(?:^|[.!?]\s+|,\s+)" + NAME + r"\s+(?P<pred>" + LIFE_NEWS + r"[^,.!?;\n]{0,30}?)(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so)\b)", _b_named_news),
]

# ---------------------------------------------------------------- more ways of saying who one is

FAMILY = r"kids?|children|sons?|daughters?|boys|girls|twins|grandkids|grandchildren|stepkids"
STATUS = (r"married|engaged|single|divorced|separated|widowed|a\s+widow(?:er)?|a\s+single\s+(?:mom|mum|dad|parent|mother|father)|"
          r"(?:\d{1,2}\s+weeks\s+)?pregnant")
NUMBER = r"(?:a|an|one|two|three|four|five|six|\d)"


def _b_status(m: re.Match, text: str) -> Candidate | None:
    said = third_person(drop_fillers(m["what"].strip()))
    return candidate("relationship", f"Is {said}", _q(m, text), "relationship:status")


def _b_has_family(m: re.Match, text: str) -> Candidate | None:
    what = re.sub(r"\s+", " ", m["what"].strip())
    names = f" ({m['names'].strip()})" if m["names"] else ""
    key = re.sub(r"s$", "", what.split()[-1].lower())
    return candidate("relationship", f"Has {third_person(what)}{names}", _q(m, text), f"relationship:{key}")


def _b_family_age(m: re.Match, text: str) -> Candidate | None:
    rel = m["rel"].lower()
    return candidate("relationship", f"{rel.capitalize()} {m['be']} {m['ages']}", _q(m, text), f"relationship:{rel}")


def _b_profile_said(m: re.Match, text: str) -> Candidate | None:
    """A profile fact kept close to the user's words, in third person ("Works in marketing")."""
    verb = {"work": "Works", "live": "Lives", "moved": "Moved", "turning": "Is turning"}.get(m["verb"].lower(),
                                                                                      m["verb"].capitalize())
    rest = third_person(drop_fillers(m["rest"].strip()))
    key = {"Works": "profile:job", "Lives": "profile:household", "Moved": "profile:hometown", "Is turning": "profile:age"}
    return candidate("profile", f"{verb} {rest}", _q(m, text), key.get(verb, "profile:job"))


def _b_to_be(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"Is {m['how'].lower()} to be {m['art']} {m['job']}", _q(m, text), "profile:study")


def _b_school_year(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"Is {third_person(m['what'].strip())}", _q(m, text), "profile:study")


MORE_PROFILE_RULES: list[Rule] = [
    Rule("en.relationship.status", "en", "relationship", 6400,
         r"\bI(?:'m|\s+am)\s+(?P<what>(?:(?:happily|newly|recently|now|just|also|currently|still)\s+)?(?:" + STATUS + r")"
                r"(?:\s+(?:with|of)\s+" + NUMBER + r"\s+(?:little\s+)?(?:" + FAMILY + r"))?)\b", _b_status, I),
    Rule("en.relationship.has_family", "en", "relationship", 6410,
         r"\bI(?:'ve|\s+have)?\s+(?:got\s+|have\s+)(?P<what>" + NUMBER + r"\s+(?:(?:little|grown|teenage|young|adult|rescue|"
                r"senior|old)\s+)?(?:" + FAMILY + r"|(?:cats?|dogs?|kittens?|puppies|rabbits?|bunnies|hamsters?|birds?|parrots?|"
                r"ferrets?|guinea\s+pigs?|horses?|chickens|bearded\s+dragons?|snakes?|turtles?|fish))(?:\s+and\s+" + NUMBER + r"\s+[\w -]{2,20}?)?)"
                r"(?:\s*,\s*(?:named\s+|called\s+)?(?P<names>(?-i:[A-Z][a-z]+)(?:\s*(?:,|and|&)\s*(?-i:[A-Z][a-z]+))+))?"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol|who)\b)", _b_has_family, I),
    Rule("en.relationship.family_age", "en", "relationship", 6420,
         r"\bmy\s+(?P<rel>kids|children|sons|daughters|twins|son|daughter|boys|girls)\s+(?P<be>are|is)\s+"
                r"(?P<ages>\d{1,2}(?:\s*(?:,|and|&)\s*\d{1,2})*(?:\s+(?:years\s+old|and\s+\d{1,2}))?)\b", _b_family_age, I),
    Rule("en.profile.profile_said", "en", "profile", 6430,
         r"\bI\s+(?P<verb>work)\s+(?P<rest>in\s+(?!the\s+(?:morning|evening|afternoon)|a\s+(?:bit|minute|sec))"
                r"(?:[\w&-]+\s+){0,2}?(?:marketing|sales|finance|tech|IT|HR|retail|healthcare|hospitality|education|insurance|"
                r"real\s+estate|construction|logistics|accounting|banking|consulting|publishing|advertising|software|research|"
                r"admin|customer\s+service|government|law|pharma|biotech|fashion|media|film|games|gaming|the\s+\w+\s+industry|"
                r"[\w-]+\s+(?:department|industry|field|sector)))\b", _b_profile_said, I),
    Rule("en.profile.profile_said.2", "en", "profile", 6440,
         r"\bI\s+(?:still\s+)?(?P<verb>live)\s+(?P<rest>with\s+(?:my\s+)?(?:parents|mom|mum|dad|folks|family|grandparents|"
                r"grandma|partner|girlfriend|boyfriend|husband|wife|roommates?|flatmates?|sister|brother|aunt|uncle|kids|cat|dog|"
                r"two\s+roommates|three\s+roommates))\b", _b_profile_said, I),
    Rule("en.profile.profile_said.3", "en", "profile", 6450,
         r"\b(?:I\s+|we\s+)?(?P<verb>moved)\s+(?P<rest>(?:here\s+|over\s+|down\s+|up\s+)?from\s+(?-i:[A-Z])[\w.'-]*(?:\s+(?-i:[A-Z])[\w.'-]*){0,2})", _b_profile_said, I),
    Rule("en.profile.profile_said.4", "en", "profile", 6460,
         r"(?:\bI(?:'m|\s+am)\s+|(?:^|[.!?,]\s*))(?:about\s+to\s+be\s+|)(?P<verb>turning)\s+(?P<rest>[1-9]\d)\b", _b_profile_said, I),
    Rule("en.profile.to_be", "en", "profile", 6470,
         r"\bI(?:'m|\s+am)\s+(?P<how>studying|training|going\s+to\s+school|in\s+school)\s+to\s+(?:be(?:come)?)\s+"
                r"(?P<art>a|an)\s+(?P<job>[\w -]{2,25}?)(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol)\b)", _b_to_be, I),
    Rule("en.profile.school_year", "en", "profile", 6490,
         r"(?:\bI(?:'m|\s+am)|\band)\s+(?P<what>(?:a|an)\s+(?:freshman|sophomore|junior|senior)\s+in\s+(?:high\s+school|college|uni|university)|"
                r"in\s+my\s+(?:first|second|third|fourth|final|last)\s+year\s+(?:of|at)\s+(?:uni|university|college|law\s+school|med\s+school|"
                r"high\s+school|[A-Z][\w]+))", _b_school_year, I),
]

# ---------------------------------------------------------------- where the user lives, said in passing

PLACE = r"(?P<place>(?-i:[A-Z])[\w.'-]*(?:\s+(?-i:[A-Z])[\w.'-]*){0,2})"


def _b_years_in(m: re.Match, text: str) -> Candidate | None:
    """"after 10 yrs of living in Duluth": where the user has lived for years."""
    clause = re.split(r"[.!?;,\n]", text[:m.start()])[-1]
    if re.search(r"\b(?:he|she|they|his|her|their|my\s+(?:" + RELATIONS + r")|[A-Z][a-z]+\s+(?:has|had|spent|lived))\b", clause, I) or \
            re.search(r"\b(?:if|imagine|would|could)\b", clause, I):
        return None
    years = re.sub(r"\s+", " ", m["years"]).replace("yrs", "years").replace("yr", "year")
    return candidate("profile", f"Lives in {m['place']} (for {years})", _q(m, text), "profile:city")


def _b_with_family_in(m: re.Match, text: str) -> Candidate | None:
    who = re.sub(r"\s+", " ", m["who"].lower())
    return candidate("profile", f"Lives with their {who} in {m['place']}", _q(m, text), "profile:city")


def _b_own_place(m: re.Match, text: str) -> Candidate | None:
    """"I MOVED OUT!!! got my own little studio apartment, still in Sacramento"."""
    if re.match(r"\s+of\s+(?!(?:my|our|the)\s+(?:parents|folks|mom|mum|dad|family|ex|childhood|dorms?)\b)", text[m.end():], I):
        return None  # "moved out of my old room into the bigger one"
    if re.search(r"\b(?:if|when|once|until|till|someday|one\s+day|hope|want|wanna|dream|can't\s+wait|saving|save\s+up)\b",
                 text[max(0, m.start() - 30):m.start()], I):
        return None
    place = re.search(r"\b(?:still|also|here|right\s+here)\s+in\s+" + PLACE, text) or re.search(r"\bin\s+" + PLACE, text[m.start():])
    what = re.search(r"\bown\s+(?:(?:little|tiny|small|cute|first|new|one-bedroom|1br|one\s+bedroom)\s+)*(?P<w>studio(?:\s+apartment)?|"
                     r"apartment|flat|place|house|condo|home|room)", text, I)
    of = re.match(r"\s+of\s+(?:my|our|the)\s+[^,.!?;\n]{3,30}?(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol|finally)\b)", text[m.end():], I)
    content = ("Moved out into their own " + what["w"].lower() if what else
               "Moved out" + (" " + third_person(of.group(0).strip()) if of else ""))
    content += f" (still in {place['place']})" if place and place.group(0).startswith(("still", "also")) else \
        f" in {place['place']}" if place else ""
    return candidate("profile", content, _q(m, text), "profile:city" if place else "profile:household")


def _b_grew_up(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"Grew up in {m['place']}", _q(m, text), "profile:hometown")


HOME_RULES: list[Rule] = [
    Rule("en.profile.grew_up", "en", "profile", 7000,
         r"(?:\bI\s+|(?:^|[.!?,;]\s*))(?:was\s+)?(?:grew\s+up|born\s+and\s+raised|raised)\s+in\s+" + PLACE, _b_grew_up, I),
    Rule("en.profile.with_family_in", "en", "profile", 7030,
         r"\bI(?:'m|\s+am|\s+still|)\s*(?:still\s+)?(?:living|live)\s+(?:with|w/?)\s+(?:my\s+)?(?P<who>parents|mom|mum|dad|folks|family|"
                r"grandparents|grandma|aunt|uncle|sister|brother)(?:\s+and\s+\w+)?\s+in\s+" + PLACE, _b_with_family_in, I),
    Rule("en.profile.own_place", "en", "profile", 7040,
         r"(?:\bI\s+|(?:^|[.!?]\s*))(?:finally\s+|officially\s+|just\s+)*moved\s+out\b(?!\s+of\s+(?:the|my|our)\s+(?:office|room|dorm))|"
                r"\b(?:got|have|found|signed\s+(?:a\s+lease\s+)?(?:on|for))\s+(?:my|a)\s+(?:very\s+)?own\s+(?:(?:little|tiny|small|cute|first|new)\s+)*"
                r"(?:studio|apartment|flat|place)\b", _b_own_place, I),
]

# ---------------------------------------------------------------- dated news about someone close

PERSON = (r"(?i:\b(?:my|our)\s+(?:(?:older|younger|little|big|baby|twin|step)\s+)?)(?P<rel>(?i:" + RELATIONS + "|" + PETS + r"))"
          r"(?:\s+(?P<pname>(?-i:[A-ZÀ-Ö][a-zß-öø-ÿ]+)))?")
PERSON_EVENT_VERB = (r"graduates|is\s+graduating|gets\s+married|is\s+getting\s+married|retires|is\s+retiring|turns\s+\d{1,3}|"
                     r"is\s+turning\s+\d{1,3}|has\s+to\s+(?:get|have|go\s+in\s+for)|is\s+getting|is\s+having|has\s+(?:a|an|his|her|their|"
                     r"its|the)|starts|is\s+starting|comes\s+home|is\s+coming\s+home|is\s+coming\s+back|flies\s+in|is\s+flying\s+in|"
                     r"arrives|lands|gets\s+back|is\s+due|goes\s+in\s+for|is\s+going\s+in\s+for|deploys|is\s+deploying|is\s+moving|"
                     r"moves\s+(?:in|out|to)|gets\s+out|is\s+getting\s+out|is\s+being\s+(?:discharged|released|baptized|christened)|"
                     r"gets\s+(?:discharged|released|baptized|christened|sworn\s+in)|is\s+(?:flying|driving|coming)\s+(?:in|up|down|over|out)|"
                     r"is\s+coming\s+to\s+(?:visit|stay)|is\s+visiting|comes\s+to\s+visit|is\s+getting\s+(?:induced|engaged|baptized)")
PERSON_EVENT_VERB = PERSON_EVENT_VERB.replace(r"is\s+", r"(?:is\s+|['’]s\s+)")
OWN_EVENTS = (r"jury\s+duty|jury\s+service|knee\s+replacement|hip\s+replacement|\w+\s+transplant|c-section|induction|egg\s+retrieval|"
              r"embryo\s+transfer|ivf\s+transfer|quincea[ñn]era|bar\s+mitzvah|bat\s+mitzvah|baptism|christening|first\s+communion|"
              r"confirmation|memorial(?:\s+service)?|vigil|housewarming|bachelorette|bachelor\s+party|gender\s+reveal|open\s+house|"
              r"showcase|book\s+launch|book\s+signing|home\s+inspection|inspection|road\s+test|driving\s+test|match\s+day|"
              r"boards|NCLEX|sentencing|custody\s+hearing|mediation|deposition|callback|dental\s+cleaning|cleaning|"
              r"teeth\s+cleaning|infusion|chemo(?:\s+session)?|dialysis|follow-up|consult(?:ation)?|tattoo\s+session|"
              r"name\s+day|citizenship\s+test|green\s+card\s+interview|driver's\s+test|shift\s+at\s+\w+|residency\s+interview")
AHEAD = re.compile(r"\s*(?:(?:on|this|next|coming)\s+|tomorrow\b|in\s+(?:\d+|a|an|two|three|four|five|six)\s+(?:days?|weeks?|months?)\b|"
                   r"(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b)", I)


def _date_right_after(text: str, pos: int) -> tuple[int, int] | None:
    """The span of a forward-looking date phrase that starts at `pos` (tense already says it is ahead)."""
    if not AHEAD.match(text, pos):
        return None
    for d in find_dates(text[pos:pos + 45], date(2000, 1, 1)):
        if not text[pos:pos + d.start].strip():
            return pos + d.start, pos + d.end
    return None


def _who(m: re.Match) -> str:
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    return f"{rel} {m['pname']}" if m["pname"] and m["pname"] not in NOT_NAMES else rel


def _b_their_event(m: re.Match, text: str) -> Candidate | None:
    """"my dad's knee replacement is on the 14th": a dated event of someone close."""
    span = _date_right_after(text, m.end())
    what = m["what"].strip()
    if not span or EVENT_EN.search(what) or re.match(r"(?:birthday|bday|b-day)$", what, I):
        return None  # the event rules already read the usual event words
    when = text[span[0]:span[1]].strip()
    return candidate("event", f"{_who(m)[:1].upper()}{_who(m)[1:]}'s {what} {when}", text[m.start():span[1]],
                     f"event:{norm_object(_who(m) + ' ' + what)}")


def _b_person_dated(m: re.Match, text: str) -> Candidate | None:
    """"my brother Caleb graduates from the police academy on May 29th": said like the news about them."""
    rest = m["pred"]
    found = None
    for d in find_dates(rest, date(2000, 1, 1)):
        found = d
        break
    if not found or EVENT_EN.search(rest[:found.start]) and not re.match(r"\s*(?:graduates|retires|turns)", rest, I):
        return None
    lead = rest[:found.start]
    if re.search(r"\b(?:and|but|so|because|while|about|since)\b|[,;]", lead, I) or len(lead.split()) > 10 or \
            (re.match(r"has\s+(?:a|an|his|her|their|its|the)\b", rest, I) and not re.search(OWN_EVENTS, lead, I)):
        return None  # "my mom has a cold and the 14th is her birthday"
    pred = re.sub(r"^['’]s\s+", "is ", _predicate(rest[:found.end]))
    if m["pname"] and m["pname"] not in NOT_NAMES:
        content = f"{m['rel'].lower()} {m['pname']} {pred}"
    else:
        content = f"{m['rel'].lower()} {pred}"
    return candidate("event", content, text[m.start():m.start("pred") + found.end],
                     f"event:{norm_object(_who(m))} {norm_object(pred[:found.start].split(' on ')[0])[:40]}")


def _b_my_event(m: re.Match, text: str) -> Candidate | None:
    """"ugh I have jury duty on the 17th": a dated event of the user's own that the event words miss."""
    span = _date_right_after(text, m.end())
    if not span or re.search(r"\b(?:if|when|whether|unless)\s+(?:\w+\s+){0,2}$", text[max(0, m.start() - 20):m.start()], I):
        return None
    what = re.sub(r"\s+", " ", m["what"].strip())
    when = text[span[0]:span[1]].strip()
    return candidate("event", f"{what[:1].upper()}{what[1:]} {when}", text[m.start():span[1]], f"event:{norm_object(what)}")


PERSON_EVENT_RULES: list[Rule] = [
    Rule("en.event.my_event", "en", "event", 7400,
         r"(?:\bI\s+(?:have|'ve\s+got|got|have\s+got|'ll\s+have)\s+(?:(?:a|an|my|the|our)\s+)?|\bmy\s+)(?P<what>(?:[\w'-]+\s+){0,2}?"
                r"(?:" + OWN_EVENTS + r"))\b(?:\s+(?:is|'s|will\s+be))?(?=\s)", _b_my_event, I),
    Rule("en.event.their_event", "en", "event", 7410,
         PERSON + r"['’]s\s+(?P<what>(?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:is|'s|will\s+be|happens)(?=\s)", _b_their_event),
    Rule("en.event.person_dated", "en", "event", 7420,
         PERSON + r"(?:,?\s+|(?=['’]s\s))(?P<pred>(?i:" + PERSON_EVENT_VERB + r")\b[^.!?;\n]{0,70})", _b_person_dated),
]


def _scan_fallout(text: str, today: date) -> list[Candidate]:
    return fallout(text)


SCAN_RULES: list[Rule] = [Rule("en.relationship.fallout", "en", "relationship", 14000, None, scan=_scan_fallout)]
