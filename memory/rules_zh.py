"""Chinese extraction rules: profile, likes and dislikes, people and pets, moods and feedback.

Chinese has no spaces, so each rule anchors on the words people use around a fact (叫我…, 住在…,
在…当…, 超迷…, …看腻了, 和…分手了) and cuts names and objects at punctuation or particles.
Dated events live in `memory.rules_events`.
"""
from __future__ import annotations

import re
from typing import Callable

import rjieba

from memory.records import Candidate
from memory.rules_common import candidate, clause_at, clauses, norm_object, quote_for, sentences, zh_clean

Builder = Callable[[re.Match, str], "Candidate | None"]
HAN = r"\u4e00-\u9fff"
END = r"(?=[，。！？,.!?~～\s、；;]|$"
NAME = rf"(?P<n>[A-Za-z][A-Za-z.'-]{{0,15}}?|[{HAN}]{{1,4}}?)" + END + r"|就|吧|啊|呀|哦|哈|嘛|呢|啦|哟|喔|了|[(（]|好了|也行)"
PLACE = rf"(?P<p>(?:(?!在|住)[{HAN}]){{2,8}}?)" + END + r"|离|附近|这边|那边|旁边|一带|的|了|啦|呢|和|跟|上班|工作|，)"
OBJ = (rf"(?P<obj>《[^》]{{1,20}}》|[{HAN}A-Za-z0-9·]{{1,12}}?)" + END
       + r"|了|啦|呀|啊|的时候|已经|一周|每天|每周|因为|所以|但|真的|太|简直|超|特别|吗|呢|，)")
TOPICAL = rf"(?:^|(?<=[，。！？,.!?\s]))(?P<obj>《[^》]{{1,20}}》|[^，。！？,.!?\s我]{{1,10}}?)我?(?:是|也|现在)?"
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
              r"护工|保姆|幼师|辅导员|码农|社工|高中生|初中生|学生|HR|产品经理|律师助理|全职妈妈|全职太太")
WORK_FIELD = (r"开发|设计|运营|销售|测试|产品|前端|后端|算法|财务|会计|人事|行政|市场|编辑|咨询|外贸|电商|翻译|审计|"
              r"投行|风控|客服|主播|自媒体|销售|教培|物流|采购|法务|公关|研发|数据分析|剪辑|美工")
RELS = (r"男朋友|女朋友|男友|女友|老公|老婆|丈夫|妻子|对象|闺蜜|好朋友|好友|朋友|发小|室友|舍友|同事|同学|领导|"
        r"姐姐|妹妹|哥哥|弟弟|妈妈|爸爸|奶奶|爷爷|外婆|外公|姥姥|姥爷|儿子|女儿|孩子|表姐|表妹|表哥|表弟|堂姐|堂妹|"
        r"舅舅|阿姨|姑姑|叔叔|姐|妹|哥|弟|妈|爸")
PETS = (r"猫咪|小猫|猫猫|布偶猫|英短|美短|橘猫|狸花猫|暹罗猫|加菲猫|猫|狗狗|小狗|柴犬|柯基|金毛|哈士奇|泰迪|边牧|拉布拉多|萨摩耶|"
        r"比熊|博美|狗|兔子|仓鼠|鹦鹉|乌龟")
KIN_FULL = {"姐": "姐姐", "妹": "妹妹", "哥": "哥哥", "弟": "弟弟", "妈": "妈妈", "爸": "爸爸"}
NEWS = r"生了|怀孕|结婚|去世|走了|住院|生病|手术|离婚|确诊|退休|吵了|吵架|闹翻|冷战|出国|考上|毕业|分手|病了|过世"
MOOD = (r"压力(?:好|很|特别|超|太|超级|有点|挺)?大|失眠|焦虑|抑郁|孤独|孤单|寂寞|emo|心情[^，。！？]{0,4}?(?:不好|不太好|很差|差|低落|糟)|"
        r"提不起劲|提不起兴趣|打不起精神|没劲|"
        r"情绪低落|崩溃|心累|难过|伤心|堵得慌|想哭|没动力|迷茫|很丧|好丧|烦躁|睡不着|喘不过气")
STYLE = [(r"感叹号", "exclamation"), (r"表情|emoji", "emoji"), (r"问号|反问|提问|问我", "questions"),
         (r"建议|鸡汤|说教|大道理|讲道理", "advice"), (r"简短|简洁|啰嗦|废话|长篇大论|字数|篇幅|太长|短一点|短点", "length"),
         (r"(?:那么|这么|太|很|好)长|长消息|长文|字太多", "length"), (r"玩笑|段子|幽默", "humor"), (r"语气|温柔|正式|口语|客套|官方|敷衍|书面", "tone"), (r"列表|分点|markdown", "format"),
         (r"说话|回复|回答|聊天|消息", "style")]
DIRECTIVE = re.compile(r"别|不要|少|多|能不能|可不可以|可以|能用|请|希望|一点|一些|就行|就好|不用|简短|简洁")


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
    return candidate("profile", f"{moved}{verb}{place}", _q(m, text), "profile:city")


def _b_work_city(m: re.Match, text: str) -> Candidate | None:
    if m["p"] in BAD_PLACE or re.search(r"家|公司|单位", m["p"]):
        return None
    clause = clause_at(text, m.start("p")).text
    if re.search(rf"(?:{RELS}|他|她)", clause[:clause.index(m["p"])]):
        return None  # someone else's city ("我朋友在英国读书")
    return candidate("profile", zh_clean(clause[:clause.index(m["p"]) + len(m["p"]) + 2]), _q(m, text), "profile:city")


def _b_hometown(m: re.Match, text: str) -> Candidate | None:
    if m["p"] in BAD_PLACE or re.search(r"一个|什么|哪|这|那", m["p"]):
        return None
    return candidate("profile", f"老家是{m['p']}的", _q(m, text), "profile:hometown")


def _someone_else(text: str, pos: int) -> bool:
    """True when the clause before `pos` is about another person ("我朋友在上海当律师")."""
    clause = clause_at(text, pos)
    return bool(re.search(rf"(?:{RELS}|他|她|别人|人家|大家)", text[clause.start:pos]))


def _b_job_at(m: re.Match, text: str) -> Candidate | None:
    if m["p"] in BAD_PLACE or _someone_else(text, m.start()):
        return None
    return candidate("profile", f"在{m['p']}当{m['j']}", _q(m, text), "profile:job")


def _b_job(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()):
        return None
    return candidate("profile", f"职业是{m['j']}", _q(m, text), "profile:job")


def _b_field(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()):
        return None
    return candidate("profile", f"做{m['j']}工作", _q(m, text), "profile:job")


def _b_field_at(m: re.Match, text: str) -> Candidate | None:
    if m["p"] in BAD_PLACE or re.search(r"家|公司|单位", m["p"]):
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
    return candidate("profile", zh_clean(m.group(0)), _q(m, text), "profile:job")


def _b_zh_routine(m: re.Match, text: str) -> Candidate | None:
    if _someone_else(text, m.start()):
        return None
    kind = "wake" if m["w"] == "起床" else "bed"
    clause = clause_at(text, m.start("t"))
    return candidate("profile", zh_clean(text[clause.start:m.end()]), _q(m, text), f"profile:routine:{kind}")


def _b_own_shop(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"自己开了家{m['x']}", _q(m, text), "profile:job")


def _b_left_job(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"已经{m['v']}了", _q(m, text), "profile:job", polarity=-1)


def _b_allergy(m: re.Match, text: str) -> Candidate | None:
    return candidate("profile", f"对{m['x']}过敏", _q(m, text), f"profile:allergy:{m['x']}")


def _b_age(m: re.Match, text: str) -> Candidate | None:
    suffix = "后" if m.group(0).endswith("后") else "岁"
    content = f"是{m['a']}后" if suffix == "后" else f"今年{m['a']}岁"
    return candidate("profile", content, _q(m, text), "profile:age")


PROFILE_RULES: list[tuple[re.Pattern[str], Builder]] = [
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
    (re.compile(rf"(?:每天|平时|一般|现在|最近)?(?:早上|晚上|凌晨)?(?:改成)?(?P<t>[\d一二三四五六七八九十两]+点(?:半|多)?)(?P<w>起床|睡觉|上床|睡)"),
     _b_zh_routine),
    (re.compile(rf"我姓(?P<s>[{HAN}]{{1,2}})[，,]?\s*(?:叫|名叫|全名叫)(?P<n>[{HAN}]{{2,3}})(?=[，。！？,.!?\s]|$)"), _b_name),
    (re.compile(rf"(?:调到|调去|调回|去了|来到|跳槽到|搬到)(?P<p>[{HAN}]{{2,6}}?)(?:工作|上班)"), _b_work_city),
    (re.compile(rf"(?:^|(?<=[，。！？,.!?\s])|(?<=你好)|(?<=你好呀)|(?<=嗨))我是(?P<n>(?:{SURNAMES})[{HAN}]{{1,2}}|(?:小|阿)[{HAN}]{{1,2}})"
                rf"(?=[，。！？,.!?~\s]|$|啦|呀|哦|哈)"), _b_name_is),
    (re.compile(rf"老家(?:是|在)(?P<p>[{HAN}]{{2,6}}?)(?:的|人)?" + END + ")"), _b_hometown),
    (re.compile(ZAI + rf"(?P<p>(?:(?!在)[{HAN}]){{2,6}}?)当(?P<j>[{HAN}]{{1,6}}?)" + END + r"|了|的|呢|啊|已经|快|好)"),
     _b_job_at),
    (re.compile(rf"(?:我是|我当|我在当|我做|改行(?:做|当)|转行(?:做|当)|现在(?:做|当)|开始(?:做|当))(?:了)?(?:一名|一个|个|名)?"
                rf"(?P<j>[{HAN}A-Za-z]{{0,6}}?(?:{JOB_SUFFIX}))"), _b_job),
    (re.compile(ZAI + rf"(?P<p>(?:(?!在)[{HAN}]){{2,6}}?)做(?P<j>[{HAN}A-Za-z]{{0,4}}(?:{JOB_SUFFIX}|{WORK_FIELD}))"), _b_field_at),
    (re.compile(rf"(?:我)?对(?P<x>[{HAN}A-Za-z]{{1,8}}?)(?:严重|有点|特别)?过敏"), _b_allergy),
    (re.compile(rf"我的(?:职业|工作)是(?P<j>[^，。！？,.!?]{{2,12}})"), _b_job),
    (re.compile(rf"(?<![叫])做(?P<j>[{HAN}A-Za-z]{{0,4}}(?:{JOB_SUFFIX}|{WORK_FIELD}))(?:的|工作)?"), _b_field),
    (re.compile(r"(?:我(?:今年)?|(?<![^，,。！!\s])今年)(?P<a>\d{2}|[二三四五六七八九]十[一二三四五六七八九]?)岁"), _b_age),
    (re.compile(r"我是?(?P<a>[0-9]{2}|[零一二三四五六七八九]{2})后"), _b_age),
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
    if not obj or re.match(r"^(?:你|上你|我|他|她|的|了|吗|这|那|它)", obj) or re.fullmatch(rf"(?:{ZH_VERBS}|了|的|都|也)", obj):
        return None
    if m.start("obj") == 0 or text[m.start("obj") - 1] in "，。！？,.!? ":
        obj = _topic_head(obj)
    return candidate("preference", template.format(obj=obj), _q(m, text), f"preference:{norm_object(obj)}", polarity)


def _b_like(m: re.Match, text: str) -> Candidate | None:
    if _negated_before(text, m.start()):
        return None
    verb = m["v"]
    strong = re.search(r"迷|爱上|超|最|特别|非常|巨|热爱|沉迷|痴迷|好爱", verb)
    tail = re.search(r"(?:爱|欢)(吃|喝|看|玩|听)$", verb)
    return _pref(m, text, f"{'非常' if strong else ''}喜欢{tail.group(1) if tail else ''}{{obj}}", 1)


def _b_my_life(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, "非常喜欢{obj}", 1)


def _b_habit(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"喜欢{{obj}}（{m['when']}就去）", 1)


def _b_dislike(m: re.Match, text: str) -> Candidate | None:
    verb = "害怕" if "怕" in m["v"] else "不喜欢"
    return _pref(m, text, verb + "{obj}", -1)


def _b_cannot(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"不喜欢{m['v']}{{obj}}（{m['v']}不了）", -1)


def _b_tired(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"已经{m['v'] or ''}腻了{{obj}}", -1)


def _b_stopped(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"已经不{m['v']}{{obj}}了", -1)


def _b_never_again(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, f"再也不想{m['v']}{{obj}}了", -1)


def _b_quit(m: re.Match, text: str) -> Candidate | None:
    verb = "戒了" if m["v"] == "戒" else m["v"]
    if verb.endswith("了") and verb != "戒了" and m.start("v") > m.start("obj"):
        return _pref(m, text, f"已经{verb}{{obj}}", -1)
    return _pref(m, text, verb + "{obj}", -1)


INTENS = r"(?:超|超级|特别|非常|很|好|最|真的|巨|还挺|挺)?"
ZH_VERBS = r"练|玩|看|吃|喝|听|追|学|打|跑|去|弹|画|跳|刷"
PREFERENCE_RULES: list[tuple[re.Pattern[str], Builder]] = [
    (re.compile(TOPICAL + r"(?:真的|实在|已经|早就|再也|完全|根本|一点都|一点也)*(?P<v>看|吃|喝|听|玩|碰|接受)不了"), _b_cannot),
    (re.compile(TOPICAL + r"(?:真的|实在|已经|早就|都)*(?P<v>看|吃|听|玩|刷|追|喝)?腻了"), _b_tired),
    (re.compile(r"(?P<v>看|吃|听|玩|刷|追|喝)腻了" + OBJ), _b_tired),
    (re.compile(TOPICAL + rf"(?:已经|早就|现在|都|就|也)*不(?:再|想|想再)?(?P<v>{ZH_VERBS})了"), _b_stopped),
    (re.compile(rf"(?:已经|早就|现在)*不再?(?P<v>{ZH_VERBS})" + OBJ + "了"), _b_stopped),
    (re.compile(rf"对(?P<obj>[{HAN}A-Za-z]{{1,8}}?)(?:完全|根本|一点|简直)?(?:没有抵抗力|没抵抗力|上瘾|情有独钟|特别感兴趣|很感兴趣|着迷|毫无抵抗力)"),
     _b_my_life),
    (re.compile(r"(?P<v>戒了|戒掉了|放弃了|不再喜欢)" + OBJ), _b_quit),
    (re.compile(r"(?:已经|早就)?(?P<v>戒)(?:掉)?" + OBJ.replace("(?P<obj>", "(?P<obj>(?!了)") + "了"), _b_quit),
    (re.compile(TOPICAL + r"(?:已经|早就)?(?P<v>戒了|卸载了|删了|退坑了|弃坑了|取关了)"), _b_quit),
    (re.compile(TOPICAL + rf"(?:死也|再也|绝对|永远|打死也)?不(?:会|想|敢)再?(?P<v>{ZH_VERBS}|坐|碰)了"), _b_never_again),
    (re.compile(r"(?P<v>" + INTENS + r"(?:讨厌|不喜欢|不太喜欢|不爱吃|受不了|接受不了|害怕|最怕|反感))" + OBJ), _b_dislike),
    (re.compile(r"(?P<v>(?:超|超级|特别|非常|很|好|最|真的|巨)(?:迷|爱)(?![好情心人意])|" + INTENS
                + r"(?:喜欢|热爱|爱吃|爱喝|爱看|爱玩|爱听|迷上了?|爱上了?|沉迷于?|痴迷于?))" + OBJ),
     _b_like),
    (re.compile(TOPICAL + r"(?:真的|简直|就|绝对)?是我的(?:命|最爱|心头好|本命|快乐源泉|精神食粮|白月光)"), _b_my_life),
    (re.compile(rf"(?:只要)?(?P<when>一(?:有空|休息|放假|下班|到周末|有时间|闲下来))(?:我)?就(?:会)?(?:去)?"
                rf"(?P<obj>[{HAN}A-Za-z]{{2,8}}?)" + END + r"|了|，)"), _b_habit),
]

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


def _b_kept_pet(m: re.Match, text: str) -> Candidate | None:
    if BAD_NAME.match(m["n"]):
        return None
    return candidate("relationship", f"养了一只{m['desc']}{m['rel']}，叫{m['n']}", _q(m, text), f"relationship:{m['n']}")


def _b_breakup(m: re.Match, text: str) -> Candidate | None:
    name, verb = m["n"], re.search(r"分手|分开|离婚|绝交|闹掰|断交|翻脸", m.group(0)).group(0)
    return candidate("relationship", f"已经和{name}{verb}了", _q(m, text), f"relationship:{name}", -1)


def _b_news(m: re.Match, text: str) -> Candidate | None:
    rel = KIN_FULL.get(m["rel"], m["rel"])
    clause = clause_at(text, m.start("rel"))
    return candidate("relationship", zh_clean(clause.text), clause.text, f"relationship:{rel}")


def _b_mood(m: re.Match, text: str) -> Candidate | None:
    clause = clause_at(text, m.start())
    if re.search(r"不(?:焦虑|孤独|难过|伤心|迷茫)|没(?:有)?(?:压力|失眠)", clause.text):
        return None
    return candidate("mood", zh_clean(clause.text), clause.text, "relationship:mood")


PET_NAME = rf"(?P<n>(?:小|阿|老)[{HAN}]|[{HAN}]{{2}})(?=[{HAN}，。！？,.!?\s]|$)"
PEOPLE_RULES: list[tuple[re.Pattern[str], Builder]] = [
    (re.compile(rf"(?:我)?(?:和|跟)(?:{RELS})?(?P<n>(?:小|阿|老)[{HAN}]{{1,2}}?|[{HAN}]{{2}}?)(?:已经|早就|终于|正式|刚|上周|昨天)?"
                r"(?:分手|分开|离婚|绝交|闹掰|断交|翻脸)了?"), _b_breakup),
    (re.compile(rf"(?:我)?(?:和|跟)(?P<n>{RELS})(?:已经|早就|终于|正式|刚|上周|昨天)?(?:分手|分开|离婚|绝交|闹掰|断交|翻脸)了?"), _b_breakup),
    (re.compile(rf"(?P<lead>我家的|我的|我家|我|和|跟|的|有个|有一个|有位|有一位|有只|有一只)(?P<rel>{RELS}|{PETS})(?:的名字)?叫" + NAME),
     _b_named),
    (re.compile(rf"(?P<lead>我的|我家|我|和|跟)(?P<rel>{RELS})(?P<n>(?:小|阿)[{HAN}]{{1,2}}?)(?=[{HAN}，。！？,.!?\s]|$)"),
     _b_named),
    (re.compile(rf"(?P<lead>我的|我家|我)(?P<rel>{PETS})" + PET_NAME), _b_named),
    (re.compile(rf"养了?(?:一)?(?:只|条|个|头)(?P<desc>[{HAN}]{{0,3}}?)(?P<rel>{PETS})(?:叫|名叫|名字叫)" + NAME), _b_kept_pet),
    (re.compile(rf"(?:我|跟我|和我)(?P<rel>{RELS})(?P<pred>[^，。！？,.!?]*?(?:{NEWS}))"), _b_news),
]
MOOD_RULES: list[tuple[re.Pattern[str], Builder]] = [(re.compile(MOOD), _b_mood)]

# ---------------------------------------------------------------- feedback


def feedback(text: str) -> list[Candidate]:
    """Style guidance addressed to the companion ("说话简短一点", "别老用那么多感叹号")."""
    out: list[Candidate] = []
    for sent in sentences(text):
        parts = clauses(sent)
        for j, cl in enumerate(parts):
            topic = next((t for p, t in STYLE if re.search(p, cl.text)), None)
            if not topic or not DIRECTIVE.search(cl.text) or "叫我" in cl.text:
                continue
            if not re.search(r"你|^(?:以后|平时|今后|还有|另外|也|那)?(?:别|不要|少|多|请|说话|回复|回答|能不能|可不可以)", cl.text):
                continue
            body = re.sub(r"能不能|可不可以|可以|请|麻烦|好吗|行吗|好不好|跟你|和你|吗$|[吗?？]+$", "", cl.text)
            content = "希望" + zh_clean(body)
            start = cl.start
            if j and re.search(r"(?:的时候|时)$", parts[j - 1].text):
                content = zh_clean(re.sub(r"我跟你|我和你|跟你|和你", "", parts[j - 1].text)) + "，" + content
                start = parts[j - 1].start
            out.append(candidate("feedback", content, text[start:cl.end], f"feedback:{topic}"))
    return out
