// Tic-tac-toe, Kuhn poker and any other game: a small board where the view has one (cells, cards),
// and every legal move as a button.
import { h, s, seatLabel, swatch } from "./ui.js";

export function drawBoard(container, view, { legal = [], onAct = null } = {}) {
  if (view.cells) return container.replaceChildren(tictactoe(view, legal, onAct));
  if (view.seats && view.pot !== undefined) return container.replaceChildren(poker(view));
  container.replaceChildren(h("pre", {}, JSON.stringify(view, null, 1)));
}

function tictactoe(view, legal, onAct) {
  const size = 100;
  const board = s("svg", { viewBox: `0 0 ${3 * size} ${3 * size}`, "data-board": "tictactoe" });
  board.append(s("rect", { x: 0, y: 0, width: 3 * size, height: 3 * size, fill: "#fffdf8" }));
  const moves = new Map(legal.map((m) => [m.cell, m]));
  view.cells.forEach((owner, i) => {
    const x = (i % 3) * size, y = Math.floor(i / 3) * size;
    const move = moves.get(i);
    board.append(s("rect", { x: x + 3, y: y + 3, width: size - 6, height: size - 6, rx: 8, fill: move ? "#fff6c2" : "#f1ead9",
                             stroke: "#8a7f6d", "data-cell": i, "data-action": move ? move.action : null,
                             style: move ? "cursor:pointer" : null, onclick: () => move && onAct && onAct(move.action) }));
    if (owner !== null) {
      board.append(s("text", { x: x + size / 2, y: y + size / 2 + 2, "text-anchor": "middle", "dominant-baseline": "central",
                               "font-size": 60, "font-weight": 700, fill: owner === 0 ? "#d7263d" : "#1b65c4",
                               "pointer-events": "none", text: owner === 0 ? "X" : "O" }));
    }
  });
  return board;
}

function poker(view) {
  return h("div", { class: "hand", "data-board": "kuhn_poker" }, view.seats.map((p) =>
    h("span", { class: "res", "data-seat": p.seat }, h("b", {}, p.card ?? "?"), `seat ${p.seat}`,
      `${p.chips} in`, p.folded ? "folded" : "")), h("span", { class: "res" }, h("b", {}, view.pot), "pot"));
}

export function drawPlayers(container, snap) {
  container.replaceChildren(...snap.seats.map((seat) =>
    h("div", { class: "player" + (snap.pending.seat === seat.seat ? " to-move" : ""), "data-seat": seat.seat },
      h("div", { class: "name" }, swatch(seat.seat), " ", seatLabel(snap, seat.seat)))));
}

export function drawActions(container, snap, onAct) {
  container.replaceChildren(h("div", { class: "buttons" }, snap.legal.map((m) =>
    h("button", { class: "legal", "data-action": m.action, onclick: () => onAct(m.action) }, m.name))));
}

export function drawDice(container) {
  container.replaceChildren();
}

export function statusText(snap) {
  return `${snap.view.moves} moves`;
}

export function summary(snap) {
  const returns = snap.view.returns || [];
  return h("div", {}, h("p", { "data-summary": "result" }, "Returns: ",
                        returns.map((r, seat) => `${seatLabel(snap, seat)} ${r}`).join(" · ")));
}
