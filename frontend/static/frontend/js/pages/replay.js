// Replay a game: the public board after every log entry, stepped with first/previous/next/last/
// play, drawn by the table's renderer with no input attached, the next move's cards outlined.
// Beside it, the solver's analysis: a strip of verdicts along the timeline (with its legend),
// where the win was lost (the move, shown on the board, and a winning line from the position
// before it, playable step by step), for one's own game "Retry from here", and at any step
// "Open board" (the analysis board, pages/board.js). Routes: any
// game (/game/<id>/replay), a closed day's ranked game, a closed day's solver line.
import { get, post } from "../api.js";
import { describeMove } from "../cards.js";
import { h } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { Renderer, redrawOnResize } from "../render.js";
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
  pending: gettext("not analysed yet"),
});

/** The closed day's solver line, asked again while a worker is still looking for it. */
async function solverLine(day, rule, isShown) {
  for (;;) {
    const line = await get(`/daily/${day}/line${ruleQuery(rule)}`);
    if (line.status !== "pending" || !isShown()) return line;
    await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_SOLVER_MS));
  }
}

/** What to load and say for each route: the steps, the game, the title, the way back. */
async function load(name, ids, ctx, isShown) {
  if (name === "game-replay") {
    const [gameId] = ids;
    const replay = await get(`/games/${gameId}/replay`);
    const mine = ctx.me?.username === replay.game.owner;
    return {
      ...replay,
      gameId,
      mine,
      title: mine ? gettext("Your game, step by step") : interpolate(gettext("%(name)s's game, step by step"), { name: replay.game.owner }, true),
      back: mine ? { href: "/games", text: gettext("Back to my games") }
        : { href: `/players/${encodeURIComponent(replay.game.owner)}`, text: interpolate(gettext("Back to %(name)s's profile"), { name: replay.game.owner }, true) },
    };
  }
  const [day, gameId] = ids;
  const rule = ruleFromQuery(new URLSearchParams(location.search));
  const back = { href: `/daily/${day}${ruleQuery(rule)}`, text: gettext("Back to the day's ranking") };
  if (name === "daily-line") {
    const line = await solverLine(day, rule, isShown);
    return { game: null, steps: line.steps, back, title: interpolate(gettext("A solver's line for the daily deal of %(date)s"), { date: dayInSentence(day) }, true) };
  }
  const replay = await get(`/daily/${day}/games/${gameId}/replay${ruleQuery(rule)}`);
  return { ...replay, gameId, mine: ctx.me?.username === replay.game.owner, back,
    title: interpolate(gettext("Replay of the daily deal of %(date)s"), { date: dayInSentence(day) }, true) };
}

export async function mount(root, ctx, name, ...ids) {
  // Left while the solver still looks (or the analysis runs): stop asking.
  const shown = () => !ctx.signal.aborted;
  if (name === "daily-line") {
    root.replaceChildren(h("section", { class: "panel" }, h("p", { role: "status" }, gettext("The solver is finding a winning line…"))));
  }
  let page;
  try {
    page = await load(name, ids, ctx, shown);
  } catch (error) {
    root.replaceChildren(h("section", { class: "panel" },
      h("h1", {}, gettext("No replay")), h("p", {}, error.message),
      h("a", { href: "/games", "data-link": true }, gettext("Back to my games"))));
    return null;
  }
  if (!shown()) return null; // left while it loaded
  const { game } = page;
  const logSteps = page.steps;
  // What the controls step through: the game's log, or the winning line from where it was lost.
  let view = { steps: logSteps, moves: logSteps.slice(1).map((step) => step.move), line: false };
  let index = 0;
  let playing = 0;
  let analysis = null;

  const position = h("input", {
    type: "range", min: "0", max: String(logSteps.length - 1), value: "0", "aria-label": gettext("Step"),
    oninput: (event) => show(stepTo(event.target.value, index, view.steps.length)),
  });
  const where = h("p", { class: "replay-step", role: "status", "aria-live": "polite" });
  // Each button is named by its word (the arrow is only drawn), so a voice command saying
  // what the button shows reaches it, in every language.
  const arrow = (text) => h("span", { "aria-hidden": "true" }, text);
  const button = (action, ...content) => h("button", { type: "button", "data-step": action, onclick: () => go(action) }, ...content);
  const playButton = h("button", { type: "button", class: "primary", "data-step": "play", onclick: togglePlay });
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": gettext("Replay controls") },
    button("first", arrow("« "), gettext("First")), button("prev", arrow("‹ "), gettext("Previous")),
    playButton,
    button("next", gettext("Next"), arrow(" ›")), button("last", gettext("Last"), arrow(" »")),
    position);
  const retryButton = page.mine && game?.status !== "active"
    ? h("button", { type: "button", "data-action": "retry", onclick: retry }, gettext("Retry from here"))
    : null;
  // Any step of the game's log opens an analysis board there (the server says whether it may).
  const boardButton = page.gameId
    ? h("button", { type: "button", "data-action": "open-board", onclick: openBoard }, gettext("Open board"))
    : null;
  const lineBar = h("div", { class: "line-bar", hidden: true },
    h("button", { type: "button", "data-action": "back-to-game", onclick: () => showLog(analysis?.turning_point?.version - 1) }, gettext("Back to the game")));
  const boardEl = h("div", { class: "board replay-board", "aria-label": gettext("The table at this step") });
  const about = game
    ? h("p", {}, gettext("Player:"), " ", playerLink(game.owner), " · ",
      outcome({ status: game.status, moves: game.move_count, elapsed_seconds: game.elapsed_seconds, cards_on_foundations: game.cards_on_foundations }),
      game.code ? [" · ", gettext("Deal code:"), " ", h("code", {}, game.code)] : null)
    : h("p", {}, interpolate(ngettext("A winning line the solver found: %(moves)s move.", "A winning line the solver found: %(moves)s moves.", logSteps.length - 1), { moves: logSteps.length - 1 }, true));
  const analysisBox = h("div", { class: "analysis", "aria-live": "polite" });
  const panel = h("section", { class: "panel replay" },
    h("h1", {}, page.title),
    about,
    h("p", {}, h("a", { href: page.back.href, "data-link": true }, page.back.text)),
    controls, lineBar, where, retryButton || boardButton ? h("div", { class: "actions" }, retryButton, boardButton) : null, analysisBox);
  root.replaceChildren(panel, boardEl);

  const renderer = new Renderer(boardEl);
  /** The board of the current step, the next move's cards outlined and its target marked. */
  const draw = () => {
    const top = boardEl.getBoundingClientRect().top + window.scrollY;
    const state = view.steps[index];
    const next = view.moves[index];
    const described = next ? describeMove(next, state) : null;
    renderer.draw({
      state,
      width: boardEl.clientWidth,
      height: Math.max(window.innerHeight - top, 360),
      highlights: described ? new Set([described.to]) : NOTHING,
      marks: described ? { suit: described.cards[0].slice(-1) } : {},
      cursor: null,
      picked: described ? new Set(described.cards) : NOTHING,
    });
  };

  function stepText() {
    const last = view.steps.length - 1;
    const next = view.moves[index];
    const coming = next ? [" ", interpolate(gettext("Next: %(move)s."), { move: describeMove(next, view.steps[index]).text }, true)] : [];
    const played = (step) => (step.move === "undo" ? gettext("undo") : describeMove(step.move, view.steps[index - 1]).text);
    if (view.line) {
      const said = index === 0 ? gettext("The last winnable position.")
        : interpolate(gettext("Winning line, move %(step)s of %(last)s."), { step: formatNumber(index), last: formatNumber(last) }, true);
      return [said, ...coming].join("");
    }
    const step = view.steps[index];
    const said = index === 0
      ? interpolate(gettext("Step 0 of %(last)s: the deal."), { last: formatNumber(last) }, true)
      : interpolate(ngettext("Step %(step)s of %(last)s: %(move)s · %(moves)s move · score %(score)s.",
        "Step %(step)s of %(last)s: %(move)s · %(moves)s moves · score %(score)s.", step.move_count),
        { step: formatNumber(index), last: formatNumber(last), move: played(step), moves: formatNumber(step.move_count), score: formatNumber(step.score) }, true);
    return [said, ...coming].join("");
  }

  function show(next) {
    index = next;
    position.max = String(view.steps.length - 1);
    position.value = String(index);
    where.textContent = stepText();
    panel.dataset.step = String(index);
    panel.dataset.mode = view.line ? "line" : "game";
    for (const action of ["first", "prev"]) controls.querySelector(`[data-step=${action}]`).disabled = index === 0;
    for (const action of ["next", "last"]) controls.querySelector(`[data-step=${action}]`).disabled = index === view.steps.length - 1;
    if (index === view.steps.length - 1) stop();
    if (retryButton) retryButton.disabled = view.line;
    if (boardButton) boardButton.disabled = view.line;
    analysisBox.querySelectorAll("[data-version]").forEach((cell) => cell.classList.toggle("current", !view.line && Number(cell.dataset.version) === index));
    draw();
  }

  function showLog(version = 0) {
    stop();
    view = { steps: logSteps, moves: logSteps.slice(1).map((step) => step.move), line: false };
    lineBar.hidden = true;
    show(Math.max(0, Math.min(version, logSteps.length - 1)));
  }

  function showLine(turning) {
    stop();
    view = { steps: [logSteps[turning.version - 1], ...turning.steps], moves: turning.line, line: true };
    lineBar.hidden = false;
    show(0);
  }

  /** The analysis once the server has it; asked again while it still runs. */
  function drawAnalysis() {
    const words = VERDICT_WORDS();
    const byVersion = new Map(analysis.verdicts.map((v) => [v.version, v]));
    const strip = h("div", { class: "verdict-strip", role: "group", "aria-label": gettext("The solver's verdict at every step") },
      logSteps.map((_, version) => {
        const verdict = byVersion.get(version)?.verdict ?? "pending";
        const label = interpolate(gettext("Step %(step)s: %(verdict)s"), { step: version, verdict: words[verdict] }, true);
        return h("button", { type: "button", class: `verdict ${verdict}`, "data-version": String(version), title: label, "aria-label": label, onclick: () => showLog(version) });
      }));
    const legend = h("ul", { class: "verdict-legend", "aria-label": gettext("What the colours mean") },
      ["winnable", "unwinnable", "unknown", "pending"].map((verdict) => h("li", {}, h("span", { class: `swatch verdict ${verdict}`, "aria-hidden": "true" }), " ", words[verdict])));
    const notes = [];
    if (analysis.status !== "done") notes.push(h("p", { class: "note" }, gettext("The analysis is still running: the strip fills in as it goes.")));
    notes.push(...turningNotes());
    analysisBox.replaceChildren(h("h2", {}, gettext("Analysis")), strip, legend, ...notes);
    show(index);
  }

  function turningNotes() {
    const turning = analysis.turning_point;
    if (analysis.turning === "never-winnable") {
      return [h("p", { class: "turning", "data-turning": "never" }, gettext("This deal could never be won: the solver proved it from the deal on, whatever was played."))];
    }
    if (analysis.turning === "lost" && turning) {
      const before = logSteps[turning.version - 1];
      const lost = describeMove(turning.move, before).text;
      const better = turning.line?.length ? describeMove(turning.line[0], before).text : null;
      const sentence = better
        ? interpolate(gettext("After move %(step)s, %(move)s, this game could no longer be won. Instead, %(better)s kept it winnable."), { step: formatNumber(turning.version), move: lost, better }, true)
        : interpolate(gettext("After move %(step)s, %(move)s, this game could no longer be won."), { step: formatNumber(turning.version), move: lost }, true);
      return [h("p", { class: "turning losing", "data-turning": "lost" }, sentence),
        h("div", { class: "actions" },
          h("button", { type: "button", "data-analysis": "losing", onclick: () => showLog(turning.version - 1) }, gettext("Show the losing move")),
          turning.steps ? h("button", { type: "button", class: "primary", "data-analysis": "line", onclick: () => showLine(turning) }, gettext("Show the way to win")) : null)];
    }
    if (analysis.extra_moves !== null && analysis.extra_moves !== undefined) {
      const text = analysis.extra_moves === 0
        ? interpolate(gettext("Won by a line as short as the shortest the solver found (%(shortest)s moves)."), { shortest: formatNumber(analysis.shortest_line) }, true)
        : interpolate(ngettext("Won in %(extra)s move more than the shortest line the solver found (%(shortest)s).",
          "Won in %(extra)s moves more than the shortest line the solver found (%(shortest)s).", analysis.extra_moves),
        { extra: formatNumber(analysis.extra_moves), shortest: formatNumber(analysis.shortest_line) }, true);
      return [h("p", { "data-turning": "won" }, text)];
    }
    return [];
  }

  async function followAnalysis() {
    while (shown()) {
      try {
        analysis = await get(`/games/${page.gameId}/analysis`);
      } catch {
        return;
      }
      if (!shown() || analysis.status === "not-finished") return;
      drawAnalysis();
      if (analysis.status === "done") return;
      await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_SOLVER_MS));
    }
  }

  async function retry() {
    try {
      const state = await post(`/games/${page.gameId}/retry`, { version: index });
      ctx.navigate(`/game/${state.id}`);
    } catch (error) {
      ctx.notify(error.message, "error", error.code);
    }
  }

  async function openBoard() {
    try {
      const board = await post(`/games/${page.gameId}/board`, { version: index });
      ctx.navigate(`/board/${board.key}`);
    } catch (error) {
      ctx.notify(error.message, "error", error.code);
    }
  }

  function go(action) {
    stop();
    show(stepTo(action, index, view.steps.length));
  }

  function stop() {
    clearInterval(playing);
    playing = 0;
    playButton.textContent = pgettext("replay button", "Play");
    playButton.setAttribute("aria-pressed", "false");
  }

  function togglePlay() {
    if (playing) return stop();
    if (index === view.steps.length - 1) show(0);
    playing = setInterval(() => show(stepTo("next", index, view.steps.length)), PLAY_EVERY_MS);
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
  const stopRedrawing = redrawOnResize(draw, panel);
  stop();
  show(0);
  if (page.gameId) followAnalysis();
  return () => {
    stop();
    document.removeEventListener("keydown", onKey);
    stopRedrawing();
  };
}
