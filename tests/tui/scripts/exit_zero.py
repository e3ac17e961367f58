import os

os._exit(0)  # ends the debugger's process at once, with a code that says all went well
