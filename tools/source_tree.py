"""The package ``stich`` as a folder, for tools that read sources without importing them.

The sources live in solver/ and cli/ and install as one package ``stich`` (setup.py's
package_dir); static readers (mypy, the API docs' griffe) look for a folder named ``stich``
and cannot follow the editable install's import hook.  ``make(root)`` builds ROOT/stich/ of
links to each entry of solver/ plus ``cli``, and returns ROOT.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent


def make(root: Path) -> Path:
    package = root / "stich"
    if package.is_symlink() or package.is_file():
        package.unlink()
    elif package.exists():
        shutil.rmtree(package)
    package.mkdir(parents=True)
    for entry in sorted((TOP / "solver").iterdir()):
        (package / entry.name).symlink_to(entry)
    (package / "cli").symlink_to(TOP / "cli")
    return root


if __name__ == "__main__":
    print(make(Path(sys.argv[1]) if len(sys.argv) > 1 else TOP / "build" / "sources"))
