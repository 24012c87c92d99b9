"""The games app's models: players, tables, seats, hands and their event log
(``games.models.tables``), and the ring-game floor (``games.models.floor``).

Models are thin: fields, choices and constraints. Business logic lives in ``games.services``.
"""

from games.models.floor import (
    ChangeStatus,
    EntryStatus,
    FloorLog,
    Game,
    GameMode,
    GameStatus,
    GameTable,
    Offer,
    OfferKind,
    OfferStatus,
    PendingTableStatus,
    SeatChange,
    TableRole,
    WaitEntry,
)
from games.models.tables import (
    BotKind,
    Hand,
    HandAudit,
    HandStatus,
    HoldReason,
    Player,
    Seat,
    Table,
    TableEvent,
    TableKind,
    TableStatus,
    new_server_seed,
)

__all__ = [
    "BotKind",
    "ChangeStatus",
    "EntryStatus",
    "FloorLog",
    "Game",
    "GameMode",
    "GameStatus",
    "GameTable",
    "Hand",
    "HandAudit",
    "HandStatus",
    "HoldReason",
    "Offer",
    "OfferKind",
    "OfferStatus",
    "PendingTableStatus",
    "Player",
    "Seat",
    "SeatChange",
    "Table",
    "TableEvent",
    "TableKind",
    "TableRole",
    "TableStatus",
    "WaitEntry",
    "new_server_seed",
]
