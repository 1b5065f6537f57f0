// Catan: the SVG board (hexes, number tokens with pips, robber, harbours, buildings and roads in seat
// colours, legal moves highlighted and clickable), the seats' panel, the action buttons and the summary.
import { h, s, SEAT_COLOURS, SEAT_NAMES, seatLabel, swatch } from "./ui.js";

const R = 56;                       // hex circumradius in px
const UX = R * Math.sqrt(3) / 2;    // one half unit of x
const UY = R / 2;                   // one half unit of y
const M = 78;                       // margin around the island (harbours, sea)
const TERRAIN = { wood: "#2f7d32", brick: "#c0622f", sheep: "#9ccc65", wheat: "#f2c94c", ore: "#8d99ae", desert: "#e3d3a1" };
const RESOURCES = ["wood", "brick", "sheep", "wheat", "ore"];
const DEV = ["knight", "victory point", "road building", "year of plenty", "monopoly"];

const px = (x) => x * UX + M;
const py = (y) => y * UY + M;

export function drawBoard(container, view, { legal = [], onAct = null, hint = null } = {}) {
  const width = 10 * UX + 2 * M, height = 16 * UY + 2 * M;
  const board = s("svg", { viewBox: `0 0 ${width} ${height}`, "data-board": "catan" });
  board.append(s("rect", { x: 0, y: 0, width, height, rx: 16, fill: "#4a90c2" }));
  const nodes = view.nodes;
  const at = (node) => [px(nodes[node].x), py(nodes[node].y)];
  const legalBy = groupLegal(legal);

  for (const harbour of view.harbours) board.append(drawHarbour(harbour, at));
  for (const hex of view.hexes) board.append(drawHex(hex, at, legalBy.robber.get(hex.id), onAct));
  for (const edge of view.edges) {
    if (edge.owner === null) continue;
    const [a, b] = shorten(at(edge.nodes[0]), at(edge.nodes[1]), 0.14);
    board.append(s("line", { class: "road-outline", x1: a[0], y1: a[1], x2: b[0], y2: b[1] }));
    board.append(s("line", { class: "road", x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: SEAT_COLOURS[edge.owner],
                             "data-road": edge.id, "data-owner": edge.owner }));
  }
  for (const [edgeId, move] of legalBy.road) {
    const edge = view.edges[edgeId];
    board.append(s("rect", { class: "path-hit legal", ...bar(at(edge.nodes[0]), at(edge.nodes[1]), 0.18, 12),
                             "data-edge": edgeId, "data-action": move.action,
                             onclick: () => onAct && onAct(move.action) }, s("title", { text: move.name })));
  }
  for (const node of nodes) {
    if (node.owner !== null) board.append(drawBuilding(node, at));
  }
  for (const kind of ["settlement", "city"]) {
    for (const [nodeId, move] of legalBy[kind]) {
      const [x, y] = at(nodeId);
      board.append(s("circle", { class: `spot legal ${kind}`, cx: x, cy: y, r: kind === "city" ? 13 : 9,
                                 "data-node": nodeId, "data-action": move.action,
                                 onclick: () => onAct && onAct(move.action) }, s("title", { text: move.name })));
    }
  }
  if (hint) board.append(drawHint(hint, view, at));
  container.replaceChildren(board);
}

function groupLegal(legal) {
  const groups = { settlement: new Map(), city: new Map(), road: new Map(), robber: new Map() };
  for (const move of legal) {
    if (move.kind === "settlement" || move.kind === "city") groups[move.kind].set(move.node, move);
    else if (move.kind === "road") groups.road.set(move.edge, move);
    else if (move.kind === "robber") groups.robber.set(move.hex, move);
  }
  return groups;
}

// a rounded bar of the given thickness along a path, ``share`` cut off at each end (a clickable area
// with a real width, unlike a line's stroke)
function bar([x1, y1], [x2, y2], share, thickness) {
  const length = Math.hypot(x2 - x1, y2 - y1) * (1 - 2 * share);
  const angle = Math.atan2(y2 - y1, x2 - x1) * 180 / Math.PI;
  return { x: -length / 2, y: -thickness / 2, width: length, height: thickness, rx: thickness / 2,
           transform: `translate(${(x1 + x2) / 2},${(y1 + y2) / 2}) rotate(${angle})` };
}

function shorten([x1, y1], [x2, y2], share) {
  const dx = (x2 - x1) * share, dy = (y2 - y1) * share;
  return [[x1 + dx, y1 + dy], [x2 - dx, y2 - dy]];
}

function drawHex(hex, at, robberMove, onAct) {
  const group = s("g", { "data-hex": hex.id });
  const points = hex.nodes.map((n) => at(n).join(",")).join(" ");
  const polygon = s("polygon", { class: "hex" + (robberMove ? " legal" : ""), points, fill: TERRAIN[hex.terrain],
                                 "data-terrain": hex.terrain });
  group.append(polygon);
  const cx = px(hex.x), cy = py(hex.y);
  if (hex.number) {
    const hot = hex.number === 6 || hex.number === 8;
    group.append(s("circle", { class: "token", cx, cy, r: 19 }));
    group.append(s("text", { class: "token-text" + (hot ? " hot" : ""), x: cx, y: cy - 3, text: hex.number }));
    for (let i = 0; i < hex.pips; i++) {
      group.append(s("circle", { class: "pip" + (hot ? " hot" : ""), cx: cx + (i - (hex.pips - 1) / 2) * 4.6, cy: cy + 10, r: 1.8 }));
    }
  }
  if (hex.robber) {
    const rx = hex.number ? cx - 30 : cx, ry = cy + 2;
    group.append(s("g", { class: "robber", "data-robber": hex.id },
                   s("ellipse", { cx: rx, cy: ry + 6, rx: 9, ry: 12, fill: "#2b2b2b", stroke: "#eee", "stroke-width": 1.5 }),
                   s("circle", { cx: rx, cy: ry - 10, r: 6.5, fill: "#2b2b2b", stroke: "#eee", "stroke-width": 1.5 })));
  }
  if (robberMove) {
    group.setAttribute("data-action", robberMove.action);
    group.classList.add("legal");
    group.style.cursor = "pointer";
    group.addEventListener("click", () => onAct && onAct(robberMove.action));
    group.append(s("title", { text: describe(robberMove.name) }));
  }
  return group;
}

function drawHarbour(harbour, at) {
  const [ax, ay] = at(harbour.nodes[0]), [bx, by] = at(harbour.nodes[1]);
  const cx = px(5), cy = py(8);
  const mx = (ax + bx) / 2, my = (ay + by) / 2;
  const length = Math.hypot(mx - cx, my - cy);
  const lx = mx + (mx - cx) / length * 36, ly = my + (my - cy) / length * 36;
  const fill = harbour.resource ? TERRAIN[harbour.resource] : "#fffdf8";
  const textColour = harbour.resource === "wood" || harbour.resource === "brick" ? "#fff" : "#222";
  return s("g", { class: "harbour", "data-harbour": harbour.edge, "data-rate": harbour.rate },
           s("line", { class: "pier", x1: ax, y1: ay, x2: lx, y2: ly }),
           s("line", { class: "pier", x1: bx, y1: by, x2: lx, y2: ly }),
           s("circle", { cx: lx, cy: ly, r: 19, fill, stroke: "#4a3a20", "stroke-width": 2 }),
           s("text", { class: "harbour-label", x: lx, y: ly - (harbour.resource ? 4 : 0), fill: textColour,
                       text: `${harbour.rate}:1` }),
           harbour.resource ? s("text", { class: "harbour-label", x: lx, y: ly + 8, fill: textColour,
                                          "font-size": 9, text: harbour.resource }) : null,
           s("title", { text: harbour.resource ? `2:1 ${harbour.resource} harbour` : "3:1 harbour" }));
}

function drawBuilding(node, at) {
  const [x, y] = at(node.id);
  const points = node.building === "city"
    ? "-13,9 -13,-3 -4,-3 -4,-10 4,-16 12,-10 12,9"
    : "-8,6 -8,-3 0,-11 8,-3 8,6";
  return s("polygon", { class: `building ${node.building}`, points, transform: `translate(${x},${y})`,
                        fill: SEAT_COLOURS[node.owner], "data-building": node.building, "data-node": node.id,
                        "data-owner": node.owner });
}

function drawHint(move, view, at) {
  if (move.kind === "settlement" || move.kind === "city") {
    const [x, y] = at(move.node);
    return s("circle", { class: "hinted", cx: x, cy: y, r: 17 });
  }
  if (move.kind === "road") {
    const [x1, y1] = at(view.edges[move.edge].nodes[0]), [x2, y2] = at(view.edges[move.edge].nodes[1]);
    return s("line", { class: "hinted", x1, y1, x2, y2 });
  }
  if (move.kind === "robber") {
    const hex = view.hexes[move.hex];
    return s("circle", { class: "hinted", cx: px(hex.x), cy: py(hex.y), r: 34 });
  }
  return null;
}

// ------------------------------------------------------------------ words
// The engine names seats by number ("rob seat 2 (1 cards)"); people see colours.
export function describe(text) {
  return String(text)
    .replace(/\bseats? (\d+(?:, \d+)*)/g, (_, list) => list.split(", ").map((n) => SEAT_NAMES[Number(n)] || `seat ${n}`).join(", "))
    .replace(/\b1 cards\b/g, "1 card");
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// ------------------------------------------------------------------ panels
export function drawPlayers(container, snap) {
  const view = snap.view;
  container.replaceChildren(...view.seats.map((p) => {
    const facts = [
      h("span", {}, h("b", {}, p.points ?? p.visible_points), " VP", p.points === undefined ? " showing" : ""),
      h("span", {}, plural(p.cards, "card")),
      h("span", {}, plural(p.dev_cards, "dev card")),
      h("span", {}, plural(p.knights, "knight")),
      h("span", {}, `road ${p.road_length}`),
      p.longest_road ? h("span", { class: "badge" }, "Longest road") : null,
      p.largest_army ? h("span", { class: "badge" }, "Largest army") : null,
      p.to_discard ? h("span", { class: "badge" }, `discards ${p.to_discard}`) : null,
    ];
    return h("div", { class: "player" + (snap.pending.seat === p.seat ? " to-move" : ""), "data-seat": p.seat },
             h("div", { class: "name" }, swatch(p.seat), " ", seatLabel(snap, p.seat)),
             h("div", { class: "facts" }, facts));
  }));
}

const BUTTONS = [["roll", "Roll dice", "r"], ["buy_dev", "Buy development card"], ["knight", "Play knight"],
                 ["road_building", "Play road building"], ["year_of_plenty", "Play year of plenty"],
                 ["end_turn", "End turn", "e"]];
const GROUPS = [["take", (m) => `Take ${m.resource}`], ["monopoly", (m) => `Monopoly: ${m.resource}`],
                ["rob", (m) => describe(m.name).replace(/^rob /, "Rob ")]];
const CLICK_HELP = { settlement: "Click a highlighted corner to build a settlement.",
                     city: "Click one of your highlighted settlements to make it a city.",
                     road: "Click a highlighted path to build a road.",
                     robber: "Click a highlighted hex to move the robber there." };
export const COSTS = [["Road", { wood: 1, brick: 1 }], ["Settlement", { wood: 1, brick: 1, sheep: 1, wheat: 1 }],
                      ["City", { wheat: 2, ore: 3 }], ["Development card", { sheep: 1, wheat: 1, ore: 1 }]];
export const keyHelp = "Keys: r roll · e end turn · Esc clear a choice";
const tradeKeyHelp = "Keys: r roll · e end turn · a accept · d decline an offer · Esc clear a choice";

// What the person has chosen but not yet sent: cards to discard, the two sides of a trade. Kept between
// redraws of the same position; cleared by Esc (``clearSelection``) and once the choice is no longer offered.
const selection = { discard: {}, give: null, get: null, offerGive: {}, offerGet: {}, offerOpen: null };

export function clearSelection() {
  selection.discard = {};
  selection.offerGive = {};
  selection.offerGet = {};
  selection.give = null;
  selection.get = null;
}

// The legal move a key stands for ("r": roll, "e": end turn, "a" / "d": accept / decline an offer), or null.
export function keyAction(key, legal) {
  const kind = { r: "roll", e: "end_turn", a: "accept", d: "decline" }[key.toLowerCase()];
  const move = kind && legal.find((m) => m.kind === kind);
  return move ? move.action : null;
}

export function drawActions(container, snap, onAct) {
  const view = snap.view;
  const me = snap.viewer === null ? null : view.seats[snap.viewer];
  const legal = snap.legal;
  const parts = [];
  const discarding = me && me.hand && legal.some((m) => m.kind === "discard");
  if (!discarding) selection.discard = {};
  if (me && me.hand) {
    parts.push(h("div", { class: "hand", "data-hand": "" }, RESOURCES.map((r) =>
      h("span", { class: "res", style: `background:${TERRAIN[r]}33`, "data-resource": r }, h("b", {}, me.hand[r]), r))));
    const dev = DEV.filter((d) => me.development[d] > 0)
      .map((d) => `${me.development[d]} ${d}` + (me.development_new[d] ? ` (${me.development_new[d]} new)` : ""));
    parts.push(h("div", { class: "muted small" }, "Development cards: ", dev.length ? dev.join(", ") : "none"));
  }
  if (legal.length) {
    const kinds = new Set(legal.map((m) => m.kind));
    for (const kind of Object.keys(CLICK_HELP)) if (kinds.has(kind)) parts.push(h("div", { class: "status yours" }, CLICK_HELP[kind]));
    if (discarding) parts.push(discardPicker(me, legal, onAct));
    else {
      parts.push(h("div", { class: "buttons", id: "action-buttons" }, BUTTONS.map(([kind, label, key]) => {
        const move = legal.find((m) => m.kind === kind);
        return h("button", { class: move ? "legal" : "", disabled: !move, "data-kind": kind, title: key ? `key: ${key}` : null,
                             onclick: () => move && onAct(move.action) }, label, key ? h("kbd", {}, key) : null);
      })));
    }
    for (const [kind, label] of GROUPS) {
      const moves = legal.filter((m) => m.kind === kind);
      if (moves.length) {
        parts.push(h("div", { class: "buttons" }, moves.map((m) =>
          h("button", { class: "legal", "data-kind": kind, "data-action": m.action, onclick: () => onAct(m.action) }, label(m)))));
      }
    }
    const trades = legal.filter((m) => m.kind === "trade");
    if (trades.length && me) parts.push(tradePicker(me, trades, onAct));
  }
  // no trading in the setup nor once the game is over
  if (view.trade && !view.phase.startsWith("setup") && view.phase !== "over") parts.push(tradePanel(snap, legal, onAct));
  if (me && me.hand) parts.push(h("div", { class: "muted small keys", id: "key-help" }, view.trade ? tradeKeyHelp : keyHelp));
  container.replaceChildren(...parts);
}

// Discarding on a 7: choose every card at once (a click adds one), then one button sends them all.
function discardPicker(me, legal, onAct) {
  const need = me.to_discard;
  const chosen = selection.discard;
  const total = RESOURCES.reduce((sum, r) => sum + (chosen[r] || 0), 0);
  const offered = new Map(legal.filter((m) => m.kind === "discard").map((m) => [m.resource, m.action]));
  const picker = h("div", { class: "discard", id: "discard" });
  const redraw = () => picker.replaceWith(discardPicker(me, legal, onAct));
  picker.append(h("div", { class: "status yours" }, `A 7: discard ${plural(need, "card")} (half your hand). `,
                  "Click cards to choose them, then discard them together."));
  picker.append(h("div", { class: "buttons" }, RESOURCES.filter((r) => me.hand[r] > 0).map((r) =>
    h("button", { class: "res-pick" + (chosen[r] ? " picked" : ""), "data-discard": r, style: `background:${TERRAIN[r]}33`,
                  disabled: !offered.has(r) || (chosen[r] || 0) >= me.hand[r] || total >= need,
                  onclick: () => { chosen[r] = (chosen[r] || 0) + 1; redraw(); } },
      `${r} `, h("b", {}, `${chosen[r] || 0}/${me.hand[r]}`)))));
  const actions = RESOURCES.flatMap((r) => Array(chosen[r] || 0).fill(offered.get(r)));
  picker.append(h("div", { class: "buttons" },
    h("button", { class: "primary", id: "discard-send", disabled: total !== need,
                  onclick: () => { selection.discard = {}; onAct(actions); } }, `Discard ${total} of ${need}`),
    h("button", { id: "discard-clear", disabled: total === 0, onclick: () => { selection.discard = {}; redraw(); } }, "Clear")));
  return picker;
}

// Bank and harbour trades as "give / get": only the rates this seat has, and only what it can pay.
function tradePicker(me, trades, onAct) {
  const gives = RESOURCES.filter((r) => trades.some((m) => m.give === r));
  if (!gives.includes(selection.give)) selection.give = gives[0];
  const gets = RESOURCES.filter((r) => trades.some((m) => m.give === selection.give && m.get === r));
  if (!gets.includes(selection.get)) selection.get = gets[0];
  const give = h("select", { id: "trade-give", "aria-label": "give" }, gives.map((r) =>
    h("option", { value: r }, `${me.trade_rates[r]} ${r} (${me.trade_rates[r]}:1)`)));
  const get = h("select", { id: "trade-get", "aria-label": "get" }, gets.map((r) => h("option", { value: r }, `1 ${r}`)));
  give.value = selection.give;
  get.value = selection.get;
  const box = h("div", { class: "trade", id: "trade" });
  const redraw = () => box.replaceWith(tradePicker(me, trades, onAct));
  give.addEventListener("change", () => { selection.give = give.value; redraw(); });
  get.addEventListener("change", () => { selection.get = get.value; });
  const send = () => {
    const move = trades.find((m) => m.give === selection.give && m.get === selection.get);
    if (move) onAct(move.action);
  };
  box.append("Trade: give ", give, " get ", get, " ", h("button", { class: "legal", "data-kind": "trade", id: "trade-send", onclick: send }, "Trade"));
  return box;
}

// Trading with the other seats (games with the trading option). On one's own turn after the roll: pick the
// cards to give and to ask for; only catalogue offers are legal (1 for 1, 2 for 1, 1 for 2), so a card that
// fits no legal offer with what is already picked is greyed, and Offer finds the matching offer's id. An open
// offer shows every seat's answer as it comes; the answering seat gets Accept / Decline, the proposer the
// partners who accepted (Trade with …) and Withdraw.
const count = (cards) => Object.values(cards).reduce((a, b) => a + b, 0);
const cardsText = (cards) => RESOURCES.filter((r) => cards[r]).map((r) => `${cards[r]} ${r}`).join(" + ");
const covers = (cards, want) => RESOURCES.every((r) => (cards[r] || 0) >= (want[r] || 0));
const same = (a, b) => covers(a, b) && covers(b, a);

// The offers seen this turn, by their number in the turn, so that an offer withdrawn and made again reads as a
// new one ("… again · offer 2 of 3 this turn, made before this turn and withdrawn").
const seenOffers = { turn: null, byNumber: new Map() };
function offeredBefore(turn, number, index) {  // turn: the game's id and turn number
  if (seenOffers.turn !== turn) { seenOffers.turn = turn; seenOffers.byNumber = new Map(); }
  seenOffers.byNumber.set(number, index);
  return [...seenOffers.byNumber].some(([n, i]) => n < number && i === index);
}

function tradePanel(snap, legal, onAct) {
  const trade = snap.view.trade;
  const box = h("div", { class: "trade-panel", id: "trade-panel" });
  if (!trade.offer) box.append(h("div", { class: "muted small" }, `Trading with players: ${trade.offers_made} of ${trade.offers_per_turn} offers made this turn`));
  else {
    const proposer = snap.view.turn_player;
    const again = offeredBefore(`${snap.id}:${snap.view.turn}`, trade.offers_made, trade.offer.index);
    box.append(h("div", { class: "status" + (again ? " again" : ""), id: "trade-offer" }, swatch(proposer), " ", seatLabel(snap, proposer),
                 ` offers ${cardsText(trade.offer.give)} for ${cardsText(trade.offer.get)}`));
    box.append(h("div", { class: "muted small", id: "trade-offer-number" }, `Offer ${trade.offers_made} of ${trade.offers_per_turn} this turn` +
                 (again ? ": the same offer again, after it was withdrawn" : "")));
    box.append(h("div", { class: "answers", id: "trade-answers" }, snap.view.seats.filter((p) => p.seat !== proposer).map((p) => {
      const answer = trade.answers[p.seat];
      const word = answer === "accept" ? "accepts" : answer === "decline" ? "declines" : "to answer…";
      return h("span", { class: "answer " + (answer || "waiting"), "data-answer-seat": p.seat }, swatch(p.seat), " ", seatLabel(snap, p.seat), ": ", word);
    })));
  }
  const answerMoves = legal.filter((m) => m.kind === "accept" || m.kind === "decline" || m.kind === "trade_with" || m.kind === "withdraw");
  const me = snap.viewer === null ? null : snap.view.seats[snap.viewer];
  if (trade.offer && me && me.hand && answerMoves.some((m) => m.kind === "decline") && !answerMoves.some((m) => m.kind === "accept")) {
    const short = RESOURCES.filter((r) => (me.hand[r] || 0) < (trade.offer.get[r] || 0)).map((r) => `${me.hand[r] || 0} ${r}`);
    box.append(h("div", { class: "muted small", id: "trade-cannot" },
                 `You hold ${short.join(" and ")}, and the offer asks for ${cardsText(trade.offer.get)}: you can only decline.`));
  }
  if (answerMoves.length) {
    const label = (m) => ({ accept: "Accept", decline: "Decline", withdraw: "Withdraw" })[m.kind] || describe(m.name).replace(/^trade/, "Trade");
    box.append(h("div", { class: "buttons", id: "trade-buttons" }, answerMoves.map((m) =>
      h("button", { class: "legal", "data-kind": m.kind, "data-action": m.action, onclick: () => onAct(m.action) }, label(m)))));
  }
  if (!trade.offer && trade.declined && trade.declined.length) {  // the no-repeat rule, in view
    box.append(h("div", { class: "muted small", id: "trade-declined" }, "Declined by everyone this turn, so not offered again: ",
                 trade.declined.map((o) => `${cardsText(o.give)} for ${cardsText(o.get)}`).join(" · ")));
  }
  const offers = legal.filter((m) => m.kind === "offer");
  if (offers.length) box.append(offerPicker(offers, onAct));
  return box;
}

function offerPicker(offers, onAct) {
  const give = selection.offerGive, get = selection.offerGet;
  const fits = (g, t) => offers.some((m) => covers(m.give, g) && covers(m.get, t));
  if (!fits(give, get)) { selection.offerGive = {}; selection.offerGet = {}; return offerPicker(offers, onAct); }
  // Folded on a phone until opened (the panel would not fit the screen with it), open on a wider screen; the
  // person's choice (offerOpen) holds until the page is loaded again; Esc does not fold it.
  const open = selection.offerOpen ?? !window.matchMedia("(max-width: 760px)").matches;
  const box = h("details", { class: "offer", id: "offer", open, ontoggle: () => { selection.offerOpen = box.open; } });
  const redraw = () => box.replaceWith(offerPicker(offers, onAct));
  const side = (name, picked, other, isGive) => h("div", { class: "buttons" }, h("span", { class: "muted" }, name),
    RESOURCES.map((r) => {
      const more = { ...picked, [r]: (picked[r] || 0) + 1 };
      return h("button", { class: "res-pick" + (picked[r] ? " picked" : ""), "data-offer-side": isGive ? "give" : "get", "data-resource": r,
                           style: `background:${TERRAIN[r]}33`, disabled: !(isGive ? fits(more, other) : fits(other, more)),
                           onclick: () => { picked[r] = (picked[r] || 0) + 1; redraw(); } }, `${r} `, h("b", {}, String(picked[r] || 0)));
    }));
  const match = offers.find((m) => same(m.give, give) && same(m.get, get));
  box.append(h("summary", { class: "status yours", id: "offer-open" }, "Offer a trade to the other players"),
    h("div", { class: "muted small" }, "Pick what you give and what you ask for."),
    side("You give:", give, get, true), side("You ask for:", get, give, false),
    h("div", { class: "buttons" },
      h("button", { class: "primary", id: "offer-send", disabled: !match, "data-action": match ? match.action : null,
                    onclick: () => { if (match) { clearSelection(); onAct(match.action); } } },
        match ? `Offer ${cardsText(give)} for ${cardsText(get)}` : "Offer"),
      h("button", { id: "offer-clear", disabled: !count(give) && !count(get), onclick: () => { selection.offerGive = {}; selection.offerGet = {}; redraw(); } }, "Clear")));
  return box;
}

// The price list, always in view: what each piece costs.
export function drawCosts(container) {
  container.replaceChildren(h("table", { class: "costs", "data-costs": "" }, COSTS.map(([name, cost]) =>
    h("tr", {}, h("th", {}, name), h("td", {}, Object.entries(cost).map(([r, n]) =>
      h("span", { class: "chip", style: `background:${TERRAIN[r]}55`, title: r }, `${n} ${r}`)))))));
}

export function drawDice(container, view) {
  const key = `${view.turn}:${view.dice}`;
  const fresh = view.dice && container.dataset.shown !== undefined && container.dataset.shown !== key;
  container.dataset.shown = key;
  container.replaceChildren(h("div", { class: "dice" }, "Dice ", h("span", { class: "die" + (fresh ? " rolling" : ""), "data-dice": view.dice ?? "" },
                                                                    view.dice ?? "–"),
                              h("span", { class: "muted dice-facts" },
                                ` turn ${view.turn} · bank ${RESOURCES.map((r) => view.bank[r]).join("/")} · ${view.dev_deck} dev cards left`)));
}

export function statusText(snap) {
  return snap.view.phase_text;
}

// ------------------------------------------------------------------ end of the game
export function summary(snap) {
  const view = snap.view;
  const rows = view.seats.map((p) => {
    const cities = 4 - p.cities_left, settlements = 5 - p.settlements_left;
    const vpCards = p.development ? p.development["victory point"] : 0;
    const name = seatLabel(snap, p.seat).split(" (")[0];
    return h("tr", { "data-seat": p.seat, title: seatLabel(snap, p.seat) }, h("td", {}, swatch(p.seat), " ", name),
             h("td", {}, settlements), h("td", { "data-cities": cities }, cities), h("td", {}, p.longest_road ? 2 : 0),
             h("td", {}, p.largest_army ? 2 : 0), h("td", {}, vpCards), h("td", {}, h("b", {}, p.points ?? p.visible_points)));
  });
  const winner = view.winner === null ? "The turn limit ended the game." : `${seatLabel(snap, view.winner)} wins.`;
  return h("div", {},
           h("p", {}, h("b", {}, winner), ` ${view.turn} turns.`),
           h("table", { class: "list compact", "data-summary": "vp" },
             h("tr", {}, [["Seat", ""], ["Settl.", "settlements standing, 1 point each"], ["Cities", "cities built, 2 points each"],
                          ["Road", "points for the longest road"], ["Army", "points for the largest army"], ["VP cards", "victory-point cards"],
                          ["Total", ""]].map(([t, title]) => h("th", { title }, t))),
             rows),
           h("h3", {}, "Dice rolled"), diceHistogram(view.dice_counts),
           h("div", { class: "muted" }, "Bars: rolls of each total; dashes: the expected number."));
}

function diceHistogram(counts) {
  const most = Math.max(1, ...counts);
  const width = 11 * 34 + 20, height = 150;
  const chart = s("svg", { viewBox: `0 0 ${width} ${height}`, style: "width:100%;height:auto", "data-summary": "dice" });
  const total = counts.reduce((a, b) => a + b, 0);
  counts.forEach((count, i) => {
    const x = 10 + i * 34, barHeight = (height - 45) * count / most;
    const expected = total * (6 - Math.abs(i - 5)) / 36;
    chart.append(s("rect", { x: x + 4, y: height - 25 - barHeight, width: 26, height: barHeight,
                             fill: i === 4 || i === 6 ? "#c1121f" : "#b5562a" }, s("title", { text: `${i + 2}: ${count} (expected ${expected.toFixed(1)})` })));
    const ey = height - 25 - (height - 45) * expected / most;
    chart.append(s("line", { x1: x + 2, x2: x + 32, y1: ey, y2: ey, stroke: "#333", "stroke-dasharray": "3 2" }));
    chart.append(s("text", { x: x + 17, y: height - 10, "text-anchor": "middle", "font-size": 12, text: i + 2 }));
    chart.append(s("text", { x: x + 17, y: height - 29 - barHeight, "text-anchor": "middle", "font-size": 11, text: count }));
  });
  return chart;
}
