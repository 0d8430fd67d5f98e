"""Execution engine: compiles a dataset graph into a tree of iterator nodes and runs it."""
