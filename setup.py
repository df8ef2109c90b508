"""Builds onegrad._C with the project's CMake build (python/CMakeLists.txt) and packages
python/onegrad around it. Metadata is in pyproject.toml.

    /usr/bin/python3 -m pip install --no-build-isolation .

Environment: CMAKE_BUILD_PARALLEL_LEVEL (default 2), ONEGRAD_CMAKE_ARGS (extra -D flags),
ONEGRAD_BUILD_TYPE (default Release). ccache is used when CMake finds it.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])  # CMake owns the sources


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = Path(self.build_temp).resolve() / "cmake"
        build_dir.mkdir(parents=True, exist_ok=True)
        config = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir),
            f"-DCMAKE_BUILD_TYPE={os.environ.get('ONEGRAD_BUILD_TYPE', 'Release')}",
            # The interpreter running pip is the one that will import the module.
            f"-DPython_EXECUTABLE={sys.executable}",
            "-DONEGRAD_TESTS=OFF", "-DONEGRAD_BENCH=OFF", "-DONEGRAD_PYTHON=ON",
            *os.environ.get("ONEGRAD_CMAKE_ARGS", "").split(),
        ]
        if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
            config += ["-G", "Ninja"]  # only on the first configure: a build tree keeps its generator
        env = dict(os.environ)
        env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", "2")  # the machines this runs on are small
        subprocess.run(config, check=True, env=env)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "onegrad_python"], check=True, env=env)

        built = list((build_dir / "python" / "onegrad").glob("_C*.so"))
        if not built:
            sys.exit("onegrad._C was not built: CMake's output above says why (pybind11 or python3-dev missing?)")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


# build-pip/, not setuptools' default build/: that is the developer's CMake tree (docs/python.md).
# It persists between installs, so a reinstall rebuilds only what changed.
setup(ext_modules=[CMakeExtension("onegrad._C")], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": "build-pip"}})
