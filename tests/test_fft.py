"""tensorlab.fft compared with torch.fft: values, dtypes, n/s/dim/norm, errors, and gradients."""
import numpy as np
import pytest

import tensorlab
from tensorlab.autograd import gradcheck

pytestmark = pytest.mark.torch


def values(t):
    return t.resolve_conj().detach().numpy() if hasattr(t, "resolve_conj") else t.detach().numpy()


def assert_same(ours, theirs, rtol=1e-4, atol=1e-5):
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype), (ours.dtype, theirs.dtype)
    np.testing.assert_allclose(values(ours), values(theirs), rtol=rtol, atol=atol)


def test_lazy_import():
    import subprocess
    import sys
    code = "import sys, tensorlab; assert 'tensorlab.fft' not in sys.modules; tensorlab.fft.fft; print('ok')"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "ok"


CALLS = ["fft(R)", "fft(C)", "fft(I)", "fft(B)", "fft(D)", "ifft(R)", "ifft(C, n=3)", "fft(C, n=9, dim=0)",
         "rfft(R)", "rfft(R, n=8)", "rfft(D, n=3, dim=0)", "irfft(C)", "irfft(C, n=5)", "irfft(C, n=9, dim=0)",
         "irfft(R)", "irfft(I)", "fft2(C)", "ifft2(R, s=(3, 7))", "rfft2(R)", "irfft2(C)", "irfft2(C, s=(4, 7))",
         "fftn(C)", "fftn(C, s=(3,))", "fftn(R, s=(4, 5))", "fftn(C, s=(4, -1))", "ifftn(C, dim=1)",
         "rfftn(R, s=(3,))", "rfftn(R, s=(3, 4))", "irfftn(C)", "irfftn(C, s=(3, 6))", "fftn(C3, dim=(0, 2))",
         "rfftn(R3, dim=(2, 0))", "irfftn(C3, dim=(1, 0))",
         "fftfreq(5)", "fftfreq(4, d=0.5)", "fftfreq(4, dtype=M.float64)", "fftfreq(0)", "rfftfreq(5)",
         "rfftfreq(6, d=0.1)", "fftshift(I)", "ifftshift(I)", "fftshift(R, dim=1)", "ifftshift(C, dim=(0, 1))",
         "fftshift(R3)"]


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_values_and_dtypes_like_torch(torch, rng, norm):
    data = {"R": rng.standard_normal((4, 5)), "C": rng.standard_normal((4, 5)) + 1j * rng.standard_normal((4, 5)),
            "R3": rng.standard_normal((2, 3, 4)), "C3": rng.standard_normal((2, 3, 4)) + 1j}
    for call in CALLS:
        if norm is not None and "freq" not in call and "shift" not in call:
            call = call[:-1] + f", norm='{norm}')"
        results = []
        for M in (tensorlab, torch):
            env = {"R": M.tensor(data["R"], dtype=M.float32), "D": M.tensor(data["R"]),
                   "C": M.tensor(data["C"], dtype=M.complex64), "I": M.arange(7), "B": M.tensor([True, False, True]),
                   "R3": M.tensor(data["R3"]), "C3": M.tensor(data["C3"]), "M": M}
            results.append(eval("M.fft." + call, {}, env))  # noqa: S307 - calls written above
        assert_same(*results), call


ERRORS = ["fft(R, n=0)", "fft(R, n=-1)", "fft(R, dim=2)", "fft(R, norm='foo')", "rfft(C)", "fft(H)",
          "fftn(R, s=(2,), dim=(0, 1))", "fftn(R, dim=(0, 0))", "fft2(V)", "fft(S)", "irfft(O)", "fftn(R, s=(2, 3, 4))",
          "irfftn(C, s=(2, 0))", "rfftn(C)", "rfft2(C)", "irfft(O, n=-1)"]


def test_errors_like_torch(torch):
    for call in ERRORS:
        errors = []
        for M in (tensorlab, torch):
            env = {"R": M.ones(2, 3), "C": M.ones(2, 3, dtype=M.complex64), "H": M.ones(4, dtype=M.float16),
                   "V": M.ones(3), "S": M.tensor(1.0), "O": M.ones(1, dtype=M.complex64)}
            with pytest.raises(Exception) as info:
                eval("M.fft." + call, {"M": M}, env)  # noqa: S307 - calls written above
            errors.append((type(info.value), str(info.value)))
        assert errors[0] == errors[1], call


LOSSES = {
    "fft_abs": lambda M, x, z: M.fft.fft(x).abs().sum(),
    "fft_complex": lambda M, x, z: (M.fft.fft(z, n=7, norm="ortho") * M.arange(7.0)).real.sum(),
    "ifft": lambda M, x, z: M.fft.ifft(z, n=3, dim=0, norm="forward").abs().sum() + M.fft.ifft(x).abs().sum(),
    "irfft_of_rfft": lambda M, x, z: (M.fft.irfft(M.fft.rfft(x), n=5) * M.arange(20.0).reshape(4, 5)).sum(),
    "rfft": lambda M, x, z: M.fft.rfft(x, n=8).abs().pow(2).sum() + M.fft.rfft(x, n=3, dim=0, norm="ortho").imag.sum(),
    "irfft": lambda M, x, z: (M.fft.irfft(z, n=9) ** 2).sum() + (M.fft.irfft(z, n=5, dim=0) * M.arange(25.0).reshape(5, 5)).sum(),
    "two_dims": lambda M, x, z: M.fft.fft2(z).abs().sum() + M.fft.ifft2(x, s=(3, 6)).real.sum()
    + M.fft.rfft2(x, norm="ortho").abs().sum() + (M.fft.irfft2(z, s=(4, 7)) * M.arange(28.0).reshape(4, 7)).sum(),
    "n_dims": lambda M, x, z: M.fft.fftn(z, s=(3,), norm="forward").abs().sum() + M.fft.ifftn(z).imag.sum()
    + M.fft.rfftn(x).abs().sum() + M.fft.irfftn(z).pow(2).sum(),
    "shifts": lambda M, x, z: (M.fft.fftshift(x) * M.arange(20.0).reshape(4, 5)).sum()
    + M.fft.ifftshift(z, dim=1).real[0].sum(),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_grads_match_torch(torch, rng, name):
    arrays = [rng.standard_normal((4, 5)), rng.standard_normal((4, 5)) + 1j * rng.standard_normal((4, 5))]
    grads = []
    for M in (tensorlab, torch):
        x, z = (M.tensor(a, requires_grad=True) for a in arrays)
        LOSSES[name](M, x, z).backward()
        grads.append([values(v.grad) for v in (x, z) if v.grad is not None])
    assert len(grads[0]) == len(grads[1])
    for ours, theirs in zip(*grads):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-8)


def test_grad_fn_names_like_torch(torch):
    names = []
    for M in (tensorlab, torch):
        x = M.arange(6.0, requires_grad=True)
        outs = [M.fft.fft(x), M.fft.rfft(x), M.fft.irfft(M.fft.rfft(x)), M.fft.fft(M.fft.fft(x)), M.fft.fftshift(x)]
        names.append([type(o.grad_fn).__name__ for o in outs])
    assert names[0] == names[1]


CHECKED = [lambda x: tensorlab.fft.fft(x), lambda x: tensorlab.fft.rfft(x, n=6, norm="ortho"),
           lambda x: tensorlab.fft.ifft(x, n=3, norm="forward"), lambda x: tensorlab.fft.irfft(tensorlab.fft.fft(x)),
           lambda x: tensorlab.fft.fftn(x.reshape(2, 2), s=(3, 3)), lambda x: tensorlab.fft.rfft2(x.reshape(2, 2)),
           lambda x: tensorlab.fft.irfftn(tensorlab.fft.fft(x).reshape(2, 2), s=(3, 3)),
           lambda x: tensorlab.fft.irfft(tensorlab.fft.fft(x), n=7, norm="ortho")]


TAKES_REAL_ONLY = (1, 5)  # rfft, rfft2


@pytest.mark.parametrize("fn, kind", [(fn, kind) for fn in range(len(CHECKED)) for kind in ("real", "complex")
                                      if kind == "real" or fn not in TAKES_REAL_ONLY])
def test_gradcheck(rng, fn, kind):
    array = rng.standard_normal(4) + (1j * rng.standard_normal(4) if kind == "complex" else 0)
    assert gradcheck(CHECKED[fn], (tensorlab.tensor(array, requires_grad=True),))


def test_fftfreq_requires_grad(torch):
    assert tensorlab.fft.fftfreq(3, requires_grad=True).requires_grad == \
        torch.fft.fftfreq(3, requires_grad=True).requires_grad
