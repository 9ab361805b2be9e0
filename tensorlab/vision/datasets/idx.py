"""The IDX file format, in which MNIST and Fashion-MNIST are distributed.

An IDX file is a tiny header followed by the raw numbers, row-major, big-endian::

    bytes 0-1   0x00 0x00        (magic: always zero)
    byte  2     type code        0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64
    byte  3     ndim             number of dimensions
    then        ndim x uint32    the size of each dimension (big-endian)
    then        the data         prod(sizes) numbers of the given type (big-endian)

So ``train-images-idx3-ubyte`` starts ``00 00 08 03  00 00 ea 60  00 00 00 1c  00 00 00 1c``:
uint8, 3 dimensions, 60000 x 28 x 28. Files are often gzip-compressed (``.gz``); both are read here.
"""
import gzip
import os
import struct
import tempfile

import numpy as np

# type code -> big-endian NumPy dtype
IDX_TYPES = {0x08: np.dtype("u1"), 0x09: np.dtype("i1"), 0x0B: np.dtype(">i2"), 0x0C: np.dtype(">i4"),
             0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}
_GZIP_MAGIC = b"\x1f\x8b"


def read_idx(path):
    """Read an IDX file (plain or gzip-compressed) into a NumPy array of native byte order.

    Raises ``ValueError`` naming the file when the header is not IDX or the data is truncated.
    """
    raw = _read_bytes(path)
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0:
        raise ValueError(f"{path} is not an IDX file: it must start with two zero bytes, a type code and "
                         f"the number of dimensions (got {raw[:4].hex(' ') or 'an empty file'}).")
    code, ndim = raw[2], raw[3]
    if code not in IDX_TYPES:
        known = ", ".join(f"0x{c:02X}" for c in IDX_TYPES)
        raise ValueError(f"{path}: unknown IDX type code 0x{code:02X} (known: {known}).")
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise ValueError(f"{path}: truncated IDX header ({len(raw)} bytes, need {header} for {ndim} sizes).")
    shape = struct.unpack(f">{ndim}I", raw[4:header])
    dtype = IDX_TYPES[code]
    expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) - header != expected:
        raise ValueError(f"{path}: an IDX array of shape {tuple(shape)} and type {dtype.name} needs {expected} "
                         f"bytes of data, but the file has {len(raw) - header}.")
    array = np.frombuffer(raw, dtype=dtype, offset=header).reshape(shape)
    return array.astype(dtype.newbyteorder("="))          # a writable copy in the machine's byte order


def write_idx(path, array):
    """Write ``array`` (NumPy array or tensor) as an IDX file; gzip-compressed when ``path`` ends in ``.gz``.

    The file is written to a temporary name and renamed at the end, so a failure leaves no half file.
    """
    array = np.asarray(array)
    code = _type_code(array.dtype)
    if array.ndim > 255:
        raise ValueError(f"IDX stores at most 255 dimensions, got {array.ndim}")
    header = bytes([0, 0, code, array.ndim]) + struct.pack(f">{array.ndim}I", *array.shape)
    payload = header + np.ascontiguousarray(array, dtype=IDX_TYPES[code]).tobytes()
    if os.fspath(path).endswith(".gz"):
        payload = gzip.compress(payload, mtime=0)
    _write_atomically(path, payload)


def _type_code(dtype):
    for code, idx_dtype in IDX_TYPES.items():
        if np.dtype(dtype).newbyteorder("=") == idx_dtype.newbyteorder("="):
            return code
    raise TypeError(f"IDX cannot store dtype {np.dtype(dtype)}; it stores uint8, int8, int16, int32, "
                    "float32 and float64.")


def _read_bytes(path):
    with open(path, "rb") as f:
        raw = f.read()
    return gzip.decompress(raw) if raw[:2] == _GZIP_MAGIC else raw


def _write_atomically(path, payload):
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".idx-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
