// The mobile-chess game page (templates/play/game*.html). No inline script anywhere (the
// Content-Security-Policy allows scripts from 'self' only): the page marks what it wants with
// data- attributes, and htmx (static/js/htmx.min.js) does the polling and the replay.
(function () {
  "use strict";

  // --- clocks: the player on move's clock counts live -------------------------------------
  // The server writes both faces (time used, time left to the next control) as seconds in
  // data-used / data-left; the running one counts from the moment its element appeared, so a
  // poll that brings a fresh fragment restarts it from the server's figures.
  function duration(seconds) {
    var sign = seconds < 0 ? "-" : "";
    seconds = Math.abs(seconds);
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    return sign + h + ":" + (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".clock[data-running]").forEach(function (clock) {
      if (!clock.dataset.base) { clock.dataset.base = String(now); }
      var elapsed = Math.floor((now - Number(clock.dataset.base)) / 1000);
      var used = Number(clock.dataset.used) + elapsed;
      var left = Number(clock.dataset.left) - elapsed;
      var leftFace = clock.querySelector(".clock-left");
      var usedFace = clock.querySelector(".clock-used-value");
      if (leftFace) {
        leftFace.textContent = duration(left);
        leftFace.classList.toggle("flag", left < 0);
      }
      if (usedFace) { usedFace.textContent = duration(used); }
    });
  }
  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("htmx:afterSettle", tick);

  // --- tap to move: a piece, then its square, fills the move box ("e2-e4") ----------------
  var selected = null;

  function pieces(fen) {
    var map = {};
    fen.split("/").forEach(function (row, index) {
      var rank = 8 - index, file = 0;
      for (var i = 0; i < row.length; i += 1) {
        var c = row.charAt(i);
        if (/[1-8]/.test(c)) { file += Number(c); } else {
          map["abcdefgh".charAt(file) + rank] = c;
          file += 1;
        }
      }
    });
    return map;
  }

  function squareAt(x, y) {
    var hits = document.elementsFromPoint(x, y);
    for (var i = 0; i < hits.length; i += 1) {
      var classes = hits[i].classList;
      if (classes && classes.contains("square")) {
        for (var j = 0; j < classes.length; j += 1) {
          if (/^[a-h][1-8]$/.test(classes[j])) { return { name: classes[j], rect: hits[i] }; }
        }
      }
    }
    return null;
  }

  function myColor() {
    var field = document.querySelector("#move-form [name=color]");
    return field ? field.value : "";
  }

  function clearSelection() {
    document.querySelectorAll(".board-svg .square.selected").forEach(function (rect) { rect.classList.remove("selected"); });
    selected = null;
  }

  document.addEventListener("click", function (event) {
    var input = document.getElementById("move-text");
    var panel = event.target.closest && event.target.closest(".board-panel[data-latest]");
    if (!input || !panel || !event.target.closest(".board-svg")) { return; }
    var square = squareAt(event.clientX, event.clientY);
    if (!square) { return; }
    var board = pieces(panel.dataset.fen || "");
    var piece = board[square.name];
    var white = myColor() === "white";
    var mine = piece && (piece === piece.toUpperCase()) === white;
    if (mine) {
      clearSelection();
      selected = square.name;
      square.rect.classList.add("selected");
      return;
    }
    if (!selected) { return; }
    var moving = board[selected] || "";
    var text = selected + "-" + square.name;
    if (moving.toLowerCase() === "p" && (square.name.charAt(1) === "8" || square.name.charAt(1) === "1")) {
      text += "=Q";
    }
    input.value = text;
    clearSelection();
    square.rect.classList.add("target");
    var send = document.getElementById("move-send");
    if (send) { send.focus({ preventScroll: true }); }
  });

  // A replayed or polled board drops the selection.
  document.addEventListener("htmx:afterSwap", function () { selected = null; });

  // --- replay with the arrow keys -----------------------------------------------------------
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var which = { ArrowLeft: ".replay-prev", ArrowRight: ".replay-next", Home: ".replay-first", End: ".replay-last" }[event.key];
    var link = which && document.querySelector("#board-panel " + which + ":not([aria-disabled])");
    if (link) {
      event.preventDefault();
      link.click();
    }
  });

  // --- one tap, one message: a second tap while the page posts would send the move twice ---
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[action*='/play/games/']")) { return; }
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
  });
}());
