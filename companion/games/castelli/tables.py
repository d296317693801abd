"""Castelli's numbers in one place: colours, supplies, costs, cards and scoring tables.

The rulebook's figures are data, so a misread figure is fixed here once and
the engine, the views and the CLI all follow.
"""

from __future__ import annotations

from types import MappingProxyType

#: The four shield colours, in the order the summaries list them.
COLORS: tuple[str, ...] = ("blue", "yellow", "red", "green")

#: Tile sides, clockwise from the top; a tile's shields are always in this order.
SIDES: tuple[str, ...] = ("N", "E", "S", "W")

#: The three resources, in the order states keep them.
RESOURCES: tuple[str, ...] = ("wood", "grain", "stone")

#: Most of one resource a player can hold; the excess of a gain is lost.
RESOURCE_CAP = 5

#: Area kinds and what evaluating them gives ("" = never evaluated).
AREA_KINDS: tuple[str, ...] = ("forest", "field", "rock", "market", "mine", "plain")
AREA_GAIN = MappingProxyType({
    "forest": "wood", "field": "grain", "rock": "stone", "market": "cards", "mine": "silver",
    "plain": "",
})

#: Board defaults of records.md: yield of forest/field/rock, tents of a market, castle places of a rock.
DEFAULT_YIELD = 2
DEFAULT_TENTS = 1
DEFAULT_SPOTS = 1
#: Ranges the board validator accepts (the rulebook shows 1–2 symbols and 1–2 castle places).
YIELD_RANGE = (1, 5)
TENTS_RANGE = (1, 5)
SPOTS_RANGE = (1, 4)

#: What a piece of the frame can show.
FRAME_GIFTS: tuple[str, ...] = ("wood", "grain", "stone", "silver", "card", "neutral")

#: Shield values printed on tiles; "card" is a card-covered shield (worth 0).
SHIELD_VALUES = range(1, 7)
CARD_SHIELD = "card"

#: Silver a tile may carry.
TILE_SILVER = range(0, 3)

#: Silver in the mine at the start, by number of players.
MINE_SILVER = MappingProxyType({2: 11, 3: 16, 4: 22})

#: Pieces each player has / the box holds.
CASTLES_PER_PLAYER = 9
SETTLEMENT_SUPPLY = MappingProxyType({"village": 13, "town": 8})
SETTLEMENT_KINDS: tuple[str, ...] = ("village", "town")
#: The villages and towns that stay in the box at the setup (cards bring them in): 2 of each.
SPARE_SETTLEMENTS = MappingProxyType({"village": 2, "town": 2})

#: Building: one of each resource; on top of a castle (Battle) two of each.
CASTLE_COST = 1
TOP_CASTLE_COST = 2
ABBOT_COST = 1
#: Silver that replaces one missing resource, once per turn.
SILVER_PER_RESOURCE = 2
#: Silver the Master builder pays per missing resource.
MASTER_BUILDER_SILVER = 1
#: Points for a new castle per settlement in its row or column.
SETTLEMENT_POINTS = MappingProxyType({"village": 1, "town": 2})

#: Silver the mine pays for one sold card.
SELL_PRICE = 2
#: What the Traitor pays the player whose card it takes.
TRAITOR_PRICE = 1
#: Thief takes this much from each other player (if they have any); Bandits this much (or all they have).
THIEF_TAKES = 1
BANDITS_TAKE = 2

#: The base game's 25 character cards: name -> copies. King values: one 3, two 4, one 5.
BASE_CARDS = MappingProxyType({
    "king": 4, "thief": 2, "steward": 3, "bandits": 1, "count": 3, "traitor": 2,
    "countess": 3, "master-builder": 3, "robber-baron": 2, "peasant": 2,
})
KING_VALUES = MappingProxyType({3: 1, 4: 2, 5: 1})
#: The Battle module's 8 dark-framed cards.
BATTLE_CARDS = MappingProxyType({"prince": 2, "abbot": 1, "guard": 2, "knights": 1, "arsonist": 2})

#: Cards and how they are used: with a ``play`` move, with a ``build``, or in another player's turn.
PLAY_CARDS: tuple[str, ...] = ("king", "thief", "bandits", "robber-baron", "traitor", "peasant",
                               "prince", "arsonist")
BUILD_CARDS: tuple[str, ...] = ("count", "countess", "master-builder")
TOP_BUILD_CARDS: tuple[str, ...] = ("abbot", "knights")
#: Where Count and Countess let a castle stand instead of a rock.
CARD_AREA = MappingProxyType({"count": "field", "countess": "forest"})
#: Cards that exist only with the Battle module.
BATTLE_ONLY: frozenset[str] = frozenset(BATTLE_CARDS)

#: Final scoring: a point per card in hand and per resource left.
POINTS_PER_CARD = 1
POINTS_PER_RESOURCE = 1
#: Silver awards (most, second, each in a tie for the most / in any tie with ``literal``).
SILVER_AWARDS = MappingProxyType({"first": 4, "second": 2, "tie": 3})
BATTLE_SILVER_AWARDS = MappingProxyType({"first": 8, "second": 4, "tie": 6})
#: Battle: majority of top castles in a settlement's row and column.
BATTLE_SETTLEMENT_POINTS = MappingProxyType({"village": 3, "town": 6})
#: Battle: every castle nobody built on.
BATTLE_OPEN_CASTLE_POINTS = 2
#: Dilemma: keeping one's own starting tile to the end.
DILEMMA_POINTS = 5

#: Rule options and their choices; the first choice is the default.
MODULES: tuple[str, ...] = ("dilemma", "battle")
NEUTRAL_CHOICES: tuple[str, ...] = ("void", "split")
SILVER_TIE_CHOICES: tuple[str, ...] = ("shared", "literal")


def deck_size(modules: frozenset[str] | set[str]) -> int:
    """Cards in the character deck: 25, plus the 8 Battle cards with that module."""
    size = sum(BASE_CARDS.values())
    if "battle" in modules:
        size += sum(BATTLE_CARDS.values())
    return size
