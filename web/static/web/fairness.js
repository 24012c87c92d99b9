/* The table page's part in fair dealing (docs/fairness.md).
 *
 * Once per hand, as soon as the page shows the next hand's commitment (the SHA-256 of its
 * server seed, fixed before), it sends a client seed of 128 random bits from
 * crypto.getRandomValues naming that commitment. The seeds the service accepted are kept in
 * sessionStorage by table and commitment; when that hand is running, the page checks that
 * the seed published for this player in its hand_start is the one accepted, and says so
 * loudly if not.
 */
(function () {
  "use strict";

  var sending = {}; // storage keys of requests on their way

  function hex(bytes) {
    return Array.prototype.map
      .call(bytes, function (b) {
        return b.toString(16).padStart(2, "0");
      })
      .join("");
  }

  function storageKey(table, commitment) {
    return "stud-client-seed " + table + " " + commitment;
  }

  function send(form) {
    var key = storageKey(form.dataset.table, form.dataset.commitment);
    if (!form.dataset.commitment || sending[key] || sessionStorage.getItem(key)) {
      return;
    }
    var seed = hex(window.crypto.getRandomValues(new Uint8Array(16)));
    form.elements.client_seed.value = seed;
    sending[key] = true;
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 204) {
          sessionStorage.setItem(key, seed); // held for that hand
        }
      })
      .catch(function () {
        delete sending[key]; // never arrived: the next redraw sends a new one
      });
  }

  function check(note) {
    var accepted = sessionStorage.getItem(
      storageKey(note.dataset.table, note.dataset.handCommitment)
    );
    note.hidden = !accepted || accepted === note.dataset.clientSeed;
  }

  function run() {
    if (!window.crypto || !window.sessionStorage) {
      return;
    }
    document.querySelectorAll("form.client-seed[data-commitment]").forEach(send);
    document.querySelectorAll(".client-seed-check[data-hand-commitment]").forEach(check);
  }

  document.addEventListener("htmx:afterSwap", run);
  run();
})();
