# The Python module's tests: the module is found on PYTHONPATH (build/<preset>/python) and
# the CLI at NAQALA_BIN, both set by CTest (tests/python/CMakeLists.txt).
import json
import os
import subprocess

import pytest

NAQALA_BIN = os.environ.get("NAQALA_BIN", "naqala")


def cli_state(variant, moves, position=None):
    """The CLI's `state --json` after `moves` (texts), for comparison with the module."""
    args = [NAQALA_BIN, "state", variant, "--json"]
    if position:
        args += ["--position", position]
    if moves:
        args += ["--moves", ";".join(moves)]
    run = subprocess.run(args, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def cli_error(args):
    run = subprocess.run([NAQALA_BIN] + args, capture_output=True, text=True, timeout=900)
    assert run.returncode != 0
    return run.stderr


@pytest.fixture
def cli():
    return cli_state
