"""Replacing a file safely: write a temporary file beside it, then rename it over the old one.

``tensorlab.save(obj, "ckpt.pth")`` must never leave a half-written checkpoint: if the process dies
mid-save, the previous file has to survive. The classic recipe is *write elsewhere, then rename*:
``os.replace`` swaps the directory entry in one step, so a reader sees the old file or the new one,
never a mix. Done naively, the recipe breaks things a user expects of a plain ``open(path, "wb")``;
this file keeps them:

- a write-protected target is refused ("Permission denied"), as a plain write would be -- a rename
  would otherwise quietly replace a file the user protected;
- the target's permission bits are kept (a private 0600 checkpoint stays 0600);
- a symlink is written *through*: the link stays, the file it points to gets the new data;
- in a directory where no new file can be created (read-only directory, writable file), the data is
  written in place instead -- a weaker guarantee: a crash mid-write there leaves a truncated file;
- the temporary files of a save that was killed (SIGKILL, power loss: no chance to clean up) are
  found and removed by the next save to the same path. Their names carry the writer's process id,
  so a save running *now* in another process keeps its temporary file.
See course/19_saving_and_loading.
"""
import errno
import os
import re
import secrets
import stat

_TMP_SUFFIX = ".tmp"


def write_file(path, write):
    """Replace the file at ``path`` with what ``write(f)`` writes into a binary file object ``f``."""
    target = os.path.realpath(path)              # a symlink is written through, not replaced
    directory = os.path.dirname(target)
    if not os.path.isdir(directory or "."):
        raise RuntimeError(f"Parent directory {os.path.dirname(os.fspath(path))} does not exist.")
    mode = _existing_mode(target)                # raises PermissionError if a plain write would
    remove_stale_temporaries(target)
    try:
        fd, tmp = _create_temporary(target, mode)
    except OSError as e:
        if mode is None or e.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        return _write_in_place(target, write)    # read-only directory, writable file
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _existing_mode(target):
    """The permission bits of the file being replaced (None if there is none yet), after checking
    that it may be written -- by opening it for writing, exactly the check ``open(path, "wb")`` makes
    (without truncating it)."""
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory", target)
    os.close(os.open(target, os.O_WRONLY))       # PermissionError: [Errno 13] Permission denied
    return stat.S_IMODE(info.st_mode)


def _create_temporary(target, mode):
    """Create ``.<name>.<pid>.<random>.tmp`` beside ``target``, with the target's permission bits."""
    directory, name = os.path.split(target)
    tmp = os.path.join(directory, f".{name}.{os.getpid()}.{secrets.token_hex(4)}{_TMP_SUFFIX}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    if mode is not None:
        try:
            os.chmod(tmp, mode)
        except BaseException:
            os.close(fd)
            os.unlink(tmp)
            raise
    return fd, tmp


def _write_in_place(target, write):
    """The fallback when no file can be created beside ``target``: truncate it and write into it."""
    with open(target, "wb") as f:
        write(f)
        f.flush()
        os.fsync(f.fileno())


def remove_stale_temporaries(target):
    """Delete the temporary files that killed saves to ``target`` left behind.

    A temporary file is stale when the process named in it no longer runs (or, for the names of
    older tensorlab versions, ``.<name>.<random>.tmp``, which carry no process id, always).
    """
    directory, name = os.path.split(target)
    pattern = re.compile(re.escape(f".{name}.") + r"(?:(\d+)\.)?[0-9a-f]{8}" + re.escape(_TMP_SUFFIX))
    try:
        entries = os.listdir(directory or ".")
    except OSError:
        return
    for entry in entries:
        match = pattern.fullmatch(entry)
        if match and not _process_is_running(match.group(1)):
            try:
                os.unlink(os.path.join(directory, entry))
            except OSError:
                pass                             # another save cleaned it up first, or we may not


def _process_is_running(pid):
    if pid is None:
        return False
    pid = int(pid)
    if pid == os.getpid():
        return True                              # another thread of this process, saving now
    if os.name == "nt":
        return True                              # no safe liveness probe there: keep the file
    try:
        os.kill(pid, 0)                          # signal 0: "does it exist?", sends nothing
    except ProcessLookupError:
        return False
    except OSError:
        return True                              # exists, owned by someone else
    return True
