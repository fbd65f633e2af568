// The email-link flow the way a Firebase web app does it, against Latchkey's REST API, with no SDK and no build step.
//
// 1. Ask for an email address, call accounts:sendOobCode with this page as continueUrl, remember the address.
// 2. Opened from the link (mode=signIn&oobCode=… in the URL, Firebase's isSignInWithEmailLink), call
//    accounts:signInWithEmailLink with the remembered address, or ask for it again when this browser has none
//    (Firebase's security guidance: a link opened elsewhere must not sign in without the address).
//    Or, with the email read on another device, type the code it shows beside the link (`emailLink.typedCode`):
//    accounts:signInWithEmailLink takes it as oobCode, with the address, and the link and the code spend each other.
// 3. Show the ID token's claims, and sign out.
//
// And sign-in with the identity providers Latchkey is configured with: a button makes a random `eventId`, keeps it in
// this tab's sessionStorage and sends the browser to the hosted page /__/auth/handler with it, which signs in at the
// provider and comes back here with `#link=…&sessionId=…` (the sessionId being the eventId's SHA-256); the page
// finishes with accounts:signInWithIdp and the kept eventId as sessionId. A hand-off this tab did not start (an
// attacker's, sent in a link) finds no kept eventId, and is refused. Signed in, the same buttons link another
// provider to the account.
//
// And a second factor (TOTP, Identity Toolkit v2): signed in, "Turn on an authenticator" calls
// mfaEnrollment:start, shows the key and the otpauth:// URI the Firebase SDKs build from it, and mfaEnrollment:finalize
// checks one code; "Remove" calls mfaEnrollment:withdraw. A sign-in of an account with a factor answers
// `mfaPendingCredential` instead of tokens: the page asks for a code and finishes with mfaSignIn:finalize.
//
// And a phone number: accounts:sendVerificationCode texts a code and answers its `sessionInfo`;
// accounts:signInWithPhoneNumber with both signs in (creating the account of a new number). Signed in, the same two
// calls with the user's `idToken` link a number to the account; a number another account has is not linked: the answer
// is a `temporaryProof` of it instead of tokens (Firebase's credentialAlreadyInUse), which the page offers to sign in
// to that account with. In development mode the texts are in the development mailbox; app verification is off there,
// so the page sends no captcha token (a production server with `appVerification` configured needs one).
"use strict";

const EMAIL_KEY = "emailForSignIn";
const SESSION_KEY = "latchkeyDemoSession";
const PROVIDER_KEY = "latchkeyDemoProviderSignIn"; // the provider sign-in this tab started: its eventId, and whether it links

const $ = (id) => document.getElementById(id);
const sections = ["send", "sent", "confirm", "second-factor", "working", "signed-in", "phone-code", "phone-taken"];

function show(section) {
  for (const name of sections) $(name).hidden = name !== section;
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

let apiKey = "";
let appName = "";
let providers = [];
let session = null; // the signed-in user's tokens
let pending = null; // a sign-in waiting for its second factor: its mfaPendingCredential
let pendingMethod = ""; // and how its first factor was given
let enrollment = null; // the sessionInfo of an authenticator being turned on
let texted = null; // a texted code waiting to be typed: its sessionInfo, the number, and whether it links the number
let proof = null; // a number another account has: its temporaryProof, which signs in there

/** POSTs to an Identity Toolkit path; resolves to the JSON answer or throws an Error whose message is the error code. */
async function post(path, body) {
  const response = await fetch(`${path}?key=${encodeURIComponent(apiKey)}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((answer.error && answer.error.message) || `HTTP ${response.status}`);
  return answer;
}

/** A v1 method (`/v1/accounts:lookup`). */
const call = (method, body) => post(`/v1/accounts:${method}`, body);
/** A second-factor method, v2 only (`/v2/accounts/mfaEnrollment:start`). */
const callV2 = (method, body) => post(`/v2/accounts/${method}`, body);

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

/** A readable text for an error code; `about` says which code the user was typing when it is not an authenticator's:
 * `"typed"` for an email's code rather than its link, `"phone"` for a texted one. */
function explain(code, about = "") {
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
    INVALID_CODE: "That code is wrong or was already used. Enter the newest code your authenticator shows.",
    MISSING_CODE: "Enter the 6-digit code from your authenticator.",
    INVALID_MFA_PENDING_CREDENTIAL: "This sign-in expired or had too many wrong codes. Sign in again.",
    SESSION_EXPIRED: "Turning on the authenticator took too long. Start again.",
    INVALID_SESSION_INFO: "This authenticator setup is no longer valid. Start again.",
    CREDENTIAL_TOO_OLD_LOGIN_AGAIN: "For your safety, sign out and sign in again before changing your authenticators.",
    UNVERIFIED_EMAIL: "Verify your email address first: sign in with an email link.",
    SECOND_FACTOR_LIMIT_EXCEEDED: "This account has as many authenticators as it may. Remove one first.",
    MFA_ENROLLMENT_NOT_FOUND: "That authenticator was already removed.",
    OPERATION_NOT_ALLOWED: "This server doesn't allow that. Second factors need \"mfa\": {\"state\": \"ENABLED\"} in its configuration.",
    INVALID_ID_TOKEN: "Your session has ended. Sign out and sign in again.",
    TOKEN_EXPIRED: "Your session has ended. Sign out and sign in again.",
    MISSING_PHONE_NUMBER: "Enter your phone number.",
    INVALID_PHONE_NUMBER: "Enter the phone number with its country code, like +44 7700 900123.",
    QUOTA_EXCEEDED: "This server has sent as many texts as it may today. Try again tomorrow, or sign in another way.",
    UNSUPPORTED_FIRST_FACTOR: "This account has a second factor, so it can't sign in with a phone number alone. Sign in another way.",
    MISSING_APP_CREDENTIAL: "This server checks that texts are asked for by a real app (appVerification), which this demo page can't prove.",
  };
  // A typed code stands for its email's link: the same errors, told about the code.
  const typedTexts = {
    INVALID_OOB_CODE: "This code is wrong, or it or its link was already used. Check the newest email, or request a new one.",
    EXPIRED_OOB_CODE: "This code has expired. Request a new email.",
  };
  // A texted code's errors, told about the text.
  const phoneTexts = {
    INVALID_CODE: "That code is wrong. Check the newest text and type its 6 digits.",
    MISSING_CODE: "Enter the 6-digit code from the text.",
    SESSION_EXPIRED: "This code has expired. Ask for a new text.",
    INVALID_SESSION_INFO: "This code was already used, or tried too many times. Ask for a new text.",
    OPERATION_NOT_ALLOWED: "This server doesn't send texts to that number's country or region.",
    CREDENTIAL_TOO_OLD_LOGIN_AGAIN: "For your safety, sign out and sign in again before adding a phone number.",
  };
  const text = ({ typed: typedTexts, phone: phoneTexts }[about] || {})[name] || texts[name];
  // The error code too: the one thing to look up (and what the SDKs map to their errors).
  return text ? `${text} (${name})` : `Something went wrong (${code}).`;
}

/** A provider's display name from /demo/config.json, else its id (`password`, `anonymous`). */
const providerName = (id) => (providers.find((provider) => provider.providerId === id) || {}).displayName || id;

/** A sign-in's answer: tokens, or `mfaPendingCredential` when the account asks for its second factor first. `method`
 * says how the user signed in, as the page knows it: the ID token's `sign_in_provider` is `password` for an email link
 * too (as in Firebase), so the page names the way it took. */
function adopt(answer, method) {
  if (answer.mfaPendingCredential) return askForCode(answer, method);
  const tokens = { idToken: answer.idToken, refreshToken: answer.refreshToken, method };
  localStorage.setItem(SESSION_KEY, JSON.stringify(tokens));
  showSignedIn(tokens);
}

function showSignedIn(tokens) {
  session = tokens;
  const claims = claimsOf(session.idToken);
  // A phone sign-in's account may have no address: the number names it.
  $("user-email").textContent = claims.email || claims.phone_number || "(no email)";
  $("user-phone").textContent = claims.phone_number || "";
  $("user-phone-line").hidden = !claims.phone_number;
  // Firebase's accounts have one number: a number to add is offered only to an account without one.
  $("link-phone-form").hidden = Boolean(claims.phone_number);
  $("link-phone-number").value = "";
  $("user-provider").textContent = tokens.method || providerName((claims.firebase && claims.firebase.sign_in_provider) || "?");
  $("claims").textContent = JSON.stringify(claims, null, 2);
  // Only providers not linked yet can be linked.
  const linked = Object.keys((claims.firebase && claims.firebase.identities) || {});
  let linkable = 0;
  for (const button of $("link-providers").querySelectorAll("button")) {
    button.hidden = linked.includes(button.dataset.provider);
    if (!button.hidden) linkable += 1;
  }
  $("link-providers").hidden = linkable === 0;
  $("enroll").hidden = true;
  $("enroll-start").hidden = false;
  show("signed-in");
  listFactors();
}

/** The account's authenticators, from accounts:lookup `mfaInfo`, each with a "Remove" button. */
async function listFactors() {
  let factors = [];
  try {
    const answer = await call("lookup", { idToken: session.idToken });
    factors = (answer.users && answer.users[0] && answer.users[0].mfaInfo) || [];
  } catch (error) {
    showError(explain(error.message));
  }
  const items = factors.map((factor) => {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.textContent = `${factor.displayName || "Authenticator app"}, added ${factor.enrolledAt.slice(0, 10)}`;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "secondary";
    remove.textContent = "Remove";
    remove.addEventListener("click", () => withdraw(factor, remove));
    item.append(name, remove);
    return item;
  });
  $("factors").replaceChildren(...items);
  $("factors").hidden = items.length === 0;
  $("no-factors").hidden = items.length > 0;
  $("enroll-start").textContent = items.length ? "Add another authenticator" : "Turn on an authenticator";
}

/** mfaEnrollment:start, then the key and the URI an authenticator imports, built as the SDKs' generateQrCodeUrl builds
 * it (no period), with the app name as issuer (what the authenticator shows, as the emails name the app) and the email
 * address as account name, both percent-encoded so that a name with spaces still makes a URI. */
async function startEnrollment() {
  $("enroll-start").disabled = true;
  showError("");
  try {
    const { totpSessionInfo: info } = await callV2("mfaEnrollment:start", { idToken: session.idToken, totpEnrollmentInfo: {} });
    enrollment = info.sessionInfo;
    const account = claimsOf(session.idToken).email || "unknownuser";
    const [issuer, name] = [encodeURIComponent(appName), encodeURIComponent(account)];
    const uri = `otpauth://totp/${issuer}:${name}?secret=${info.sharedSecretKey}&issuer=${issuer}`
      + `&algorithm=${info.hashingAlgorithm}&digits=${info.verificationCodeLength}`;
    $("enroll-secret").textContent = info.sharedSecretKey;
    $("enroll-uri").textContent = uri;
    $("enroll-uri").href = uri;
    $("enroll-code").value = "";
    $("enroll").hidden = false;
    $("enroll-start").hidden = true;
    $("no-factors").hidden = true;
    $("enroll-code").focus();
  } catch (error) {
    showError(explain(error.message));
  } finally {
    $("enroll-start").disabled = false;
  }
}

/** mfaEnrollment:finalize with one code; its answer holds new tokens (every other session was signed out). */
async function finishEnrollment(event) {
  event.preventDefault();
  const code = $("enroll-code").value.trim();
  if (!code) return showError(explain("MISSING_CODE"));
  $("enroll-button").disabled = true;
  showError("");
  try {
    const answer = await callV2("mfaEnrollment:finalize", {
      idToken: session.idToken,
      displayName: $("enroll-name").value.trim() || undefined,
      totpVerificationInfo: { sessionInfo: enrollment, verificationCode: code },
    });
    enrollment = null;
    adopt(answer, session.method);
  } catch (error) {
    showError(explain(error.message));
    $("enroll-code").select();
  } finally {
    $("enroll-button").disabled = false;
  }
}

/** mfaEnrollment:withdraw; its answer holds new tokens, without the second factor. */
async function withdraw(factor, button) {
  button.disabled = true;
  showError("");
  try {
    adopt(await callV2("mfaEnrollment:withdraw", { idToken: session.idToken, mfaEnrollmentId: factor.mfaEnrollmentId }), session.method);
  } catch (error) {
    showError(explain(error.message));
    button.disabled = false;
  }
}

/** The first factor passed: ask for a code from one of the account's authenticators (`mfaInfo`). */
function askForCode(answer, method) {
  pending = answer.mfaPendingCredential;
  pendingMethod = method;
  const factors = answer.mfaInfo || [];
  const choice = $("factor-choice");
  choice.replaceChildren(...factors.map((factor) => new Option(factor.displayName || "Authenticator app", factor.mfaEnrollmentId)));
  // One factor is named; several are a choice.
  $("factor-name").textContent = choice.selectedOptions[0] ? choice.selectedOptions[0].text : "";
  $("factor-name-line").hidden = factors.length !== 1;
  $("factor-choice-field").hidden = factors.length < 2;
  $("code").value = "";
  show("second-factor");
  $("code").focus();
}

/** mfaSignIn:finalize: the code, the chosen factor and the pending credential give the session. */
async function verifyCode(event) {
  event.preventDefault();
  const code = $("code").value.trim();
  if (!code) return showError(explain("MISSING_CODE"));
  $("code-button").disabled = true;
  showError("");
  try {
    const answer = await callV2("mfaSignIn:finalize", {
      mfaPendingCredential: pending, mfaEnrollmentId: $("factor-choice").value, totpVerificationInfo: { verificationCode: code },
    });
    pending = null;
    adopt(answer, pendingMethod);
  } catch (error) {
    showError(explain(error.message));
    if (error.message.startsWith("INVALID_MFA_PENDING_CREDENTIAL")) {
      pending = null;
      return show("send");
    }
    $("code").select();
  } finally {
    $("code-button").disabled = false;
  }
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
      const eventId = hex(crypto.getRandomValues(new Uint8Array(32)));
      sessionStorage.setItem(PROVIDER_KEY, JSON.stringify({ eventId, linking }));
      const query = new URLSearchParams({
        apiKey, providerId: provider.providerId, redirectUrl: `${location.origin}/demo/`, authType: "signInViaRedirect", eventId,
      });
      location.assign(`/__/auth/handler?${query}`);
    });
    container.appendChild(button);
  }
  container.hidden = providers.length === 0;
}

/** Lower-case hex of `bytes`. */
const hex = (bytes) => Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");

/** Back from /__/auth/handler: `#link=…&sessionId=…` holds the provider's answer for accounts:signInWithIdp, for the
 * sign-in this tab started only: its sessionId is the SHA-256 of the eventId kept then, and the eventId finishes it. */
async function finishProviderSignIn(answer) {
  show("working");
  showError("");
  history.replaceState(null, "", location.pathname);
  const started = JSON.parse(sessionStorage.getItem(PROVIDER_KEY) || "null");
  sessionStorage.removeItem(PROVIDER_KEY);
  const stored = JSON.parse(localStorage.getItem(SESSION_KEY) || "null");
  // crypto.subtle exists on https and loopback pages; elsewhere the server's check alone refuses another's hand-off.
  const ours = started && (!crypto.subtle
    || hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(started.eventId))) === answer.get("sessionId"));
  if (!ours) {
    showError("This sign-in was not started in this browser tab, so it was refused. Sign in here instead.");
    return stored ? showSignedIn(stored) : show("send");
  }
  const { linking } = started;
  const body = { requestUri: answer.get("link"), sessionId: started.eventId, returnSecureToken: true };
  if (linking && stored) body.idToken = stored.idToken;
  try {
    const result = await call("signInWithIdp", body);
    if (result.needConfirmation) {
      showError(`An account already uses ${result.email}: sign in with an email link first, then link ${providerName(result.providerId)} there.`);
      return show("send");
    }
    adopt(result, providerName(result.providerId));
  } catch (error) {
    showError(explain(error.message));
    if (linking && stored) return showSignedIn(stored);
    show("send");
  }
}

/** accounts:signInWithEmailLink with the link's code, or (`typed`) the code its email shows, typed on this device. */
async function complete(email, code, typed = false) {
  show("working");
  showError("");
  try {
    const answer = await call("signInWithEmailLink", { email, oobCode: code });
    localStorage.removeItem(EMAIL_KEY);
    // The code is spent (also when a second factor is still to come): keep it out of the history and of bookmarks.
    history.replaceState(null, "", location.pathname);
    adopt(answer, "an email link");
  } catch (error) {
    showError(explain(error.message, typed ? "typed" : ""));
    const wrongAddress = error.message.startsWith("INVALID_EMAIL") || error.message.startsWith("MISSING_EMAIL");
    if (typed) {
      // Back to the form, to correct the code or the address (a wrong one counts against the address's codes).
      show("sent");
      if (wrongAddress) {
        $("typed-email-field").hidden = false;
        return $("typed-email").focus();
      }
      return $("typed-code").select();
    }
    if (wrongAddress) {
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
    showCodeForm(email);
  } catch (error) {
    showError(explain(error.message));
  } finally {
    $("send-button").disabled = false;
  }
}

/** The waiting screen: with `email` (this browser just asked for a link) the code is all it asks for; without, the
 * address too (the link was asked for on another device), filled in when this browser remembers one. */
function showCodeForm(email) {
  $("sent-to").textContent = email || "";
  $("sent-line").hidden = !email;
  $("sent-elsewhere").hidden = Boolean(email);
  $("typed-email").value = email || localStorage.getItem(EMAIL_KEY) || "";
  $("typed-email-field").hidden = Boolean(email);
  $("typed-code").value = "";
  show("sent");
  if (!email) $("typed-email").focus();
}

/** The code the email shows beside its link, typed here: signs in as the link would, with the address. */
function signInWithTypedCode(event) {
  event.preventDefault();
  const email = $("typed-email").value.trim();
  const code = $("typed-code").value.trim();
  if (!email) {
    $("typed-email-field").hidden = false;
    $("typed-email").focus();
    return showError("Enter your email address.");
  }
  if (!code) {
    $("typed-code").focus();
    return showError("Enter the code from the email.");
  }
  complete(email, code, true);
}

function confirmEmail(event) {
  event.preventDefault();
  const email = $("confirm-email").value.trim();
  if (!email) return showError("Enter your email address.");
  complete(email, signInLink());
}

/** accounts:sendVerificationCode: texts a code to `number`; `linking` keeps the signed-in user's session for the
 * sign-in that follows, which then links the number to that account. */
async function sendText(number, linking, button) {
  if (!number) return showError(explain("MISSING_PHONE_NUMBER"));
  button.disabled = true;
  showError("");
  try {
    const { sessionInfo } = await call("sendVerificationCode", { phoneNumber: number });
    texted = { sessionInfo, number, linking };
    $("phone-sent-to").textContent = number;
    $("phone-code-title").textContent = linking ? "Enter the code we texted to add this number" : "Enter the code we texted";
    $("phone-code-button").textContent = linking ? "Add this number" : "Sign in";
    $("phone-code-input").value = "";
    show("phone-code");
    $("phone-code-input").focus();
  } catch (error) {
    showError(explain(error.message, "phone"));
  } finally {
    button.disabled = false;
  }
}

/** accounts:signInWithPhoneNumber with the texted code (and, linking, the user's idToken): tokens, or, for a number
 * another account has, a temporaryProof of it. */
async function verifyText(event) {
  event.preventDefault();
  const code = $("phone-code-input").value.trim();
  if (!code) return showError(explain("MISSING_CODE", "phone"));
  $("phone-code-button").disabled = true;
  showError("");
  try {
    const body = { sessionInfo: texted.sessionInfo, code };
    if (texted.linking && session) body.idToken = session.idToken;
    const answer = await call("signInWithPhoneNumber", body);
    const linking = texted.linking && session;
    texted = null;
    if (answer.temporaryProof) return offerOtherAccount(answer);
    adopt(answer, linking ? session.method : "a texted code");
  } catch (error) {
    showError(explain(error.message, "phone"));
    const name = error.message.split(" : ")[0];
    // A spent, expired or worn-out code cannot be tried again: back to where the number is typed.
    if (["INVALID_SESSION_INFO", "SESSION_EXPIRED"].includes(name)) return leavePhoneCode();
    $("phone-code-input").select();
  } finally {
    $("phone-code-button").disabled = false;
  }
}

/** Back from the code form: to the signed-in page when a number was being added, else to the sign-in page. */
function leavePhoneCode() {
  const linking = texted && texted.linking && session;
  texted = null;
  if (linking) return showSignedIn(session);
  show("send");
}

/** The number is another account's: nothing was linked, and the proof the answer holds can sign in to that account. */
function offerOtherAccount(answer) {
  proof = { temporaryProof: answer.temporaryProof, phoneNumber: answer.phoneNumber };
  $("taken-number").textContent = answer.phoneNumber;
  show("phone-taken");
}

/** accounts:signInWithPhoneNumber with the temporaryProof and its number: signs in to the account that has it. */
async function signInWithProof() {
  $("taken-sign-in").disabled = true;
  showError("");
  try {
    const answer = await call("signInWithPhoneNumber", proof);
    proof = null;
    adopt(answer, "a texted code");
  } catch (error) {
    showError(explain(error.message, "phone"));
    proof = null;
    showSignedIn(session);
  } finally {
    $("taken-sign-in").disabled = false;
  }
}

function signOut() {
  session = null;
  localStorage.removeItem(SESSION_KEY);
  showError("");
  show("send");
  $("email").focus();
}

async function start() {
  $("send-form").addEventListener("submit", sendLink);
  $("confirm-form").addEventListener("submit", confirmEmail);
  $("typed-form").addEventListener("submit", signInWithTypedCode);
  $("have-code").addEventListener("click", () => {
    showError("");
    showCodeForm(null);
  });
  $("sign-out").addEventListener("click", signOut);
  $("start-over").addEventListener("click", () => show("send"));
  $("enroll-start").addEventListener("click", startEnrollment);
  $("enroll-form").addEventListener("submit", finishEnrollment);
  $("code-form").addEventListener("submit", verifyCode);
  $("phone-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sendText($("phone-number").value.trim(), false, $("phone-button"));
  });
  $("link-phone-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sendText($("link-phone-number").value.trim(), true, $("link-phone-button"));
  });
  $("phone-code-form").addEventListener("submit", verifyText);
  $("phone-cancel").addEventListener("click", () => {
    showError("");
    leavePhoneCode();
  });
  $("taken-sign-in").addEventListener("click", signInWithProof);
  $("taken-stay").addEventListener("click", () => {
    proof = null;
    showSignedIn(session);
  });
  $("code-cancel").addEventListener("click", () => {
    pending = null;
    showError("");
    show("send");
  });
  try {
    const config = await (await fetch("/demo/config.json")).json();
    apiKey = config.apiKey;
    appName = config.appName;
    providers = config.providers || [];
    // The typed code exists only when the server puts one in its emails (`emailLink.typedCode`).
    $("have-code-line").hidden = $("typed").hidden = !config.typedCode;
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
