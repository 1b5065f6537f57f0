"""The two boards side by side: boardzero's hex, intersection and path ids against catanatron's.

Both draw pointy-topped hexes. catanatron names a hex by cube coordinates
``(x, y, z)`` and its corners by ``NodeRef`` (north, north-east, ... clockwise);
boardzero numbers hexes row by row with corners clockwise from the top
(``topology.HEX_NODES``). A cube coordinate sits at half units
``X = 5 + 2x + z, Y = 8 + 3z`` of boardzero's layout, so each catanatron land hex
and corner has one boardzero id; paths follow from their two ends. The tables are
built once from catanatron's own base map topology and checked to be one to one.

Harbours: catanatron's frame has its nine harbours at fixed places; boardzero's
sit on the nine coastal paths of ``topology.HARBOUR_EDGES``. ``catan_map`` builds
a catanatron map with the terrain, numbers and harbours of a boardzero board, each
harbour on the water hex beside its boardzero path, so both games trade at the
same intersections.
"""

from __future__ import annotations

import inspect
import random
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from catanatron.models import map as cmap  # noqa: E402  (the package's __init__ checks that catanatron is there)

from boardzero.games.catan.board import DESERT, GENERIC, RESOURCE_NAMES
from boardzero.games.catan.topology import EDGE_NODES, HARBOUR_NODES, HEX_CENTRES, HEX_NODES, NUM_HEXES

RESOURCES = ("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE")  # catanatron's resource names, boardzero's order
assert tuple(r.upper() for r in RESOURCE_NAMES) == RESOURCES
CORNERS = ("NORTH", "NORTHEAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "NORTHWEST")  # boardzero corner k


def hex_of_coordinate(coordinate: tuple[int, int, int]) -> int:
    """boardzero hex id of a catanatron cube coordinate (-1 off the land)."""
    x, _, z = coordinate
    found = np.flatnonzero((HEX_CENTRES[:, 0] == 5 + 2 * x + z) & (HEX_CENTRES[:, 1] == 8 + 3 * z))
    return int(found[0]) if len(found) else -1


@dataclass(frozen=True)
class Geometry:
    """Id tables between the two boards (catanatron's ids are those of its base map topology)."""

    coordinate_of_hex: tuple  # [19] boardzero hex -> catanatron cube coordinate
    hex_of: dict  # catanatron coordinate -> boardzero hex
    node_to_catanatron: np.ndarray  # [54] boardzero node -> catanatron node id
    node_from_catanatron: np.ndarray  # [54] catanatron node id -> boardzero node
    edge_to_catanatron: tuple  # [72] boardzero edge -> catanatron edge (a, b) with a < b
    edge_from_catanatron: dict  # catanatron edge (either order) -> boardzero edge


@lru_cache(maxsize=1)
def geometry() -> Geometry:
    tiles = _template_tiles(cmap.BASE_MAP_TEMPLATE.topology)
    coordinate_of_hex = [None] * NUM_HEXES
    node_to = np.full(54, -1, dtype=np.int64)
    for coordinate, tile in tiles.items():
        h = hex_of_coordinate(coordinate)
        if not isinstance(tile, cmap.LandTile):
            continue
        coordinate_of_hex[h] = coordinate
        for k, corner in enumerate(CORNERS):
            node_to[HEX_NODES[h, k]] = tile.nodes[cmap.NodeRef[corner]]
    node_from = np.full(54, -1, dtype=np.int64)
    node_from[node_to] = np.arange(54)
    if sorted(node_to.tolist()) != list(range(54)) or None in coordinate_of_hex:
        raise RuntimeError("catanatron's base map does not match boardzero's board; the bridge needs updating")
    edge_to = tuple(tuple(sorted((int(node_to[a]), int(node_to[b])))) for a, b in EDGE_NODES)
    edge_from = {}
    for e, (a, b) in enumerate(edge_to):
        edge_from[(a, b)] = edge_from[(b, a)] = e
    return Geometry(
        tuple(coordinate_of_hex),
        {c: h for h, c in enumerate(coordinate_of_hex)},
        node_to,
        node_from,
        edge_to,
        edge_from,
    )


def _template_tiles(topology: dict, ports=None, tile_resources=None, numbers=None) -> dict:
    """catanatron's tiles of ``topology`` (explicit contents; no draw touches the caller's ``random`` state)."""
    land = [c for c, kind in topology.items() if kind is cmap.LandTile]
    port_count = sum(isinstance(kind, tuple) for kind in topology.values())
    template = cmap.MapTemplate(
        numbers=list(numbers) if numbers is not None else [2] * len(land),
        port_resources=list(ports) if ports is not None else [None] * port_count,
        tile_resources=list(tile_resources) if tile_resources is not None else ["WOOD"] * len(land),
        topology=topology,
    )
    # catanatron pops the lists from the end, in topology order
    args = [template, template.numbers[::-1], template.port_resources[::-1], template.tile_resources[::-1]]
    if "number_placement" in inspect.signature(cmap.initialize_tiles).parameters:
        args.append("random")  # keep our numbers (3.3.0 would lay the official spiral over them)
    saved = random.getstate()
    try:
        # an empty list would read as "draw at random": every list here is non-empty or unused
        return cmap.initialize_tiles(*args)
    finally:
        random.setstate(saved)


@lru_cache(maxsize=1)
def harbour_topology() -> dict:
    """catanatron's base topology with its ports moved onto boardzero's nine harbour paths (same key order,
    so node ids stay those of catanatron's static graph)."""
    geo = geometry()
    base = cmap.BASE_MAP_TEMPLATE.topology
    water = _template_tiles({c: (cmap.Water if isinstance(k, tuple) else k) for c, k in base.items()})
    wanted = {frozenset(int(geo.node_to_catanatron[n]) for n in pair): slot for slot, pair in enumerate(HARBOUR_NODES)}
    topology, slots = {}, []
    for coordinate, kind in base.items():
        topology[coordinate] = kind
        if kind is cmap.LandTile:
            continue
        topology[coordinate] = cmap.Water
        nodes = water[coordinate].nodes
        for direction, (a, b) in cmap.PORT_DIRECTION_TO_NODEREFS.items():
            slot = wanted.get(frozenset((nodes[a], nodes[b])))
            if slot is not None:
                if isinstance(topology[coordinate], tuple):
                    raise RuntimeError(f"two harbours on catanatron water hex {coordinate}")
                topology[coordinate] = (cmap.Port, direction)
                slots.append(slot)
    if sorted(slots) != list(range(len(HARBOUR_NODES))):
        raise RuntimeError("boardzero's harbours do not all border catanatron water hexes")
    return {"topology": topology, "slots": tuple(slots)}  # slots: harbour slot of each port, in topology order


def catan_map(hex_resource, hex_number, harbours):
    """A catanatron ``CatanMap`` of a boardzero board: terrain (0..4, 5 desert), numbers, harbour types per slot
    (catanatron treats a map as read-only, so one is built per board and shared)."""
    return _catan_map(tuple(map(int, hex_resource)), tuple(map(int, hex_number)), tuple(map(int, harbours)))


@lru_cache(maxsize=256)
def _catan_map(hex_resource: tuple, hex_number: tuple, harbours: tuple):
    geo = geometry()
    layout = harbour_topology()
    land = [c for c, kind in layout["topology"].items() if kind is cmap.LandTile]
    resources, numbers = [], []
    for coordinate in land:
        h = geo.hex_of[coordinate]
        terrain = int(hex_resource[h])
        resources.append(None if terrain == DESERT else RESOURCES[terrain])
        if terrain != DESERT:
            numbers.append(int(hex_number[h]))
    ports = [None if int(harbours[slot]) == GENERIC else RESOURCES[int(harbours[slot])] for slot in layout["slots"]]
    tiles = _template_tiles(layout["topology"], ports=ports, tile_resources=resources, numbers=numbers)
    return cmap.CatanMap.from_tiles(tiles)
