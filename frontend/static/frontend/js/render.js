// Drawing the table: keyed card elements placed from the layout, redrawn once per frame.
import { cardName, parseCard, suitName } from "./cards.js";
import { gettext, interpolate, ngettext } from "./i18n.js";
import { layoutBoard } from "./layout.js";

function suitIcon(suit, className) {
  const svgNs = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNs, "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS(svgNs, "use");
  use.setAttribute("href", `#suit-${suit}`);
  svg.append(use);
  return svg;
}

/** A card element as the table draws it (also used by the win cascade). */
export function makeCard(id, faceUp) {
  const el = document.createElement("div");
  el.id = `card-${id}`;
  if (!faceUp) {
    el.className = "card face-down";
    el.setAttribute("aria-hidden", "true");
    return el;
  }
  const { rank, suit } = parseCard(id);
  el.className = `card face-up suit-${suit}`;
  el.dataset.card = id;
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", cardName(id));
  const rankEl = document.createElement("span");
  rankEl.className = "rank";
  rankEl.textContent = rank;
  el.append(rankEl, suitIcon(suit, "pip"), suitIcon(suit, "big"));
  return el;
}

function makeSlot(id, className, label, suit) {
  const el = document.createElement("div");
  el.id = id;
  el.className = className;
  el.setAttribute("role", "region");
  el.setAttribute("aria-label", label);
  if (suit) el.append(suitIcon(suit, "watermark"));
  return el;
}

/** Owns the board's DOM: call `draw(view)`; it lays out and updates only what changed. */
/**
 * Draw a page's board again whenever the window or one of `panels` (the page's text beside or
 * above the board: a move list opened, an analysis arrived) changes size, so the board keeps
 * the height left in the viewport. Returns the function that stops it.
 */
export function redrawOnResize(draw, ...panels) {
  const observer = new ResizeObserver(() => draw());
  panels.forEach((panel) => observer.observe(panel));
  window.addEventListener("resize", draw);
  return () => {
    observer.disconnect();
    window.removeEventListener("resize", draw);
  };
}

export class Renderer {
  constructor(boardEl) {
    this.board = boardEl;
    this.cards = new Map();
    this.slots = new Map();
    this.layout = null;
    this.marks = new Map();
  }

  slot(id, className, label, suit) {
    let el = this.slots.get(id);
    if (!el) {
      el = makeSlot(id, className, label, suit);
      this.board.append(el);
      this.slots.set(id, el);
    }
    return el;
  }

  /**
   * view: {state, width, height, highlights: Set<number|"F">, cursor, picked: Set<card>,
   * marks?: see `mark`}
   */
  draw(view) {
    const { state } = view;
    const layout = layoutBoard(state, view.width, view.height);
    this.layout = layout;
    const style = this.board.style;
    style.setProperty("--card-w", `${layout.cardW}px`);
    style.setProperty("--card-h", `${layout.cardH}px`);
    style.height = `${layout.height}px`;
    for (const slot of layout.foundationSlots) {
      const found = state.foundations[slot.index];
      const label = interpolate(
        ngettext("%(suit)s foundation, %(count)s card", "%(suit)s foundation, %(count)s cards", found.count),
        { suit: suitName(slot.suit), count: found.count }, true);
      const el = this.slot(`slot-f${slot.index}`, "slot foundation", label, slot.suit);
      el.setAttribute("aria-label", label);
      el.style.transform = `translate(${slot.x}px, ${slot.y}px)`;
    }
    for (const slot of layout.columnSlots) {
      const column = state.columns[slot.col - 1];
      const down = column.face_down;
      const up = column.face_up.length;
      const label = interpolate(gettext("Column %(column)s, %(down)s, %(up)s"), {
        column: slot.col,
        down: interpolate(ngettext("%(count)s face-down card", "%(count)s face-down cards", down), { count: down }, true),
        up: interpolate(ngettext("%(count)s face-up card", "%(count)s face-up cards", up), { count: up }, true),
      }, true);
      const el = this.slot(`slot-c${slot.col}`, "slot column", label);
      el.setAttribute("aria-label", label);
      el.style.transform = `translate(${slot.x}px, ${slot.y}px)`;
      el.classList.toggle("cursor", view.cursor?.col === slot.col && !view.cursor.card);
    }
    const seen = new Set();
    for (const card of layout.cards) {
      seen.add(card.id);
      let el = this.cards.get(card.id);
      if (!el) {
        el = makeCard(card.id, card.faceUp);
        this.cards.set(card.id, el);
        this.board.append(el);
      }
      el.style.transform = `translate(${card.x}px, ${card.y}px)`;
      el.style.zIndex = String(card.foundation === undefined ? card.z + 10 : 5);
      el.classList.toggle("cursor", view.cursor?.card === card.id);
      el.classList.toggle("picked", view.picked.has(card.id));
      el.classList.remove("dragging");
      el.classList.toggle("hinted", Boolean(view.marks?.hint?.cards.includes(card.id)));
    }
    for (const [id, el] of this.cards) {
      if (!seen.has(id)) {
        el.remove();
        this.cards.delete(id);
      }
    }
    this.mark({ ...view.marks, accepting: view.highlights });
    return layout;
  }

  /**
   * The overlay drawn above the cards (never under them, where a full column hides it):
   * accepting: Set<col|"F"> outlined; hover: {target: col|"F", ok} the target under a dragged
   * card, accepted or refused (ok null: placement help is off, no verdict); hint: {cards, target} a hinted move's target; suit: the carried
   * card's suit, whose foundation slot is the one outlined. Safe during a drag: it moves no card.
   */
  mark({ accepting = new Set(), hover = null, hint = null, suit = null } = {}) {
    const layout = this.layout;
    if (!layout) return;
    const wanted = new Map();
    const want = (key, className) => wanted.set(key, `${wanted.get(key) ?? "drop-mark"} ${className}`);
    for (const key of accepting) want(key, "accept");
    if (hint?.target !== undefined && hint?.target !== null) want(hint.target, "hint");
    if (hover) want(hover.target, hover.ok === null ? "hover" : `hover ${hover.ok ? "hover-accept" : "hover-refuse"}`);
    for (const [key, el] of this.marks) {
      if (!wanted.has(key)) {
        el.remove();
        this.marks.delete(key);
      }
    }
    for (const [key, className] of wanted) {
      let el = this.marks.get(key);
      if (!el) {
        el = document.createElement("div");
        el.id = key === "F" ? "mark-f" : `mark-c${key}`;
        el.setAttribute("aria-hidden", "true");
        this.board.append(el);
        this.marks.set(key, el);
      }
      el.className = className;
      const rect = this.markRect(key, suit ?? hint?.suit);
      Object.assign(el.style, {
        transform: `translate(${rect.x}px, ${rect.y}px)`,
        width: `${rect.w}px`,
        height: `${rect.h}px`,
      });
    }
  }

  /** A column from its slot to its last card; the foundation slot of `suit`, else all four. */
  markRect(key, suit) {
    const layout = this.layout;
    if (key === "F") {
      const slots = layout.foundationSlots;
      const slot = slots.find((s) => s.suit === suit);
      if (slot) return { x: slot.x, y: slot.y, w: layout.cardW, h: layout.cardH };
      const last = slots[slots.length - 1];
      return { x: slots[0].x, y: slots[0].y, w: last.x + layout.cardW - slots[0].x, h: layout.cardH };
    }
    const slot = layout.columnSlots.find((s) => s.col === key);
    let bottom = slot.y + layout.cardH;
    for (const card of layout.cards) {
      if (card.col === key) bottom = Math.max(bottom, card.y + layout.cardH);
    }
    return { x: slot.x, y: slot.y, w: layout.cardW, h: bottom - slot.y };
  }

  elementOf(card) {
    return this.cards.get(card);
  }

  /** The layout's place of a card (for drag offsets). */
  placeOf(card) {
    return this.layout?.cards.find((c) => c.id === card);
  }
}
