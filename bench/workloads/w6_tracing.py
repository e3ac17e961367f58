"""W6 tracing cost, shared by W6a (W1's op chain) and W6b (W2's MLP training): minigrad with no
listener, with a listener that does nothing, and with a recording (``minigrad.trace.record()``, default options)."""

from __future__ import annotations

from . import Skip

PEERS = ("none", "noop", "recorder")
MINIGRAD_PEERS = PEERS  # every variant runs minigrad: --compare-to runs each on the other checkout too
RATIOS = (("noop", "none"), ("recorder", "none"))


def _noop(kind, values):
    pass


def listen_wrapper(peer: str):
    """A function ``listen(run)`` that runs ``run`` under the peer's listener setup."""
    if peer == "none":
        return lambda run: run()
    if peer == "noop":
        from minigrad import _events

        def listen(run):
            _events.add_listener(_noop)  # not listeners.append: the bus calls what add_listener registered
            try:
                return run()
            finally:
                _events.remove_listener(_noop)

        return listen
    if peer == "recorder":
        try:
            from minigrad.trace import record
        except ImportError:
            raise Skip("minigrad.trace (record) is not in this checkout yet") from None

        def listen(run):
            with record():  # the default recording: snapshots (summaries above 1024 values), sources, names
                return run()

        return listen
    raise Skip(f"no {peer} variant for W6")
