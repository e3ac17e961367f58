"""Build hook: the wheel carries the repository's top-level lessons/ as minigrad/course/_lessons/.

Everything else about the distribution is in pyproject.toml. An editable install reads the
lessons from the checkout instead (minigrad.course.lessons.lessons_root).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LESSONS = Path(__file__).resolve().parent / "lessons"
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".minigrad-course.json*", ".ipynb_checkpoints")


class build_py_with_lessons(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False) or not LESSONS.is_dir():
            return
        target = Path(self.build_lib) / "minigrad" / "course" / "_lessons"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(LESSONS, target, ignore=SKIP)


setup(cmdclass={"build_py": build_py_with_lessons})
