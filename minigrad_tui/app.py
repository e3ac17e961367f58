"""Entry point of ``minigrad-tui``: parse the arguments, open the debugger, end the script on quit."""

from __future__ import annotations

import os
import sys

from textual.app import App, SystemCommand

from minigrad.compat import torch_imports

from .cli import Options, parse_args
from .runner import ReplaySource, ScriptRunner
from .screen import KEYS, DebuggerScreen
from .session import Session
from .terminal_guard import keys_kept_from_the_script, run_in_child, screen_reported
from .widgets.prompt import Prompt

EXPORT_DIR = "minigrad-exports"  # the folder offered at the first export


class DebuggerApp(App):
    """The minigrad terminal debugger over a running script or a recorded trace."""

    CSS_PATH = "debugger.tcss"
    TITLE = "minigrad-tui"

    def __init__(
        self, source, title: str, breakpoints=(), export_dir: str | None = None, web_token: bool = False
    ) -> None:
        super().__init__()
        self.web_token = web_token
        self.source = source
        self.session = Session(source, breakpoints)
        source.breakpoints = self.session.breakpoints
        self.source_title = title
        self.export_dir = export_dir

    def console_allowed(self) -> bool:
        """The expression console runs Python: in this terminal, or in a browser that presented the server's token."""
        return not self.is_web or self.web_token

    def on_mount(self) -> None:
        self.push_screen(DebuggerScreen(self.session, self.source_title))
        self.source.start()

    def get_system_commands(self, screen):
        for command in super().get_system_commands(screen):
            if command.title == "Screenshot":  # Textual's goes to the downloads folder: ours to --export-dir
                command = SystemCommand(
                    "Screenshot",
                    f"Save an SVG of the screen in {self.export_dir or 'a folder you name (' + EXPORT_DIR + '/)'}",
                    self.action_screenshot_to_dir,
                )
            yield command
        if isinstance(screen, DebuggerScreen):
            for key, action, description in KEYS:
                callback = getattr(screen, f"action_{action}", None) or getattr(self, f"action_{action}")
                yield SystemCommand(description.capitalize(), f"key: {key}", callback)

    def with_export_dir(self, then) -> None:
        """Call ``then(folder)`` with the export folder, asking for it at the first export when ``--export-dir``
        did not name one (``minigrad-exports`` offered, made if missing). The root of a git checkout is
        refused: exports never land among a project's own files unasked."""
        if self.export_dir is not None:
            then(self.export_dir)
            return
        question = "export to which folder? (asked once; made if missing)"
        self.push_screen(
            Prompt(question, EXPORT_DIR, value=EXPORT_DIR), lambda answer: self._export_dir_named(answer, then)
        )

    def _export_dir_named(self, answer: str | None, then) -> None:
        if not answer:
            return
        folder = os.path.abspath(os.path.expanduser(answer))
        if os.path.exists(os.path.join(folder, ".git")):
            self.notify(
                f"{folder} is the root of a git checkout: name a folder inside it, such as {EXPORT_DIR}",
                title="nothing exported",
                severity="warning",
            )
            return
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            self.notify(f"{type(exc).__name__}: {exc}", title="nothing exported", severity="error")
            return
        self.export_dir = folder
        then(folder)

    def action_screenshot_to_dir(self) -> None:
        """Save an SVG of the whole screen in the export folder (asked for at the first export)."""
        self.with_export_dir(self._screenshot_into)

    def _screenshot_into(self, folder: str) -> None:
        try:
            path = self.save_screenshot(path=folder)
        except OSError as exc:  # a failed screenshot must not end the session
            self.notify(f"{type(exc).__name__}: {exc}", title="screenshot failed", severity="error")
            return
        self.notify(f"wrote {path}", title="screenshot")

    def action_quit(self) -> None:
        self.source.stop()
        self.exit()

    async def on_unmount(self) -> None:
        self.source.stop()


def build_app(options: Options) -> DebuggerApp:
    """The app for parsed options; raises OSError/TraceFormatError for unreadable inputs."""
    if options.replay:
        from minigrad.trace import Trace

        source = ReplaySource(Trace.load(options.replay))
        title = options.replay
    elif options.script:
        source = ScriptRunner(options.script, options.script_args, options.device)
        title = options.script
    else:
        from minigrad import examples

        source = ScriptRunner(examples.path("demo"), [], options.device)
        title = "built-in example"
    return DebuggerApp(source, title, options.breakpoints, options.export_dir, options.web_token)


def main(argv=None) -> int:
    options = parse_args(argv)
    if options.script and not os.path.isfile(options.script):
        # as python itself says it, before any screen opens
        print(f"minigrad-tui: can't open file {options.script!r}: [Errno 2] No such file or directory", file=sys.stderr)
        return 2
    if options.web:
        from .web import serve

        return serve(options)
    code = run_in_child(sys.argv[1:] if argv is None else list(argv))
    if code is not None:
        return code
    try:
        app = build_app(options)
    except (OSError, ValueError) as exc:
        print(f"minigrad-tui: cannot open {options.replay}: {exc}", file=sys.stderr)
        return 2
    with screen_reported(), keys_kept_from_the_script(), torch_imports(options.torch):
        app.run()
    return 0 if app.source.state != "error" else 1


if __name__ == "__main__":
    import minigrad_tui

    sys.exit(minigrad_tui.main())  # the package's entry, which ends a ctrl+c while starting quietly
