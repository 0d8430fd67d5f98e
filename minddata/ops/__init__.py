"""One module per dataset operation: the immutable graph node (a Dataset subclass) and its
iterator node side by side."""
