// Pointer input on the board: a tap, or (past a 3-pixel threshold) a drag of a card group.
import { dropTarget, exceedsThreshold } from "./geometry.js";

/**
 * handlers: group(card) → cards carried (empty: not draggable), start(card), over(card, target)
 * while dragging (target null over nothing), drop(card, target) on a release over a target,
 * cancel(card) on a release over nothing or Esc (the cards go back), tap(card). Moves are drawn
 * with transforms in animation frames.
 */
export function attachDrag(board, renderer, handlers) {
  let gesture = null;
  let frame = 0;

  const local = (event) => {
    const box = board.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  /** The target under the carried card, as a release would see it. */
  const targetOf = (current) => {
    const first = current.items[0].place;
    const layout = renderer.layout;
    const cardRect = {
      x: first.x + current.point.x - current.start.x,
      y: first.y + current.point.y - current.start.y,
      w: layout.cardW,
      h: layout.cardH,
    };
    return dropTarget(cardRect, current.point, layout.targets);
  };

  const paint = () => {
    frame = 0;
    if (!gesture?.dragging) return;
    const dx = gesture.point.x - gesture.start.x;
    const dy = gesture.point.y - gesture.start.y;
    gesture.items.forEach(({ el, place }, i) => {
      el.style.transform = `translate(${place.x + dx}px, ${place.y + dy}px)`;
      el.style.zIndex = String(1000 + i);
    });
    handlers.over(gesture.card, targetOf(gesture));
  };

  const onEscape = (event) => {
    if (event.key !== "Escape" || !gesture?.dragging) return;
    event.preventDefault();
    event.stopPropagation();
    const done = end();
    handlers.cancel(done.card);
  };

  /** Forget the gesture (its pointer capture too) and return it. */
  const end = () => {
    const done = gesture;
    gesture = null;
    cancelAnimationFrame(frame);
    frame = 0;
    window.removeEventListener("keydown", onEscape, true);
    if (board.hasPointerCapture?.(done.id)) board.releasePointerCapture(done.id);
    return done;
  };

  board.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || gesture) return;
    const el = event.target.closest(".card.face-up");
    if (!el) return;
    const card = el.dataset.card;
    const cards = handlers.group(card);
    if (!cards.length) return;
    event.preventDefault();
    board.setPointerCapture(event.pointerId);
    const start = local(event);
    gesture = { id: event.pointerId, card, cards, start, point: start, dragging: false, items: [] };
  });

  board.addEventListener("pointermove", (event) => {
    if (!gesture || event.pointerId !== gesture.id) return;
    gesture.point = local(event);
    if (!gesture.dragging && exceedsThreshold(gesture.start, gesture.point)) {
      gesture.dragging = true;
      gesture.items = gesture.cards.map((card) => {
        const el = renderer.elementOf(card);
        el.classList.add("dragging");
        return { el, place: renderer.placeOf(card) };
      });
      window.addEventListener("keydown", onEscape, true);
      handlers.start(gesture.card);
    }
    if (gesture.dragging && !frame) frame = requestAnimationFrame(paint);
  });

  const finish = (event, cancelled) => {
    if (!gesture || event.pointerId !== gesture.id) return;
    gesture.point = local(event);
    const done = end();
    if (!done.dragging) {
      if (!cancelled) handlers.tap(done.card);
      return;
    }
    const target = cancelled ? null : targetOf(done);
    if (target) handlers.drop(done.card, target);
    else handlers.cancel(done.card);
  };
  board.addEventListener("pointerup", (event) => finish(event, false));
  board.addEventListener("pointercancel", (event) => finish(event, true));
}
