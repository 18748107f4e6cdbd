"""The last battle, read from the event log: the dice rolled and what came of them, for a
client to show (the window's "last battle" box). Generic: a battle is the dice an action
rolled (`roll` events), the ruleset's words for the events just before them (who attacks
what), and its words for what followed (hits, losses, retreats), continued by the answers
to the questions the rules ask on the way (`choose` decisions), until the next action of
another kind or the next step.

No pyglet here."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

Event = tuple[str, dict[str, Any]]

#: how many lines from before the first roll are kept as the battle's lead-in
LEAD = 1
#: the most items a battle keeps (the newest)
MOST = 400


@dataclass
class Roll:
    faces: tuple[int, ...]
    sides: int
    why: str = ""


@dataclass
class Battle:
    """One battle: its title (the action that began it), and its items in order, each a line
    of text or a Roll, with the index in the log of the event it came from."""

    title: str
    who: str = ""
    items: list[tuple[int, str | Roll]] = field(default_factory=list)

    @property
    def rolls(self) -> list[Roll]:
        return [i for _, i in self.items if isinstance(i, Roll)]

    @property
    def lines(self) -> list[str]:
        return [i for _, i in self.items if isinstance(i, str)]


class BattleLog:
    """Follows the game's log and keeps the last battle. `narrate(event)` gives the
    ruleset's words for an event (None to keep it quiet)."""

    def __init__(self, narrate: Callable[[Event], str | None]) -> None:
        self.narrate = narrate
        self.battle: Battle | None = None
        self.open = False
        self._told = False        # words came since the battle's last roll

    def feed(self, events: Iterable[Event], start: int, source: tuple[str, str, str] | None = None) -> None:
        """Read the events an action caused (`start`: the log index of the first).
        `source` is (decision kind, player, action label) of that action, if known; without
        it (a log read whole, as when a saved game is opened) a roll after words about the
        last one begins another battle."""
        asked = source is not None and source[0] == "choose"
        if not asked:
            self.open = False
        lead: list[tuple[int, str]] = []
        for i, event in enumerate(events, start):
            kind, data = event
            if kind == "roll":
                if self.open and source is None and self._told:
                    self.open = False
                self._told = False
                if not self.open:
                    who = source[1] if source is not None else ""
                    if source is not None and source[2]:
                        self.battle = Battle(source[2], who, list(lead[-LEAD:]))
                    else:                # the words just before the dice say what they are for
                        self.battle = Battle(lead[-1][1] if lead else "dice", who)
                    self.open = True
                assert self.battle is not None
                self.battle.items.append((i, Roll(tuple(data.get("faces", ())), int(data.get("sides", 6)),
                                                  str(data.get("why") or ""))))
                del self.battle.items[:-MOST]
                continue
            if kind.endswith("_start") or kind.endswith("_end"):
                self.open = False
                lead = []
                continue
            text = self.narrate(event)
            if not text:
                continue
            if self.open and self.battle is not None:
                self.battle.items.append((i, text.strip()))
                self._told = True
            lead.append((i, text.strip()))

    def forget_from(self, index: int) -> None:
        """The log was cut back to `index` events (an undo): forget what came after."""
        b = self.battle
        if b is None:
            return
        b.items = [(i, item) for i, item in b.items if i < index]
        if not b.rolls:
            self.battle = None
            self.open = False
