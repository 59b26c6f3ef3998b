// Replay a ranked game of a closed day: the public board after every log entry, stepped with
// first/previous/next/last/play, drawn by the table's renderer with no input attached. Beside
// it, the solver's analysis: a strip of verdicts along the timeline, the losing move and a
// better one. A closed day's page also replays a solver's winning line of the deal.
import { get } from "../api.js";
import { h } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { Renderer } from "../render.js";
import { stepTo } from "../standings.js";
import { playerLink } from "../tables.js";
import { ruleFromQuery, ruleQuery } from "../variants.js";
import { dayInSentence, outcome } from "./daily.js";

const PLAY_EVERY_MS = 600;
const NOTHING = new Set();
const WAIT_FOR_SOLVER_MS = 2000;

const VERDICT_WORDS = () => ({
  winnable: gettext("winnable"),
  unwinnable: gettext("no longer winnable"),
  unknown: gettext("unknown (the solver's budget ran out)"),
});

/** The closed day's solver line, asked again while a worker is still looking for it. */
async function solverLine(day, rule, isMounted) {
  for (;;) {
    const line = await get(`/daily/${day}/line${ruleQuery(rule)}`);
    if (line.status !== "pending" || !isMounted()) return line;
    await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_SOLVER_MS));
  }
}

export async function mount(root, _ctx, name, day, gameId) {
  let mounted = true;
  const isLine = name === "daily-line";
  const rule = ruleFromQuery(new URLSearchParams(location.search));
  const back = `/daily/${day}${ruleQuery(rule)}`;
  let replay;
  try {
    if (isLine) {
      root.replaceChildren(h("section", { class: "panel" }, h("p", { role: "status" }, gettext("The solver is finding a winning line…"))));
      const line = await solverLine(day, rule, () => mounted);
      replay = { game: null, steps: line.steps };
    } else {
      replay = await get(`/daily/${day}/games/${gameId}/replay${ruleQuery(rule)}`);
    }
  } catch (error) {
    root.replaceChildren(h("section", { class: "panel" },
      h("h1", {}, gettext("No replay")), h("p", {}, error.message),
      h("a", { href: back, "data-link": true }, gettext("Back to the day's ranking"))));
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
  const about = game
    ? h("p", {}, gettext("Player:"), " ", playerLink(game.owner), " · ",
      outcome({ status: game.status, moves: game.move_count, elapsed_seconds: game.elapsed_seconds, cards_on_foundations: game.cards_on_foundations }),
      game.code ? [" · ", gettext("Deal code:"), " ", h("code", {}, game.code)] : null)
    : h("p", {}, interpolate(ngettext("A winning line the solver found: %(moves)s move.", "A winning line the solver found: %(moves)s moves.", steps.length - 1), { moves: steps.length - 1 }, true));
  const analysisBox = h("div", { class: "analysis", "aria-live": "polite" });
  const panel = h("section", { class: "panel replay" },
      h("h1", {}, interpolate(isLine ? gettext("A solver's line for the daily deal of %(date)s") : gettext("Replay of the daily deal of %(date)s"), { date: dayInSentence(day) }, true)),
      about,
      h("p", {}, h("a", { href: back, "data-link": true }, gettext("Back to the day's ranking"))),
      controls, where, analysisBox);
  root.replaceChildren(panel, boardEl);
  let shown = null; // a board that is not a step of the log (the better move), or null

  const renderer = new Renderer(boardEl);
  const draw = () => {
    const top = boardEl.getBoundingClientRect().top + window.scrollY;
    renderer.draw({
      state: shown ?? steps[index],
      width: boardEl.clientWidth,
      height: Math.max(window.innerHeight - top, 360),
      highlights: NOTHING,
      cursor: null,
      picked: NOTHING,
    });
  };

  function show(next) {
    index = next;
    shown = null;
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
    strip?.querySelectorAll("[data-version]").forEach((cell) => cell.classList.toggle("current", Number(cell.dataset.version) === index));
    draw();
  }

  let strip = null;
  /** The analysis strip and its findings, once the server has them (it may still be running). */
  function drawAnalysis(analysis) {
    const words = VERDICT_WORDS();
    const byVersion = new Map(analysis.verdicts.map((v) => [v.version, v]));
    strip = h("div", { class: "verdict-strip", role: "group", "aria-label": gettext("The solver's verdict at every step") },
      steps.map((_, version) => {
        const verdict = byVersion.get(version)?.verdict ?? "pending";
        const label = interpolate(gettext("Step %(step)s: %(verdict)s"), { step: version, verdict: words[verdict] ?? gettext("not analysed yet") }, true);
        return h("button", { type: "button", class: `verdict ${verdict}`, "data-version": String(version), title: label, "aria-label": label, onclick: () => jumpTo(version) });
      }));
    const notes = [];
    if (analysis.status !== "done") notes.push(h("p", { class: "note" }, gettext("The analysis is still running: the strip fills in as it goes.")));
    const losing = analysis.losing_move;
    if (losing) {
      notes.push(h("p", { class: "losing" }, interpolate(gettext("The game was lost at step %(step)s (%(move)s); %(better)s there would have kept it winnable."), { step: losing.version, move: losing.move, better: losing.better_move }, true)),
        h("div", { class: "actions" },
          h("button", { type: "button", "data-analysis": "losing", onclick: () => jumpTo(losing.version) }, gettext("Jump to the losing move")),
          h("button", { type: "button", "data-analysis": "better", onclick: () => showBetter(losing) }, gettext("Play the better move"))));
    }
    if (analysis.extra_moves !== null) {
      notes.push(h("p", {}, interpolate(ngettext("Won in %(extra)s move more than the shortest line the solver found (%(shortest)s).",
        "Won in %(extra)s moves more than the shortest line the solver found (%(shortest)s).", analysis.extra_moves),
        { extra: analysis.extra_moves, shortest: analysis.shortest_line }, true)));
    }
    analysisBox.replaceChildren(h("h2", {}, gettext("Analysis")), strip, ...notes);
    show(index);
  }

  function jumpTo(version) {
    stop();
    show(version);
  }

  function showBetter(losing) {
    stop();
    show(losing.version - 1);
    shown = losing.better_board;
    where.textContent = interpolate(gettext("Step %(step)s with the better move %(move)s instead (a card it turns up stays face down)"), { step: losing.version, move: losing.better_move }, true);
    panel.dataset.step = "better";
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
  if (!isLine) {
    get(`/games/${gameId}/analysis`).then((analysis) => { if (mounted && analysis.status !== "not-finished") drawAnalysis(analysis); }).catch(() => {});
  }
  return () => {
    mounted = false;
    stop();
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", draw);
  };
}
