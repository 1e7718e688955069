"""Build the standard board's base map (svg_templates/standard/) from mapsrc/standard/.

Run from the repository root:  python -m tools.mapbuild
"""
