"""SummaryWriter: log scalars, images, histograms, text and the model's graph for TensorBoard.

The same methods as ``torch.utils.tensorboard.SummaryWriter`` (the subset lessons use), accepting
tensorlab tensors directly. Each ``add_*`` builds a ``Summary`` protocol buffer (with tensorboardX's
builders, the ones PyTorch's own writer mirrors) and appends it to an event file (event_file.py);
``tensorboard --logdir runs`` then shows it::

    with SummaryWriter("runs/lenet") as writer:
        for step, loss in enumerate(losses):
            writer.add_scalar("loss/train", loss, step)
        writer.add_image("digits", make_grid(images))
        writer.add_graph(model, images)
"""
import os

import numpy as np

from .event_file import EventFileWriter


def _tensorboardx():
    try:
        import tensorboardX
        import tensorboardX.summary
    except ImportError:
        raise ImportError("SummaryWriter builds TensorBoard events with tensorboardX, which is not "
                          "installed: pip install tensorboardX (or pip install tensorlab[vision]).") from None
    return tensorboardX


def to_numpy(value):
    """Tensors (even ones that require grad) -> NumPy arrays; everything else goes through ``np.asarray``."""
    from ...tensor import Tensor
    if isinstance(value, Tensor):
        return value.detach().cpu().numpy()
    return np.asarray(value)


def _scalar(value):
    array = to_numpy(value)
    if array.size != 1:
        raise ValueError(f"add_scalar expects a single number, got an array of shape {array.shape}")
    return float(array.reshape(()))


def _image_uint8(value):
    """Float images in [0, 1] -> uint8 ``clip(255 * v, 0, 255)`` (PyTorch's rule); uint8 stays as is."""
    array = to_numpy(value)
    if array.dtype == np.uint8:
        return array
    return np.clip(array.astype(np.float64) * 255.0, 0, 255).astype(np.uint8)


def _default_log_dir(comment):
    import socket
    from datetime import datetime
    return os.path.join("runs", datetime.now().strftime("%b%d_%H-%M-%S") + "_" + socket.gethostname() + comment)


class SummaryWriter:
    """Writes TensorBoard event files into ``log_dir`` (default ``runs/<date>_<host><comment>``).

    ``purge_step``: after a crash, restart logging at this step; TensorBoard hides the old events
    from this step on. ``max_queue`` / ``flush_secs``: how many events, or how many seconds, before
    the file is flushed to disk on its own.
    """

    def __init__(self, log_dir=None, comment="", purge_step=None, max_queue=10, flush_secs=120,
                 filename_suffix=""):
        _tensorboardx()
        self.log_dir = os.fspath(log_dir) if log_dir else _default_log_dir(comment)
        self.purge_step, self.max_queue, self.flush_secs = purge_step, max_queue, flush_secs
        self.filename_suffix = filename_suffix
        self.file_writer, self.all_writers, self._runs = None, {}, {}
        self._get_file_writer()

    def _get_file_writer(self):
        """The main event file, (re)opened on first use after ``close()``."""
        if self.file_writer is None:
            self.file_writer = self._open(self.log_dir)
            if self.purge_step is not None:
                from tensorboardX.proto.event_pb2 import Event, SessionLog
                self.file_writer.add_event(Event(file_version="brain.Event:2"), self.purge_step)
                self.file_writer.add_event(Event(session_log=SessionLog(status=SessionLog.START)), self.purge_step)
                self.purge_step = None
        return self.file_writer

    def _open(self, log_dir):
        writer = EventFileWriter(log_dir, self.max_queue, self.flush_secs, self.filename_suffix)
        self.all_writers[writer.path] = writer
        return writer

    def get_logdir(self):
        return self.log_dir

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
                   double_precision=False):
        """One point of the curve ``tag``: ``scalar_value`` at x = ``global_step``.

        Written as a classic ``simple_value`` (32-bit float) event whatever ``new_style`` says.
        """
        from tensorboardX.summary import scalar
        self._get_file_writer().add_summary(scalar(tag, _scalar(scalar_value)), global_step, walltime)

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None):
        """Several curves on one chart: key k goes to its own run, ``log_dir/<main_tag>_<k>``, as tag main_tag."""
        from tensorboardX.summary import scalar
        for key, value in tag_scalar_dict.items():
            run_dir = os.path.join(self.log_dir, main_tag.replace("/", "_") + "_" + key)
            if run_dir not in self._runs:
                self._runs[run_dir] = self._open(run_dir)
            self._runs[run_dir].add_summary(scalar(main_tag, _scalar(value)), global_step, walltime)

    def add_histogram(self, tag, values, global_step=None, bins="tensorflow", walltime=None, max_bins=None):
        """The distribution of ``values`` (e.g. a layer's weights or gradients) at ``global_step``.

        ``bins="tensorflow"`` uses TensorFlow's default buckets (exponentially spaced by 1.1 on
        both sides of 0); any value ``np.histogram`` accepts works too ("auto", a number...).
        """
        from tensorboardX.summary import histogram
        array = to_numpy(values).astype(np.float64).reshape(-1)
        if array.size == 0:
            raise ValueError("add_histogram: the input has no element.")
        if isinstance(bins, str) and bins == "tensorflow":
            bins = _tensorflow_bins()
        self._get_file_writer().add_summary(histogram(tag, array, bins, max_bins=max_bins), global_step, walltime)

    def add_image(self, tag, img_tensor, global_step=None, walltime=None, dataformats="CHW"):
        """One image: floats in [0, 1] or uint8 in [0, 255]; ``dataformats`` "CHW", "HWC" or "HW"."""
        from tensorboardX.summary import image
        _check_formats(dataformats, ("CHW", "HWC", "HW"))
        summary = image(tag, _image_uint8(img_tensor), dataformats=dataformats)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_images(self, tag, img_tensor, global_step=None, walltime=None, dataformats="NCHW"):
        """A batch of images, tiled into one grid image (``dataformats`` "NCHW" or "NHWC")."""
        from tensorboardX.summary import image
        _check_formats(dataformats, ("NCHW", "NHWC"))
        summary = image(tag, _image_uint8(img_tensor), dataformats=dataformats)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_figure(self, tag, figure, global_step=None, close=True, walltime=None):
        """A matplotlib figure (or a list of them), rendered to an image; needs matplotlib."""
        from tensorboardX.utils import figure_to_image
        pixels = figure_to_image(figure, close)
        if isinstance(figure, list):
            self.add_images(tag, pixels, global_step, walltime)
        else:
            self.add_image(tag, pixels, global_step, walltime)

    def add_text(self, tag, text_string, global_step=None, walltime=None):
        """Text (Markdown) shown in TensorBoard's Text tab under ``tag``."""
        from tensorboardX.summary import text
        self._get_file_writer().add_summary(text(tag, str(text_string)), global_step, walltime)

    def add_graph(self, model, input_to_model=None, verbose=False, use_strict_trace=True):
        """The autograd graph of ``model(input_to_model)``, shown in TensorBoard's Graphs tab.

        tensorlab does not trace with TorchScript: it runs the model once and walks ``grad_fn`` /
        ``next_functions`` (see graph.py). ``use_strict_trace`` is accepted for compatibility.
        """
        from tensorboardX.proto.event_pb2 import Event
        from .graph import graph_def
        if input_to_model is None:
            raise ValueError("add_graph needs input_to_model: tensorlab runs the model once to see its graph")
        inputs = tuple(input_to_model) if isinstance(input_to_model, (list, tuple)) else (input_to_model,)
        graph, _ = graph_def(model, inputs, verbose)
        self._get_file_writer().add_event(Event(graph_def=graph.SerializeToString()))

    def flush(self):
        """Write everything added so far to disk."""
        for writer in self.all_writers.values():
            writer.flush()

    def close(self):
        """Flush and close the event files; a later ``add_*`` opens new ones."""
        for writer in self.all_writers.values():
            writer.close()
        self.file_writer, self.all_writers, self._runs = None, {}, {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"SummaryWriter(log_dir={self.log_dir!r})"


def _tensorflow_bins():
    """TensorFlow's default histogram buckets: +-1e-12 growing by 10% up to 1e20, and 0."""
    edges, v = [], 1e-12
    while v < 1e20:
        edges.append(v)
        v *= 1.1
    return [-e for e in reversed(edges)] + [0.0] + edges


def _check_formats(dataformats, allowed):
    if dataformats not in allowed:
        raise ValueError(f"dataformats must be one of {', '.join(allowed)}, got {dataformats!r}")
