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


def test_the_routed_streams_have_their_binary_buffers_as_the_real_ones_do(monkeypatch):
    """``sys.stdin.buffer`` / ``sys.stdout.buffer`` exist once the routers are installed (a tool reading
    ``sys.stdin.buffer`` failed with AttributeError after a script had been stepped); a captured thread
    reads end-of-file from it, and its bytes are captured as its text is."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"typed\\n")))
    capture = OutputCapture()
    seen = {}

    def script():
        with capture_thread_output(capture):
            seen["read"] = sys.stdin.buffer.read()
            sys.stdout.buffer.write("bytes \\u00e9\\n".encode(sys.stdout.encoding))

    worker = threading.Thread(target=script)
    worker.start()
    worker.join(10)
    assert seen == {"read": b""}
    assert "bytes \\u00e9" in capture.text("stdout")
    assert sys.stdin.buffer.read() == b"typed\\n"  # other threads read the real stream's bytes
