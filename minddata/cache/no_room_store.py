"""The store of a stage that cannot be opened because its file system is full: it serves and
keeps nothing, so the pipeline computes every row (as without a cache) instead of failing."""


class NoRoomStore:
    """The engine's store protocol (see stage_store.StageStore), with every lookup a miss."""

    def __init__(self, session_id):
        self.session_id = session_id

    def is_complete(self):
        return False

    def num_rows(self):
        return None

    def get(self, row_key):
        return None

    def get_many(self, row_keys):
        return [None] * len(row_keys)

    def read_keys(self, row_keys):
        return [None] * len(row_keys)

    def read_range(self, first, count, stack=False, empty=None):
        return [None] * count

    def put(self, row_key, row):
        """Dropped: there is no room to store it."""

    def mark_complete(self, num_rows, warn=True):
        return False

    def flush(self):
        """Nothing is buffered."""

    def close(self):
        """Nothing is held."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
