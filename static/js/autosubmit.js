// A <select data-autosubmit> sends its form as soon as a value is chosen (the month picker of
// the rating lists). A file, not an onchange attribute: the Content-Security-Policy allows
// scripts from the site's own files only.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () {
      select.form.submit();
    });
  });
});
