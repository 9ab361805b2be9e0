"""Hostile checkpoints: truncated, bit-flipped, malformed archives and pickles crafted to import or call
something. weights_only=True refuses them with PyTorch's error type and phrase, runs nothing (each
payload would create a file if it ran -- and does, under weights_only=False, to prove it is real)
and allocates nothing absurd."""
import collections
import io
import os
import pickle
import struct
import sys
import tracemalloc
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import tensorlab
from tensorlab.serialization import CheckpointError

# -- writing pickles and archives by hand ---------------------------------------------------------------

PROTO, STOP, MARK, TUPLE, REDUCE, BUILD = b"\x80\x02", b".", b"(", b"t", b"R", b"b"
EMPTY_DICT, EMPTY_TUPLE, NEWOBJ, BINPERSID = b"}", b")", b"\x81", b"Q"


def GLOBAL(module, name):                                     # noqa: N802 - an opcode
    return b"c" + f"{module}\n{name}\n".encode()


def STR(text):                                                # noqa: N802
    data = text.encode()
    return b"X" + struct.pack("<I", len(data)) + data


def INT(n):                                                   # noqa: N802
    return b"J" + struct.pack("<i", n)


def call(func, *args):
    """The instructions of ``func(*args)``: push the function, a tuple of the arguments, REDUCE."""
    return func + MARK + b"".join(args) + TUPLE + REDUCE


def archive(pkl, records=None, prefix="archive"):
    """A well-formed zip archive (correct CRCs) holding ``data.pkl`` = ``pkl`` and other records."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr(f"{prefix}/data.pkl", pkl)
        for name, data in {"byteorder": b"little", **(records or {}), "version": b"3\n"}.items():
            zf.writestr(f"{prefix}/{name}", data)
    return out.getvalue()


def storage_pid(key="0", numel=4, storage_type=GLOBAL("torch", "FloatStorage")):
    return MARK + STR("storage") + storage_type + STR(key) + STR("cpu") + INT(numel) + TUPLE + BINPERSID


def rebuild(size, stride, offset=0, pid=None):
    return call(GLOBAL("torch._utils", "_rebuild_tensor_v2"), pid or storage_pid(), INT(offset),
                MARK + b"".join(INT(n) for n in size) + TUPLE, MARK + b"".join(INT(n) for n in stride) + TUPLE,
                b"\x89", call(GLOBAL("collections", "OrderedDict")))


def load(raw, **kwargs):
    return tensorlab.load(io.BytesIO(raw), **kwargs)


def _payloads(path):
    """Pickles that create ``path`` if anything in them runs."""
    p = str(path)
    return {
        "builtins.open": call(GLOBAL("builtins", "open"), STR(p), STR("w")),
        "io.open": call(GLOBAL("io", "open"), STR(p), STR("w")),
        "os.system": call(GLOBAL("os", "system"), STR(f"touch {p}")),
        "posix.system": call(GLOBAL("posix", "system"), STR(f"touch {p}")),
        "builtins.exec": call(GLOBAL("builtins", "exec"), STR(f"open({p!r}, 'w')")),
        "builtins.eval": call(GLOBAL("__builtin__", "eval"), STR(f"open({p!r}, 'w')")),
        "subprocess.Popen": call(GLOBAL("subprocess", "check_call"), MARK + STR("touch") + STR(p) + b"l"),
        "codecs.open": call(GLOBAL("codecs", "open"), STR(p), STR("w")),
        "hidden in a state_dict": EMPTY_DICT + STR("w") + call(GLOBAL("builtins", "open"), STR(p), STR("w")) + b"s",
    }


@pytest.mark.parametrize("name", list(_payloads("x")))
def test_payloads_are_refused_and_do_not_run(name, tmp_path, torch):
    path = tmp_path / "payload_ran"
    raw = archive(PROTO + _payloads(path)[name] + STOP)
    for lib in (tensorlab, torch):                   # PyTorch refuses them the same way
        with pytest.raises(pickle.UnpicklingError, match="Weights only load failed") as refused:
            lib.load(io.BytesIO(raw))
        assert "Unsupported global: GLOBAL" in str(refused.value) or "is blocked" in str(refused.value)
        assert not path.exists()
    if os.name == "nt" and name in ("subprocess.Popen", "posix.system", "os.system"):
        return
    load(raw, weights_only=False)                    # the payload is real: trusted, it runs
    assert path.exists()


def test_a_python_object_with_reduce_is_refused(tmp_path):
    path = tmp_path / "payload_ran"

    class Exploit:
        def __reduce__(self):
            return (open, (str(path), "w"))

    buf = io.BytesIO()
    tensorlab.save({"weight": tensorlab.ones(2), "extra": Exploit()}, buf)
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global: GLOBAL io.open was not an allowed global"):
        load(buf.getvalue())
    assert not path.exists()


def test_a_module_named_in_the_file_is_never_imported(tmp_path, monkeypatch):
    (tmp_path / "evil_module_for_test.py").write_text(f"open({str(tmp_path / 'imported')!r}, 'w')\nx = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for module in ("evil_module_for_test", "torch.nn.modules.evil_module_for_test"):
        with pytest.raises(pickle.UnpicklingError, match=f"GLOBAL {module}.x was not an allowed global"):
            load(archive(PROTO + GLOBAL(module, "x") + STOP))
    assert "evil_module_for_test" not in sys.modules and not (tmp_path / "imported").exists()


@pytest.mark.parametrize("pkl, phrase", [
    (b"i" + b"os\nsystem\n", "Unsupported operand 105 (INST)"),
    (MARK + GLOBAL("collections", "OrderedDict") + b"o", "Unsupported operand 111 (OBJ)"),
    (STR("os") + STR("system") + b"\x93", "Unsupported operand 147 (STACK_GLOBAL)"),
    (b"\x95" + bytes(8), "Unsupported operand 149 (FRAME)"),
    (b"\x82\x01", "Unsupported operand 130 (EXT1)"),
    (b"Pstorage\n", "Unsupported operand 80 (PERSID)"),
    (b"S'x'\n", "Unsupported operand 83 (STRING)"),
    (GLOBAL("torch", "Tensor") + EMPTY_TUPLE + REDUCE, "Trying to call reduce for unrecognized function"),
    (STR("print") + EMPTY_TUPLE + REDUCE, "Trying to call reduce for unrecognized function 'print'"),
    (GLOBAL("torch", "Tensor") + EMPTY_TUPLE + NEWOBJ, "Can only create new object for nn.Parameter or classes"),
    (STR("x") + EMPTY_TUPLE + NEWOBJ, "Can only create new object for nn.Parameter or classes"),
    (EMPTY_DICT + EMPTY_DICT + BUILD, "Can only build Tensor, Parameter, OrderedDict or types allowlisted"),
    (rebuild((4,), (1,)) + EMPTY_DICT + BUILD, "Can only build Tensor, Parameter, OrderedDict"),
    (EMPTY_TUPLE + INT(1) + b"a", "Can only append to lists, but got <class 'tuple'>"),
    (b"]" + INT(1) + INT(2) + b"s", "Can only SETITEM for dict, collections.OrderedDict, collections.Counter"),
    (MARK + STR("module") + STR("x") + TUPLE + BINPERSID, "Only persistent_load of storage is allowed"),
    (STR("storage") + BINPERSID, "persistent_load id must be tuple or int"),
    (GLOBAL("sys", "modules"), "Trying to load unsupported GLOBAL sys.modules whose module sys is blocked"),
    (GLOBAL("builtins", "getattr"), "Unsupported global: GLOBAL getattr was not an allowed global by default"),
    (GLOBAL("torch.serialization", "load"), "GLOBAL torch.serialization.load was not an allowed global"),
    (GLOBAL("numpy.core.multiarray", "_reconstruct"), "GLOBAL numpy.core.multiarray._reconstruct was not an allowed"),
])
def test_unsafe_instructions_are_refused_with_pytorchs_phrases(pkl, phrase):
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed") as refused:
        load(archive(PROTO + pkl + STOP, {"data/0": bytes(16)}))
    assert phrase in str(refused.value)


@pytest.mark.parametrize("pkl, phrase", [
    (call(GLOBAL("builtins", "bytearray"), INT(2 ** 30)), "calls bytearray with arguments it does not take"),
    (call(GLOBAL("_codecs", "encode"), STR("x"), STR("rot13")), "calls _latin1_encode with arguments"),
    (call(GLOBAL("torch", "device"), STR("cpu"), STR("cpu")), "arguments it does not take"),
    (call(GLOBAL("torch", "Size"), INT(3)), "arguments it does not take"),
    (call(GLOBAL("torch._utils", "_rebuild_tensor_v2"), STR("storage"), INT(0), EMPTY_TUPLE, EMPTY_TUPLE, b"\x89",
          EMPTY_DICT), "a tensor's storage must be a storage, not str"),
    (rebuild((5,), (1,)), "reads element 4 of a storage of 4 elements"),
    (rebuild((2, 2), (3, 1)), "reads element 4 of a storage of 4 elements"),
    (rebuild((2,), (1,), offset=3), "reads element 4"),
    (rebuild((2 ** 31 - 1,) * 3, (0, 0, 0)), "more elements than an int64 can count"),
    (rebuild((1,) * 65, (0,) * 65), "(at most 64)"),
    (rebuild((4,), (1,), offset=-1), "storage offset must be a non-negative int"),
    (rebuild((4,), (1,), pid=storage_pid(numel=2 ** 30)), "record data/0 holds 16 bytes, but its storage claims"),
    (rebuild((4,), (1,), pid=storage_pid(key="7")), "the archive has no record data/7"),
    (rebuild((4,), (1,), pid=storage_pid(storage_type=GLOBAL("torch", "Size"))), "is not a storage type"),
    (call(GLOBAL("torch._tensor", "_rebuild_from_type_v2"), GLOBAL("collections", "OrderedDict"),
          GLOBAL("torch", "Tensor"), EMPTY_TUPLE, EMPTY_DICT), "cannot rebuild a tensor with"),
    (b"X" + struct.pack("<I", 2 ** 31) + b"abc", "ends in the middle of an instruction (truncated)"),
    (b"c" + b"os", "ends in the middle of a GLOBAL instruction"),
    (b"h\x05", "cannot run instruction BINGET: KeyError"),
    (b"t", "cannot run instruction TUPLE: IndexError"),
    (b"", "cannot run instruction STOP: IndexError"),
    (b"K", "ends in the middle of an instruction"),
])
def test_broken_or_absurd_pickles_are_checkpoint_errors_that_allocate_nothing(pkl, phrase):
    raw = archive(PROTO + pkl + STOP, {"data/0": bytes(16)})
    load(archive(PROTO + rebuild((4,), (1,)) + STOP, {"data/0": bytes(16)}))      # imports done before measuring
    tracemalloc.start()
    try:
        with pytest.raises(CheckpointError, match="malformed checkpoint|truncated") as refused:
            load(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert phrase in str(refused.value)
    assert peak < 1 << 22


def test_a_loaded_tensor_cannot_be_given_internal_attributes():
    func = GLOBAL("torch._utils", "_rebuild_tensor_v2")
    args = rebuild((4,), (1,))[len(func):-len(REDUCE)]                  # MARK, the arguments, TUPLE
    for name in ("grad", "_storage", "__class__", "requires_grad"):
        pkl = call(GLOBAL("torch._tensor", "_rebuild_from_type_v2"), func, GLOBAL("torch", "Tensor"), args,
                   EMPTY_DICT + STR(name) + INT(1) + b"s")
        with pytest.raises(CheckpointError, match=f"cannot set attribute '{name}' on a loaded tensor"):
            load(archive(PROTO + pkl + STOP, {"data/0": bytes(16)}))
    pkl = call(GLOBAL("torch._tensor", "_rebuild_from_type_v2"), func, GLOBAL("torch", "Tensor"), args,
               EMPTY_DICT + STR("note") + STR("ok") + b"s")
    assert load(archive(PROTO + pkl + STOP, {"data/0": bytes(16)})).note == "ok"


# -- damaged archives --------------------------------------------------------------------------------------


def _checkpoint():
    sd = collections.OrderedDict([("fc.weight", tensorlab.arange(6.0).view(2, 3)), ("fc.bias", tensorlab.ones(2))])
    buf = io.BytesIO()
    tensorlab.save({"model": sd, "step": 3, "name": "run"}, buf)
    return buf.getvalue()


_RAW = _checkpoint()


def _same_as_saved(out):
    assert list(out) == ["model", "step", "name"] and out["step"] == 3 and out["name"] == "run"
    assert out["model"]["fc.weight"].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert out["model"]["fc.bias"].tolist() == [1.0, 1.0]


@pytest.mark.parametrize("content, phrase", [
    (b"", "the file is empty"), (b"hello world", "starts neither like PyTorch's zip archive"),
    (pickle.dumps({"a": 1}, protocol=2), "PyTorch's legacy format"),
    (b"PK\x03\x04" + bytes(100), "failed reading zip archive"),
    (archive(PROTO + b"N" + STOP, {"constants.pkl": b""}), "TorchScript"),
])
def test_not_a_checkpoint(content, phrase, tmp_path):
    path = tmp_path / "x.pth"
    path.write_bytes(content)
    with pytest.raises(CheckpointError, match=phrase):
        tensorlab.load(path)


def test_every_truncation_is_reported():
    for cut in range(len(_RAW)):
        with pytest.raises(CheckpointError, match="failed reading zip archive|truncated|not a checkpoint"):
            load(_RAW[:cut])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_single_byte_change_is_detected_or_harmless(data):
    """A zip archive has bytes no check covers (dates, version fields, padding); changing one of those
    changes nothing loaded. Any other change -- in a record, a name, a size, an offset -- is an error."""
    i = data.draw(st.integers(0, len(_RAW) - 1))
    changed = bytearray(_RAW)
    changed[i] ^= data.draw(st.integers(1, 255))
    try:
        out = load(bytes(changed))
    except (CheckpointError, pickle.UnpicklingError):
        return
    _same_as_saved(out)


def test_a_central_directory_that_starts_later_than_it_says_is_refused():
    """The end record says where the central directory starts; one more than the truth shifts every
    record's offset down by one, the first to -1 (before the file's first byte)."""
    eocd = _RAW.rfind(b"PK\x05\x06")
    changed = bytearray(_RAW)
    offset, = struct.unpack_from("<I", changed, eocd + 16)
    struct.pack_into("<I", changed, eocd + 16, offset + 1)
    with pytest.raises(CheckpointError, match="lies outside the file"):
        load(bytes(changed))


def _data_ranges(raw):
    """(record name, first data byte, size) of each record."""
    for info in zipfile.ZipFile(io.BytesIO(raw)).infolist():
        name_length, extra_length = struct.unpack("<HH", raw[info.header_offset + 26:info.header_offset + 30])
        yield info.filename, info.header_offset + 30 + name_length + extra_length, info.file_size


@pytest.mark.parametrize("mmap", [False, True])
def test_a_flipped_bit_in_any_record_is_a_checksum_mismatch(mmap, tmp_path):
    for name, start, size in _data_ranges(_RAW):
        for at in {start, start + size // 2, start + size - 1}:
            changed = bytearray(_RAW)
            changed[at] ^= 0x10
            path = tmp_path / "flipped.pth"
            path.write_bytes(changed)
            with pytest.raises(CheckpointError, match=f"checksum mismatch in record '{name}'"):
                tensorlab.load(path, mmap=mmap)


def test_pytorch_misses_a_flipped_weight_that_tensorlab_catches(torch):
    name, start, size = next(r for r in _data_ranges(_RAW) if r[0] == "archive/data/0")
    changed = bytearray(_RAW)
    changed[start + 4] ^= 0x40                                  # a mantissa byte of fc.weight[0, 1]
    assert torch.load(io.BytesIO(bytes(changed)))["model"]["fc.weight"][0, 1].item() != 1.0   # loads, wrong
    with pytest.raises(CheckpointError, match="checksum mismatch in record 'archive/data/0'"):
        load(bytes(changed))


def _zip(records, compression=zipfile.ZIP_STORED):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=compression) as zf:
        for name, data in records:
            zf.writestr(name, data)
    return out.getvalue()


def test_archives_that_break_the_rules():
    pkl = PROTO + rebuild((4,), (1,)) + STOP
    with pytest.warns(UserWarning, match="Duplicate name"):
        duplicate = _zip([("archive/data.pkl", pkl), ("archive/data/0", bytes(16)), ("archive/data/0", bytes(16))])
    cases = [(_zip([("archive/data.pkl", pkl), ("other/data/0", bytes(16))]), "is not one of a single archive folder"),
             (duplicate, "appears twice"),
             (_zip([("archive/data.pkl", pkl), ("archive/data/0", bytes(16))], zipfile.ZIP_DEFLATED),
              "is encrypted or compressed"),
             (_zip([("archive/version", b"3\n")]), "has no data.pkl record")]
    for raw, phrase in cases:
        with pytest.raises(CheckpointError, match=phrase):
            load(raw)


@pytest.mark.parametrize("numel, phrase", [(4, "record data/0 holds 2147483648 bytes, but its storage claims 4"),
                                           (2 ** 29, "ends past the end of the file")])
def test_a_record_claiming_more_bytes_than_the_file_holds_allocates_nothing(numel, phrase):
    raw = bytearray(archive(PROTO + rebuild((4,), (1,), pid=storage_pid(numel=numel)) + STOP, {"data/0": bytes(16)}))
    at = raw.index(b"PK\x01\x02")                           # the central directory's entries, in order
    while raw[at + 46:at + 46 + 14] != b"archive/data/0":
        at = raw.index(b"PK\x01\x02", at + 4)
    raw[at + 20:at + 28] = struct.pack("<II", 2 ** 31, 2 ** 31)  # its compressed and uncompressed sizes
    load(archive(PROTO + rebuild((4,), (1,)) + STOP, {"data/0": bytes(16)}))
    tracemalloc.start()
    try:
        with pytest.raises(CheckpointError, match=phrase):
            load(bytes(raw))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 22


def test_a_big_endian_checkpoint_is_read_with_its_byte_order():
    values = np.arange(4, dtype=">f4")
    raw = archive(PROTO + rebuild((4,), (1,)) + STOP, {"data/0": values.tobytes(), "byteorder": b"big"})
    assert load(raw).tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(CheckpointError, match="unknown byte order"):
        load(archive(PROTO + rebuild((4,), (1,)) + STOP, {"data/0": values.tobytes(), "byteorder": b"middle"}))
