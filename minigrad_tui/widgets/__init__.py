"""The debugger's widgets, one per file."""
