"""tensorlab.utils.tensorboard: ``SummaryWriter``, and readers for the event files it writes.

Needs tensorboardX (``pip install tensorboardX``), imported only when a writer is created.
See course/20_watching_training.
"""
from .event_file import EventFileWriter, event_files, read_events, read_records
from .writer import SummaryWriter

__all__ = ["SummaryWriter", "EventFileWriter", "event_files", "read_events", "read_records"]
