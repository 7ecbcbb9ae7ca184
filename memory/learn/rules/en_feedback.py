"""English extraction rules for the user's guidance to the companion ("stop asking so many questions")."""
from __future__ import annotations

import re

from memory.learn.rules.common import candidate, drop_fillers, third_person
from memory.learn.rules.en import STYLE_NOUN, I, _q, style_topic
from memory.learn.rules.registry import Rule
from memory.records import Candidate


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


def _b_too_much(m: re.Match, text: str) -> Candidate | None:
    what = m["what"].lower()
    topic = {"joke": "feedback:humor", "apologise": "feedback:apologies", "apologize": "feedback:apologies"}.get(what, "feedback:length")
    verb = what + ("s" if not what.endswith("e") else "s")
    return candidate("feedback", f"Finds the companion {verb} too much", _q(m, text), topic)


REQ_VERBS = (r"(?:stop|quit|avoid|not|start|try\s+to|tone\s+down|chill(?:\s+out)?\s+(?:on|with)|ease\s+off(?:\s+on)?|"
             r"dial\s+(?:it\s+)?(?:back|down)(?:\s+on)?|go\s+lighter\s+on|lighten\s+up\s+on|type|tone\s+it\s+down\s+with|cut\s+(?:down|back)\s+on|"
             r"cut\s+out|use\s+(?:less|fewer|more)|be\s+(?:more|less)|keep|go\s+easy\s+on|lay\s+off|ease\s+up\s+on|"
             r"skip|drop|ditch|lose|limit|write|answer|reply|respond|talk|speak|send|use|give)\b")


FEEDBACK_RULES: list[Rule] = [
    Rule("en.feedback.request", "en", "feedback", 2000,
         r"\b(?:can|could|would|will)\s+(?:you|u|ya)\s+(?:please\s+|plz\s+|maybe\s+|pls\s+|just\s+|kindly\s+|try\s+and\s+)*"
                r"(?P<req>" + REQ_VERBS + r"[^?.!\n]*)", _b_request, I),
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
    Rule("en.feedback.too_much", "en", "feedback", 2100,
         r"\byou\s+(?:always\s+|sometimes\s+|kinda\s+|honestly\s+)?(?P<what>talk|ramble|write|text|apologi[sz]e|joke)\s+"
                r"(?:(?:way|a\s+bit|a\s+little|kinda|so\s+much)\s+)?too\s+much\b(?![^.!\n]*\?)", _b_too_much, I),
]
