// The board controller: holds the server's state, draws it, turns input into intents for the
// server and renders whatever the server answers (never a state the server does not hold).
import { post } from "./api.js";
import { cardName, groupOf, isLastInColumn, locate, parseCard } from "./cards.js";
import { attachDrag } from "./drag.js";
import { contains } from "./geometry.js";
import { keyAction, refreshCursor } from "./keyboard.js";
import { play } from "./plays.js";
import { CLIENT } from "./pushes.js";
import { Renderer } from "./render.js";
import { clock } from "./dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "./i18n.js";
import { accepts, describeChange, destinations, diffStates } from "./state.js";

const DOUBLE_TAP_MS = 400;
/** Finish shows its moves one at a time: this long each (a card's slide is 140 ms)... */
const FINISH_STEP_MS = 160;
/** ...and the whole at most this long, however many cards are left. */
const FINISH_MOST_MS = 5000;

export class Board {
  /**
   * options: {settings, readOnly, notify(text, kind), onState(state), announce(text),
   * sound(kind): "move", "refused" or "win" after the player's own intent,
   * socket(): the game's LiveSocket (writes go on it while it is open), or null,
   * onDraw(layout): after each drawing, with the layout drawn (layout.js)}
   */
  constructor(el, options) {
    this.el = el;
    this.options = options;
    this.settings = options.settings;
    this.readOnly = options.readOnly;
    this.state = null;
    this.kb = { cursor: null, picked: null };
    this.highlights = new Set();
    /** The overlay beyond the highlights: the dragged card's target and suit, a hint. */
    this.marks = { hover: null, suit: null, hint: null };
    this.queue = Promise.resolve();
    this.lastTap = null;
    this.finishing = false;
    this.frame = 0;
    this.renderer = new Renderer(el);
    el.classList.toggle("four-colour", Boolean(this.settings.four_colour_suits));
    attachDrag(el, this.renderer, {
      group: (card) => (this.playable() ? groupOf(this.state, card) : []),
      start: (card) => this.showDestinations(card),
      over: (card, target) => this.hovered(card, target),
      drop: (card, target) => this.dropped(card, target),
      cancel: () => this.dragEnded(),
      tap: (card) => this.tapped(card),
    });
    el.addEventListener("keydown", (event) => this.key(event));
    el.addEventListener("click", (event) => this.clicked(event));
    this.onResize = () => this.redraw();
    window.addEventListener("resize", this.onResize);
  }

  destroy() {
    window.removeEventListener("resize", this.onResize);
    cancelAnimationFrame(this.frame);
  }

  version() {
    return this.state ? this.state.version : null;
  }

  /** Whether cards may be picked up: an active game of mine, not frozen by its day's close,
   * nor being finished. */
  playable() {
    return !this.readOnly && this.state?.status === "active" && !this.state.closed && !this.finishing;
  }

  /** Show a state the server sent (REST answer, 409 body or push). While a finish is shown
   * step by step, the pushes of its moves are not drawn: its answer, drawn last, holds them all. */
  setState(state) {
    if (this.finishing) return;
    if (this.state && state.id === this.state.id && state.version < this.state.version) return;
    const previous = this.state;
    const diff = diffStates(previous, state);
    const moved = previous?.version !== state.version;
    // The same game at the same version and status again (a feed's snapshot after the page's
    // own read): the cards the player holds stay picked up, with their outlines.
    const again = !moved && previous?.id === state.id && previous?.status === state.status
      && previous?.closed === state.closed;
    this.state = state;
    this.kb = { cursor: refreshCursor(state, this.kb.cursor), picked: again ? this.kb.picked : null };
    if (!again) {
      this.highlights = new Set();
      this.marks = { hover: null, suit: null, hint: moved ? null : this.marks.hint };
    }
    const sentence = [describeChange(diff, cardName), this.newsOf(previous, state)].filter(Boolean).join(" ");
    if (sentence) this.options.announce(sentence);
    this.options.onState(state);
    this.redraw();
  }

  /** What a screen reader hears besides the move: Finish offered, or the win. */
  newsOf(previous, state) {
    if (!previous || previous.id !== state.id) return "";
    if (previous.status === "active" && state.status === "won") {
      const figures = { moves: formatNumber(state.move_count), score: formatNumber(state.score), time: clock(state.elapsed_seconds), name: state.owner };
      const text = this.readOnly
        ? ngettext("%(name)s won in %(moves)s move, score %(score)s, time %(time)s.", "%(name)s won in %(moves)s moves, score %(score)s, time %(time)s.", state.move_count)
        : ngettext("You won in %(moves)s move, score %(score)s, time %(time)s!", "You won in %(moves)s moves, score %(score)s, time %(time)s!", state.move_count);
      return interpolate(text, figures, true);
    }
    if (state.can_finish && !previous.can_finish && !this.readOnly) {
      return gettext("Every card is face up: press F or the Finish button to play the rest home.");
    }
    return "";
  }

  /** Batch drawing into the next animation frame; `data-frame` marks one as still to come. */
  redraw() {
    if (this.frame || !this.state) return;
    this.el.dataset.frame = "pending";
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
      delete this.el.dataset.frame;
    });
  }

  draw() {
    if (performance.getEntriesByName("yukon-answer").length) {
      performance.measure("yukon-answer-to-frame", "yukon-answer");
      performance.clearMarks("yukon-answer");
    }
    const top = this.el.getBoundingClientRect().top + window.scrollY;
    const layout = this.renderer.draw({
      state: this.state,
      width: this.el.clientWidth,
      height: window.innerHeight - top,
      highlights: this.highlights,
      cursor: this.el.matches(":focus-within") ? this.kb.cursor : null,
      picked: new Set(this.kb.picked ? groupOf(this.state, this.kb.picked) : []),
      marks: this.marks,
    });
    this.options.onDraw?.(layout);
    const cursor = this.kb.cursor;
    const activeId = cursor?.card
      ? `card-${cursor.card}`
      : cursor?.foundation !== undefined
        ? `slot-f${cursor.foundation}`
        : `slot-c${cursor?.col ?? 1}`;
    this.el.setAttribute("aria-activedescendant", activeId);
  }

  /** Outline the targets the server allows for a dragged card (drawn over the cards). */
  showDestinations(card) {
    this.marks = { ...this.marks, suit: parseCard(card).suit, hover: null };
    if (this.settings.placement_help) {
      const found = destinations(this.state.legal_moves, card);
      this.highlights = new Set(found.columns);
      if (found.foundation) this.highlights.add("F");
    }
    this.renderer.mark({ ...this.marks, accepting: this.highlights });
  }

  /** Mark the target under the dragged card: accepted or refused by the server's legal moves. */
  hovered(card, target) {
    const key = target ? (target.kind === "foundation" ? "F" : target.col) : null;
    const ok = target && this.settings.placement_help
      ? accepts(this.state.legal_moves, card, target, this.settings.auto_placement)
      : null;
    const hover = key === null ? null : { target: key, ok };
    if (hover?.target === this.marks.hover?.target && hover?.ok === this.marks.hover?.ok) return;
    this.marks = { ...this.marks, hover };
    this.renderer.mark({ ...this.marks, accepting: this.highlights });
  }

  /** A drag ends without a move: the cards slide back and the outlines go. */
  dragEnded() {
    this.highlights = new Set();
    this.marks = { ...this.marks, hover: null, suit: null };
    this.redraw();
  }

  dropped(card, target) {
    this.dragEnded();
    const place = locate(this.state, card);
    if (target.kind === "foundation") {
      if (place?.where === "foundation") return null;
      return this.send(CLIENT.MOVE, { move: `${card}>F` });
    }
    if (place?.where === "column" && place.col + 1 === target.col) return null;
    if (this.settings.auto_placement) return this.send(CLIENT.DOUBLE_CLICK, { card });
    return this.send(CLIENT.MOVE, { move: `${card}>${target.col}` });
  }

  /** Show a hint's move on the table: its cards and its target, until the table changes. */
  showHint(move) {
    const [card, to] = move.split(">");
    this.marks = {
      ...this.marks,
      hint: { cards: groupOf(this.state, card), target: to === "F" ? "F" : Number(to), suit: parseCard(card).suit },
    };
    this.redraw();
  }

  tapped(card) {
    if (!this.playable()) return;
    const now = performance.now();
    const last = this.lastTap;
    this.lastTap = { card, at: now };
    clearTimeout(this.pendingTap);
    if (this.settings.double_click && last?.card === card && now - last.at < DOUBLE_TAP_MS) {
      this.lastTap = null;
      this.putDown();
      return this.send(CLIENT.DOUBLE_CLICK, { card });
    }
    if (this.kb.picked) return this.placePicked(locate(this.state, card));
    if (locate(this.state, card)?.where === "column" && !isLastInColumn(this.state, card)) return this.pickUp(card);
    if (!isLastInColumn(this.state, card)) return;
    if (destinations(this.state.legal_moves, card).foundation || !this.settings.double_click) {
      this.lastTap = null;
      return this.send(CLIENT.TAP, { card });
    }
    // Not going up: wait to see whether a second tap follows; if not, the server explains why.
    this.pendingTap = setTimeout(() => this.send(CLIENT.TAP, { card }), DOUBLE_TAP_MS);
  }

  /** A card in the middle of a column, clicked: it and the cards on it are picked up (as Enter
   * does), and the next click on a column puts them there. */
  pickUp(card) {
    this.kb = { cursor: { col: locate(this.state, card).col + 1, card }, picked: card };
    this.showPicked();
    this.redraw();
  }

  /** Put the picked cards back where they are, sending nothing. */
  putDown() {
    if (!this.kb.picked) return;
    this.kb = { ...this.kb, picked: null };
    this.highlights = new Set();
    this.redraw();
  }

  /** Say what was picked up and, with placement help, outline where it may go. */
  showPicked() {
    const card = this.kb.picked;
    const more = groupOf(this.state, card).length - 1;
    const sentence = more
      ? interpolate(ngettext("%(card)s picked up with %(count)s card on it. Choose a column with the arrows and press Enter, 1 to 7, or click a column.",
        "%(card)s picked up with %(count)s cards on it. Choose a column with the arrows and press Enter, 1 to 7, or click a column.", more), { card: cardName(card), count: more }, true)
      : interpolate(gettext("%(card)s picked up. Choose a column with the arrows and press Enter, 1 to 7, or F."), { card: cardName(card) }, true);
    this.options.announce(sentence);
    this.highlights = new Set();
    if (this.settings.placement_help) {
      const found = destinations(this.state.legal_moves, card);
      this.highlights = new Set(found.columns);
      if (found.foundation) this.highlights.add("F");
      this.marks = { ...this.marks, suit: parseCard(card).suit };
    }
  }

  /** The click after a pick-up, on `place` (locate's answer, or {where, col} of a slot): the
   * picked cards go there; a click on the picked cards themselves puts them back. */
  placePicked(place) {
    const picked = this.kb.picked;
    const from = locate(this.state, picked);
    if (!place || (place.where === "column" && place.col === from?.col)) return this.putDown();
    this.putDown();
    const to = place.where === "foundation" ? "F" : String(place.col + 1);
    return this.send(CLIENT.MOVE, { move: `${picked}>${to}` });
  }

  /** A click on the table that is not on a face-up card (an empty column, a face-down card): the
   * place for cards picked up, if any. A face-up card's click is a tap (drag.js), whose pointer
   * capture makes the board the click's target: what lies under the point tells them apart. */
  clicked(event) {
    if (!this.kb.picked || !this.playable()) return;
    if (document.elementFromPoint(event.clientX, event.clientY)?.closest(".card.face-up")) return;
    const box = this.el.getBoundingClientRect();
    const point = { x: event.clientX - box.left, y: event.clientY - box.top };
    const target = this.renderer.layout?.targets.find((found) => contains(found.rect, point));
    if (!target) return;
    this.placePicked(target.kind === "foundation" ? { where: "foundation" } : { where: "column", col: target.col - 1 });
  }

  /** Finish: the server plays the rest home (once every card is face up); its moves are shown
   * one at a time, then the game as the server left it (won). */
  finish() {
    const gameId = this.state.id;
    this.queue = this.queue.then(async () => {
      if (!this.playable() || !this.state.can_finish) return;
      this.putDown();
      this.finishing = true;
      try {
        const answer = await post(`/games/${gameId}/finish`, { version: this.state.version });
        await this.showSteps(answer.steps);
        this.finishing = false;
        this.setState(answer.state);
        this.options.sound?.("win");
      } catch (error) {
        this.finishing = false;
        this.refused(error);
      }
    });
    return this.queue;
  }

  /** Draw a finish's steps (public boards) one by one, each sliding like a move by hand. */
  async showSteps(steps) {
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const pause = Math.min(FINISH_STEP_MS, FINISH_MOST_MS / Math.max(steps.length, 1));
    for (const step of steps) {
      const { columns, foundations, score, move_count } = step;
      this.state = { ...this.state, columns, foundations, score, move_count, legal_moves: [], can_finish: false, undo_depth: 0 };
      this.kb = { cursor: refreshCursor(this.state, this.kb.cursor), picked: null };
      this.options.onState(this.state);
      this.redraw();
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  undo() {
    if (this.playable()) this.send(CLIENT.UNDO, {});
  }

  key(event) {
    if (!this.state || event.ctrlKey || event.metaKey || event.altKey) return;
    const result = keyAction(event.key, this.kb, this.state);
    if (!result.handled) return;
    event.preventDefault();
    this.kb = result.kb;
    this.highlights = new Set();
    if (this.kb.picked) this.showPicked();
    else if (this.kb.cursor.card) this.options.announce(cardName(this.kb.cursor.card));
    const intent = result.intent;
    if (intent?.kind === "finish") this.finish();
    else if (intent && this.playable()) {
      // The keyboard's other intent kinds are the write kinds.
      if (intent.kind === CLIENT.MOVE) this.send(CLIENT.MOVE, { move: intent.move });
      else this.send(intent.kind, { card: intent.card });
    }
    this.redraw();
  }

  /**
   * Send one write (a CLIENT write kind) with the version on screen, one at a time, and show
   * the server's answer.
   */
  send(kind, body) {
    const gameId = this.state.id;
    this.queue = this.queue.then(async () => {
      if (!this.playable()) return this.redraw();
      try {
        const sent = this.state.version;
        const state = await play(this.options.socket?.(), gameId, kind, { ...body, version: sent });
        performance.mark("yukon-answer");
        this.setState(state);
        // A push of the same version may have drawn it already: the sound follows the answer.
        if (state.version > sent) this.options.sound?.(state.status === "won" ? "win" : "move");
      } catch (error) {
        this.refused(error);
      }
    });
    return this.queue;
  }

  refused(error) {
    if (error.status === 409 && error.state) {
      this.setState(error.state);
      // daily-closed: the day closed while the table was open; its frozen state came along
      // and says so itself (`closed`).
      if (error.code !== "daily-closed") this.options.notify(gettext("This game changed elsewhere: showing the table as it is now."), "info");
      return;
    }
    const isRule = error.status === 422;
    if (isRule) this.options.sound?.("refused");
    const explain = isRule && this.settings.interactive_rules;
    const text = isRule && !explain ? gettext("That move is not allowed.") : error.message;
    // About this table as it stands: the message goes when the table changes.
    this.options.notify(text, isRule ? "refused" : "error", error.code, explain ? error.rule : "", { scope: "board" });
    this.redraw();
  }
}

/**
 * Dock the page's messages in `root` (the page's main part) where `boardEl`'s layout keeps room
 * free of cards; where it keeps none, at the screen's foot. Returns {place(layout): the board's
 * onDraw, undock()}.
 */
export function dockMessagesBeside(ctx, root, boardEl) {
  ctx.dockMessages(root);
  return {
    place(layout) {
      const place = layout.message;
      root.dataset.messagePlace = place ? "free" : "none";
      if (!place) return;
      const board = boardEl.getBoundingClientRect();
      const main = root.getBoundingClientRect();
      const at = { x: board.left - main.left + place.x, y: board.top - main.top + place.y, w: place.w, h: place.h };
      for (const [key, value] of Object.entries(at)) root.style.setProperty(`--message-${key}`, `${value}px`);
    },
    undock() {
      delete root.dataset.messagePlace;
      for (const key of ["x", "y", "w", "h"]) root.style.removeProperty(`--message-${key}`);
      ctx.dockMessages(null);
    },
  };
}
