// Drag geometry: the tap/drag threshold and which drop target a dragged card is over.

export const DRAG_THRESHOLD_PX = 3;

/** True once the pointer has moved far enough from where it went down to count as a drag. */
export function exceedsThreshold(start, point, threshold = DRAG_THRESHOLD_PX) {
  return Math.hypot(point.x - start.x, point.y - start.y) >= threshold;
}

export function overlapArea(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export function contains(rect, point) {
  return (
    point.x >= rect.x && point.x < rect.x + rect.w && point.y >= rect.y && point.y < rect.y + rect.h
  );
}

/**
 * The target under a dragged card: the one the pointer is in, else the one the card overlaps
 * most; null when over nothing.
 */
export function dropTarget(cardRect, pointer, targets) {
  const under = targets.find((target) => contains(target.rect, pointer));
  if (under) return under;
  let best = null;
  let bestArea = 0;
  for (const target of targets) {
    const area = overlapArea(cardRect, target.rect);
    if (area > bestArea) {
      best = target;
      bestArea = area;
    }
  }
  return best;
}
