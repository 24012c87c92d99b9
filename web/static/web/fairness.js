/* The table page's part in fair dealing (docs/fairness.md): once per hand, as soon as the
 * page shows the next hand's commitment (the SHA-256 of its server seed, fixed before), it
 * sends a client seed of 128 random bits from crypto.getRandomValues naming that
 * commitment. The seed is secret until the hand starts; its hand_start event then lists it.
 * What was sent is kept in sessionStorage, by table and commitment, so each hand gets one.
 */
(function () {
  "use strict";

  function hex(bytes) {
    return Array.prototype.map
      .call(bytes, function (b) {
        return b.toString(16).padStart(2, "0");
      })
      .join("");
  }

  function send() {
    document.querySelectorAll("form.client-seed[data-commitment]").forEach(function (form) {
      var commitment = form.dataset.commitment;
      var key = "stud-client-seed " + form.action + " " + commitment;
      if (!commitment || !window.crypto || sessionStorage.getItem(key)) {
        return;
      }
      var seed = hex(window.crypto.getRandomValues(new Uint8Array(16)));
      sessionStorage.setItem(key, seed);
      form.elements.client_seed.value = seed;
      fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok && response.status !== 409) {
            sessionStorage.removeItem(key); // not held: the next redraw sends a new one
          }
        })
        .catch(function () {
          sessionStorage.removeItem(key);
        });
    });
  }

  document.addEventListener("htmx:afterSwap", send);
  send();
})();
