"""mille: a faithful re-creation of the 4.4BSD Mille Bornes game."""

__version__ = "0.1.0"
