"""``python -m bench``: run the peer benchmarks."""

from .run import main

raise SystemExit(main())
