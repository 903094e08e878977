"""Zhang & Zhou (2014): the standard multi-label measures' definitions and identities."""
