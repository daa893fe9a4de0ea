"""Builds the extension module memplace._memplace and the `memplace` program with CMake, for
`pip install .` (pyproject.toml holds the package's metadata).

MEMPLACE_CMAKE_BUILD_DIR names the CMake build folder (default: build/pip, configured on first
use without tests or benchmarks); pointing it at an existing one (build/default) reuses what is
already built. The program goes to <prefix>/bin, where `python3 -m memplace` finds it.
"""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
BUILD_DIR = os.path.abspath(os.environ.get("MEMPLACE_CMAKE_BUILD_DIR", os.path.join(ROOT, "build", "pip")))
PROGRAM = os.path.join(BUILD_DIR, "apps", "memplace")


class CMakeBuild(build_ext):
    """Runs CMake (configure once, then build the two targets) and copies the module into place."""

    def build_extension(self, ext):
        if not os.path.exists(os.path.join(BUILD_DIR, "CMakeCache.txt")):
            subprocess.run(
                ["cmake", "-S", ROOT, "-B", BUILD_DIR, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                 "-DMEMPLACE_BUILD_TESTS=OFF", "-DMEMPLACE_BUILD_BENCH=OFF",
                 f"-DMEMPLACE_PYTHON={sys.executable}"],
                check=True)
        jobs = str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", BUILD_DIR, "-j", jobs, "--target", "memplace",
                        "memplace_python"], check=True)
        built = os.path.join(BUILD_DIR, "python", "memplace", os.path.basename(self.get_ext_filename(ext.name)))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built, target)


setup(
    ext_modules=[Extension("memplace._memplace", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # Built by build_ext before install_data copies it. The shipped suite tables go where
    # memplace.suite.table_config looks in an installed package (<prefix>/share/memplace/tables).
    data_files=[("bin", [os.path.relpath(PROGRAM, ROOT)]),
                ("share/memplace/tables",
                 sorted(os.path.relpath(path, ROOT) for path in
                        glob.glob(os.path.join(ROOT, "docs", "results", "suite-*.yaml"))))],
)
