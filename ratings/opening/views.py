"""The staff page of the opening list: upload, preview, confirm."""

from __future__ import annotations

import base64
import binascii

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from ratings.opening import services
from ratings.opening.columns import FIELDS

MAX_BYTES = 20 * 1024 * 1024


class ListForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("The list (CSV or xlsx)"), required=False)
    effective = forms.DateField(
        label=gettext_lazy("The state on (YYYY-MM-DD)"),
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
    )
    mapping = forms.CharField(
        label=gettext_lazy("Columns with unknown headings (one a line: heading=field)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=format_lazy(gettext_lazy("Fields: {fields}, or ignore."), fields=", ".join(FIELDS)),
    )
    data = forms.CharField(required=False, widget=forms.HiddenInput)
    name = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_mapping(self):
        mapping = {}
        for line in self.cleaned_data["mapping"].splitlines():
            if not line.strip():
                continue
            heading, sep, target = line.partition("=")
            if not sep or (target.strip() not in FIELDS and target.strip() != "ignore"):
                message = _("Write heading=field, the field one of those listed: %(line)s")
                raise forms.ValidationError(message % {"line": line})
            mapping[heading.strip()] = target.strip()
        return mapping

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(_("The file is over 20 MB."))
            data["bytes"], data["name"] = upload.read(), upload.name
        elif data.get("data"):
            try:
                data["bytes"] = base64.b64decode(data["data"], validate=True)
            except (binascii.Error, ValueError):
                raise forms.ValidationError(_("Choose the file again.")) from None
        else:
            raise forms.ValidationError(_("Choose the file of the list."))
        return data


@permission_required("ratings.add_openinglist", raise_exception=True)
@require_http_methods(["GET", "POST"])
def opening_list(request):
    form = ListForm(request.POST or None, request.FILES or None, initial={"effective": timezone.localdate()})
    preview = None
    if request.method == "POST" and form.is_valid():
        data, name = form.cleaned_data["bytes"], form.cleaned_data["name"] or "list.csv"
        effective, mapping = form.cleaned_data["effective"], form.cleaned_data["mapping"]
        try:
            if request.POST.get("confirm") and not request.FILES:
                services.list_apply(file_name=name, data=data, effective=effective, actor=request.user, mapping=mapping)
                messages.success(request, _("The opening list is imported: the ratings start from it on %(date)s.")
                                 % {"date": effective.isoformat()})  # fmt: skip
                return redirect("opening:list")
            preview = services.list_preview(file_name=name, data=data, effective=effective, mapping=mapping)
        except services.ListRefused as refused:
            for message in refused.messages:
                form.add_error(None, message)
        else:
            form = ListForm(
                initial={
                    "effective": effective,
                    "mapping": "\n".join(f"{h}={f}" for h, f in mapping.items()),
                    "data": base64.b64encode(data).decode(),
                    "name": name,
                }
            )
    context = {"form": form, "preview": preview, "title": _("The opening list")}
    return render(request, "staff/opening_list.html", context, status=400 if form.errors else 200)
