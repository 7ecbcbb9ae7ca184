"""Chinese extraction rules for the people and pets in the user's life, moods, and feedback to the companion.

Like `zh`, each rule anchors on the words people use around a fact (我妈…住院了, 和…分手了,
心情很差, 说话别那么正式) and cuts names at punctuation or particles.
"""
from __future__ import annotations

import re
from datetime import date

from memory.learn.rules.common import candidate, clause_at, clauses, quote_for, sentences, split_span
from memory.learn.rules.lexicon import alternation
from memory.learn.rules.registry import Rule
from memory.learn.rules.zh import BAD_NAME, HAN, JOB_SUFFIX, NAME, PETS, RELS, _q
from memory.learn.rules.zh import zh_note as zh_clean  # zh_clean without "妹妹妹"
from memory.records import Candidate

FAMILY = alternation("zh_family")
KIN_FULL = {"姐": "姐姐", "妹": "妹妹", "哥": "哥哥", "弟": "弟弟", "妈": "妈妈", "爸": "爸爸"}
NEWS = (r"生了|怀孕|结婚|去世|走了|住院|生病|手术|离婚|确诊|退休|吵了|吵架|闹翻|冷战|出国|考上|毕业|分手|病了|过世|"
        r"身体不(?:太|是很)?好|身体出了?问题|不舒服|查出|骨折|摔(?:了|倒)|进了?医院|出事|失业|被裁|辞职|"
        r"上(?:小学|初中|高中|大学|幼儿园)|出生|满月|周岁|异地|在一起|同居|订婚|搬到一起|住到一起|闹僵|和好|复合|"
        r"(?:今年|已经|都|快)[\d一二三四五六七八九十两]{1,3}岁|"
        r"关系(?:一直|很|特别|不太|不|挺|超|都|还|非常|有点|越来越|变得|比较)*(?:好|差|紧张|一般|僵|冷淡|疏远|近|亲|铁|尴尬|恶劣)")
MOOD = (r"压力(?:好|很|特别|超|太|超级|有点|挺)?大|失眠|焦虑|抑郁|孤独|孤单|寂寞|(?<![A-Za-z])emo(?![A-Za-z])|心情[^，。！？]{0,4}?(?:不好|不太好|很差|差|低落|糟)|"
        r"提不起劲|提不起兴趣|打不起精神|没劲|"
        r"状态[^，。！？]{0,3}?(?:差|不好|不行)|想家|一事无成|心态崩|压力山大|破防|心力交瘁|身心俱疲|绝望|自卑|空虚|精神内耗|内耗|"
        r"情绪低落|崩溃|心累|难过|伤心|堵得慌|想哭|没动力|迷茫|很丧|好丧|烦躁|睡不着|喘不过气|撑不住|扛不住|顶不住|"
        r"(?:最近|这段时间|这阵子|一直|每天)[^，。！？]{0,6}?(?:好累|很累|太累|特别累|超累|累死|疲惫)")
STYLE = [(r"感叹号", "exclamation"), (r"道歉|对不起|抱歉", "apologies"), (r"表情|emoji", "emoji"), (r"问号|反问|提问|问我", "questions"),
         (r"建议|鸡汤|说教|大道理|讲道理|劝我?|催我|唠叨|念叨", "advice"), (r"简短|简洁|啰嗦|废话|长篇大论|字数|篇幅|太长|短一点|短点", "length"),
         (r"(?:那么|这么|太|很|好)长|长消息|长文|字太多", "length"), (r"玩笑|段子|幽默", "humor"), (r"语气|温柔|正式|口语|客套|官方|敷衍|书面|直接|委婉|坦率|绕弯子|夸我|客气|网络用语|网络语言|网络梗|玩梗|流行语|绝绝子|yyds|黑话|缩写|中英夹杂", "tone"),
         (r"列表|分点|markdown", "format"), (r"英文|英语|中文|繁体|粤语", "language"),
         (r"说话|回复|回答|聊天|消息", "style"),
         (r"你(?:以后)?(?:别|不要|能不能别|可不可以别|少)(?:老是?|总是?|再|一直|动不动就?|每次都)", "habit")]
DIRECTIVE = re.compile(r"别|不要|少|多|以后|下次|今后|能不能|可不可以|可以|能用|请|希望|一点|一些|就行|就好|不用|简短|简洁|点$|点[吧啊呀儿嘛哈]|些$")

# ---------------------------------------------------------------- people, pets and moods


def _follow_up(text: str, end: int) -> str:
    """The next clause when it goes on about the same person ("她下个月要去英国读书了")."""
    for sent in sentences(text):
        for cl in clauses(sent):
            if cl.start >= end:
                if re.match(r"^(?:她|他|它|我们)", cl.text):
                    return "，" + zh_clean(cl.text if not cl.text.startswith("我们") else cl.text[2:])
                return ""
    return ""


def _b_named(m: re.Match, text: str) -> Candidate | None:
    rel, name = m["rel"], m["n"]
    if BAD_NAME.match(name) or name.startswith("叫") or name in ("老是", "老师", "老家", "老板", "小时", "小区", "小孩", "小学", "阿姨"):
        return None
    rest_clause = clause_at(text, m.end("n") - 1)
    rest = zh_clean(text[m.end("n"):rest_clause.end])
    lead = m["lead"] if m["lead"] in ("和", "跟") else ""
    link = "叫" if m.group(0).find("叫") > 0 else ""
    content = f"{lead}{KIN_FULL.get(rel, rel)}{link}{name}{rest}{_follow_up(text, rest_clause.end)}"
    return candidate("relationship", content, quote_for(text, m.start(), rest_clause.end), f"relationship:{name}")


def _b_subject_news(m: re.Match, text: str) -> Candidate | None:
    """"咪咪上周去世了": news about someone named before (a pet name or nickname) as the subject."""
    if BAD_NAME.match(m["n"]) or re.match(r"小(?:时|区|孩|学|朋友|组|伙|姐姐|哥哥|姑娘|年轻)|阿姨", m["n"]):
        return None
    clause = clause_at(text, m.start())
    return candidate("relationship", zh_clean(clause.text), clause.text, f"relationship:{m['n']}")


def _b_together(m: re.Match, text: str) -> Candidate | None:
    """"我和小林在一起三年了", "我跟小琪和好了": named, and the same topic as an earlier break."""
    if BAD_NAME.match(m["n"]):
        return None
    return candidate("relationship", zh_clean(m.group(0)), _q(m, text), f"relationship:{m['n']}")


def _b_kept_pet(m: re.Match, text: str) -> Candidate | None:
    if BAD_NAME.match(m["n"]):
        return None
    return candidate("relationship", f"养了一只{m['desc']}{m['rel']}，叫{m['n']}", _q(m, text), f"relationship:{m['n']}")


def _b_breakup(m: re.Match, text: str) -> Candidate | None:
    name, verb = m["n"], re.search(r"分手|分开|离婚|绝交|闹掰|断交|翻脸", m.group(0)).group(0)  # type: ignore[union-attr]
    return candidate("relationship", f"已经和{name}{verb}了", _q(m, text), f"relationship:{name}", -1)


def _b_news(m: re.Match, text: str) -> Candidate | None:
    if re.match(NICK, text[m.end("rel"):]):
        return None  # "我弟弟小宇考上大学了" is kept under 小宇
    rel = KIN_FULL.get(m["rel"], m["rel"])
    clause = clause_at(text, m.start("rel"))
    return candidate("relationship", zh_clean(clause.text), clause.text, f"relationship:{rel}")


def _b_mood(m: re.Match, text: str) -> Candidate | None:
    clause = clause_at(text, m.start())
    if re.search(r"不(?:焦虑|孤独|难过|伤心|迷茫)|没(?:有)?(?:压力|失眠)", clause.text) or re.search(
            r"(?:不|没有?|(?<![特区分告级类性离差个])别|不要)(?:太|怎么|再|那么|用)?$", text[max(clause.start, m.start() - 3):m.start()]):
        return None  # "我不自卑", "别难过": not how the user feels
    return candidate("mood", zh_clean(clause.text), clause.text, "relationship:mood")


PET_NAME = rf"(?P<n>(?:小|阿|老)[{HAN}]|[{HAN}]{{2}})(?=[{HAN}，。！？,.!?\s（(]|$)"
# a repeated syllable is a pet name or nickname (朵朵, 豆豆) unless it is a common word (天天, 刚刚, 看看, 妈妈)
REDUP_WORDS = "天常刚偷好慢悄默每渐稍早久时处样整足明往仅偏统白轻匆乖紧频连纷多狠活生高大快静呵哈嘿嘻嗯哦啊呜哇看说想试走聊问等谈逛玩尝听写学练找查摸抱亲睡吃喝妈爸哥姐弟妹爷奶姥宝个人家年月日次件位星"
NICK = (rf"(?P<n>(?:小|阿)[{HAN}]{{1,2}}?|阿[A-Za-z]{{2,10}}|[A-Z][a-z]{{1,10}}|(?P<dup>(?![{REDUP_WORDS}])[{HAN}])(?P=dup))"
        rf"(?=[{HAN}，。！？,.!?\s（(]|$)")
BREAKUP_WHEN = "已经|早就|终于|正式|彻底|刚|上周|昨天"  # said between the person and the breakup: never a name
PEOPLE_RULES: list[Rule] = [
    Rule("zh.relationship.breakup", "zh", "relationship", 12000,
         rf"(?:我)?(?:和|跟)(?:{RELS})?(?!{BREAKUP_WHEN})(?P<n>(?:小|阿|老)[{HAN}]{{1,2}}?|[{HAN}]{{2}}?)(?:{BREAKUP_WHEN})?"
                r"(?:分手|分开|离婚|绝交|闹掰|断交|翻脸)了?", _b_breakup),
    Rule("zh.relationship.named", "zh", "relationship", 12020,
         rf"(?P<lead>我家的|我的|我家|我|和|跟|的|有个|有一个|有位|有一位|有只|有一只)(?:那|这)?(?:一)?(?:只|条)?(?P<rel>{RELS}|{PETS})(?:的名字)?叫" + NAME, _b_named),
    Rule("zh.relationship.named.2", "zh", "relationship", 12030,
         rf"(?P<lead>我的|我家|我|和|跟)(?P<rel>{RELS})" + NICK, _b_named),
    Rule("zh.relationship.named.3", "zh", "relationship", 12060,
         rf"(?P<lead>我的|我家|我)(?P<rel>{PETS})" + PET_NAME, _b_named),
    Rule("zh.relationship.kept_pet", "zh", "relationship", 12070,
         rf"养了?(?:一)?(?:只|条|个|头)(?P<desc>[{HAN}]{{0,3}}?)(?P<rel>{PETS})(?:叫|名叫|名字叫)" + NAME, _b_kept_pet),
    Rule("zh.relationship.news", "zh", "relationship", 12080,
         rf"(?:我|跟我|和我)(?P<rel>{RELS})(?P<pred>[^，。！？,.!?]*?(?:{NEWS}))", _b_news),
    Rule("zh.relationship.news.2", "zh", "relationship", 12090,
         rf"(?:跟|和)(?:我)?(?P<rel>{RELS})(?P<pred>[^，。！？,.!?]{{0,8}}?(?:{NEWS}))", _b_news),
    Rule("zh.relationship.subject_news", "zh", "relationship", 12110,
         r"(?:^|(?<=[，。！？,.!?\s]))" + NICK.replace("(?=[", "(?=(?:上周|昨天|前天|最近|前几天|突然|刚刚?|今天)?(?:{NEWS}))(?=[", 1)
                .replace("{NEWS}", NEWS), _b_subject_news),
    Rule("zh.relationship.together", "zh", "relationship", 12120,
         rf"(?:我)?(?:和|跟)(?P<n>(?:小|阿)[{HAN}]{{1,2}}?|[A-Z][a-z]{{1,10}})(?:已经|终于|又)?(?:在一起|和好|复合)(?:[\d一二三四五六七八九十两半]{{1,3}}(?:个月|年))?了", _b_together),
    Rule("zh.relationship.news.4", "zh", "relationship", 12130,
         rf"(?:我|我的|我家)(?P<rel>{FAMILY})(?P<pred>(?:是|当|做)(?:一名|一个|个|名)?[{HAN}A-Za-z]{{0,6}}?(?:{JOB_SUFFIX})|"
                rf"在[^，。！？,.!?]{{2,10}}?(?:上班|工作|读书|上学|读研|(?:当|做)[{HAN}A-Za-z]{{0,6}}?(?:{JOB_SUFFIX})))", _b_news),
]
MOOD_RULES: list[Rule] = [Rule("zh.mood.mood", "zh", "mood", 12600,
         MOOD, _b_mood)]

# ---------------------------------------------------------------- feedback


_CJK_SPACE = re.compile(rf"(?<=[{HAN}])\s+(?=[{HAN}])")


def feedback(text: str) -> list[Candidate]:
    """Style guidance addressed to the companion ("说话简短一点", "别老用那么多感叹号")."""
    out: list[Candidate] = []
    for sent in sentences(text):
        # Guidance is one thought: a space between Chinese characters ends it ("我是视障人士 用读屏软件聊天的
        # 回复里别放太多表情符号"), so the facts typed beside it are not read as part of the request.
        parts = [piece for cl in clauses(sent) for piece in split_span(cl, _CJK_SPACE)]
        for j, cl in enumerate(parts):
            topic = next((t for p, t in STYLE if re.search(p, cl.text)), None)
            if not topic or not DIRECTIVE.search(cl.text) or "叫我" in cl.text:
                continue
            if not re.search(r"你|^(?:以后|平时|今后|下次|还有|另外|也|那)?(?:别|不要|少|多|请|说话|回复|回答|能不能|可不可以)", cl.text):
                continue
            if topic == "habit":  # "你别老劝我早点睡" is guidance; "你别老是逗我了", "你别再说了" are not
                said = re.split(r"老是?|总是?|再|一直|动不动就?|每次都", cl.text, maxsplit=1)[-1]
                if len(re.sub(r"[我了嘛啊呀哈吧呢～~!！。]", "", said)) < 3 or re.match(r"这样|那样|这么|那么", said):
                    continue
            body = re.sub(r"能不能|可不可以|可以|请|麻烦|好吗|行吗|好不好|跟你|和你|吗$|[吗?？]+$", "", cl.text)
            body = re.sub(r"我的时候", "的时候", body)  # "你回我的时候": not "my"
            body = re.sub(r"^你的", "", body)
            content = "希望" + zh_clean(body)
            start = cl.start
            if j and re.search(r"(?:的时候|时)$", parts[j - 1].text):
                content = zh_clean(re.sub(r"我跟你|我和你|跟你|和你", "", parts[j - 1].text)) + "，" + content
                start = parts[j - 1].start
            out.append(candidate("feedback", content, text[start:cl.end], f"feedback:{topic}"))
    return out


def _scan_feedback(text: str, today: date) -> list[Candidate]:
    return feedback(text)


SCAN_RULES: list[Rule] = [
    Rule("zh.feedback.style", "zh", "feedback", 13000, None, scan=_scan_feedback),
]
