"""The catalog's query-string forms: a bad filter value is reported in one sentence, everywhere."""

from apps.catalog.forms import GuideFilterForm, SearchForm, ignored_filter_message


def test_the_ignored_filter_sentence_names_the_filter_and_a_cut_value():
    assert ignored_filter_message("Status", "x" * 50) == (
        f"Ignored the status filter “{'x' * 40}”: it is not one of the choices."
    )


def test_list_and_search_forms_say_it_in_the_same_words():
    guide = GuideFilterForm({"kind": "nope"})
    search = SearchForm({"kind": "nope"})
    expected = [ignored_filter_message("Kind", "nope")]
    assert guide.ignored_messages() == expected == search.ignored_messages()
