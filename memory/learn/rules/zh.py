"""Chinese extraction rules: profile, likes and dislikes (people, pets, moods and feedback: `zh_social`).

Chinese has no spaces, so each rule anchors on the words people use around a fact (叫我…, 住在…,
在…当…, 超迷…, …看腻了, 和…分手了) and cuts names and objects at punctuation or particles.
Dated events live in `memory.learn.rules.events`.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta
from typing import Callable

import rjieba

from memory.dates import find_dates
from memory.learn.rules.common import candidate, clause_at, norm_object, quote_for, sentences, zh_clean
from memory.records import Candidate

Builder = Callable[[re.Match, str], "Candidate | None"]
HAN = r"\u4e00-\u9fff"
END = r"(?=[，。！？,.!?~～\s、；;]|$"
NAME = rf"(?P<n>[A-Za-z][A-Za-z.'-]{{0,15}}?|[{HAN}]{{1,4}}?)" + END + r"|就|吧|啊|呀|哦|哈|嘛|呢|啦|哟|喔|了|[(（]|好了|也行)"
PLACE = rf"(?P<p>(?:(?!在|住)[{HAN}]){{2,8}}?)" + END + r"|离|附近|这边|那边|旁边|一带|的|了|啦|呢|和|跟|上班|工作|，)"
OBJ = (rf"(?P<obj>《[^》]{{1,20}}》|[{HAN}A-Za-z0-9·]{{1,12}}?)" + END
       + r"|了|啦|呀|啊|的时候|已经|一周|每天|每周|因为|所以|但|真的|太|简直|超|特别|吗|呢|，)")
TOPICAL = r"(?:^|(?<=[，。！？,.!?\s]))(?P<obj>《[^》]{1,20}》|[^，。！？,.!?\s我]{1,10}?)我?(?:是|也|现在)?"
BAD_NAME = re.compile(r"^(?:了|过|着|不|他|她|你|人|外卖|车|起床|吃饭|一声|过去|出来|去|来|妈|爸|什么|啥|叫|是|回|早|晚|多|少|别|快|"
                      r"赶|帮|给|做|吃|喝|睡|起|出|进|上|下|把|跟|和|在|到|等|[吧啊呀哦哈嘛呢啦哟喔]$)")
ZAI = r"(?<![现正还实存好])在"
SURNAMES = ("王|李|张|刘|陈|杨|黄|赵|吴|周|徐|孙|马|朱|胡|郭|何|高|林|罗|郑|梁|谢|宋|唐|许|韩|冯|邓|曹|彭|曾|肖|田|董|袁|潘|于|"
            "蒋|蔡|余|杜|叶|程|苏|魏|吕|丁|任|沈|姚|卢|姜|崔|钟|谭|陆|汪|范|金|石|廖|贾|夏|韦|付|方|白|邹|孟|熊|秦|邱|江|尹|"
            "薛|闫|段|雷|侯|龙|史|陶|黎|贺|顾|毛|郝|龚|邵|万|钱|严|覃|武|戴|莫|孔|向|汤|欧阳|司马|上官|诸葛")
BAD_PLACE = frozenset("家里 家 公司 宿舍 学校 附近 这里 那里 这边 那边 外面 一起 楼下 隔壁 一个人 单位 市区".split())
ENDEARMENTS = frozenset("亲爱的 宝贝 宝宝 亲 小可爱 老板 美女 帅哥 亲亲 哥们 兄弟 姐妹 宝 老铁 小朋友 同学 大人 主人".split())
JOB_SUFFIX = (r"老师|教师|医生|护士|工程师|程序员|设计师|律师|会计|厨师|司机|警察|记者|编辑|销售|客服|主播|作家|演员|歌手|"
              r"画家|经理|主管|店长|服务员|快递员|外卖员|保安|研究生|博士生|大学生|公务员|会计师|药剂师|咨询师|分析师|运营|"
              r"策划|翻译|模特|摄影师|教练|导游|空姐|飞行员|军人|农民|工人|创业者|自由职业者|实习生|管培生|研究员|医师|"
              r"护工|保姆|幼师|辅导员|码农|社工|高中生|初中生|学生|HR|产品经理|律师助理|全职妈妈|全职太太|柜员|店员|收银员|文员|"
              r"职员|专员|助理|前台|导购|行长|科长|处长|总监|主任|组长|店主|理发师|美甲师|化妆师|出纳|审计师|精算师|架构师|博主|"
              r"UP主|up主|中介|保险经纪人|医药代表|健身教练|"
              # more trades, most specific first where one name ends another
              r"营养师|建筑师|规划师|造价师|理财师|调酒师|咖啡师|甜点师|面点师|烘焙师|面包师|按摩师|康复师|治疗师|美容师|纹身师|"
              r"插画师|原画师|动画师|剪辑师|录音师|调音师|灯光师|造型师|发型师|培训师|讲师|教授|副教授|助教|班主任|技师|药师|"
              r"麻醉师|牙医|兽医|中医|心理医生|陪诊师|整理师|收纳师|花艺师|茶艺师|园艺师|驯犬师|宠物美容师|月嫂|育儿嫂|家政|保洁|"
              r"电工|焊工|木工|瓦工|水电工|装修工|厨子|帮厨|面点|裁缝|营业员|售货员|业务员|推销员|安检员|乘务员|空乘|列车员|技术员|"
              r"质检员|检验员|化验员|仓管|操作员|办事员|辅警|协警|消防员|民警|交警|狱警|法官|检察官|书记员|公证员|理赔员|话务员|"
              r"调度员|播音员|主持人|编剧|导演|制片人|舞者|乐手|鼓手|DJ|网红|自媒体人|带货主播|项目经理|客户经理|产品助理|"
              r"创始人|合伙人|CEO|CTO|HRBP|猎头|秘书|跟单员|报关员|骑手|网约车司机|出租车司机|货车司机|代驾|物业|小老板|个体户|摊主|"
              r"家庭主妇|选调生|村官|口译|笔译|文案|美编|画师|漫画家|独立开发者|数据分析师|数据科学家|算法工程师|运维|测试工程师|"
              r"前端工程师|后端工程师|全栈工程师|交互设计师|视觉设计师|平面设计师|室内设计师|游戏策划|外贸业务员|销售经理|"
              r"机长|船员|海员|士兵|博士后|律所合伙人|法务|审计|税务师|房产经纪人|置业顾问|理财顾问|顾问|药剂员|检票员|售票员|"
              r"快递小哥|外卖小哥|配送员|司仪|婚礼策划|化妆师|配音演员|配音员|声优|程序猿|程序媛|攻城狮|设计狗|程序狗|运营狗|产品狗|"
              r"医学生|实验员|科研人员|护理员|农民工|厂妹|厂弟|流水线工人")
WORK_FIELD = (r"开发|设计|运营|销售|测试|产品|前端|后端|算法|财务|会计|人事|行政|市场|编辑|咨询|外贸|电商|翻译|审计|数据|"
              r"投行|风控|客服|主播|自媒体|销售|教培|物流|采购|法务|公关|研发|数据分析|剪辑|美工|金融|互联网|房地产|广告|新媒体|"
              r"证券|基金|保险|餐饮|快消|影视|装修|室内设计|建筑设计|UI设计|平面设计|游戏开发|IT")
RELS = (r"前男友|前女友|前任|前夫|前妻|男朋友|女朋友|男友|女友|老公|老婆|丈夫|妻子|对象|闺蜜|好朋友|好友|朋友|发小|室友|舍友|同事|同学|领导|"
        r"姐姐|妹妹|哥哥|弟弟|妈妈|爸爸|奶奶|爷爷|外婆|外公|姥姥|姥爷|儿子|女儿|孩子|表姐|表妹|表哥|表弟|堂姐|堂妹|"
        r"舅舅|舅妈|阿姨|姑姑|姑妈|叔叔|婶婶|小姨|姨妈|侄女|侄子|外甥女|外甥|孙女|孙子|嫂子|姐夫|妹夫|弟媳|公公|婆婆|岳父|岳母|"
        r"干妈|干爹|师父|师傅|邻居|姐|妹|哥|弟|妈|爸")
PETS = (r"小猫咪|小狗狗|猫咪|小猫|猫猫|布偶猫|英短|美短|橘猫|狸花猫|暹罗猫|加菲猫|猫|狗狗|小狗|柴犬|柯基|金毛|哈士奇|泰迪|边牧|拉布拉多|萨摩耶|"
        r"比熊|博美|狗子|狗|兔子|仓鼠|鹦鹉|乌龟")


def zh_note(text: str) -> str:
    """`zh_clean` (kept as a name: the rules in this file call it)."""
    return zh_clean(text)


def _q(m: re.Match, text: str) -> str:
    return quote_for(text, m.start(), m.end())


def _negated_before(text: str, pos: int) -> bool:
    return bool(re.search(r"(?:不|没|别|不要|不许|不准|别再|不要再|能不能别|可不可以别|不用|不太|没那么|不怎么|不是很)\S{0,1}$",
                          text[max(0, pos - 5):pos]))


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


def _b_name_is(m: re.Match, text: str) -> Candidate | None:
    name = m["n"]
    if re.search(rf"(?:{JOB_SUFFIX}|人|的|生|族|控|迷|党|粉)$", name):
        return None
    return candidate("profile", f"名字叫{name}", _q(m, text), "profile:name")


def _b_settled(m: re.Match, text: str) -> Candidate | None:
    if m["p"] in BAD_PLACE or _someone_else(text, m.start()):
        return None
    verb = m.group(0)[:m.group(0).index("在")]
    return candidate("profile", f"{verb}在{m['p']}", _q(m, text), "profile:city")


def _b_workplace(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()):
        return None
    return candidate("profile", zh_note(m.group(0)), _q(m, text), "profile:job")


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


# ---------------------------------------------------------------- event helpers (used by events.chinese_events)

EVENT_MORE = re.compile(r"自驾|旅拍|毕业旅行|出去玩|出国玩|去[\u4e00-\u9fff]{2,6}?(?:自驾|玩|转转|逛逛|打卡)|要生了|生宝宝|生孩子|待产|"
                        r"(?<![起])飞(?:去|到|往|回)?[\u4e00-\u9fff]{2}")
COUNTDOWN = re.compile(r"(?:还有|还剩|只剩|倒计时)(?P<n>\d{1,3}|[一二三四五六七八九十两俩]{1,3}|半)(?P<unit>天|个?星期|个?礼拜|周|个月)(?:不到|左右)?")


def has_countdown(text: str) -> bool:
    """"还有十天就要…": a date `find_dates` does not read until `dated_words` rewrites it."""
    return any(m["n"] != "半" or m["unit"] == "个月" for m in COUNTDOWN.finditer(text))


def dated_words(text: str, today: date) -> str:
    """Rewrite relative dates the validator would not render as a bare date: a countdown ("还有十天" -> "十天后")
    and a weekend ("这周末" -> "这周六", the day `memory.dates` gives a weekend), so the stored memory keeps only
    the ISO date and not "<date>周末"."""
    text = COUNTDOWN.sub(lambda m: f"{m['n'].replace('俩', '两')}{m['unit']}后" if m["n"] != "半" or m["unit"] == "个月"
                         else m.group(0), text)
    for d in reversed(find_dates(text, today)):
        if "周末" in d.text:
            weeks = (d.date - (today - timedelta(days=today.weekday()))).days // 7
            if 0 <= weeks <= 2:
                rel = "" if d.text == "周末" else ("这", "下", "下下")[weeks]  # a bare 周末 is this week's: a bare 周六
                text = text[:d.start] + rel + "周" + "一二三四五六日"[d.date.weekday()] + text[d.end:]
    return text


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


def _b_routine_change(m: re.Match, text: str) -> Candidate | None:
    """"现在改成晚上下班以后去夜跑了": the same routine at a new time (same topic, so it replaces the old one)."""
    return _routine(m, text, changed=True)


def _b_years_in(m: re.Match, text: str) -> Candidate | None:
    """"来深圳第四年了", "在北京待了五年": where the user lives, and for how long."""
    if m["p"] in BAD_PLACE or INSTITUTION.search(m["p"]) or re.search(r"家|公司|单位|这|那|哪", m["p"]) or _someone_else(text, m.start()):
        return None
    if re.search(r"[吗？?]", text[m.end():m.end() + 3]):
        return None
    return candidate("profile", zh_note(m.group(0)), m.group(0), "profile:city")


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


def _b_trade(m: re.Match, text: str) -> Candidate | None:
    """"我一个教书的", "我是送外卖的": a job said as what the user does."""
    return candidate("profile", f"是{m['x']}的", _q(m, text), "profile:job")


def _b_pregnant(m: re.Match, text: str) -> Candidate | None:
    if re.search(r"[吗？?]|如果|要是|想", text[max(0, m.start() - 3):m.end() + 2]):
        return None
    return candidate("profile", zh_note(m.group(0)), _q(m, text), "profile:pregnancy")


def _b_diet(m: re.Match, text: str) -> Candidate | None:
    if _negated_before(text, m.start() + 1) or re.search(r"[吗？?]", text[m.end():m.end() + 2]):
        return None
    return candidate("profile", zh_note(m.group(0)), _q(m, text), "profile:diet")


def _b_own_shop(m: re.Match, text: str) -> Candidate | None:
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


def _b_late(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", zh_note(m.group(0)), _q(m, text), "profile:routine:bed")


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


PROFILE_RULES: list[tuple[re.Pattern[str], Builder]] = [
    (re.compile(rf"(?:升职?|晋升|提拔)(?:成|为|到|当|做)?了?(?:一名|一个|个)?(?P<j>[{HAN}A-Za-z]{{0,4}}?(?:{JOB_SUFFIX}))"), _b_promoted),
    (re.compile(rf"(?P<v>跳槽到|跳槽去|跳去|跳到|入职|加入)了?(?P<org>[A-Za-z][A-Za-z0-9&.]{{1,15}}|[{HAN}]{{2,6}}?)" + END + r"|了|啦|上班|工作)"),
     _b_moved_job),
    (re.compile(rf"(?P<when>{ROUTINE_WHEN})[^，。！？,.!?]{{0,16}}?(?P<act>{ROUTINE_ACT})"), _b_routine),
    (re.compile(rf"(?:现在|最近|后来)?(?:改成|换成|改到|改在|挪到)了?[^，。！？,.!?]{{0,12}}?(?P<act>{ROUTINE_ACT})"), _b_routine_change),
    (re.compile(rf"(?:来|到|在)(?P<p>[{HAN}]{{2,6}}?)(?:已经|都|快|差不多)?(?:第(?P<n>[\d一二三四五六七八九十两]{{1,3}})个?年|"
                rf"(?:待|呆|住|生活|工作|打拼|漂)了?(?:快|差不多|将近|整整)?[\d一二三四五六七八九十两]{{1,3}}年(?:多)?)(?:了|啦)?"), _b_years_in),
    (re.compile(r"(?:我的名字|我名字)(?:叫|是)" + NAME), _b_name),
    (re.compile(r"(?<![你他她])我叫" + NAME), _b_name),
    (re.compile(r"(?P<call>叫我)" + NAME), _b_address),
    (re.compile(r"(?:我)?(?:现在)?住在" + PLACE), _b_city),
    (re.compile(r"现在住" + PLACE), _b_city),
    (re.compile(r"搬到了?" + PLACE), _b_city),
    (re.compile(ZAI + rf"(?P<p>(?:(?!在)[{HAN}]){{2,6}}?)(?:上班|工作|生活|定居|打工|读书|读研|读博|上学|念书|留学|实习|上大学)"),
     _b_work_city),
    (re.compile(rf"(?<![想要让])当(?:个|一个|一名)?(?P<j>[{HAN}]{{0,4}}?(?:{JOB_SUFFIX}))(?=[{HAN}]{{0,2}}(?:太|真|好|很|挺|好|也|难|累|辛苦)|"
                r"[，。！？,.!?\s]|$)"), _b_job),
    (re.compile(rf"(?:自己)?开了(?:一)?家(?P<x>[{HAN}]{{1,6}}?(?:店|馆|公司|工作室|餐厅|铺|诊所))"), _b_own_shop),
    (re.compile(r"(?:我)?(?:已经)?(?P<v>辞职|离职|裸辞|被裁|失业)了"), _b_left_job),
    (re.compile(rf"(?:干|做|搞)(?P<j>[{HAN}]{{0,3}}(?:{JOB_SUFFIX}|{WORK_FIELD}))(?:这行|这一行|这份工作)"), _b_job),
    (re.compile(rf"(?:定居|生活|住|工作|上班)在(?P<p>(?:(?!在)[{HAN}]){{2,6}}?)" + END + r"|了|啦|，)"), _b_settled),
    (re.compile(rf"我是(?P<p>[{HAN}]{{2,4}}?)人(?=[，。！？,.!?\s]|$)"), _b_hometown),
    (re.compile(ZAI + rf"(?P<p>(?:(?!在)[{HAN}]){{2,4}}?)(?:的)?(?:一家|一个|某)(?P<org>[{HAN}]{{0,6}}?(?:公司|单位|医院|学校|银行|工厂|"
                r"酒店|餐厅|超市|店))(?:上班|工作|实习)"), _b_workplace),
    (re.compile(r"(?:每天|平时|一般|现在|最近)?(?:早上|晚上|凌晨)?(?:改成)?(?P<t>[\d一二三四五六七八九十两]+点(?:半|多)?)(?:左右)?(?:才|就|就会|准时|必须)?(?P<w>起床|睡觉|上床|睡)(?!着)"),
     _b_zh_routine),
    (re.compile(rf"我姓(?P<s>[{HAN}]{{1,2}})[，,]?\s*(?:叫|名叫|全名叫)(?P<n>[{HAN}]{{2,3}})(?=[，。！？,.!?\s]|$)"), _b_name),
    (re.compile(rf"(?:调到|调去|调回|去了|来到|跳槽到|搬到|(?:刚|才|我)(?:来|到))(?P<p>[{HAN}]{{2,6}}?)(?:工作|上班|读书|上学|读研|生活)"),
     _b_work_city),
    (re.compile(rf"(?:被)?(?:调到|调去|调回|外派到|派驻到?)(?:了)?(?P<p>[{HAN}]{{2,4}}?)(?P<org>分公司|总部|分部|分行|分店|门店|办事处|子公司)"),
     _b_workplace),
    (re.compile(rf"(?:现在|目前|如今)?(?:在|去了)(?P<org>(?:一家|一个)[{HAN}A-Za-z]{{0,8}}?(?:公司|单位|医院|学校|银行|工厂|酒店|餐厅|店|"
                rf"工作室|机构|企业|外企|国企|车企|律所|事务所))(?:上班|工作|实习|当|做)?(?=$|[，。！？,.!?~\s]|了|啦)"), _b_workplace),
    (re.compile(rf"我(?:是|本科是|研究生是)?学(?P<x>[{HAN}A-Za-z]{{2,6}}?)的"), _b_major),
    (re.compile(rf"我(?:现在|目前|本来就|一直)?(?:比较|很|挺|特别|有点|是个|是一个|就是个|属于|是|有)?(?:重度|轻度|严重的?|典型的?|资深|十足的?|妥妥的?|"
                rf"纯纯?的?|超级|一个|个|点|一点)?(?P<x>内向|外向|社恐|社交恐惧症?|慢热|i人|I人|e人|E人|急性子|慢性子|"
                rf"完美主义者?|夜猫子|吃货|路痴|工作狂|宅女|宅男|社牛|单亲妈妈|单亲爸爸|宝妈|宝爸|独生女|独生子|恐高症?|"
                rf"强迫症|拖延症|选择困难症?|密集恐惧症?|起床困难户|乳糖不耐受?|左撇子|素食者|色盲|色弱|近视|夜盲)"
                rf"(?![吗吧呢？?]|的(?:{RELS}))"), _b_trait),
    (re.compile(r"我(?:现在|目前|一直)?(?P<x>(?:一个人|自己|独自)住|(?:跟|和)(?:爸妈|父母|家人|男朋友|女朋友|老公|老婆|室友|朋友|同学|对象|"
                r"爷爷奶奶|外婆)(?:一起)?住)"), _b_household),
    (re.compile(r"(?:在|正在)(?:准备|备考|备战)(?P<x>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=$|[，。！？,.!?\s]|了|呢|啦)"), _b_plan),
    (re.compile(r"(?:明年|今年|年底|下半年|毕业后)(?:要|准备|打算|想)(?P<x>考研|考公|考编|出国|留学|结婚|买房|辞职|创业|跳槽|考[\u4e00-\u9fff]{1,3})"),
     _b_plan),
    (re.compile(r"(?:最近|现在|正在|一直)(?:在)?(?P<x>减肥|健身|戒烟|戒酒|控糖|备孕|养生)"), _b_plan),
    (re.compile(r"(?:经常|每天|一般|总是|基本|天天)?熬夜到(?P<t>[\d一二三四五六七八九十两]+点(?:半|多)?)"), _b_late),
    (re.compile(rf"(?:^|(?<=[，。！？,.!?\s])|(?<=你好)|(?<=你好呀)|(?<=嗨))我是(?P<n>(?:{SURNAMES})[{HAN}]{{1,2}}|(?:小|阿)[{HAN}]{{1,2}})"
                rf"(?=[，。！？,.!?~\s]|$|啦|呀|哦|哈)"), _b_name_is),
    (re.compile(rf"老家(?:是|在)(?P<p>[{HAN}]{{2,6}}?)(?:的|人)?" + END + ")"), _b_hometown),
    (re.compile(ZAI + rf"(?P<p>(?:(?!在)[{HAN}]){{2,6}}?)当(?P<j>[{HAN}]{{1,6}}?)" + END + r"|了|的|呢|啊|已经|快|好)"),
     _b_job_at),
    (re.compile(rf"(?:我是|我当|我在当|我做|改行(?:做|当)|转行(?:做|当)|现在(?:做|当|是)|目前(?:做|当|是)|开始(?:做|当))(?:了)?(?:一名|一个|个|名)?"
                rf"(?P<j>[{HAN}A-Za-z]{{0,6}}?(?:{JOB_SUFFIX}))"), _b_job),
    (re.compile(ZAI + rf"(?P<p>(?:(?!在)[{HAN}]){{2,6}}?)做(?P<j>[{HAN}A-Za-z]{{0,4}}(?:{JOB_SUFFIX}|{WORK_FIELD}))"), _b_field_at),
    (re.compile(rf"(?:以后|现在|终于|正式|已经|马上)(?:就|也)?(?:是|成为|成了|当上了?)(?:了)?(?:一名|一个|名|个)?(?:正式的|正式|一名)?"
                rf"(?P<j>[{HAN}A-Za-z]{{0,6}}?(?:{JOB_SUFFIX}))"), _b_job),
    (re.compile(rf"(?:学的是|专业是|读的是|学的专业是|主修|念的是)(?P<x>[{HAN}A-Za-z]{{2,8}}?)(?:专业)?" + END + r"|的|，)"), _b_major),
    (re.compile(r"(?:今年|现在|我|刚上|在读|读)(?:读|在读|上)?(?P<g>大[一二三四]|研[一二三]|博[一二三四五]|高[一二三]|初[一二三])"
                r"(?=[，。！？,.!?\s]|$|了|的|学生|在|啦)"), _b_grade),
    (re.compile(rf"(?:我)?对(?P<x>[{HAN}A-Za-z]{{1,8}}?)(?:严重|有点|特别)?过敏"), _b_allergy),
    (re.compile(r"我的(?:职业|工作)是(?P<j>[^，。！？,.!?]{2,12})"), _b_job),
    (re.compile(rf"(?<![叫])做(?P<j>[{HAN}A-Za-z]{{0,4}}(?:{JOB_SUFFIX}|{WORK_FIELD}))(?:的|工作)?"), _b_field),
    (re.compile(rf"我(?:是|就是|一个|是个|是一个)?(?:干|搞)(?P<j>[{HAN}A-Za-z]{{0,4}}(?:{JOB_SUFFIX}|{WORK_FIELD}))的"), _b_field),
    (re.compile(r"我(?:是|就是)?(?:一个|个|一)?(?P<x>教书|写代码|敲代码|送外卖|送快递|开滴滴|跑滴滴|开出租|跑出租|卖保险|卖房子|种地|开货车|跑运输)"
                r"的(?=[，。！？,.!?\s]|$|啦|呀|哈|嘛|，)"), _b_trade),
    (re.compile(rf"(?:我的)?(?:本职|主业|正职|本职工作)(?:是|做)(?:一名|一个|个)?(?P<j>[{HAN}A-Za-z]{{0,6}}?(?:{JOB_SUFFIX}|{WORK_FIELD}))"), _b_job),
    (re.compile(r"(?:我(?:今年)?|(?<![^，,。！!\s])今年)(?P<a>\d{2}|[二三四五六七八九]十[一二三四五六七八九]?)岁"), _b_age),
    (re.compile(r"我是?(?P<a>[0-9]{2}|[零一二三四五六七八九]{2})后"), _b_age),
    (re.compile(rf"老家(?![是在])(?P<p>[{HAN}]{{2,4}}?)(?:的|人)" + END + ")"), _b_hometown),
    (re.compile(rf"(?<![你他她])我(?:现在)?住(?P<p>[{HAN}]{{1,6}}(?:区|市|县|镇|村|路|街|小区|新村|花园|公寓))" + END + r"|这边|那边|附近|，)"),
     _b_city),
    (re.compile(r"我(?:现在|目前)?(?:在读|在念|正在读)(?P<g>研|博|大学|本科|研究生|博士|高中|初中|大专|专科)(?=$|[，。！？,.!?\s]|了|呢|啦)"), _b_grade),
    (re.compile(r"(?<![你他她])我(?:刚毕业[，,]?\s*)?(?:现在|目前|最近|还|一直)?(?:在|正在)找工作(?![的吗？?])"), _b_workplace),
    (re.compile(r"(?<![你他她])我(?:现在|目前)?(?:在家|全职)带(?:娃|孩子|宝宝)"), _b_workplace),
    (re.compile(r"(?<![你他她])我(?:已经)?怀孕(?:了)?(?:[\d一二三四五六七八九十两]{1,2}(?:个月|周))?了?"), _b_pregnant),
    (re.compile(r"我(?:现在|已经|一直)?(?:吃素|吃全素|吃斋|茹素)"), _b_diet),
]

# ---------------------------------------------------------------- likes and dislikes


def _topic_head(obj: str) -> str:
    """A fronted topic runs on into its comment ("滑板摔了几次之后"): keep its first word."""
    if len(obj) <= 4 or obj.startswith("《"):
        return obj
    words = [w for w in rjieba.cut(obj) if len(w) >= 2]
    return words[0] if words else obj


def _pref(m: re.Match, text: str, template: str, polarity: int) -> Candidate | None:
    """A like/dislike from a match with an "obj" group; `template` holds "{obj}"."""
    obj = m["obj"]
    if not obj or re.match(r"^(?:你|上你|我|他|她|的|了|吗|这|那|它|[吃喝看听玩]的)", obj) or re.fullmatch(rf"(?:{ZH_VERBS}|了|的|都|也)", obj):
        return None
    if m.start("obj") == 0 or text[m.start("obj") - 1] in "，。！？,.!? ":
        obj = _topic_head(obj)
    return candidate("preference", template.format(obj=obj), _q(m, text), f"preference:{norm_object(obj)}", polarity)


def _b_like(m: re.Match, text: str) -> Candidate | None:
    clause = clause_at(text, m.start())
    if _negated_before(text, m.start()) or re.search(rf"(?:{RELS}|{PETS}|他|她|它|别人|人家|大家)", text[clause.start:m.start()]):
        return None  # "猫咪喜欢踩奶", "我男朋友超喜欢打游戏": someone else's taste
    sent = next((s for s in sentences(text) if s.start <= m.start() < s.end), None)
    if re.search(r"尤其(?:是)?$|特别是$", text[max(0, m.start() - 3):m.start()]) and sent and re.search(
            r"喜欢|爱|迷", text[sent.start:m.start() - 2]):
        return None  # "…，尤其喜欢情感本": a detail of the like before it
    verb = m["v"]
    strong = re.search(r"迷|爱上|超|最|特别|非常|巨|热爱|沉迷|痴迷|好爱", verb)
    tail = re.search(r"(?:爱|欢)(吃|喝|看|玩|听)$", verb)
    c = _pref(m, text, f"{'非常' if strong else ''}喜欢{tail.group(1) if tail else ''}{{obj}}", 1)
    detail = re.search(rf"[，,]\s*(?:尤其|特别是)(?:是)?(?:喜欢|爱)?(?:吃|喝|看|玩|听)?(?P<x>[{HAN}A-Za-z《》]{{1,8}}?)" + END + r"|了|啦|，)",
                       text[m.end():sent.end if sent else len(text)])
    if c and detail:
        c = replace(c, content=f"{c.content}（尤其是{detail['x']}）")
    return c


def _b_my_life(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, "非常喜欢{obj}", 1)


def _b_habit(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"喜欢{{obj}}（{m['when']}就去）", 1)


def _b_dislike(m: re.Match, text: str) -> Candidate | None:
    clause = clause_at(text, m.start())
    if re.search(rf"(?:{RELS}|{PETS}|他|她|它)", re.sub(r"我(?:和|跟)(?!你)", "我", text[clause.start:m.start()])):
        return None  # "小猫咪最近不爱吃饭": someone else's taste
    verb = "害怕" if "怕" in m["v"] else "不喜欢"
    return _pref(m, text, verb + "{obj}", -1)


def _b_cannot(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"不喜欢{m['v']}{{obj}}（{m['v']}不了）", -1)


def _b_tired(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"已经{m['v'] or ''}腻了{{obj}}", -1)


def _b_stopped(m: re.Match, text: str) -> Candidate | None:
    how = m.groupdict().get("how") or ""
    return _pref(m, text, f"{'现在' if how else '已经'}不{how}{m['v']}{{obj}}了", -1)


def _b_not_lately(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"好久没{m['v']}{{obj}}了", -1)


def _b_never_again(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"再也不想{m['v']}{{obj}}了", -1)


def _b_dont_have(m: re.Match, text: str) -> Candidate | None:
    if re.search(r"今天|今晚|早饭|午饭|晚饭|早餐|午餐|晚餐|夜宵|这顿|这个", text[max(0, m.start() - 6):m.end() + 2]):
        return None  # one meal, not a diet
    said = re.sub(r"^我(?:从来|基本|一般|完全|平时|从小就?|一直)?(?:都)?", "", m.group(0))
    return _pref(m, text, re.sub(r"[的了，]$", "", said).replace(m["obj"], "{obj}"), -1)


def _b_leisure(m: re.Match, text: str) -> Candidate | None:
    """A habit of free time ("周末一般都在家打游戏", "下班后一般会去健身房撸铁")."""
    if re.fullmatch(r"周末|晚上|早上|下班后?|下班回家后?", m["when"]) and not m["adv"]:
        return None  # "周末去爬山" is a plan, not a habit
    if re.search(r"今天|今晚|明天|明晚|这周|下周|刚才|打算|准备|计划|想|要是|如果", text[max(0, m.start() - 4):m.start()]):
        return None
    if _someone_else(text, m.start()):
        return None
    clause = clause_at(text, m.start("obj"))
    if re.search(rf"(?:{ROUTINE_WHEN})[^，。！？,.!?]{{0,16}}?(?:{ROUTINE_ACT})", clause.text) and ROUTINE_MARK.search(clause.text):
        return None  # a fixed routine ("每天早上六点晨跑") is kept as the routine
    content = zh_note(text[max(clause.start, m.start()):clause.end])
    content = re.sub(r"^周末", "每个周末", content)  # a habit, not this coming weekend's date
    return candidate("preference", content, _q(m, text), f"preference:{norm_object(m['obj'])}")


def _b_doing_now(m: re.Match, text: str) -> Candidate | None:
    """A hobby under way ("最近在玩原神", "最近开始学吉他")."""
    if _negated_before(text, m.start()) or _someone_else(text, m.start()):
        return None
    return candidate("preference", zh_note(m.group(0)), _q(m, text), f"preference:{norm_object(m['obj'])}")


def _b_own(m: re.Match, text: str) -> Candidate | None:
    polarity = -1 if re.search(r"讨厌|受不了|不喜欢", m["v"]) else 1
    return candidate("preference", f"{m['v']}现在的{m['obj']}", _q(m, text), f"preference:{m['obj']}", polarity)


def _b_favourite(m: re.Match, text: str) -> Candidate | None:
    """"我最喜欢的水果：山竹", "我最爱的歌手是周杰伦"."""
    obj = m["obj"]
    if re.search(r"什么|啥|哪|谁|吗|呢", obj) or _someone_else(text, m.start()):
        return None
    said = f"最喜欢{m['kind']}{obj}" if m["kind"] in ("吃", "喝", "看", "听", "玩", "去") else f"最喜欢的{m['kind']}是{obj}"
    return candidate("preference", said, _q(m, text), f"preference:{norm_object(obj)}")


def _b_fan(m: re.Match, text: str) -> Candidate | None:
    """"我是易烊千玺的铁粉": a fan of someone; the same topic as a later 脱粉."""
    obj = m["obj"]
    if re.match(r"^(?:你|他|她|谁|什么|哪)", obj) or _someone_else(text, m.start()):
        return None
    return candidate("preference", f"是{obj}的{m['f']}", _q(m, text), f"preference:{norm_object(obj)}")


def _b_unfan(m: re.Match, text: str) -> Candidate | None:
    """"我已经脱粉易烊千玺了", "易烊千玺我已经爬墙了": a fan no longer."""
    obj = m["obj"]
    if not obj or re.match(r"^(?:你|他|她|谁|什么|哪|了|的)", obj) or obj.endswith("们") or _negated_before(text, m.start("v")):
        return None  # "粉转路了家人们" names no one
    if re.search(r"[吗？?]|要不要|该不该|想|打算|如果|要是", text[m.start():clause_at(text, m.start()).end + 1]):
        return None  # still deciding
    if m["v"] == "不是":
        return candidate("preference", f"已经不是{obj}的粉丝了", _q(m, text), f"preference:{norm_object(obj)}", -1)
    said = f"对{obj}已经{m['v']}了" if m.start("obj") < m.start("v") else f"已经{m['v']}{obj}"
    return candidate("preference", said + "，不再追了", _q(m, text), f"preference:{norm_object(obj)}", -1)


def _b_that_is(m: re.Match, text: str) -> Candidate | None:
    """"周末可以去上陶艺课，那是我一周最期待的时候": the thing just named is a favourite."""
    before = text[:m.start()].rstrip("，,、 ")
    prev = clause_at(text, len(before) - 1) if before else None
    said = re.search(rf"(?P<v>去|在)(?P<o>(?:上|玩|打|看|学|练|听)?[{HAN}A-Za-z]{{2,8}})$", prev.text) if prev else None
    if not said or prev is None or _someone_else(text, prev.start):
        return None
    obj = re.sub(r"^(?:上|玩|打|看|学|练|听)", "", said["o"])
    content = f"{said['v']}{said['o']}，{zh_note(clause_at(text, m.start()).text)}"
    return candidate("preference", content, text[prev.start:clause_at(text, m.start()).end], f"preference:{norm_object(obj)}")


def _b_they_are(m: re.Match, text: str) -> Candidate | None:
    """"晚上去看五月天演唱会！！他们是我的青春": the singer, band or team named just before."""
    named = list(re.finditer(rf"(?:看|听|追|去)(?![看听追])(?P<o>[{HAN}A-Za-z]{{2,6}}?)(?:的)?(?:演唱会|音乐节|电影|新歌|比赛|直播|新剧|live|现场|签售)",
                             text[:m.start()]))
    if not named:
        return None
    obj = named[-1]["o"]
    return candidate("preference", f"非常喜欢{obj}（{m['x']}）", text[named[-1].start():m.end()], f"preference:{norm_object(obj)}")


def _b_side(m: re.Match, text: str) -> Candidate | None:
    """"我是猫派", "我是甜豆花党": which side the user is on."""
    if re.search(r"[吗？?]", text[m.end():m.end() + 2]):
        return None
    return candidate("preference", f"是{m['obj']}{m['f']}", _q(m, text), f"preference:{norm_object(m['obj'])}")


def _b_yyds(m: re.Match, text: str) -> Candidate | None:
    """"火锅yyds", "周杰伦永远的神": praise in slang."""
    if re.search(r"什么|之类|这种|那种|你|少|别|不要|梗", clause_at(text, m.start()).text):
        return None  # "少用点网络梗，什么绝绝子、yyds之类的": the slang itself
    return _pref(m, text, "非常喜欢{obj}", 1)


def _b_meh(m: re.Match, text: str) -> Candidate | None:
    """"我对足球完全无感": not interested."""
    return _pref(m, text, f"不喜欢{{obj}}（{m['v']}）", -1)


def _b_happiest(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, "{obj}" + m["how"], 1)


def _b_quit(m: re.Match, text: str) -> Candidate | None:
    verb = "戒了" if m["v"] == "戒" else m["v"]
    if verb.endswith("了") and verb != "戒了" and m.start("v") > m.start("obj"):
        return _pref(m, text, f"已经{verb}{{obj}}", -1)
    return _pref(m, text, verb + "{obj}", -1)


INTENS = r"(?:超|超级|特别|非常|很|好|最|真的|巨|还挺|挺)?"
ZH_VERBS = r"练|玩|看|吃|喝|听|追|学|打|跑|去|弹|画|跳|刷"
LEISURE = (r"打游戏|玩游戏|打(?:篮球|羽毛球|乒乓球|网球|排球|台球|麻将|牌)|踢(?:足球|球)|追剧|刷剧|看剧|看书|看小说|看电影|看动漫|看番|"
           r"刷抖音|刷视频|健身|撸铁|跑步|游泳|爬山|徒步|骑车|骑行|钓鱼|画画|弹(?:吉他|钢琴|琴)|练(?:瑜伽|字|琴|舞)|跳舞|逛街|做饭|烘焙|"
           r"拍照|露营|滑雪|冲浪|攀岩|下棋|唱歌|K歌|听歌|宅(?:在)?家|不出门|睡懒觉|遛狗|打球|练琴")
HABIT_TIME = (r"(?:每天|每个?周末|每周|平时|周末|晚上|早上)(?:下班后?|下班以后|放学后?|回家后?)?|下班后?|下班以后|下班回家后?|放学后|"
              r"有空(?:的时候)?|没事(?:的时候)?|休息(?:的时候)?|空闲时间|闲下来")
HABIT_ADV = r"(?:一般|通常|经常|基本上?|都|总是|习惯|喜欢|爱|会|常常|老是)"
UNFAN = r"脱粉|粉转路|粉转黑|爬墙|退坑|退圈|弃坑|取关|回踩"
FAN = r"铁粉|死忠粉|忠实粉丝|脑残粉|老粉|真爱粉|头号粉丝|粉丝|迷妹|迷弟|忠粉|骨灰粉|歌迷|球迷|影迷|书迷|剧迷"
PREFERENCE_RULES: list[tuple[re.Pattern[str], Builder]] = [
    (re.compile(rf"(?<![你他她])(?:我)?(?:最|超级?|特别)(?:喜欢|爱)的(?P<kind>(?:(?!就)[{HAN}]){{1,5}}?)(?:是|就是|[：:])\s*"
                rf"(?P<obj>《[^》]{{1,20}}》|[{HAN}A-Za-z0-9·]{{1,10}}?)" + END + r"|了|啦|呀|啊|，|没有之一)"), _b_favourite),
    (re.compile(rf"(?<![你他她])(?:我)?最(?:喜欢|爱)(?P<kind>吃|喝|看|听|玩|去)的(?:东西|食物|地方)?(?:是|就是|[：:])\s*"
                rf"(?P<obj>《[^》]{{1,20}}》|[{HAN}A-Za-z0-9·]{{1,10}}?)" + END + r"|了|啦|呀|啊|，|没有之一)"), _b_favourite),
    (re.compile(rf"(?<![你他她])我(?:是|算是|一直是|可是|曾经是)(?:个|一个|一名|名)?(?P<obj>[{HAN}A-Za-z·]{{2,10}}?)的(?:超级|资深|忠实的?|铁杆)?(?P<f>{FAN})"),
     _b_fan),
    (re.compile(rf"(?:已经|早就|彻底|正式|果断|终于)?(?P<v>{UNFAN})(?:了)?(?P<obj>[{HAN}A-Za-z·]{{2,10}}?)" + END + r"|了|啦)"), _b_unfan),
    (re.compile(TOPICAL + rf"(?:我)?(?:已经|早就|彻底|正式|果断|终于)*(?P<v>{UNFAN})了"), _b_unfan),
    (re.compile(rf"(?<![你他她])我(?:是|属于|一直是)(?:个|一个|坚定的|铁杆)?(?P<obj>[{HAN}]{{1,4}}?)(?P<f>派|党)(?![员委校章内外])"), _b_side),
    (re.compile(TOPICAL + r"\s*(?:真的|简直|就是|绝对|永远)?(?:yyds|YYDS|永远的神|是神|绝绝子|天下第一)"), _b_yyds),
    (re.compile(rf"(?<![你他她])(?:我)?对(?P<obj>[{HAN}A-Za-z]{{1,8}}?)(?:完全|根本|一点|真的|实在|一直)?(?P<v>无感|没兴趣|不感兴趣|没什么兴趣|提不起兴趣)"),
     _b_meh),
    (re.compile(rf"我(?:已经|早就|现在)?(?P<v>不是)(?P<obj>[{HAN}A-Za-z·]{{2,10}}?)的(?:{FAN})了"), _b_unfan),
    (re.compile(rf"(?P<when>{HABIT_TIME})(?:我)?(?P<adv>(?:{HABIT_ADV}){{1,3}})?(?:约着|结伴)?(?:在家|去健身房|去|在)?(?P<obj>{LEISURE})"),
     _b_leisure),
    (re.compile(r"(?:^|(?<=[，。！？,.!?\s]))(?:那|这)(?:是|就是|可是)我(?:一周|每周|一天|每天|一年|每年|一星期)?(?:里|中)?(?:最|超|特别)"
                r"(?:期待|开心|快乐|放松|享受|幸福|喜欢|治愈)的"), _b_that_is),
    (re.compile(r"(?:^|(?<=[，。！？,.!?\s]))(?:他们|她们|她|他)(?:就|真的|简直|可)?是我的(?P<x>青春|信仰|偶像|本命|白月光|最爱|神|精神支柱|快乐源泉)"),
     _b_they_are),
    (re.compile(rf"(?:最近|现在|这段时间|今年)(?:在|开始|又开始|迷上了?|爱上了?)(?P<v>学|玩|练|追|弹)(?P<obj>[{HAN}A-Za-z《》]{{1,8}}?)"
                + END + r"|了|呢|，)"), _b_doing_now),
    (re.compile(rf"(?:^|(?<=[，。！？,.!?\s]))(?P<obj>[{HAN}A-Za-z]{{2,6}}?)(?:是)?(?P<how>最快乐|最开心|最幸福|最治愈|最解压|最舒服|最爽)"), _b_happiest),
    (re.compile(rf"我(?:从来|基本|一般|完全|平时|从小就?|一直)?(?:都)?不(?P<v>吃|喝|碰)(?P<obj>(?![了的])[{HAN}A-Za-z]{{1,6}}?)"
                + END + r"|的|了|，)"), _b_dont_have),
    (re.compile(r"(?:突然|现在|已经|实在|真的|完全)(?P<v>吃|喝|看|听)不了" + OBJ), _b_cannot),
    (re.compile(r"(?P<v>喜欢|讨厌|热爱|受不了|不喜欢)(?:我|自己)的(?P<obj>工作|专业|职业|公司|工作环境)"), _b_own),
    (re.compile(rf"不(?:太|怎么|大|是很)?能(?P<v>吃|喝)(?P<obj>(?![了的])[{HAN}A-Za-z]{{1,6}}?)" + END + r"|的|了|，)"), _b_dont_have),
    (re.compile(r"(?P<v>(?:从小(?:就)?|一直(?:都)?|天生|特别|很|超|最|好|非常|真的|有点)怕)" + OBJ), _b_dislike),
    (re.compile(TOPICAL + r"(?:真的|实在|已经|早就|再也|完全|根本|一点都|一点也)*(?P<v>看|吃|喝|听|玩|碰|接受)不了"), _b_cannot),
    (re.compile(TOPICAL + r"(?:真的|实在|已经|早就|都)*(?P<v>看|吃|听|玩|刷|追|喝)?腻了"), _b_tired),
    (re.compile(r"(?P<v>看|吃|听|玩|刷|追|喝)腻了" + OBJ), _b_tired),
    (re.compile(TOPICAL + rf"(?:已经|早就|现在|都|就|也|一点都|一点也|真的|完全)*不(?:再|想|想再)?(?P<v>{ZH_VERBS})了"), _b_stopped),
    (re.compile(TOPICAL + rf"(?:已经|早就|好久|很久|好几个月|好几年|一直)+没(?:再)?(?P<v>{ZH_VERBS})(?:过)?了"), _b_not_lately),
    (re.compile(rf"(?:已经|早就|现在)*不再?(?P<v>{ZH_VERBS})" + OBJ + "了"), _b_stopped),
    (re.compile(rf"(?:已经|早就|现在)*不(?P<how>怎么|太|大)(?P<v>{ZH_VERBS})" + OBJ + "了"), _b_stopped),
    (re.compile(rf"对(?P<obj>[{HAN}A-Za-z]{{1,8}}?)(?:完全|根本|一点|简直)?(?:没有抵抗力|没抵抗力|上瘾|情有独钟|特别感兴趣|很感兴趣|着迷|毫无抵抗力)"),
     _b_my_life),
    (re.compile(r"(?P<v>戒了|戒掉了|放弃了|不再喜欢)" + OBJ), _b_quit),
    (re.compile(r"(?:已经|早就)?(?P<v>戒)(?:掉)?" + OBJ.replace("(?P<obj>", "(?P<obj>(?!了)") + "了"), _b_quit),
    (re.compile(TOPICAL + r"(?:已经|早就)?(?P<v>戒了|卸载了|删了|退坑了|弃坑了|取关了|放弃了)"), _b_quit),
    (re.compile(rf"(?<![他她])我(?:现在)?(?:在|正在)(?P<v>学|练)(?P<obj>[{HAN}A-Za-z]{{2,6}}?)" + END + r"|了|呢|，|啦)"), _b_doing_now),
    (re.compile(TOPICAL + rf"(?:死也|再也|绝对|永远|打死也)?不(?:会|想|敢)再?(?P<v>{ZH_VERBS}|坐|碰)了"), _b_never_again),
    (re.compile(r"(?P<v>" + INTENS + r"(?:讨厌|不喜欢|不太喜欢|不爱吃|受不了|接受不了|害怕|最怕|反感))" + OBJ), _b_dislike),
    (re.compile(r"(?P<v>(?:超|超级|特别|非常|很|好|最|真的|巨)(?:迷|爱)(?![好情心人意])|" + INTENS
                + r"(?:喜欢|热爱|爱吃|爱喝|爱看|爱玩|爱听|迷上了?|爱上了?|沉迷于?|痴迷于?))" + OBJ),
     _b_like),
    (re.compile(TOPICAL + r"(?:真的|简直|就|绝对)?是我的(?:命|最爱|心头好|本命|快乐源泉|精神食粮|白月光)"), _b_my_life),
    (re.compile(rf"(?:只要)?(?P<when>一(?:有空|休息|放假|下班|到周末|有时间|闲下来))(?:我)?就(?:会)?(?:去)?"
                rf"(?P<obj>[{HAN}A-Za-z]{{2,8}}?)" + END + r"|了|，)"), _b_habit),
]
