"""The conformance check that every game must pass.

``check_game(game)`` plays random games to the end and checks, at every step,
the contract of ``core/api.py``. It raises ``ConformanceError`` naming the
first broken rule. Tests call it for each registered game.
"""

from __future__ import annotations

import json

import numpy as np

from boardzero.core.api import CHANCE, TERMINAL, Game, State, chance_outcome_by_table, sample_chance
from boardzero.core.errors import IllegalActionError


class ConformanceError(AssertionError):
    pass


def check_game(
    game: Game, *, num_games: int = 10, seed: int = 0, max_steps: int = 100_000, deep_every: int = 7
) -> dict:
    """Play ``num_games`` random games and check every rule; returns simple statistics.

    Expensive checks (clone independence, hidden-information, illegal actions)
    run every ``deep_every`` steps; cheap ones run at every step.
    """
    rng = np.random.default_rng(seed)
    lengths = []
    for g in range(num_games):
        state = game.new_state(seed=int(rng.integers(2**31)))
        steps = 0
        while not state.is_terminal():
            _check_step(game, state)
            if steps % deep_every == 0:
                _check_clone_independence(game, state, rng)
                _check_hidden_information(game, state, rng)
                _check_public_view(game, state)
                _check_last_seen_by(game, state)
                _check_illegal_rejected(game, state)
            if state.current_player == CHANCE:
                state.apply(sample_chance(state, rng))
            else:
                state.apply(int(rng.choice(state.legal_actions())))
            steps += 1
            if steps > max_steps:
                raise ConformanceError(f"game {g} did not end within {max_steps} steps")
        _check_terminal(game, state)
        _check_public_view(game, state)
        _check_record_replay(game, state)
        _check_symmetries(game, state)
        lengths.append(steps)
    return {
        "games": num_games,
        "mean_length": float(np.mean(lengths)),
        "min_length": int(min(lengths)),
        "max_length": int(max(lengths)),
    }


def _check_symmetries(game: Game, final: State) -> None:
    """Replaying a game's moves through each symmetry gives the transformed observations and masks."""
    for symmetry in game.symmetries():
        if sorted(symmetry.actions.tolist()) != list(range(game.num_actions)):
            _fail(f"symmetry {symmetry.name!r}: actions must be a permutation of 0..{game.num_actions - 1}")
        original = game.new_state(seed=final.seed)
        image = game.symmetric_state(symmetry, seed=final.seed)
        for action in [*final.history, None]:
            if original.current_player >= 0:
                seat = original.current_player
                if not np.array_equal(image.legal_mask(), original.legal_mask()[symmetry.actions]):
                    _fail(f"symmetry {symmetry.name!r}: legal mask of the image is not the mapped mask")
                seen, expected = image.observe(seat), original.observe(seat)
                for key, index in symmetry.observation.items():
                    # up to float rounding: a sum over a board's cells may add them in another order
                    if not np.allclose(seen[key].ravel(), expected[key].ravel()[index], rtol=1e-6, atol=1e-6):
                        _fail(f"symmetry {symmetry.name!r}: observation {key!r} of the image is not the mapped one")
            if action is None:
                break
            mapped = symmetry.apply_action(action) if original.current_player >= 0 else action
            original.apply(action)
            image.apply(mapped)
        if not np.array_equal(image.returns(), original.returns()):
            _fail(f"symmetry {symmetry.name!r}: returns of the image differ")


def _fail(message: str) -> None:
    raise ConformanceError(message)


def _check_step(game: Game, state: State) -> None:
    player = state.current_player
    mask = state.legal_mask()
    if mask.dtype != np.bool_ or mask.shape != (game.num_actions,):
        _fail(f"legal_mask must be bool[{game.num_actions}], got {mask.dtype}{mask.shape}")
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        if not outcomes:
            _fail("chance node without outcomes")
        probs = np.array([p for _, p in outcomes])
        if np.any(probs < 0) or not np.isclose(probs.sum(), 1.0, atol=1e-9):
            _fail(f"chance probabilities must be >= 0 and sum to 1, got sum {probs.sum()}")
        if len({o for o, _ in outcomes}) != len(outcomes):
            _fail("chance outcomes repeat an id")
        if mask.any():
            _fail("legal_mask must be empty at a chance node")
        _check_chance_lookup(state, outcomes)
    elif 0 <= player < game.num_players:
        if not mask.any():
            _fail(f"empty legal mask at a decision node of seat {player}")
        _check_random_action(state, mask)
        if state.chance_outcomes():
            _fail("chance_outcomes must be empty at a decision node")
    else:
        _fail(f"current_player {player} is not a seat, CHANCE or TERMINAL")
    for seat in range(game.num_players):
        _check_observation(game, state.observe(seat))


def _check_chance_lookup(state: State, outcomes: list[tuple[int, float]]) -> None:
    """A game's own ``chance_outcome_at`` picks what the probabilities say, at and between every slice edge."""
    if type(state).chance_outcome_at is State.chance_outcome_at:
        return
    probs = np.array([p for _, p in outcomes], dtype=np.float64)
    edges = np.cumsum(probs / probs.sum())
    edges /= edges[-1]
    draws = np.concatenate([[0.0], edges[:-1], np.nextafter(edges[:-1], 0.0), (edges - probs / 2)])
    for u in draws[(draws >= 0.0) & (draws < 1.0)]:
        if state.chance_outcome_at(float(u)) != chance_outcome_by_table(outcomes, float(u)):
            _fail(
                f"chance_outcome_at({float(u)!r}) = {state.chance_outcome_at(float(u))}, but the "
                f"probabilities {outcomes} pick {chance_outcome_by_table(outcomes, float(u))}"
            )


def _check_random_action(state: State, mask: np.ndarray, draws: int = 4) -> None:
    """``random_action`` plays a legal move, and a game's own version the one the generic draw picks."""
    own = type(state).random_action is not State.random_action
    for k in range(draws):
        action = state.random_action(np.random.default_rng(k))
        if not (0 <= action < len(mask) and mask[action]):
            _fail(f"random_action drew {action}, which is not legal here")
        if own and action != (generic := State.random_action(state, np.random.default_rng(k))):
            _fail(f"random_action drew {action} where the generic draw from the same stream picks {generic}")


def _check_observation(game: Game, obs: dict) -> None:
    if set(obs) != set(game.observation_spec):
        _fail(f"observe() keys {sorted(obs)} differ from observation_spec {sorted(game.observation_spec)}")
    for key, shape in game.observation_spec.items():
        if obs[key].shape != tuple(shape) or obs[key].dtype != np.float32:
            _fail(f"observation {key!r} must be float32{tuple(shape)}, got {obs[key].dtype}{obs[key].shape}")


def _fingerprint(game: Game, state: State) -> tuple:
    return (
        json.dumps(state.to_record(), sort_keys=True),
        state.current_player,
        state.legal_mask().tobytes(),
        tuple(state.chance_outcomes()),
        tuple(b"".join(v.tobytes() for v in state.observe(s).values()) for s in range(game.num_players)),
    )


def _some_move(state: State, rng: np.random.Generator) -> int:
    if state.current_player == CHANCE:
        return sample_chance(state, rng)
    return int(rng.choice(state.legal_actions()))


def _check_clone_independence(game: Game, state: State, rng: np.random.Generator) -> None:
    before = _fingerprint(game, state)
    copy = state.clone()
    if _fingerprint(game, copy) != before:
        _fail("clone() differs from the original")
    copy.apply(_some_move(copy, rng))
    if _fingerprint(game, state) != before:
        _fail("applying an action to a clone changed the original")


def _check_hidden_information(game: Game, state: State, rng: np.random.Generator) -> None:
    for seat in range(game.num_players):
        sampled = state.sample_hidden(seat, rng)
        if sampled is state:
            _fail("sample_hidden must return a new state, not the original")
        ours = state.observe(seat)
        theirs = sampled.observe(seat)
        for key in ours:
            if not np.array_equal(ours[key], theirs[key]):
                _fail(
                    f"seat {seat}: observation {key!r} changed when only hidden information changed "
                    "(sample_hidden state differs in what the seat can see, or observe leaks hidden cards)"
                )
        if sampled.current_player != state.current_player:
            _fail(f"seat {seat}: sample_hidden changed the player to move")
        if not np.array_equal(sampled.legal_mask(), state.legal_mask()) and state.current_player == seat:
            _fail(f"seat {seat}: sample_hidden changed the seat's own legal moves")
        if sampled.public_history(seat) != state.public_history(seat):
            _fail(f"seat {seat}: sample_hidden changed the public history")
        for viewer in (seat, None):
            if sampled.public_view(viewer) != state.public_view(viewer):
                who = "a spectator" if viewer is None else f"seat {seat}"
                _fail(
                    f"{who}: public_view changed when only what seat {seat} cannot know changed "
                    "(public_view leaks hidden cards)"
                )


def _check_last_seen_by(game: Game, state: State) -> None:
    if not state.history:
        return
    seats = tuple(s for s in range(game.num_players) if state.public_history(s)[-1] is not None)
    expected = None if len(seats) == game.num_players else seats
    if state.last_seen_by() != expected:
        _fail(f"last_seen_by() is {state.last_seen_by()}, but public_history says {expected}")


def _check_public_view(game: Game, state: State) -> None:
    """Every seat's and a spectator's public view is JSON-ready: it survives a JSON round trip unchanged."""
    for viewer in [*range(game.num_players), None]:
        view = state.public_view(viewer)
        try:
            again = json.loads(json.dumps(view))
        except (TypeError, ValueError) as exc:
            _fail(f"public_view({viewer}) is not JSON-ready: {exc}")
        if again != view:
            _fail(f"public_view({viewer}) changes in a JSON round trip (use lists, str keys, plain numbers)")
        if view.get("game") != game.name or view.get("seat") != viewer:
            _fail(f"public_view({viewer}) must name the game and the viewing seat (start from base_public_view)")


def _check_illegal_rejected(game: Game, state: State) -> None:
    if state.current_player < 0:
        return
    _check_non_integers_rejected(game, state)
    illegal = np.flatnonzero(~state.legal_mask())
    if len(illegal) == 0:
        return
    before = _fingerprint(game, state)
    for action in (int(illegal[0]), int(illegal[-1]), game.num_actions, -1):
        try:
            state.apply(action)
        except IllegalActionError as exc:
            if not str(exc):
                _fail("IllegalActionError without a reason")
        else:
            _fail(f"illegal action {action} was accepted")
        if _fingerprint(game, state) != before:
            _fail(f"rejecting illegal action {action} changed the state")


def _check_non_integers_rejected(game: Game, state: State) -> None:
    """A bool or a float is no action id, even where the id it would convert to is legal."""
    before = _fingerprint(game, state)
    for action in (True, False, np.True_, 1.0):
        try:
            state.apply(action)  # type: ignore[arg-type]
        except IllegalActionError:
            pass
        else:
            _fail(f"apply({action!r}) was accepted; an action must be an integer id")
        if _fingerprint(game, state) != before:
            _fail(f"rejecting apply({action!r}) changed the state")


def _check_terminal(game: Game, state: State) -> None:
    if state.current_player != TERMINAL:
        _fail("is_terminal() disagrees with current_player")
    if state.legal_mask().any():
        _fail("legal_mask must be empty at a terminal state")
    returns = state.returns()
    if returns.shape != (game.num_players,):
        _fail(f"returns() must have shape ({game.num_players},), got {returns.shape}")
    if game.return_bounds is not None:
        low, high = game.return_bounds
        if not ((returns >= low) & (returns <= high)).all():
            _fail(f"returns {returns.tolist()} lie outside return_bounds {game.return_bounds}")
    try:
        state.apply(0)
    except IllegalActionError:
        pass
    else:
        _fail("apply() after the end was accepted")


def _check_record_replay(game: Game, state: State) -> None:
    record = json.loads(json.dumps(state.to_record()))
    replayed = game.state_from_record(record)
    if _fingerprint(game, replayed) != _fingerprint(game, state):
        _fail("replaying to_record() does not give the same state")
    if not np.array_equal(replayed.returns(), state.returns()):
        _fail("replayed returns differ")
