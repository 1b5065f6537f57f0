"""Actions both ways: a catanatron action as boardzero action ids, a catanatron action record as the
boardzero actions and chance outcomes that replay it.

catanatron takes some steps in one action that boardzero splits: moving the robber
names the victim (boardzero: robber hex, then the seat when several can be robbed),
year of plenty names both cards (boardzero: play the card, then take one resource
twice). A catanatron action therefore becomes a short plan of boardzero ids, played
in order while each stays legal.
"""

from __future__ import annotations

from catanatron.models.enums import ActionType

from boardzero.games.catan.actions import O_DEV, O_DICE, O_STEAL, action_id
from boardzero.integrations.catanatron.board import RESOURCES, geometry
from boardzero.integrations.catanatron.position import COLORS, DEV_CARDS

SIMPLE = {
    ActionType.ROLL: "roll",
    ActionType.END_TURN: "end_turn",
    ActionType.BUY_DEVELOPMENT_CARD: "buy_dev",
    ActionType.PLAY_KNIGHT_CARD: "knight",
    ActionType.PLAY_ROAD_BUILDING: "road_building",
}
RANDOM_DISCARD = "random discard"  # catanatron < 3.3 discards half the hand at random in one action


def to_boardzero(action, colors=COLORS) -> list:
    """boardzero action ids for a catanatron action (or ``[RANDOM_DISCARD]``); seat i plays ``colors[i]``."""
    kind, value = action.action_type, action.value
    geo = geometry()
    if kind in SIMPLE:
        return [action_id(SIMPLE[kind])]
    if kind == ActionType.BUILD_SETTLEMENT:
        return [action_id("settlement", node=int(geo.node_from_catanatron[value]))]
    if kind == ActionType.BUILD_CITY:
        return [action_id("city", node=int(geo.node_from_catanatron[value]))]
    if kind == ActionType.BUILD_ROAD:
        return [action_id("road", edge=geo.edge_from_catanatron[tuple(value)])]
    if kind == ActionType.MOVE_ROBBER:
        plan = [action_id("robber", hex=geo.hex_of[value[0]])]
        return plan + ([action_id("rob", seat=colors.index(value[1]))] if value[1] is not None else [])
    if kind == ActionType.PLAY_MONOPOLY:
        return [action_id("monopoly", resource=RESOURCES.index(value))]
    if kind == ActionType.PLAY_YEAR_OF_PLENTY:
        return [action_id("year_of_plenty")] + [action_id("take", resource=RESOURCES.index(r)) for r in value]
    if kind == ActionType.MARITIME_TRADE:
        give = next(r for r in value[:-1] if r is not None)
        return [action_id("trade", give=RESOURCES.index(give), get=RESOURCES.index(value[-1]))]
    if kind.name == "DISCARD_RESOURCE":
        return [action_id("discard", resource=RESOURCES.index(value))]
    if kind.name == "DISCARD":
        return [RANDOM_DISCARD]
    raise ValueError(f"catanatron action {action} has no boardzero counterpart (player-to-player trading is off)")


def record_steps(action, result, colors) -> list[tuple[str, int]]:
    """A catanatron action record as ``(step, id)`` pairs to replay in a boardzero state: step ``"act"`` is
    a player action, ``"chance"`` a chance outcome, ``"rob"`` a victim choice applied only when boardzero
    asks for one (when several seats could be robbed)."""
    kind = action.action_type
    if kind == ActionType.ROLL:
        return [("act", action_id("roll")), ("chance", O_DICE + sum(result))]
    if kind == ActionType.BUY_DEVELOPMENT_CARD:
        return [("act", action_id("buy_dev")), ("chance", O_DEV + DEV_CARDS.index(result))]
    if kind == ActionType.MOVE_ROBBER:
        hex_, victim = action.value[0], action.value[1]
        steps = [("act", action_id("robber", hex=geometry().hex_of[hex_]))]
        if victim is not None:
            steps += [
                ("rob", action_id("rob", seat=colors.index(victim))),
                ("chance", O_STEAL + RESOURCES.index(result)),
            ]
        return steps
    return [("act", a) for a in to_boardzero(action, colors)]
