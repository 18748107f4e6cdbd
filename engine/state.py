"""The state of one game at one moment: pieces, control, resources, where we are in the turn
sequence, the dice, and a namespaced place for the ruleset's own data.

Cheap to copy by design: the board and the compiled rules are shared, pieces are immutable,
the pieces and their indexes are shared with a copy until one of the two changes a piece,
and everything else is a flat dict copied one level deep.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from typing import Any

from engine import asking, dice
from engine.actions import IllegalAction
from engine.board import Board
from engine.pieces import Piece

Event = tuple[str, dict[str, Any]]


class GameState:
    """Everything that changes during a game. Rulesets read and change it through the methods
    below, so that the index of pieces by space stays right and every roll is logged. `pieces`
    is for reading only: the indexes hold the pieces themselves and a copy shares all three
    until one of them changes a piece, so a piece is changed with `update`, never written in."""

    __slots__ = (
        "board", "rules", "pieces", "_at", "_own", "_by", "_own_by", "_bk", "_own_bk", "_mine", "_marks", "_next_id", "control", "resources",
        # the listing the state is at, and what changed since the one before (see `share_entries`)
        "_stamp",
        "turn", "power_index", "phase_index", "step_index", "data", "rng",
        "result", "events", "_loaded",
        # rules-language state: game variables, which step's `start` has run, a move or
        # block waiting for a player's answer (see engine.rules_logic)
        "vars", "started", "task",
        # not part of the saved state: rebuilt by replaying the actions
        "task_base", "task_decision", "task_events", "task_gen", "answers", "answer_i",
        # a battle calculator's dice (engine.chance): when set, rolls come from it, the
        # count of a `roll_hits` from `hits_hook`, and a question's answer from `answer_hook`
        "dice_hook", "hits_hook", "answer_hook",
    )

    def __init__(self, board: Board, rules: Any = None, seed: int = 0) -> None:
        self.board = board
        self.rules = rules
        self.pieces: dict[int, Piece] = {}
        # the pieces in each space by id, in the order they came, and the spaces whose dict
        # this state made itself (it may change those in place; the others it shares with the
        # states it was copied from or to): adding, changing or removing a piece costs the
        # same however many pieces the space holds, and a space's pieces are listed without
        # looking each up (the rules ask `units_at` some 40,000 times in an LHTR game)
        self._at: dict[str, dict[int, Piece]] = {}
        self._own: set[str] = set()
        # the same by owner (`pieces_of`), in the order of their ids, as `pieces` is
        self._by: dict[str, dict[int, Piece]] = {}
        self._own_by: set[str] = set()
        # and by owner and unit type (`pieces_of_kinds`: a loop over an owner's transports
        # goes through its transports only)
        self._bk: dict[tuple[str, str], dict[int, Piece]] = {}
        self._own_bk: set[tuple[str, str]] = set()
        # do `pieces` and its indexes themselves belong to this state? A copy shares them
        # until one of the two changes a piece (a task's starting state, kept for a replay,
        # and a step that asks where before it moves anything copy nothing)
        self._mine = True
        # how many pieces carry each mark: taking a mark off every piece (a phase's, a turn's)
        # is nothing to do when none carries it, as most phases begin
        self._marks: dict[str, int] = {}
        self._next_id = 1
        # the listing's stamp (see `share_entries`): none until the first listing
        self._stamp: tuple[int, int, Collection[str]] | None = None
        self.control: dict[str, str] = {}
        self.resources: dict[tuple[str, str], int] = {}
        self.turn = 1
        self.power_index = 0
        self.phase_index = 0
        self.step_index = 0
        self.data: dict[str, dict[str, Any]] = {}
        self.rng = dice.seed_state(seed)
        self.result: dict[str, Any] | None = None
        self.events: list[Event] = []
        self._loaded: list[int] = []
        self.vars: dict[str, Any] = {}
        self.started: tuple[Any, ...] | None = None
        self.task: tuple[Any, ...] | None = None
        self.task_base: GameState | None = None
        self.task_decision: Any = None
        self.task_events = 0
        #: the waiting task itself, when it can go on from where it stopped: a one-item list
        #: (shared by every copy of this state) holding the generator and its TaskSpec, or
        #: None once it has been answered (then the task is replayed)
        self.task_gen: list[Any] | None = None
        self.answers: tuple[Any, ...] = ()
        self.answer_i = 0
        self.dice_hook: Any = None
        self.hits_hook: Any = None
        self.answer_hook: Any = None

    # -- copying ----------------------------------------------------------------------------
    def copy(self) -> GameState:
        new = GameState.__new__(GameState)
        new.board = self.board
        new.rules = self.rules
        new.pieces = self.pieces
        new._at = self._at
        new._by = self._by
        # from now on the two share every entry's dict: each makes the indexes its own (and
        # starts its record of the entries it made itself) before it changes a piece
        new._mine = self._mine = False
        new._own = new._own_by = new._own_bk = _NO_ENTRIES
        new._bk = self._bk
        # (a copy of a state unchanged since its listing goes on from that listing's stamp; a
        # state changed since will lose its record of what changed when it next takes its
        # entries, so neither goes on from it: see `_take`)
        new._stamp = None if self._own else self._stamp
        new._marks = dict(self._marks)
        new._next_id = self._next_id
        new.control = dict(self.control)
        new.resources = dict(self.resources)
        new.turn = self.turn
        new.power_index = self.power_index
        new.phase_index = self.phase_index
        new.step_index = self.step_index
        new.data = {ns: dict(d) for ns, d in self.data.items()} if self.data else {}
        new.rng = self.rng
        new.result = self.result
        new.events = []
        new._loaded = self._loaded        # (never changed in place: `roll` and `load_dice` replace it)
        new.vars = dict(self.vars)
        new.started = self.started
        new.task = self.task
        new.task_base = self.task_base
        new.task_decision = self.task_decision
        new.task_events = self.task_events
        new.task_gen = self.task_gen
        new.answers = self.answers
        new.answer_i = self.answer_i
        new.dice_hook = self.dice_hook
        new.hits_hook = self.hits_hook
        new.answer_hook = self.answer_hook
        return new

    def snapshot(self) -> GameState:
        """A copy that reads as this state reads now and holds no waiting task: what the
        options of a question asked in the middle of the rules read (their labels, the state
        they name). The state that asks holds the question; were the question to hold that
        state, the two would keep each other alive until the cycle collector found them
        (a random LHTR game asks some 1,300 questions)."""
        new = self.copy()
        new.task = new.task_base = new.task_decision = new.task_gen = None
        # (clients change a snapshot as they please, `control` too: it goes on from no listing)
        new._stamp = None
        return new

    def view(self) -> GameState:
        """`snapshot` for reading only, made without copying anything: what a question asked
        in the middle of the rules reads and names as its options' offer (engine.asking).
        It shares this state's tables (control, resources, game variables, marks, ruleset
        data) where a snapshot copies them: a state that asks is settled when it has asked,
        and nothing changes it after (`flow.apply` answers on a copy of it), so the two read
        alike for as long as either lives. Its pieces are shared copy-on-write, as a copy's
        are. Nothing may change a view."""
        new = GameState.__new__(GameState)
        new.board = self.board
        new.rules = self.rules
        new.pieces = self.pieces
        new._at = self._at
        new._by = self._by
        new._bk = self._bk
        new._mine = self._mine = False
        new._own = new._own_by = new._own_bk = _NO_ENTRIES
        if self._own:
            self._stamp = None
        new._stamp = None
        new._marks = self._marks
        new._next_id = self._next_id
        new.control = self.control
        new.resources = self.resources
        new.turn = self.turn
        new.power_index = self.power_index
        new.phase_index = self.phase_index
        new.step_index = self.step_index
        new.data = self.data
        new.rng = self.rng
        new.result = self.result
        new.events = []
        new._loaded = self._loaded
        new.vars = self.vars
        new.started = self.started
        new.task = new.task_base = new.task_decision = new.task_gen = None
        new.task_events = self.task_events
        new.answers = self.answers
        new.answer_i = self.answer_i
        new.dice_hook = self.dice_hook
        new.hits_hook = self.hits_hook
        new.answer_hook = self.answer_hook
        return new

    def become(self, other: GameState) -> None:
        """Take over everything of `other` (a worked-on copy), keeping this object."""
        for name in GameState.__slots__:
            setattr(self, name, getattr(other, name))
        self._mine = other._mine = False
        if other._own:
            self._stamp = other._stamp = None
        self._marks = dict(other._marks)

    # -- asking a player in the middle of the rules --------------------------------------------
    def choose(self, player: str, prompt: str, options: list[Any],
               labels: list[str] | Callable[[], list[str]] | None = None,
               refused: dict[Any, str] | Callable[[], dict[Any, str]] | None = None) -> Any:
        """The rules language's `choose`: the next recorded answer if the rules are being
        replayed, else ask (raise AskPlayer). One option is taken without asking. `labels`
        may be a function: it is called only when the player is asked. An answer that is
        not an option is refused with its reason in `refused`, if it has one."""
        return asking.ask(self, player, prompt, options, labels, refused)

    def question(self, player: str, prompt: str, options: list[Any],
                 labels: list[str] | Callable[[], list[str]] | None = None,
                 refused: dict[Any, str] | Callable[[], dict[Any, str]] | None = None) -> tuple[bool, Any]:
        """`choose` in a task that waits for its answer (engine.asking.question)."""
        return asking.question(self, player, prompt, options, labels, refused)

    def take_answer(self, prompt: str, options: list[Any], refused: Any, answer: Any) -> Any:
        """The option a waiting task's answer names (engine.asking.take_answer)."""
        return asking.take_answer(prompt, options, refused, answer)

    # -- pieces -----------------------------------------------------------------------------
    def add_piece(self, kind: str, owner: str, space: str, **fields: Any) -> Piece:
        piece = Piece(self._next_id, kind, owner, space, **fields)
        if not self._mine:
            self._take()
        self._next_id += 1
        if piece.status:
            self._count_marks(piece.status, 1)
        self.pieces[piece.id] = piece
        self._ids(space)[piece.id] = piece
        self._owned(owner)[piece.id] = piece
        self._kinded(owner, kind)[piece.id] = piece
        return piece

    def piece(self, pid: int) -> Piece:
        try:
            return self.pieces[pid]
        except KeyError:
            raise IllegalAction(f"there is no piece #{pid}") from None

    def pieces_at(self, space: str) -> list[Piece]:
        at = self._at.get(space)
        return list(at.values()) if at else []

    def ids_at(self, space: str) -> Collection[int]:
        ids = self._at.get(space)
        return ids.keys() if ids is not None else ()

    def occupied(self) -> Iterator[str]:
        """Spaces (and off-board areas) that hold at least one piece."""
        return (s for s, ids in self._at.items() if ids)

    def occupied_on_board(self) -> list[str]:
        """The board's spaces that hold at least one piece, in the board's order."""
        at = self._at
        return [s for s in self.board.spaces if at.get(s)]

    def pieces_of(self, owner: str) -> list[Piece]:
        of = self._by.get(owner)
        return list(of.values()) if of else []

    def pieces_of_kinds(self, owner: str, kinds: tuple[str, ...]) -> Collection[Piece]:
        """An owner's pieces of these unit types, in the order of their ids: the state's own
        index, for reading only (the rules language's loops over `units_of` that look at some
        types only; see dsl.compiler, "units of some types")."""
        if len(kinds) == 1:
            of = self._bk.get((owner, kinds[0]))
            return of.values() if of is not None else ()
        found = [of for k in kinds if (of := self._bk.get((owner, k)))]
        if len(found) == 1:
            return found[0].values()
        if not found:
            return ()
        return sorted([p for of in found for p in of.values()], key=_piece_id)

    def update(self, pid: int, **changes: Any) -> Piece:
        """Replace a piece with changed fields (moving it if `space` changes)."""
        old = self.piece(pid)
        new = old.changed(changes)
        if not self._mine:
            self._take()
        if new.status is not old.status:
            self._count_marks(old.status, -1)
            self._count_marks(new.status, 1)
        if new.space != old.space:
            _drop(self._at, self._own, old.space, pid)
        _own_entry(self._at, self._own, new.space)[pid] = new
        # (a piece that keeps its owner and type, the common case, is put back in its entries
        # straight)
        if new.owner != old.owner:
            self._unown(old)
            _put_in_order(self._by, self._owned(new.owner), new.owner, new)
        else:
            _own_entry(self._by, self._own_by, new.owner)[pid] = new
        if new.owner != old.owner or new.kind != old.kind:
            self._unkind(old)
            _put_in_order(self._bk, self._kinded(new.owner, new.kind), (new.owner, new.kind), new)
        else:
            _own_entry(self._bk, self._own_bk, (new.owner, new.kind))[pid] = new
        self.pieces[pid] = new
        return new

    def set_mark(self, pid: int, name: str, on: bool) -> Piece:
        """Put a mark on a piece or take it off (`update`'s commonest change written out: the
        piece stays in its entries, and only this mark's count moves)."""
        old = self.piece(pid)
        if (name in old.status) is on:
            return old
        new = old.changed_status(old.status | {name} if on else old.status - {name})
        if not self._mine:
            self._take()
        marks = self._marks
        n = marks.get(name, 0) + (1 if on else -1)
        if n:
            marks[name] = n
        else:
            del marks[name]
        _own_entry(self._at, self._own, new.space)[pid] = new
        _own_entry(self._by, self._own_by, new.owner)[pid] = new
        _own_entry(self._bk, self._own_bk, (new.owner, new.kind))[pid] = new
        self.pieces[pid] = new
        return new

    def move(self, pid: int, space: str) -> Piece:
        """`update(pid, space=space)` written out: a piece that moves keeps its owner, type
        and marks, so it stays in its owner's entries and only changes space."""
        old = self.piece(pid)
        new = old.changed_space(space)
        if not self._mine:
            self._take()
        if space != old.space:
            _drop(self._at, self._own, old.space, pid)
        _own_entry(self._at, self._own, space)[pid] = new
        _own_entry(self._by, self._own_by, new.owner)[pid] = new
        _own_entry(self._bk, self._own_bk, (new.owner, new.kind))[pid] = new
        self.pieces[pid] = new
        return new

    def set_status(self, pid: int, status: frozenset[str]) -> Piece:
        """Give a piece these marks in place of its own (`update(pid, status=...)` written
        out, as `set_mark` is: the piece stays in its entries)."""
        old = self.piece(pid)
        if status == old.status:
            return old
        new = old.changed_status(status)
        if not self._mine:
            self._take()
        self._count_marks(old.status, -1)
        self._count_marks(status, 1)
        _own_entry(self._at, self._own, new.space)[pid] = new
        _own_entry(self._by, self._own_by, new.owner)[pid] = new
        _own_entry(self._bk, self._own_bk, (new.owner, new.kind))[pid] = new
        self.pieces[pid] = new
        return new

    def remove(self, pid: int) -> Piece:
        old = self.piece(pid)
        if not self._mine:
            self._take()
        if old.status:
            self._count_marks(old.status, -1)
        self._unindex(old)
        self._unown(old)
        self._unkind(old)
        del self.pieces[pid]
        return old

    def marked_any(self, names: Collection[str]) -> bool:
        """Does any piece carry one of these marks?"""
        marks = self._marks
        return any(name in marks for name in names)

    def _count_marks(self, names: Iterable[str], change: int) -> None:
        marks = self._marks
        for name in names:
            n = marks.get(name, 0) + change
            if n:
                marks[name] = n
            else:
                del marks[name]

    def share_entries(self) -> None:
        """Leave every index entry shared from now on: a later change of one copies it first,
        as a copy of the state would. The engine does this before it lists a decision's
        options, so that the answers rules keep by the entries they read (dsl.compiler,
        "answers kept by what they read") are kept from then on: an entry the state shares
        is never changed again.

        And stamp the listing: `_stamp` is (its number, the number of the listing before it
        in this state or in the state it is a copy of, the spaces whose pieces changed since),
        when that is known: the spaces whose entries the state took to change since then
        (`_own`: every change of a piece changes its space's entry). While `_own` is empty the
        state is as it was listed; a change of control forgets the stamp (`set_control`:
        some 20 times a Bulge game). The answers the rules keep by the spaces they read
        (dsl.compiler, "answers kept by the spaces they read") are given again while none of
        those spaces changed."""
        own, prev = self._own, self._stamp
        if prev is not None:
            if not own:
                return      # (listed again, nothing changed: the same stamp)
            self._stamp = (next(_STAMPS), prev[0], own)
        else:
            self._stamp = (next(_STAMPS), 0, _NO_ENTRIES)
        if self._mine:
            self._own, self._own_by, self._own_bk = set(), set(), set()
        else:
            self._own = self._own_by = self._own_bk = _NO_ENTRIES

    def set_control(self, space: str, owner: str) -> None:
        """Give a space's control to `owner`. Every change of control goes through here: the
        state then goes on from no listing (see `share_entries`), so that no answer kept by
        the spaces it read outlives it."""
        self.control[space] = owner
        self._stamp = None

    def _take(self) -> None:
        """Make the pieces and their indexes this state's own, to change."""
        if self._own:
            self._stamp = None      # (changed since its listing, then copied: see `copy`)
        self.pieces = dict(self.pieces)
        self._at = dict(self._at)
        self._by = dict(self._by)
        self._bk = dict(self._bk)
        self._own, self._own_by, self._own_bk = set(), set(), set()
        self._mine = True

    def _ids(self, space: str) -> dict[int, Piece]:
        """The pieces of a space, for this state to change."""
        return _own_entry(self._at, self._own, space)

    def _owned(self, owner: str) -> dict[int, Piece]:
        """The pieces of an owner, for this state to change."""
        return _own_entry(self._by, self._own_by, owner)

    def _kinded(self, owner: str, kind: str) -> dict[int, Piece]:
        """The pieces of an owner of one unit type, for this state to change."""
        return _own_entry(self._bk, self._own_bk, (owner, kind))

    def _unindex(self, piece: Piece) -> None:
        _drop(self._at, self._own, piece.space, piece.id)

    def _unown(self, piece: Piece) -> None:
        _drop(self._by, self._own_by, piece.owner, piece.id)

    def _unkind(self, piece: Piece) -> None:
        _drop(self._bk, self._own_bk, (piece.owner, piece.kind), piece.id)

    # -- control and resources --------------------------------------------------------------
    def controller(self, space: str) -> str | None:
        return self.control.get(space)

    def resource(self, owner: str, name: str) -> int:
        return self.resources.get((owner, name), 0)

    def gain(self, owner: str, name: str, amount: int) -> int:
        value = self.resources.get((owner, name), 0) + amount
        if value < 0:
            raise IllegalAction(f"{owner} has only {value - amount} {name}, not {-amount}")
        self.resources[(owner, name)] = value
        return value

    def spend(self, owner: str, name: str, amount: int) -> int:
        return self.gain(owner, name, -amount)

    # -- ruleset data -----------------------------------------------------------------------
    def ns(self, namespace: str) -> dict[str, Any]:
        """The ruleset's own data under `namespace`. Values must be immutable and JSON-able
        (ints, strings, tuples, frozensets...): copies share them."""
        d = self.data.get(namespace)
        if d is None:
            d = self.data[namespace] = {}
        return d

    # -- dice and events ---------------------------------------------------------------------
    def roll(self, n: int, sides: int, why: str = "", at: int | None = None) -> list[int]:
        """Roll `n` dice with `sides` faces, logging the roll: `why` (whose dice, what for),
        and `at`, the face they hit on or under, when they are rolled to hit."""
        if not isinstance(n, int) or not isinstance(sides, int) or n < 0 or n > 10_000 or sides < 2 or sides > 1_000:
            raise IllegalAction(f"cannot roll {n} dice of {sides} sides: 0 to 10000 dice of 2 to 1000 sides")
        if self.dice_hook is not None:
            faces = self.dice_hook(n, sides)
            self.events.append(("roll", _roll_event(n, sides, faces, why, at)))
            return faces
        if self._loaded:
            take, self._loaded = self._loaded[:n], self._loaded[n:]
            self.rng, extra = dice.roll(self.rng, n - len(take), sides)
            faces = take + extra
            for f in faces:
                if not 1 <= f <= sides:
                    raise ValueError(f"loaded die {f} is not a face of a d{sides}")
        else:
            self.rng, faces = dice.roll(self.rng, n, sides)
        self.events.append(("roll", _roll_event(n, sides, faces, why, at)))
        return faces

    def load_dice(self, faces: Iterable[int]) -> None:
        """Fix the next rolls (rulebook examples and tests); the seed takes over after them."""
        self._loaded = list(faces)

    def emit(self, event: str, /, **data: Any) -> None:
        self.events.append((event, data))

    # -- serialisation ------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "power_index": self.power_index,
            "phase_index": self.phase_index,
            "step_index": self.step_index,
            "next_id": self._next_id,
            "rng": str(self.rng),
            "pieces": [p.to_json() for p in sorted(self.pieces.values(), key=lambda p: p.id)],
            "control": dict(sorted(self.control.items())),
            "resources": [[o, n, v] for (o, n), v in sorted(self.resources.items())],
            "data": {ns: _jsonable(d) for ns, d in sorted(self.data.items())},
            "vars": _jsonable(self.vars),
            "started": list(self.started) if self.started is not None else None,
            "task": _jsonable(self.task) if self.task is not None else None,
            "result": self.result,
        }

    def signature(self) -> Mapping[str, Any]:
        """A canonical, comparable form of the state (what a replay must reproduce)."""
        import json

        return json.loads(json.dumps(self.to_json(), sort_keys=True))


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (frozenset, set)):
        return sorted((_jsonable(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


#: the entries a state that does not own its indexes made itself: none (it makes the indexes
#: its own, with a record of its own, before it changes a piece; a frozenset, so that a change
#: made without that would fail at once)
_NO_ENTRIES: Any = frozenset()

#: the stamps of listings (`GameState.share_entries`), never given twice in a process
_STAMPS = itertools.count(1)


def _own_entry(index: dict[Any, dict[int, Piece]], own: set[Any], key: Any) -> dict[int, Piece]:
    """An index's entry (the pieces of a space, an owner...) made the state's own to change:
    `own` holds the keys whose dicts it made itself; the others it shares with its copies."""
    if key in own:
        try:
            return index[key]
        except KeyError:    # (an entry left empty, its key still in `own`: see `_drop`)
            pass
    ids = index.get(key)
    ids = index[key] = {} if ids is None else dict(ids)
    own.add(key)
    return ids


def _drop(index: dict[Any, dict[int, Piece]], own: set[Any], key: Any, pid: int) -> None:
    """Take a piece out of an index's entry; an entry left empty goes (its key stays in
    `own`: the state changed it, see `GameState.share_entries`)."""
    ids = _own_entry(index, own, key)
    del ids[pid]
    if not ids:
        del index[key]


def _piece_id(p: Piece) -> int:
    return p.id


def _put_in_order(index: dict[Any, dict[int, Piece]], of: dict[int, Piece], key: Any, piece: Piece) -> None:
    """Put a piece that came from another entry (a captured one) into the entry `of` of
    `index` (this state's own), kept in the order of ids, as `pieces` is."""
    last = next(reversed(of), 0)
    of[piece.id] = piece
    if last > piece.id:
        index[key] = {i: of[i] for i in sorted(of)}


def _roll_event(n: int, sides: int, faces: list[int], why: str, at: int | None) -> dict[str, Any]:
    """A roll's event: its dice, why, and (rolled to hit) the face they hit on or under."""
    data: dict[str, Any] = {"n": n, "sides": sides, "faces": faces, "why": why}
    if at is not None:
        data["at"] = at
    return data
