"""`python3 -m memplace ARGS`: runs the `memplace` program that was installed with this package.

Wherever the package is installed (`cmake --install`, the Debian package, `pip install`), the
program is in the bin/ folder of the same prefix: <prefix>/lib/pythonX.Y/{dist,site}-packages/
memplace is four levels under <prefix>/bin's parent. From a build tree (PYTHONPATH=
build/default/python) it is build/default/apps/memplace. The program replaces this process, so
its output, signals (Ctrl-C: a run checkpoints) and exit code are the program's own.
"""
import os
import shutil
import sys


def _program():
    here = os.path.dirname(os.path.abspath(__file__))
    beside = [
        os.path.join(here, os.pardir, os.pardir, os.pardir, os.pardir, "bin", "memplace"),
        os.path.join(here, os.pardir, os.pardir, "apps", "memplace"),
        os.path.join(sys.prefix, "bin", "memplace"),
    ]
    for path in beside:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.normpath(path)
    return shutil.which("memplace")


def main():
    program = _program()
    if program is None:
        sys.stderr.write(
            "memplace: the memplace program was not found next to this Python package "
            f"({os.path.dirname(os.path.abspath(__file__))}) nor on PATH; install both together "
            "(README, \"Install\")\n")
        return 2
    os.execv(program, [program, *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
