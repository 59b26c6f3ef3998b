// The board controller: holds the server's state, draws it, turns input into intents for the
// server and renders whatever the server answers (never a state the server does not hold).
import { cardName, groupOf, isLastInColumn, locate, parseCard } from "./cards.js";
import { attachDrag } from "./drag.js";
import { keyAction, refreshCursor } from "./keyboard.js";
import { play } from "./plays.js";
import { CLIENT } from "./pushes.js";
import { Renderer } from "./render.js";
import { gettext, interpolate } from "./i18n.js";
import { accepts, describeChange, destinations, diffStates } from "./state.js";

const DOUBLE_TAP_MS = 400;

export class Board {
  /**
   * options: {settings, readOnly, notify(text, kind), onState(state), announce(text),
   * sound(kind): "move", "refused" or "win" after the player's own intent,
   * socket(): the game's LiveSocket (writes go on it while it is open), or null}
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

  /** Whether cards may be picked up: an active game of mine, not frozen by its day's close. */
  playable() {
    return !this.readOnly && this.state?.status === "active" && !this.state.closed;
  }

  /** Show a state the server sent (REST answer, 409 body or push). */
  setState(state) {
    if (this.state && state.id === this.state.id && state.version < this.state.version) return;
    const diff = diffStates(this.state, state);
    const moved = this.state?.version !== state.version;
    this.state = state;
    this.kb = { cursor: refreshCursor(state, this.kb.cursor), picked: null };
    this.highlights = new Set();
    this.marks = { hover: null, suit: null, hint: moved ? null : this.marks.hint };
    const sentence = describeChange(diff, cardName);
    if (sentence) this.options.announce(sentence);
    this.options.onState(state);
    this.redraw();
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
    this.renderer.draw({
      state: this.state,
      width: this.el.clientWidth,
      height: window.innerHeight - top,
      highlights: this.highlights,
      cursor: this.el.matches(":focus-within") ? this.kb.cursor : null,
      picked: new Set(this.kb.picked ? groupOf(this.state, this.kb.picked) : []),
      marks: this.marks,
    });
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
      return this.send(CLIENT.DOUBLE_CLICK, { card });
    }
    if (!isLastInColumn(this.state, card)) return;
    if (destinations(this.state.legal_moves, card).foundation || !this.settings.double_click) {
      this.lastTap = null;
      return this.send(CLIENT.TAP, { card });
    }
    // Not going up: wait to see whether a second tap follows; if not, the server explains why.
    this.pendingTap = setTimeout(() => this.send(CLIENT.TAP, { card }), DOUBLE_TAP_MS);
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
    if (this.kb.picked) {
      this.options.announce(interpolate(gettext("%(card)s picked up. Choose a column with the arrows and press Enter, 1 to 7, or F."), { card: cardName(this.kb.picked) }, true));
      if (this.settings.placement_help) {
        const found = destinations(this.state.legal_moves, this.kb.picked);
        this.highlights = new Set(found.columns);
        if (found.foundation) this.highlights.add("F");
        this.marks = { ...this.marks, suit: parseCard(this.kb.picked).suit };
      }
    } else if (this.kb.cursor.card) {
      this.options.announce(cardName(this.kb.cursor.card));
    }
    const intent = result.intent;
    if (intent && this.playable()) {
      // The keyboard's intent kinds are the write kinds.
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
    this.options.notify(text, isRule ? "refused" : "error", error.code, explain ? error.rule : "");
    this.redraw();
  }
}
