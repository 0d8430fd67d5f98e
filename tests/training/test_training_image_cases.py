"""tools/training_image_cases.py (the training tool's cells of several inputs) and the new
layer cases of tools/training_layer_cases.py, run with this package standing in for
MindSpore: each cell gives its steps on both backends, and the documented deviations are
recognised."""
import pytest

import training

from tests.conftest import PROJECT_ROOT, load_script

tool = load_script(PROJECT_ROOT / "tools" / "training_vs_mindspore.py")


def _first(maker, name, right=lambda case: True):
    return next(case for case in (maker(tool.Draw(seed)) for seed in range(3000))
                if case[1] == name and right(case))


@pytest.mark.parametrize("torch", [False, True])
@pytest.mark.parametrize("name", ["SSIM", "MSSSIM", "PSNR", "ImageGradients", "ClipByNorm",
                                  "TimeDistributed", "TripletMarginWithDistanceLoss"])
def test_image_cases_give_output_gradients_and_places(name, torch):
    library = tool.Library("training", torch)
    try:
        steps = tool.run_case(library, _first(tool.image_case, name, lambda case: all(
            x[1].dtype.kind == "f" for x in case[4][0])))
    finally:
        training.set_backend(None)
    assert steps[0][0] in ("ok", "error")
    if steps[0][0] == "ok":
        assert [kind for kind, _ in steps] == ["ok", "ok", "ok"]
        assert "input0" in steps[1][1][1]


def test_new_layer_cases_are_drawn_and_documented():
    for name in ("Conv3dTranspose", "EmbeddingLookup", "Unfold"):
        assert _first(tool.layer_case, name)
    unfold = _first(tool.layer_case, "Unfold")
    assert "ExtractImagePatches" in tool.documented(
        unfold, "raises RuntimeError in MindSpore only: Unsupported op [ExtractImagePatches]")
    clip = _first(tool.image_case, "ClipByNorm", lambda case: case[3].get("axis") == 0)
    assert "own norm" in tool.documented(clip, "step 0: element 0: largest difference 0.4")
    assert tool.documented(clip, "raises ValueError here only: x") is None
