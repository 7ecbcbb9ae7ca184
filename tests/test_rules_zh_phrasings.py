"""Casual Chinese phrasings the rules must read (named relatives and pets, traits, fans, favourites, routines,
job changes, feedback, events), each with look-alikes that must stay out."""
from __future__ import annotations

from datetime import date

import pytest

from memory.learn.rules.candidates import extract_candidates
from memory.learn.validate import validate
from memory.records import Candidate

TODAY = date(2026, 4, 6)  # a Monday


def kept(text: str, today: date = TODAY) -> list[Candidate]:
    good, _ = validate(extract_candidates(text, None, today), text, None, today)
    return good


# (message, category, words the content must contain, topic)
FOUND = [
    ("啊啊啊我妹朵朵高考出分了！！", "relationship", ["朵朵"], "relationship:朵朵"),
    ("我儿子豆豆今天上幼儿园了", "relationship", ["豆豆"], "relationship:豆豆"),
    ("我室友Jason超会做饭", "relationship", ["Jason"], "relationship:Jason"),
    ("我和闺蜜阿May认识十年了", "relationship", ["阿May"], "relationship:阿May"),
    ("我同事小王帮我把活接过去了", "relationship", ["小王"], "relationship:小王"),
    ("我家狗子土豆（一只柯基）又拆家了", "relationship", ["土豆"], "relationship:土豆"),
    ("可我最近跟我爸关系特别僵", "relationship", ["爸", "僵"], "relationship:爸爸"),
    ("我是重度社恐，团建能躲就躲", "profile", ["社恐"], "profile:trait:社恐"),
    ("我有点恐高", "profile", ["恐高"], "profile:trait:恐高"),
    ("我最喜欢的水果：山竹，没有之一", "preference", ["山竹"], "preference:山竹"),
    ("我最爱的歌手是周杰伦", "preference", ["周杰伦"], "preference:周杰伦"),
    ("不过我每周二、周四都雷打不动去上Pilates课", "profile", ["Pilates", "每周四"], "profile:routine:普拉提"),
    ("每天晚上十点雷打不动视频一小时", "profile", ["视频"], "profile:routine:通话"),
    ("我每天早上六点起来晨跑五公里", "profile", ["晨跑"], "profile:routine:跑步"),
    ("每周六上午雷打不动去学画画", "profile", ["画画"], "profile:routine:画画"),
    ("我和男朋友每天晚上都视频", "profile", ["视频"], "profile:routine:通话"),
    ("我在一家奶茶店当店员", "profile", ["奶茶店", "店员"], "profile:job"),
    ("我是一名营养师", "profile", ["营养师"], "profile:job"),
    ("当月嫂真的好累", "profile", ["月嫂"], "profile:job"),
    ("我升主管了，还是在原来的部门", "profile", ["主管", "原来的部门"], "profile:job"),
    ("跟你说，我跳槽到腾讯了，还是做运营", "profile", ["腾讯", "运营"], "profile:job"),
    ("你回我的时候能不能少用点网络梗啊", "feedback", ["网络梗"], "feedback:tone"),
    ("所以我凌晨找你聊天的时候，你别老劝我早点睡了", "feedback", ["劝", "早点睡"], "feedback:advice"),
    ("你能不能用英文回我", "feedback", ["英文"], "feedback:language"),
    ("我和闺蜜阿May基本每个周末都约着去爬山", "preference", ["爬山"], "preference:爬山"),
    ("周末一般都在家打游戏", "preference", ["每个周末", "游戏"], "preference:游戏"),
    ("还好周末可以去上陶艺课，那是我一周最期待的时候", "preference", ["陶艺"], "preference:陶艺课"),
    ("晚上去看五月天演唱会！！他们是我的青春啊", "preference", ["五月天"], "preference:五月天"),
    ("还有十天就要和朋友去云南自驾了！", "event", ["2026-04-16", "云南"], "event:和朋友去云南自驾"),
    ("还有两个星期就要答辩了", "event", ["2026-04-20", "答辩"], "event:答辩"),
    ("这周末要去参加大学室友的婚礼", "event", ["2026-04-11", "婚礼"], "event:参加大学室友的婚礼"),
    ("下周末要搬家", "event", ["2026-04-18", "搬家"], "event:搬家"),
    ("我家那只橘猫叫大黄", "relationship", ["大黄"], "relationship:大黄"),
    ("我超级社恐的", "profile", ["社恐"], "profile:trait:社恐"),
    ("每天晚上都和我妈打电话", "profile", ["打电话"], "profile:routine:通话"),
    ("每周三固定去打羽毛球", "profile", ["羽毛球"], "profile:routine:打球"),
    ("我每天都会看书", "preference", ["看书"], "preference:书"),
    ("我入职字节了", "profile", ["字节"], "profile:job"),
    ("我和小林在一起三年了", "relationship", ["小林", "三年"], "relationship:小林"),
    ("我女儿今年三岁了", "relationship", ["女儿", "三岁"], "relationship:女儿"),
    ("我前男友叫阿杰", "relationship", ["阿杰"], "relationship:阿杰"),
    ("我侄女糖糖满月了", "relationship", ["糖糖"], "relationship:糖糖"),
    ("我家小猫咪球球最近不爱吃饭", "relationship", ["球球"], "relationship:球球"),
    ("最近沉迷剧本杀，一周要打两三场，尤其喜欢情感本", "preference", ["剧本杀", "情感本"], "preference:剧本杀"),
    ("我最近状态很差", "relationship", ["状态很差"], "relationship:mood"),
    ("我心态崩了", "relationship", ["心态崩"], "relationship:mood"),
    ("我最近特别焦虑", "relationship", ["焦虑"], "relationship:mood"),
    ("能不能别一直道歉", "feedback", ["道歉"], "feedback:apologies"),
    ("下次回答直接给结论", "feedback", ["结论"], "feedback:tone"),
    ("还有一个月就要生了", "event", ["2026-05-06"], "event:生"),
    ("还有俩礼拜就期末考了", "event", ["2026-04-20", "期末考"], "event:期末考"),
    ("后天飞成都", "event", ["2026-04-08", "成都"], "event:飞成都"),
    ("我是猫派", "preference", ["猫派"], "preference:猫"),
    ("火锅yyds", "preference", ["火锅"], "preference:火锅"),
    ("我老家湖南的", "profile", ["湖南"], "profile:hometown"),
    ("我在读研", "profile", ["读研"], "profile:grade"),
    ("我怀孕五个月了", "profile", ["怀孕"], "profile:pregnancy"),
    ("我哥哥在上海当医生", "relationship", ["哥哥", "医生"], "relationship:哥哥"),
    ("你别每次都让我去看医生", "feedback", ["看医生"], "feedback:habit"),
    ("不过只要一休息我就去打羽毛球，雷打不动", "preference", ["羽毛球"], "preference:羽毛球"),  # a habit of free time
]

# (message, a word no memory's content or topic may contain)
LOOKALIKES = [
    ("我妈天天催我早点睡", "天天"),
    ("我妈常常说我太瘦", "常常"),
    ("我哥看看再说", "看看"),
    ("我爸老毛病又犯了", "老毛"),
    ("老王是谁啊", "老王"),
    ("今天在Lululemon又剁手了一条裤子", "Lululemon"),
    ("你是社恐吗", "社恐"),
    ("你最喜欢的水果是什么", "水果"),
    ("我最喜欢的水果是什么来着", "水果"),
    ("我妈是刘德华的铁粉", "刘德华"),
    ("要不要脱粉易烊千玺啊", "易烊千玺"),
    ("我打算每天跑步", "跑步"),
    ("你每天几点跑步？", "跑步"),
    ("我妈每天早上六点起来晨跑", "晨跑"),
    ("今天改成晚上去跑步了", "跑步"),
    ("我们公司每周五都要开周会", "周会"),
    ("每天下班回来就刷两集", "刷"),
    ("我来北京第一天", "北京"),
    ("我想跳槽到腾讯", "腾讯"),
    ("我同事升店长了", "店长"),
    ("我当导演的朋友说", "导演"),
    ("我对象叫小北，在上海做建筑设计", "建筑设计"),
    ("别老想着他了", "想着"),
    ("我妈老劝我早点睡", "早点睡"),
    ("你别担心", "担心"),
    ("周末经常一起逛街", "逛街"),
    ("那是我最喜欢的时候", "时候"),
    ("还有十块钱", "十块"),
    ("还有半天就下班了", "下班"),
    ("这周末要去参加大学室友的婚礼", "周末"),
    ("还有十天就要和朋友去云南自驾了！", "十天"),
    ("粉转路了家人们", "家人们"),
    ("我是你的粉丝", "粉丝"),
    ("他最喜欢的水果是芒果", "芒果"),
    ("我是不是社恐啊", "社恐"),
    ("我内向的朋友", "内向"),
    ("你最爱吃的是什么", "什么"),
    ("他跳槽到阿里了", "阿里"),
    ("要不要跳槽到腾讯呢", "腾讯"),
    ("我升高三了", "升"),
    ("我想升职", "升职"),
    ("来北京第三天了", "北京"),
    ("我每天都刷视频", "routine"),
    ("我要去做个测试", "测试"),
    ("他是干销售的", "销售"),
    ("我有个朋友想问一下", "朋友"),
    ("我做饭的时候", "做饭"),
    ("我家小猫咪球球最近不爱吃饭", "不喜欢"),
    ("我妈特别讨厌猫", "猫"),
    ("小时候生病", "小时"),
    ("哈哈上周去世了", "哈哈"),
    ("他在学日语", "日语"),
    ("我不自卑", "自卑"),
    ("别难过", "难过"),
    ("今天状态不错", "状态"),
    ("他跟我道歉了", "道歉"),
    ("下次再说吧", "下次"),
    ("下周一入职新公司", "profile:job"),
    ("还有俩礼拜就期末考了", "俩礼拜"),
    ("我是党员", "党"),
    ("你是猫派吗", "猫"),
    ("你yyds", "yyds"),
    ("什么绝绝子、yyds之类的", "preference"),
    ("我住院了", "profile:city"),
    ("我住院三天了", "profile:city"),
    ("我是不是怀孕了", "怀孕"),
    ("我妹怀孕了", "profile:pregnancy"),
    ("我老家是东北的", "是是"),
    ("我妹妹怀孕了", "妹妹妹"),
    ("我弟弟小宇考上大学了", "relationship:弟弟"),
    ("我哥哥在上海当医生", "profile:job"),
    ("今天看了个视频，说每天早上六点起床的人更容易成功", "六点"),
    ("我最喜欢的就是周末了", "周末"),
    ("我同学每天雷打不动去图书馆", "图书馆"),
    ("老板说每天九点必须打卡", "打卡"),
    ("你别老是逗我了哈哈", "逗"),
    ("你别再说了", "说"),
    ("你别总这样嘛", "这样"),
    ("我现在很迷茫 不知道该干嘛", "喜欢"),  # 迷茫 (lost), not 很迷 (a fan of)
    ("最近好迷糊 老是忘事", "喜欢"),
]


@pytest.mark.parametrize("text,category,words,topic", FOUND)
def test_casual_phrasing_is_read(text, category, words, topic):
    hits = [c for c in kept(text) if c.category == category and all(w in c.content for w in words)]
    assert hits, [(c.category, c.content) for c in kept(text)]
    assert hits[0].topic == topic


@pytest.mark.parametrize("text,word", LOOKALIKES)
def test_lookalike_stays_out(text, word):
    assert not [c.content for c in kept(text) if word in c.content or word in (c.topic or "")]


# (first message, second message): the second supersedes the first (same category and topic)
REVERSALS = [
    ("我在一家奶茶店当店员", "我升店长啦！！还是那家奶茶店"),
    ("我在字节跳动做运营", "我跳槽到腾讯了，还是做运营"),
    ("我跟小鹿闹掰了", "我跟小鹿和好了"),
    ("我养了一只猫叫咪咪", "咪咪上周去世了，好难过"),
]


@pytest.mark.parametrize("first,second", REVERSALS)
def test_a_change_keeps_the_topic(first, second):
    a, b = kept(first), kept(second, date(2026, 5, 1))
    assert a and b
    assert {(c.category, c.topic) for c in a} & {(c.category, c.topic) for c in b}


def test_a_sibling_word_is_not_tripled_in_notes_or_topics():
    from datetime import date as _date

    from memory.learn.rules.candidates import extract_candidates
    from memory.learn.rules.common import zh_clean
    assert zh_clean("我妹妹下周结婚") == "妹妹下周结婚" and zh_clean("我姐姐人很好") == "姐姐人很好"
    found = extract_candidates("我妹妹下周六结婚", None, _date(2026, 11, 29))
    assert found and all("妹妹妹" not in (c.content + (c.topic or "")) for c in found)


@pytest.mark.parametrize("said,note", [
    ("我对象的妈妈特别喜欢我", "对象的妈妈特别喜欢我"),
    ("体检报告把我吓到了", "体检报告把我吓到了"),
    ("医生让我每小时起来活动一下", "医生让我每小时起来活动一下"),
    ("我特别讨厌我的工作", "特别讨厌工作"),
    ("我每天都被我妈催着早睡", "每天都被妈妈催着早睡"),
    ("自我介绍一下嘛 我叫陈嘉怡", "自我介绍一下嘛 叫陈嘉怡"),  # 自我 is one word, not a subject 我
    ("老公天天回家跟我讲电芯", "老公天天回家跟我讲电芯"),  # after a preposition: "跟讲电芯" says nothing
    ("他帮我搬家", "他帮我搬家"),
    ("我跟他分手了", "跟他分手了"),
])
def test_the_user_as_the_object_stays_in_a_note_the_subject_goes(said, note):
    from memory.learn.rules.common import zh_clean
    assert zh_clean(said) == note


@pytest.mark.parametrize("said, category, words, topic", [
    # a rule quotes the piece it matched: the piece after a space is the neighbour's to add (tests/test_enrich.py)
    ("我在一家外贸公司当会计 天天对发票", "profile", ["外贸公司", "会计"], "profile:job"),
])
def test_a_rewrite_that_leaves_out_a_noun_the_user_said_keeps_their_words_and_the_rules_topic(said, category, words,
                                                                                             topic):
    hits = [c for c in kept(said) if c.category == category and c.topic == topic]
    assert hits and all(w in hits[0].content for w in words), [(c.category, c.content, c.topic) for c in kept(said)]


@pytest.mark.parametrize("said, person", [("跟公公彻底闹掰了 他嫌我不会做饭", "公公"), ("跟嫂子已经绝交了", "嫂子")])
def test_a_word_between_the_person_and_the_breakup_is_never_taken_for_a_name(said, person):
    notes = [(c.content, c.topic) for c in kept(said) if c.category == "relationship"]
    assert notes and all(person in content and topic == f"relationship:{person}" for content, topic in notes), notes


@pytest.mark.parametrize("said", ["我表哥在杭州开了家火锅店 生意火得要排队", "我闺女在湘雅读研 学临床的"])
def test_a_relatives_shop_or_school_is_not_the_users_profile(said):
    assert not [c for c in kept(said) if c.category == "profile"], [(c.content, c.origin) for c in kept(said)]
