"""ModuleExplorer: the model (tree, counts, state_dict keys, freezing, hooks, errors) and its view,
driven headless (checkboxes set, buttons clicked) -- no browser, no kernel."""
import pytest

import tensorlab as torch
from tensorlab import nn, optim
from tensorlab.vision import models
from widgets import ModuleExplorer

pytest.importorskip("ipywidgets")


class Tied(nn.Module):
    """A shared parameter, a non-persistent buffer, a BatchNorm (persistent buffers) and a child."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(4, 4)
        self.head = nn.Linear(4, 4)
        self.head.weight = self.embed.weight            # tied weights: one tensor, two names
        self.norm = nn.BatchNorm1d(4)
        self.register_buffer("scratch", torch.zeros(2), persistent=False)

    def forward(self, x):
        return self.head(self.norm(self.embed(x)))


@pytest.fixture
def lenet():
    torch.manual_seed(0)
    return models.LeNet5(input_size=8)


def walk(node):
    yield node
    for child in node["children"]:
        yield from walk(child)


def test_counts_match_numel_for_every_subtree(lenet):
    ex = ModuleExplorer(lenet)
    assert ex.counts() == {"total": sum(p.numel() for p in lenet.parameters()),
                           "trainable": sum(p.numel() for p in lenet.parameters())}
    for node in walk(ex.tree()):
        module = lenet.get_submodule(node["name"])
        assert node["total"] == sum(p.numel() for p in module.parameters())
        assert ex.counts(node["name"])["total"] == node["total"]


def test_tree_follows_named_modules_and_lists_members(lenet):
    tree = ModuleExplorer(lenet).tree()
    assert [n["name"] for n in walk(tree)] == [name for name, _ in lenet.named_modules()]
    conv = next(n for n in walk(tree) if n["name"] == "features.0")
    assert conv["type"] == "Conv2d"
    weight = conv["parameters"][0]
    assert (weight["name"], weight["shape"], weight["dtype"], weight["requires_grad"], weight["grad_norm"]) == \
        ("features.0.weight", (6, 1, 5, 5), "torch.float32", True, None)


def test_grad_norm_shown_once_a_gradient_exists(lenet):
    ex = ModuleExplorer(lenet)
    lenet(torch.randn(2, 1, 8, 8)).sum().backward()
    weight = next(n for n in walk(ex.tree()) if n["name"] == "features.0")["parameters"][0]
    expected = float((lenet.features[0].weight.grad ** 2).sum().sqrt().item())
    assert weight["grad_norm"] == pytest.approx(expected)
    assert "‖grad‖" in ex.to_html()


def test_state_dict_keys_exactly_as_saved_and_non_persistent_buffers_marked():
    model = Tied()
    ex = ModuleExplorer(model)
    assert ex.state_dict_keys() == list(model.state_dict().keys())
    assert "scratch" not in ex.state_dict_keys() and "head.weight" in ex.state_dict_keys()
    root = ex.tree()
    assert root["buffers"] == [{"name": "scratch", "local": "scratch", "shape": (2,), "dtype": "torch.float32",
                                "persistent": False}]
    assert "persistent=False: not in state_dict" in ex.to_html()
    # the tied weight is counted once (as parameters() gives it) and marked as shared
    assert ex.counts()["total"] == sum(p.numel() for p in model.parameters()) == 16 + 4 + 4 + 4 + 4
    head = next(n for n in walk(root) if n["name"] == "head")
    assert head["parameters"][0]["shared_with"] == "embed.weight"


def test_freezing_sets_requires_grad_and_the_optimizer_leaves_frozen_parameters_alone(lenet):
    ex = ModuleExplorer(lenet)
    ex.freeze("features")
    assert not any(p.requires_grad for p in lenet.features.parameters())
    assert all(p.requires_grad for p in lenet.classifier.parameters())
    assert ex.counts()["trainable"] == sum(p.numel() for p in lenet.classifier.parameters())
    before = {n: p.detach().clone() for n, p in lenet.named_parameters()}
    opt = optim.SGD([p for p in lenet.parameters() if p.requires_grad], lr=0.5)
    opt.zero_grad()
    nn.functional.cross_entropy(lenet(torch.randn(4, 1, 8, 8)), torch.tensor([0, 1, 2, 3])).backward()
    opt.step()
    for name, p in lenet.named_parameters():
        moved = not torch.equal(p.detach(), before[name])
        assert moved == name.startswith("classifier"), name
    ex.unfreeze("features.0.bias")
    assert lenet.features[0].bias.requires_grad and not lenet.features[0].weight.requires_grad
    ex.set_requires_grad("", True)
    assert all(p.requires_grad for p in lenet.parameters())


def test_hooks_listed_after_register_and_gone_after_remove(lenet):
    ex = ModuleExplorer(lenet)

    def watch(module, args, output):
        return None

    handles = [lenet.features.register_forward_hook(watch),
               lenet.features[0].register_forward_pre_hook(lambda module, args: None),
               lenet.classifier.register_full_backward_hook(lambda module, gi, go: None),
               lenet.register_full_backward_pre_hook(lambda module, go: None)]
    found = [(h["module"], h["kind"], h["hook"]) for h in ex.hooks()]
    assert found == [("", "backward_pre", "<lambda>"),
                     ("features", "forward", "watch"),
                     ("features.0", "forward_pre", "<lambda>"),
                     ("classifier", "backward", "<lambda>")]
    assert [h["id"] for h in ex.hooks()] == [handles[3].id, handles[0].id, handles[1].id, handles[2].id]
    assert [h["module"] for h in ex.hooks("features")] == ["features", "features.0"]
    assert "forward pre hook" in ex.to_html()
    for handle in handles:
        handle.remove()
    assert ex.hooks() == []
    assert "hook" not in ex.to_html()


@pytest.mark.parametrize("call, message", [
    (lambda ex: ex.freeze("features.9"), "AttributeError: Sequential has no attribute `9`"),
    (lambda ex: ex.unfreeze("fc.weight"), "AttributeError: LeNet5 has no attribute `fc`"),
    (lambda ex: ex.set_requires_grad("features.0.wieght", False), "AttributeError: Conv2d has no attribute `wieght`"),
    (lambda ex: ex.set_requires_grad("features", "no"), "TypeError: requires_grad must be a bool, got str"),
    (lambda ex: ex.counts("nope"), "AttributeError: LeNet5 has no attribute `nope`"),
])
def test_bad_names_show_pytorchs_error_and_change_nothing(lenet, call, message):
    ex = ModuleExplorer(lenet)
    ex.freeze("classifier.5")
    before = [p.requires_grad for p in lenet.parameters()]
    assert call(ex) is None
    assert ex.error == message
    assert [p.requires_grad for p in lenet.parameters()] == before
    assert "tensorlab-error" in ex.to_html()
    ex.freeze("classifier.5")                                # the next good call clears the error
    assert ex.error is None


def test_get_parameter_wording_matches_pytorch(torch):
    # here `torch` is PyTorch itself (the oracle fixture); `nn` is still tensorlab's
    theirs = torch.nn.Sequential(torch.nn.Conv2d(1, 6, 5))
    with pytest.raises(AttributeError) as expected:
        theirs.get_parameter("0.wieght")
    ex = ModuleExplorer(nn.Sequential(nn.Conv2d(1, 6, 5)))
    ex.freeze("0.wieght")
    assert ex.error == f"AttributeError: {expected.value}"


def test_summary_and_html_are_deterministic_text(lenet):
    ex = ModuleExplorer(lenet)
    assert ex.summary() == "ModuleExplorer(LeNet5: 15 modules, 21,386 parameters, 21,386 trainable)"
    assert ex.to_html() == ModuleExplorer(lenet).to_html()
    assert "<details open" in ex.to_html() and "state_dict(): 10 keys" in ex.to_html()
    assert "0x" not in ex.to_html()


def test_view_checkbox_freezes_a_parameter_and_redraws(lenet):
    ex = ModuleExplorer(lenet)
    view = ex.widget
    header_before = view.nodes["features.0"]["header"].value
    view.param_boxes["features.0.weight"].value = False
    assert lenet.features[0].weight.requires_grad is False
    assert ex.counts("features.0") == {"total": 156, "trainable": 6}
    assert view.nodes["features.0"]["header"].value != header_before
    assert "156 params, 6 trainable" in view.nodes["features.0"]["header"].value
    assert view.nodes["features.0"]["box"].description == "–"      # partly frozen: the tri-state box says so
    assert view.nodes["features"]["box"].description == "–" and view.nodes["features.3"]["box"].description == "✓"
    assert "froze 1 parameter (150 elements)" in view.message.value


def test_view_subtree_checkbox_and_buttons(lenet):
    ex = ModuleExplorer(lenet)
    view = ex.widget
    view.nodes["classifier"]["box"].click()                          # all trainable: freeze them all
    assert not any(p.requires_grad for p in lenet.classifier.parameters())
    assert view.nodes["classifier"]["box"].description == "\u00a0" and view.nodes[""]["box"].description == "–"
    assert all(not view.param_boxes[name].value for name, _ in lenet.classifier.named_parameters("classifier"))
    assert "frozen" in view.nodes["classifier"]["header"].value
    view.name_box.value = "classifier.1"
    view.unfreeze_button.click()
    assert lenet.classifier[1].weight.requires_grad and view.param_boxes["classifier.1.weight"].value
    view.name_box.value = "classifier.7"
    view.freeze_button.click()
    assert "Sequential has no attribute `7`" in view.message.value
    assert lenet.classifier[1].weight.requires_grad                  # nothing changed
    view.nodes["classifier"]["box"].click()                          # partly frozen: unfreeze them all
    assert all(p.requires_grad for p in lenet.classifier.parameters())
    assert view.nodes["classifier"]["box"].description == "✓"


def test_view_toggle_collapses_and_refresh_shows_new_hooks(lenet):
    ex = ModuleExplorer(lenet, expand_depth=1)
    view = ex.widget
    node = view.nodes["features"]
    assert node["body"].layout.display == "none" and node["toggle"].description == "▸"
    node["toggle"].click()
    assert node["body"].layout.display == "" and node["toggle"].description == "▾"
    handle = lenet.features.register_forward_hook(lambda m, a, o: None)
    view.refresh_button.click()
    assert len(node["hooks"].children) == 1 and "forward hook" in node["hooks"].children[0].value
    handle.remove()
    ex.refresh()
    assert node["hooks"].children == ()


def test_repr_mimebundle_has_the_view_and_text_fallbacks(lenet):
    bundle = ModuleExplorer(lenet)._repr_mimebundle_()
    assert bundle["text/plain"].startswith("ModuleExplorer(LeNet5")
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "state_dict()" in bundle["text/html"]
