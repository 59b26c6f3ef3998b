// Sign up and log in: a session cookie for the browser.
import { fieldMessage, post } from "../api.js";
import { field, h } from "../dom.js";

export function mount(root, ctx, name) {
  const signup = name === "signup";
  const username = h("input", { name: "username", autocomplete: "username", required: true });
  const email = h("input", { name: "email", type: "email", autocomplete: "email" });
  const password = h("input", { name: "password", type: "password", required: true, autocomplete: signup ? "new-password" : "current-password" });
  const error = h("p", { class: "field-error", role: "alert" });
  const form = h("form", { class: "panel narrow" },
    h("h1", {}, signup ? "Sign up" : "Log in"),
    field("Username", username),
    signup ? field("Email (optional)", email) : null,
    field("Password", password),
    error,
    h("button", { type: "submit", class: "primary" }, signup ? "Create my account" : "Log in"),
    h("p", {}, signup ? "Already have an account? " : "New here? ",
      h("a", { href: signup ? "/login" : "/signup", "data-link": true }, signup ? "Log in" : "Sign up")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const body = { username: username.value, password: password.value };
    if (signup) body.email = email.value;
    try {
      const me = await post(signup ? "/auth/register" : "/auth/login", body);
      ctx.setMe(me);
      ctx.navigate("/");
    } catch (failure) {
      error.textContent = fieldMessage(failure);
    }
  });
  root.replaceChildren(form);
  username.focus();
}
