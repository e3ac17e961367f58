"""Pilot-driven tests of every key on the built-in example."""

from __future__ import annotations

from textual.command import CommandList, CommandPalette
from textual.widgets._footer import FooterKey

from minigrad.trace import Breakpoint
from minigrad_tui.widgets.event_log import EventLog
from minigrad_tui.widgets.help_screen import HelpScreen

from .helpers import current_event, debugger, debugger_screen, header, press, script, text, wait_until


async def test_opens_the_builtin_example_at_its_first_event():
    async with debugger() as (app, pilot):
        assert app.session.cursor == 0
        assert "step 0 of 0" in header(app)
        assert "create leaf a (requires grad)" in header(app)
        assert app.screen.check_action("back", ()) is False
        assert app.screen.check_action("first", ()) is False
        assert app.screen.check_action("forward", ()) is True


async def test_step_forward_back_first_last():
    async with debugger() as (app, pilot):
        await press(app, pilot, "s", "right", "s")
        # a node's creation and its naming are one step: no key stops at a node_named event
        stops = [i for i, e in enumerate(app.session.events) if e.kind != "node_named"]
        assert app.session.cursor == stops[3]
        total = app.session.total
        assert f"step {stops[3]} of {total - 1}" in header(app)
        await press(app, pilot, "left")
        assert app.session.cursor == stops[2]
        assert f"step {stops[2]} of {total - 1}" in header(app)
        await press(app, pilot, "end")
        assert app.session.cursor == total - 1
        await press(app, pilot, "home")
        assert app.session.cursor == 0
        assert app.screen.check_action("back", ()) is False


async def test_next_node_enters_loss_then_finish_then_next():
    async with debugger() as (app, pilot):
        await press(app, pilot, "N")
        ev = current_event(app)
        assert ev.kind == "node_entered"
        assert "enter loss with gradient 1" in header(app)
        await press(app, pilot, "f")
        assert current_event(app).kind == "node_finished"
        assert "finish loss" in header(app)
        before = app.session.cursor
        await press(app, pilot, "n")
        assert app.session.cursor == before + 1


async def test_continue_runs_to_the_end_and_disables_forward():
    async with debugger() as (app, pilot):
        await press(app, pilot, "c")
        assert app.source.state == "finished"
        assert app.session.cursor == app.session.total - 1
        assert app.screen.check_action("forward", ()) is False
        assert app.screen.check_action("continue", ()) is False
        assert app.screen.check_action("back", ()) is True
        out = app.screen.query_one("#output")
        assert any("a.grad = tensor([ 4.0001, -1.9946,  0.1601])" in line for line in out.lines)
        # stepping back replays the record: the same step shows the same words
        words = header(app)
        await press(app, pilot, "left", "right")
        assert header(app) == words


async def test_breakpoint_from_the_command_line_on_an_op():
    async with debugger("--break", "op:tanh") as (app, pilot):
        await press(app, pilot, "c")
        ev = current_event(app)
        assert ev.kind == "node_created" or ev.kind == "node_entered"
        assert app.session.trace.nodes[ev.node].op == "tanh"


async def test_toggle_breakpoint_on_selected_node_and_continue():
    async with debugger() as (app, pilot):
        await press(app, pilot, "N")  # at loss; selected node = loss's current node
        c = app.screen.selected = next(i for i, n in app.session.trace.nodes.items() if n.label == "c")
        await press(app, pilot, "b")
        assert app.session.breakpoints == [Breakpoint(node=c)]  # the node itself, by its id
        assert "● bp" in text(app.screen.query_one("#node-head"))
        await press(app, pilot, "c")
        ev = current_event(app)
        assert ev.kind == "node_entered" and app.session.trace.nodes[ev.node].label == "c"
        await press(app, pilot, "b")
        assert app.session.breakpoints == []


async def test_toggle_op_breakpoint():
    async with debugger() as (app, pilot):
        await press(app, pilot, "N")
        await press(app, pilot, "B")
        assert [str(b) for b in app.session.breakpoints] == ["op:sum"]


async def test_run_to_selected_node():
    async with debugger() as (app, pilot):
        await press(app, pilot, "N")
        app.screen.selected = next(i for i, n in app.session.trace.nodes.items() if n.label == "a")
        await press(app, pilot, "t")
        ev = current_event(app)
        assert ev.kind == "node_entered" and app.session.trace.nodes[ev.node].label == "a"
        assert "a (leaf)" in text(app.screen.query_one("#node-head"))
        assert "incoming g" in text(app.screen.query_one("#node-info"))


async def test_select_cycles_nodes():
    async with debugger() as (app, pilot):
        await press(app, pilot, "N")
        await press(app, pilot, "]")
        first = app.screen.selected
        await press(app, pilot, "]")
        assert app.screen.selected != first
        await press(app, pilot, "[")
        assert app.screen.selected == first


async def test_event_log_jump():
    async with debugger() as (app, pilot):
        await press(app, pilot, "c")
        app.screen.query_one("#events", EventLog).post_message(EventLog.Jump(2))
        await pilot.pause(0.05)
        assert app.session.cursor == 2
        assert app.screen.query_one("#events", EventLog).highlighted == 2


async def test_help_screen_and_command_palette_actions():
    async with debugger() as (app, pilot):
        await pilot.press("question_mark")
        await pilot.pause(0.05)
        assert isinstance(app.screen, HelpScreen)
        help_text = text(app.screen.query_one("#help-table"))
        assert "continue to a breakpoint" in help_text and "export the current step as SVG" in help_text
        await pilot.press("escape")
        await pilot.pause(0.05)
        assert not isinstance(app.screen, HelpScreen)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for wanted in ("Next event", "Step into", "Continue to a breakpoint", "Pause a running script", "Quit"):
            assert any(t.startswith(wanted) for t in titles), wanted


async def test_pause_a_running_script():
    async with debugger(script("spinning.py")) as (app, pilot):
        await pilot.press("c")
        await wait_until(pilot, lambda: app.session.total > 50)  # the script is well on its way
        assert app.session.running
        await pilot.press("p")
        # wait on the screen taking in the paused status (a RunStatusChanged message), never on time
        await wait_until(pilot, lambda: not app.session.running and debugger_screen(app).shown_status.state == "paused")
        assert app.source.state == "paused"
        assert app.session.cursor > 5


async def test_graph_pane_and_tree_toggle():
    async with debugger() as (app, pilot):
        await press(app, pilot, "c")
        canvas = app.screen.query_one("#canvas")
        drawn = "\n".join(canvas.render_line(y).text for y in range(canvas.size.height))
        for name in ("a", "b", "loss", "mul"):
            assert name in drawn
        await press(app, pilot, "v")
        assert app.screen.query_one("#graph-pane").has_class("tree")
        tree = app.screen.query_one("#tree")
        labels = [str(n.label) for n in tree.root.children]
        assert any("loss" in label for label in labels)


async def test_export_writes_svg(tmp_path):
    async with debugger("--export-dir", str(tmp_path)) as (app, pilot):
        await press(app, pilot, "N", "e")
        await wait_until(pilot, lambda: list(tmp_path.glob("*.svg")))
        files = list(tmp_path.glob("*.svg"))
        assert len(files) == 1 and files[0].read_text().lstrip().startswith(("<?xml", "<svg"))


async def test_quit_mid_run_ends_the_script():
    async with debugger() as (app, pilot):
        await press(app, pilot, "N")
        runner = app.source
        await pilot.press("q")
        await pilot.pause(0.1)
        assert not app.is_running
    assert not runner.alive
    assert runner.state == "stopped"


async def test_palette_screenshot_writes_an_svg(tmp_path):
    async with debugger("--export-dir", str(tmp_path)) as (app, pilot):
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"Screenshot")
        await wait_until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
        await pilot.press("enter")
        await wait_until(pilot, lambda: list(tmp_path.glob("*.svg")))
        (svg,) = tmp_path.glob("*.svg")
        assert svg.read_text().lstrip().startswith("<svg") and "minigrad-tui" in svg.read_text()


def footer_keys(app) -> list:
    return [key.key for key in app.screen.query(FooterKey)]


async def test_the_footer_shows_only_the_keys_that_can_act():
    async with debugger(script("spinning.py"), size=(80, 24)) as (app, pilot):
        await wait_until(pilot, lambda: "n" in footer_keys(app))
        assert "left" not in footer_keys(app) and "p" not in footer_keys(app)  # nothing before the first step
        await press(app, pilot, "s")
        await wait_until(pilot, lambda: "left" in footer_keys(app))
        await pilot.press("c")  # the script never ends: while it runs, only pause (and help, quit) can act
        await wait_until(pilot, lambda: "p" in footer_keys(app))
        assert not {"n", "s", "left", "c", "g"} & set(footer_keys(app))
        assert app.screen.check_action("next", ()) is False
        await pilot.press("p")
        await wait_until(pilot, lambda: "n" in footer_keys(app) and "p" not in footer_keys(app))
