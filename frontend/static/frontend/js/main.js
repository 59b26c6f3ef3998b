// Start-up: who is signed in, the header, and the router that mounts one page at a time.
import { patch, post } from "./api.js";
import { h } from "./dom.js";
import { gettext, interpolate, rememberLanguage } from "./i18n.js";
import { match } from "./router.js";
import { applyLook, signedIn } from "./session.js";

const app = document.getElementById("app");
const nav = document.getElementById("nav");
const banner = document.getElementById("banner");
const messages = document.getElementById("messages");
const messagesHome = { parent: messages.parentElement, next: messages.nextSibling };
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
    applyLook(me?.settings);
    drawNav();
  },
  /** The connection banner: a sentence, or null to hide it. */
  banner(text) {
    banner.hidden = !text;
    banner.textContent = text ?? "";
  },
  /**
   * A message the player must see (refused move, error); stays a few seconds or until
   * dismissed. A refused move names its rule family (`rule`): the message then links to that
   * rule on the rules page.
   */
  notify(text, kind = "info", code = "", rule = "") {
    clearTimeout(messageTimer);
    const more = rule
      ? [" ", h("a", { href: `/rules#${rule}`, target: "_blank", class: "rule-link" }, gettext("Read the rule"))]
      : [];
    const dismiss = () => {
      clearTimeout(messageTimer);
      messages.replaceChildren();
    };
    const close = h("button", { type: "button", class: "dismiss", "aria-label": gettext("Dismiss the message"), onclick: dismiss });
    messages.replaceChildren(h("p", { class: `message ${kind}`, "data-code": code, "data-rule": rule || null }, close, text, ...more));
    messageTimer = setTimeout(dismiss, rule ? 10000 : 6000);
  },
  /**
   * Show messages inside `el` (a page's place where they hide nothing it needs), or back in
   * their own place for null. The shown message moves along.
   */
  dockMessages(el) {
    messages.classList.toggle("docked", Boolean(el));
    if (el) el.append(messages);
    else if (messages.parentElement !== messagesHome.parent) {
      messagesHome.parent.insertBefore(messages, messagesHome.next);
    }
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
  const items = [link("/", gettext("Play")), link("/watch", gettext("Watch")), link("/daily", gettext("Daily")), link("/races", gettext("Races")),
    link("/leaderboards", gettext("Leaderboards")), link("/rules", gettext("Rules"))];
  if (me?.guest) {
    // A guest has no password: signing out would lose the games, so the way out is signing up.
    items.push(link("/games", gettext("My games")), link("/settings", gettext("Settings")),
      h("span", { class: "guest-badge" }, gettext("Guest")),
      h("a", { href: "/signup", "data-link": true, class: "button", "data-action": "keep-games" }, gettext("Sign up to keep your games")),
      link("/login", gettext("Log in")));
  } else if (me) {
    items.push(link("/games", gettext("My games")), link("/settings", gettext("Settings")), link("/tokens", gettext("API tokens")));
    items.push(
      h("button", { type: "button", class: "link", onclick: logout }, interpolate(gettext("Log out (%(name)s)"), { name: me.username }, true)),
    );
  } else {
    items.push(link("/login", gettext("Log in")), link("/signup", gettext("Sign up")));
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
  ctx.dockMessages(null);
  messages.replaceChildren();
  const found = match(location.pathname);
  if (!found) {
    app.replaceChildren(h("h1", {}, gettext("Page not found")), link("/", gettext("Back to the table")));
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

/** The language menu: remember the choice (and store it for a signed-in player), then reload. */
document.getElementById("language")?.addEventListener("change", async (event) => {
  const code = event.target.value;
  rememberLanguage(code);
  if (ctx.me) await patch("/me/settings", { language: code }).catch(() => null);
  location.reload();
});

ctx.setMe(signedIn());
await route();
performance.mark("yukon-interactive");
document.body.dataset.ready = "true";
