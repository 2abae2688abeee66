"""Make the repository root importable (``solver``) and this folder (``reference``,
``randompositions``) whichever way pytest is started."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE.parent, HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
