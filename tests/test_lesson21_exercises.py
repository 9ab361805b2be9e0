"""Lesson 21's exercise checks accept the reference solutions and reject plausible wrong answers
with a specific hint, with PyTorch installed and hidden alike."""
import pytest

import tensorlab as torch
from coursekit import lesson21 as check
from coursekit.solutions import lesson21 as solution
from coursekit.testing import assert_rejected


def test_every_check_accepts_its_solution(mode, capsys):
    assert check.check_lstm_shapes(solution.predictions)
    assert check.check_lstm_step(solution.lstm_step)
    assert check.check_stacked_rnn(solution.stacked_rnn)
    assert capsys.readouterr().out.count("Correct!") == 3


def test_the_reference_step_is_what_lstmcell_computes():
    for case in check.LSTM_CASES:
        x, h, c, cell = case.make(torch)
        mine, theirs = solution.lstm_step(x, h, c, cell), cell(x, (h, c))
        assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(mine, theirs))


def _step_with_views(x, h, c, cell):
    n = cell.hidden_size
    gates = torch.nn.functional.linear(x, cell.weight_ih, cell.bias_ih) + \
        torch.nn.functional.linear(h, cell.weight_hh, cell.bias_hh)
    i, f, g, o = (gates[:, k * n:(k + 1) * n] for k in range(4))
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    return o.sigmoid() * c.tanh(), c


def test_other_correct_answers_are_accepted(mode):
    assert check.check_lstm_shapes([[20, 3], torch.Size([20, 5]), (7, 4, 5), [2, 4, 5]])
    assert check.check_lstm_step(_step_with_views)
    assert check.check_lstm_step(lambda x, h, c, cell: cell(x, (h, c)))


def test_stubs_get_a_fixed_message(mode):
    for verdict in (check.check_lstm_shapes(...), check.check_lstm_shapes(((20, 3), ..., ..., ...)),
                    check.check_lstm_step(...), check.check_lstm_step(lambda x, h, c, cell: ...)):
        assert not verdict and verdict.message.startswith("Not answered yet: replace the ... with ")


@pytest.mark.parametrize("answer, phrases", [
    (((5, 3), (20, 3), (4, 7, 5), (7, 4, 5)), ["4 of 4", "4 gates", "Layer 1 does not see x", "batch_first",
                                               "*last* step's h of *every* layer"]),
    (((20, 3), (20, 5), (2, 4, 5), (1, 4, 5)), ["2 of 4", "at *every* time step", "(num_layers, batch, hidden)"]),
    (((3, 20), (20, 5), (7, 4, 5), (2, 4, 5)), ["1 of 4", "Like nn.Linear's weight"]),
])
def test_wrong_shape_predictions(mode, answer, phrases):
    verdict = check.check_lstm_shapes(answer)
    assert_rejected(verdict, phrases)


def _variant(**kwargs):
    return lambda x, h, c, cell: check._variant(x, h, c, cell, torch, **kwargs)


@pytest.mark.parametrize("answer, phrases", [
    (_variant(order="ifog"), ["`lstm_step` on a batch of 2, 3 inputs, hidden size 4", "input, forget, cell (g), output"]),
    (_variant(forget=False), ["multiplied by the forget gate"]),
    (_variant(tanh_c=False), ["h = sigmoid(o) * tanh(c)"]),
    (_variant(tanh_g=False), ["goes through tanh"]),
    (lambda x, h, c, cell: solution.lstm_step(x, h, c, cell)[::-1], ["The order of the pair is (h, c)"]),
    (lambda x, h, c, cell: solution.lstm_step(x, h, c, cell)[0], ["Return the pair (h, c)"]),
    (lambda x, h, c, cell: (x @ cell.weight_ih.T).chunk(3, dim=1)[3], ["raised", "Return the pair"]),
])
def test_wrong_lstm_steps(mode, answer, phrases):
    verdict = check.check_lstm_step(answer)
    assert_rejected(verdict, phrases)


# -- exercise 3: a stacked RNN by hand -------------------------------------------------------------------

def test_the_stacked_solution_is_what_nn_rnn_computes(mode):
    """With the cells' weights copied into nn.RNN(num_layers=len(cells)), on every library."""
    from coursekit.libs import libraries, on
    for _, library in libraries():
        for case in check.STACK_CASES:
            xs, cells = case.make(library)
            rnn = library.nn.RNN(cells[0].input_size, cells[0].hidden_size, num_layers=len(cells))
            with library.no_grad():
                for layer, cell in enumerate(cells):
                    for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
                        getattr(rnn, f"{name}_l{layer}").copy_(getattr(cell, name))
            output, h_n = rnn(xs)
            mine = on(library, solution.stacked_rnn)(xs, cells)
            assert library.allclose(mine[0], output, atol=1e-6) and library.allclose(mine[1], h_n, atol=1e-6)


def _preallocated(xs, cells):
    seq, batch, _ = xs.shape
    hidden = cells[0].hidden_size
    h_n = torch.zeros(len(cells), batch, hidden)
    inputs = xs
    for layer, cell in enumerate(cells):
        out = torch.zeros(seq, batch, hidden)
        h = torch.zeros(batch, hidden)
        for t in range(seq):
            h = cell(inputs[t], h)
            out[t] = h
        h_n[layer] = h
        inputs = out
    return inputs, h_n


def _stack(first_only=False, last_h_only=False, reversed_h=False, xs_everywhere=False, with_h0=False):
    def answer(xs, cells):
        sequence, last = xs, []
        for cell in (cells[:1] if first_only else cells):
            h = torch.zeros(xs.shape[1], cell.hidden_size)
            states = [h] if with_h0 else []
            for x in (xs if xs_everywhere else sequence):
                h = cell(x, h)
                states.append(h)
            sequence = torch.stack(states)
            last.append(h)
        if first_only:
            return sequence, torch.stack([h] * len(cells))
        if last_h_only:
            return sequence, last[-1]
        return sequence, torch.stack(last[::-1] if reversed_h else last)
    return answer


def test_another_correct_stacked_rnn_is_accepted(mode):
    assert check.check_stacked_rnn(_preallocated)


@pytest.mark.parametrize("answer, phrases", [
    (_stack(first_only=True), ["the first layer's output"]),
    (_stack(last_h_only=True), ["h_n holds the last state of *every* layer"]),
    (_stack(reversed_h=True), ["ordered by layer"]),
    (_stack(xs_everywhere=True), ["raised RuntimeError", "not xs"]),
    (_stack(with_h0=True), ["leave out the initial zeros"]),
    (lambda xs, cells: solution.stacked_rnn(xs, cells)[0], ["Return the pair (output, h_n)"]),
])
def test_wrong_stacked_rnns(mode, answer, phrases):
    assert_rejected(check.check_stacked_rnn(answer), phrases)
