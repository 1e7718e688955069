"""dipgen: adjudicate play-by-email Diplomacy games and publish them as a static site."""

__version__ = "0.1.0"
