// The REST client: JSON in and out, the CSRF header on writes, one error type.
import { gettext, interpolate } from "./i18n.js";

const BASE = "/api/v1";

/** A refused or failed request; `status` 0 means the network failed (no answer). */
export class ApiError extends Error {
  constructor(status, body) {
    const error = body?.error ?? {};
    super(error.message ?? (status ? interpolate(gettext("Request failed (%(status)s)."), { status }, true) : gettext("No connection to the server.")));
    this.status = status;
    this.code = error.code ?? (status ? "error" : "network");
    this.rule = error.rule;
    this.fields = error.fields;
    this.state = error.state;
  }
}

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** One request; `keepalive` lets it outlive the page (a goodbye sent as the page goes). */
export async function request(method, path, body, { keepalive = false } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      credentials: "same-origin",
      keepalive,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, null);
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path) => request("GET", path);
export const post = (path, body = {}, options = {}) => request("POST", path, body, options);
export const patch = (path, body) => request("PATCH", path, body);
export const del = (path) => request("DELETE", path);

/**
 * A field error of a 400 answer, flattened to one readable line. A refusal with a code of its
 * own (`username-not-allowed`, `username-taken`) already says it in a sentence of the
 * player's language: that sentence, without an English field name before it.
 */
export function fieldMessage(error) {
  if (!error.fields || error.code !== "invalid-request") return error.message;
  return Object.entries(error.fields)
    .map(([field, problems]) => {
      const text = Array.isArray(problems) ? problems.join(" ") : String(problems);
      return field === "non_field_errors" ? text : `${field}: ${text}`;
    })
    .join(" ");
}
