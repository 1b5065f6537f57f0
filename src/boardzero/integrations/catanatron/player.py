"""Placeholder: boardzero agents as catanatron players (see BoardzeroPlayer)."""
