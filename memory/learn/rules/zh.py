"""Chinese extraction rules: the shared vocabulary of the Chinese tables and the profile rules (likes and
dislikes: `zh_likes`; people, pets, moods and feedback: `zh_social`).

Chinese has no spaces, so each rule anchors on the words people use around a fact (叫我…, 住在…,
在…当…, 超迷…, …看腻了, 和…分手了) and cuts names and objects at punctuation or particles.
Dated events live in `memory.learn.rules.events`.
"""
from __future__ import annotations

import re

from memory.learn.rules.common import candidate, clause_at, norm_object, quote_for, zh_clean
from memory.learn.rules.lexicon import alternation, word_set
from memory.learn.rules.registry import Rule
from memory.records import Candidate

HAN = r"\u4e00-\u9fff"
END = r"(?=[，。！？,.!?~～\s、；;]|$"
PARTICLES = alternation("zh_particles")  # 语气词
NAME = rf"(?P<n>[A-Za-z][A-Za-z.'-]{{0,15}}?|[{HAN}]{{1,4}}?)" + END + r"|就|" + PARTICLES + r"|了|[(（]|好了|也行)"
PLACE = rf"(?P<p>(?:(?!在|住)[{HAN}]){{2,8}}?)" + END + r"|离|附近|这边|那边|旁边|一带|的|了|啦|呢|和|跟|上班|工作|，)"
OBJ = (rf"(?P<obj>《[^》]{{1,20}}》|[{HAN}A-Za-z0-9·]{{1,12}}?)" + END
       + r"|了|啦|呀|啊|的时候|已经|一周|每天|每周|因为|所以|但|真的|太|简直|超|特别|吗|呢|，)")
TOPICAL = r"(?:^|(?<=[，。！？,.!?\s]))(?P<obj>《[^》]{1,20}》|[^，。！？,.!?\s我]{1,10}?)我?(?:是|也|现在)?"
BAD_NAME = re.compile(r"^(?:了|过|着|不|他|她|你|人|外卖|车|起床|吃饭|一声|过去|出来|去|来|妈|爸|什么|啥|叫|是|回|早|晚|多|少|别|快|"
                      r"赶|帮|给|做|吃|喝|睡|起|出|进|上|下|把|跟|和|在|到|等|[吧啊呀哦哈嘛呢啦哟喔]$)")
ZAI = r"(?<![现正还实存好])在"
BAD_PLACE = word_set("zh_bad_places")
ENDEARMENTS = word_set("zh_endearments")
JOB_SUFFIX = alternation("zh_jobs")
WORK_FIELD = alternation("zh_work_fields")
RELS = alternation("zh_relations")
PETS = alternation("zh_pets")


def zh_note(text: str) -> str:
    """`zh_clean` (kept as a name: the rules in this file call it)."""
    return zh_clean(text)


def _q(m: re.Match, text: str) -> str:
    return quote_for(text, m.start(), m.end())


NEGATED_BEFORE = re.compile(r"(?:" + alternation("zh_negations") + r")\S{0,1}$")


def _negated_before(text: str, pos: int) -> bool:
    return bool(NEGATED_BEFORE.search(text[max(0, pos - 5):pos]))


# ---------------------------------------------------------------- profile

def _b_name(m: re.Match, text: str) -> Candidate | None:
    name = m["n"]
    if BAD_NAME.match(name):
        return None
    return candidate("profile", f"名字叫{name}", _q(m, text), "profile:name")


def _b_address(m: re.Match, text: str) -> Candidate | None:
    name = re.sub(r"^(?:大名|全名|本名|真名|小名)", "", m["n"])
    if not name or BAD_NAME.match(name):
        return None
    if _negated_before(text, m.start("call")):
        shown = f"“{name}”" if name in ENDEARMENTS else name
        return candidate("feedback", f"不希望被叫{shown}", _q(m, text), "feedback:address", polarity=-1)
    return candidate("profile", f"希望被叫{name}", _q(m, text), "profile:name")


def _b_city(m: re.Match, text: str) -> Candidate | None:
    place = m["p"]
    if place in BAD_PLACE or place.startswith(("一个", "这", "那")):
        return None
    same = re.search(rf"(?:还是|仍然|依然|也|还)在(?P<c>[{HAN}]{{2,4}}?)" + END + r"|就是|只是|，)", text)
    if same and same["c"] not in place:
        place = same["c"] + place
    moved = "搬家了，" if re.search(r"搬家|搬到|搬过来|搬去", text) and "搬到" not in m.group(0) else ""
    verb = "搬到了" if "搬到" in m.group(0) else "现在住在" if "现在" in m.group(0) else "住在"
    plan = re.search(r"(?:要|准备|打算|快要|马上|即将|计划|想)$", text[max(0, m.start() - 4):m.start()])
    if plan and "搬到" in m.group(0):
        clause = clause_at(text, m.start())
        return candidate("profile", zh_note(text[clause.start:m.end()]), _q(m, text), "profile:city:plan")
    return candidate("profile", f"{moved}{verb}{place}", _q(m, text), "profile:city")


INSTITUTION = re.compile(r"(?:银行|医院|学校|工厂|超市|酒店|餐厅|饭店|商场|幼儿园|小学|中学|大学|研究所|事务所|律所|银行|机关|政府|"
                         r"局|厂|店|所|院|部|台|社|馆|中心|集团|企业|外企|国企|央企|车企|药企|门店)$")


def _b_work_city(m: re.Match, text: str) -> Candidate | None:
    if m["p"] in BAD_PLACE or re.search(r"家|公司|单位", m["p"]):
        return None
    if INSTITUTION.search(m["p"]):
        if _someone_else(text, m.start("p")):
            return None
        return candidate("profile", zh_note(clause_at(text, m.start("p")).text), _q(m, text), "profile:job")
    clause = clause_at(text, m.start("p")).text
    if re.search(rf"(?:{RELS}|他|她)", clause[:clause.index(m["p"])]):
        return None  # someone else's city ("我朋友在英国读书")
    return candidate("profile", zh_note(clause[:clause.index(m["p"]) + len(m["p"]) + 2]), _q(m, text), "profile:city")


def _b_hometown(m: re.Match, text: str) -> Candidate | None:
    if m["p"] in BAD_PLACE or re.search(r"一个|什么|哪|这|那|^个|的", m["p"]):
        return None
    return candidate("profile", f"老家是{m['p']}的", _q(m, text), "profile:hometown")


def _someone_else(text: str, pos: int) -> bool:
    """True when the clause before `pos` is about another person ("我朋友在上海当律师"), not the user
    together with them ("我和闺蜜每个周末都去爬山")."""
    clause = clause_at(text, pos)
    before = re.sub(rf"我(?:和|跟)(?!你)(?:我的?)?(?:{RELS})?", "我", text[clause.start:pos])
    return bool(re.search(rf"(?:{RELS}|他|她|别人|人家|大家)", before))


def _told_of_someone(text: str, pos: int) -> bool:
    """True when the clause has no subject and the one before it introduced someone else
    ("我对象叫小北，在上海做建筑设计": the job is his)."""
    clause = clause_at(text, pos)
    if re.match(r"(?:我|现在|目前|如今)", clause.text) or clause.start == 0:
        return False
    before = text[:clause.start].rstrip("，, ")
    prev = clause_at(text, len(before) - 1) if before and before[-1] not in "。！？!?.\n" else None
    return bool(prev and re.match(rf"(?:我的?|我家)(?:{RELS})|[他她]", prev.text))


def _b_job_at(m: re.Match, text: str) -> Candidate | None:
    if m["p"] in BAD_PLACE or _someone_else(text, m.start()):
        return None
    return candidate("profile", f"在{m['p']}当{m['j']}", _q(m, text), "profile:job")


def _b_job(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()) or re.match(rf"的(?:{RELS}|人|那个|那位)", text[m.end():]):
        return None  # "我当导演的朋友说": the job is the friend's
    change = re.search(r"(?:^|[，。！？,.!?\s])(?P<c>[^，。！？,.!?]*(?:升职|跳槽|转行|调岗|换工作|换了工作|转正)[^，。！？,.!?]*)[，,]\s*[^，。！？,.!?]*$",
                       text[:m.start()])
    if change:  # "在银行升职了，现在做客户经理": where and how the job changed belongs to it
        start = change.start("c")
        return candidate("profile", zh_note(text[start:m.end()]), quote_for(text, start, m.end()), "profile:job")
    where = re.search(rf"在(?P<p>(?:一家|一个|一所)?[{HAN}A-Za-z]{{2,8}})$", text[clause_at(text, m.start()).start:m.start()])
    if where and m.group(0).startswith("当") and where["p"] not in BAD_PLACE:  # "在一家奶茶店当店员"
        return candidate("profile", f"在{where['p']}当{m['j']}", _q(m, text), "profile:job")
    return candidate("profile", f"职业是{m['j']}", _q(m, text), "profile:job")


def _b_field(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()) or _told_of_someone(text, m.start()) or re.match(r"(?:个|一个|一|了|点|些|过|完)", m["j"]):
        return None  # "去做个测试" is an errand, not a field
    return candidate("profile", f"做{m['j']}工作", _q(m, text), "profile:job")


def _b_field_at(m: re.Match, text: str) -> Candidate | None:
    if _told_of_someone(text, m.start()) or _someone_else(text, m.start()):
        return None
    if m["p"] in BAD_PLACE or re.match(r"家|公司|单位", m["p"]) or re.search(r"(?<!一)家(?!企)", m["p"]):
        return None
    return candidate("profile", f"在{m['p']}做{m['j']}", _q(m, text), "profile:job")


def _b_settled(m: re.Match, text: str) -> Candidate | None:
    if m["p"] in BAD_PLACE or _someone_else(text, m.start()):
        return None
    verb = m.group(0)[:m.group(0).index("在")]
    return candidate("profile", f"{verb}在{m['p']}", _q(m, text), "profile:city")


def _b_zh_routine(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()) or re.search(r"说|据说|看到|文章|视频|的人", clause_at(text, m.start()).text):
        return None  # "视频里说每天六点起床的人更容易成功" is hearsay
    kind = "wake" if m["w"] == "起床" else "bed"
    clause = clause_at(text, m.start("t"))
    start = clause.start
    lead = re.search(r"[^，。！？,.!?]*(?:早睡|晚睡|早起|熬夜|作息)[^，。！？,.!?]*[，,]\s*$", text[:clause.start])
    if lead:
        start = lead.start()
    return candidate("profile", zh_note(text[start:m.end()]), quote_for(text, start, m.end()), f"profile:routine:{kind}")


# ---------------------------------------------------------------- routines, years in a city, job changes

ROUTINE_ACTS = [  # (how people say it, one topic key for all of them)
    (r"晨跑|夜跑|慢跑|跑步|跑[\d一二三四五六七八九十两]+公里|(?<=去)跑", "跑步"), (r"健身|撸铁|去健身房|力量训练", "健身"),
    (r"游泳", "游泳"), (r"瑜伽", "瑜伽"), (r"普拉提|[Pp]ilates", "普拉提"), (r"冥想", "冥想"), (r"遛狗", "遛狗"),
    (r"散步|走路|快走", "散步"), (r"打视频|视频通话|(?<![看刷拍剪])视频|打电话|通电话|煲电话粥", "通话"),
    (r"背单词|学英语|学日语|练口语", "学语言"), (r"练字|书法", "练字"), (r"练琴|弹琴|练钢琴|弹钢琴|练吉他|弹吉他", "练琴"),
    (r"骑车|骑行|单车", "骑行"), (r"打(?:篮|羽毛|乒乓|网|排)球|踢球|踢足球", "打球"), (r"写日记|记手账", "日记"),
    (r"看书|读书|阅读", "阅读"), (r"做饭|带饭", "做饭"), (r"爬山|徒步", "爬山"), (r"跳舞|练舞|跳操|跳绳", "跳舞"),
    (r"上(?P<cls>[A-Za-z]{2,12}|[\u4e00-\u9fff]{1,4}?)课", "课"), (r"(?<=去)学(?![习到会着了完])(?P<cls2>[\u4e00-\u9fff]{2})", "课"),
]
ROUTINE_ACT = "|".join(p for p, _ in ROUTINE_ACTS)
ROUTINE_WHEN = (r"每(?:天|日|晚|早|周(?!末)[一二三四五六日天、和及]*|个?星期[一二三四五六日天、和]*|个?礼拜[一二三四五六日天]*|个?月)"
                r"|工作日|周一到周五")
ROUTINE_MARK = re.compile(r"雷打不动|坚持|固定|准时|风雨无阻|必须|一定|从不间断|[\d一二三四五六七八九十两]+点|周[一二三四五六日天]")


def routine_key(act: str) -> str:
    """One topic for the ways of naming a routine activity (晨跑, 夜跑 -> 跑步; 上Pilates课 -> 普拉提)."""
    for pattern, key in ROUTINE_ACTS:
        m = re.fullmatch(pattern, act)
        if m:
            return routine_key(m.groupdict().get("cls") or m.groupdict().get("cls2") or "") if key == "课" else key
    return norm_object(act)


def _routine(m: re.Match, text: str, changed: bool) -> Candidate | None:
    clause = clause_at(text, m.start())
    said = text[clause.start:clause_at(text, m.end() - 1).end]  # "每周二、周四…" runs over a 、
    if re.search(r"[吗？?]|如果|要是|假如|打算|准备|计划|想要?|希望|应该|得(?!了)|今天|明天|昨天|这周|下周|上周", said):
        return None  # a question, a plan or one day, not a routine
    steady = ROUTINE_MARK.search(text[m.start():m.end()]) or (
        routine_key(m["act"]) == "通话" and "都" in text[m.start():m.end()])  # "每天晚上都和我妈打电话"
    if _someone_else(text, m.start()) or not (changed or steady):
        return None
    liked = text[:clause.start]
    if re.search(r"喜欢|爱|迷上|热爱", liked) and routine_key(m["act"]) in liked:
        return None  # "我超喜欢跑步，每天晚上都要跑五公里": the like already says it
    content = re.sub(r"(?<![每\d一二三四五六七八九十到])(?=周[一二三四五六日天](?![末]))", "每", zh_note(said))
    return candidate("profile", content, said, f"profile:routine:{routine_key(m['act'])}")


def _b_routine(m: re.Match, text: str) -> Candidate | None:
    """"每周二周四都雷打不动去上Pilates课", "每天早上六点起来晨跑": a habit with its time."""
    return _routine(m, text, changed=False)


def _same_place(text: str, end: int) -> str:
    """The clause after a job change that says what stayed the same ("还是那家奶茶店", "还是做运营")."""
    after = re.match(r"[^，。！？,.!?]*?[，,！!。]+\s*(?P<c>(?:还是|仍然|依然|也还是|继续)[^，。！？,.!?]{1,12})", text[end:])
    return "，" + zh_note(after["c"]) if after else ""


def _b_promoted(m: re.Match, text: str) -> Candidate | None:
    """"我升店长啦！还是那家奶茶店": the job changed (same topic as the old job)."""
    if _someone_else(text, m.start()) or re.search(r"想|要|希望|争取|能不能|如果|要是|快", text[max(0, m.start() - 3):m.start()]):
        return None
    said = m.group(0) if m.group(0).endswith("了") else m.group(0) + "了"
    return candidate("profile", f"{said}{_same_place(text, m.end())}", _q(m, text), "profile:job")


def _b_moved_job(m: re.Match, text: str) -> Candidate | None:
    """"我跳槽到腾讯了，还是做运营": a new employer (same topic as the old job)."""
    if _someone_else(text, m.start()) or re.search(r"想|要|打算|准备|考虑|如果|要是", text[max(0, m.start() - 3):m.start()]):
        return None
    if m["org"] in BAD_PLACE or re.match(r"新|一家|这家|那家|公司|单位", m["org"]) or re.search(r"[吗？?]", text[m.end():m.end() + 3]):
        return None  # "下周一入职新公司" names no employer
    return candidate("profile", f"{m['v']}{m['org']}{_same_place(text, m.end())}", _q(m, text), "profile:job")


def _b_pregnant(m: re.Match, text: str) -> Candidate | None:
    if re.search(r"[吗？?]|如果|要是|想", text[max(0, m.start() - 3):m.end() + 2]):
        return None
    return candidate("profile", zh_note(m.group(0)), _q(m, text), "profile:pregnancy")


def _b_own_shop(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()):
        return None  # "我表哥在杭州开了家火锅店" is his shop
    return candidate("profile", f"自己开了家{m['x']}", _q(m, text), "profile:job")


def _b_left_job(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"已经{m['v']}了", _q(m, text), "profile:job", polarity=-1)


def _b_allergy(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"对{m['x']}过敏", _q(m, text), f"profile:allergy:{m['x']}")


def _b_trait(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()):
        return None
    category = "relationship" if re.search(r"妈|爸", m["x"]) else "profile"
    return candidate(category, zh_note(m.group(0)), _q(m, text), f"profile:trait:{m['x']}", category=category)


def _b_household(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", zh_note(m.group(0)), _q(m, text), "profile:household")


def _b_plan(m: re.Match, text: str) -> Candidate | None:
    if _negated_before(text, m.start()) or _someone_else(text, m.start()):
        return None
    return candidate("profile", zh_note(m.group(0)), _q(m, text), f"profile:plan:{m['x']}")


def _b_major(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()):
        return None
    said = re.sub(r"^我(?:是|本科是|研究生是)?(?=学)|[的，,]$", "", m.group(0))
    return candidate("profile", said if said.startswith(("学", "专业", "读", "主修", "念")) else f"专业是{m['x']}", _q(m, text),
                     "profile:study")


def _b_grade(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()):
        return None
    read = "在读" if re.search(r"在读|在念|正在读", m.group(0)) else ""
    return candidate("profile", f"现在{read}{m['g']}", _q(m, text), "profile:grade")


def _b_age(m: re.Match, text: str) -> Candidate | None:
    suffix = "后" if m.group(0).endswith("后") else "岁"
    content = f"是{m['a']}后" if suffix == "后" else f"今年{m['a']}岁"
    return candidate("profile", content, _q(m, text), "profile:age")


PROFILE_RULES: list[Rule] = [
    Rule("zh.profile.promoted", "zh", "profile", 10000,
         rf"(?:升职?|晋升|提拔)(?:成|为|到|当|做)?了?(?:一名|一个|个)?(?P<j>[{HAN}A-Za-z]{{0,4}}?(?:{JOB_SUFFIX}))", _b_promoted),
    Rule("zh.profile.moved_job", "zh", "profile", 10010,
         rf"(?P<v>跳槽到|跳槽去|跳去|跳到|入职|加入)了?(?P<org>[A-Za-z][A-Za-z0-9&.]{{1,15}}|[{HAN}]{{2,6}}?)" + END + r"|了|啦|上班|工作)", _b_moved_job),
    Rule("zh.profile.routine", "zh", "profile", 10020,
         rf"(?P<when>{ROUTINE_WHEN})[^，。！？,.!?]{{0,16}}?(?P<act>{ROUTINE_ACT})", _b_routine),
    Rule("zh.profile.name.2", "zh", "profile", 10060,
         r"(?<![你他她])我叫" + NAME, _b_name),
    Rule("zh.profile.address", "zh", "profile", 10070,
         r"(?P<call>叫我)" + NAME, _b_address),
    Rule("zh.profile.city", "zh", "profile", 10080,
         r"(?:我)?(?:现在)?住在" + PLACE, _b_city),
    Rule("zh.profile.city.3", "zh", "profile", 10100,
         r"搬到了?" + PLACE, _b_city),
    Rule("zh.profile.work_city", "zh", "profile", 10110,
         ZAI + rf"(?P<p>(?:(?!在)[{HAN}]){{2,6}}?)(?:上班|工作|生活|定居|打工|读书|读研|读博|上学|念书|留学|实习|上大学)", _b_work_city),
    Rule("zh.profile.job", "zh", "profile", 10120,
         rf"(?<![想要让])当(?:个|一个|一名)?(?P<j>[{HAN}]{{0,4}}?(?:{JOB_SUFFIX}))(?=[{HAN}]{{0,2}}(?:太|真|好|很|挺|好|也|难|累|辛苦)|"
                r"[，。！？,.!?\s]|$)", _b_job),
    Rule("zh.profile.own_shop", "zh", "profile", 10130,
         rf"(?:自己)?开了(?:一)?家(?P<x>[{HAN}]{{1,6}}?(?:店|馆|公司|工作室|餐厅|铺|诊所))", _b_own_shop),
    Rule("zh.profile.left_job", "zh", "profile", 10140,
         r"(?:我)?(?:已经)?(?P<v>辞职|离职|裸辞|被裁|失业)了", _b_left_job),
    Rule("zh.profile.settled", "zh", "profile", 10160,
         rf"(?:定居|生活|住|工作|上班)在(?P<p>(?:(?!在)[{HAN}]){{2,6}}?)" + END + r"|了|啦|，)", _b_settled),
    Rule("zh.profile.zh_routine", "zh", "profile", 10190,
         r"(?:每天|平时|一般|现在|最近)?(?:早上|晚上|凌晨)?(?:改成)?(?P<t>[\d一二三四五六七八九十两]+点(?:半|多)?)(?:左右)?(?:才|就|就会|准时|必须)?(?P<w>起床|睡觉|上床|睡)(?!着)", _b_zh_routine),
    Rule("zh.profile.major", "zh", "profile", 10240,
         rf"我(?:是|本科是|研究生是)?学(?P<x>[{HAN}A-Za-z]{{2,6}}?)的", _b_major),
    Rule("zh.profile.trait", "zh", "profile", 10250,
         rf"我(?:现在|目前|本来就|一直)?(?:比较|很|挺|特别|有点|是个|是一个|就是个|属于|是|有)?(?:重度|轻度|严重的?|典型的?|资深|十足的?|妥妥的?|"
                rf"纯纯?的?|超级|一个|个|点|一点)?(?P<x>内向|外向|社恐|社交恐惧症?|慢热|i人|I人|e人|E人|急性子|慢性子|"
                rf"完美主义者?|夜猫子|吃货|路痴|工作狂|宅女|宅男|社牛|单亲妈妈|单亲爸爸|宝妈|宝爸|独生女|独生子|恐高症?|"
                rf"强迫症|拖延症|选择困难症?|密集恐惧症?|起床困难户|乳糖不耐受?|左撇子|素食者|色盲|色弱|近视|夜盲)"
                rf"(?![吗吧呢？?]|的(?:{RELS}))", _b_trait),
    Rule("zh.profile.household", "zh", "profile", 10260,
         r"我(?:现在|目前|一直)?(?P<x>(?:一个人|自己|独自)住|(?:跟|和)(?:爸妈|父母|家人|男朋友|女朋友|老公|老婆|室友|朋友|同学|对象|"
                r"爷爷奶奶|外婆)(?:一起)?住)", _b_household),
    Rule("zh.profile.plan", "zh", "profile", 10270,
         r"(?:在|正在)(?:准备|备考|备战)(?P<x>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=$|[，。！？,.!?\s]|了|呢|啦)", _b_plan),
    Rule("zh.profile.hometown.2", "zh", "profile", 10320,
         rf"老家(?:是|在)(?P<p>[{HAN}]{{2,6}}?)(?:的|人)?" + END + ")", _b_hometown),
    Rule("zh.profile.job_at", "zh", "profile", 10330,
         ZAI + rf"(?P<p>(?:(?!在)[{HAN}]){{2,6}}?)当(?P<j>[{HAN}]{{1,6}}?)" + END + r"|了|的|呢|啊|已经|快|好)", _b_job_at),
    Rule("zh.profile.job.3", "zh", "profile", 10340,
         rf"(?:我是|我当|我在当|我做|改行(?:做|当)|转行(?:做|当)|现在(?:做|当|是)|目前(?:做|当|是)|开始(?:做|当))(?:了)?(?:一名|一个|个|名)?"
                rf"(?P<j>[{HAN}A-Za-z]{{0,6}}?(?:{JOB_SUFFIX}))", _b_job),
    Rule("zh.profile.field_at", "zh", "profile", 10350,
         ZAI + rf"(?P<p>(?:(?!在)[{HAN}]){{2,6}}?)做(?P<j>[{HAN}A-Za-z]{{0,4}}(?:{JOB_SUFFIX}|{WORK_FIELD}))", _b_field_at),
    Rule("zh.profile.major.2", "zh", "profile", 10370,
         rf"(?:学的是|专业是|读的是|学的专业是|主修|念的是)(?P<x>[{HAN}A-Za-z]{{2,8}}?)(?:专业)?" + END + r"|的|，)", _b_major),
    Rule("zh.profile.grade", "zh", "profile", 10380,
         r"(?:今年|现在|我|刚上|在读|读)(?:读|在读|上)?(?P<g>大[一二三四]|研[一二三]|博[一二三四五]|高[一二三]|初[一二三])"
                r"(?=[，。！？,.!?\s]|$|了|的|学生|在|啦)", _b_grade),
    Rule("zh.profile.allergy", "zh", "profile", 10390,
         rf"(?:我)?对(?P<x>[{HAN}A-Za-z]{{1,8}}?)(?:严重|有点|特别)?过敏", _b_allergy),
    Rule("zh.profile.field", "zh", "profile", 10410,
         rf"(?<![叫])做(?P<j>[{HAN}A-Za-z]{{0,4}}(?:{JOB_SUFFIX}|{WORK_FIELD}))(?:的|工作)?", _b_field),
    Rule("zh.profile.age", "zh", "profile", 10450,
         r"(?:我(?:今年)?|(?<![^，,。！!\s])今年)(?P<a>\d{2}|[二三四五六七八九]十[一二三四五六七八九]?)岁", _b_age),
    Rule("zh.profile.hometown.3", "zh", "profile", 10470,
         rf"老家(?![是在])(?P<p>[{HAN}]{{2,4}}?)(?:的|人)" + END + ")", _b_hometown),
    Rule("zh.profile.grade.2", "zh", "profile", 10490,
         r"我(?:现在|目前)?(?:在读|在念|正在读)(?P<g>研|博|大学|本科|研究生|博士|高中|初中|大专|专科)(?=$|[，。！？,.!?\s]|了|呢|啦)", _b_grade),
    Rule("zh.profile.pregnant", "zh", "profile", 10520,
         r"(?<![你他她])我(?:已经)?怀孕(?:了)?(?:[\d一二三四五六七八九十两]{1,2}(?:个月|周))?了?", _b_pregnant),
]
