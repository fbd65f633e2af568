// The email-link flow the way a Firebase web app does it, against Latchkey's REST API, with no SDK and no build step.
//
// 1. Ask for an email address, call accounts:sendOobCode with this page as continueUrl, remember the address.
// 2. Opened from the link (mode=signIn&oobCode=… in the URL, Firebase's isSignInWithEmailLink), call
//    accounts:signInWithEmailLink with the remembered address, or ask for it again when this browser has none
//    (Firebase's security guidance: a link opened elsewhere must not sign in without the address).
// 3. Show the ID token's claims, and sign out.
"use strict";

const EMAIL_KEY = "emailForSignIn";
const SESSION_KEY = "latchkeyDemoSession";

const $ = (id) => document.getElementById(id);
const sections = ["send", "sent", "confirm", "working", "signed-in"];

function show(section) {
  for (const name of sections) $(name).hidden = name !== section;
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

let apiKey = "";

/** POSTs to an Identity Toolkit method; resolves to the JSON answer or throws an Error whose message is the error code. */
async function call(method, body) {
  const response = await fetch(`/v1/accounts:${method}?key=${encodeURIComponent(apiKey)}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((answer.error && answer.error.message) || `HTTP ${response.status}`);
  return answer;
}

/** Firebase's isSignInWithEmailLink: the link's code and mode, handed over by /__/auth/action. */
function signInLink() {
  const query = new URLSearchParams(location.search);
  return query.get("mode") === "signIn" && query.get("oobCode") ? query.get("oobCode") : null;
}

/** The payload of a JWT, decoded (not verified: backends verify with /.well-known/jwks.json). */
function claimsOf(idToken) {
  const payload = idToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  const bytes = Uint8Array.from(atob(payload), (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

function explain(code) {
  const name = code.split(" : ")[0];
  const texts = {
    INVALID_EMAIL: "This email address doesn't match the one the sign-in link was sent to.",
    MISSING_EMAIL: "Enter your email address.",
    INVALID_OOB_CODE: "This sign-in link is invalid or has already been used. Request a new one.",
    EXPIRED_OOB_CODE: "This sign-in link has expired. Request a new one.",
    TOO_MANY_ATTEMPTS_TRY_LATER: "Too many attempts. Wait a moment and try again.",
    USER_DISABLED: "This account is disabled.",
  };
  return texts[name] || `Something went wrong (${code}).`;
}

function showSignedIn(session) {
  const claims = claimsOf(session.idToken);
  $("user-email").textContent = claims.email || "(no email)";
  $("claims").textContent = JSON.stringify(claims, null, 2);
  show("signed-in");
}

async function complete(email, code) {
  show("working");
  showError("");
  try {
    const answer = await call("signInWithEmailLink", { email, oobCode: code });
    localStorage.removeItem(EMAIL_KEY);
    const session = { idToken: answer.idToken, refreshToken: answer.refreshToken };
    localStorage.setItem(SESSION_KEY, JSON.stringify(session));
    // The code is spent: keep it out of the history and of bookmarks.
    history.replaceState(null, "", location.pathname);
    showSignedIn(session);
  } catch (error) {
    showError(explain(error.message));
    if (error.message.startsWith("INVALID_EMAIL") || error.message.startsWith("MISSING_EMAIL")) {
      show("confirm");
      $("confirm-email").focus();
    } else {
      history.replaceState(null, "", location.pathname);
      show("send");
    }
  }
}

async function sendLink(event) {
  event.preventDefault();
  const email = $("email").value.trim();
  if (!email) return showError("Enter your email address.");
  $("send-button").disabled = true;
  showError("");
  try {
    await call("sendOobCode", {
      requestType: "EMAIL_SIGNIN",
      email,
      continueUrl: `${location.origin}/demo/`,
      canHandleCodeInApp: true,
    });
    localStorage.setItem(EMAIL_KEY, email);
    $("sent-to").textContent = email;
    show("sent");
  } catch (error) {
    showError(explain(error.message));
  } finally {
    $("send-button").disabled = false;
  }
}

function confirmEmail(event) {
  event.preventDefault();
  const email = $("confirm-email").value.trim();
  if (!email) return showError("Enter your email address.");
  complete(email, signInLink());
}

function signOut() {
  localStorage.removeItem(SESSION_KEY);
  showError("");
  show("send");
  $("email").focus();
}

async function start() {
  $("send-form").addEventListener("submit", sendLink);
  $("confirm-form").addEventListener("submit", confirmEmail);
  $("sign-out").addEventListener("click", signOut);
  $("start-over").addEventListener("click", () => show("send"));
  try {
    apiKey = (await (await fetch("/demo/config.json")).json()).apiKey;
  } catch {
    showError("Could not load /demo/config.json: is Latchkey running in development mode?");
  }
  const code = signInLink();
  if (code) {
    const email = localStorage.getItem(EMAIL_KEY);
    if (email) return complete(email, code);
    show("confirm");
    return;
  }
  const stored = localStorage.getItem(SESSION_KEY);
  if (stored) {
    try {
      return showSignedIn(JSON.parse(stored));
    } catch {
      localStorage.removeItem(SESSION_KEY);
    }
  }
  show("send");
}

start();
