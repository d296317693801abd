#!/usr/bin/env bash
# Write the installer's lock files from pyproject.toml and constraints.txt, with every file's hash.
#
#   systemd/lock.sh            (needs pip-tools: pip install pip-tools)
#
# systemd/requirements-ui.lock        the touchscreen appliance's dependencies (extras ui, web, club and pi)
# systemd/requirements-headless.lock  the headless box's (extras web, club and pi)
# systemd/requirements-source.lock    the dependencies published only as source (sdnotify today):
#                                     install.sh builds their wheels in its unprivileged step
# systemd/requirements-build.lock     what that step builds with (setuptools, pyproject's build-system)
#
# pip-compile resolves with the Python running it: use Python 3.11, as Raspberry Pi OS Bookworm
# has. The hashes are those of every file of each pinned release, so the Pi's aarch64 wheels are
# among them. tests/test_installer.py checks that the locks agree with pyproject.toml and
# constraints.txt; run this again whenever either changes.
set -euo pipefail

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Published without a wheel for the Pi: built from the hashed source, never installed as root from it.
SOURCE_ONLY=(sdnotify)
COMPILE=(pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url
         --no-emit-find-links --constraint constraints.txt)

cd "$SOURCE"
"${COMPILE[@]}" --extra ui --extra web --extra club --extra pi --output-file systemd/requirements-ui.lock pyproject.toml
"${COMPILE[@]}" --extra web --extra club --extra pi --output-file systemd/requirements-headless.lock pyproject.toml
# What the unprivileged step builds with (pyproject's build-system: setuptools).
python3 -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"], sep="\n")' \
    > systemd/build-requirements.in
"${COMPILE[@]}" --output-file systemd/requirements-build.lock systemd/build-requirements.in
rm systemd/build-requirements.in

# Move the source-only packages (a line "name==version \" and its --hash lines) to their own lock.
python3 - "${SOURCE_ONLY[@]}" <<'PY'
import re
import sys
from pathlib import Path

source_only = set(sys.argv[1:])
taken: dict[str, str] = {}
for name in ("requirements-ui.lock", "requirements-headless.lock"):
    path = Path("systemd") / name
    kept = []
    for block in re.split(r"\n(?=[A-Za-z0-9])", path.read_text()):
        package = block.split("==")[0]
        if package in source_only:
            taken[package] = block.rstrip("\n")
        else:
            kept.append(block)
    path.write_text("\n".join(kept))
header = ("# The dependencies published only as source, with the hash of each sdist: install.sh\n"
          "# builds their wheels as an unprivileged user. Written by systemd/lock.sh.\n")
Path("systemd/requirements-source.lock").write_text(header + "\n".join(taken[p] for p in sorted(taken)) + "\n")
PY
