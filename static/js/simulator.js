/* The phone simulator (templates/play/simulator.html, DEBUG only): a sent message clears its box,
   and each phone's list keeps its latest message in view after htmx swaps it in. */
(function () {
  "use strict";

  function toBottom(list) {
    if (list && list.classList.contains("sim-messages")) {
      list.scrollTop = list.scrollHeight;
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".sim-messages").forEach(toBottom);
    var pick = document.getElementById("sim-game");
    if (pick) {
      // Choosing a game shows it at once; the button stays for pages without JavaScript.
      pick.addEventListener("change", function () {
        if (pick.value) pick.form.submit();
      });
    }
  });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (event.detail.successful && form.matches && form.matches("form.sim-send")) {
      form.reset();
      var box = form.querySelector("input[name=text]");
      if (box) box.focus();
    }
  });

  document.body.addEventListener("htmx:afterSwap", function (event) {
    toBottom(event.detail.target);
    var phone = event.detail.target.closest ? event.detail.target.closest(".sim-phone") : null;
    if (phone) toBottom(phone.querySelector(".sim-messages"));
  });
})();
