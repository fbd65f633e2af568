extension EmailActionPage {
    /// `/__/auth/action.js`: posts the page's code (and a new password) to the API from the page itself, since a GET must
    /// never spend a code, and shows the answer the page already holds in its language. The password goes in a POST body
    /// only; the form itself can submit nowhere (`form-action 'none'`).
    static let script = """
        "use strict";
        (function () {
          var form = document.getElementById("action");
          if (!form) return;
          var query = new URLSearchParams(location.search);
          var mode = query.get("mode"), code = query.get("oobCode"), key = query.get("apiKey") || "";
          var api = function (method, body) {
            var url = new URL("../../v1/accounts:" + method + "?key=" + encodeURIComponent(key), location.href);
            return fetch(url, {
              method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
              credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer"
            }).then(function (response) {
              return response.json().then(function (answer) {
                if (response.ok) return answer;
                var message = (answer.error && answer.error.message) || "";
                throw new Error(message.split(" ")[0]);
              });
            });
          };
          var show = function (selector, shown) {
            document.querySelectorAll(selector).forEach(function (element) { element.hidden = !shown(element); });
          };
          var fail = function (error) {
            var code = error && error.message;
            var errors = Array.prototype.slice.call(document.querySelectorAll("[data-error]"));
            var known = errors.some(function (element) { return element.dataset.error === code; }) ? code : "FAILED";
            show("[data-error]", function (element) { return element.dataset.error === known; });
          };
          var busy = false;
          form.addEventListener("submit", function (event) {
            event.preventDefault();
            if (busy) return;
            show("[data-error]", function () { return false; });
            var request;
            if (mode === "resetPassword") {
              if (form.password.value !== form.confirmation.value) return fail(new Error("MISMATCH"));
              request = api("resetPassword", { oobCode: code, newPassword: form.password.value });
            } else {
              request = api("update", { oobCode: code });
            }
            busy = true;
            request.then(function (answer) {
              show('[data-state="ask"]', function () { return false; });
              show('[data-state="done"]', function () { return true; });
              var reset = document.getElementById("reset");
              if (reset && answer.email) {
                reset.addEventListener("click", function () {
                  reset.disabled = true;
                  api("sendOobCode", { requestType: "PASSWORD_RESET", email: answer.email }).then(function () {
                    show('[data-state="resetSent"]', function () { return true; });
                  }, function (error) { reset.disabled = false; fail(error); });
                });
              }
            }, fail).then(function () { busy = false; });
          });
        })();

        """
}
