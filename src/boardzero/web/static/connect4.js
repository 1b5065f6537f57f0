// Connect 4: the board as SVG (discs in seat colours, legal columns clickable, the winning four ringed).
// Columns count 0..6 from the left everywhere a person sees them, as the game names its moves ("column 3"),
// its log, its hints and the terminal do.
import { h, s, seatLabel, swatch } from "./ui.js";

const CELL = 72, PAD = 14, LABELS = 26; // LABELS: the row of column numbers under the board
const DISC = ["#d7263d", "#f2c230"];
const NAMES = ["Red", "Yellow"];
export const seatStyle = { names: NAMES, colours: DISC };

export function drawBoard(container, view, { legal = [], onAct = null, hint = null } = {}) {
  const width = view.columns * CELL + 2 * PAD, height = view.rows * CELL + 2 * PAD + CELL / 2 + LABELS;
  const board = s("svg", { viewBox: `0 0 ${width} ${height}`, "data-board": "connect4" });
  board.append(s("rect", { x: 0, y: 0, width, height, fill: "#fffdf8" }));
  const top = CELL / 2;
  board.append(s("rect", { x: PAD / 2, y: top + PAD / 2, width: width - PAD, height: height - top - PAD - LABELS, rx: 14, fill: "#1f5fbf" }));
  for (let c = 0; c < view.columns; c++) {
    board.append(s("text", { class: "c4-label", x: PAD + c * CELL + CELL / 2, y: height - LABELS / 2, "text-anchor": "middle",
                             "dominant-baseline": "central", "font-size": 16, "font-weight": 700, fill: "#555",
                             "data-column-label": c, text: c }));
  }
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
  container.replaceChildren(h("div", { class: "status yours" }, "Click a column (or a button, or type its number) to drop a disc."),
    h("div", { class: "buttons" }, snap.legal.map((m) =>
      h("button", { class: "legal", "data-action": m.action, onclick: () => onAct(m.action) }, columnName(m.column), h("kbd", {}, m.column)))),
    h("div", { class: "muted small keys", id: "key-help" }, keyHelp));
}

export const keyHelp = "Keys: 0–6 drop a disc in that column";

export function columnName(column) {
  return `Column ${column}`;
}

// The legal move a key stands for (a column's number), or null.
export function keyAction(key, legal) {
  const move = /^\d$/.test(key) && legal.find((m) => m.column === Number(key));
  return move ? move.action : null;
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
