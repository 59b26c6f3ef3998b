// Start-up: who is signed in, the header, and the router that mounts one page at a time.
import { post } from "./api.js";
import { h } from "./dom.js";
import { match } from "./router.js";
import { loadMe } from "./session.js";

const app = document.getElementById("app");
const nav = document.getElementById("nav");
const banner = document.getElementById("banner");
const messages = document.getElementById("messages");
const announcer = document.getElementById("announcer");
let unmount = null;
let messageTimer = 0;

const ctx = {
  me: null,
  navigate(path, { replace = false } = {}) {
    if (replace) history.replaceState(null, "", path);
    else history.pushState(null, "", path);
    route();
  },
  setMe(me) {
    ctx.me = me;
    drawNav();
  },
  /** The connection banner: a sentence, or null to hide it. */
  banner(text) {
    banner.hidden = !text;
    banner.textContent = text ?? "";
  },
  /** A message the player must see (refused move, error); stays a few seconds. */
  notify(text, kind = "info", code = "") {
    clearTimeout(messageTimer);
    messages.replaceChildren(h("p", { class: `message ${kind}`, "data-code": code }, text));
    messageTimer = setTimeout(() => messages.replaceChildren(), 6000);
  },
  announce(text) {
    announcer.textContent = text;
  },
};

function link(path, text) {
  return h("a", { href: path, "data-link": true }, text);
}

function drawNav() {
  const me = ctx.me;
  const items = [link("/", "Play"), link("/watch", "Watch"), link("/daily", "Daily"), link("/leaderboards", "Leaderboards")];
  if (me) {
    items.push(link("/games", "My games"), link("/settings", "Settings"), link("/tokens", "API tokens"));
    items.push(
      h("button", { type: "button", class: "link", onclick: logout }, `Log out (${me.username})`),
    );
  } else {
    items.push(link("/login", "Log in"), link("/signup", "Sign up"));
  }
  nav.replaceChildren(...items);
}

async function logout() {
  await post("/auth/logout").catch(() => null);
  ctx.setMe(null);
  ctx.navigate("/login");
}

async function route() {
  unmount?.();
  unmount = null;
  ctx.banner(null);
  messages.replaceChildren();
  const found = match(location.pathname);
  if (!found) {
    app.replaceChildren(h("h1", {}, "Page not found"), link("/", "Back to the table"));
    return;
  }
  document.body.dataset.page = found.name;
  const page = await found.load();
  unmount = (await page.mount(app, ctx, found.name, ...found.params)) ?? null;
}

document.addEventListener("click", (event) => {
  const a = event.target.closest("a[data-link]");
  if (!a || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  ctx.navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", route);

ctx.setMe(await loadMe());
await route();
performance.mark("yukon-interactive");
document.body.dataset.ready = "true";
