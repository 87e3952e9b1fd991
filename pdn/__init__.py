"""pdn — read, write, replay and audit draughts game records (PDN) in every variant."""

__version__ = "0.1.0"
