// Start-up: who is signed in, the header, and the router that mounts one page at a time.
import { patch, post } from "./api.js";
import { h } from "./dom.js";
import { gettext, interpolate, rememberLanguage } from "./i18n.js";
import { closeMenus, disclosure } from "./menus.js";
import { match } from "./router.js";
import { applyLook, signedIn } from "./session.js";

let app = document.getElementById("app");
const header = document.getElementById("top");
const menu = document.getElementById("menu");
const nav = document.getElementById("nav");
const banner = document.getElementById("banner");
const messages = document.getElementById("messages");
const messagesHome = { parent: messages.parentElement, next: messages.nextSibling };
const announcer = document.getElementById("announcer");
/** The page asked for last: its clean-up once mounted, and the signal its leaving aborts. */
let visit = null;
let firstPage = true;
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
   * rule on the rules page. A message about a state (`scope`, say "board": a refusal, a hint)
   * has no timer: it stays until that state is gone (`endMessages(scope)`) or it is dismissed.
   */
  notify(text, kind = "info", code = "", rule = "", { scope = "" } = {}) {
    clearTimeout(messageTimer);
    const more = rule
      ? [" ", h("a", { href: `/rules#${rule}`, target: "_blank", class: "rule-link" }, gettext("Read the rule"))]
      : [];
    const dismiss = () => {
      clearTimeout(messageTimer);
      messages.replaceChildren();
    };
    const close = h("button", { type: "button", class: "dismiss", "aria-label": gettext("Dismiss the message"), onclick: dismiss });
    messages.replaceChildren(h("p", { class: `message ${kind}`, "data-code": code, "data-rule": rule || null, "data-scope": scope || null }, close, text, ...more));
    if (!scope) messageTimer = setTimeout(dismiss, rule ? 10000 : 6000);
  },
  /** Take down the shown message if it is about `scope`'s state, which is gone. */
  endMessages(scope) {
    if (messages.querySelector(`.message[data-scope="${scope}"]`)) messages.replaceChildren();
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

/**
 * The navigation: the pages everyone has, then the account's part (signing in, or one's own
 * pages under a menu named by the player). Each part keeps to one row: a header too narrow for
 * it folds everything under its Menu button (fitHeader).
 */
function drawNav() {
  const me = ctx.me;
  nav.replaceChildren(link("/", gettext("Play")), link("/watch", gettext("Watch")), link("/daily", gettext("Daily")),
    link("/puzzles", gettext("Puzzles")), link("/races", gettext("Races")), link("/leaderboards", gettext("Leaderboards")),
    link("/rules", gettext("Rules")), account(me));
  fitHeader();
}

function account(me) {
  if (!me) return h("div", { class: "account" }, link("/login", gettext("Log in")), link("/signup", gettext("Sign up")));
  // A guest has no password: signing out would lose the games, so the way out is signing up;
  // and no public profile.
  const items = me.guest
    ? [link("/games", gettext("My games")), link("/settings", gettext("Settings")), link("/account", gettext("Account")), link("/login", gettext("Log in"))]
    : [link(`/players/${encodeURIComponent(me.username)}`, gettext("My profile")), link("/games", gettext("My games")),
      link("/settings", gettext("Settings")), link("/account", gettext("Account")), link("/security", gettext("Account security")), link("/tokens", gettext("API tokens")),
      h("button", { type: "button", class: "link", onclick: logout }, interpolate(gettext("Log out (%(name)s)"), { name: me.username }, true))];
  const toggle = h("button", { type: "button", class: me.guest ? "account-toggle guest-badge" : "account-toggle", "aria-controls": "account-items" },
    me.guest ? gettext("Guest") : h("span", { class: "name" }, me.username));
  const box = h("div", { class: "account" },
    me.guest ? h("a", { href: "/signup", "data-link": true, class: "button", "data-action": "keep-games" }, gettext("Sign up to keep your games")) : null,
    toggle, h("div", { id: "account-items", class: "account-items" }, items));
  disclosure(box, toggle);
  return box;
}

/** One row: the whole navigation where it fits, else the Menu button that holds it. */
function fitHeader() {
  const was = header.classList.contains("compact");
  header.classList.remove("compact");
  const compact = menu.scrollWidth > menu.clientWidth;
  header.classList.toggle("compact", compact);
  if (compact !== was) closeMenus();
}

async function logout() {
  await post("/auth/logout").catch(() => null);
  ctx.setMe(null);
  ctx.navigate("/login");
}

/**
 * Show the page of the address. A page left while it still waits for its data (a busy
 * server) must not draw over the next one: each page after the first gets a fresh #app (the
 * first keeps what the server wrote into it, such as the rules), so a late page draws out of
 * the document, and its clean-up runs as soon as its mount returns.
 */
async function route() {
  closeMenus();
  leave();
  const current = { left: new AbortController(), unmount: null };
  visit = current;
  ctx.banner(null);
  ctx.dockMessages(null);
  messages.replaceChildren();
  const root = freshApp();
  const found = match(location.pathname);
  if (!found) {
    root.replaceChildren(h("h1", {}, gettext("Page not found")), link("/", gettext("Back to the table")));
    return;
  }
  document.body.dataset.page = found.name;
  const page = await found.load();
  if (current.left.signal.aborted) return;
  const unmount = (await page.mount(root, pageContext(current.left.signal), found.name, ...found.params)) ?? null;
  if (current.left.signal.aborted) unmount?.();
  else current.unmount = unmount;
}

/** The page on screen goes: its leaving signal aborts, its clean-up runs. */
function leave() {
  visit?.left.abort();
  visit?.unmount?.();
  visit = null;
}

/** The #app the next page draws into: the server's on the first page, else a new empty one. */
function freshApp() {
  if (!firstPage) {
    const next = h("main", { id: "app" });
    app.replaceWith(next);
    app = next;
  }
  firstPage = false;
  return app;
}

/**
 * The context one page sees: the shared one, plus `signal` (aborted when the page is left);
 * once left, the page can no longer navigate, dock the messages or set the banner.
 */
function pageContext(signal) {
  const whileShown = (action) => (...args) => (signal.aborted ? undefined : action(...args));
  return Object.assign(Object.create(ctx), {
    signal,
    navigate: whileShown(ctx.navigate),
    dockMessages: whileShown(ctx.dockMessages),
    banner: whileShown(ctx.banner),
  });
}

document.addEventListener("click", (event) => {
  const a = event.target.closest("a[data-link]");
  if (!a || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  ctx.navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", route);
window.addEventListener("resize", fitHeader);
document.fonts?.ready.then(fitHeader);
disclosure(header, header.querySelector(".menu-toggle"));

/**
 * "Skip to the table": focus the page's board, ready for the arrow keys (a link to #app alone
 * leaves the focus on the body); a page without a board gets its main part focused.
 */
document.querySelector("a.skip")?.addEventListener("click", (event) => {
  event.preventDefault();
  const board = app.querySelector(".board[tabindex]");
  if (!board) app.tabIndex = -1;
  (board ?? app).focus();
});

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
