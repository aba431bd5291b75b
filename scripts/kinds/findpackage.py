# SPDX-FileCopyrightText: Converge contributors
# SPDX-License-Identifier: MIT
"""Finds a Python package's folder in this Python or in another one on the machine.

generate.py reads botocore's models and crosscheck.py cfn-lint's schemas: files only, so a
package installed for another Python (pyenv's, where moto lives) serves as well as this one's.
The package is located without being imported (importing cfn-lint takes seconds).
"""

import os
import shutil
import subprocess
import sys

LOCATE = ('import importlib.util, sys; s = importlib.util.find_spec(sys.argv[1]); '
          'print(s.submodule_search_locations[0] if s and s.submodule_search_locations else "")')


def pythons():
    """This Python first, then pyenv's and the one on PATH, each once."""
    candidates = [sys.executable]
    try:
        candidates.append(subprocess.run(['pyenv', 'which', 'python3'], capture_output=True,
                                         text=True, timeout=20).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass
    candidates += [os.path.expanduser('~/.pyenv/shims/python3'), shutil.which('python3')]
    seen = set()
    for python in candidates:
        if python and os.path.exists(python) and os.path.realpath(python) not in seen:
            seen.add(os.path.realpath(python))
            yield python


def find_package(name):
    """The folder of package `name` in the first Python that has it, or None."""
    for python in pythons():
        try:
            found = subprocess.run([python, '-c', LOCATE, name], capture_output=True, text=True,
                                   timeout=60)
        except (OSError, subprocess.SubprocessError):
            continue
        folder = found.stdout.strip()
        if found.returncode == 0 and folder and os.path.isdir(folder):
            return folder
    return None
