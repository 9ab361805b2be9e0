"""Event files: what TensorBoard reads, and how ``SummaryWriter`` writes them.

An event file (``events.out.tfevents.<time>.<host>.<pid>.<n>``) is a sequence of *records* in
TFRecord framing::

    uint64  length             (little-endian)
    uint32  masked CRC32C of the 8 length bytes
    bytes   data[length]       one serialized ``Event`` protocol buffer
    uint32  masked CRC32C of data

The first Event only names the file format (``file_version: "brain.Event:2"``); after that each
Event carries a ``wall_time``, a ``step`` and one payload: a ``summary`` (scalars, images,
histograms, text...) or a ``graph_def``. TensorBoard re-reads the files as they grow.

Writing here is synchronous: each event is appended to a buffered file, which is flushed every
``max_queue`` events, every ``flush_secs`` seconds, and on ``flush()`` / ``close()``.
"""
import glob
import itertools
import os
import socket
import struct
import time

_file_numbers = itertools.count()


def masked_crc32c(data):
    """TFRecord's checksum: the CRC32C rotated right by 15 bits plus a constant (so CRCs of CRCs differ)."""
    from tensorboardX.crc32c import crc32c
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def frame_record(data):
    """``data`` wrapped in TFRecord framing: length, its checksum, the data, its checksum."""
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data))


def read_records(path):
    """The data of each record of an event file, after checking both checksums."""
    with open(path, "rb") as f:
        blob = f.read()
    position = 0
    while position < len(blob):
        header = blob[position:position + 8]
        (length,) = struct.unpack("<Q", header) if len(header) == 8 else (None,)
        end = position + 16 + (length or 0)
        if length is None or end > len(blob):
            raise ValueError(f"{path}: truncated record at byte {position}")
        (header_crc,) = struct.unpack("<I", blob[position + 8:position + 12])
        data = blob[position + 12:end - 4]
        (data_crc,) = struct.unpack("<I", blob[end - 4:end])
        if header_crc != masked_crc32c(header) or data_crc != masked_crc32c(data):
            raise ValueError(f"{path}: checksum mismatch in the record at byte {position}")
        yield data
        position = end


def read_events(path):
    """Each record of one event file, parsed as an ``Event`` protocol buffer (tensorboardX's protos)."""
    from tensorboardX.proto.event_pb2 import Event
    for data in read_records(path):
        yield Event.FromString(data)


def event_files(log_dir):
    """Every event file under ``log_dir`` (``add_scalars`` writes into sub-folders), sorted by path."""
    pattern = os.path.join(os.fspath(log_dir), "**", "events.out.tfevents.*")
    return sorted(glob.glob(pattern, recursive=True))


class EventFileWriter:
    """Appends ``Event`` records to a new event file in ``log_dir``."""

    def __init__(self, log_dir, max_queue=10, flush_secs=120, filename_suffix=""):
        from tensorboardX.proto.event_pb2 import Event
        os.makedirs(log_dir, exist_ok=True)
        name = (f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}.{os.getpid()}."
                f"{next(_file_numbers)}{filename_suffix}")
        self.path = os.path.join(log_dir, name)
        self.max_queue, self.flush_secs = max_queue, flush_secs
        self._file = open(self.path, "wb")
        self._pending, self._last_flush = 0, time.time()
        self.add_event(Event(file_version="brain.Event:2"))
        self.flush()

    def add_event(self, event, step=None, walltime=None):
        """Stamp ``event`` with the wall time (now, unless given) and ``step``, then append it."""
        event.wall_time = time.time() if walltime is None else walltime
        if step is not None:
            event.step = int(step)
        self._file.write(frame_record(event.SerializeToString()))
        self._pending += 1
        if self._pending >= self.max_queue or time.time() - self._last_flush >= self.flush_secs:
            self.flush()

    def add_summary(self, summary, global_step=None, walltime=None):
        from tensorboardX.proto.event_pb2 import Event
        self.add_event(Event(summary=summary), global_step, walltime)

    def flush(self):
        self._file.flush()
        self._pending, self._last_flush = 0, time.time()

    def close(self):
        if not self._file.closed:
            self.flush()
            self._file.close()
