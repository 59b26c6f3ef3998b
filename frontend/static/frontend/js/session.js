// Who is signed in, and their assist settings.
import { get } from "./api.js";

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
