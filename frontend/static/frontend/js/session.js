// Who is signed in (a player or a guest), and their assist settings.
import { get, post } from "./api.js";

export const DEFAULT_SETTINGS = {
  double_click: true,
  placement_help: true,
  interactive_rules: true,
  auto_placement: false,
  four_colour_suits: false,
};

/** The signed-in user ({username, settings, ...}) or null. */
export async function loadMe() {
  try {
    return await get("/auth/me");
  } catch (error) {
    if (error.status === 401 || error.status === 403) return null;
    throw error;
  }
}

/** Play as a guest: a real account tied to this browser's session; signing up keeps it. */
export async function startGuest(ctx) {
  const me = await post("/auth/guest");
  ctx.setMe(me);
  return me;
}
