"""A stdio server that gives up before the handshake with exit status 3, as a misconfigured one does."""

import sys

sys.stderr.write("exits_early: settings file missing\n")
sys.exit(3)
