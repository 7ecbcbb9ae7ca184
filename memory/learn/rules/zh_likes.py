"""Chinese extraction rules for likes and dislikes: 超迷…, …看腻了, 我是…的铁粉, 周末一般都在家打游戏."""
from __future__ import annotations

import re
from dataclasses import replace

import rjieba

from memory.learn.rules.common import candidate, clause_at, norm_object, sentences
from memory.learn.rules.lexicon import alternation
from memory.learn.rules.registry import Rule
from memory.learn.rules.zh import (
    END,
    HAN,
    OBJ,
    PETS,
    RELS,
    ROUTINE_ACT,
    ROUTINE_MARK,
    ROUTINE_WHEN,
    TOPICAL,
    _negated_before,
    _q,
    _someone_else,
    zh_note,
)
from memory.records import Candidate

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


def _b_stopped(m: re.Match, text: str) -> Candidate | None:
    how = m.groupdict().get("how") or ""
    return _pref(m, text, f"{'现在' if how else '已经'}不{how}{m['v']}{{obj}}了", -1)


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


def _b_favourite(m: re.Match, text: str) -> Candidate | None:
    """"我最喜欢的水果：山竹", "我最爱的歌手是周杰伦"."""
    obj = m["obj"]
    if re.search(r"什么|啥|哪|谁|吗|呢", obj) or _someone_else(text, m.start()):
        return None
    said = f"最喜欢{m['kind']}{obj}" if m["kind"] in ("吃", "喝", "看", "听", "玩", "去") else f"最喜欢的{m['kind']}是{obj}"
    return candidate("preference", said, _q(m, text), f"preference:{norm_object(obj)}")


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


def _b_happiest(m: re.Match, text: str) -> Candidate | None:
    return _pref(m, text, "{obj}" + m["how"], 1)


def _b_quit(m: re.Match, text: str) -> Candidate | None:
    verb = "戒了" if m["v"] == "戒" else m["v"]
    if verb.endswith("了") and verb != "戒了" and m.start("v") > m.start("obj"):
        return _pref(m, text, f"已经{verb}{{obj}}", -1)
    return _pref(m, text, verb + "{obj}", -1)


INTENS = r"(?:超|超级|特别|非常|很|好|最|真的|巨|还挺|挺)?"
ZH_VERBS = alternation("zh_hobby_verbs")
LEISURE = (r"打游戏|玩游戏|打(?:篮球|羽毛球|乒乓球|网球|排球|台球|麻将|牌)|踢(?:足球|球)|追剧|刷剧|看剧|看书|看小说|看电影|看动漫|看番|"
           r"刷抖音|刷视频|健身|撸铁|跑步|游泳|爬山|徒步|骑车|骑行|钓鱼|画画|弹(?:吉他|钢琴|琴)|练(?:瑜伽|字|琴|舞)|跳舞|逛街|做饭|烘焙|"
           r"拍照|露营|滑雪|冲浪|攀岩|下棋|唱歌|K歌|听歌|宅(?:在)?家|不出门|睡懒觉|遛狗|打球|练琴")
HABIT_TIME = (r"(?:每天|每个?周末|每周|平时|周末|晚上|早上)(?:下班后?|下班以后|放学后?|回家后?)?|下班后?|下班以后|下班回家后?|放学后|"
              r"有空(?:的时候)?|没事(?:的时候)?|休息(?:的时候)?|空闲时间|闲下来")
HABIT_ADV = r"(?:一般|通常|经常|基本上?|都|总是|习惯|喜欢|爱|会|常常|老是)"
UNFAN = alternation("zh_unfan")
PREFERENCE_RULES: list[Rule] = [
    Rule("zh.preference.favourite", "zh", "preference", 11000,
         rf"(?<![你他她])(?:我)?(?:最|超级?|特别)(?:喜欢|爱)的(?P<kind>(?:(?!就)[{HAN}]){{1,5}}?)(?:是|就是|[：:])\s*"
                rf"(?P<obj>《[^》]{{1,20}}》|[{HAN}A-Za-z0-9·]{{1,10}}?)" + END + r"|了|啦|呀|啊|，|没有之一)", _b_favourite),
    Rule("zh.preference.unfan.2", "zh", "preference", 11040,
         TOPICAL + rf"(?:我)?(?:已经|早就|彻底|正式|果断|终于)*(?P<v>{UNFAN})了", _b_unfan),
    Rule("zh.preference.side", "zh", "preference", 11050,
         rf"(?<![你他她])我(?:是|属于|一直是)(?:个|一个|坚定的|铁杆)?(?P<obj>[{HAN}]{{1,4}}?)(?P<f>派|党)(?![员委校章内外])", _b_side),
    Rule("zh.preference.yyds", "zh", "preference", 11060,
         TOPICAL + r"\s*(?:真的|简直|就是|绝对|永远)?(?:yyds|YYDS|永远的神|是神|绝绝子|天下第一)", _b_yyds),
    Rule("zh.preference.leisure", "zh", "preference", 11090,
         rf"(?P<when>{HABIT_TIME})(?:我)?(?P<adv>(?:{HABIT_ADV}){{1,3}})?(?:约着|结伴)?(?:在家|去健身房|去|在)?(?P<obj>{LEISURE})", _b_leisure),
    Rule("zh.preference.that_is", "zh", "preference", 11100,
         r"(?:^|(?<=[，。！？,.!?\s]))(?:那|这)(?:是|就是|可是)我(?:一周|每周|一天|每天|一年|每年|一星期)?(?:里|中)?(?:最|超|特别)"
                r"(?:期待|开心|快乐|放松|享受|幸福|喜欢|治愈)的", _b_that_is),
    Rule("zh.preference.they_are", "zh", "preference", 11110,
         r"(?:^|(?<=[，。！？,.!?\s]))(?:他们|她们|她|他)(?:就|真的|简直|可)?是我的(?P<x>青春|信仰|偶像|本命|白月光|最爱|神|精神支柱|快乐源泉)", _b_they_are),
    Rule("zh.preference.doing_now", "zh", "preference", 11120,
         rf"(?:最近|现在|这段时间|今年)(?:在|开始|又开始|迷上了?|爱上了?)(?P<v>学|玩|练|追|弹)(?P<obj>[{HAN}A-Za-z《》]{{1,8}}?)"
                + END + r"|了|呢|，)", _b_doing_now),
    Rule("zh.preference.happiest", "zh", "preference", 11130,
         rf"(?:^|(?<=[，。！？,.!?\s]))(?P<obj>[{HAN}A-Za-z]{{2,6}}?)(?:是)?(?P<how>最快乐|最开心|最幸福|最治愈|最解压|最舒服|最爽)", _b_happiest),
    Rule("zh.preference.dont_have", "zh", "preference", 11140,
         rf"我(?:从来|基本|一般|完全|平时|从小就?|一直)?(?:都)?不(?P<v>吃|喝|碰)(?P<obj>(?![了的])[{HAN}A-Za-z]{{1,6}}?)"
                + END + r"|的|了|，)", _b_dont_have),
    Rule("zh.preference.cannot", "zh", "preference", 11150,
         r"(?:突然|现在|已经|实在|真的|完全)(?P<v>吃|喝|看|听)不了" + OBJ, _b_cannot),
    Rule("zh.preference.dislike", "zh", "preference", 11180,
         r"(?P<v>(?:从小(?:就)?|一直(?:都)?|天生|特别|很|超|最|好|非常|真的|有点)怕)" + OBJ, _b_dislike),
    Rule("zh.preference.stopped.2", "zh", "preference", 11240,
         rf"(?:已经|早就|现在)*不再?(?P<v>{ZH_VERBS})" + OBJ + "了", _b_stopped),
    Rule("zh.preference.quit.3", "zh", "preference", 11290,
         TOPICAL + r"(?:已经|早就)?(?P<v>戒了|卸载了|删了|退坑了|弃坑了|取关了|放弃了)", _b_quit),
    Rule("zh.preference.dislike.2", "zh", "preference", 11320,
         r"(?P<v>" + INTENS + r"(?:讨厌|不喜欢|不太喜欢|不爱吃|受不了|接受不了|害怕|最怕|反感))" + OBJ, _b_dislike),
    Rule("zh.preference.like", "zh", "preference", 11330,
         r"(?P<v>(?:超|超级|特别|非常|很|好|最|真的|巨)(?:迷(?![茫糊路惑失])|爱)(?![好情心人意])|" + INTENS
                + r"(?:喜欢|热爱|爱吃|爱喝|爱看|爱玩|爱听|迷上了?|爱上了?|沉迷于?|痴迷于?))" + OBJ, _b_like),
    # Kept though it fires in no train case: the shared development set's "只要一休息我就去打羽毛球" needs it
    # (dev-zh-multi-01: without it the heads joined it to the shift work before it, a profile note).
    Rule("zh.preference.habit", "zh", "preference", 11350,
         rf"(?:只要)?(?P<when>一(?:有空|休息|放假|下班|到周末|有时间|闲下来))(?:我)?就(?:会)?(?:去)?"
                rf"(?P<obj>[{HAN}A-Za-z]{{2,8}}?)" + END + r"|了|，)", _b_habit),
]
