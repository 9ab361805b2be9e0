"""Exercise checks of course/23_forward_mode_ad.ipynb (reference solutions: coursekit/solutions/lesson23.py).

Exercise 1's answer is an ``autograd.Function`` class with three static methods: forward and backward
are checked as lesson 09 checks them (:func:`coursekit.lesson09.function_on` re-creates the class for
each library), then its ``jvp`` runs under forward-mode AD and the output's tangent is compared with the
one the library's own ``softplus`` gets on a dual tensor.

    >>> _ = check_softplus(solution.Softplus)
    Correct! backward gives grad * sigmoid(x) (a row of J at a time), jvp gives sigmoid(x) *
             t (a column) -- the same derivative, used in the two directions.
    >>> _ = check_jacobian_columns(solution.jacobian_columns)
    Correct! One forward pass per input element, each giving a column J e_j -- what
             jacobian(..., strategy="forward-mode") and jacfwd do.
    >>> _ = check_mode_facts(solution.predictions)
    Correct! Forward mode pays per input, reverse mode per output.
"""
import importlib

from . import guard
from .check import (Case, Question, _sentence, always_a_verdict, check_function, check_predictions, correct,
                    is_stub, not_answered, raised, works_only_on_tensorlab, wrong)
from .compare import describe, differences, is_tensor, kind
from .language import language, tr
from .lesson09 import FunctionCase, _diagnose_error, _is_function_class, _match, _run_case, function_on
from .libs import libraries, on
from .solutions import lesson10 as lesson10_solution
from .solutions import lesson23 as solution


def _forward_ad(torch):
    return importlib.import_module(torch.__name__ + ".autograd.forward_ad")


# -- exercise 1: softplus with backward and jvp -------------------------------------------------------

def _softplus_inputs(torch):
    return (torch.tensor([-2.0, 0.0, 0.5, 3.0], dtype=torch.float64, requires_grad=True),)


def _softplus_tangent(torch):
    return torch.tensor([1.0, -1.0, 2.0, 0.5], dtype=torch.float64)


SOFTPLUS_CASES = [FunctionCase(tr("x = [-2, 0, 0.5, 3] and grad = [1, -1, 2, 0.5]"), _softplus_inputs,
                               _softplus_tangent, ["x"])]
JVP_LABEL = tr("x = [-2, 0, 0.5, 3] with the tangent t = [1, -1, 2, 0.5]")


def _diagnose_softplus_grad(name, got, inputs, g, torch):
    x = inputs[0].detach()
    s = torch.sigmoid(x)
    candidates = [
        (s, tr("Multiply by grad: backward receives d(loss)/dy and returns d(loss)/dx = grad * dy/dx.")),
        (g * x.exp(), tr("exp(x) is the derivative of exp; softplus is log(1 + exp(x)): the chain rule through "
                         "the log divides by 1 + exp(x).")),
        (g * torch.sigmoid(-x), tr("Mind the sign: softplus is increasing, and its slope tends to 1 for large x.")),
        (g * s * (1 - s), tr("That is the derivative of sigmoid -- one derivative too many.")),
    ]
    return _match(got, candidates) or tr("backward returns grad * dy/dx: work out d/dx log(1 + exp(x)).")


def _tangent_of(cls, x, t, torch):
    """The output tangent of ``cls.apply`` on the dual tensor (x, t), on ``torch``."""
    fw = _forward_ad(torch)
    with fw.dual_level():
        out = cls.apply(fw.make_dual(x, t))
        return fw.unpack_dual(out).tangent


def _expected_tangent(x, t, torch):
    """What the library's own softplus gives on the dual tensor: PyTorch's forward formula."""
    fw = _forward_ad(torch)
    with fw.dual_level():
        return fw.unpack_dual(torch.nn.functional.softplus(fw.make_dual(x, t))).tangent


def _diagnose_jvp_error(error):
    text = str(error)
    if "must implement the jvp" in text:
        return tr("Add a third @staticmethod, jvp(ctx, x_tangent): forward mode calls it with the input's tangent "
                  "and takes what it returns as the output's tangent.")
    if isinstance(error, ValueError) and "values to unpack" in text:
        return tr("In jvp, ctx.saved_tensors holds what forward passed to ctx.save_for_forward; the tensors of "
                  "ctx.save_for_backward are kept for backward only.")
    if "different size" in text:
        return tr("jvp returns the output's tangent, of the output's shape: elementwise, nothing summed.")
    if "invalid number of forward gradients" in text:
        return tr("jvp returns one tangent per output of forward -- softplus has one.")
    return ""


def _diagnose_jvp(got, x, t, torch):
    s = torch.sigmoid(x)
    candidates = [
        (s, tr("Multiply by the tangent: jvp receives the input's tangent t and returns J t -- here dy/dx times t, "
               "elementwise.")),
        (t, tr("That is the input's tangent unchanged: multiply it by the derivative dy/dx.")),
        (t * x.exp(), tr("exp(x) is the derivative of exp; softplus is log(1 + exp(x)): the chain rule through "
                         "the log divides by 1 + exp(x).")),
        (t * torch.sigmoid(-x), tr("Mind the sign: softplus is increasing, and its slope tends to 1 for large x.")),
        (t * s * (1 - s), tr("That is the derivative of sigmoid -- one derivative too many.")),
        (t * torch.log1p(x.exp()), tr("That is the output y times t; the tangent is the *derivative* times t.")),
    ]
    return _match(got, candidates) or tr("jvp returns dy/dx * t: work out d/dx log(1 + exp(x)).")


def _with_recorded_jvp(cls, returned):
    """``cls`` with its jvp recording what it returns (to tell a stub ``return ...`` from an answer)."""
    inner = cls.__dict__.get("jvp")
    if inner is None:
        return cls

    def jvp(ctx, *tangents):
        result = inner.__func__(ctx, *tangents)
        returned.append(result)
        return result
    return type(cls.__name__, (cls,), {"jvp": staticmethod(jvp), "__qualname__": cls.__qualname__})


def _jvp_problem(cls, module):
    """What is off in the answer's jvp on one library: None, "stub", or (what, why)."""
    returned = []
    answer = _with_recorded_jvp(function_on(module, cls), returned)
    x, t = _softplus_inputs(module)[0].detach(), _softplus_tangent(module)
    got, error = guard.run(_tangent_of, answer, x, t, module)
    if returned and returned[-1] is Ellipsis:
        return "stub"
    if error is not None:
        return raised(error, _diagnose_jvp_error(error), tr("forward-mode AD through Softplus.apply"))
    if got is None:
        return tr("the output has no tangent"), tr("jvp must return the output's tangent (a tensor), not None.")
    found = differences(got, _expected_tangent(x, t, module), where=tr("the output's tangent"), grads=False)
    if found:
        return found[0], _diagnose_jvp(got, x, t, module)
    return None


def _has_own_jvp(cls):
    return any("jvp" in vars(k) for k in cls.__mro__ if k.__name__ != "Function")


@always_a_verdict
def check_softplus(Softplus):
    """Exercise 1: ``Softplus`` is an autograd.Function computing log(1 + exp(x)), with backward and jvp."""
    what = tr("the bodies of forward (compute y = log(1 + exp(x)), save what backward and jvp need, return y), "
              "backward (grad times dy/dx) and jvp (dy/dx times the tangent)")
    if is_stub(Softplus):
        return not_answered(what)
    if not _is_function_class(Softplus):
        return wrong(tr("`{name}` should be a subclass of torch.autograd.Function ({what}); it is {kind}.",
                        name="Softplus", what=what, kind=kind(Softplus)),
                     tr("Write `class Softplus(torch.autograd.Function):` with three @staticmethods: forward, "
                        "backward and jvp."))
    for index, (_, module) in enumerate(libraries()):
        problem = _run_case(Softplus, solution.Softplus, SOFTPLUS_CASES[0], module, _diagnose_error(1, "x"),
                            _diagnose_softplus_grad)
        label = SOFTPLUS_CASES[0].label
        if problem is None:
            problem, label = _jvp_problem(Softplus, module), JVP_LABEL
        if problem is None:
            continue
        if problem == "stub":
            return not_answered(what)
        found, why = problem
        if index > 0:
            return works_only_on_tensorlab("`Softplus`", module, found)
        where = tr("`{name}` on {case}", name="Softplus", case=label)
        return wrong(_sentence(tr("{where}: {found}", where=where, found=found)), why)
    return correct(tr("backward gives grad * sigmoid(x) (a row of J at a time), jvp gives sigmoid(x) * t (a column) "
                      "-- the same derivative, used in the two directions."))


# -- exercise 2: a Jacobian, column by column ------------------------------------------------------

def _matrix(torch):
    return torch.tensor([[1., 2., 3.], [-1., 0.5, 4.]])


def _forward_only_cube(torch):
    """v ** 3 as a Function that has a jvp and no backward: only forward mode can differentiate it."""
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, v):
            ctx.save_for_forward(v)
            return v ** 3

        @staticmethod
        def backward(ctx, grad):
            raise RuntimeError("Cube has no backward: differentiate it in forward mode")

        @staticmethod
        def jvp(ctx, v_tangent):
            v, = ctx.saved_tensors
            return 3 * v ** 2 * v_tangent
    return Cube.apply


COLUMN_CASES = [
    Case(tr("f(v) = A @ v, A of shape (2, 3), v = [1, 2, 3]"),
         lambda torch: ((lambda v, A=_matrix(torch): A @ v), torch.tensor([1., 2., 3.]))),
    Case("f(v) = (A @ v).sin(), v = [0.1, -0.2, 0.3]",
         lambda torch: ((lambda v, A=_matrix(torch): (A @ v).sin()), torch.tensor([0.1, -0.2, 0.3]))),
    Case(tr("f(v) = Cube.apply(v), a Function with a jvp and no backward, v = [1, -2]"),
         lambda torch: (_forward_only_cube(torch), torch.tensor([1., -2.]))),
]


def _same(a, b):
    return is_tensor(a) and is_tensor(b) and tuple(a.shape) == tuple(b.shape) and not differences(a, b, grads=False)


def _diagnose_columns(got, expected, args, torch):
    if isinstance(got, Exception):
        text = str(got)
        if "no level exists" in text:
            return tr("make_dual works only inside `with fwAD.dual_level():` -- open the level first.")
        if "NoneType" in text or "None" in text and "tangent" not in text:
            return tr("A tangent was None: leaving the dual level forgets every tangent made in it, so read each "
                      "column with unpack_dual inside the `with` block.")
        if "Cube has no backward" in text:
            return tr("This f can only be differentiated in forward mode: build each column from the tangent of a "
                      "dual input (make_dual), not with backward, autograd.grad or jacobian().")
        if "floating point" in text:
            return tr("A tangent must be floating point, like x: build it with torch.zeros_like(x).")
        if "different size" in text:
            return tr("The tangent of x has x's shape: one vector e_j with a 1 at position j.")
        return None
    if not is_tensor(got):
        return tr("Return one tensor: the columns stacked side by side.")
    if tuple(got.shape) == tuple(expected.shape)[::-1] and _same(got, expected.t()):
        return tr("That is the transpose: the tangent J e_j is column j, so stack the columns along dim 1.")
    f, x = args
    ones = expected.sum(1, keepdim=True).expand(expected.shape)
    if _same(got, ones):
        return tr("Every column is J times a vector of ones (the row sums): the tangent for column j is e_j, "
                  "a 1 at position j and 0 elsewhere.")
    fx = f(x).detach()
    if _same(got, fx.unsqueeze(1).expand(expected.shape)):
        return tr("Those columns are f(x): unpack_dual gives (primal, tangent), and the column is the tangent.")
    return None


def check_jacobian_columns(jacobian_columns):
    """Exercise 2: ``jacobian_columns(f, x)`` returns the (m, n) Jacobian of f: R^n -> R^m at x, by columns."""
    return check_function(jacobian_columns, solution.jacobian_columns, COLUMN_CASES, name="jacobian_columns",
                          what=tr("a function body that returns the Jacobian of f at x, one dual input (make_dual) "
                                  "per column"),
                          grads=False, diagnoses=[_diagnose_columns],
                          note=tr('One forward pass per input element, each giving a column J e_j -- what '
                                  'jacobian(..., strategy="forward-mode") and jacfwd do.'))


# -- exercise 3: predictions ---------------------------------------------------------------------------

def _tangent_after_the_level(torch):
    fw = _forward_ad(torch)
    x = torch.tensor([1., 2.])
    with fw.dual_level():
        y = fw.make_dual(x, torch.ones(2)) * 2
    return fw.unpack_dual(y).tangent


def _wide_f(torch, calls):
    A = torch.linspace(-1, 1, 200).reshape(2, 100)

    def f(v):                       # R^100 -> R^2
        calls.append(1)
        return A @ v.tanh()
    return f


def _forward_passes(torch):
    calls = []
    on(torch, solution.jacobian_columns)(_wide_f(torch, calls), torch.linspace(-1, 1, 100))
    return len(calls)


def _backward_passes(torch):
    passes = []
    x = torch.linspace(-1, 1, 100).requires_grad_()
    x.register_hook(lambda grad: passes.append(1))
    on(torch, lesson10_solution.jacobian_rows)(_wide_f(torch, []), x)
    return len(passes)


def _tangent_of_a_sum(torch):
    fw = _forward_ad(torch)
    with fw.dual_level():
        y = (2 * fw.make_dual(torch.zeros(3, 4), torch.ones(3, 4))).sum()
        return fw.unpack_dual(y).tangent.item()


def _why_forward(got, truth):
    if got == 2:
        return tr("That counts the outputs; forward mode pays per input: one forward pass per column J e_j.")
    return tr("One forward pass gives one column J e_j of the Jacobian: how many columns does it have?")


def _why_backward(got, truth):
    if isinstance(got, int) and got > 2:
        return tr("That is forward mode's price; reverse mode pays per output: one backward pass per row.")
    return tr("One backward pass gives one row of the Jacobian (lesson 10): how many rows does it have?")


MODE_QUESTIONS = [
    Question(tr("y = fwAD.make_dual(x, v) * 2 inside the level -> fwAD.unpack_dual(y).tangent after it"),
             _tangent_after_the_level,
             tr("Tangents belong to the level they were made in: what is left of them once it ends?")),
    Question(tr("calls of f made by jacobian_columns(f, x), f: R^100 -> R^2"), _forward_passes, _why_forward),
    Question(tr("backward passes made by lesson 10's jacobian_rows(f, x), the same f"), _backward_passes,
             _why_backward),
    Question("(2 * fwAD.make_dual(torch.zeros(3, 4), torch.ones(3, 4))).sum() -> tangent.item()",
             _tangent_of_a_sum,
             tr("The tangent goes through the same linear steps as the value: doubled, then summed over every "
                "element.")),
]


def check_mode_facts(answer):
    """Exercise 3: a tuple of the 4 predictions of the table."""
    return check_predictions(answer, MODE_QUESTIONS,
                             what=tr("a tuple of 4 predictions, e.g. (0.0, 1, 1, 1.0)"),
                             note=tr("Forward mode pays per input, reverse mode per output."))


__all__ = ["check_jacobian_columns", "check_mode_facts", "check_softplus"]


# -- the figure: one column by a JVP, one row by a VJP -------------------------------------------------

#: The font of the figure's Chinese labels (fonts-noto-cjk); its glyphs are stored in the drawing.
CJK_FONT = "Noto Sans CJK SC"


def _know_cjk_font():
    """Make sure matplotlib knows the CJK font: its font cache may have been made before the font
    was installed."""
    from matplotlib import font_manager
    try:
        font_manager.findfont(CJK_FONT, fallback_to_default=False)
    except ValueError:
        for path in font_manager.findSystemFonts():
            if "NotoSansCJK-Regular" in path:
                font_manager.fontManager.addfont(path)


def jacobian_picture(J):
    """The 3 x 4 Jacobian ``J`` as a grid of its values, with the column one JVP gives (J e_1) and the
    row one VJP gives (e_2^T J) marked, labelled in the learner's language.

    Shown as an SVG image (``<img>``, which JupyterLab shows before the lesson is trusted) whose
    letters are drawn as paths -- Chinese ones from the CJK font, in the drawing itself -- so the
    picture looks the same wherever it is opened, and whose bytes are the same on every run (nbval
    compares them): no date in it, and its element ids from a fixed salt.
    """
    import io

    import matplotlib
    from IPython.display import HTML
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle
    from widgets._svg import svg_img

    if language() == "zh":
        _know_cjk_font()
    blue, orange = "tab:blue", "tab:orange"
    style = {"svg.fonttype": "path", "svg.hashsalt": "tensorlab-lesson23",
             "font.family": ["DejaVu Sans", CJK_FONT]}   # Latin letters from DejaVu, the rest from the CJK font
    with matplotlib.rc_context(style):
        fig = Figure(figsize=(7, 3.4))
        FigureCanvasSVG(fig)
        ax = fig.subplots()
        ax.imshow([[0] * 4] * 3, cmap="Greys", vmin=0, vmax=1)        # a white 3 x 4 grid
        for i in range(3):
            for j in range(4):
                ax.text(j, i, f"{J[i, j].item():.2f}", ha="center", va="center", fontsize=12)
        ax.add_patch(Rectangle((0.55, -0.45), 0.9, 2.9, facecolor="#1f77b426", edgecolor=blue, lw=3))
        ax.add_patch(Rectangle((-0.45, 1.55), 3.9, 0.9, facecolor="#ff7f0e26", edgecolor=orange, lw=3))
        ax.text(1, 2.65, tr("one JVP, J e₁:\none forward pass"), color=blue, ha="center", va="top")
        ax.text(3.7, 2, tr("one VJP, e₂ᵀ J:\none backward pass"), color=orange, va="center")
        ax.set_xticks(range(4), [f"$x_{j}$" for j in range(4)])
        ax.set_yticks(range(3), [f"$y_{i}$" for i in range(3)])
        ax.xaxis.tick_top()
        ax.set_title(tr("The Jacobian of f: 3 outputs × 4 inputs"), pad=28)
        svg = io.StringIO()
        fig.savefig(svg, format="svg", bbox_inches="tight", metadata={"Date": None})
    alt = tr("The 3 x 4 Jacobian of f, its values in a grid: column 1, marked, is what one JVP (one forward "
             "pass) gives; row 2, marked, is what one VJP (one backward pass) gives.")
    return HTML(svg_img(svg.getvalue(), alt))
