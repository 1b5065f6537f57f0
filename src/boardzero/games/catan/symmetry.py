"""The board's symmetries: turns of the board by 120 and 240 degrees about the centre hex.

Of the twelve turns and mirrors of the hexagon, only these two (and the identity) keep the nine harbour
slots of the frame (spaced 3, 3, 4 around the coast) in place, so the image of a dealt board is a board
the game deals too, with the same tile, number and harbour distributions. The rules read only the board's
adjacency, so a position and its image are equally good for every seat: training sees each sample as
itself or as an image (``train.symmetries``), and ``symmetric_state`` deals the image of a game's start.
"""

from __future__ import annotations

import functools

import numpy as np

from boardzero.core.api import Symmetry
from boardzero.games.catan import observe as O
from boardzero.games.catan.actions import A_CITY, A_ROAD, A_ROBBER, A_SETTLEMENT, NUM_ACTIONS
from boardzero.games.catan.topology import EDGE_NODES, HARBOUR_EDGES, HEX_CENTRES, HEX_ROW, NODE_XY, NUM_NODES
from boardzero.games.catan.transitions import init_state
from boardzero.games.catan.view import CatanView

CENTRE_HEX = 9


def _plane(points: np.ndarray) -> np.ndarray:
    """Half-unit coordinates (X, Y) as points of the plane, where the hexes are regular."""
    return np.stack([points[:, 0] * np.sqrt(3) / 2, points[:, 1] / 2], axis=1)


def _turned(points: np.ndarray, turns: int) -> np.ndarray:
    """For each point, the index of the point it lands on when the board turns by ``turns`` x 120 degrees."""
    plane = _plane(points)
    centre = _plane(HEX_CENTRES[CENTRE_HEX : CENTRE_HEX + 1])[0]
    a = 2 * np.pi / 3 * turns
    rotation = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    moved = (plane - centre) @ rotation.T + centre
    distance = np.linalg.norm(moved[:, None, :] - plane[None, :, :], axis=2)
    image = distance.argmin(axis=1)
    assert np.allclose(distance[np.arange(len(points)), image], 0) and len(set(image.tolist())) == len(points)
    return image


def _edge_images(node_image: np.ndarray) -> np.ndarray:
    index = {tuple(sorted(e)): i for i, e in enumerate(EDGE_NODES.tolist())}
    return np.array([index[tuple(sorted((int(node_image[a]), int(node_image[b]))))] for a, b in EDGE_NODES])


def _turn(turns: int) -> dict[str, np.ndarray]:
    """Where each hex, node and edge goes (``to``) and where each one comes from (``from``)."""
    node = _turned(NODE_XY, turns)
    maps = {"hex": _turned(HEX_CENTRES, turns), "node": node, "edge": _edge_images(node)}
    return {**{f"{k}_to": v for k, v in maps.items()}, **{f"{k}_from": np.argsort(v) for k, v in maps.items()}}


TURNS = {f"turn{120 * t}": _turn(t) for t in (1, 2)}
for _turn_maps in TURNS.values():
    assert set(_turn_maps["edge_to"][HARBOUR_EDGES].tolist()) == set(HARBOUR_EDGES.tolist())


def _blocks(source: np.ndarray, width: int) -> np.ndarray:
    """Gather of ``len(source)`` blocks of ``width`` features: block i takes block source[i]."""
    return (source[:, None] * width + np.arange(width)).ravel()


def _observation_gathers(m: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    hexes = _blocks(m["hex_from"], O.HEX_FEATURES)
    nodes = _blocks(m["node_from"], O.NODE_FEATURES)
    edges = _blocks(m["edge_from"], O.EDGE_FEATURES)
    flat = np.concatenate([np.arange(O.HEXES_AT), O.HEXES_AT + hexes, O.NODES_AT + nodes, O.EDGES_AT + edges])
    extra = O.FLAT_SIZE + np.concatenate(
        [_blocks(m["node_from"], O.NODE_EXTRA), np.arange(NUM_NODES * O.NODE_EXTRA, O.EXTRA_SIZE)]
    )
    cells = np.arange(O.PLANE_H * O.PLANE_W)  # a cell takes the cell of the hex that turns onto it
    left = HEX_ROW * O.PLANE_W + O.HEX_PLANE_COL  # each hex's left cell
    for dx in (0, 1):
        cells[left + dx] = left[m["hex_from"]] + dx
    planes = (np.arange(O.PLANE_CHANNELS)[:, None] * cells.size + cells[None, :]).ravel()
    return {
        "flat": flat,
        "hexes": hexes,
        "nodes": nodes,
        "edges": edges,
        "planes": planes,
        "rich": np.concatenate([flat, extra]),
    }


def _action_gather(m: dict[str, np.ndarray], num_actions: int) -> np.ndarray:
    actions = np.arange(num_actions)  # ids past the board's (bank and player trades, ...) stay as they are
    for first, source in (
        (A_SETTLEMENT, m["node_from"]),
        (A_CITY, m["node_from"]),
        (A_ROAD, m["edge_from"]),
        (A_ROBBER, m["hex_from"]),
    ):
        actions[first : first + len(source)] = first + source
    return actions


@functools.cache
def board_symmetries(num_actions: int = NUM_ACTIONS) -> list[Symmetry]:
    """The two turns as ``Symmetry`` gathers of every observation key and of the ``num_actions`` actions."""
    return [Symmetry(name, _observation_gathers(m), _action_gather(m, num_actions)) for name, m in TURNS.items()]


def turn_board(s: np.ndarray, name: str) -> np.ndarray:
    """The engine array of the fresh game ``s`` (nothing built yet) with its board turned by ``name``."""
    view = CatanView(s)
    if (view.node_owners() >= 0).any() or (view.edge_owners() >= 0).any():
        raise ValueError("turn_board turns the board of a fresh game only; this one has pieces on it")
    m = TURNS[name]
    out = np.empty_like(s)
    init_state(
        out,
        view.hex_resources()[m["hex_from"]],
        view.hex_numbers()[m["hex_from"]],
        view.node_harbours()[m["node_from"]],
        view.num_players,
        view.vp_to_win,
        view.turn_limit,
    )
    return out
