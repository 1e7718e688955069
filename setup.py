"""The package list, which pyproject.toml cannot give: dipgen's packages as found, and two folders
of the repository's top level shipped inside the package (see [tool.setuptools.package-dir])."""

from setuptools import find_packages, setup

setup(packages=find_packages(include=["dipgen", "dipgen.*"]) + ["dipgen.svg_templates", "dipgen.site_src"])
