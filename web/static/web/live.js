/* Countdowns that follow the server's clock, for the clock screen and the tables.
 *
 * An element with data-deadline (epoch milliseconds, the server's deadline) shows the time
 * left and is redrawn several times a second; data-paused-ms shows a frozen time left.
 * The offset between this browser's clock and the server's is measured on every poll
 * (X-Server-Now, taken at the midpoint of the request), so a wrong or drifting local clock
 * does not matter, and a pause, resume or time change shows as soon as the region is
 * replaced. No inline script: the Content-Security-Policy allows only our own files.
 */
(function () {
  "use strict";

  var offsetMs = 0; // server time minus local time
  var meta = document.querySelector('meta[name="server-now"]');
  if (meta && meta.content) {
    // The page was rendered just before its first byte arrived: compare with that moment,
    // not with now (a slow page load would otherwise put the clock behind until the
    // first poll).
    var nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    var received = nav && nav.responseStart ? performance.timeOrigin + nav.responseStart : Date.now();
    offsetMs = Number(meta.content) - received;
  }

  function serverNow() {
    return Date.now() + offsetMs;
  }

  // The digits of the page's language (web.numbers): Western, or Arabic-Indic if set.
  var arabicIndic = document.documentElement.dataset.digits === "arabic-indic";
  function withDigits(text) {
    return arabicIndic
      ? text.replace(/[0-9]/g, function (d) { return String.fromCharCode(0x0660 + Number(d)); })
      : text;
  }

  function format(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var secs = seconds % 60;
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    var text = mm + ":" + String(secs).padStart(2, "0");
    return withDigits(hours ? hours + ":" + text : text);
  }

  function draw() {
    var now = serverNow();
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = Number(el.dataset.deadline) - now;
      var text = format(left);
      if (el.textContent !== text) {
        el.textContent = text;
      }
      el.classList.toggle("ending", left <= 10000);
    });
    document.querySelectorAll("[data-paused-ms]").forEach(function (el) {
      var text = format(Number(el.dataset.pausedMs));
      if (el.textContent !== text) {
        el.textContent = text;
      }
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    event.detail.xhr.studSentAt = Date.now();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    var server = Number(xhr.getResponseHeader("X-Server-Now"));
    if (server && xhr.studSentAt) {
      offsetMs = server - (xhr.studSentAt + Date.now()) / 2;
    }
  });
  document.addEventListener("htmx:afterSwap", draw);

  // Each table cell learns its column's name (data-label), which a phone shows beside it
  // when the rows stack as cards (app.css).
  function labelCells() {
    document.querySelectorAll("main table").forEach(function (table) {
      var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
        return th.textContent.trim();
      });
      table.querySelectorAll("tbody tr").forEach(function (row) {
        Array.prototype.forEach.call(row.children, function (cell, i) {
          if (heads[i] && !cell.hasAttribute("data-label")) {
            cell.setAttribute("data-label", heads[i]);
          }
        });
      });
    });
  }
  document.addEventListener("htmx:afterSwap", labelCells);
  labelCells();

  // The table: when it becomes the player's turn, say so (the announcer outside the swapped
  // region) and put the focus on the first action; after an action replaced the region the
  // focus returns to the hand, not to the page's top. Focus the player put elsewhere stays.
  var yourTurn = false;
  function turnFocus() {
    var region = document.getElementById("table-live");
    if (!region) {
      return;
    }
    var buttons = region.querySelectorAll(".actions button");
    var lost = document.activeElement === document.body || document.activeElement === null;
    var announcer = document.getElementById("turn-announcer");
    if (buttons.length && !yourTurn) {
      var labels = Array.prototype.map.call(buttons, function (b) { return b.textContent.trim(); });
      if (announcer) {
        // The words in the page's language, from the page (no script holds any text).
        announcer.textContent = announcer.dataset.yourTurn + " " + labels.join(", ");
      }
      if (lost || region.contains(document.activeElement)) {
        // Not on Fold: Enter on the focused button must never throw a hand away.
        var safe = region.querySelector(".actions button:not(.danger)") || buttons[0];
        safe.focus();
      }
    } else if (lost) {
      var felt = region.querySelector(".felt");
      if (felt) {
        felt.focus({ preventScroll: true });
      }
    }
    if (!buttons.length && announcer) {
      announcer.textContent = "";
    }
    yourTurn = buttons.length > 0;
  }
  document.addEventListener("htmx:afterSwap", turnFocus);
  turnFocus();


  // Long lists on the clock screen (payouts, results) turn pages by themselves when their box
  // cannot hold every row: each page holds the rows that fit whole, so none is cut off.
  var PAGE_MS = 6000;
  var pageOf = {}; // list id -> page shown
  function paginate() {
    document.querySelectorAll("[data-pages]").forEach(function (box) {
      var list = box.querySelector("ol");
      var label = box.querySelector(".page-count");
      if (!list) {
        return;
      }
      var items = Array.prototype.slice.call(list.children);
      items.forEach(function (li) { li.hidden = false; });
      var bottom = list.getBoundingClientRect().top + list.clientHeight + 0.5;
      var fit = items.findIndex(function (li) { return li.getBoundingClientRect().bottom > bottom; });
      if (fit === -1 || list.clientHeight === 0) {
        list.dataset.pages = "1";
        if (label) { label.textContent = ""; }
        return;
      }
      var size = Math.max(1, fit);
      var pages = Math.ceil(items.length / size);
      var page = (pageOf[list.id] || 0) % pages;
      pageOf[list.id] = page;
      items.forEach(function (li, i) { li.hidden = Math.floor(i / size) !== page; });
      list.dataset.pages = String(pages);
      list.dataset.page = String(page + 1);
      if (label) { label.textContent = "(" + (page + 1) + "/" + pages + ")"; }
    });
  }
  function turnPages() {
    document.querySelectorAll("[data-pages] ol").forEach(function (list) {
      if (Number(list.dataset.pages || 1) > 1) {
        pageOf[list.id] = (pageOf[list.id] || 0) + 1;
      }
    });
    paginate();
  }
  if (document.querySelector("[data-pages]")) {
    document.addEventListener("htmx:afterSwap", paginate);
    window.addEventListener("resize", paginate);
    paginate();
    window.setInterval(turnPages, PAGE_MS);
  }

  // The clock screen's sound and flash: at each level change and one minute before it. The
  // sound starts only after a click on the switch (browsers allow audio only after one).
  var audio = null;
  var soundOn = false;
  var soundSwitch = document.getElementById("sound-switch");
  if (soundSwitch) {
    soundSwitch.addEventListener("click", function () {
      var Context = window.AudioContext || window.webkitAudioContext;
      if (!audio && Context) {
        audio = new Context();
      }
      soundOn = !soundOn;
      if (soundOn && audio) {
        audio.resume();
      }
      soundSwitch.setAttribute("aria-pressed", String(soundOn));
      soundSwitch.textContent = soundOn ? soundSwitch.dataset.on : soundSwitch.dataset.off;
    });
  }
  function tones(frequencies) {
    if (!audio || !soundOn) {
      return;
    }
    frequencies.forEach(function (frequency, i) {
      var start = audio.currentTime + i * 0.35;
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.4, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.32);
    });
  }
  function alarm(kind) {
    document.body.classList.remove("flash-level", "flash-minute");
    void document.body.offsetWidth; // restart the animation
    document.body.classList.add("flash-" + kind);
    document.body.dataset.lastAlarm = kind;
    window.setTimeout(function () { document.body.classList.remove("flash-" + kind); }, 3500);
    tones(kind === "level" ? [660, 880, 1100] : [880, 880]);
  }
  var levelKey = null;
  var lastLeft = null;
  function watchLevel() {
    var board = document.querySelector(".clock-board[data-level-key]");
    if (!board) {
      return;
    }
    var key = board.dataset.levelKey;
    if (levelKey !== null && key !== levelKey) {
      alarm("level");
      lastLeft = null;
    }
    levelKey = key;
  }
  function watchMinute() {
    var el = document.querySelector("[data-alarm][data-deadline]");
    if (!el) {
      lastLeft = null;
      return;
    }
    var left = Number(el.dataset.deadline) - serverNow();
    if (lastLeft !== null && lastLeft > 60000 && left <= 60000 && left > 0) {
      alarm("minute");
    }
    lastLeft = left;
  }
  if (document.querySelector(".clock-board")) {
    document.addEventListener("htmx:afterSwap", watchLevel);
    watchLevel();
    window.setInterval(watchMinute, 250);
  }

  draw();
  window.setInterval(draw, 200);
})();
