"""Peer benchmarks: minigrad against PyTorch CPU eager, a hand-written NumPy floor and micrograd.

Run ``python -m bench`` (``--help`` for options). Each peer of each workload runs in
its own subprocess with every thread pool pinned to one thread; the parent asks the
peers for one timed run at a time, in rotating order, so that noise from a shared
machine falls on all of them alike. Results go to ``bench/results/<stamp>.json`` and a
Markdown table of ratios (minigrad / peer) is printed.

This package imports nothing heavy at import time: the worker must pin the thread
pools before NumPy or PyTorch are first imported.
"""
