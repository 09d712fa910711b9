"""Published serving results against the serving simulation (published.py)."""
