"""The package list, which pyproject.toml cannot give: every folder of dipgen/ that holds Python
(with an __init__.py or not: dipgen/engine/ has none), and two folders of the repository's top
level shipped inside the package (see [tool.setuptools.package-dir])."""

from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
CODE = sorted({".".join(p.parent.relative_to(HERE).parts) for p in (HERE / "dipgen").rglob("*.py")
               if "__pycache__" not in p.parts})

setup(packages=CODE + ["dipgen.svg_templates", "dipgen.site_src"])
