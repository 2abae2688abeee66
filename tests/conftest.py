"""Make the repository root importable (``solver``) and this folder (``reference``,
``randompositions``) whichever way pytest is started.

Ctrl-C is tested for real (SIGINT to the test process and to commands it starts), so a run
started with SIGINT ignored (a job put in the background by a shell without job control, or
under nohup) would see every such test fail: the ignored disposition passes to every child.
Python's own handler is put back here; the children then start with SIGINT at its default."""

import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE.parent, HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
