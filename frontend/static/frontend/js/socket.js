// Websockets that come back: a visible status, reconnect with backoff, versioned game feeds,
// and requests answered on the socket by id (the owner's writes on a game feed).
import { ApiError } from "./api.js";
import { gettext, interpolate } from "./i18n.js";
import { CLIENT, PUSH } from "./pushes.js";
import { CLOSE_TOO_MANY, classify, reconnectDelay } from "./versions.js";

const PING_EVERY_MS = 20000;
const PONG_WITHIN_MS = 8000;

function wsUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/**
 * The connection banner's sentence for a socket status, or null to hide it: "lost" while it
 * reconnects, "limited" (with the seconds until the next try) while the server refuses it
 * for a limit (4429).
 */
export function connectionBanner(what, { seconds } = {}) {
  if (what === "lost") return gettext("Connection lost. Reconnecting…");
  if (what === "limited") {
    return interpolate(gettext("Too many live connections from this browser or its network: the server refused this one. Trying again in %(seconds)s s."), { seconds }, true);
  }
  return null;
}

/**
 * A websocket that reconnects until closed; onStatus("open"|"lost"|"limited", detail) drives
 * the banner (`connectionBanner`).
 */
export class LiveSocket {
  constructor(path, { onMessage, onStatus }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onStatus = onStatus ?? (() => {});
    this.attempt = 0;
    this.closed = false;
    this.pending = new Map(); // request id -> {resolve, reject}
    this.lastId = 0;
    // The browser knows before the socket does: drop it when offline, retry at once when back.
    this.onOffline = () => this.ws.close();
    this.onOnline = () => {
      if (this.ws.readyState !== WebSocket.CLOSED) return;
      clearTimeout(this.retryTimer);
      this.attempt = 0;
      this.connect();
    };
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  connect() {
    const ws = new WebSocket(wsUrl(this.path));
    this.ws = ws;
    ws.onopen = () => {
      this.onStatus("open");
      this.heartbeat();
    };
    ws.onmessage = (event) => {
      // A socket refused for a limit is accepted, then closed before any message: only the
      // feed's first message proves the connection, so only it ends the backoff.
      this.attempt = 0;
      const message = JSON.parse(event.data);
      if (message.t === PUSH.PONG) {
        clearTimeout(this.pongTimer);
        return;
      }
      const waiting = message.id == null ? undefined : this.pending.get(message.id);
      if (waiting) {
        this.pending.delete(message.id);
        if (message.t === PUSH.ANSWER) waiting.resolve(message.d);
        else waiting.reject(new ApiError(message.d.status, { error: message.d }));
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = (event) => this.lost(ws, event.code);
    ws.onerror = () => ws.close();
  }

  heartbeat() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      this.send({ t: CLIENT.PING });
      this.pongTimer = setTimeout(() => this.ws.close(), PONG_WITHIN_MS);
    }, PING_EVERY_MS);
  }

  lost(ws, code) {
    if (ws !== this.ws) return;
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.dropRequests();
    if (this.closed) return;
    const delay = reconnectDelay(code, this.attempt++);
    if (code === CLOSE_TOO_MANY) this.onStatus("limited", { seconds: Math.ceil(delay / 1000) });
    else this.onStatus("lost");
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  send(message) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  isOpen() {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Send `{t, id, d}` and resolve with the answer's `d` (or reject with its error as an
   * ApiError); a socket that closes first rejects with code "socket-closed".
   */
  request(t, d) {
    const id = `r${++this.lastId}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ t, id, d }));
    });
  }

  /** The socket went: every request still waiting learns it (its write may or may not have landed). */
  dropRequests() {
    const dropped = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of dropped) reject(Object.assign(new ApiError(0, null), { code: "socket-closed" }));
  }

  close() {
    this.closed = true;
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.dropRequests();
    this.ws.close();
  }
}

/**
 * Follow one game: every state the server pushes, in version order. `version()` reads the
 * version on screen (REST answers move it too); a gap asks the server for a fresh state.
 */
export function followGame(gameId, { version, onState, onHello, onStatus, onAssist }) {
  const socket = new LiveSocket(`/ws/v1/games/${gameId}/`, {
    onStatus,
    onMessage(message) {
      if (message.t === PUSH.HELLO) {
        onHello?.(message.d);
        return;
      }
      if (message.t === PUSH.STATE) {
        if (message.v >= (version() ?? -1)) onState(message.d);
        return;
      }
      if (message.t === PUSH.HINT || message.t === PUSH.WINNABILITY) {
        onAssist?.(message.t, message.d); // unversioned: the answer names its version
        return;
      }
      if (message.t === PUSH.ERROR || message.t === PUSH.ANSWER) return; // not a change of the game
      const verdict = classify(message.v, version());
      if (verdict === "next") onState(message.d.state);
      else if (verdict === "gap") socket.send({ t: CLIENT.RESYNC });
    },
  });
  return socket;
}
