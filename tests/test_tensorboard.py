"""utils.tensorboard.SummaryWriter: real event files, read back record by record (CRC-checked) and
parsed with tensorboardX's Event protos -- scalars, images, histograms, text, the graph."""
import io
import os
import struct

import numpy as np
import pytest

import tensorlab

pytest.importorskip("tensorboardX", reason="tensorboardX is not installed")
from tensorlab.utils.tensorboard import SummaryWriter, event_files, read_events, read_records  # noqa: E402


def _summaries(log_dir):
    """``[(file relative to log_dir, step, Summary.Value)]`` for every summary value written."""
    found = []
    for path in event_files(log_dir):
        for event in read_events(path):
            if event.HasField("summary"):
                found += [(os.path.relpath(path, log_dir), event.step, v) for v in event.summary.value]
    return found


def _by_tag(log_dir, tag):
    return [(step, v) for _, step, v in _summaries(log_dir) if v.tag == tag]


def test_scalars_tags_steps_values(tmp_path):
    with SummaryWriter(tmp_path) as writer:
        for step in range(3):
            writer.add_scalar("loss/train", tensorlab.tensor(1.0 / (step + 1)), step)
        writer.add_scalar("lr", 0.1, 10)
        writer.add_scalar("acc", np.float64(0.75), 2)
        writer.add_scalar("w", tensorlab.tensor([2.5], requires_grad=True), 0)   # tensors that need grad too
    loss = _by_tag(tmp_path, "loss/train")
    assert [s for s, _ in loss] == [0, 1, 2]
    np.testing.assert_allclose([v.simple_value for _, v in loss], [1.0, 0.5, 1 / 3], rtol=1e-6)
    assert [(s, v.simple_value) for s, v in _by_tag(tmp_path, "lr")] == [(10, pytest.approx(0.1))]
    assert _by_tag(tmp_path, "acc")[0][1].simple_value == 0.75
    assert _by_tag(tmp_path, "w")[0][1].simple_value == 2.5
    first = next(read_events(event_files(tmp_path)[0]))
    assert first.file_version == "brain.Event:2"


def test_add_scalar_rejects_arrays(tmp_path):
    with SummaryWriter(tmp_path) as writer, pytest.raises(ValueError, match="single number"):
        writer.add_scalar("x", tensorlab.zeros(3), 0)


def test_add_scalars_writes_one_run_per_key_named_like_pytorch(tmp_path):
    with SummaryWriter(tmp_path) as writer:
        writer.add_scalars("loss/epoch", {"train": tensorlab.tensor(0.5), "test": 0.75}, 4)
        writer.add_scalars("loss/epoch", {"train": 0.25, "test": 0.5}, 5)
    runs = sorted((os.path.dirname(f), step, v.tag, v.simple_value) for f, step, v in _summaries(tmp_path))
    assert runs == [("loss_epoch_test", 4, "loss/epoch", 0.75), ("loss_epoch_test", 5, "loss/epoch", 0.5),
                    ("loss_epoch_train", 4, "loss/epoch", 0.5), ("loss_epoch_train", 5, "loss/epoch", 0.25)]
    assert len(event_files(tmp_path)) == 3                       # the main file and one per run


def _png_size(encoded):
    assert encoded[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", encoded[16:24])          # the IHDR chunk
    return width, height


@pytest.mark.parametrize("shape,dataformats,hw", [((3, 5, 7), "CHW", (5, 7)), ((5, 7, 3), "HWC", (5, 7)),
                                                  ((5, 7), "HW", (5, 7)), ((1, 6, 4), "CHW", (6, 4))])
def test_add_image_dataformats_give_png_of_the_right_size(tmp_path, shape, dataformats, hw):
    with SummaryWriter(tmp_path) as writer:
        writer.add_image("img", tensorlab.rand(*shape), 1, dataformats=dataformats)
    [(step, value)] = _by_tag(tmp_path, "img")
    assert step == 1 and (value.image.height, value.image.width) == hw
    assert _png_size(value.image.encoded_image_string) == (hw[1], hw[0])


def test_add_image_pixels_are_255_times_clipped_floats(tmp_path):
    Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed")
    values = np.array([[0.0, 0.5, 1.0, 2.0, -1.0]], np.float32)
    with SummaryWriter(tmp_path) as writer:
        writer.add_image("row", tensorlab.from_numpy(values), dataformats="HW")
        writer.add_image("bytes", tensorlab.tensor([[[7, 200]]], dtype=tensorlab.uint8))
    row = _by_tag(tmp_path, "row")[0][1].image.encoded_image_string
    pixels = np.array(Image.open(io.BytesIO(row)))
    assert pixels[..., 0].tolist() == [[0, 127, 255, 255, 0]]
    raw = np.array(Image.open(io.BytesIO(_by_tag(tmp_path, "bytes")[0][1].image.encoded_image_string)))
    assert raw[..., 0].tolist() == [[7, 200]]


def test_add_images_tiles_the_batch(tmp_path):
    with SummaryWriter(tmp_path) as writer:
        writer.add_images("batch", tensorlab.rand(4, 1, 6, 5), 3)
        with pytest.raises(ValueError, match="dataformats must be one of NCHW, NHWC"):
            writer.add_images("bad", tensorlab.rand(4, 1, 6, 5), dataformats="CHW")
    [(step, value)] = _by_tag(tmp_path, "batch")
    assert step == 3 and value.image.height == 6 and value.image.width == 4 * 5   # one row of 4 images


def test_add_histogram_counts_every_value(tmp_path, rng):
    data = rng.standard_normal(1000).astype(np.float32)
    with SummaryWriter(tmp_path) as writer:
        writer.add_histogram("weights", tensorlab.from_numpy(data), 7)
        writer.add_histogram("auto", tensorlab.from_numpy(data), 8, bins="auto")
        with pytest.raises(ValueError, match="no element"):
            writer.add_histogram("empty", tensorlab.zeros(0))
    [(step, value)] = _by_tag(tmp_path, "weights")
    histo = value.histo
    assert step == 7 and histo.num == 1000 and sum(histo.bucket) == 1000
    assert histo.min == pytest.approx(float(data.min())) and histo.max == pytest.approx(float(data.max()))
    assert histo.sum == pytest.approx(float(data.astype(np.float64).sum()), rel=1e-6)
    counts, edges = np.histogram(data.astype(np.float64), bins="auto")
    auto = _by_tag(tmp_path, "auto")[0][1].histo
    assert sum(auto.bucket) == 1000 and max(auto.bucket) == counts.max()


def test_add_text(tmp_path):
    with SummaryWriter(tmp_path) as writer:
        writer.add_text("notes", "learning rate **0.1**", 2)
    [(step, value)] = _by_tag(tmp_path, "notes/text_summary")
    assert step == 2 and value.metadata.plugin_data.plugin_name == "text"
    assert value.tensor.string_val == [b"learning rate **0.1**"]


def test_flush_writes_before_close_and_close_can_reopen(tmp_path):
    writer = SummaryWriter(tmp_path, flush_secs=10_000)
    writer.add_scalar("x", 1.0, 0)
    writer.flush()
    assert [s for s, _ in _by_tag(tmp_path, "x")] == [0]
    writer.close()
    writer.add_scalar("x", 2.0, 1)             # a new event file, as in PyTorch
    writer.close()
    assert sorted(s for s, _ in _by_tag(tmp_path, "x")) == [0, 1]
    assert writer.get_logdir() == str(tmp_path)


def test_purge_step_writes_a_session_start_at_that_step(tmp_path):
    from tensorboardX.proto.event_pb2 import SessionLog
    with SummaryWriter(tmp_path, purge_step=42) as writer:
        writer.add_scalar("x", 1.0, 42)
    events = list(read_events(event_files(tmp_path)[0]))
    starts = [e for e in events if e.HasField("session_log")]
    assert len(starts) == 1 and starts[0].step == 42 and starts[0].session_log.status == SessionLog.START


def test_every_writer_gets_its_own_file(tmp_path):
    for _ in range(3):                                          # same second, same folder
        with SummaryWriter(tmp_path) as writer:
            writer.add_scalar("x", 1.0, 0)
    assert len(event_files(tmp_path)) == 3 and len(_by_tag(tmp_path, "x")) == 3


def test_add_figure_renders_matplotlib(tmp_path):
    matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is not installed")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig = plt.figure(figsize=(2, 1), dpi=50)
    plt.plot([0, 1], [1, 0])
    with SummaryWriter(tmp_path) as writer:
        writer.add_figure("curve", fig, 0)
    [(_, value)] = _by_tag(tmp_path, "curve")
    assert (value.image.width, value.image.height) == (100, 50)
    assert not plt.fignum_exists(fig.number)                    # close=True closed it


def test_default_log_dir_is_runs_date_host_comment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with SummaryWriter(comment="_lr0.1") as writer:
        assert writer.log_dir.startswith("runs" + os.sep) and writer.log_dir.endswith("_lr0.1")
    assert os.path.isdir(tmp_path / writer.log_dir)


def test_records_are_checksummed(tmp_path):
    with SummaryWriter(tmp_path) as writer:
        writer.add_scalar("x", 1.0, 0)
    path = event_files(tmp_path)[0]
    assert len(list(read_records(path))) == 2
    blob = bytearray(open(path, "rb").read())
    blob[-6] ^= 0xFF                                             # flip a byte of the last record's data
    open(path, "wb").write(bytes(blob))
    with pytest.raises(ValueError, match="checksum mismatch"):
        list(read_records(path))


def _graph(log_dir):
    from tensorboardX.proto.graph_pb2 import GraphDef
    graphs = [GraphDef.FromString(e.graph_def) for p in event_files(log_dir) for e in read_events(p)
              if e.graph_def]
    assert len(graphs) == 1
    return {n.name: n for n in graphs[0].node}


def test_add_graph_of_a_function_walks_grad_fn(tmp_path):
    weight = tensorlab.randn(3, 4, requires_grad=True)

    def model(x):
        return x.mm(weight).exp().sum()

    with SummaryWriter(tmp_path) as writer:
        writer.add_graph(model, tensorlab.randn(2, 3))
    nodes = _graph(tmp_path)
    assert set(nodes) == {"input/input.0", "model/leaf", "model/MmBackward0", "model/ExpBackward0",
                          "model/SumBackward0", "output/output.0"}
    assert nodes["model/MmBackward0"].op == "MmBackward0"
    assert list(nodes["model/MmBackward0"].input) == ["input/input.0", "model/leaf"]
    assert list(nodes["output/output.0"].input) == ["model/SumBackward0"]
    assert nodes["input/input.0"].op == "IO Node" and nodes["model/leaf"].op == "AccumulateGrad"
    shape = nodes["model/MmBackward0"].attr["_output_shapes"].list.shape[0]
    assert [d.size for d in shape.dim] == [2, 4]


def test_add_graph_of_a_module_has_scopes_and_parameter_names(tmp_path):
    nn = tensorlab.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
            self.head = nn.Linear(8, 2)

        def forward(self, x):
            return self.head(self.features(x)) * 2

    net = Net()
    with SummaryWriter(tmp_path) as writer:
        writer.add_graph(net, tensorlab.randn(5, 4))
    nodes = _graph(tmp_path)
    for name in ["Net/Sequential[features]/Linear[0]/weight", "Net/Sequential[features]/Linear[0]/bias",
                 "Net/Linear[head]/weight", "Net/Linear[head]/bias", "input/input.0", "output/output.0"]:
        assert name in nodes
    ops = {n.op: name for name, n in nodes.items()}
    assert ops["ReluBackward0"].startswith("Net/Sequential[features]/ReLU[1]/")
    assert ops["MulBackward0"] == "Net/MulBackward0"                 # made by Net.forward itself
    first_linear = [n for name, n in nodes.items() if name.startswith("Net/Sequential[features]/Linear[0]/")
                    and n.op not in ("AccumulateGrad", "TBackward0")]
    assert first_linear and all(n.op in ("AddmmBackward0",) for n in first_linear)
    assert "input/input.0" in {i for n in first_linear for i in n.input} or any(
        "input/input.0" in nodes[i].input for n in first_linear for i in n.input if i in nodes)
    # hooks used to find scopes are gone afterwards
    assert not net._forward_hooks and not net.head._forward_pre_hooks


def test_add_graph_errors(tmp_path):
    with SummaryWriter(tmp_path) as writer:
        with pytest.raises(ValueError, match="needs input_to_model"):
            writer.add_graph(lambda x: x)
        with pytest.raises(RuntimeError, match="has no grad_fn"):
            writer.add_graph(lambda x: x.detach(), tensorlab.zeros(2))
        with pytest.raises(TypeError, match="inputs must be tensors"):
            writer.add_graph(lambda x: x, [3])


def test_missing_tensorboardx_explains_how_to_install(monkeypatch, tmp_path):
    import sys
    monkeypatch.setitem(sys.modules, "tensorboardX", None)
    with pytest.raises(ImportError, match="pip install tensorboardX"):
        SummaryWriter(tmp_path)
