"""Property tests: convolution and pooling over random geometries (kernel, stride, padding, dilation,
groups, ceil_mode, input size) agree with PyTorch in value and in every gradient."""
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tensorlab
import tensorlab.nn.functional as F

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _compare(torch, ours_fn, theirs_fn, arrays, rtol=1e-4, atol=1e-5):
    ours_in = [tensorlab.tensor(a, requires_grad=True) for a in arrays]
    theirs_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    out_a, out_b = ours_fn(*ours_in), theirs_fn(*theirs_in)
    assert tuple(out_a.shape) == tuple(out_b.shape)
    np.testing.assert_allclose(out_a.detach().numpy(), out_b.detach().numpy(), rtol=rtol, atol=atol)
    upstream = np.random.default_rng(0).standard_normal(tuple(out_b.shape))
    out_a.backward(tensorlab.tensor(upstream))
    out_b.backward(torch.tensor(upstream))
    for a, b in zip(ours_in, theirs_in):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=rtol, atol=atol)


@st.composite
def conv_configs(draw):
    groups = draw(st.sampled_from([1, 2]))
    return dict(
        batch=draw(st.integers(1, 2)), in_ch=groups * draw(st.integers(1, 2)), out_ch=groups * draw(st.integers(1, 3)),
        groups=groups, kernel=(draw(st.integers(1, 3)), draw(st.integers(1, 3))),
        stride=(draw(st.integers(1, 3)), draw(st.integers(1, 2))), padding=(draw(st.integers(0, 2)),
                                                                             draw(st.integers(0, 1))),
        dilation=(draw(st.integers(1, 2)), draw(st.integers(1, 2))), size=(draw(st.integers(3, 8)),
                                                                           draw(st.integers(3, 8))),
        bias=draw(st.booleans()), seed=draw(st.integers(0, 1000)))


@SETTINGS
@given(conv_configs())
def test_conv2d_random_geometry(torch, c):
    span = [d * (k - 1) + 1 for d, k in zip(c["dilation"], c["kernel"])]
    assume(all(s + 2 * p >= e for s, p, e in zip(c["size"], c["padding"], span)))
    rng = np.random.default_rng(c["seed"])
    x = rng.standard_normal((c["batch"], c["in_ch"]) + c["size"])
    w = rng.standard_normal((c["out_ch"], c["in_ch"] // c["groups"]) + c["kernel"])
    arrays = [x, w] + ([rng.standard_normal(c["out_ch"])] if c["bias"] else [])
    kwargs = dict(stride=c["stride"], padding=c["padding"], dilation=c["dilation"], groups=c["groups"])
    _compare(torch, lambda *t: F.conv2d(*t, **kwargs), lambda *t: torch.nn.functional.conv2d(*t, **kwargs), arrays)


@SETTINGS
@given(conv_configs())
def test_conv_transpose2d_random_geometry(torch, c):
    output_padding = tuple(min(op, max(s, d) - 1) for op, s, d in zip((1, 1), c["stride"], c["dilation"]))
    out = [(s - 1) * st_ - 2 * p + d * (k - 1) + op + 1 for s, st_, p, d, k, op in
           zip(c["size"], c["stride"], c["padding"], c["dilation"], c["kernel"], output_padding)]
    assume(all(o > 0 for o in out))
    rng = np.random.default_rng(c["seed"])
    x = rng.standard_normal((c["batch"], c["in_ch"]) + c["size"])
    w = rng.standard_normal((c["in_ch"], c["out_ch"] // c["groups"]) + c["kernel"])
    arrays = [x, w] + ([rng.standard_normal(c["out_ch"])] if c["bias"] else [])
    kwargs = dict(stride=c["stride"], padding=c["padding"], dilation=c["dilation"], groups=c["groups"],
                  output_padding=output_padding)
    _compare(torch, lambda *t: F.conv_transpose2d(*t, **kwargs),
             lambda *t: torch.nn.functional.conv_transpose2d(*t, **kwargs), arrays)


@st.composite
def pool_configs(draw):
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    return dict(kernel=kernel, stride=(draw(st.integers(1, 3)), draw(st.integers(1, 3))),
                padding=tuple(draw(st.integers(0, k // 2)) for k in kernel), ceil_mode=draw(st.booleans()),
                size=(draw(st.integers(3, 9)), draw(st.integers(3, 9))), seed=draw(st.integers(0, 1000)),
                count_include_pad=draw(st.booleans()))


@SETTINGS
@given(pool_configs(), st.integers(1, 2))
def test_max_pool2d_random_geometry(torch, c, dilation):
    padding = tuple(min(p, (dilation * (k - 1) + 1) // 2) for p, k in zip(c["padding"], c["kernel"]))
    x = np.random.default_rng(c["seed"]).standard_normal((2, 2) + c["size"])
    kwargs = dict(kernel_size=c["kernel"], stride=c["stride"], padding=padding, dilation=dilation,
                  ceil_mode=c["ceil_mode"])
    span = [dilation * (k - 1) + 1 for k in c["kernel"]]
    assume(all(s + 2 * p >= e for s, p, e in zip(c["size"], padding, span)))
    _compare(torch, lambda t: F.max_pool2d(t, **kwargs), lambda t: torch.nn.functional.max_pool2d(t, **kwargs), [x])


@SETTINGS
@given(pool_configs())
def test_avg_pool2d_random_geometry(torch, c):
    x = np.random.default_rng(c["seed"]).standard_normal((2, 2) + c["size"])
    kwargs = dict(kernel_size=c["kernel"], stride=c["stride"], padding=c["padding"], ceil_mode=c["ceil_mode"],
                  count_include_pad=c["count_include_pad"])
    assume(all(s + 2 * p >= k for s, p, k in zip(c["size"], c["padding"], c["kernel"])))
    _compare(torch, lambda t: F.avg_pool2d(t, **kwargs), lambda t: torch.nn.functional.avg_pool2d(t, **kwargs), [x])


@SETTINGS
@given(st.integers(1, 9), st.integers(1, 9), st.integers(1, 6), st.integers(1, 6), st.integers(0, 1000))
def test_adaptive_avg_pool2d_random_sizes(torch, h, w, oh, ow, seed):
    x = np.random.default_rng(seed).standard_normal((1, 2, h, w))
    _compare(torch, lambda t: F.adaptive_avg_pool2d(t, (oh, ow)),
             lambda t: torch.nn.functional.adaptive_avg_pool2d(t, (oh, ow)), [x])


@SETTINGS
@given(st.integers(2, 6), st.integers(2, 6), st.floats(0.4, 3.0), st.booleans(),
       st.sampled_from(["nearest", "bilinear"]), st.integers(0, 1000))
def test_interpolate_random_scales(torch, h, w, scale, align, mode, seed):
    x = np.random.default_rng(seed).standard_normal((1, 2, h, w))
    kwargs = dict(scale_factor=scale, mode=mode)
    if mode == "bilinear":
        kwargs["align_corners"] = align
    assume(int(h * scale) > 0 and int(w * scale) > 0)
    _compare(torch, lambda t: F.interpolate(t, **kwargs), lambda t: torch.nn.functional.interpolate(t, **kwargs),
             [x])


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular", "constant"])
def test_pad_modes_every_amount(torch, mode):
    x = np.random.default_rng(0).standard_normal((1, 2, 4, 5))
    for pads in [(0, 1, 2, 0), (3, 1, 1, 3), (1, 0, 0, 2)]:
        _compare(torch, lambda t: F.pad(t, pads, mode=mode), lambda t: torch.nn.functional.pad(t, pads, mode=mode),
                 [x])
