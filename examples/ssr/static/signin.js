// Signs in with Latchkey's REST API (as Firebase's SDK would), then hands the ID token to this app's server, which
// trades it for a session cookie; the ID token is kept nowhere.
"use strict";

const config = document.body.dataset;
const form = document.getElementById("signin-form");
const error = document.getElementById("error");

function fail(message) {
  error.textContent = message;
  error.hidden = false;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.hidden = true;
  const signIn = await fetch(`${config.latchkeyUrl}/v1/accounts:signInWithPassword?key=${encodeURIComponent(config.apiKey)}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: form.email.value, password: form.password.value, returnSecureToken: true }),
  });
  const session = await signIn.json();
  if (!signIn.ok) return fail(`Sign-in refused: ${session.error.message}`);
  if (!session.idToken) return fail("This account asks for a second factor, which this example does not handle.");
  const login = await fetch("/sessionLogin", {
    method: "POST",
    credentials: "same-origin",
    body: new URLSearchParams({ idToken: session.idToken, csrfToken: config.csrfToken }),
  });
  if (!login.ok) return fail("The app refused the sign-in.");
  window.location.assign("/profile");
});
