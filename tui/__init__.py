"""The minigrad terminal debugger (Textual)."""
