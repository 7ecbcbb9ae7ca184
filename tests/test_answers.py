"""A short answer is read with the companion's question (issue 36, item 5): "two, both rescues" after "Any pets?"
is about pets, "每天至少三杯" after "你平时喝咖啡吗？" is about coffee, and the memory keeps the user's own words."""
from __future__ import annotations

import pytest

from memory.learn.answers import read_with_question


@pytest.mark.parametrize("question, answer, said", [
    ("Do you have any pets?", "two, both rescues", "I have pets: two, both rescues"),
    ("How long have you been playing guitar?", "since March, still can't do an F chord",
     "I have been playing guitar since March, still can't do an F chord"),
    ("Oh that sounds lovely! What's your favourite food?", "ramen, tonkotsu especially",
     "My favourite food is ramen, tonkotsu especially"),
    ("Where do you live?", "Leeds, near the uni", "I live in Leeds, near the uni"),
    ("Fingers crossed! When's the final-round interview?", "thursday, 2pm", "The final-round interview is thursday, 2pm"),
    ("Did you manage to book the dentist?", "yep, friday at 9", "I did manage to book the dentist: friday at 9"),
    ("你平时喝咖啡吗？", "每天至少三杯", "我平时喝咖啡，每天至少三杯"),
    ("你住在哪个城市？", "成都，刚搬过来", "我住在成都，刚搬过来"),
    ("你最喜欢吃什么？", "火锅，尤其是牛油锅", "我最喜欢吃火锅，尤其是牛油锅"),
    ("你周末一般干嘛？", "爬山", "我周末一般爬山"),
    # the question need not close the message, and an aside after a comma is not what is asked
    ("When's your birthday? I want to remember it 🎂", "march 3rd", "My birthday is march 3rd"),
    ("What do you do for work, if you don't mind me asking?", "icu nurse, nights mostly",
     "I work as icu nurse, nights mostly"),
    ("How old is your son now?", "seven in may", "My son is seven in may"),
    # Chinese leaves "you" out: a question with no subject is asked of the user
    ("平时打游戏吗？", "王者，星耀卡了半年", "平时打游戏，王者，星耀卡了半年"),
    ("哇大学生！在哪个学校读书呀？", "川大，大二", "在川大读书，大二"),
    ("新工作哪天入职呀？", "下周一", "新工作下周一入职"),  # the time word alone is asked, not the verb after it
    ("你闺蜜的婚礼是哪天来着？", "6月6号，我当伴娘", "我闺蜜的婚礼是6月6号，我当伴娘"),
    ("你跑步跑了多久了？", "三年多了", "我跑步跑了三年多了"),
])
def test_the_answer_is_said_whole_with_the_question(question, answer, said):
    assert read_with_question(answer, question) == said


@pytest.mark.parametrize("question, answer", [
    ("Want me to remind you tomorrow?", "yes please, at 9"),      # about the companion, not the user
    ("Did you sleep ok?", "no"),                                    # a bare no about how a day went
    ("Do you drink coffee?", "yeah"),                               # nothing said beyond yes
    ("How was your day?", "I finally finished the deck, so good"),  # a statement of its own
    ("That sounds rough.", "two, both rescues"),                    # no question was asked
    ("要我提醒你吗？", "好的，九点"),
    ("你平时喝咖啡吗？", "我只喝茶"),
    ("Do you have any pets?", "why do you ask?"),
])
def test_what_is_no_answer_to_a_question_about_the_user_is_left_as_said(question, answer):
    assert read_with_question(answer, question) is None


@pytest.mark.parametrize("question, answer, said", [
    ("Do you drink coffee?", "nope", "I don't drink coffee"),
    ("Are you a dog person? 🐶", "not really tbh, they kinda scare me", "I am not a dog person: they kinda scare me"),
    ("Do you work in an office?", "nope, fully remote", "I don't work in an office: fully remote"),
    # Chinese says no with the question's verb: its object follows it
    ("你平时喝咖啡吗？", "不喝，喝了睡不着", "不喝咖啡，喝了睡不着"),
    ("你会不会游泳呀？夏天快到了🏊", "不会 小时候呛过水", "不会游泳 小时候呛过水"),
])


def test_a_no_to_a_yes_or_no_question_is_the_negative_statement(question, answer, said):
    assert read_with_question(answer, question) == said


@pytest.mark.parametrize("question, answer, said", [
    ("Cats or dogs? Choose wisely", "dogs obviously", "I prefer dogs: obviously"),
    ("Sweet or savoury for breakfast?", "savoury. eggs on toast", "I prefer savoury for breakfast: eggs on toast"),
    ("Are you a cat or dog person?", "dog, 100%", "I am a dog person: 100%"),
    ("你是早起型还是夜猫子呀？", "夜猫子 不到两点睡不着", "我是夜猫子，不到两点睡不着"),
    ("你是猫派还是狗派？", "猫 虽然没养", "我是猫派，虽然没养"),
])
def test_an_either_or_question_is_said_with_the_side_the_answer_took(question, answer, said):
    assert read_with_question(answer, question) == said


def test_an_answer_that_takes_neither_side_is_left_as_said():
    assert read_with_question("自己带饭 减脂期", "那你午饭一般在哪解决？食堂还是外卖？") is None
    # nor in English: "They are more of a morning person or a night owl" claims both sides, which is said of no one
    assert read_with_question("up at 5 every day", "Are you more of a morning person or a night owl?") is None


@pytest.mark.parametrize("answer, said", [
    ("night owl for sure", "I am more of a night owl for sure"),      # the side said without its article
    ("a night owl, always", "I am more of a night owl: always"),
    ("morning person, always", "I am more of a morning person: always"),  # the first side keeps its article
])
def test_the_side_of_an_either_or_question_is_found_with_or_without_its_article(answer, said):
    assert read_with_question(answer, "Are you more of a morning person or a night owl?") == said


@pytest.mark.parametrize("question, answer, said", [
    ("Want me to use more emojis? 😊✨", "pls no. fewer if anything", "Don't use more emojis: fewer if anything"),
    ("Should I check in with you every morning?", "nah", "Don't check in with me every morning"),
    ("要不要我多用点表情包活跃下气氛？😄", "不用，正常说话就好", "别多用点表情包活跃下气氛，正常说话就好"),
    ("我叫你王先生可以吗？", "别别别，叫我小王就行", "别叫我王先生，叫我小王就行"),
])
def test_a_no_to_the_companions_offer_is_the_request_not_to(question, answer, said):
    assert read_with_question(answer, question) == said


@pytest.mark.parametrize("question, answer", [
    ("Want me to remind you tomorrow?", "yes please, at 9"),  # a yes to an offer is not read as a request
    ("要不要我提醒你？", "好的"),
    ("Should I be more honest with you, even if it's blunt?", "yes pls, don't sugarcoat stuff"),  # a yes, not a no
    ("你平时会打游戏吗？", "不玩 手残"),
    ("开玩笑啦～不过你平时喝酒吗？🍷", "滴酒不沾 喝一口浑身起红疹子"),  # no yes to say the question with  # a no with another verb than the question's: its object is not guessed
])
def test_an_offer_taken_or_a_plain_no_is_left_as_said(question, answer):
    assert read_with_question(answer, question) is None


def test_the_memory_of_an_answer_names_its_topic_and_quotes_the_user(cli):
    written = cli.json("memory", "extract", "每天至少三杯", "--assistant", "你平时喝咖啡吗？", "--json",
                       today="2026-12-06")["written"]
    assert [w["content"] for w in written] and all("咖啡" in w["content"] for w in written)
    added = cli.json("memory", "history", written[0]["id"], "--json")[0]["after"]
    assert added["quote"] == "每天至少三杯"  # the user's words, not the statement they were read as


def test_a_dated_answer_becomes_the_event_it_answers(cli):
    written = cli.json("memory", "extract", "thursday, 2pm, on zoom", "--assistant",
                       "Fingers crossed! When's the final-round interview?", "--json", today="2026-02-10")["written"]
    events = [w for w in written if w["category"] == "event"]
    assert events and events[0]["event_date"] == "2026-02-12" and "interview" in events[0]["content"].lower()


@pytest.mark.parametrize("question, answer, said", [
    # a long answer is read by its first sentence; what follows is said as is
    ("What's your go-to comfort food? 🍲", "mac and cheese with way too much cheddar. non negotiable after a bad day, "
     "every single time without fail", "My go-to comfort food is mac and cheese with way too much cheddar. non negotiable "
     "after a bad day, every single time without fail"),
    ("What's your little one called? 😊", "Ezra! 5 months old", "My little one is called Ezra! 5 months old"),
    ("Who's your favourite author?", "Terry Pratchett forever", "My favourite author is Terry Pratchett forever"),
    ("What's your favourite season, and why?", "autumn. jumpers, soup", "My favourite season is autumn. jumpers, soup"),
])
def test_more_question_shapes(question, answer, said):
    assert read_with_question(answer, question) == said


@pytest.mark.parametrize("question, answer, said", [
    ("Parents' evening, eek 😬 When is it?", "thurs 6:30", "The Parents' evening is thurs 6:30"),
    ("Ooh, your sister's wedding! When is it?", "june 14th", "My sister's wedding is june 14th"),
    ("Oh, the family reunion! Which weekend is it?", "the first one in august", "the family reunion is the first one in august"),
])
def test_the_remark_before_a_question_names_its_it(question, answer, said):
    assert read_with_question(answer, question) == said


def test_a_remark_that_says_something_names_nothing():
    assert read_with_question("2 hours", "That sounds fun! Is it far?") is None
    assert read_with_question("tomorrow", "When is it?") is None


@pytest.mark.parametrize("question, answer", [
    ("Want me to pick a film for tonight? 🍿", "nah, think I'll just read"),  # an offer for the moment
    ("That's a lot on your plate. Want me to just listen for a bit?", "nah it's okay, I'm just moaning"),
    ("Did you make the train in time?", "by like 10 seconds 😅"),  # how a moment went
    ("Did you manage to get any sleep last night?", "like 5 hrs, I'll survive"),
])
def test_a_question_about_the_moment_keeps_nothing_whatever_the_answer(question, answer):
    assert read_with_question(answer, question) is None


def test_an_or_whose_other_side_is_a_no_asks_yes_or_no():
    said = read_with_question("hard no lol. can't stand horror",
                              "are you into horror at all, or is that a hard no? 🎃")
    assert said == "I am not into horror: can't stand horror"


def test_a_chinese_answer_that_repeats_the_questions_preposition_says_it_once():
    assert read_with_question("跟大学室友小周 我俩每年都要一起出去浪一趟", "这次旅行跟谁一起去呀？") == \
        "这次旅行跟大学室友小周一起去，我俩每年都要一起出去浪一趟"


@pytest.mark.parametrize("question, answer, said", [
    ("What's your best friend like?", "Kemi is chaos in human form", "My best friend Kemi is chaos in human form"),
    ("Who's the best cook in your family? 😋", "my nan, no contest", "The best cook in my family is my nan, no contest"),
    ("Aww, how did you two meet? 💕", "dating app!", "We met: dating app"),
    ("Do you drive?", "nope, never learned", "I don't drive: never learned"),  # "never" said of something stays
    ("Are you much of a gamer? 🎮", "not at all, never got the appeal", "I am not much of a gamer: never got the appeal"),
    ("Is it okay if I call you Alex, or do you prefer something else?", "Lexi please",
     "I prefer something else: Lexi please"),
    ("你平时怎么去公司呀？远不远？", "骑电驴 十五分钟", "我平时骑电驴去公司，十五分钟"),  # the question, not its tag
    ("你在读研对吧？读的啥专业呀", "环境工程", "读的环境工程专业"),
])
def test_shapes_of_a_second_round(question, answer, said):
    assert read_with_question(answer, question) == said


@pytest.mark.parametrize("question, answer", [
    ("Do you have a garden, or are you more of a windowsill plant person? 🌱", "tiny balcony in Leeds"),  # two questions
    ("你在读研对吧？读的啥专业呀", "对 研二 环境工程"),  # a yes before the blank: which part fills it is not said
])
def test_an_answer_that_does_not_say_which_question_it_answers_is_left_as_said(question, answer):
    assert read_with_question(answer, question) is None


@pytest.mark.parametrize("question, answer, said", [
    # a when-question with no thing of its own is asked of what the companion spoke of before it
    ("你说要回老家过年，票买好了吗？哪天走？", "抢到了 13号晚上的卧铺", "回老家过年，抢到了 13号晚上的卧铺"),
    ("你不是要去成都出差嘛 定了哪天吗？", "下下周一 待三天", "去成都出差，下下周一 待三天"),
    ("你说要去考潜水证 在哪考？什么时候出发", "三亚 下个月3号出发", "去考潜水证，三亚 下个月3号出发"),
    ("Oof, surgery. When do you go in?", "the 24th, day case", "I go in — the surgery: the 24th, day case"),
    ("Your mum's birthday is coming up, right? What day is it?", "april 9", "my mum's birthday is april 9"),
])
def test_a_question_with_no_thing_of_its_own_takes_what_was_said_before_it(question, answer, said):
    assert read_with_question(answer, question) == said


def test_a_yes_or_no_question_is_not_said_yes_when_the_answer_says_no_in_other_words():
    assert read_with_question("tried, fell asleep in 3 of them. not my thing at all",
                              "Did you ever get into the Marvel films?") is None


@pytest.mark.parametrize("question, answer, said", [
    ("You mention your brother a lot! What does he do?", "he's a sous chef in Shoreditch",
     "My brother is a sous chef in Shoreditch"),
    ("你老公平时做饭吗？", "他？不会做饭 煮个泡面都能糊锅", "我老公不会做饭 煮个泡面都能糊锅"),
    ("Who's Jas? You've mentioned her twice now 😄", "my flatmate! we met at uni", "Jas is my flatmate! we met at uni"),
])
def test_an_answer_opening_on_he_or_she_is_said_of_the_person_asked_about(question, answer, said):
    assert read_with_question(answer, question) == said
