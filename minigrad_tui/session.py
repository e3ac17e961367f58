"""The viewer's position in a run: a cursor over the recorded events, moved by the keys.

Movements first look in what is already recorded (so stepping back and then
forward again replays the record); past the last recorded event they ask the
runner to let the script continue until the same movement is satisfied.
"""

from __future__ import annotations

from minigrad.trace.breakpoints import HitCounter

from . import navigation as nav


class Session:
    """Cursor, breakpoints and the movement waiting on the script, over a runner or a replay."""

    def __init__(self, source, breakpoints=()) -> None:
        self.source = source
        self.breakpoints: list = list(breakpoints)
        self.cursor = -1
        self.waiting_for: int | None = 0 if source.live else None
        self._movement: nav.Movement | None = nav.step_into()
        self._hits: HitCounter | None = None

    @property
    def trace(self):
        return self.source.trace

    @property
    def events(self) -> list:
        return self.trace.events if self.trace is not None else []

    @property
    def total(self) -> int:
        return len(self.events)

    @property
    def running(self) -> bool:
        """The script is running towards a movement the viewer asked for."""
        return self.waiting_for is not None

    @property
    def at_last(self) -> bool:
        """No step after the cursor, now or ever (the script has ended, or this is a replay)."""
        return self.cursor >= self.total - 1 and not self.source.alive

    def sync(self, status=None) -> bool:
        """Pick up where the script stopped, as ``status`` (a RunStatus; the source's now when None)
        says; True when the cursor moved."""
        if self.waiting_for is None:
            if self.cursor < 0 and self.total:
                self.cursor = 0
                return True
            return False
        status = self.source.status if status is None else status
        if status.generation == self.waiting_for and status.paused_at is not None:
            # The script never pauses at some events (names learned late); a movement may stop at one of them.
            found = nav.search(self.events, self.cursor + 1, self._movement) if self._movement else None
            target = found if found is not None and found <= status.paused_at else status.paused_at
            self.waiting_for = None
            self._movement = None
            moved = self.cursor != target
            self.cursor = target
            return moved
        if status.ended:
            self.waiting_for = None
            last = self.total - 1
            moved = self.cursor != last
            self.cursor = last
            return moved
        return False

    def move(self, movement: nav.Movement) -> bool:
        """Go to the next step ``movement`` stops at (or the end of a finished run); False while the script runs."""
        found = nav.search(self.events, self.cursor + 1, movement)
        if found is not None:
            self.cursor = found
            return True
        if not self.source.alive:
            self.go(self.total - 1)  # nothing further will come: stop at the end
            return True
        if self.waiting_for is None:
            self.cursor = self.total - 1
            self._movement = movement
            self.waiting_for = self.source.advance(movement)
        return False

    def go(self, index: int) -> None:
        """Jump to a recorded step (clamped)."""
        if self.total:
            self.cursor = min(max(index, 0), self.total - 1)

    def back(self) -> None:
        """One step back (a node's naming is part of its creation step, never a step of its own)."""
        events = self.events
        i = self.cursor - 1
        while i > 0 and not nav.stops_at(events[i]):
            i -= 1
        self.go(i)

    def current_depth(self) -> int:
        return self.events[self.cursor].depth if 0 <= self.cursor < self.total else 0

    def current_node(self):
        return self.trace.node_in_progress(self.cursor) if self.trace is not None else None

    def toggle(self, bp) -> bool:
        """Add or remove a breakpoint; True when it is now set."""
        if bp in self.breakpoints:
            self.breakpoints.remove(bp)
            return False
        self.breakpoints.append(bp)
        return True

    def continue_movement(self) -> nav.Movement:
        return nav.continue_to(self.breakpoints, self.hits)

    @property
    def hits(self) -> HitCounter:
        """The trace's breakpoint hit counter (the same one for every movement and for :meth:`stopped_by`)."""
        if self._hits is None or self._hits.trace is not self.trace:
            self._hits = HitCounter(self.trace)
        return self._hits

    def stopped_by(self):
        """The breakpoint the current step meets (so a stop there is explained), or None."""
        if not self.breakpoints or not 0 <= self.cursor < self.total:
            return None
        return self.hits.first(self.breakpoints, self.events[self.cursor])
