// Who is signed in (a player or a guest), their assist settings and the look they chose.
import { post } from "./api.js";

export const DEFAULT_SETTINGS = {
  double_click: true,
  placement_help: true,
  interactive_rules: true,
  auto_placement: false,
  four_colour_suits: false,
  card_back: "blue",
  table_colour: "green",
  sounds: false,
};

/**
 * Wear a player's card back and table colour (CSS reads them from <html>). The server already
 * wrote them into the page, so this only matters when they change without a reload.
 */
export function applyLook(settings) {
  const root = document.documentElement;
  root.dataset.cardBack = settings?.card_back ?? DEFAULT_SETTINGS.card_back;
  root.dataset.table = settings?.table_colour ?? DEFAULT_SETTINGS.table_colour;
}

/**
 * The signed-in user ({username, settings, ...}) or null, as the server wrote it into the page
 * (`#me`: what GET /api/v1/auth/me answers): no request, so none that fails for a visitor.
 */
export function signedIn() {
  return JSON.parse(document.getElementById("me")?.textContent ?? "null");
}

/** Play as a guest: a real account tied to this browser's session; signing up keeps it. */
export async function startGuest(ctx) {
  const me = await post("/auth/guest");
  ctx.setMe(me);
  return me;
}
