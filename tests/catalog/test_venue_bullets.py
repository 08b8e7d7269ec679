"""Bold-titled entries with a venue line (``**Title** <br> NeurIPS 2025 Highlight · [📖 Paper](…)
[🤗 Dataset](…)``), as benchmark and paper lists write them: one resource per title, keyed on
its paper link, the other links its labelled extras; never a section, never titled by the venue."""

import pytest

from apps.catalog.importer import parse_guide

PAPER = "https://arxiv.org/abs/2310.02255"
DATASET = "https://huggingface.co/datasets/AI4Math/MathVista"
BOARD = "https://mathvista.github.io/#leaderboard"
LINKS = f"[📖 Paper]({PAPER}) [🤗 Dataset]({DATASET}) [🏆 Leaderboard]({BOARD})"
TITLE = "MathVista: Evaluating Mathematical Reasoning in Visual Contexts"

SHAPES = {
    "bullet, venue after <br>": f"- **{TITLE}** <br> NeurIPS 2025 Highlight · {LINKS}\n",
    "bullet, venue on the next line": f"- **{TITLE}**  \n  NeurIPS 2025 Highlight · {LINKS}\n",
    "bullet, <br/> and separators": f"* **{TITLE}**<br/>NeurIPS 2025 Highlight · {LINKS.replace(') [', ') · [')}\n",
    "paragraph, <br> at the end of the title line": f"**{TITLE}** <br>\nNeurIPS 2025 Highlight · {LINKS}\n",
    "paragraph, hard break": f"**{TITLE}**  \nNeurIPS 2025 Highlight · {LINKS}\n",
    "bracketed links": (
        f"- **{TITLE}** <br> (NeurIPS 2025 Highlight) "
        + " ".join(f"[{link}]" for link in LINKS.replace(") [", ")\n[").split("\n"))
        + "\n"
    ),
    "HTML paragraph": (
        f"<p><b>{TITLE}</b><br>NeurIPS 2025 Highlight · <a href='{PAPER}'>📖 Paper</a> "
        f"<a href='{DATASET}'>🤗 Dataset</a> <a href='{BOARD}'>🏆 Leaderboard</a></p>\n"
    ),
}


@pytest.mark.parametrize("body", SHAPES.values(), ids=SHAPES.keys())
def test_a_bold_title_with_a_venue_line_is_one_paper_keyed_on_its_paper_link(body):
    guide = parse_guide(f"# Benchmarks\n\n## Multimodal reasoning\n\n{body}")
    assert [section.title for section in guide.walk()] == ["Multimodal reasoning"]
    (item,) = guide.items()
    assert item.title == TITLE
    assert item.url == PAPER
    assert [(link.label.split()[-1], link.url) for link in item.links[1:]] == [
        ("Dataset", DATASET),
        ("Leaderboard", BOARD),
    ]
    assert item.note == "NeurIPS 2025 Highlight"


def test_several_venue_entries_in_a_row_stay_apart_and_a_blog_bullet_is_its_own_item():
    guide = parse_guide(
        "# Benchmarks\n\n## Agents\n"
        "- **SWE-bench Verified** <br> ICLR 2024 Oral · [📖 Paper](https://arxiv.org/abs/2310.06770)"
        " [💻 Code](https://github.com/princeton-nlp/SWE-bench)\n"
        "- [Blog](https://openai.com/index/introducing-swe-bench-verified/)\n"
        "- **AgentBench: Evaluating LLMs as Agents**  \n"
        "  COLM 2024 · [📖 Paper](https://arxiv.org/abs/2308.03688)"
        " [💻 Code](https://github.com/THUDM/AgentBench)\n"
    )
    rows = [(item.title, item.url, len(item.links)) for item in guide.items()]
    assert rows == [
        ("SWE-bench Verified", "https://arxiv.org/abs/2310.06770", 2),
        (
            "Introducing swe bench verified",
            "https://openai.com/index/introducing-swe-bench-verified/",
            1,
        ),
        ("AgentBench: Evaluating LLMs as Agents", "https://arxiv.org/abs/2308.03688", 2),
    ]


def test_a_companion_bullet_nested_under_its_item_stays_its_extra_link():
    guide = parse_guide(
        "# Tools\n\n## Serving\n- [vLLM](https://github.com/vllm-project/vllm) - Fast serving.\n"
        "  - [Docs](https://docs.vllm.ai/)\n"
    )
    (item,) = guide.items()
    assert [(link.label, link.url) for link in item.links[1:]] == [
        ("Docs", "https://docs.vllm.ai/")
    ]


def test_a_short_title_line_over_prose_with_links_is_not_taken_for_a_venue_title():
    guide = parse_guide(
        "# Notes\n\n## Reading\n**Background**\n"
        "Start with [The Illustrated Transformer](https://jalammar.github.io/illustrated-transformer/)"
        " and then read the paper.\n"
    )
    titles = [item.title for item in guide.items()]
    assert titles == ["The Illustrated Transformer"]


def test_a_title_linking_its_project_page_over_a_venue_line_is_keyed_on_its_paper():
    (item,) = parse_guide(
        "# Benchmarks\n## Math\n- **[MathVerse](https://mathverse-cuhk.github.io/)** <br> ECCV 2024 · "
        "[📖 Paper](https://arxiv.org/abs/2403.14624) [🤗 Dataset](https://huggingface.co/datasets/AI4Math/MathVerse)\n"
    ).items()
    assert (item.title, item.url, item.note) == (
        "MathVerse",
        "https://arxiv.org/abs/2403.14624",
        "ECCV 2024",
    )
    assert [(link.label, link.url) for link in item.links[1:]] == [
        ("Project page", "https://mathverse-cuhk.github.io/"),
        ("🤗 Dataset", "https://huggingface.co/datasets/AI4Math/MathVerse"),
    ]


def test_a_tool_described_after_its_link_stays_keyed_on_its_own_page():
    (item,) = parse_guide(
        "# Serving\n## Engines\n- [vLLM](https://github.com/vllm-project/vllm) - Fast serving, 2023. "
        "[paper](https://arxiv.org/abs/2309.06180)\n"
    ).items()
    assert item.url == "https://github.com/vllm-project/vllm"
