// Small helpers shared by the page and the game drawings: DOM and SVG builders, the API, seat names.

export const SVG_NS = "http://www.w3.org/2000/svg";
export const SEAT_COLOURS = ["#d7263d", "#1b65c4", "#f4f4f4", "#f08c00"];
export const SEAT_NAMES = ["Red", "Blue", "White", "Orange"];

// h("div", {class: "x", onclick: f}, child, "text", ...) -> an HTML element
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// s("circle", {cx: 1, ...}, ...) -> an SVG element
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.error, data.message || response.statusText);
  return data;
}

// Seat tokens are kept in this browser only: {gameId: {"0": token, host: token}}
const TOKEN_KEY = "boardzero.tokens";
export function tokensFor(gameId) {
  const all = JSON.parse(localStorage.getItem(TOKEN_KEY) || "{}");
  return all[gameId] || {};
}
export function saveTokens(gameId, tokens) {
  const all = JSON.parse(localStorage.getItem(TOKEN_KEY) || "{}");
  all[gameId] = tokens;
  localStorage.setItem(TOKEN_KEY, JSON.stringify(all));
}

export function seatLabel(snap, seat, names = SEAT_NAMES) {
  const player = snap.seats[seat];
  const who = player.human ? (seat === snap.viewer ? "You" : "Person") : player.player;
  return `${names[seat] || "Seat " + seat} (seat ${seat}, ${who})`;
}

export function swatch(seat, colours = SEAT_COLOURS) {
  return h("span", { class: "swatch", style: `background:${colours[seat] || "#999"}` });
}

export function percent(x) {
  return x === null || x === undefined ? "–" : `${Math.round(100 * x)} %`;
}
