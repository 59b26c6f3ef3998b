// Personal API tokens: create (the secret shown once), list, revoke.
import { del, fieldMessage, get, post } from "../api.js";
import { field, h, when } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";

export async function mount(root, ctx) {
  if (!ctx.me) return ctx.navigate("/login", { replace: true });
  const name = h("input", { name: "name", required: true, maxlength: "64" });
  const error = h("p", { class: "field-error", role: "alert" });
  const fresh = h("div", { class: "fresh-token", role: "status" });
  const list = h("tbody");
  const form = h("form", { class: "inline" }, field(gettext("Token name"), name), h("button", { type: "submit", class: "primary" }, gettext("Create token")), error);

  async function refresh() {
    const tokens = await get("/tokens");
    list.replaceChildren(...tokens.map((token) =>
      h("tr", {}, h("td", {}, token.name), h("td", {}, h("code", {}, `${token.prefix}…`)), h("td", {}, when(token.created_at)),
        h("td", {}, when(token.last_used_at) || gettext("never")),
        h("td", {}, h("button", { type: "button", class: "danger", "aria-label": interpolate(gettext("Revoke %(name)s"), { name: token.name }, true), onclick: async () => { await del(`/tokens/${token.id}`); fresh.replaceChildren(); await refresh(); } }, gettext("Revoke"))))));
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const token = await post("/tokens", { name: name.value });
      name.value = "";
      fresh.replaceChildren(
        h("p", {}, interpolate(gettext("Your new token “%(name)s”. Copy it now: it is shown only this once."), { name: token.name }, true)),
        h("code", { class: "secret", "data-token": "" }, token.token),
        h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(token.token) }, gettext("Copy")));
      await refresh();
    } catch (failure) {
      error.textContent = fieldMessage(failure);
    }
  });
  root.replaceChildren(h("section", { class: "panel" }, h("h1", {}, gettext("API tokens")),
    h("p", {}, gettext("Third-party clients play for you with a token: send it in this header:"), " ", h("code", {}, "Authorization: Bearer <token>"), " ",
      h("a", { href: "/api/docs/" }, gettext("API docs"))),
    form, fresh,
    h("table", {}, h("thead", {}, h("tr", {}, [gettext("Name"), gettext("Starts with"), gettext("Created"), gettext("Last used")].map((t) => h("th", { scope: "col" }, t)),
      h("th", { scope: "col" }, h("span", { class: "sr-only" }, gettext("Revoke"))))), list)));
  await refresh();
}
