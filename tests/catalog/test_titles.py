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
