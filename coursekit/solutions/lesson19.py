"""Reference solutions of course/19_saving_and_loading.ipynb's exercises (checks: coursekit/lesson19.py)."""
import io
import pickletools
import zipfile

import tensorlab as torch

# Exercise 1: what a loaded checkpoint shares.
#   w = torch.arange(6.0)
#   torch.save({"w": w, "tail": w[3:], "copy": w.clone(), "again": w}, buffer)
#   loaded = torch.load(buffer)
#   loaded["w"][4] = 100.0
predictions = (
    True,    # loaded["again"] is loaded["w"]: one tensor object, saved once, loads as one object
    100.0,   # loaded["tail"][1].item(): a view of w's storage, saved with it -- and loaded as a view again
    4.0,     # loaded["copy"][4].item(): clone() made a storage of its own; the write does not reach it
    3,       # loaded["tail"].storage_offset(): still 3 elements into the storage it shares with loaded["w"]
)


# Exercise 2: a checkpoint that resumes training exactly.
def make_checkpoint(model, optimizer, step):
    return {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step,
            "rng": torch.get_rng_state()}     # the batches are drawn at random: the generator is state too


def restore(checkpoint, model, optimizer):
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    torch.set_rng_state(checkpoint["rng"])
    return checkpoint["step"]


# Exercise 3: the names a checkpoint's pickle imports -- read, never run.
def globals_in(data):
    archive = zipfile.ZipFile(io.BytesIO(data))
    pkl = archive.read(next(name for name in archive.namelist() if name.endswith("/data.pkl")))  # net/, archive/
    return {arg.replace(" ", ".") for opcode, arg, _ in pickletools.genops(pkl) if opcode.name == "GLOBAL"}
