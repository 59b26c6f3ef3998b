// Sign up and log in: a session cookie for the browser. An account with two-factor sign-in
// answers a right password with `second-factor-required`: the form then asks for the code and
// sends the same credentials again with it.
import { fieldMessage, post } from "../api.js";
import { field, h } from "../dom.js";
import { gettext, LANGUAGE, rememberLanguage } from "../i18n.js";

export function mount(root, ctx, name) {
  const signup = name === "signup";
  // A guest signing up becomes a registered player in place: its games stay its own.
  const upgrade = signup && Boolean(ctx.me?.guest);
  const username = h("input", { name: "username", autocomplete: "username", required: true });
  const email = h("input", { name: "email", type: "email", autocomplete: "email" });
  const password = h("input", { name: "password", type: "password", required: true, autocomplete: signup ? "new-password" : "current-password" });
  const code = h("input", { name: "code", autocomplete: "one-time-code", inputmode: "text", maxlength: "32", "aria-describedby": "help-code" });
  const second = h("div", { class: "second-factor", hidden: true },
    field(gettext("Code from your authenticator app"), code),
    h("p", { id: "help-code", class: "help" }, gettext("Or one of your recovery codes; each works once.")));
  const error = h("p", { class: "field-error", role: "alert" });
  const form = h("form", { class: "panel narrow" },
    h("h1", {}, signup ? gettext("Sign up") : gettext("Log in")),
    upgrade ? h("p", { class: "note" }, gettext("Your games, statistics and settings as a guest stay yours.")) : null,
    field(gettext("Username"), username),
    signup ? field(gettext("Email (optional)"), email) : null,
    field(gettext("Password"), password),
    second,
    signup ? null : h("p", {}, h("a", { href: "/account/forgot", "data-link": true }, gettext("Forgot your password?"))),
    error,
    h("button", { type: "submit", class: "primary" }, signup ? gettext("Create my account") : gettext("Log in")),
    h("p", {}, signup ? gettext("Already have an account?") : gettext("New here?"), " ",
      h("a", { href: signup ? "/login" : "/signup", "data-link": true }, signup ? gettext("Log in") : gettext("Sign up"))),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const body = { username: username.value, password: password.value };
    if (signup) body.email = email.value;
    if (!second.hidden) body.code = code.value;
    try {
      const me = await post(upgrade ? "/auth/upgrade" : signup ? "/auth/register" : "/auth/login", body);
      // Sent here by an app's consent page (/oauth/authorize/?...) or the admin: back to it,
      // signed in.
      const next = new URLSearchParams(location.search).get("next");
      if (next && /^\/(oauth|admin)\//.test(next)) {
        location.assign(next);
        return;
      }
      const stored = me.settings?.language;
      if (stored && stored !== LANGUAGE) {
        // The player's stored language wins on this device too: reload the app in it.
        rememberLanguage(stored);
        location.assign("/");
        return;
      }
      ctx.setMe(me);
      ctx.navigate("/");
    } catch (failure) {
      if (failure.code === "second-factor-required") {
        second.hidden = false;
        code.required = true;
        code.focus();
        error.textContent = gettext("Two-factor sign-in is on: type the code your authenticator app shows.");
        return;
      }
      error.textContent = fieldMessage(failure);
    }
  });
  root.replaceChildren(form);
  username.focus();
}
