"""Shapes of real reading lists the parser reads as a reader does (each seen in a list under
tests/catalog/reallists), one small document per shape."""

from apps.catalog.importer import parse_guide


def items(text):
    return list(parse_guide(text).items())


def only(text):
    (item,) = items(text)
    return item


def test_a_title_cased_description_is_not_an_author():
    forefront = only(
        "## Chat\n- [Forefront](https://forefront.ai/) - A Better ChatGPT Experience.\n"
    )
    assert (forefront.author, forefront.description) == ("", "A Better ChatGPT Experience.")
    play = only("## Speech\n- [Play.ht](https://play.ht/) - AI Voice Generator. Convert text.\n")
    assert play.author == "" and play.description.startswith("AI Voice Generator.")


def test_a_name_before_the_description_is_still_the_author():
    item = only("## Kernels\n- [GEMM](https://x.io/g) - Simon Boehm. Iterative optimization.\n")
    assert (item.author, item.description) == ("Simon Boehm", "Iterative optimization.")
    paper = only(
        "## P\n- [Post-training](https://x.io/p) - Han Fang, Karthik A Sankararaman. A guide.\n"
    )
    assert paper.author == "Han Fang, Karthik A Sankararaman"


def test_an_authors_page_after_by_is_the_author_kept_as_a_link():
    item = only(
        "## Lists\n- [Awesome ChatGPT](https://github.com/humanloop/awesome-chatgpt) - A curated "
        "list of tools, by [@jordn](https://github.com/jordn).\n"
    )
    assert item.author == "@jordn"
    assert item.description == "A curated list of tools"
    assert [(link.url, link.label) for link in item.links[1:]] == [
        ("https://github.com/jordn", "@jordn")
    ]


def test_organizations_in_code_spans_after_the_link_are_the_author():
    first, second = items(
        "## Classification\n"
        "1. [Categorizing Products](https://x.io/c) `DianPing`, `eBay`\n"
        "2. [Subtyping patients](https://x.io/s) ([Paper](https://x.io/paper)) `Microsoft`\n"
    )
    assert (first.author, first.note) == ("DianPing, eBay", "")
    assert (second.author, second.note) == ("Microsoft", "")
    assert [link.label for link in second.links[1:]] == ["Paper"]


def test_further_parts_take_the_title_of_the_first():
    titles = [
        item.title
        for item in items(
            "## Optimization\n1. [Matchmaking in Lyft Line (Part 1)](https://x.io/1) "
            "[(Part 2)](https://x.io/2) [(Part 3)](https://x.io/3) `Lyft`\n"
        )
    ]
    assert titles == [
        "Matchmaking in Lyft Line (Part 1)",
        "Matchmaking in Lyft Line (Part 2)",
        "Matchmaking in Lyft Line (Part 3)",
    ]


def test_a_companion_named_by_its_last_word_stays_with_the_item():
    item = only(
        "## UI\n- [Chatbot UI](https://www.chatbotui.com/) - An open source ChatGPT UI. "
        "[Source code](https://github.com/mckaywrigley/chatbot-ui).\n"
    )
    assert [link.label for link in item.links[1:]] == ["Source code"]


def test_numbered_prose_describes_the_lone_address_under_it():
    first, second = items(
        "# Papers of the week\n**Top ML Papers of the Week (Jan 1-8):**\n"
        "1. GoogleAI introduces Muse, a text-to-image model; more efficient than diffusion.\n"
        "  - Paper: https://arxiv.org/abs/2301.00704\n"
        "2. A Succinct Summary of Reinforcement Learning. A nice overview.\n"
        "  - https://arxiv.org/abs/2301.01379\n"
    )
    assert first.url == "https://arxiv.org/abs/2301.00704"
    assert first.note.startswith("GoogleAI introduces Muse")
    assert first.title == "GoogleAI introduces Muse, a text-to-image model"  # its first clause
    assert (second.title, second.url) == (
        "A Succinct Summary of Reinforcement Learning",
        "https://arxiv.org/abs/2301.01379",
    )


def test_a_table_row_whose_only_links_are_buttons_is_an_item():
    item = only(
        "## Techniques\n| # | Category | Technique | View |\n|---|---|---|---|\n"
        '| 1 | Foundational | Basic RAG | [<img src="https://img.shields.io/badge/GitHub-View-blue">]'
        "(https://github.com/x/rag/blob/main/simple_rag.ipynb) "
        '[<img src="https://colab.research.google.com/assets/colab-badge.svg">]'
        "(https://colab.research.google.com/github/x/rag/blob/main/simple_rag.ipynb) |\n"
    )
    assert (item.title, item.url) == (
        "Basic RAG",
        "https://github.com/x/rag/blob/main/simple_rag.ipynb",
    )
    assert [link.label for link in item.links[1:]] == ["Notebook"]


def test_a_status_badge_is_still_not_an_item():
    guide = parse_guide(
        "# List\n[![Awesome](https://awesome.re/badge.svg)](https://awesome.re)\n\n"
        "## Tools\n- [Flowise](https://github.com/FlowiseAI/Flowise) - Drag and drop.\n"
    )
    assert [item.title for item in guide.items()] == ["Flowise"]
    assert guide.skipped.get("badges") == 1


def test_a_papers_table_splits_the_bold_name_from_its_description():
    item = only(
        "## Week 1\n| **Paper** | **Links** |\n| --- | --- |\n"
        "| 1) **Muse** - GoogleAI introduces Muse, a text-to-image model. | "
        "[Paper](https://arxiv.org/abs/2301.00704), [Tweet](https://twitter.com/dair_ai/status/1) |\n"
    )
    assert (item.title, item.url) == ("Muse", "https://arxiv.org/abs/2301.00704")
    assert item.description == "GoogleAI introduces Muse, a text-to-image model."
    assert [link.label for link in item.links[1:]] == ["Tweet"]


def test_reference_style_links_are_links():
    attention, adam = items(
        "# List\n## Papers\n- [Attention][attn] - Transformers.\n- [Adam][] - An optimizer.\n\n"
        '[attn]: https://arxiv.org/abs/1706.03762 "Attention"\n[adam]: <https://arxiv.org/abs/1412.6980>\n'
    )
    assert (attention.title, attention.url) == ("Attention", "https://arxiv.org/abs/1706.03762")
    assert (adam.title, adam.url) == ("Adam", "https://arxiv.org/abs/1412.6980")


def test_a_heading_that_is_a_link_after_an_emoji_names_a_resource():
    item = only("# List\n### 👉 [**Get the full course**](https://example.com/course)\n")
    assert (item.title, item.url) == ("Get the full course", "https://example.com/course")


def test_the_first_h1_names_the_list_even_under_a_header_of_links():
    guide = parse_guide(
        '<p align="center">\n  <a href="https://x.io/?lang=de">Deutsch</a> |\n'
        '  <a href="https://x.io/?lang=fr">français</a>\n</p>\n\n'
        "# 🌟 Awesome LLM Apps\n\n## 🚀 Advanced AI Agents\n- [Openwork](https://github.com/a/openwork)\n"
    )
    assert guide.title == "Awesome LLM Apps"
    assert [section.title for section in guide.walk()] == ["Reading list", "Advanced AI Agents"]


def test_a_paragraph_that_opens_with_its_link_is_an_item_with_its_description():
    item = only(
        "# List\n## Related\n🚀 **[Agents Towards Production](https://github.com/x/agents)** - "
        "code-first tutorials for shipping production-grade GenAI agents, prototype to scale.\n"
    )
    assert item.title == "Agents Towards Production"
    assert item.description.startswith("code-first tutorials")


def test_an_image_without_an_address_leaves_no_markup():
    item = only(
        "## Frameworks\n- [Flappy](https://github.com/pleisto/flappy): Agent SDK "
        "![Github Repo stars]![](https://img.shields.io/github/stars/pleisto/flappy.svg)\n"
    )
    assert item.note == "Agent SDK"


def test_urls_in_code_are_not_items():
    guide = parse_guide(
        "# List\n## Apps\n- [App](https://github.com/a/app)\n\n```bash\ngit clone https://github.com/a/b.git\n```\n"
    )
    assert [item.url for item in guide.items()] == ["https://github.com/a/app"]


def test_a_description_after_a_stars_badge_is_the_description():
    item = only(
        "## AutoML\n* [AutoGluon](https://github.com/autogluon/autogluon) "
        "![](https://img.shields.io/github/stars/autogluon/autogluon.svg) - Automated feature selection.\n"
    )
    assert item.description == "Automated feature selection."


def test_a_link_inside_a_sentence_is_split_off_but_its_words_stay():
    autokeras, paper = items(
        "## AutoML\n* [Autokeras](https://github.com/keras-team/autokeras) - AutoML library for Keras "
        'based on ["Auto-Keras: Efficient Neural Architecture Search"](https://arxiv.org/abs/1806.10282).\n'
    )
    assert (
        autokeras.description
        == 'AutoML library for Keras based on "Auto-Keras: Efficient Neural Architecture Search".'
    )
    assert (paper.title, paper.url) == (
        "Auto-Keras: Efficient Neural Architecture Search",
        "https://arxiv.org/abs/1806.10282",
    )


def test_a_click_here_link_is_named_by_the_words_before_it():
    item = only(
        "## Announcements\n- ICLR 2024 paper summaries ([Click Here](https://areganti.notion.site/x))\n"
    )
    assert (item.title, item.note) == ("ICLR 2024 paper summaries", "")


def test_links_in_a_heading_are_items_named_by_their_words_or_the_heading():
    guide = parse_guide(
        "# Guide\n## Courses\n#### [Link](https://areganti.notion.site/course) to the course website\n"
        "- [Week 1](https://x.io/week1)\n"
    )
    assert [(item.title, item.url) for item in guide.items()] == [
        ("Link to the course website", "https://areganti.notion.site/course"),
        ("Week 1", "https://x.io/week1"),
    ]


def test_a_link_whose_text_runs_over_two_lines_is_one_link():
    item = only(
        "# Guide\n## Weeks\nWeek 2: [Prompting and Prompt\nEngineering](https://x.io/week2)\n"
    )
    assert (item.title, item.url) == ("Prompting and Prompt Engineering", "https://x.io/week2")


def test_emoji_shortcodes_are_not_part_of_a_heading():
    guide = parse_guide(
        "# :star: :bookmark: awesome-guide\n## :mortar_board: Courses\n- [A](https://x.io/a)\n"
    )
    assert (guide.title, guide.sections[0].title) == ("awesome-guide", "Courses")


def test_plain_bullets_under_a_linked_paragraph_say_what_it_covers():
    (item,) = items(
        "# Guide\n## Weeks\nWeek 1: [Practical Introduction to LLMs](https://x.io/week1)\n\n"
        "- Applied LLM Foundations\n- Real World LLM Use Cases\n"
    )
    assert item.title == "Practical Introduction to LLMs"
    assert item.note.endswith("Applied LLM Foundations\nReal World LLM Use Cases")


def test_lowercase_tool_names_in_a_sentence_are_resources_of_their_own():
    bullet, *tools = items(
        "## Frameworks\n* **Agent frameworks**: use [LangGraph](https://www.langchain.com/langgraph) "
        "(workflows), or [smolagents](https://github.com/huggingface/smolagents) (lightweight).\n"
    )
    assert [(item.title, item.url) for item in tools] == [
        ("smolagents", "https://github.com/huggingface/smolagents")
    ]
    assert bullet.url == "https://www.langchain.com/langgraph"


def test_a_lowercase_word_of_the_items_own_title_stays_its_companion():
    item = only(
        "## Scaling\n- [ ] 5D parallelism [PP, SP, DP](https://docs.nvidia.com/p), "
        "[parallelism](https://themlsurgeon.substack.com/p/dp) concept for LLM scaling.\n"
    )
    assert [link.label for link in item.links[1:]] == ["parallelism"]


def test_emoji_shortcodes_are_not_part_of_an_items_title():
    item = only(
        "# MLOps Core\n1. [:rocket: Putting ML in Production](https://madewithml.com/courses/x/)\n"
    )
    assert item.title == "Putting ML in Production"


def test_an_html_data_table_keeps_its_columns():
    attention, bert = items(
        "# List\n## Papers\n<table>\n<tr><th>Paper</th><th>Notes</th></tr>\n"
        '<tr><td><a href="https://arxiv.org/abs/1">Attention Is All You Need</a></td>'
        "<td>The transformer.</td></tr>\n"
        '<tr><td><a href="https://arxiv.org/abs/2">BERT</a> <a href="https://github.com/g/bert">code</a>'
        "</td><td>Pretraining.</td></tr>\n</table>\n"
    )
    assert (attention.title, attention.description) == (
        "Attention Is All You Need",
        "The transformer.",
    )
    assert (bert.title, bert.description, [link.label for link in bert.links[1:]]) == (
        "BERT",
        "Pretraining.",
        ["code"],
    )


def test_an_html_layout_table_still_gives_one_item_per_link():
    titles = [
        item.title
        for item in items(
            '# List\n## Sponsors\n<table><tr><td><a href="https://a.io">Alpha</a></td>'
            '<td><a href="https://b.io">Beta</a></td></tr></table>\n'
        )
    ]
    assert titles == ["Alpha", "Beta"]


def test_a_summary_that_names_its_papers_is_a_heading():
    guide = parse_guide(
        "# List\n## Papers\n<details>\n<summary><b>More papers</b></summary>\n\n"
        "- [GPT-2](https://x.io/gpt2)\n\n</details>\n"
    )
    assert [section.title for section in guide.walk()] == ["Papers", "More papers"]


def test_companion_links_in_brackets_or_after_pipes_leave_no_marks_in_the_note():
    bracketed = only(
        "## P\n- **Attention Is All You Need** [[paper](https://arxiv.org/abs/1706.03762)] "
        "[[code](https://github.com/t/t)]\n"
    )
    assert (bracketed.title, bracketed.note) == ("Attention Is All You Need", "")
    piped = only(
        "## P\n- Attention Is All You Need: [Paper](https://arxiv.org/abs/1706.03762) | "
        "[Code](https://github.com/t/t) | [Blog](https://blog.x/t)\n"
    )
    assert (piped.note, [link.label for link in piped.links[1:]]) == ("", ["Code", "Blog"])


def test_a_link_labelled_by_a_symbol_is_labelled_by_its_address():
    item = only(
        "## P\n| Title | Paper | Code |\n|---|---|---|\n"
        "| Attention | [📄](https://arxiv.org/abs/1706.03762) | [💻](https://github.com/t/t) |\n"
    )
    assert (item.title, [link.label for link in item.links[1:]]) == ("Attention", ["GitHub"])


def test_a_companion_labelled_link_is_named_by_the_words_after_it():
    item = only(
        "## P\n- [📄 Paper](https://arxiv.org/abs/1706.03762) Attention Is All You Need, Vaswani et al.\n"
    )
    assert (item.title, item.note) == ("Attention Is All You Need", "Vaswani et al.")


def test_italic_authors_after_a_bold_link_with_a_code_link():
    item = only(
        "## P\n1. **[Attention Is All You Need](https://arxiv.org/abs/1706.03762)** *Ashish Vaswani, "
        "Noam Shazeer.* NeurIPS 2017. [[code](https://github.com/t/t)]\n"
    )
    assert (item.author, item.note) == ("Ashish Vaswani, Noam Shazeer", "NeurIPS 2017.")
    assert [link.label for link in item.links[1:]] == ["code"]


def test_plain_lines_under_a_linked_line_in_one_paragraph_describe_it():
    first, second = items(
        "## Papers\n[A Primer on Neural Networks](https://x.io/nnlp.pdf)\n"
        "Yoav Goldberg. October 2015.\n"
        "[Neural Turing Machines](https://arxiv.org/pdf/1410.5401v2.pdf)\nGraves et al. 2014.\n"
    )
    assert (first.title, first.description) == (
        "A Primer on Neural Networks",
        "Yoav Goldberg. October 2015.",
    )
    assert (second.title, second.description) == ("Neural Turing Machines", "Graves et al. 2014.")


def test_a_plain_line_after_a_sentence_of_links_describes_nothing():
    listed = items(
        "## P\n[Memory Networks](https://x.io/m)\nImplemented in [MemNN](https://x.io/n). See it.\n"
        "Attempts to solve reasoning.\n"
    )
    assert all("Attempts" not in item.description for item in listed)


def test_a_link_broken_before_its_address_keeps_its_title():
    item = only(
        "## Word vectors\n[Distributed Representations of Words]\n(https://papers.nips.cc/5021.pdf)\n"
    )
    assert (item.title, item.url) == (
        "Distributed Representations of Words",
        "https://papers.nips.cc/5021.pdf",
    )


def test_a_bare_address_in_parentheses_is_not_titled_by_its_punctuation():
    item = only("## P\nSee below.\n\n(https://x.io/paper-on-words.pdf)\n")
    assert item.title not in {")", "(", ""} and any(c.isalnum() for c in item.title)


def test_a_possessive_link_in_the_description_is_read_with_its_name():
    listed = items(
        "## Audio\n- [Unclassified list](http://x.io/links.html) - [Cory McKay](http://x.io/cm)'s "
        "list of various links\n"
    )
    assert listed[0].description == "Cory McKay's list of various links"
    assert [item.title for item in listed[1:]] == ["Cory McKay"]


def test_a_reference_before_its_pdf_link_is_titled_by_its_quoted_title():
    first, second = items(
        "## 1.1 Survey\n\n"
        '**[1]** LeCun, Yann, Yoshua Bengio, and Geoffrey Hinton. "**Deep learning**." Nature '
        "521.7553 (2015): 436-444. [[pdf]](http://www.cs.toronto.edu/~hinton/NatureDeepReview.pdf) "
        "**(Three Giants' Survey)** :star::star::star:\n\n"
        '**[5]** Szegedy, Christian, et al. "Going deeper with convolutions." CVPR. 2015. '
        "[[pdf]](https://arxiv.org/pdf/1409.4842.pdf)\n"
    )
    assert (first.title, first.author) == ("Deep learning", "LeCun et al.")
    assert [link.label for link in first.links] == ["[pdf]"]
    assert (second.title, second.author) == (
        "Going deeper with convolutions",
        "Szegedy, Christian, et al.",
    )


def test_a_by_author_keeps_no_full_stop_of_the_sentence():
    book = only("## Books\n- [Pattern Recognition](https://x.io/prml) by Bishop.\n")
    course = only("## Courses\n- [Deep RL](https://x.io/rl) by Sergey Levine.\n")
    assert (book.author, course.author) == ("Bishop", "Sergey Levine")


def test_a_pdf_here_link_is_the_companion_of_the_item():
    item = only(
        "## Programming\n* [AI Algorithms in Prolog, Lisp and Java](http://x.io/book) - "
        "[PDF here](http://x.io/luger.pdf)\n"
    )
    assert [link.label for link in item.links] == [
        "AI Algorithms in Prolog, Lisp and Java",
        "PDF here",
    ]
    assert (item.description, item.note) == ("", "")  # the label is the link's, not a note


def test_a_moved_notice_is_no_title_and_an_alert_is_plain_prose():
    guide = parse_guide(
        "# ⚠️ This project has moved\n\nSee the new home.\n\n# Awesome Things\n\n"
        "> [!NOTE]\n> Updated **weekly**.\n\n## Papers\n- [A](https://x.io/a)\n"
    )
    assert guide.title == "Awesome Things"
    assert "Updated weekly." in guide.description
    assert "[!" not in guide.description


def test_words_around_a_link_are_its_year_author_or_note_not_its_title():
    guide = parse_guide(
        "## Talks\n"
        "- [How Chips Are Made](https://x.io/a) (by Asianometry)\n"
        "- [The Annotated Transformer](https://x.io/b) (Oct 04, 2017)\n"
        "- [Dive into Deep Learning](https://x.io/c) (Section 3)\n"
        "- Edge deployment: In constrained environments, small models run on phones; see [here](https://x.io/d).\n"
        "- Join us: [WeChat QR code](https://x.io/qr.jpg)\n"
    )
    items = list(guide.items())
    assert [(i.title, i.author, i.year) for i in items] == [
        ("How Chips Are Made", "Asianometry", None),
        ("The Annotated Transformer", "", 2017),
        ("Dive into Deep Learning", "", None),
        ("Edge deployment", "", None),
    ]
    assert items[2].note == "Section 3"
    assert items[3].description.startswith("In constrained environments")
    assert guide.skipped == {"images and image links": 1}


def test_a_by_author_before_a_colon_or_a_sentence_is_the_author_and_the_rest_describes_it():
    found = items(
        "## Reading\n"
        "* [nanoGPT](https://youtube.com/watch?v=k) by Andrej Karpathy: A 2h-long video.\n"
        "* [FineWeb](https://hf.co/spaces/fw) by Penedo et al.: Article on a dataset.\n"
        "* [NLP](https://youtube.com/playlist?list=p) by Dan Jurafsky & Chris Manning. "
        "Previously on coursera.\n"
        "* [Agents](https://x.io/agents) by Victor Dibia [Book]\n"
        "* [Concepts](https://x.io/concepts) by DataCamp (Daniel Tedesco, Data Lead @ Google)\n"
        "* [Scaling](https://x.io/scaling) by Jax (Google)\n"
        "* [Quantization guide](https://x.io/q.pdf) by Qualcomm (cover PTQ, QAT)\n"
        "* [BF16](https://x.io/bf16.pdf) by RedHat and [FP32](https://x.io/fp32.pdf)\n"
        "* [Tips](https://x.io/tips) by far the best tips on the web.\n"
    )
    assert [(i.title, i.author, i.description) for i in found] == [
        ("nanoGPT", "Andrej Karpathy", "A 2h-long video."),
        ("FineWeb", "Penedo et al.", "Article on a dataset."),
        ("NLP", "Dan Jurafsky & Chris Manning", "Previously on coursera."),
        ("Agents", "Victor Dibia", "Book"),
        ("Concepts", "DataCamp", "Daniel Tedesco, Data Lead @ Google"),
        ("Scaling", "Jax (Google)", ""),
        ("Quantization guide", "Qualcomm", "cover PTQ, QAT"),
        ("BF16", "RedHat", ""),
        ("FP32", "", ""),
        ("Tips", "", ""),
    ]
    assert found[-1].note == "by far the best tips on the web."  # "by far" names no one
