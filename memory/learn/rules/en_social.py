"""English extraction rules for likes and dislikes, the people and pets in the user's life, and moods."""
from __future__ import annotations

import re

from memory.learn.rules.common import candidate, drop_fillers, norm_object, third_person
from memory.learn.rules.en import ADV, MOODS, OBJ, PETS, RELATIONS, I, _ok_obj, _q
from memory.learn.rules.lexicon import word_set
from memory.learn.rules.registry import Rule
from memory.records import Candidate

# ---------------------------------------------------------------- likes and dislikes

CRAFT_TAIL = re.compile(r"(?<=\w{3})\s+(?:baking|making|brewing|knitting|crocheting|painting|collecting|gardening|growing|"
                        r"climbing|riding|carving|journaling|building)$", I)


def pref_key(obj: str) -> str:
    """The topic of a liked thing: "sourdough baking" and "sourdough" are one hobby."""
    return "preference:" + CRAFT_TAIL.sub("", norm_object(obj))


def _pref(m: re.Match, text: str, template: str, polarity: int, raw: str | None = None) -> Candidate | None:
    obj = _ok_obj(raw or m["obj"])
    if not obj or re.match(r"(?:my|his|her|their|our)\s+(?:[\w-]+\s+)?(?:" + RELATIONS + "|" + PETS + r")s?\b", obj, I):
        return None  # a person, not a taste ("so over my ex Tom")
    content = template.format(obj=third_person(obj), **{k: v or "" for k, v in m.groupdict().items() if k != "obj"})
    return candidate("preference", content, _q(m, text), pref_key(obj), polarity)


def _b_like_verb(m: re.Match, text: str) -> Candidate | None:
    verb = {"love": "Loves", "adore": "Loves", "enjoy": "Enjoys"}.get(m["verb"].lower(), "Likes")
    return _pref(m, text, verb + " {obj}", 1)


def _b_into(m: re.Match, text: str) -> Candidate | None:
    how = m["verb"].lower()
    template = ("Is into {obj}" if how == "into" else "Is a fan of {obj}" if "fan" in how
                else "Loves {obj}")
    return _pref(m, text, template, 1)


def _b_person(m: re.Match, text: str) -> Candidate | None:
    if m["obj"].lower() in ("people", "morning", "night", "early", "night owl", "big", "huge"):
        return None
    return _pref(m, text, "Loves {obj}", 1)


def _b_dislike(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, "Dislikes {obj}", -1)


def _b_over(m: re.Match, text: str) -> Candidate | None:
    how = re.sub(r"\s+", " ", m["verb"].lower())
    template = ("No longer likes {obj}" if how in ("over", "done with", "bored of", "bored with")
                else "Is not a fan of {obj}" if how.startswith("not") else "Is tired of {obj}")
    return _pref(m, text, template, -1)


def _b_quit(m: re.Match, text: str) -> Candidate | None:
    obj, ger = _ok_obj(re.sub(r"\s+cold\s+turkey$", "", m["obj"].strip(), flags=I)), (m["ger"] or "").strip()
    if not obj and ger:
        obj, ger = ger, ""
    if not obj or re.match(r"(?:my\s+)?(?:job|work)\b|(?:nursing|teaching|bartending|accounting|law|engineering|retail|"
                           r"consulting|modeling|modelling|banking|tech|academia|the\s+industry)$", obj, I):
        return None  # leaving a career is a job change, not a taste
    verb = "Gave up on" if re.search(r"\b(?:gave|given)\s+up\s+on\b", m.group(0), I) else "Quit"
    content = f"{verb} {ger + ' ' if ger else ''}{third_person(obj)}"
    return candidate("preference", content, _q(m, text), pref_key(obj), -1)


def _b_job_feeling(m: re.Match, text: str) -> Candidate | None:
    verb = m["verb"].lower()
    polarity = -1 if re.search(r"hate|can't|cannot|dislike|don't", verb) else 1
    said = {"love": "Loves", "like": "Likes", "enjoy": "Enjoys", "hate": "Hates"}.get(verb, "Dislikes" if polarity < 0 else "Likes")
    return candidate("preference", f"{said} their {m['what'].lower()}", _q(m, text), f"preference:{m['what'].lower()}", polarity)


def _b_afraid(m: re.Match, text: str) -> Candidate | None:
    if re.match(r"(?:my|the|his|her|their|our|losing|being|failing)\b", m["obj"], I):
        return None
    return _pref(m, text, f"Is {m['how'].lower()} of {{obj}}", -1)


def _b_identity(m: re.Match, text: str) -> Candidate | None:
    what = re.sub(r"\s+", " ", m["what"].lower())
    return candidate("preference", f"Is a {what}", _q(m, text), f"preference:{what}")


def _b_fan_here(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, "Is a big fan of {obj}", 1)


def _b_dont_eat(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"Does not {m['verb'].lower()} {{obj}}", -1)


def _b_sane_or_fav(m: re.Match, text: str) -> Candidate | None:
    obj = re.sub(r"^(?:(?:at|least|got|have|and|but|so|anyway|then|also|i|i've|oh|ok)\s+)+", "", m["obj"], flags=I)
    if not obj or obj.lower() in ("at", "least", "got", "have"):
        return None
    if re.search(r"\b(?:my|the|a|it|this|that|he|she|they|which|at|least|got|have|and|but|so)\b", obj, I) or \
            re.search(r"\b(?:" + RELATIONS + r")\b", obj, I):
        return None
    return _pref(m, text, "Loves {obj}", 1, obj)


KEEPS = r"(?:sane|calm|going|grounded|alive|together|happy|afloat)"


def _b_gross(m: re.Match, text: str) -> Candidate | None:
    obj = re.sub(r"^(?:(?:but|and|honestly|tbh|ugh|man|god|the|so|like|also|i|think)\s+)+", "", m["obj"], flags=I)
    if not obj or re.fullmatch(r"(?:it|this|that|he|she|they|which|everything|life|today|work|traffic|weather|it's)", obj, I):
        return None
    return _pref(m, text, "Dislikes {obj}", -1, obj)


NOT_A_TASTE = re.compile(r"(?:it|this|that|(?:these|those)$|he|she|they|you|who|what|which|there|here|everything|nothing|"
                         r"(?:my|his|her|their|our|your)\s+(?:[\w-]+\s+)?(?:" + RELATIONS + "|" + PETS + r")s?)\b|(?:" + RELATIONS + r")s?$", I)


def _b_fav_colon(m: re.Match, text: str) -> Candidate | None:
    """"fav thing to fall asleep to: great british bake off"."""
    kind = re.sub(r"\s+", " ", m["kind"].strip().lower())
    obj = drop_fillers(m["obj"].strip())
    if not obj or NOT_A_TASTE.match(obj) or re.match(r"(?:what|who|where|when|how|why|whatever|whichever|anything|idk|none|"
                                                     r"nothing|depends)\b", obj, I) or re.search(r"\b(?:you|u|your)\b", obj, I) or \
            re.search(r"\b(?:your|you|his|her|their)\b|\bof\s+(?:the|this|that)\b", kind):
        return None
    return candidate("preference", f"Favourite {kind}: {third_person(obj)}", _q(m, text), pref_key(obj))


def _b_my_thing(m: re.Match, text: str) -> Candidate | None:
    """"F1 is basically my whole personality", "spicy food is my love language"."""
    obj = drop_fillers(m["obj"].strip())
    if not obj or NOT_A_TASTE.match(obj) or re.search(r"\b(?:" + RELATIONS + r")\b", obj, I) or len(obj.split()) > 4:
        return None
    what = re.sub(r"\s+", " ", m["what"].lower())
    return candidate("preference", f"Loves {third_person(obj)} (their {what})", _q(m, text), pref_key(obj))


def _b_taught_fav(m: re.Match, text: str) -> Candidate | None:
    """"my grandpa taught me to fish ... it's still my favorite way to spend a saturday"."""
    what = third_person(re.sub(r"\s+", " ", m["what"].strip()))
    return _pref(m, text, "Loves to {obj} (favourite " + what + ")", 1)


LIKE_HEAD = r"\b(?:I'm|I\s+am|I've\s+been|I\s+have\s+been|im|been)\s+"
PREFERENCE_RULES: list[Rule] = [
    Rule("en.preference.job_feeling", "en", "preference", 3040,
         r"\bI\s+" + ADV + r"(?P<verb>love|like|enjoy|hate|dislike|can't\s+stand|don't\s+like)\s+my\s+(?P<what>job|work)\b", _b_job_feeling, I),
    Rule("en.preference.afraid", "en", "preference", 3050,
         r"\bI(?:'m|\s+am)\s+" + ADV + r"(?P<how>terrified|scared|afraid|frightened)\s+of\s+" + OBJ, _b_afraid, I),
    Rule("en.preference.identity", "en", "preference", 3060,
         r"\b(?:I'm|I\s+am|im)\s+(?:(?:a|an|such\s+a|total|huge|big|massive|real|complete|proud)\s+)+(?P<what>foodie|gamer|bookworm|"
                r"homebody|introvert|extrovert|cat\s+person|dog\s+person|gym\s+rat|coffee\s+snob|plant\s+(?:mom|dad|parent)|"
                r"dog\s+(?:mom|dad)|cat\s+(?:mom|dad)|book\s+nerd|movie\s+buff|film\s+buff|sneakerhead|anime\s+fan)\b", _b_identity, I),
    Rule("en.preference.fan_here", "en", "preference", 3070,
         r"(?:^|[.!?,]\s*)(?:(?:a|such\s+a|total|huge|big|massive|die-?hard)\s+)+(?P<obj>[\w-]+(?:\s[\w-]+)?)\s+(?:fan|stan|nerd)"
                r"\s+here\b", _b_fan_here, I),
    Rule("en.preference.dont_eat", "en", "preference", 3120,
         r"(?:\bI\s+|(?:^|[,;:]\s*))(?:don't|do\s+not|never|can't|cannot)\s+(?P<verb>eat|drink)\s+" + OBJ, _b_dont_eat, I),
    Rule("en.preference.dislike.3", "en", "preference", 3180,
         r"\bI\s+" + ADV + r"(?P<verb>hate|dislike|despise|loathe|detest|can't\s+stand|cannot\s+stand|"
                r"don't\s+(?:really\s+)?(?:like|enjoy|love)|do\s+not\s+like|can't\s+do|am\s+not\s+into)\s+" + OBJ, _b_dislike, I),
    Rule("en.preference.over.2", "en", "preference", 3190,
         LIKE_HEAD + ADV + r"(?P<verb>over|sick\s+of|tired\s+of|done\s+with|fed\s+up\s+with|bored\s+(?:of|with)|"
                r"not\s+(?:a\s+(?:big\s+|huge\s+)?fan\s+of|into|big\s+on))\s+" + OBJ, _b_over, I),
    Rule("en.preference.quit", "en", "preference", 3210,
         r"\bI(?:'ve|\s+have)?\s+(?:(?:finally|officially|just|recently|completely|totally)\s+)*"
                r"(?:quit|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?|stopped|cut\s+out|kicked)\s+"
                r"(?P<ger>(?:drinking|eating|smoking|playing|doing|watching|going\s+to|using|vaping)\s+)?" + OBJ, _b_quit, I),
    Rule("en.preference.like_verb", "en", "preference", 3230,
         r"\bI\s+" + ADV + r"(?P<verb>love|adore|like|enjoy)\s+" + OBJ, _b_like_verb, I),
    Rule("en.preference.into", "en", "preference", 3240,
         LIKE_HEAD + ADV + r"(?P<verb>obsessed\s+with|hooked\s+on|addicted\s+to|into|loving|in\s+love\s+with|"
                r"crazy\s+about|mad\s+about|a\s+(?:big\s+|huge\s+|massive\s+)?fan\s+of|big\s+on)\s+" + OBJ, _b_into, I),
    Rule("en.preference.person", "en", "preference", 3250,
         r"\b(?:I'm|I\s+am|im)\s+(?:(?:such|totally|so|definitely|a|an|huge|big|total|massive|really)\s+)*"
                r"(?P<obj>[\w-]+(?:\s[\w-]+)?)\s+(?:person|fan|lover|addict|nerd|junkie|fanatic)\b", _b_person, I),
    Rule("en.preference.gross", "en", "preference", 3270,
         r"(?:^|(?<=[,.!?;])\s*|\b(?:but|and|honestly|tbh|ugh|man|god)\s+)(?P<obj>[\w-]+(?:\s[\w-]+)?)\s+(?:is|are)\s+"
                r"(?:(?:so|honestly|literally|just|absolutely|truly|genuinely|kinda|pretty)\s+)*(?P<how>disgusting|gross|revolting|"
                r"vile|nasty|the\s+worst|unbearable|overrated|awful|horrible)\b", _b_gross, I),
    Rule("en.preference.sane_or_fav", "en", "preference", 3280,
         r"\b(?P<obj>[\w-]+(?:\s[\w-]+)?)\s+(?:is|keeps)\s+(?:\w+\s+){0,2}?(?:the\s+only\s+thing\s+keeping\s+me\s+"
                + KEEPS + r"|keeps\s+me\s+" + KEEPS + r"|my\s+happy\s+place|my\s+therapy|my\s+(?:whole\s+)?life|my\s+everything|life(?=\s*(?:[.!?,;]|$))|bae\b|my\s+"
                r"(?:favou?rite|fav|fave)\s+(?:thing|food|show|band|song|game|hobby|sport|book|movie|snack|drink))\b", _b_sane_or_fav, I),
]


MY_THING = (r"(?:whole|entire)\s+personality|personality\s+trait|love\s+language|religion|roman\s+empire|comfort\s+(?:show|food|"
            r"movie|film|game|book|podcast|anime|series|meal|snack|watch|album)|guilty\s+pleasure|weakness|kryptonite|"
            r"therapy|happy\s+place|safe\s+space|(?:favou?rite|fav|fave)\s+thing\s+(?:ever|in\s+the\s+world)")
PREFERENCE_RULES += [
    Rule("en.preference.fav_colon", "en", "preference", 3330,
         r"(?:^|[.!?]\s*|\b(?:my|and|also|but|so)\s+)(?:(?:all[- ]time|current|new)\s+)?(?:fav|fave|favou?rite)\s+"
                r"(?P<kind>[a-z][\w'-]*(?:\s+[\w'-]+){0,6}?)\s*(?:rn\s*|atm\s*|right\s+now\s*|of\s+all\s+time\s*)?[:=]\s*"
                r"(?P<obj>[^,.!?;:\n(]{2,50}?)(?=\s*[,.!?;\n(]|$|\s+(?:lol|lmao|tbh|btw|because|cuz|haha\w*)\b)", _b_fav_colon, I),
    Rule("en.preference.my_thing", "en", "preference", 3340,
         r"(?:^|[.!?,;]\s*|\b(?:and|but|so|honestly|tbh|ngl|also)\s+)(?P<obj>[\w'&-]+(?:\s+[\w'&-]+){0,3}?)\s+(?:is|are)\s+"
                r"(?:(?:basically|literally|honestly|just|pretty\s+much|kinda|lowkey|truly|genuinely|officially|still|always|"
                r"forever|simply|definitely|def)\s+)*my\s+(?P<what>" + MY_THING + r")\b", _b_my_thing, I),
    Rule("en.preference.taught_fav", "en", "preference", 3400,
         r"\b(?:taught|showed)\s+me\s+(?:how\s+)?to\s+" + OBJ + r"[^.!?;]{0,60}?\b(?:it's|its|it\s+is|that's|it\s+became|it's\s+become)\s+"
                r"(?:(?:still|now|honestly|literally|basically|kinda)\s+)*my\s+(?:favou?rite|fav|fave)\s+"
                r"(?P<what>(?:way|thing|hobby|part)\b[^,.!?;\n]{0,40}?)(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|lol)\b)", _b_taught_fav, I),
]


# ---------------------------------------------------------------- people and pets

REL_LEAD = (r"(?i:\b(?:my|our)\s+(?:(?:older|younger|little|big|baby|twin|new|old|dear|sweet|elderly|senior|rescue|"
            r"black|white|orange|grey|gray|fluffy|tiny|golden)\s+)*)")
NAME = r"(?P<name>[A-ZÀ-Ö][a-zß-öø-ÿ]+(?:-[A-Z][a-z]+)?)(?![\w'’]\w|[\w])"
TIME_TAIL = re.compile(r"\s+(?:this|last)\s+(?:week|month|year)$|\s+(?:lately|recently|today|yesterday)$", I)
NOT_NAMES = word_set("en_not_names")


def _predicate(rest: str) -> str:
    rest = re.split(r"[,;:]|\s+(?:and|but|so|because|cause|though)\s+(?:(?:now|then|also|still)\s+)?(?:I|I'm|im|I've|it|we)\b|\s+-\s",
                    rest, flags=I)[0]
    rest = TIME_TAIL.sub("", drop_fillers(rest.strip()))
    return third_person(rest).strip()


def _b_named(m: re.Match, text: str) -> Candidate | None:
    name, rel, rest = m["name"], m["rel"].lower(), m["rest"] or ""
    if name in NOT_NAMES or rest.startswith(("'", "’")):
        return None
    if re.match(r"\s+and\s+I\b", rest):
        return candidate("relationship", f"{rel} {name}", _q(m, text), f"relationship:{name.lower()}")
    if re.fullmatch(PETS, rel, I):
        age = re.search(rf"\b{name}\s+(?:just\s+)?(?:turned|is|turns)\s+(?P<age>\d{{1,2}})\b", text)
        label = f"{age['age']}-year-old {rel}" if age else rel
        art = "an" if label[0] in "aeiou8" or label.startswith(("11-", "18-")) else "a"
        pred = "" if age else _predicate(rest)
        content = f"Has {art} {label} named {name}" + (f" ({pred})" if pred and len(pred.split()) <= 8 else "")
    else:
        pred = _predicate(rest)
        content = f"{rel} {name}" + (f" {pred}" if pred and len(pred.split()) <= 12 else "")
    return candidate("relationship", content, _q(m, text), f"relationship:{name.lower()}")


def _b_breakup(m: re.Match, text: str) -> Candidate | None:
    name = m["name"]
    if name in NOT_NAMES:
        return None
    said = m.group(0).lower()
    off = re.search(r"\b(?:called|broke)\s+off\s+(?:the|our)\s+(?P<w>engagement|wedding)", said)
    content = (f"{name} called off the {off['w']} (no longer together)" if off else
               f"Getting divorced from {name}" if "getting divorced" in said else f"Divorced {name}" if "divorc" in said
               else f"Separated from {name}" if "separat" in said else f"Broke up with {name}")
    return candidate("relationship", content, _q(m, text), f"relationship:{name.lower()}", -1)


COUPLE = re.compile(r"\banniversary|\bdating\b|\btogether\s+for\b|\bengaged\b|\bhoneymoon|\bmoved\s+in\s+together|"
                    r"\b(?:he|she)(?:'s|\s+is)\s+the\s+one\b|\bboyfriend\b|\bgirlfriend\b|\bhusband\b|\bwife\b|\bpartner\b|"
                    r"\bfianc|\bmarried\b", I)


def _b_couple(m: re.Match, text: str) -> Candidate | None:
    name = m["name"]
    if name in NOT_NAMES or not COUPLE.search(text) or re.search(r"broke\s+up|split|divorc", text, I):
        return None
    one = re.search(r"\b(?P<p>he|she|they)(?:'s|\s+is|\s+are)\s+the\s+one\b", text, I)
    note = f" (thinks {one['p'].lower()}'s the one)" if one else ""
    return candidate("relationship", f"In a relationship with {name}{note}", _q(m, text),
                     f"relationship:{name.lower()}")


def _b_new_pet(m: re.Match, text: str) -> Candidate | None:
    name, rel = m["name"], m["rel"].lower()
    if name in NOT_NAMES:
        return None
    art = "an" if rel[0] in "aeiou" else "a"
    return candidate("relationship", f"Has {art} {rel} named {name}", _q(m, text), f"relationship:{name.lower()}")


def _b_relative_news(m: re.Match, text: str) -> Candidate | None:
    rel, pred = m["rel"].lower(), third_person(drop_fillers(re.sub(r"^['’]s\s+", "is ", m["pred"].strip())))
    return candidate("relationship", f"{rel} {pred}", _q(m, text), f"relationship:{rel}")


LIFE_NEWS = (r"(?:just\s+|recently\s+|finally\s+)?(?:(?:was|got|has\s+been|is|just\s+got)\s+(?:just\s+|recently\s+|finally\s+)?"
             r"(?:diagnosed|hospitali[sz]ed|admitted|fired|laid\s+off|married|engaged|divorced|pregnant|sick|ill|"
             r"in\s+(?:the\s+)?hospital|in\s+the\s+ER|deployed)|passed\s+away|died|passed|had\s+(?:a|her|their)\s+baby|gave\s+birth|"
             r"got\s+(?:married|engaged|divorced|sick|diagnosed|fired|laid\s+off)|is\s+(?:pregnant|sick|really\s+sick|"
             r"in\s+(?:the\s+)?hospital)|has\s+(?:cancer|dementia|covid|alzheimer's)|started\s+chemo|was\s+diagnosed|"
             r"moved\s+(?:away|out)|is\s+moving\s+away|lost\s+(?:her|his|their)\s+job|retired|had\s+surgery|"
             r"has\s+(?:autism|adhd|asthma|diabetes|epilepsy|anxiety|depression|a\s+disability|special\s+needs|ms|long\s+covid|"
             r"parkinson's|a\s+heart\s+condition)|is\s+(?:autistic|disabled)|(?:is\s+moving|moved|is\s+relocating)\s+to\s+[A-Z][\w'-]+|"
             r"(?:just\s+)?started\s+(?:college|school|kindergarten|preschool|daycare|high\s+school|middle\s+school|uni|university|"
             r"a\s+new\s+job|chemo|therapy)|got\s+into\s+[A-Z][\w'-]+|is\s+(?:getting\s+married|having\s+a\s+baby|expecting))")
PEOPLE_RULES: list[Rule] = [
    Rule("en.relationship.breakup", "en", "relationship", 4000,
         NAME + r"\s+(?i:and\s+I)\s+(?i:(?:just\s+|finally\s+|officially\s+)?(?:broke\s+up|split(?:\s+up)?|"
                r"separated|are\s+done|called\s+it\s+quits|got\s+divorced|are\s+over|ended\s+things|"
                r"are\s+(?:getting\s+divorced|splitting\s+up|breaking\s+up|separating|taking\s+a\s+break)))", _b_breakup),
    Rule("en.relationship.named", "en", "relationship", 4040,
         REL_LEAD + r"(?i:(?P<rel>" + RELATIONS + "|" + PETS + r"))\s*,?\s+(?:named\s+|called\s+)?" + NAME
                + r"(?P<rest>[^.!?;\n]*)", _b_named),
    Rule("en.relationship.couple", "en", "relationship", 4050,
         NAME + r"\s+(?i:and\s+I)\b", _b_couple),
    Rule("en.relationship.new_pet", "en", "relationship", 4080,
         r"(?i:\b(?:adopted|got|rescued|brought\s+home|have)\s+(?:a|an|our|my)\s+(?:new\s+)?(?:[\w-]+\s+)?)(?P<rel>(?i:" + PETS
                + r"))\b[^.!?]{0,40}?[.!?]*\s*(?i:(?:her|his|its|their)\s+name\s+is|named|called)\s+" + NAME, _b_new_pet),
    Rule("en.relationship.relative_news.2", "en", "relationship", 4090,
         REL_LEAD + r"(?i:(?P<rel>" + RELATIONS + r"))\s+(?P<pred>(?i:" + LIFE_NEWS + r")[^,.!?;\n]*?)"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?i:and\s+I|so|but)\b)", _b_relative_news),
]

# ---------------------------------------------------------------- moods

GERUNDS = {"moved": "moving", "started": "starting", "lost": "losing", "left": "leaving", "got": "getting",
           "changed": "changing", "switched": "switching", "graduated": "graduating", "came": "coming",
           "broke": "breaking", "quit": "quitting", "began": "beginning", "had": "having"}


def _reason(sentence: str) -> str:
    other = re.search(r"\b(?:ever\s+)?since\s+(?P<who>my\s+[^,.!?;]{3,40}?)(?=\s+I(?:'ve|\s+have|'m)\b|[,.!?;]|$)", sentence, I)
    if other:
        return "since " + third_person(drop_fillers(other["who"]))
    found = re.search(r"\b(?:ever\s+)?since\s+I\s+(?P<v>\w+)(?P<r>[^,.!?;]*?)(?=\s+I(?:'ve|\s+have|'m)\b|[,.!?;]|$)",
                      sentence, I)
    if found:
        verb = found["v"].lower()
        rest = third_person(drop_fillers(found["r"]))
        return f"since {GERUNDS[verb]}{' ' + rest if rest else ''}" if verb in GERUNDS else \
            f"since they {verb} {rest}".strip()
    event = re.search(r"\b(?:ever\s+)?since\s+(?P<e>(?:the|our|this|that|all\s+the)\s+[^,.!?;]{3,30}?)(?=\s+(?:and|but|so|lol)\b|[,.!?;]|$)",
                      sentence, I)
    if event:
        return "since " + third_person(drop_fillers(event["e"]))
    cause = re.search(r"\b(?:because\s+of|because|about|with|over)\s+(?P<c>[^,.!?;]{3,40})", sentence, I)
    if cause and re.match(r"(?:it|that|this|them|him|her)\b", cause["c"], I):
        return ""
    return f"about {third_person(drop_fillers(cause['c']))}" if cause else ""


LIGHT_MOODS = word_set("en_light_moods")
WEIGHTY = re.compile(r"\b(?:" + RELATIONS + "|" + PETS + r")s?\b|\b(?:work|job|boss|career|school|class|exam|test|interview|surgery|"
                     r"diagnos\w*|results?|appointment|move|moving|wedding|merger|layoffs?|laid\s+off|money|rent|bills|health|"
                     r"doctor|hospital|court|visa|deadline|thesis|presentation|review|promotion|future|life|kids?|baby|pregnan\w*)\b", I)


def _b_mood(m: re.Match, text: str) -> Candidate | None:
    mood = re.sub(r"\s+", " ", m["mood"].lower())
    if mood in LIGHT_MOODS and not WEIGHTY.search(text):
        return None  # "so frustrated with this crossword" is the day's chit-chat
    if mood == "alone" and not re.search(r"\bfeel|felt\b", m.group(0), I):
        return None
    start = max(text.rfind(c, 0, m.start()) for c in ".!?\n") + 1
    ends = [i for i in (text.find(c, m.end()) for c in ".!?\n") if i >= 0]
    reason = _reason(text[start:min(ends) if ends else len(text)])
    if re.search(r"\babout\s+(?:you|u)\b", reason, I):
        return None  # "worried about you lol" is about the companion
    content = f"Feels {mood}" + (f" {reason}" if reason else "")
    return candidate("mood", content, _q(m, text), "relationship:mood")


MOOD_RULES: list[Rule] = [
    Rule("en.mood.mood", "en", "mood", 4600,
         r"(?:\bI(?:(?:'ve|\s+have)\s+been(?:\s+feeling)?|(?:'ve|\s+have)?\s*(?:feel|felt|feeling)|'m(?:\s+feeling)?|"
                r"\s+am(?:\s+feeling)?)|(?:^|[.!?,]\s*)(?:(?:honestly|lately|tbh|ngl)\s+)?(?:been\s+feeling|been|feeling))\s+"
                r"(?:(?:so+|really|pretty|very|kind\s+of|kinda|super|incredibly|extremely|a\s+bit|a\s+little|quite|"
                r"honestly|genuinely|just|constantly|always|lately|completely|totally|way|more|even|a\s+lot|lowkey|"
                r"highkey|beyond|absolutely|utterly|seriously|insanely|crazy|hella|mega|all)\s+)*(?P<mood>" + MOODS + r")\b", _b_mood, I),
    Rule("en.mood.mood.2", "en", "mood", 4610,
         r"\bI(?:'ve|\s+have)\s+(?:(?:just|really|honestly|genuinely|lowkey|always|literally)\s+)+been\s+"
                r"(?:(?:so+|really|pretty|very|kind\s+of|kinda|super|incredibly|extremely|a\s+bit|a\s+little|quite|"
                r"honestly|genuinely|constantly|completely|totally|way)\s+)*(?P<mood>" + MOODS + r")\b", _b_mood, I),
]
