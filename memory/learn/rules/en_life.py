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
from memory.learn.rules.en import PETS, RELATIONS, I, _q
from memory.learn.rules.en_social import NOT_NAMES, _predicate
from memory.learn.rules.events import EVENT_EN
from memory.learn.rules.lexicon import alternation, word_set
from memory.learn.rules.registry import Rule
from memory.records import Candidate

# ---------------------------------------------------------------- routines


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
        "they and " + third_person(re.sub(r"(?i)^me\s+and\s+", "", m["who"])) + " "
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
]

# ---------------------------------------------------------------- studies, health, hobbies


def _b_degree(m: re.Match, text: str) -> Candidate | None:
    deg = m["deg"].lower().replace("masters", "master's").replace("bachelors", "bachelor's")
    art = "an" if deg[:1] in "aeiou" or deg in ("mba", "msc") else "a"
    return candidate("profile", f"Is doing {art} {deg} in {m['subj'].strip()}", _q(m, text), "profile:study")


INSTRUMENTS = alternation("en_instruments", space=r"\s+")
SPORTS = alternation("en_sports_and_games", space=r"\s+")


def _b_plays(m: re.Match, text: str) -> Candidate | None:
    obj = re.sub(r"\s+", " ", m["obj"].lower())
    where = third_person(m["where"] or "")
    return candidate("preference", f"Plays {obj}{where}", _q(m, text), f"preference:{obj}")


LIFE_RULES: list[Rule] = [
    Rule("en.profile.degree", "en", "profile", 5430,
         r"\b(?:for|doing|pursuing|starting|started|finishing|working\s+on|studying\s+for|in\s+the\s+middle\s+of|halfway\s+through)\s+"
                r"(?:my|a|an)\s+(?P<deg>master'?s|masters|phd|ph\.d\.?|bachelor'?s|bachelors|mba|msc|ma|doctorate|degree)\s+(?:degree\s+)?in\s+"
                r"(?P<subj>[\w ]{2,30}?)(?=\s*(?:[,.!?;)]|$)|\s+(?:and|but|at|so|lol|now|which|it's|this|next)\b)", _b_degree, I),
    Rule("en.preference.plays", "en", "preference", 5480,
         r"\bI\s+(?:also\s+|still\s+|mostly\s+|mainly\s+)?play\s+(?:the\s+)?(?P<obj>" + INSTRUMENTS + "|" + SPORTS + r")\b"
                r"(?P<where>\s+(?:in|for|with|on)\s+(?:a|an|my|our|the)\s+[\w\s-]{0,30}?(?:band|orchestra|choir|team|league|club|group))?", _b_plays, I),
]

# ---------------------------------------------------------------- how things stand with someone

CLOSE_PRED = (r"(?:basically\s+|pretty\s+much\s+|literally\s+|practically\s+|kind\s+of\s+|kinda\s+)?(?:raised\s+me|brought\s+me\s+up|"
              r"took\s+care\s+of\s+me|is\s+my\s+(?:rock|hero|best\s+friend|person|everything|whole\s+world|world|safe\s+place)|"
              r"means\s+(?:the\s+world|everything|so\s+much|a\s+lot)\s+to\s+me|is\s+everything\s+to\s+me)")


def _b_close(m: re.Match, text: str) -> Candidate | None:
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    pred = third_person(drop_fillers(m["pred"].strip()))
    return candidate("relationship", f"{rel.capitalize()} {pred}", _q(m, text), f"relationship:{rel}")


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


def _b_named_news(m: re.Match, text: str) -> Candidate | None:
    if not _named(m["name"]):
        return None
    pred = third_person(drop_fillers(m["pred"].strip()))
    return candidate("relationship", f"{m['name']} {pred}", _q(m, text), f"relationship:{m['name'].lower()}")


PEOPLE_RULES: list[Rule] = [
    Rule("en.relationship.close", "en", "relationship", 6010,
         r"\bmy\s+(?:(?:older|younger|little|big|late)\s+)?(?P<rel>" + RELATIONS + r")\s+(?P<pred>" + CLOSE_PRED + r")", _b_close, I),
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


def _b_profile_said(m: re.Match, text: str) -> Candidate | None:
    """A profile fact kept close to the user's words, in third person ("Works in marketing")."""
    verb = {"work": "Works", "live": "Lives", "moved": "Moved", "turning": "Is turning"}.get(m["verb"].lower(),
                                                                                      m["verb"].capitalize())
    rest = third_person(drop_fillers(m["rest"].strip()))
    key = {"Works": "profile:job", "Lives": "profile:household", "Moved": "profile:hometown", "Is turning": "profile:age"}
    return candidate("profile", f"{verb} {rest}", _q(m, text), key.get(verb, "profile:job"))


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
    Rule("en.profile.profile_said.3", "en", "profile", 6450,
         r"\b(?:I\s+|we\s+)?(?P<verb>moved)\s+(?P<rest>(?:here\s+|over\s+|down\s+|up\s+)?from\s+(?-i:[A-Z])[\w.'-]*(?:\s+(?-i:[A-Z])[\w.'-]*){0,2})", _b_profile_said, I),
    Rule("en.profile.profile_said.4", "en", "profile", 6460,
         r"(?:\bI(?:'m|\s+am)\s+|(?:^|[.!?,]\s*))(?:about\s+to\s+be\s+|)(?P<verb>turning)\s+(?P<rest>[1-9]\d)\b", _b_profile_said, I),
    Rule("en.profile.school_year", "en", "profile", 6490,
         r"(?:\bI(?:'m|\s+am)|\band)\s+(?P<what>(?:a|an)\s+(?:freshman|sophomore|junior|senior)\s+in\s+(?:high\s+school|college|uni|university)|"
                r"in\s+my\s+(?:first|second|third|fourth|final|last)\s+year\s+(?:of|at)\s+(?:uni|university|college|law\s+school|med\s+school|"
                r"high\s+school|[A-Z][\w]+))", _b_school_year, I),
]

# ---------------------------------------------------------------- where the user lives, said in passing

PLACE = r"(?P<place>(?-i:[A-Z])[\w.'-]*(?:\s+(?-i:[A-Z])[\w.'-]*){0,2})"


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


def _who(m: re.Match) -> str:
    rel = re.sub(r"\s+", " ", m["rel"].lower())
    return f"{rel} {m['pname']}" if m["pname"] and m["pname"] not in NOT_NAMES else rel


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


PERSON_EVENT_RULES: list[Rule] = [
    Rule("en.event.person_dated", "en", "event", 7420,
         PERSON + r"(?:,?\s+|(?=['’]s\s))(?P<pred>(?i:" + PERSON_EVENT_VERB + r")\b[^.!?;\n]{0,70})", _b_person_dated),
]


def _scan_fallout(text: str, today: date) -> list[Candidate]:
    return fallout(text)


SCAN_RULES: list[Rule] = [Rule("en.relationship.fallout", "en", "relationship", 14000, None, scan=_scan_fallout)]
