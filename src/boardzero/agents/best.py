"""``best``: the game's shipped model (``src/boardzero/models/<game>/*.json``) played as its trainer's agent
with the settings stored beside it.

A game may ship several models (Catan: one per player count); ``best`` takes
the first, by file name, whose model options fit the game. Its metadata says
which method made it (``trainer``) and how it plays (``play``: e.g.
``{"sims": 2000}`` for an AlphaZero network, ``{"depth": 3}`` or ``{"sims": 32, "prior": 0.02}`` for a TD
value network, with ``"opening"`` and ``"opening_sims"`` for a deeper search over the game's first decisions
(``"opening_per_move"``: at most that many of its simulations per legal move),
``"policy"`` (auto, on, off) for priors from a policy head that learned search visits (auto: the metadata's ``policy_head``),
``"early"`` for the opening network's reach past them, and ``"fast"``: lighter settings for ``best:fast``).
A TD model may ship a second network of its shape beside it (the extra ``mean_with``): ``best`` then reads
the mean of both networks' values everywhere but the opening search (``"mean_weight"``: the second's share,
0.5 unless stored; 0 leaves it out, e.g. ``{"mean_weight": 0, "fast": {"mean_weight": 0.5}}`` averages in
``best:fast`` alone). ``"symmetries": true`` reads the network (or that mean) as the mean of its values over
the game's symmetries (``nn.ensemble.SymmetricValueNet``), again everywhere but the opening search.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardzero.agents.az import network_agent
from boardzero.agents.base import Agent
from boardzero.agents.settings import AZPlay, PlaySettings, TDPlay, stored_play
from boardzero.agents.td import TDAgent, load_td, playing_net
from boardzero.agents.td_trading import ValueTrader, check_trade_mode, for_actions, without_trading
from boardzero.core.api import Game
from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.nn.checkpoint import check_game, extra_network, load_network, read_metadata
from boardzero.nn.spec import NetworkSpec

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"


def shipped_model(game: Game) -> Path:
    """The metadata JSON of the first shipped model of ``game`` that fits its options; in a game with
    player-to-player trading without one trained with trading, the first that fits the game without it."""
    folder = MODELS_DIR / game.name
    candidates = sorted(folder.glob("*.json")) if folder.is_dir() else []
    reasons = []
    plain = without_trading(game)
    for fits in (game,) if plain is None else (game, plain):
        for path in candidates:
            try:
                check_game(read_metadata(path), fits, path)
                return path
            except CheckpointError as exc:
                reasons.append(str(exc).split(": ", 1)[-1])
    if candidates:
        raise ConfigError("agent best", f"no shipped model of {game.name} fits {game!r}: " + "; ".join(reasons))
    shipped = sorted(p.name for p in MODELS_DIR.iterdir() if any(p.glob("*.json"))) if MODELS_DIR.is_dir() else []
    raise ConfigError(
        "agent best", f"no shipped model for {game.name}; games with one: {', '.join(shipped) or '(none)'}"
    )


def _extra_net(path: Path, meta: dict[str, Any], net, name: str):
    """The model's network shipped beside it as the extra ``name`` (``opening``, ``mean_with``), or None where
    it has none."""
    try:  # stored at the model's own size (a model trained with trading: its action space), read at net's
        extra = extra_network(path, meta, NetworkSpec.from_dict(meta.get("network", net.spec.to_dict())), name)
    except CheckpointError as exc:
        raise ConfigError("agent best", str(exc)) from None
    return None if extra is None else for_actions(extra, net.spec.num_actions)


def best(
    game: Game,
    *,
    fast: bool = False,
    greedy: bool = False,
    sims: int = 0,
    opening_sims: int = 0,
    batch: int = 0,
    c_puct: float = 0.0,
    solver: bool = True,
    mean_weight: float = -1.0,
    prior_depth: int = 0,
    opening_batch: int = 0,
    fpu: float = -1.0,
    symmetries: bool | None = None,
    trade: str = "value",
) -> Agent:
    """The game's shipped trained model, played with the settings stored beside it (about a second per move).

    fast: its lighter stored settings
    greedy: the network alone, no search or planning
    sims: simulations per move of a searching model (0: the stored setting); a TD model's opening keeps its own
    opening_sims: simulations over the opening of a TD model that searches its opening deeper (Catan's setup;
        0: the stored setting), e.g. fewer to keep those moves quick on a slow CPU
    batch: leaves per network call (0: the stored setting)
    opening_batch: leaves per network call of a TD model's opening search (0: the stored setting, else batch)
    c_puct: exploration constant of its searches, the opening's too (0: the stored setting, else 1.5)
    solver: prove wins and losses from terminal states during the search (AlphaZero models)
    mean_weight: the share of a TD model's second network in the mean of their values (-1: the stored setting;
        0: the model's own network alone)
    prior_depth: how many of its own decisions a TD model's search priors look ahead within the turn (0: the
        stored setting, else 1); the opening search keeps one
    fpu: how much less than its parent's value a move not yet tried counts in a TD model's searches (-1: the
        stored setting, else 0)
    symmetries: read a TD model's network as the mean of its values over the game's symmetries (true or false;
        none: the stored setting)
    trade: in a game with player-to-player trading (Catan's trading=true; a model trained with trading where
        one ships, else the one without): value answers, chooses a partner and offers by the model's values of
        the positions before and after each trade, every other move as stored; off never offers and declines
        every offer (``agents.td_trading``)
    """
    check_trade_mode(game, trade, "agent best")
    path, meta, settings = best_settings(
        game,
        fast=fast,
        greedy=greedy,
        sims=sims,
        opening_sims=opening_sims,
        batch=batch,
        c_puct=c_puct,
        mean_weight=mean_weight,
        prior_depth=prior_depth,
        opening_batch=opening_batch,
        fpu=fpu,
        symmetries=symmetries,
    )
    plain = without_trading(game)
    try:
        net, meta = load_network(path, game=game) if plain is None else (load_td(game, str(path)), read_metadata(path))
    except CheckpointError as exc:
        raise ConfigError("agent best", str(exc)) from None
    if plain is not None:
        if not isinstance(settings, TDPlay):
            raise ConfigError("agent best", f"trades by a TD model's values; {path.name} is not one")
        agent = _td_best(plain, path, meta, net, settings, mean_weight)
        return ValueTrader(game, agent, trade=trade)
    if isinstance(settings, TDPlay):
        return _td_best(game, path, meta, net, settings, mean_weight)
    assert isinstance(settings, AZPlay)
    return network_agent(
        game,
        net,
        sims=settings.sims,
        greedy=greedy,
        c_puct=settings.c_puct,
        batch=settings.batch,
        solver=solver,
    )


def _td_best(game: Game, path: Path, meta: dict[str, Any], net, settings: TDPlay, mean_weight: float) -> TDAgent:
    """The shipped TD model ``net`` (with the extra networks stored beside it) playing ``game`` by ``settings``."""
    opening_net = _extra_net(path, meta, net, "opening") if settings.opening else None
    # read (and checksummed) only where it is used or named: the shipped 2-player best stores a share of 0
    partner = _extra_net(path, meta, net, "mean_with") if settings.mean_weight != 0 or mean_weight != -1 else None
    if mean_weight != -1 and partner is None:
        raise ConfigError(
            "agent best.mean_weight", f"weighs a second network shipped beside the model; {path.name} has none"
        )
    partners = [partner] if partner is not None and settings.mean_weight != 0 else []
    if settings.policy == "auto":  # priors from a policy head that learned search visits, read alone
        alone = not partners and not settings.symmetries
        settings = settings.changed("agent best", policy="on" if alone and meta.get("policy_head") else "off")
    net = playing_net(game, net, partners, settings, f"agent best ({path.name})")
    return TDAgent(game, net, settings, opening_net=opening_net)


def best_settings(
    game: Game,
    *,
    fast: bool = False,
    greedy: bool = False,
    sims: int = 0,
    opening_sims: int = 0,
    batch: int = 0,
    c_puct: float = 0.0,
    mean_weight: float = -1.0,
    prior_depth: int = 0,
    opening_batch: int = 0,
    fpu: float = -1.0,
    symmetries: bool | None = None,
    **_: Any,
) -> tuple[Path, dict[str, Any], PlaySettings]:
    """(the shipped model's metadata file, its metadata, the settings ``best`` plays it with): the stored
    settings with the caller's changes (``best``'s options), read without loading the network, so a caller can
    weigh what the agent would cost (``web.limits``) before building it."""
    for name, value in (
        ("sims", sims),
        ("opening_sims", opening_sims),
        ("batch", batch),
        ("c_puct", c_puct),
        ("prior_depth", prior_depth),
        ("opening_batch", opening_batch),
    ):
        if value < 0:
            raise ConfigError(f"agent best.{name}", f"must be >= 0 (0: the stored setting), got {value}")
    if fpu < 0 and fpu != -1:
        raise ConfigError("agent best.fpu", f"must be >= 0 (-1: the stored setting), got {fpu}")
    path = shipped_model(game)
    try:
        meta = read_metadata(path)
    except CheckpointError as exc:
        raise ConfigError("agent best", str(exc)) from None
    stored = stored_play(meta, fast=fast, where=f"agent best ({path.name}{', fast' if fast else ''})")
    for name, value in (("opening_sims", opening_sims), ("opening_batch", opening_batch)):
        if value and (greedy or not getattr(stored, "opening", 0)):
            setting = "best:greedy" if greedy else f"the {'fast ' if fast else ''}settings of {path.name}"
            raise ConfigError(
                f"agent best.{name}",
                f"only stored settings that search the opening deeper take it; {setting} have none",
            )
    given = {
        "sims": sims,
        "opening_sims": opening_sims,
        "batch": batch,
        "c_puct": c_puct,
        "prior_depth": prior_depth,
        "opening_batch": opening_batch,
    }
    changes: dict[str, Any] = {name: value for name, value in given.items() if value}
    if isinstance(stored, TDPlay):
        if mean_weight != -1:
            changes["mean_weight"] = mean_weight
        if fpu != -1:
            changes["fpu"] = fpu
        if symmetries is not None:
            changes["symmetries"] = symmetries
        if not stored.opening:  # the opening's settings apply only with a deeper opening search
            changes.update(early=0, opening_batch=0, opening_per_move=0)
        settings: TDPlay = stored.changed("agent best", **changes)
        return path, meta, settings.greedy("agent best") if greedy else settings
    trainer = meta.get("trainer", "alphazero")
    refused: tuple[tuple[str, object, object, str], ...] = (
        ("mean_weight", mean_weight, -1, "weighs a second network shipped beside a TD model"),
        ("prior_depth", prior_depth, 0, "plans a TD model's value priors"),
        ("fpu", fpu, -1, "sets a TD model's first-play urgency"),
        ("symmetries", symmetries, None, "reads a TD model's network over the game's symmetries"),
    )
    for option, chosen, unset, what in refused:
        if chosen != unset:
            raise ConfigError(f"agent best.{option}", f"{what}; {path.name} is an {trainer} model")
    return (
        path,
        meta,
        stored.changed("agent best", **{k: v for k, v in changes.items() if k in ("sims", "c_puct", "batch")}),
    )


def _settings_of_best(game: Game, **options: Any) -> dict[str, Any]:
    """What ``best`` with ``options`` plays ``game`` with, as ``agents.registry.agent_settings`` reads it."""
    settings = best_settings(game, **options)[2]
    return {**settings.to_dict(), **({"sims": 0} if options.get("greedy") else {})}


best.settings = _settings_of_best  # type: ignore[attr-defined]
