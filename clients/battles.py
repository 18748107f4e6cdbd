"""The last battle, read from the event log: the dice rolled and what came of them, for a
client to show (the window's "last battle" box). Generic: a battle is the dice an action
rolled (`roll` events), the ruleset's words for the events just before them (who attacks
what), and its words for what followed (hits, losses, retreats), continued by the answers
to the questions the rules ask on the way (`choose` decisions), until the next action of
another kind or the next step.

It also follows what became of each unit in the battle (`Battle.units`): the pieces that
stood in the spaces the action named when it began (the attacker's and the defender's, the
contested territory's), then, from the events after the first roll, those destroyed
(`destroyed`), those that left a space of the battle (`move`: retreated, and where to), and,
from the state after each action, those that took hits and lived (damaged); the rest
survived, or are still fighting while the rules ask a question of the battle. Where the
rules say where hits landed (`hits_on` events: a box of a combat strip, a target group),
each unit keeps its box and the hits on it.

No pyglet here."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.ruleset import hitting_words

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
    #: rolled to hit: the face they hit on or under (None: a roll for something else)
    at: int | None = None

    @property
    def words(self) -> str:
        """What the roll was for, in words: whose dice, what they hit on and how many hit."""
        if self.at is None:
            return self.why
        hits = sum(1 for f in self.faces if f <= self.at)
        return ((f"{self.why}, " if self.why else "") + hitting_words(self.at)
                + f": {hits} hit{'' if hits == 1 else 's'}")


#: what can become of a unit in a battle, in the order a box shows them ("fighting": the
#: battle still waits for an answer, a retreat or a casualty, and nothing befell the unit yet)
FATES = ("destroyed", "damaged", "retreated", "survived", "fighting")


@dataclass
class Fate:
    """What became of one unit in a battle: `fate` is one of FATES; `to` where it retreated;
    `hits` the hits it took and lived with."""

    piece: int
    owner: str
    kind: str
    space: str
    fate: str = "survived"
    to: str = ""
    hits: int = 0
    hits_before: int = 0
    #: the log index of the event that decided its fate (-1: none yet)
    at: int = -1
    #: where the rules said hits landed on it (`hits_on`: "box 2"), and how many
    box: str = ""
    box_hits: int = 0


@dataclass
class Battle:
    """One battle: its title (the action that began it), and its items in order, each a line
    of text or a Roll, with the index in the log of the event it came from."""

    title: str
    who: str = ""
    items: list[tuple[int, str | Roll]] = field(default_factory=list)
    #: the spaces the battle is in (those the action that began it named)
    spaces: tuple[str, ...] = ()
    #: what became of each unit in it, by piece id, in the order they were found
    units: dict[int, Fate] = field(default_factory=dict)
    #: the rules are still asking a question of the battle (where to retreat, which unit is
    #: lost): a unit nothing has befallen is still fighting, not a survivor yet
    undecided: bool = False

    def fates(self) -> list[tuple[str, str, list[Fate]]]:
        """(owner, fate, units) for each owner (in the order met) and fate (in FATES order)
        that has any."""
        owners: list[str] = []
        for f in self.units.values():
            if f.owner not in owners:
                owners.append(f.owner)

        def fate_of(f: Fate) -> str:
            return "fighting" if self.undecided and f.fate == "survived" else f.fate

        out = []
        for owner in owners:
            for fate in FATES:
                units = [f for f in self.units.values() if f.owner == owner and fate_of(f) == fate]
                if units:
                    out.append((owner, fate, units))
        return out

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

    def feed(self, events: Iterable[Event], start: int, source: tuple[str, str, str] | None = None,
             before: Any = None, after: Any = None, where: Iterable[str] = (), asking: bool = False) -> None:
        """Read the events an action caused (`start`: the log index of the first).
        `source` is (decision kind, player, action label) of that action, if known; without
        it (a log read whole, as when a saved game is opened) a roll after words about the
        last one begins another battle. `before` and `after` are the states on either side
        of the action, `where` the spaces it named: with them the battle follows its units.
        `asking`: after the action the rules ask a question (a `choose`), so a battle the
        action belonged to is not over yet."""
        asked = source is not None and source[0] == "choose"
        if not asked:
            self._close()
        lead: list[tuple[int, str]] = []
        gone: set[int] = set()                   # pieces destroyed before the dice: not in the battle
        followed = self.open
        for i, event in enumerate(events, start):
            kind, data = event
            if kind == "destroyed" and not self.open:
                gone.add(data.get("piece"))      # type: ignore[arg-type]
            if kind == "roll":
                if self.open and source is None and self._told:
                    self._close()
                self._told = False
                if not self.open:
                    who = source[1] if source is not None else ""
                    if source is not None and source[2]:
                        self.battle = Battle(source[2], who, list(lead[-LEAD:]))
                    else:                # the words just before the dice say what they are for
                        self.battle = Battle(lead[-1][1] if lead else "dice", who)
                    self.open = followed = True
                    self._enlist(self.battle, before, where, gone)
                assert self.battle is not None
                at = data.get("at")
                self.battle.items.append((i, Roll(tuple(data.get("faces", ())), int(data.get("sides", 6)),
                                                  str(data.get("why") or ""), None if at is None else int(at))))
                del self.battle.items[:-MOST]
                continue
            if kind.endswith("_start") or kind.endswith("_end"):
                self._close()
                lead = []
                continue
            if self.open and self.battle is not None:
                self._follow(self.battle, kind, data, i)
            text = self.narrate(event)
            if not text:
                continue
            if self.open and self.battle is not None:
                self.battle.items.append((i, text.strip()))
                self._told = True
            lead.append((i, text.strip()))

        if followed and self.battle is not None:
            self.battle.undecided = asking
            if after is not None:
                self._hits(self.battle, after)

    def _close(self) -> None:
        """The battle is over: nothing more is asked of it."""
        self.open = False
        if self.battle is not None:
            self.battle.undecided = False

    @staticmethod
    def _enlist(battle: Battle, before: Any, where: Iterable[str], gone: set[int]) -> None:
        """The units of a battle as it begins: the pieces in the spaces its action named
        (but those the action destroyed before the dice: a supply paid for the attack)."""
        battle.spaces = tuple(where)
        if before is None:
            return
        for sid in battle.spaces:
            for p in before.pieces_at(sid):
                if p.id not in gone:
                    battle.units.setdefault(p.id, Fate(p.id, p.owner, p.kind, sid, hits_before=p.hits))

    @staticmethod
    def _follow(battle: Battle, kind: str, data: dict[str, Any], index: int) -> None:
        """What an event during the battle does to its units: destroyed, or gone from a space
        of the battle (a retreat)."""
        if kind == "hits_on":
            for pid in data.get("pieces") or ():
                hit = battle.units.get(pid) if isinstance(pid, int) else None
                if hit is not None:
                    hit.box, hit.box_hits = str(data.get("box", "")), int(data.get("hits", 0))
            return
        pid = data.get("piece")
        if not isinstance(pid, int):
            return
        unit = battle.units.get(pid)
        if kind == "destroyed":
            if unit is None:                    # a unit the action did not name (one in the way)
                unit = battle.units[pid] = Fate(pid, str(data.get("owner", "")), str(data.get("kind", "")),
                                                str(data.get("space", "")))
            unit.fate, unit.at = "destroyed", index
        elif kind == "move" and unit is not None and unit.fate != "destroyed":
            src, to = data.get("src"), data.get("to")
            if src in battle.spaces and to not in battle.spaces:
                unit.fate, unit.to, unit.at = "retreated", str(to), index

    @staticmethod
    def _hits(battle: Battle, after: Any) -> None:
        """The hits the units still standing took (a damaged battleship)."""
        for unit in list(battle.units.values()):
            p = after.pieces.get(unit.piece)
            if p is None and unit.fate != "destroyed":
                del battle.units[unit.piece]      # gone without a word: nothing to say of it
                continue
            if p is None or unit.fate == "destroyed":
                continue
            unit.hits = max(0, p.hits - unit.hits_before)
            if unit.hits and unit.fate == "survived":
                unit.fate = "damaged"
            elif not unit.hits and unit.fate == "damaged":
                unit.fate = "survived"

    def forget_from(self, index: int) -> None:
        """The log was cut back to `index` events (an undo): forget what came after."""
        b = self.battle
        if b is None:
            return
        b.items = [(i, item) for i, item in b.items if i < index]
        for unit in b.units.values():
            if unit.at >= index:
                unit.fate, unit.to, unit.at = "survived", "", -1
        if not b.rolls:
            self.battle = None
            self.open = False
