"""One notion of "the same title", for the importer, the link checker and a learner's import."""

from apps.catalog.importer.titles import same_title, title_key


def test_titles_differing_only_in_case_and_spacing_are_the_same():
    assert same_title("Attention Is  All You Need", " attention is all you need ")
    assert title_key("Attention\tIs All") == "attention is all"


def test_titles_differing_in_words_or_punctuation_are_not():
    assert not same_title("Attention Is All You Need", "Attention Is All You Need!")
    assert not same_title("Attention", "")


def test_an_import_offers_a_better_title_but_not_the_same_one_respelled():
    from apps.catalog.importer.builder import offers_better_title
    from apps.catalog.importer.urls import title_from_url
    from apps.catalog.models import Resource

    url = "https://www.youtube.com/watch?v=abc123"
    resource = Resource(url=url, title=title_from_url(url))
    assert offers_better_title(resource, "Attention, visually explained")
    assert not offers_better_title(resource, f"  {resource.title.upper()} ")


def test_a_title_is_cleaned_of_decoration_once_for_lists_and_pages():
    from apps.catalog.importer.titles import clean_title

    assert clean_title("🥱 LazyMergekit") == "LazyMergekit"
    assert clean_title('"Auto-Keras: Efficient Search"') == "Auto-Keras: Efficient Search"
    assert clean_title("Efficient Transformers: A Survey.") == "Efficient Transformers: A Survey"
    assert clean_title("<b>Attention</b>  Is All") == "Attention Is All"
    assert clean_title(":star: - Attention") == "Attention"
    assert clean_title("Attention Is All You Need") == "Attention Is All You Need"
    assert clean_title("🚀") == "🚀"


def test_decorations_come_off_titles_and_headings():
    from apps.catalog.importer.titles import clean_heading, clean_title, title_and_org

    assert clean_title("🔥🔥🔥[YOCO] You Only Cache Once(@Microsoft)") == "You Only Cache Once"
    assert clean_title("[DeepSeek-V2]") == "DeepSeek-V2"
    assert title_and_org("Star Attention: Long Sequences(@NVIDIA)") == (
        "Star Attention: Long Sequences",
        "NVIDIA",
    )
    assert clean_heading("📖Trending LLM/VLM Topics ([©️back👆🏻](#paperlist))") == (
        "Trending LLM/VLM Topics"
    )
    assert clean_heading("©️Citations") == "Citations"
    assert clean_heading("Quantization [🔝](#contents)") == "Quantization"
    # an arrow is no decoration: it is a reading path's
    assert clean_title("Prefill → Decode") == "Prefill → Decode"


def test_what_a_parenthesis_after_a_link_says():
    from apps.catalog.importer.titles import aside, date_year, is_moved_notice

    assert aside("Oct 04, 2017") == ("year", 2017)
    assert aside("by Asianometry") == ("author", "Asianometry")
    assert aside("Section 3") == ("where", "Section 3")
    assert aside("deepdive") == ("", "deepdive")
    assert [date_year(d) for d in ("2024.05", "2023-10", "March 2021", "v2.5")] == [
        2024, 2023, 2021, None
    ]  # fmt: skip
    assert is_moved_notice("⚠️ This project has moved to github.com/new/home")
    assert is_moved_notice("DEPRECATED")
    assert not is_moved_notice("Awesome LLM Inference")


def test_a_trailing_parenthesis_shaped_like_a_maker_becomes_the_author():
    from apps.catalog.importer.titles import title_and_org

    video = "https://www.youtube.com/playlist?list=PLZHQ"
    page = "https://example.org/page"
    assert title_and_org("Essence of linear algebra (3Blue1Brown)", video) == (
        "Essence of linear algebra",
        "3Blue1Brown",
    )
    assert title_and_org("Essence of calculus (3Blue1Brown)", page)[1] == "3Blue1Brown"
    assert title_and_org("Why transformers work (Computerphile)", video) == (
        "Why transformers work",
        "Computerphile",
    )
    assert title_and_org("Let's build GPT (Andrej Karpathy)", page) == (
        "Let's build GPT",
        "Andrej Karpathy",
    )
    assert title_and_org("Gemini report (Google DeepMind)", page)[1] == "Google DeepMind"
    assert title_and_org("Report(@DeepSeek-AI)", page) == ("Report", "DeepSeek-AI")


def test_a_trailing_parenthesis_that_says_what_it_is_stays_in_the_title():
    from apps.catalog.importer.titles import title_and_org

    video = "https://www.youtube.com/watch?v=abc"
    page = "https://example.org/page"
    for title, url in [
        ("Retrieval-Augmented Generation (RAG)", page),
        ("Natural Language Toolkit (NLTK)", page),
        ("Intro to LLM (Large Language Models)", video),
        ("RAG (Retrieval-Augmented Generation)", page),
        ("Deep Learning (2nd edition)", page),
        ("Deep Residual Learning (ResNet)", page),
        ("Word embeddings (Word2Vec)", page),
        ("Image generation (Stable Diffusion)", page),
        ("Representation learning (Masked Autoencoders)", page),
        ("Mecab (Japanese)", page),
        ("Structured outputs (Pydantic)", page),
        ("Transformers (Explained)", video),
        ("Large Language Models (In English)", video),
        ("Machine Learning for Mortals (Mere and Otherwise)", page),
        ("Starter agent (OpenAI, Claude)", page),
        ("Neural Networks (Part 2)", video),
        ("Chat models (GPT-4)", page),
        ("Pydantic (Pydantic)", page),
        ("Scaling (DeepMind)", page),  # one camel-case word: a model's or a maker's name alike
        ("Tokenizers (Sentencepiece)", page),  # one word after a page that is no video
    ]:
        assert title_and_org(title, url) == (title, ""), title


def test_a_link_whose_words_are_an_address_is_titled_from_the_address():
    from apps.catalog.importer import parse_guide

    guide = parse_guide(
        "# L\n\n## Code\n\n"
        "- https://github.com/owner/repo\n"
        "- [https://github.com/owner/second](https://github.com/owner/second)\n"
        "- [github.com/owner/third](https://github.com/owner/third)\n"
        "- [carpedm20/NTM-tensorflow](https://github.com/carpedm20/NTM-tensorflow)\n"
        "\n| Title | Code |\n|---|---|\n"
        "| [https://github.com/owner/fourth](https://github.com/owner/fourth) | x |\n"
    )
    assert [item.title for item in guide.items()] == [
        "owner/repo",
        "owner/second",
        "owner/third",
        "carpedm20/NTM-tensorflow",
        "owner/fourth",
    ]
