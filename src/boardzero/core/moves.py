"""What a person types to name a move, for any game: one way everywhere.

A move is named by its number (the action id, the number listed beside it) or
by its name (``view.action_name``) or one of the other names its game accepts
(``view.action_aliases``: ``road 29-35`` for ``road at 43 (nodes 29-35)``).
Names compare without case, context in brackets, punctuation or small words
(``at``, ``to``, ``hex``, ...), so ``settlement 12``, ``Settlement at 12`` and
the full listed name all mean the same move; the first words of a name are
enough when only one legal move starts with them (``roll``, ``end``). A move
that exists but is not legal now is answered with the game's reason; text that
names nothing gets the closest legal moves ("did you mean").
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from boardzero.core.view import SeatView

FILLER = frozenset({"a", "an", "at", "on", "to", "the", "hex", "node", "nodes", "edge", "seat"})
MAX_SUGGESTIONS = 3


@dataclass(frozen=True)
class MoveMatch:
    action: int | None  # the legal action meant, or None
    message: str = ""  # when there is none: why, and what was probably meant


def canonical(text: str) -> str:
    """``'Road at 43 (nodes 29-35)'`` -> ``'road 43'``: lower case, no context, punctuation or small words."""
    text = re.sub(r"\([^)]*\)", " ", text.lower())
    words = re.sub(r"[#\-,:;=/]", " ", text).split()
    return " ".join(w for w in words if w not in FILLER)


class MoveNames:
    """Every name of every action of the position a seat sees, for matching typed text."""

    def __init__(self, view: SeatView):
        self.view = view
        self.legal = {int(a) for a in view.legal_actions}
        self.names = {a: view.action_name(a) for a in range(view.game.num_actions)}
        self.keys = {
            a: {canonical(self.names[a])} | {canonical(alias) for alias in view.action_aliases(a)} for a in self.names
        }

    def label(self, action: int) -> str:
        return f"{action}: {self.names[action]}"

    def match(self, text: str) -> MoveMatch:
        text = text.strip()
        if re.fullmatch(r"\d+", text):
            return self._by_number(int(text))
        key = canonical(text)
        exact = [a for a in self.names if text.lower() == self.names[a].lower() or (key and key in self.keys[a])]
        starts = [a for a in self.names if key and any(k == key or k.startswith(key + " ") for k in self.keys[a])]
        for found in (exact, starts):
            legal = [a for a in found if a in self.legal]
            if len(legal) == 1:
                return MoveMatch(legal[0])
            if legal:
                shown = "; ".join(self.label(a) for a in legal[:MAX_SUGGESTIONS])
                more = ", ..." if len(legal) > MAX_SUGGESTIONS else ""
                return MoveMatch(None, f"{text!r} fits {len(legal)} moves ({shown}{more}); type the number")
            if len(found) == 1:
                return MoveMatch(None, self._not_legal(found[0]) + self._did_you_mean(key))
            if found:
                return MoveMatch(
                    None, f"none of the {len(found)} moves named {text!r}... is legal now" + self._did_you_mean(key)
                )
        return MoveMatch(None, f"{text!r} is not a move here" + self._did_you_mean(key))

    def _by_number(self, action: int) -> MoveMatch:
        if action in self.legal:
            return MoveMatch(action)
        if action in self.names:
            return MoveMatch(None, self._not_legal(action) + self._did_you_mean(str(action)))
        return MoveMatch(None, f"no move has the number {action}" + self._did_you_mean(str(action)))

    def _not_legal(self, action: int) -> str:
        return f"{self.label(action)} is not legal now: {self.view.illegal_reason(action)}"

    def _did_you_mean(self, key: str) -> str:
        """Legal moves whose names hold the typed number, or read close to the typed words."""
        if not key:
            return ""
        by_key = {k: a for a in sorted(self.legal) for k in self.keys[a]}
        if key.isdigit():
            close = [a for a in sorted(self.legal) if any(key in k.split() for k in self.keys[a])]
        else:
            close = list(dict.fromkeys(by_key[k] for k in difflib.get_close_matches(key, by_key, MAX_SUGGESTIONS, 0.6)))
        if not close:
            return "; type a number from the list ('?' shows it)"
        return "; did you mean " + " or ".join(self.label(a) for a in close[:MAX_SUGGESTIONS]) + "?"


def match_move(view: SeatView, text: str) -> MoveMatch:
    """The legal move that ``text`` names in ``view``, or a message saying why there is none."""
    return MoveNames(view).match(text)
