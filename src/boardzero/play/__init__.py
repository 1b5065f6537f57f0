"""Playing games: one ``GameSession`` per game for every caller (the terminal, the web server, the match
runner behind the arena, tournaments and training's evaluations), one seat rotation, one replay path."""

from boardzero.play.records import RecordWriter, numbered_records, read_records, record_game, replay
from boardzero.play.rotation import seat_order, seating
from boardzero.play.runner import MatchGame, Table, play_game, record_of, run_match
from boardzero.play.session import HUMAN, GameSession, LogEntry, NotYourTurnError, Pending

__all__ = [
    "HUMAN",
    "GameSession",
    "LogEntry",
    "MatchGame",
    "NotYourTurnError",
    "Pending",
    "RecordWriter",
    "Table",
    "numbered_records",
    "play_game",
    "read_records",
    "record_game",
    "record_of",
    "replay",
    "run_match",
    "seat_order",
    "seating",
]
