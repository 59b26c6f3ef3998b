// Your account: the e-mail address, the password, "Download my data", leaving. Every rule
// (validators, links, throttles) is the server's; this page sends intents and shows answers.
import { fieldMessage, get, post } from "../api.js";
import { ask } from "../dialogs.js";
import { field, h, when } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";

/** A form whose submit runs `send` and shows its answer (or refusal) in its status line. */
function form(title, fields, button, send, { danger = false } = {}) {
  const status = h("p", { class: "field-error", role: "alert" });
  const done = h("p", { class: "saved", role: "status" });
  const element = h("form", { class: "account-form" }, h("h2", {}, title), fields, status, done,
    h("button", { type: "submit", class: danger ? "danger" : "primary" }, button));
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = done.textContent = "";
    try {
      done.textContent = (await send()) ?? "";
    } catch (failure) {
      status.textContent = fieldMessage(failure);
    }
  });
  return element;
}

const password = (name, autocomplete) => h("input", { name, type: "password", required: true, autocomplete });

function emailForm(ctx) {
  const email = h("input", { name: "email", type: "email", required: true, autocomplete: "email", value: ctx.me.email });
  const state = ctx.me.email
    ? interpolate(ctx.me.email_confirmed ? gettext("Your address %(address)s is confirmed.") : gettext("Your address %(address)s is not confirmed yet: a forgotten password cannot be reset through it."), { address: ctx.me.email }, true)
    : gettext("No e-mail address yet: without a confirmed one, a forgotten password cannot be reset.");
  return form(gettext("E-mail address"), [h("p", { class: "note", "data-email-state": "" }, state), field(gettext("E-mail address"), email)],
    gettext("Send a confirmation link"), async () => (await post("/me/email", { email: email.value })).detail);
}

function passwordForm() {
  const current = password("current_password", "current-password");
  const fresh = password("new_password", "new-password");
  return form(gettext("Password"), [field(gettext("Current password"), current), field(gettext("New password"), fresh),
    h("p", { class: "help" }, gettext("Your other devices are signed out; this one stays signed in."))],
  gettext("Change password"), async () => {
    await post("/me/password", { current_password: current.value, new_password: fresh.value });
    current.value = fresh.value = "";
    return gettext("Your password is changed.");
  });
}

/** "Download my data": ask, then follow the task's progress until the archive is ready. */
function exportSection(ctx) {
  const progress = h("progress", { max: "1", value: "0", hidden: true, "aria-label": gettext("Gathering your data") });
  const state = h("p", { role: "status", "data-export-state": "" });
  let timer = null;
  function show(job) {
    clearTimeout(timer);
    if (!job) return;
    const ready = job.status === "ready";
    progress.hidden = ready;
    progress.max = Math.max(job.games_total, 1);
    progress.value = job.games_done;
    state.replaceChildren(ready
      ? h("a", { href: job.download, download: "" }, interpolate(gettext("Download the archive (until %(date)s)"), { date: when(job.expires_at) }, true))
      : interpolate(gettext("Gathering your data: %(done)s of %(total)s games."), { done: job.games_done, total: job.games_total }, true));
    if (!ready) timer = setTimeout(() => refresh(), 1000);
  }
  async function refresh() {
    if (ctx.signal.aborted) return;
    try {
      show(await get("/me/export"));
    } catch (failure) {
      state.textContent = failure.message;
    }
  }
  const section = form(gettext("Download my data"),
    [h("p", { class: "help" }, gettext("One zip file: your account, settings, ratings and puzzles as JSON, and every game (code, rule, result, times, moves) as CSV. Only you can download it, until the date its link shows.")), progress, state],
    gettext("Prepare my data"), async () => {
      try {
        show(await post("/me/export"));
      } catch (failure) {
        if (failure.code !== "export-in-progress") throw failure;
        await refresh();
        return failure.message;
      }
      return "";
    });
  ctx.signal.addEventListener("abort", () => clearTimeout(timer));
  refresh();
  return section;
}

function deleteForm(ctx) {
  const secret = password("password", "current-password");
  const fields = [h("p", { class: "help" }, gettext("Your games, statistics, ratings, puzzles, tokens and app grants are deleted, and every device is signed out. A game in play is resigned first. Races others played with you keep their results under “deleted player”."))];
  if (!ctx.me.guest) fields.push(field(gettext("Password"), secret));
  return form(gettext("Delete my account"), fields, gettext("Delete my account for good"), async () => {
    const sure = await ask(gettext("Delete my account"), gettext("Delete your account for good? There is no way back."),
      [{ label: gettext("Delete my account for good"), value: "delete", kind: "danger" }]);
    if (sure !== "delete") return "";
    await post("/me/delete", { password: secret.value });
    ctx.setMe(null);
    ctx.navigate("/");
    return "";
  }, { danger: true });
}

export function mount(root, ctx) {
  if (!ctx.me) return ctx.navigate("/login", { replace: true });
  const registered = !ctx.me.guest;
  root.replaceChildren(h("section", { class: "panel narrow" }, h("h1", {}, gettext("Your account")),
    registered ? emailForm(ctx) : null, registered ? passwordForm() : null, exportSection(ctx), deleteForm(ctx)));
}

