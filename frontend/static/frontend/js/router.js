// Client-side routes: the path picks a page module; pages mount into #app and clean up.

const ROUTES = [
  [/^\/$/, () => import("./pages/table.js"), "home"],
  [/^\/game\/(\d+)$/, () => import("./pages/table.js"), "game"],
  [/^\/game\/(\d+)\/replay$/, () => import("./pages/replay.js"), "game-replay"],
  [/^\/watch\/(\d+)$/, () => import("./pages/table.js"), "watch"],
  [/^\/watch$/, () => import("./pages/spectate.js"), "spectate"],
  [/^\/login$/, () => import("./pages/auth.js"), "login"],
  [/^\/signup$/, () => import("./pages/auth.js"), "signup"],
  [/^\/settings$/, () => import("./pages/settings.js"), "settings"],
  [/^\/games$/, () => import("./pages/games.js"), "games"],
  [/^\/tokens$/, () => import("./pages/tokens.js"), "tokens"],
  [/^\/security$/, () => import("./pages/security.js"), "security"],
  [/^\/account$/, () => import("./pages/account.js"), "account"],
  [/^\/account\/forgot$/, () => import("./pages/account-links.js"), "account-forgot"],
  [/^\/account\/reset$/, () => import("./pages/account-links.js"), "account-reset"],
  [/^\/account\/email$/, () => import("./pages/account-links.js"), "account-email"],
  [/^\/daily$/, () => import("./pages/daily.js"), "daily"],
  [/^\/daily\/([^/]+)$/, () => import("./pages/daily.js"), "daily-day"],
  [/^\/daily\/([^/]+)\/games\/(\d+)\/replay$/, () => import("./pages/replay.js"), "replay"],
  [/^\/daily\/([^/]+)\/line$/, () => import("./pages/replay.js"), "daily-line"],
  [/^\/leaderboards$/, () => import("./pages/leaderboards.js"), "leaderboards"],
  [/^\/players\/([^/]+)$/, () => import("./pages/player.js"), "player"],
  [/^\/races$/, () => import("./pages/races.js"), "races"],
  [/^\/races\/([A-Za-z0-9]+)$/, () => import("./pages/race.js"), "race"],
  [/^\/arenas$/, () => import("./pages/arenas.js"), "arenas"],
  [/^\/arenas\/([A-Za-z0-9_-]+)$/, () => import("./pages/arena.js"), "arena"],
  [/^\/puzzles$/, () => import("./pages/puzzles.js"), "puzzles"],
  [/^\/puzzles\/(\d+)$/, () => import("./pages/puzzle.js"), "puzzle"],
  [/^\/rules$/, () => import("./pages/rules.js"), "rules"],
  [/^\/odds$/, () => import("./pages/odds.js"), "odds"],
  [/^\/board\/([0-9a-f]+)$/, () => import("./pages/board.js"), "board"],
];

/** Find the page for a path: {load, name, params} or null. */
export function match(path) {
  for (const [pattern, load, name] of ROUTES) {
    const found = pattern.exec(path);
    if (found) return { load, name, params: found.slice(1).map(decodeURIComponent) };
  }
  return null;
}
