"""device_que(): MindSpore's TransferDataset, the end of a pipeline that feeds a device queue
(the logical node; nothing runs it here, see minddata/ops/transfer.py)."""
from __future__ import annotations

from typing import Any

from .checks import check_bool
from .node import LogicalNode


class Transfer(LogicalNode):
    kind = "Transfer"
    passes_rows = True

    def __init__(self, child: LogicalNode, send_epoch_end: Any = True,
                 create_data_info_queue: Any = False, queue_name: Any = "") -> None:
        super().__init__([child])
        self.send_epoch_end = check_bool("send_epoch_end", send_epoch_end)
        self.create_data_info_queue = check_bool("create_data_info_queue",
                                                 create_data_info_queue)
        if not isinstance(queue_name, str):
            raise TypeError(f"Argument queue_name with value {queue_name} is not of type "
                            f"[<class 'str'>], but got {type(queue_name)}.")
        self.queue_name = queue_name
