"""Tables (``importer/tables.py``): which column is which, a row's item, a section table's chapters."""

from pathlib import Path

from apps.catalog.importer import parse_guide
from apps.catalog.importer.tables import Table


def test_a_row_holding_links_is_one_item_its_other_links_companions():
    table = Table(
        [
            ["Paper", "Authors", "Summary", "Code"],
            ["[Attention](https://x.io/p)", "Vaswani", "Transformers.", "[code](https://x.io/c)"],
        ],
        [],
    )
    assert table.holds_links()
    (item,) = table.items(context="", skip=lambda reason: None)
    assert (item.title, item.author, item.description) == ("Attention", "Vaswani", "Transformers.")
    assert [(link.url, link.label) for link in item.links] == [
        ("https://x.io/p", "Attention"),
        ("https://x.io/c", "code"),
    ]


def test_a_badge_in_a_row_is_left_out_and_told_of():
    skipped = []
    table = Table(
        [
            ["Name", "Stars"],
            [
                "[Tool](https://x.io/t)",
                "[![stars](https://img.shields.io/github/stars/a/b)](https://github.com/a/b)",
            ],
        ],
        [],
    )
    (item,) = table.items(context="", skip=skipped.append)
    assert [link.url for link in item.links] == ["https://x.io/t"]
    assert skipped == ["badges"]


def test_a_section_table_without_links_is_read_as_chapters():
    table = Table(
        [["#", "Section", "Highlights"], ["01", "**GPU basics**", "SMs, warps"], ["02", "", "x"]],
        ["| # | Section | Highlights |", "| 01 | **GPU basics** | SMs, warps |", "| 02 | | x |"],
    )
    assert not table.holds_links() and table.is_section_table()
    (chapter,) = table.chapters()
    assert (chapter.title, chapter.number, chapter.highlights, chapter.raw) == (
        "GPU basics",
        "01",
        "SMs, warps",
        "| 01 | **GPU basics** | SMs, warps |",
    )


def test_a_table_of_words_without_a_section_column_is_neither():
    table = Table([["Term", "Meaning"], ["SM", "a streaming multiprocessor"]], [])
    assert not table.holds_links() and not table.is_section_table()


PAPER_HEADER = ["Date", "Title", "Paper", "Code", "Recom"]


def _rows(*rows):
    table = Table([PAPER_HEADER, *rows], [])
    return table.items(context="", skip=lambda reason: None)


def test_a_paper_row_is_the_paper_its_code_a_labelled_link_and_its_decorations_gone():
    (item,) = _rows(
        [
            "2024.05",
            "🔥🔥🔥[DeepSeek-V2] DeepSeek-V2: A Strong MoE Language Model(@DeepSeek-AI)",
            "[[pdf]](https://arxiv.org/pdf/2405.04434)",
            "[[DeepSeek-V2]](https://github.com/deepseek-ai/DeepSeek-V2) "
            "![](https://img.shields.io/github/stars/deepseek-ai/DeepSeek-V2.svg?style=social)",
            "⭐️⭐️",
        ]
    )
    assert (item.title, item.author, item.year) == (
        "DeepSeek-V2: A Strong MoE Language Model",
        "DeepSeek-AI",
        2024,
    )
    assert [(link.url, link.label) for link in item.links] == [
        ("https://arxiv.org/pdf/2405.04434", "pdf"),
        ("https://github.com/deepseek-ai/DeepSeek-V2", "Code"),
    ]


def test_papers_sharing_a_repository_stay_two_items():
    repo = "[[deepspeed]](https://github.com/microsoft/DeepSpeed)"
    items = _rows(
        [
            "2019.10",
            "[ZeRO] ZeRO: Memory Optimizations",
            "[[pdf]](https://arxiv.org/pdf/1)",
            repo,
            "",
        ],
        ["2023.10", "[Ulysses] DeepSpeed Ulysses", "[[pdf]](https://arxiv.org/pdf/2)", repo, ""],
    )
    assert [item.url for item in items] == ["https://arxiv.org/pdf/1", "https://arxiv.org/pdf/2"]
    assert [item.title for item in items] == ["ZeRO: Memory Optimizations", "DeepSpeed Ulysses"]


def test_a_row_without_a_paper_is_its_code():
    (item,) = _rows(["2025.02", "[**DualPipe**] DeepSeek DualPipe(@deepseek-ai)", "⚠️",
                     "[[DualPipe]](https://github.com/deepseek-ai/DualPipe)", ""])  # fmt: skip
    assert (item.url, item.title, item.author) == (
        "https://github.com/deepseek-ai/DualPipe",
        "DeepSeek DualPipe",
        "deepseek-ai",
    )


def test_a_cell_of_lines_gives_the_authors_and_each_labelled_link():
    table = Table(
        [
            ["Date", "Paper", "Venue", "Links"],
            [
                "2023-10",
                "⭐️ **AWQ: Activation-aware Weight Quantization** <br> Ji Lin, Jiaming Tang, et al.",
                "MLSys 2024",
                "[[Paper]](https://arxiv.org/abs/2306.00978) <br> [[Code]](https://github.com/mit-han-lab/llm-awq)"
                " ![stars](https://img.shields.io/github/stars/mit-han-lab/llm-awq) <br> [[Docs]](https://hanlab.mit.edu/awq)",
            ],
        ],
        [],
    )
    (item,) = table.items(context="", skip=lambda reason: None)
    assert (item.title, item.author, item.year) == (
        "AWQ: Activation-aware Weight Quantization",
        "Ji Lin, Jiaming Tang, et al.",
        2023,
    )
    assert [link.label for link in item.links] == ["Paper", "Code", "Docs"]


def test_a_title_linked_to_its_code_is_still_keyed_on_the_paper():
    table = Table(
        [
            ["Name", "Paper", "Code"],
            ["[vLLM](https://github.com/vllm-project/vllm)", "[paper](https://arxiv.org/abs/2309.06180)", ""],
        ],
        [],
    )  # fmt: skip
    (item,) = table.items(context="", skip=lambda reason: None)
    assert item.title == "vLLM"
    assert [(link.url, link.label) for link in item.links] == [
        ("https://arxiv.org/abs/2309.06180", "paper"),
        ("https://github.com/vllm-project/vllm", "Code"),
    ]


def test_a_title_and_authors_column_gives_the_paper_and_its_authors_past_a_badge_line():
    guide = parse_guide(
        "# Efficient\n\n## Pruning\n"
        "| Title & Authors | Introduction | Links |\n|:--|  :----: | :---:|\n"
        "|[![Star](https://img.shields.io/github/stars/a/slope.svg?style=social)](https://github.com/a/slope)"
        "<br>[SLoPe: Double-Pruned Sparse](https://arxiv.org/abs/2405.16325) <br> Mohammad Mozaffari, "
        'Amir Yazdanbakhsh, Zhao Zhang, Maryam Mehri Dehnavi |<img src="https://x.io/f.png"> '
        "|[Github](https://github.com/a/slope) <br> [Paper](https://arxiv.org/abs/2405.16325)| [//]: #05/29\n"
        "|[VTrans: Accelerating Compression](https://arxiv.org/abs/2406.05276) <br> Oshin Dutta, "
        "Ritvik Gupta |x|[Paper](https://arxiv.org/abs/2406.05276)|\n"
    )
    slope, vtrans = guide.items()
    assert (slope.title, slope.url, slope.author) == (
        "SLoPe: Double-Pruned Sparse",
        "https://arxiv.org/abs/2405.16325",
        "Mohammad Mozaffari et al.",
    )
    assert ("Github", "https://github.com/a/slope") in [
        (link.label, link.url) for link in slope.links
    ]
    assert (vtrans.title, vtrans.author) == (
        "VTrans: Accelerating Compression",
        "Oshin Dutta, Ritvik Gupta",
    )


def test_a_bullet_opening_with_a_date_is_the_lists_news_not_a_resource():
    from apps.catalog.importer.titles import date_year

    text = (Path(__file__).parent / "reallists" / "horseee-awesome-efficient-llm.md").read_text()
    assert "* May 29, 2023: We've had this awesome list" in text
    titles = [item.title for item in parse_guide(text).items()]
    assert (
        titles[0] == "LLM and GNN are Complementary: Distilling LLM for Multimodal Graph Learning"
    )
    assert not [title for title in titles if date_year(title) is not None]
