import sys

import minigrad

with open(sys.argv[1], "w") as report:
    report.write(f"tensor is a {type(minigrad.tensor).__name__}\n")
    report.write(f"path[0] {sys.path[0]}\n")
    report.write(f"name {__name__} file {__file__} argv {sys.argv[1:]}\n")
