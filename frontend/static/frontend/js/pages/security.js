// Account security: two-factor sign-in (an authenticator app and recovery codes) and the
// signed-in sessions, each of which can be signed out. The server decides everything: this
// page shows its answers and sends the player's codes.
import { del, fieldMessage, get, post } from "../api.js";
import { field, h, when } from "../dom.js";
import { gettext, interpolate, ngettext } from "../i18n.js";

/** A form asking for a current code; `actions` are [label, async (code) => ..., class]. */
function codeForm(actions, error) {
  const code = h("input", { name: "code", required: true, autocomplete: "one-time-code", maxlength: "32" });
  const form = h("form", { class: "inline", "data-form": "code" }, field(gettext("Code from your authenticator app"), code));
  for (const [label, act, kind] of actions) {
    form.append(h("button", { type: "submit", class: kind, value: label }, label));
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = actions.find(([label]) => label === event.submitter?.value) ?? actions[0];
    error.textContent = "";
    try {
      await chosen[1](code.value);
    } catch (failure) {
      error.textContent = fieldMessage(failure);
      code.select();
    }
  });
  return form;
}

function recoveryCodes(codes, done) {
  return h("div", { class: "fresh-token", role: "status" },
    h("p", {}, gettext("Your recovery codes. Keep them somewhere safe: each one signs you in once without the app. They are shown only now.")),
    h("ol", { class: "recovery-codes", "data-recovery-codes": "" }, codes.map((code) => h("li", {}, h("code", {}, code)))),
    h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(codes.join("\n")) }, gettext("Copy")), " ",
    h("button", { type: "button", class: "primary", onclick: done }, gettext("I have kept them")));
}

/** The two-factor part: off (a button), being set up (QR code, key, first code), or on. */
function twoFactorSection() {
  const box = h("div", { "data-two-factor": "" });
  const error = h("p", { class: "field-error", role: "alert" });

  async function show() {
    const status = await get("/me/two-factor");
    error.textContent = "";
    box.dataset.state = status.enabled ? "on" : "off";
    if (!status.enabled) {
      box.replaceChildren(
        h("p", {}, gettext("Off. With it on, signing in also asks for a code from an authenticator app on your phone, so your password alone is not enough.")),
        h("button", { type: "button", class: "primary", onclick: start }, gettext("Turn on two-factor sign-in")), error);
      return;
    }
    const left = ngettext("On. %(count)s recovery code left.", "On. %(count)s recovery codes left.", status.recovery_codes_left);
    box.replaceChildren(h("p", {}, interpolate(left, { count: status.recovery_codes_left }, true)),
      codeForm([
        [gettext("New recovery codes"), async (code) => {
          const answer = await post("/me/two-factor/recovery-codes", { code });
          box.replaceChildren(recoveryCodes(answer.recovery_codes, show));
        }],
        [gettext("Turn off"), async (code) => {
          await post("/me/two-factor/disable", { code });
          await show();
        }, "danger"],
      ], error), error);
  }

  async function start() {
    try {
      const setup = await post("/me/two-factor/setup");
      box.dataset.state = "setup";
      box.replaceChildren(
        h("p", {}, gettext("Scan this QR code with your authenticator app, then type the code it shows.")),
        h("img", { class: "qr", src: setup.qr_svg, width: "180", height: "180", alt: gettext("QR code holding your two-factor key") }),
        h("p", {}, gettext("Cannot scan it? Type this key into the app:"), " ", h("code", { class: "secret", "data-secret": "" }, setup.secret)),
        codeForm([[gettext("Turn on"), async (code) => {
          const answer = await post("/me/two-factor/confirm", { code });
          box.dataset.state = "on";
          box.replaceChildren(recoveryCodes(answer.recovery_codes, show));
        }, "primary"]], error),
        error);
      box.querySelector("input[name=code]").focus();
    } catch (failure) {
      error.textContent = failure.message;
    }
  }

  return { box, show };
}

/** The signed-in sessions, this one first among equals, each with its way out. */
function sessionsSection(ctx) {
  const list = h("tbody");
  const note = h("p", { class: "saved", role: "status" });

  async function signOut(session) {
    await del(`/me/sessions/${session.id}`);
    if (session.current) {
      ctx.setMe(null);
      ctx.navigate("/login");
      return;
    }
    note.textContent = interpolate(gettext("Signed out: %(browser)s."), { browser: session.browser || gettext("unknown browser") }, true);
    await show();
  }

  async function show() {
    const sessions = await get("/me/sessions");
    list.replaceChildren(...sessions.map((session) => {
      const browser = session.browser || gettext("unknown browser");
      return h("tr", { "data-session": session.id, class: session.current ? "mine" : null },
        h("td", { title: session.user_agent }, browser, session.current ? h("strong", {}, " · ", gettext("this browser")) : null),
        h("td", {}, session.place || "—"),
        h("td", {}, when(session.signed_in_at)),
        h("td", {}, when(session.last_seen)),
        h("td", {}, h("button", { type: "button", class: "danger", "aria-label": interpolate(gettext("Sign out %(browser)s"), { browser }, true), onclick: () => signOut(session) }, gettext("Sign out"))));
    }));
  }

  const others = h("button", { type: "button", "data-action": "sign-out-others", onclick: async () => {
    const answer = await post("/me/sessions/sign-out-others");
    note.textContent = interpolate(ngettext("%(count)s other session signed out.", "%(count)s other sessions signed out.", answer.signed_out), { count: answer.signed_out }, true);
    await show();
  } }, gettext("Sign out everywhere else"));

  const table = h("table", { "data-sessions": "" },
    h("thead", {}, h("tr", {}, [gettext("Browser"), gettext("Network address"), gettext("Signed in"), gettext("Last seen")].map((t) => h("th", { scope: "col" }, t)),
      h("th", { scope: "col" }, h("span", { class: "sr-only" }, gettext("Sign out"))))), list);
  return { nodes: [table, h("p", {}, others), note], show };
}

export async function mount(root, ctx) {
  if (!ctx.me) return ctx.navigate("/login", { replace: true });
  const twoFactor = twoFactorSection();
  const sessions = sessionsSection(ctx);
  root.replaceChildren(h("section", { class: "panel" }, h("h1", {}, gettext("Account security")),
    h("h2", {}, gettext("Two-factor sign-in")), twoFactor.box,
    h("h2", {}, gettext("Signed-in sessions")),
    h("p", { class: "help" }, gettext("Every browser signed in to your account, with only the start of its network address; last seen is updated every few minutes.")),
    ...sessions.nodes,
    h("p", { class: "note" }, gettext("API tokens and apps are not sessions:"), " ",
      h("a", { href: "/tokens", "data-link": true }, gettext("API tokens")))));
  await Promise.all([twoFactor.show(), sessions.show()]);
}
