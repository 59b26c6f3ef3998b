// The pages an e-mail leads to, and the way to one: "forgot my password" (ask for a reset
// link), a reset link (choose a new password), an address confirmation link.
import { fieldMessage, post } from "../api.js";
import { field, h } from "../dom.js";
import { gettext } from "../i18n.js";

const token = () => new URLSearchParams(location.search).get("token") ?? "";

function forgot(root) {
  const email = h("input", { name: "email", type: "email", required: true, autocomplete: "email" });
  const error = h("p", { class: "field-error", role: "alert" });
  const sent = h("p", { class: "saved", role: "status" });
  const form = h("form", { class: "panel narrow" }, h("h1", {}, gettext("Forgot your password?")),
    h("p", { class: "help" }, gettext("Give the confirmed e-mail address of your account: a link to choose a new password is sent to it.")),
    field(gettext("E-mail address"), email), error, sent,
    h("button", { type: "submit", class: "primary" }, gettext("Send me a link")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = sent.textContent = "";
    try {
      sent.textContent = (await post("/auth/password-reset", { email: email.value })).detail;
    } catch (failure) {
      error.textContent = fieldMessage(failure);
    }
  });
  root.replaceChildren(form);
  email.focus();
}

function reset(root, ctx) {
  const fresh = h("input", { name: "new_password", type: "password", required: true, autocomplete: "new-password" });
  const error = h("p", { class: "field-error", role: "alert" });
  const form = h("form", { class: "panel narrow" }, h("h1", {}, gettext("Choose a new password")),
    h("p", { class: "help" }, gettext("Every device signed in to your account is signed out.")),
    field(gettext("New password"), fresh), error,
    h("button", { type: "submit", class: "primary" }, gettext("Save the new password")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      await post("/auth/password-reset/confirm", { token: token(), new_password: fresh.value });
      ctx.setMe(null);
      root.replaceChildren(h("section", { class: "panel narrow" }, h("h1", {}, gettext("Your password is changed.")),
        h("p", { role: "status" }, gettext("Sign in with it on each of your devices.")), h("a", { href: "/login", "data-link": true, class: "button" }, gettext("Log in"))));
    } catch (failure) {
      error.textContent = fieldMessage(failure);
    }
  });
  root.replaceChildren(form);
  fresh.focus();
}

async function confirmEmail(root, ctx) {
  const said = h("p", { role: "status" }, gettext("Confirming your address…"));
  root.replaceChildren(h("section", { class: "panel narrow" }, h("h1", {}, gettext("E-mail address")), said));
  if (!token()) {
    said.textContent = gettext("This link holds no token: open the whole link from the e-mail.");
    return;
  }
  try {
    const { email } = await post("/auth/email/confirm", { token: token() });
    said.textContent = gettext("Your address is confirmed: it is the one your account uses now.") + ` (${email})`;
    if (ctx.me) ctx.setMe({ ...ctx.me, email, email_confirmed: true });
  } catch (failure) {
    said.setAttribute("role", "alert");
    said.classList.add("field-error");
    said.textContent = failure.message;
  }
}

export function mount(root, ctx, name) {
  if (name === "account-forgot") return forgot(root);
  if (name === "account-reset") return reset(root, ctx);
  return confirmEmail(root, ctx);
}
