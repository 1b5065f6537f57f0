// Connect 4: the board as SVG (discs in seat colours, legal columns clickable, the winning four ringed).
import { h, s, seatLabel, swatch } from "./ui.js";

const CELL = 72, PAD = 14;
const DISC = ["#d7263d", "#f2c230"];
const NAMES = ["Red", "Yellow"];
export const seatStyle = { names: NAMES, colours: DISC };

export function drawBoard(container, view, { legal = [], onAct = null, hint = null } = {}) {
  const width = view.columns * CELL + 2 * PAD, height = view.rows * CELL + 2 * PAD + CELL / 2;
  const board = s("svg", { viewBox: `0 0 ${width} ${height}`, "data-board": "connect4" });
  board.append(s("rect", { x: 0, y: 0, width, height, fill: "#fffdf8" }));
  const top = CELL / 2;
  board.append(s("rect", { x: PAD / 2, y: top + PAD / 2, width: width - PAD, height: height - top - PAD, rx: 14, fill: "#1f5fbf" }));
  const winning = new Set(view.winning_cells.map(([r, c]) => `${r},${c}`));
  for (let r = 0; r < view.rows; r++) {
    for (let c = 0; c < view.columns; c++) {
      const owner = view.grid[r][c];
      const cx = PAD + c * CELL + CELL / 2, cy = top + PAD + r * CELL + CELL / 2;
      board.append(s("circle", { cx, cy, r: CELL * 0.4, fill: owner === null ? "#fffdf8" : DISC[owner],
                                 stroke: "#153f80", "stroke-width": 2, "data-cell": `${r},${c}`,
                                 "data-owner": owner ?? "" }));
      if (winning.has(`${r},${c}`)) board.append(s("circle", { cx, cy, r: CELL * 0.28, fill: "none", stroke: "#fff", "stroke-width": 4 }));
    }
  }
  for (const move of legal) {
    const x = PAD + move.column * CELL;
    board.append(s("rect", { class: "c4-col legal", x, y: 0, width: CELL, height, fill: "transparent",
                             "data-column": move.column, "data-action": move.action, style: "cursor:pointer",
                             onclick: () => onAct && onAct(move.action) }, s("title", { text: move.name })));
    board.append(s("polygon", { points: `${x + CELL / 2 - 9},${top - 14} ${x + CELL / 2 + 9},${top - 14} ${x + CELL / 2},${top - 2}`,
                                fill: "#c9a400", "pointer-events": "none" }));
  }
  if (hint && hint.kind === "drop") {
    const x = PAD + hint.column * CELL + CELL / 2;
    board.append(s("circle", { class: "hinted", cx: x, cy: top - 8, r: 12 }));
  }
  container.replaceChildren(board);
}

export function drawPlayers(container, snap) {
  container.replaceChildren(...snap.seats.map((seat) =>
    h("div", { class: "player" + (snap.pending.seat === seat.seat ? " to-move" : ""), "data-seat": seat.seat },
      h("div", { class: "name" }, swatch(seat.seat, DISC), " ",
        seatLabel(snap, seat.seat, NAMES)))));
}

export function drawActions(container, snap, onAct) {
  if (!snap.legal.length) {
    container.replaceChildren();
    return;
  }
  container.replaceChildren(h("div", { class: "status yours" }, "Click a column (or a button) to drop a disc."),
    h("div", { class: "buttons" }, snap.legal.map((m) =>
      h("button", { class: "legal", "data-action": m.action, onclick: () => onAct(m.action) }, `Column ${m.column + 1}`))));
}

export function drawDice(container) {
  container.replaceChildren();
}

export function statusText(snap) {
  return `${snap.view.moves} discs played`;
}

export function summary(snap) {
  const view = snap.view;
  const text = view.winner === null ? "A draw: the board is full." : `${seatLabel(snap, view.winner, NAMES)} wins with four in a row.`;
  return h("div", {}, h("p", { "data-summary": "result" }, h("b", {}, text), ` ${view.moves} discs played.`));
}
