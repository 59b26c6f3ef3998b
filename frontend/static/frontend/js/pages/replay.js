// Replay a ranked game of a closed day: the public board after every log entry, stepped with
// first/previous/next/last/play, drawn by the table's renderer with no input attached.
import { get } from "../api.js";
import { h } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { Renderer } from "../render.js";
import { stepTo } from "../standings.js";
import { playerLink } from "../tables.js";
import { dayInSentence, outcome } from "./daily.js";

const PLAY_EVERY_MS = 600;
const NOTHING = new Set();

export async function mount(root, _ctx, _name, day, gameId) {
  let replay;
  try {
    replay = await get(`/daily/${day}/games/${gameId}/replay`);
  } catch (error) {
    root.replaceChildren(h("section", { class: "panel" },
      h("h1", {}, gettext("No replay")), h("p", {}, error.message),
      h("a", { href: `/daily/${day}`, "data-link": true }, gettext("Back to the day's ranking"))));
    return null;
  }
  const { game, steps } = replay;
  let index = 0;
  let playing = 0;

  const position = h("input", {
    type: "range", min: "0", max: String(steps.length - 1), value: "0", "aria-label": gettext("Step"),
    oninput: (event) => show(stepTo(event.target.value, index, steps.length)),
  });
  const where = h("p", { class: "replay-step", role: "status", "aria-live": "polite" });
  const button = (action, label, text) => h("button", { type: "button", "data-step": action, "aria-label": label, onclick: () => go(action) }, text);
  const playButton = h("button", { type: "button", class: "primary", "data-step": "play", onclick: togglePlay });
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": gettext("Replay controls") },
    button("first", gettext("First step"), "« " + gettext("First")), button("prev", gettext("Previous step"), "‹ " + gettext("Previous")),
    playButton,
    button("next", gettext("Next step"), gettext("Next") + " ›"), button("last", gettext("Last step"), gettext("Last") + " »"),
    position);
  const boardEl = h("div", { class: "board replay-board", "aria-label": gettext("The table at this step") });
  const summary = { status: game.status, moves: game.move_count, elapsed_seconds: game.elapsed_seconds, cards_on_foundations: game.cards_on_foundations };
  const panel = h("section", { class: "panel replay" },
      h("h1", {}, interpolate(gettext("Replay of the daily deal of %(date)s"), { date: dayInSentence(day) }, true)),
      h("p", {}, gettext("Player:"), " ", playerLink(game.owner), " · ", outcome(summary),
        game.code ? [" · ", gettext("Deal code:"), " ", h("code", {}, game.code)] : null),
      h("p", {}, h("a", { href: `/daily/${day}`, "data-link": true }, gettext("Back to the day's ranking"))),
      controls, where);
  root.replaceChildren(panel, boardEl);

  const renderer = new Renderer(boardEl);
  const draw = () => {
    const top = boardEl.getBoundingClientRect().top + window.scrollY;
    renderer.draw({
      state: steps[index],
      width: boardEl.clientWidth,
      height: Math.max(window.innerHeight - top, 360),
      highlights: NOTHING,
      cursor: null,
      picked: NOTHING,
    });
  };

  function show(next) {
    index = next;
    const step = steps[index];
    position.value = String(index);
    where.textContent = index === 0
      ? interpolate(gettext("Step 0 of %(last)s: the deal"), { last: formatNumber(steps.length - 1) }, true)
      : interpolate(ngettext("Step %(step)s of %(last)s: %(move)s · %(moves)s move · score %(score)s",
        "Step %(step)s of %(last)s: %(move)s · %(moves)s moves · score %(score)s", step.move_count),
        { step: formatNumber(index), last: formatNumber(steps.length - 1), move: step.move, moves: formatNumber(step.move_count), score: formatNumber(step.score) }, true);
    panel.dataset.step = String(index);
    for (const action of ["first", "prev"]) controls.querySelector(`[data-step=${action}]`).disabled = index === 0;
    for (const action of ["next", "last"]) controls.querySelector(`[data-step=${action}]`).disabled = index === steps.length - 1;
    if (index === steps.length - 1) stop();
    draw();
  }

  function go(action) {
    stop();
    show(stepTo(action, index, steps.length));
  }

  function stop() {
    clearInterval(playing);
    playing = 0;
    playButton.textContent = pgettext("replay button", "Play");
    playButton.setAttribute("aria-pressed", "false");
  }

  function togglePlay() {
    if (playing) return stop();
    if (index === steps.length - 1) show(0);
    playing = setInterval(() => show(stepTo("next", index, steps.length)), PLAY_EVERY_MS);
    playButton.textContent = pgettext("replay button", "Pause");
    playButton.setAttribute("aria-pressed", "true");
  }

  const onKey = (event) => {
    if (event.target.closest("input, textarea, dialog")) return;
    const action = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (action) {
      event.preventDefault();
      go(action);
    } else if (event.key === " " && !event.target.closest("button")) {
      event.preventDefault();
      togglePlay();
    }
  };
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", draw);
  stop();
  show(0);
  return () => {
    stop();
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", draw);
  };
}
