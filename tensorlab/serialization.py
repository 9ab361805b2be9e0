r"""Checkpoints: ``tensorlab.save(obj, f)`` and ``tensorlab.load(f)``, in PyTorch's own file format.

A file that ``torch.save`` writes loads here, and a file written here loads in PyTorch
(``torch.load(f, weights_only=True)`` included): train in one, look inside with the other.
See course/19_saving_and_loading.

**The format** (PyTorch's since 1.6) is a zip archive (tensorlab/_zip_archive.py) of uncompressed
records in one folder, named after the file (``net.pth`` -> ``net/``, a file object -> ``archive/``)::

    net/data.pkl                 the object tree, pickled (protocol 2)
    net/.format_version          b"1"
    net/.storage_alignment       b"64": every record's data starts at a multiple of 64 bytes
    net/byteorder                b"little": the byte order of the storages
    net/data/0, net/data/1, ...  the raw bytes of each storage, one record per storage
    net/version                  b"3\n"
    net/.data/serialization_id   an id of the contents (here: two CRC32s, so equal saves give equal files)

In ``data.pkl`` a tensor is a call -- ``torch._utils._rebuild_tensor_v2(storage, storage_offset,
size, stride, requires_grad, OrderedDict())`` -- and a storage is a *persistent id*,
``('storage', torch.FloatStorage, '0', 'cpu', 6)``, naming record ``data/0`` (tensorlab/_pickle_format.py).
A storage is written once, whole, however many tensors view it: views saved together (``w`` and
``w.t()``, a slice and its base) load as views of one new storage, with their offsets and strides,
and the same tensor object reached twice loads as one object. A Parameter is
``torch._utils._rebuild_parameter(tensor, requires_grad, OrderedDict())``; a state_dict is an
``OrderedDict`` whose ``_metadata`` attribute is kept. tensorlab's classes are written under
PyTorch's names (tensorlab/_torch_names.py): a saved ``tensorlab.nn.Linear`` is a
``torch.nn.modules.linear.Linear`` in the file, and the other way round.

**Loading is safe by default**: ``weights_only=True`` (PyTorch's default since 2.6) unpickles with
tensorlab/_weights_only.py, which builds tensors, storages, containers and a short list of allowed
types, plus what ``add_safe_globals`` allows -- and refuses anything else (a whole pickled module,
``os.system``) with ``pickle.UnpicklingError`` ("Weights only load failed ..."), before it runs.
``weights_only=False`` unpickles fully, as PyTorch does -- which runs any code the file asks for:
only for files you trust. ``mmap=True`` maps the file instead of reading it (storages are
copy-on-write views of it); ``map_location`` moves storages (tensorlab/_storage_records.py).

**Checks**: every record's CRC32 is verified (PyTorch skips the storages'), every size against the
bytes really there, every tensor's size and stride against its storage; a damaged file is a
``CheckpointError`` (a ``RuntimeError``) that says what is wrong and allocates nothing for it.

**Atomic saves**: saving to a path writes a temporary file beside it and renames it over the target
(``os.replace``), so a crash mid-save leaves the previous checkpoint intact; a write-protected file
is refused, permission bits are kept, a symlink is written through (tensorlab/_safe_write.py).

**Older tensorlab files** (a JSON manifest after the magic ``b"\x89TENSORLAB\r\n\x1a\n"``) still
load: tensorlab/_checkpoint_reader.py.
"""
import os
import zlib

from ._checkpoint_reader import MAGIC as _OLD_MAGIC, CheckpointError, Reader as _OldFormatReader
from ._safe_write import write_file
from ._safe_globals import add_safe_globals, clear_safe_globals, get_safe_globals, safe_globals

__all__ = ["save", "load", "CheckpointError", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals", "get_unsafe_globals_in_checkpoint"]

_ZIP_MAGIC = b"PK\x03\x04"


# -- save ----------------------------------------------------------------------------------------


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Write ``obj`` (e.g. ``model.state_dict()``) to ``f``, a path (str / PathLike) or a binary file.

    Anything picklable can be saved, as in PyTorch -- a whole model too, although loading it back
    then needs ``weights_only=False``: save ``state_dict()`` s. ``pickle_module`` is accepted for
    PyTorch compatibility; the standard pickle is always used, so that PyTorch can read the file.
    """
    from ._pickle_format import dumps
    from ._zip_archive import archive_name, write_archive
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("tensorlab writes only PyTorch's zip format (the default since PyTorch 1.6), "
                                  "not the legacy one")
    data_pkl, storages = dumps(obj, pickle_protocol)        # raises (unpicklable object) before any file is touched
    records = _records(data_pkl, storages, byteorder=not _disable_byteorder_record)
    name = archive_name(f)
    if isinstance(f, (str, os.PathLike)):
        write_file(os.fspath(f), lambda file: write_archive(file, name, records))
    else:
        write_archive(f, name, records)


def _records(data_pkl, storages, byteorder=True):
    """The records of a checkpoint, in the order torch.save writes them: (name, data, write function)."""
    crcs = zlib.crc32(b"".join(zlib.crc32(array).to_bytes(4, "little") for _, array in storages))
    serialization_id = f"{zlib.crc32(data_pkl):020d}{crcs:020d}".encode()
    small = [("data.pkl", data_pkl), (".format_version", b"1"), (".storage_alignment", b"64")]
    small += [("byteorder", b"little")] if byteorder else []
    tail = [("version", b"3\n"), (".data/serialization_id", serialization_id)]
    return ([(name, data, _write_bytes) for name, data in small]
            + [(f"data/{key}", array, _write_storage) for key, array in storages]
            + [(name, data, _write_bytes) for name, data in tail])


def _write_bytes(f, data):
    f.write(data)


def _write_storage(f, array):
    _write_block(f, array)                 # looked up at each call, so that a replaced _write_block is used


def _write_block(f, array):
    """Write one storage's bytes (a hook: tests and lesson 19 replace it to simulate a failing disk)."""
    if array.nbytes:
        f.write(memoryview(array.reshape(-1)).cast("B"))


# -- load ----------------------------------------------------------------------------------------


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read a checkpoint -- written by ``torch.save`` or ``tensorlab.save`` -- from a path or a binary file.

    ``weights_only`` (default True, unless a ``pickle_module`` is given) allows only tensors, storages,
    containers and allow-listed types; ``False`` runs the file's pickle fully. ``map_location``: a
    device or string, a dict from saved location to new one, or ``fn(storage, location)``.
    ``mmap=True`` (a path only) maps the file's storages instead of reading them into memory.
    """
    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    path = os.fspath(f) if isinstance(f, (str, os.PathLike)) else None
    if mmap and path is None:
        raise ValueError("f must be a file path in order to use the mmap argument")
    if path is not None:
        with open(path, "rb") as file:
            return _load_file(file, path if mmap else None, map_location, weights_only, pickle_module,
                              pickle_load_args, trailing_check=True)
    if not f.seekable():
        import io
        f = io.BytesIO(f.read())
    return _load_file(f, None, map_location, weights_only, pickle_module, pickle_load_args)


def _load_file(file, mmap_path, map_location, weights_only, pickle_module, pickle_load_args, trailing_check=False):
    start = file.tell()
    head = file.read(len(_OLD_MAGIC))
    file.seek(start)
    if head.startswith(_ZIP_MAGIC):
        return _load_zip(file, mmap_path, map_location, weights_only, pickle_module, pickle_load_args)
    if head == _OLD_MAGIC:
        if mmap_path:
            raise RuntimeError("mmap can only be used with files saved with `torch.save(_use_new_zipfile_"
                               "serialization=True)`; this is a checkpoint of an older tensorlab")
        obj = _OldFormatReader(file, map_location).read()
        if trailing_check and file.read(1):
            raise CheckpointError("malformed checkpoint: unexpected bytes after the end of the tensor data")
        return obj
    raise CheckpointError(_not_a_checkpoint(head))


def _not_a_checkpoint(head):
    if not head:
        return "not a checkpoint: the file is empty"
    if head[:1] == b"\x80":
        return ("not a checkpoint tensorlab reads: this is a bare pickle -- PyTorch's legacy format "
                "(torch.save(..., _use_new_zipfile_serialization=False)), which tensorlab does not read")
    return ("not a checkpoint: the file starts neither like PyTorch's zip archive (b'PK\\x03\\x04') nor like "
            "an older tensorlab checkpoint")


def get_unsafe_globals_in_checkpoint(f):
    """The names in a checkpoint's pickle that ``weights_only=True`` would refuse (sorted), found by
    reading its instructions -- never by running them."""
    from contextlib import nullcontext
    from ._safe_globals import allowed_names
    from ._torch_names import tensorlab_name
    from ._weights_only import globals_in_pickle
    from ._zip_archive import ZipCheckpoint
    with open(os.fspath(f), "rb") if isinstance(f, (str, os.PathLike)) else nullcontext(f) as file:
        if file.read(4) != _ZIP_MAGIC:
            raise ValueError("Expected input to be a checkpoint returned by torch.save")
        file.seek(-4, os.SEEK_CUR)
        names = globals_in_pickle(bytes(ZipCheckpoint(file).read("data.pkl")))
    allowed = allowed_names()
    return sorted(name for name in names if not (name in allowed or tensorlab_name(name) in allowed))


def _load_zip(file, mmap_path, map_location, weights_only, pickle_module, pickle_load_args):
    import pickle
    from ._storage_records import StorageLoader
    from ._zip_archive import ZipCheckpoint
    archive = ZipCheckpoint(file, mmap_path)
    data_pkl = bytes(archive.read("data.pkl"))
    byteorder = bytes(archive.read("byteorder")).decode("ascii", "replace") if archive.has("byteorder") else "little"
    storages = StorageLoader(archive, map_location, byteorder)
    load_args = {"encoding": "utf-8", **pickle_load_args}
    if weights_only:
        from ._weights_only import WeightsOnlyUnpickler, weights_only_message
        try:
            obj = WeightsOnlyUnpickler(data_pkl, storages, load_args["encoding"]).load()
        except pickle.UnpicklingError as error:
            raise pickle.UnpicklingError(weights_only_message(str(error))) from None
    else:
        from ._pickle_format import full_unpickler
        obj = full_unpickler(data_pkl, storages, pickle_module, **load_args).load()
    archive.check_unread()
    return obj
