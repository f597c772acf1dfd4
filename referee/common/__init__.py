"""Small helpers any layer but the engine may use: the settings, the clock and deadlines, keys, safe
text, suggestions, private files, logging."""
