import sys

from minigrad.cli import main

sys.exit(main())
