"""Saving a checkpoint replaces the old one atomically, and keeps what a plain write would keep:
write-protection, permission bits, symlinks; a killed save leaves nothing behind. (Moved unchanged
from tests/test_serialization.py when the format became PyTorch's: tensorlab/_safe_write.py did not change.)"""
import os
import stat
import subprocess
import sys

import pytest

import tensorlab
from tensorlab import serialization


def test_missing_parent_directory_raises_like_torch(torch, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RuntimeError) as expected:
        torch.save({"a": 1}, "no_such_dir/x.pth")
    with pytest.raises(RuntimeError, match=str(expected.value)):
        tensorlab.save({"a": 1}, "no_such_dir/x.pth")


@pytest.mark.parametrize("error", [OSError("disk full"), KeyboardInterrupt()])
def test_a_crash_mid_save_keeps_the_old_checkpoint(tmp_path, monkeypatch, error):
    path = tmp_path / "ckpt.pth"
    old = {"w": tensorlab.ones(1000), "epoch": 1}
    tensorlab.save(old, path)
    old_bytes = path.read_bytes()
    real_write_block = serialization._write_block
    calls = []

    def failing_write_block(f, array):
        calls.append(1)
        if len(calls) == 2:                      # the first tensor is already on disk: fail mid-file
            raise error
        real_write_block(f, array)

    monkeypatch.setattr(serialization, "_write_block", failing_write_block)
    with pytest.raises(type(error)):
        tensorlab.save({"w": tensorlab.zeros(1000), "b": tensorlab.zeros(1000), "epoch": 2}, path)
    assert calls == [1, 1]
    assert path.read_bytes() == old_bytes
    assert tensorlab.load(path)["epoch"] == 1
    assert os.listdir(tmp_path) == ["ckpt.pth"]
    monkeypatch.setattr(serialization, "_write_block", real_write_block)
    tensorlab.save({"epoch": 3}, path)
    assert tensorlab.load(path) == {"epoch": 3}


# -- saving over an existing file: what a plain write would keep -----------------------------------

_AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def test_permission_bits_of_the_replaced_file_are_kept(tmp_path):
    path = tmp_path / "private.pth"
    tensorlab.save({"epoch": 1}, path)
    os.chmod(path, 0o600)
    tensorlab.save({"epoch": 2}, path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    os.chmod(path, 0o640)
    tensorlab.save({"epoch": 3}, path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640 and tensorlab.load(path) == {"epoch": 3}


def test_a_symlink_is_written_through(tmp_path):
    real = tmp_path / "runs" / "best.pth"
    real.parent.mkdir()
    tensorlab.save({"epoch": 1}, real)
    link = tmp_path / "latest.pth"
    link.symlink_to(real)
    tensorlab.save({"epoch": 2}, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert tensorlab.load(real) == {"epoch": 2}
    assert sorted(os.listdir(tmp_path)) == ["latest.pth", "runs"] and os.listdir(real.parent) == ["best.pth"]


def _refuse_writes_to(monkeypatch, path):
    """Make ``path`` write-protected even for root (who ignores permission bits)."""
    real_open = os.open

    def guarded_open(name, flags, *args, **kwargs):
        if os.fspath(name) == os.fspath(path) and flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(13, "Permission denied", os.fspath(name))
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)


def test_a_write_protected_file_is_refused_like_a_plain_write(tmp_path, monkeypatch):
    path = tmp_path / "frozen.pth"
    tensorlab.save({"epoch": 1}, path)
    before = path.read_bytes()
    _refuse_writes_to(monkeypatch, path)
    with pytest.raises(PermissionError, match="Permission denied"):
        tensorlab.save({"epoch": 2}, path)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["frozen.pth"]


@pytest.mark.skipif(_AS_ROOT or os.name == "nt", reason="root ignores permission bits")
def test_a_read_only_file_is_refused(tmp_path):
    path = tmp_path / "frozen.pth"
    tensorlab.save({"epoch": 1}, path)
    os.chmod(path, 0o444)
    with pytest.raises(PermissionError, match="Permission denied"):
        tensorlab.save({"epoch": 2}, path)
    assert tensorlab.load(path) == {"epoch": 1}


def _directory_refuses_new_files(monkeypatch, directory):
    real_open = os.open

    def guarded_open(name, flags, *args, **kwargs):
        if os.path.dirname(os.fspath(name)) == os.fspath(directory) and flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied", os.fspath(name))
        return real_open(name, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)


def test_a_writable_file_in_a_read_only_directory_is_written_in_place(tmp_path, monkeypatch):
    path = tmp_path / "ckpt.pth"
    tensorlab.save({"epoch": 1}, path)
    inode = os.stat(path).st_ino
    _directory_refuses_new_files(monkeypatch, tmp_path)
    tensorlab.save({"epoch": 2, "w": tensorlab.ones(3)}, path)
    assert tensorlab.load(path)["epoch"] == 2 and os.stat(path).st_ino == inode
    with pytest.raises(PermissionError):                   # no file to write in place: nothing to fall back on
        tensorlab.save({"epoch": 1}, tmp_path / "new.pth")
    assert os.listdir(tmp_path) == ["ckpt.pth"]


@pytest.mark.skipif(_AS_ROOT or os.name == "nt", reason="root ignores permission bits")
def test_a_read_only_directory_for_real(tmp_path):
    path = tmp_path / "ckpt.pth"
    tensorlab.save({"epoch": 1}, path)
    os.chmod(tmp_path, 0o555)
    try:
        tensorlab.save({"epoch": 2}, path)
        assert tensorlab.load(path) == {"epoch": 2}
    finally:
        os.chmod(tmp_path, 0o755)


_KILLED_SAVE = """
import sys, time, tensorlab
from tensorlab import serialization
real = serialization._write_block
def stall(f, array):
    real(f, array)
    f.flush()
    print("writing", flush=True)
    time.sleep(60)
serialization._write_block = stall
tensorlab.save({"w": tensorlab.ones(1000)}, sys.argv[1])
"""


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL is POSIX")
def test_the_next_save_removes_the_temporary_file_of_a_killed_save(tmp_path):
    path = tmp_path / "ckpt.pth"
    tensorlab.save({"epoch": 1}, path)
    child = subprocess.Popen([sys.executable, "-c", _KILLED_SAVE, str(path)], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "writing\n"
    child.kill()
    child.wait()
    child.stdout.close()
    leftovers = [n for n in os.listdir(tmp_path) if n != "ckpt.pth"]
    assert len(leftovers) == 1 and str(child.pid) in leftovers[0]
    (tmp_path / ".ckpt.pth.0123abcd.tmp").write_bytes(b"left by an older tensorlab")
    (tmp_path / ".other.pth.0123abcd.tmp").write_bytes(b"not ours")
    live = tmp_path / f".ckpt.pth.{os.getppid()}.89abcdef.tmp"   # a save running now in a live process
    live.write_bytes(b"in progress")
    assert tensorlab.load(path) == {"epoch": 1}
    tensorlab.save({"epoch": 2}, path)
    assert sorted(os.listdir(tmp_path)) == sorted([".other.pth.0123abcd.tmp", live.name, "ckpt.pth"])


def test_a_save_that_fails_into_a_file_object_leaves_no_central_directory(monkeypatch):
    """A zip's table of contents is written last: a failed save must not write it, or the partial
    file would look like a complete archive (with its records cut short)."""
    import io
    import zipfile

    def failing(f, array):
        f.write(memoryview(array.reshape(-1)).cast("B")[:array.nbytes // 2])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(serialization, "_write_block", failing)
    buf = io.BytesIO()
    with pytest.raises(OSError, match="No space left"):
        tensorlab.save({"w": tensorlab.ones(100)}, buf)
    with pytest.raises(zipfile.BadZipFile):
        zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    with pytest.raises(serialization.CheckpointError, match="failed reading zip archive"):
        tensorlab.load(io.BytesIO(buf.getvalue()))
