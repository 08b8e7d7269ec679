"""Post an admin change form back as the browser would, with a few fields changed."""

from django.forms import BooleanField, ModelMultipleChoiceField


def _form_values(form):
    data = {}
    for name, field in form.fields.items():
        bound = form[name]
        value = bound.value()
        if isinstance(field, BooleanField):
            if value:
                data[bound.html_name] = "on"
            continue
        if isinstance(field, ModelMultipleChoiceField):
            data[bound.html_name] = [str(v) for v in (value or [])]
            continue
        data[bound.html_name] = "" if value is None else value
    return data


def change_form_data(response, **changes):
    """The POST data of the admin change page in ``response``; ``changes`` override by html name."""
    context = response.context
    data = _form_values(context["adminform"].form)
    for inline in context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        data.update(
            {management[name].html_name: management[name].value() for name in management.fields}
        )
        for form in formset.forms:
            data.update(_form_values(form))
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}
