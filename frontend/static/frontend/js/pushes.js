// The websocket message types, named once (games/pushes.py is the server's list; a test keeps the two equal).

/** What the server sends (`t`). */
export const PUSH = Object.freeze({
  HELLO: "hello",
  STATE: "state",
  MOVE: "move",
  UNDO: "undo",
  FINISHED: "finished",
  LOBBY: "lobby",
  GAME_STARTED: "game-started",
  GAME_PROGRESS: "game-progress",
  GAME_FINISHED: "game-finished",
  GAME_REMOVED: "game-removed",
  RESULT: "result",
  HINT: "hint",
  WINNABILITY: "winnability",
  RACE: "race",
  RACE_PROGRESS: "race-progress",
  ARENA: "arena",
  PONG: "pong",
  ERROR: "error",
  ANSWER: "answer",
});

/** What the client may send (`t`). */
export const CLIENT = Object.freeze({
  PING: "ping",
  RESYNC: "resync",
  // The owner's writes on the game feed, answered by an ANSWER or an ERROR with their id.
  MOVE: "move",
  TAP: "tap",
  DOUBLE_CLICK: "double-click",
  UNDO: "undo",
  RESIGN: "resign",
});
