// The public pages' small helpers. No inline script anywhere (the Content-Security-Policy allows
// scripts from 'self' only): each page marks what it wants with data- attributes.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // The menu on a phone: folded behind its button (the CSS shows the button on narrow screens
  // only), so that every link is reachable without the header scrolling sideways.
  var menuButton = document.getElementById("menu-button");
  var menu = document.getElementById("site-nav");
  if (menuButton && menu) {
    menu.classList.add("folded");
    menuButton.addEventListener("click", function () {
      var open = menu.classList.toggle("folded") === false;
      menuButton.setAttribute("aria-expanded", open ? "true" : "false");
    });
  }

  // A select that applies itself when changed (the month of a rating list); without JavaScript
  // its form keeps a visible button.
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () {
      if (select.form.requestSubmit) { select.form.requestSubmit(); } else { select.form.submit(); }
    });
  });

  // "Find a player": hides the rows of the marked tables whose name does not contain the text.
  function fold(text) {
    return text.toLocaleLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/ё/g, "е");
  }
  document.querySelectorAll("input[data-find-rows]").forEach(function (input) {
    var rows = document.querySelectorAll(input.getAttribute("data-find-rows"));
    var box = input.closest("[hidden]");
    if (box) { box.hidden = false; }
    input.addEventListener("input", function () {
      var wanted = fold(input.value.trim());
      rows.forEach(function (row) {
        var name = row.querySelector("[data-name]");
        var match = !wanted || fold(name ? name.textContent : row.textContent).indexOf(wanted) !== -1;
        row.hidden = !match;
      });
    });
  });
}());
