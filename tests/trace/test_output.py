"""Output capture of one thread: its prints are captured, its input() reads end-of-file."""

import io
import sys
import threading

from minigrad.trace import OutputCapture
from minigrad.trace.output import capture_thread_output


def test_captured_thread_prints_into_the_capture_and_reads_eof(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("typed by the user\n"))
    capture = OutputCapture()
    seen = {}

    def script():
        with capture_thread_output(capture):
            print("hello from the script")
            try:
                input("name? ")
            except EOFError:
                seen["eof"] = True

    worker = threading.Thread(target=script)
    worker.start()
    worker.join(10)
    assert seen == {"eof": True}
    assert "hello from the script" in capture.text("stdout")
    assert sys.stdin.readline() == "typed by the user\n"  # other threads still read the real stdin
