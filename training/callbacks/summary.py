"""SummaryCollector: scalars (loss, learning rate, eval metrics) written as TensorBoard event files
(`tensorboard --logdir <summary_dir>` reads them).

The file is TFRecord-framed `Event` protocol buffers, encoded here by hand (no TensorFlow):
record = uint64 length, masked CRC-32C of the length, payload, masked CRC-32C of the payload."""
import os
import socket
import struct
import time

from training.callbacks.callback import Callback
from training.callbacks.loss_monitor import loss_value
from training.ckpt_proto import encode_varint


def _crc32c_table():
    table = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc32c_table()


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _len_field(field, payload):
    return encode_varint((field << 3) | 2) + encode_varint(len(payload)) + payload


def encode_event(wall_time, step, file_version=None, scalars=None):
    """Bytes of one tensorflow.Event: wall_time (1, double), step (2, int64), then
    file_version (3) or summary (5) with Summary.Value{tag (1), simple_value (2, float)}."""
    out = b"\x09" + struct.pack("<d", wall_time) + b"\x10" + encode_varint(int(step))
    if file_version is not None:
        out += _len_field(3, file_version.encode())
    if scalars:
        values = b"".join(_len_field(1, _len_field(1, tag.encode()) + b"\x15" + struct.pack("<f", v))
                          for tag, v in scalars)
        out += _len_field(5, values)
    return out


def frame_record(payload):
    header = struct.pack("<Q", len(payload))
    return header + struct.pack("<I", masked_crc(header)) + payload + \
        struct.pack("<I", masked_crc(payload))


class SummaryWriter:
    def __init__(self, directory):
        os.makedirs(directory, exist_ok=True)
        name = f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}"
        self.path = os.path.join(directory, name)
        self._file = open(self.path, "ab")
        self._write(encode_event(time.time(), 0, file_version="brain.Event:2"))

    def _write(self, payload):
        self._file.write(frame_record(payload))

    def add_scalars(self, step, scalars):
        self._write(encode_event(time.time(), step, scalars=scalars))
        self._file.flush()

    def close(self):
        if not self._file.closed:
            self._file.close()


class SummaryCollector(Callback):
    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None,
                 max_file_size=None, export_options=None):
        super().__init__()
        if not isinstance(summary_dir, (str, os.PathLike)) or not str(summary_dir):
            raise ValueError(f"For 'SummaryCollector', 'summary_dir' must be a non-empty str, but "
                             f"got {summary_dir!r}")
        if not isinstance(collect_freq, int) or isinstance(collect_freq, bool) or collect_freq <= 0:
            raise ValueError(f"For 'SummaryCollector', 'collect_freq' must be a positive int, but "
                             f"got {collect_freq!r}")
        self.summary_dir = os.path.abspath(os.fspath(summary_dir))
        self.collect_freq = collect_freq
        self._writer = None

    def __exit__(self, *err):
        self.close()
        return False

    def close(self):
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def _ensure(self):
        if self._writer is None:
            self._writer = SummaryWriter(self.summary_dir)
        return self._writer

    def on_train_begin(self, run_context):
        self._ensure()

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        step = cb.cur_step_num
        if cb.dataset_sink_mode or step % self.collect_freq == 0 or step == 1:
            scalars = []
            loss = loss_value(cb.net_outputs)
            if loss is not None:
                scalars.append(("loss", loss))
            backend = cb.get("backend")
            if cb.get("optimizer") is not None and backend is not None:
                scalars.append(("learning_rate", backend.get_lr(cb.optimizer)))
            if scalars:
                self._ensure().add_scalars(step, scalars)

    def on_train_epoch_end(self, run_context):
        cb = run_context.original_args()
        results = cb.get("eval_results")
        if results:
            scalars = [(f"eval_{k}", float(v)) for k, v in results.items()
                       if getattr(v, "ndim", 0) == 0]
            self._ensure().add_scalars(cb.cur_step_num, scalars)

    def on_train_end(self, run_context):
        self.close()
