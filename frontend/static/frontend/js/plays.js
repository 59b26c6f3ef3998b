// Where the player's writes go: on the game's websocket when it is open, else over REST.
// One body either way (the version on screen included), so a write retried over REST after
// its socket closed mid-way is the same write: the server applies it once.
import { post } from "./api.js";
import { CLIENT } from "./pushes.js";

/** The REST endpoint of each write the socket takes. */
const REST_PATHS = {
  [CLIENT.MOVE]: "moves",
  [CLIENT.TAP]: "tap",
  [CLIENT.DOUBLE_CLICK]: "double-click",
  [CLIENT.UNDO]: "undo",
  [CLIENT.RESIGN]: "resign",
};

/** Send write `kind` (a CLIENT write) for game `gameId`; resolves with the state after it. */
export async function play(socket, gameId, kind, body) {
  if (socket?.isOpen()) {
    try {
      return await socket.request(kind, body);
    } catch (error) {
      if (error.code !== "socket-closed") throw error;
    }
  }
  return post(`/games/${gameId}/${REST_PATHS[kind]}`, body);
}
