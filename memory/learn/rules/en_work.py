"""English extraction rules for what the user does: jobs, trades, promotions, studies and work status."""
from __future__ import annotations

import re

from memory.learn.rules.common import candidate, drop_fillers, norm_object, third_person
from memory.learn.rules.en import INTRO, JOBS, RELATIONS, I, _q
from memory.learn.rules.registry import Rule
from memory.records import Candidate

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


def _b_job(m: re.Match, text: str) -> Candidate | None:
    job = m["job"].strip()
    art = _article(job)
    where = _where(m)
    return candidate("profile", f"Works as {art} {job}{where}", _q(m, text), "profile:job")


def _where(m: re.Match) -> str:
    where = (m.groupdict().get("where") or "").strip()
    where = re.sub(r"\s+(?:last|this|next)\s+(?:week|month|year)$|\s+(?:now|lol|lately)$", "", where, flags=I)
    return " " + third_person(where) if where else ""


def _b_passed(m: re.Match, text: str) -> Candidate | None:
    """"I finally passed my CPA exam": a qualification the user now holds."""
    if re.search(r"\b(?:hope|hoping|if|think|pray|praying|wish|need\s+to|have\s+to|gotta|want\s+to)\b[^.!?]*$", text[:m.start()], I):
        return None
    what = third_person(m["what"].strip())
    return candidate("profile", f"Passed {what}", _q(m, text), f"profile:credential:{norm_object(m['what'])}")


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


def _b_works_at(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"Works at {third_person(drop_fillers(m['org'].strip()))}", _q(m, text), "profile:job")


def _b_intro_bare(m: re.Match, text: str) -> Candidate | None:
    if not INTRO.search(text):
        return None
    if m["parent"]:
        return candidate("relationship", f"Is a {m['parent'].lower()}", _q(m, text).lstrip(", "), "relationship:status")
    job = m["job"].strip()
    art = "an" if job[:1].lower() in "aeiou" and not re.match(r"U[A-Z]|u[bns]i|eu", job) else "a"
    return candidate("profile", f"Works as {art} {job}", _q(m, text).lstrip(", "), "profile:job")


WORK_RULES: list[Rule] = [
    Rule("en.profile.job", "en", "profile", 1120,
         r"\b(?:I'm|I\s+am|im)\s+(?:(?:now|currently|actually|still|officially|finally|technically|also)\s+)*(?:a|an)\s+"
                r"(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))\b"
                r"(?P<where>\s+(?:at|for|in|to|with)\s+(?:(?:St|Mt|Ft|Dr)\.\s*)?[^,.!?;\n]{2,40}?)?(?=\s*(?:[,.!?;)]|—|$)|\s+(?:and|but|so|lol|now)\b)", _b_job, I),
    Rule("en.profile.being_job", "en", "profile", 1160,
         r"\bbeing\s+(?:a|an)\s+(?P<job>(?:[\w-]+\s+){0,2}?(?:" + JOBS + r"))\s+(?=(?:on|with|during|through|at|in|while|"
                r"after|before|this|these|today|right\s+now|lately)\b)", _b_being_job, I),
    Rule("en.profile.job_here", "en", "profile", 1180,
         r"(?:^|[.!?]\s+)(?:(?:hi|hey|hello|ok|so|yeah)[,!]?\s+)?(?:(?:(?:just\s+)?(?:a|an)|fellow|tired|exhausted|burnt[- ]out|"
                r"burned[- ]out|overworked|retired|former|ex-|new|lonely|sleepy|broke)\s*)?(?P<job>(?:[\w-]+\s+){0,1}?(?:" + JOBS + r"))\s+here\b(?!\s*\?)"
                r"(?!\s+(?:is|was|are|were|said|says|told|and\s+there|at|in|to|for))", _b_job_here, I),
    Rule("en.profile.passed", "en", "profile", 1230,
         r"\bI\s+(?:(?:finally|officially|just|actually|totally)\s+)*(?:passed|aced|cleared)\s+(?P<what>(?:my|the)\s+(?:[\w-]+\s+){0,3}?"
                r"(?:exams?|boards|bar(?:\s+exam)?|license|licensing\s+exam|certification|cert|driving\s+test|road\s+test|"
                r"(?:NCLEX|MCAT|LSAT|CPA|step\s+[123]|qualifying|quals)(?:\s+exams?)?|defen[cs]e))\b(?!\s+(?:exam|test))", _b_passed, I),
    Rule("en.profile.job.7", "en", "profile", 1310,
         r"\bI\s+work\s+(?:from\s+home\s+|remotely\s+|part[- ]time\s+|full[- ]time\s+|freelance\s+)?as\s+(?:a|an)\s+"
                r"(?P<job>[^,.!?;\n]{2,40}?)"
                r"(?P<where>\s+(?:at|for|in)\s+[^,.!?;\n]{2,40}?)?(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so)\b)", _b_job, I),
    Rule("en.profile.teach", "en", "profile", 1340,
         r"\b(?:I\s+teach|teaching)\s+(?P<level>" + TEACH_LEVELS + r")\b(?!\s+(?:myself|to\s+my))", _b_teach, I),
    Rule("en.profile.job_verb.2", "en", "profile", 1350,
         r"\bI\s+(?P<verb>do|run|manage|own)\s+(?P<rest>(?:the\s+|a\s+|an\s+|my\s+own\s+)?[\w-]+(?:\s+[\w-]+)?"
                r"\s+(?:for|at)\s+[^,.!?;\n]{2,50}?)(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol)\b)", _b_job_verb, I),
    Rule("en.profile.job_verb.3", "en", "profile", 1380,
         r"\bI\s+(?P<verb>drive|cook|write|code|design|clean|deliver|bartend|volunteer|nanny|tutor|edit|build|teach|"
                r"wait\s+tables|work\s+retail|"
                r"waitress|babysit|coach|serve)\s+"
                r"(?P<rest>(?:[\w-]+\s+)?(?:for|at)\s+(?:(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(?:company|firm|agency|startup|hospital|"
                r"school|restaurant|bank|store|shop|cafe|bar|pub|brewery|diner|hotel|magazine|newspaper|studio|nonprofit|charity|clinic|"
                r"warehouse|app|service|college|university|academy|daycare|gym|salon|club|lounge|bistro|bakery)|(?-i:[A-Z])[\w'&-]*"
                r"(?:\s+(?-i:[A-Z])[\w'&-]*)*)(?:\s+(?:in|downtown\s+in)\s+(?-i:[A-Z])[\w'.-]*(?:\s+(?-i:[A-Z])[\w'.-]*)?)?)", _b_job_verb, I),
    Rule("en.profile.works_at", "en", "profile", 1440,
         r"(?i:\bI\s+(?:also\s+|currently\s+|now\s+)?work\s+(?:remotely\s+|part[- ]time\s+|full[- ]time\s+|from\s+home\s+)?(?:at|for)\s+)"
                r"(?P<org>(?i:a|an|the)\s+[^,.!?;\n]{2,40}?|[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*)*)"
                r"(?=\s*(?:[,.!?;]|$)|\s+(?:and|but|so|lol|now|as)\b)", _b_works_at),
    Rule("en.profile.intro_bare", "en", "profile", 1520,
         r"(?:^|[,:;]\s*)(?:(?P<parent>(?i:(?:single\s+)?(?:mom|mum|dad|mother|father|parent)\s+of\s+"
                r"(?:one|two|three|four|five|\d)(?:\s+(?:kids|boys|girls))?))|(?:(?i:a|an)\s+)?(?P<job>(?:[\w-]+\s+){0,2}?(?i:" + JOBS + r")))"
                r"(?=\s*(?:[,;.!]|$))", _b_intro_bare),
]
