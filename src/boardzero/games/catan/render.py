"""Text picture of a Catan position for the terminal (readable without colours).

Seat k's settlements are ``(a)``, ``(b)``, ... (``"abcd"[k]``), cities ``[A]``,
``[B]``, ..., roads the letter drawn along the path; a free intersection
shows its id. Each hex shows its
terrain, number (with ``R`` when the robber is there) and ``#id``; harbours
are written outside the coast as ``3:1`` or ``2:1 wood``.
"""

from __future__ import annotations

import numpy as np

from boardzero.games.catan.actions import DEV_NAMES, harbour_name, offer_name
from boardzero.games.catan.board import RESOURCE_NAMES
from boardzero.games.catan.explain import PHASE_NAMES
from boardzero.games.catan.offsets import PH_DISCARD, PH_OVER
from boardzero.games.catan.topology import (
    EDGE_NODES,
    HARBOUR_EDGES,
    HARBOUR_NODES,
    HEX_CENTRES,
    NODE_XY,
)

LETTERS = "abcd"
_TERRAIN_SHORT = ("wood", "brck", "shep", "whet", "ore", "dsrt")
_COLOURS = ("\x1b[31m", "\x1b[34m", "\x1b[33m", "\x1b[32m")  # red, blue, yellow, green
_RESET = "\x1b[0m"
_MX, _MY = 14, 2  # canvas margins


def _pos(x: int, y: int) -> tuple[int, int]:
    return 2 * y + _MY, 4 * x + _MX


def render(state, seat: int | None = None, *, color: bool = False) -> str:
    """The board, a blank line, then the status lines."""
    board, *status = render_parts(state, seat, color=color)
    return "\n".join([board, "", *status])


def render_parts(state, seat: int | None = None, *, color: bool = False) -> list[str]:
    """[board picture, turn and bank lines, one block per seat]: a terminal redraws only the parts that changed."""
    return [board_picture(state, color=color), *status_blocks(state, seat, color=color)]


def board_picture(state, *, color: bool = False) -> str:
    view = state.view
    edge_owners, node_owners, node_levels = view.edge_owners(), view.node_owners(), view.node_levels()
    rows, cols = 2 * 16 + 2 * _MY + 1, 4 * 10 + 2 * _MX + 1
    canvas = [[" "] * cols for _ in range(rows)]
    paint = {}  # (row, col) -> seat, for colouring

    def put(r, c, text, who=None):
        for i, ch in enumerate(text):
            if 0 <= c + i < cols:
                canvas[r][c + i] = ch
                if who is not None:
                    paint[(r, c + i)] = who

    for e, (a, b) in enumerate(EDGE_NODES):
        (xa, ya), (xb, yb) = NODE_XY[a], NODE_XY[b]
        if ya > yb:
            (xa, ya), (xb, yb) = (xb, yb), (xa, ya)
        owner = int(edge_owners[e])
        ra, ca = _pos(xa, ya)
        if xa == xb:  # vertical path
            for dr in (1, 2, 3):
                put(ra + dr, ca, LETTERS[owner] if owner >= 0 else "|", owner if owner >= 0 else None)
        else:
            glyph = "\\" if xb > xa else "/"
            cm = (ca + _pos(xb, yb)[1]) // 2
            put(ra + 1, cm - 1, (LETTERS[owner] * 3) if owner >= 0 else f" {glyph} ", owner if owner >= 0 else None)
    for v, (x, y) in enumerate(NODE_XY):
        owner = int(node_owners[v])
        r, c = _pos(x, y)
        if owner >= 0:
            token = f"[{LETTERS[owner].upper()}]" if node_levels[v] == 2 else f"({LETTERS[owner]})"
            put(r, c - 1, token, owner)
        else:
            label = str(v)  # free intersections show their id, so a person can find "settlement at 17"
            put(r, c - (len(label) - 1), label)
    robber = view.robber()
    terrain, numbers = view.hex_resources(), view.hex_numbers()
    for h, (x, y) in enumerate(HEX_CENTRES):
        r, c = _pos(x, y)
        res, num = int(terrain[h]), int(numbers[h])
        put(r - 1, c - 2, _TERRAIN_SHORT[res].center(5))
        label = (str(num) if num else "").rjust(2) + (" R" if h == robber else "  ")
        put(r, c - 2, label.center(5))
        put(r + 1, c - 2, f"#{h}".center(5))
    cx, cy = HEX_CENTRES[:, 0].mean(), HEX_CENTRES[:, 1].mean()
    for slot in range(len(HARBOUR_EDGES)):
        a, b = HARBOUR_NODES[slot]
        text = harbour_name(int(view.node_harbours()[a]))
        mx, my = (NODE_XY[a] + NODE_XY[b]) / 2
        dx, dy = mx - cx, my - cy
        norm = max(np.hypot(dx, dy * 1.7), 1e-9)
        r, c = _pos(mx + 1.6 * dx / norm, my + 1.6 * dy * 1.7 / norm / 1.7)
        r = int(round(r))
        c = int(round(c)) - (len(text) if dx < -0.5 else 0 if dx > 0.5 else len(text) // 2)
        put(r, c, text)

    lines = []
    for r, row in enumerate(canvas):
        if color:
            row = [(_COLOURS[paint[(r, c)]] + ch + _RESET) if (r, c) in paint else ch for c, ch in enumerate(row)]
        lines.append("".join(row).rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def status_blocks(state, seat: int | None = None, *, color: bool = False) -> list[str]:
    """The turn and bank lines, then one block per seat (its pieces; its hand where ``seat`` may see it)."""
    return [_general_lines(state), *(_seat_block(state, p, seat, color) for p in range(state.game.num_players))]


def _general_lines(state) -> str:
    view = state.view
    phase = view.phase()
    turn_player = phase.turn_seat
    last = phase.last_roll
    step = PHASE_NAMES[phase.id]
    if phase.id == PH_DISCARD:
        step += f" (seat {phase.decider}: {phase.to_discard[phase.decider]} more)"
    trade = view.trade()
    if trade is not None and trade.offer is not None:
        answers = ", ".join(f"seat {p} {a}s" for p, a in enumerate(trade.answers) if a is not None)
        step += f" (seat {phase.decider} decides; {offer_name(trade.offer.index)}{'; ' + answers if answers else ''})"
    out = [
        f"turn {phase.turn}, seat {turn_player} to play ({LETTERS[turn_player]}); step: {step}"
        + (f"; last roll {last}" if last else "")
        + f"; robber on hex {view.robber()}"
    ]
    if phase.id == PH_OVER:
        w = phase.winner
        out.append(f"game over: {'seat ' + str(w) + ' wins' if w is not None else 'turn limit reached'}")
    bank = " ".join(f"{RESOURCE_NAMES[r]} {count}" for r, count in enumerate(view.bank().tolist()))
    out.append(f"bank: {bank}; development deck: {view.deck_size()} cards")
    return "\n".join(out)


def _seat_block(state, p: int, seat: int | None, color: bool) -> str:
    view = state.view
    awards, pieces, dev = view.awards(), view.pieces_left(p), view.dev_cards(p)
    tags = []
    if awards.longest_road_holder == p:
        tags.append("LONGEST ROAD")
    if awards.largest_army_holder == p:
        tags.append("LARGEST ARMY")
    see_all = seat is None or seat == p or view.phase_id == PH_OVER
    vp = state.victory_points(p, hidden=see_all)
    name = f"seat {p} ({LETTERS[p]}/{LETTERS[p].upper()})"
    line = (
        f"{_COLOURS[p] + name + _RESET if color else name}{' *you*' if seat == p else ''}: {vp} VP"
        f"{'' if see_all else ' visible'}, {_count(view.card_count(p), 'card')}, "
        f"{_count(dev.sum(), 'dev card')}, {_count(view.knights(p), 'knight')}, "
        f"road {view.road_length(p)}, left: {pieces.roads} roads "
        f"{pieces.settlements} settlements {pieces.cities} cities" + (f" [{', '.join(tags)}]" if tags else "")
    )
    if not see_all:
        return line
    hand = ", ".join(f"{int(count)} {RESOURCE_NAMES[r]}" for r, count in enumerate(view.hand(p)))
    cards = ", ".join(_count(dev[d], DEV_NAMES[d]) for d in range(5) if dev[d])
    return f"{line}\n    hand: {hand}; development cards: {cards or 'none'}"


def _count(n, noun: str) -> str:
    """'1 card', '3 cards', '2 victory points', '2 road building cards'."""
    if n == 1:
        return f"1 {noun}"
    return f"{int(n)} {noun}{' cards' if noun.endswith(('building', 'plenty', 'monopoly')) else 's'}"


def numbering_picture() -> str:
    """The board with hex ids (#h), intersection ids (plain) and path ids (in brackets)."""
    rows, cols = 2 * 16 + 1, 6 * 10 + 8

    def pos(x, y):
        return 2 * y, 6 * x + 3

    canvas = [[" "] * cols for _ in range(rows)]

    def put(r, c, text):
        for i, ch in enumerate(text):
            canvas[r][c + i] = ch

    for e, (a, b) in enumerate(EDGE_NODES):
        (xa, ya), (xb, yb) = NODE_XY[a], NODE_XY[b]
        ra, ca = pos(xa, min(ya, yb))
        if xa == xb:
            put(ra + 2, ca - 2, f"[{e}]".center(4))
        else:
            cm = (ca + pos(xb, yb)[1]) // 2
            put(ra + 1, cm - 2, f"[{e}]".center(4))
    for v, (x, y) in enumerate(NODE_XY):
        r, c = pos(x, y)
        put(r, c - 1, f"{v:>2}")
    for h, (x, y) in enumerate(HEX_CENTRES):
        r, c = pos(x, y)
        put(r, c - 1, f"#{h}")
    return "\n".join("".join(row).rstrip() for row in canvas if "".join(row).strip())
