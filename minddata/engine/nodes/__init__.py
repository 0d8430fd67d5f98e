"""The engine's iterator nodes, one module per kind of physical node (registry.py maps the
plan's node kinds to them)."""
