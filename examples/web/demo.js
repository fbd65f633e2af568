// The email-link flow the way a Firebase web app does it, against Latchkey's REST API, with no SDK and no build step.
//
// 1. Ask for an email address, call accounts:sendOobCode with this page as continueUrl, remember the address.
// 2. Opened from the link (mode=signIn&oobCode=… in the URL, Firebase's isSignInWithEmailLink), call
//    accounts:signInWithEmailLink with the remembered address, or ask for it again when this browser has none
//    (Firebase's security guidance: a link opened elsewhere must not sign in without the address).
// 3. Show the ID token's claims, and sign out.
//
// And sign-in with the identity providers Latchkey is configured with: a button sends the browser to the hosted page
// /__/auth/handler, which signs in at the provider and comes back here with `#link=…&sessionId=…`; the page finishes
// with accounts:signInWithIdp. Signed in, the same buttons link another provider to the account.
"use strict";

const EMAIL_KEY = "emailForSignIn";
const SESSION_KEY = "latchkeyDemoSession";
const LINKING_KEY = "latchkeyDemoLinking";

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
let providers = [];

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
    USER_CANCELLED: "Sign-in was cancelled at the provider.",
    FEDERATED_USER_ID_ALREADY_LINKED: "That provider account already signs in to an account.",
    EMAIL_EXISTS: "That provider's address belongs to another account.",
    INVALID_IDP_RESPONSE: "The provider's answer could not be accepted. Try again.",
  };
  return texts[name] || `Something went wrong (${code}).`;
}

function showSignedIn(session) {
  const claims = claimsOf(session.idToken);
  $("user-email").textContent = claims.email || "(no email)";
  $("user-provider").textContent = (claims.firebase && claims.firebase.sign_in_provider) || "?";
  $("claims").textContent = JSON.stringify(claims, null, 2);
  // Only providers not linked yet can be linked.
  const linked = Object.keys((claims.firebase && claims.firebase.identities) || {});
  let linkable = 0;
  for (const button of $("link-providers").querySelectorAll("button")) {
    button.hidden = linked.includes(button.dataset.provider);
    if (!button.hidden) linkable += 1;
  }
  $("link-providers").hidden = linkable === 0;
  show("signed-in");
}

/** A button per configured provider in `container`: to sign in, or (`linking`) to link it to the signed-in account. */
function addProviderButtons(container, linking) {
  for (const provider of providers) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.dataset.provider = provider.providerId;
    button.textContent = `${linking ? "Link" : "Sign in with"} ${provider.displayName}`;
    button.addEventListener("click", () => {
      sessionStorage.setItem(LINKING_KEY, linking ? "1" : "");
      const query = new URLSearchParams({
        apiKey, providerId: provider.providerId, redirectUrl: `${location.origin}/demo/`, authType: "signInViaRedirect",
      });
      location.assign(`/__/auth/handler?${query}`);
    });
    container.appendChild(button);
  }
  container.hidden = providers.length === 0;
}

/** Back from /__/auth/handler: `#link=…&sessionId=…` holds the provider's answer for accounts:signInWithIdp. */
async function finishProviderSignIn(answer) {
  show("working");
  showError("");
  history.replaceState(null, "", location.pathname);
  const linking = sessionStorage.getItem(LINKING_KEY) === "1";
  sessionStorage.removeItem(LINKING_KEY);
  const stored = JSON.parse(localStorage.getItem(SESSION_KEY) || "null");
  const body = { requestUri: answer.get("link"), sessionId: answer.get("sessionId"), returnSecureToken: true };
  if (linking && stored) body.idToken = stored.idToken;
  try {
    const result = await call("signInWithIdp", body);
    if (result.needConfirmation) {
      showError(`An account already uses ${result.email}: sign in with an email link first, then link ${result.providerId} there.`);
      return show("send");
    }
    const session = { idToken: result.idToken, refreshToken: result.refreshToken };
    localStorage.setItem(SESSION_KEY, JSON.stringify(session));
    showSignedIn(session);
  } catch (error) {
    showError(explain(error.message));
    if (linking && stored) return showSignedIn(stored);
    show("send");
  }
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
    const config = await (await fetch("/demo/config.json")).json();
    apiKey = config.apiKey;
    providers = config.providers || [];
  } catch {
    showError("Could not load /demo/config.json: is Latchkey running in development mode?");
  }
  addProviderButtons($("providers"), false);
  addProviderButtons($("link-providers"), true);
  const providerAnswer = new URLSearchParams(location.hash.slice(1));
  if (providerAnswer.get("link")) return finishProviderSignIn(providerAnswer);
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
