"""The zip archive around a checkpoint: records written as ``torch.save`` writes them, read with every check.

A zip archive is a list of *records*, each a 30-byte local header (signature ``PK\\x03\\x04``, sizes,
CRC32, name length), its name and its bytes, then a *central directory* at the end -- a table of
contents naming each record, its CRC32, its size and where its header is. ``torch.save`` stores
records uncompressed, so a record's bytes are exactly a storage's bytes, and pads each local header
(with an extra field named ``FB``) so that every record's data starts at a multiple of 64 bytes: a
storage can then be used straight from a memory-mapped file (``load(f, mmap=True)``).

Reading trusts nothing: the central directory must parse, every name must sit under one
``<archive>/`` folder, exactly once; every record must be stored uncompressed, lie inside the file,
have the local header the directory promises, and match its CRC32 -- checked for *every* record,
including the storages (PyTorch skips that check for speed; a flipped bit in a weight then loads
silently). A failure is a ``CheckpointError``, raised before anything is allocated for the record.
See course/19_saving_and_loading.
"""
import os
import struct
import zipfile
import zlib

import numpy as np

from ._checkpoint_reader import CheckpointError

ALIGNMENT = 64                      # where record data starts: a multiple of this many bytes
_DATE = (1980, 1, 1, 0, 0, 0)       # the zip epoch: no timestamps, so equal saves give equal files
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_CHUNK = 1 << 24


# -- writing -----------------------------------------------------------------------------------------


def write_archive(f, name, records):
    """Write a zip archive of ``records``, ``(record name, bytes or array, write(file, data))`` triples,
    under the folder ``name``; each record's data starts at a multiple of ALIGNMENT bytes."""
    archive = zipfile.ZipFile(f, "w", compression=zipfile.ZIP_STORED, allowZip64=True)
    try:
        for record, data, write in records:
            info = zipfile.ZipInfo(f"{name}/{record}", date_time=_DATE)
            info.file_size = memoryview(data).nbytes
            zip64 = info.file_size * 1.05 > zipfile.ZIP64_LIMIT       # zipfile's own rule for it
            header = _LOCAL_HEADER.size + len(info.filename.encode("utf-8")) + (20 if zip64 else 0)
            info.extra = _padding(archive.start_dir + header)
            with archive.open(info, "w", force_zip64=zip64) as out:
                write(out, data)
            info.extra = b""                 # the padding belongs to the local header only
    except BaseException:
        archive.fp = None     # a failed save gets no central directory: no reader takes it for a whole archive
        raise
    archive.close()


def _padding(offset):
    """An extra field ``FB`` (PyTorch's name for it) that moves the data to the next aligned offset."""
    gap = -(offset + 4) % ALIGNMENT
    return b"FB" + struct.pack("<H", gap) + b"Z" * gap


def archive_name(f):
    """The folder of the records: the file's name without its extension, as torch.save names it
    (``models/net.pth`` -> ``net``), or ``archive`` for a file object."""
    if isinstance(f, (str, os.PathLike)):
        stem = os.path.splitext(os.path.basename(os.fspath(f)))[0]
        if stem and stem.isprintable() and "/" not in stem:
            return stem
    return "archive"


# -- reading -----------------------------------------------------------------------------------------


class ZipCheckpoint:
    """The records of one checkpoint archive, each read once and checked against its CRC32."""

    def __init__(self, file, mmap_path=None):
        self.file = file
        self.size = file.seek(0, os.SEEK_END)
        try:
            self.zip = zipfile.ZipFile(file)
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, struct.error,
                OverflowError, UnicodeDecodeError, NotImplementedError) as error:
            raise CheckpointError(f"failed reading zip archive: {error} (the checkpoint is truncated or "
                                  "corrupted)") from None
        self.prefix = infos[0].filename.split("/")[0] + "/" if infos else ""
        self.records = {}
        for info in infos:
            name = info.filename
            if not name.startswith(self.prefix) or name[len(self.prefix):] in self.records:
                raise CheckpointError(f"malformed checkpoint: the zip archive's record {name!r} is not one of a "
                                      "single archive folder, or appears twice")
            self.records[name[len(self.prefix):]] = info
        if "data.pkl" not in self.records:
            raise CheckpointError("not a PyTorch checkpoint: the zip archive has no data.pkl record")
        if "constants.pkl" in self.records:
            raise CheckpointError("this zip archive is a TorchScript program (it has constants.pkl), not a "
                                  "checkpoint of tensors: tensorlab cannot load it")
        self.unread = set(self.records)
        self.mmap = np.memmap(mmap_path, dtype=np.uint8, mode="c") if mmap_path else None

    def has(self, record):
        return record in self.records

    def read(self, record):
        """The bytes of a record, checked (a writable bytearray, or a copy-on-write view of the mapped file)."""
        info = self.records.get(record)
        if info is None:
            raise CheckpointError(f"malformed checkpoint: the archive has no record {self.prefix}{record}")
        start = self._data_offset(info)
        if self.mmap is not None:
            data = self.mmap[start:start + info.file_size]
        else:
            data = bytearray(info.file_size)
            view = memoryview(data)
            self.file.seek(start)
            for at in range(0, info.file_size, _CHUNK):
                chunk = self.file.read(min(_CHUNK, info.file_size - at))
                view[at:at + len(chunk)] = chunk
        if zlib.crc32(data) != info.CRC:
            raise CheckpointError(f"checksum mismatch in record '{info.filename}': the checkpoint is corrupted")
        self.unread.discard(record)
        return data

    def check_unread(self):
        """Check the CRC32 of the records the load did not need: every record is verified."""
        for record in sorted(self.unread):
            self.read(record)

    def _data_offset(self, info):
        """Where a record's bytes start, after checking what the central directory says about it."""
        where = f"record '{info.filename}'"
        if info.flag_bits & 0x1 or info.compress_type != zipfile.ZIP_STORED:
            raise CheckpointError(f"malformed checkpoint: {where} is encrypted or compressed (method "
                                  f"{info.compress_type}); torch.save stores records as they are")
        if (info.file_size != info.compress_size or info.header_offset < 0
                or info.header_offset + _LOCAL_HEADER.size > self.size):
            raise CheckpointError(f"malformed checkpoint: {where} has inconsistent sizes or lies outside the "
                                  "file (truncated?)")
        self.file.seek(info.header_offset)
        fields = _LOCAL_HEADER.unpack(self.file.read(_LOCAL_HEADER.size))
        name_length, extra_length = fields[-2:]
        name = self.file.read(name_length)
        expected = info.orig_filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437")
        if fields[0] != b"PK\x03\x04" or name != expected:
            raise CheckpointError(f"malformed checkpoint: the local header of {where} does not match the zip "
                                  "archive's central directory")
        start = info.header_offset + _LOCAL_HEADER.size + name_length + extra_length
        if start + info.file_size > self.size:
            raise CheckpointError(f"truncated checkpoint: {where} ends past the end of the file")
        return start
