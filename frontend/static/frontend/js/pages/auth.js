// Sign up and log in: a session cookie for the browser.
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
  const error = h("p", { class: "field-error", role: "alert" });
  const form = h("form", { class: "panel narrow" },
    h("h1", {}, signup ? gettext("Sign up") : gettext("Log in")),
    upgrade ? h("p", { class: "note" }, gettext("Your games, statistics and settings as a guest stay yours.")) : null,
    field(gettext("Username"), username),
    signup ? field(gettext("Email (optional)"), email) : null,
    field(gettext("Password"), password),
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
    try {
      const me = await post(upgrade ? "/auth/upgrade" : signup ? "/auth/register" : "/auth/login", body);
      // Sent here by an app's consent page (/oauth/authorize/?...): back to it, signed in.
      const next = new URLSearchParams(location.search).get("next");
      if (next && next.startsWith("/oauth/")) {
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
      error.textContent = fieldMessage(failure);
    }
  });
  root.replaceChildren(form);
  username.focus();
}
