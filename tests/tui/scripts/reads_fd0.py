import os
import sys

with open(sys.argv[1], "w") as report:
    report.write(f"fd 0 is /dev/null: {os.path.samestat(os.fstat(0), os.stat(os.devnull))}\n")
    report.flush()
    report.write(f"read: {os.read(0, 100)!r}\n")
