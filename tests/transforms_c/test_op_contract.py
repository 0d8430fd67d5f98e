"""The op contract (transforms_c/contract.py): every op is an Operation, the fusable ones a
FusableOperation whose optional declarations come from FusionDefaults, a compiled run a
FusedPlanLike; plain callables and ops that declare only part of the contract are not fused."""
import numpy as np

from minddata.graph.operations import compile_map_operations, op_name
from minddata.vision import py_transforms as P
from transforms_c._base import TensorOperation
from transforms_c.contract import FusableOperation, FusedPlanLike, FusionDefaults, Operation
from transforms_c.fusion import FusedPlan, compile_operations
from transforms_c.transforms import Compose, TypeCast
from transforms_c.vision import (HWC2CHW, Decode, Normalize, RandomCropDecodeResize,
                                 RandomHorizontalFlip, RandomResizedCrop, Rescale, Resize)

from tests.transforms_c.tc_samples import natural_rgb, sample_jpeg


def _fusable_ops():
    return [Decode(), Resize(8), RandomResizedCrop(8), RandomCropDecodeResize(8),
            RandomHorizontalFlip(), Rescale(1 / 255, 0), Normalize([0.5], [0.5]), HWC2CHW(),
            P.Decode(), P.RandomResizedCrop(8), P.RandomHorizontalFlip(), P.ToTensor(),
            P.Normalize([0.5], [0.5])]


def test_every_op_is_an_operation_and_the_fusable_ones_fusable():
    for op in _fusable_ops():
        assert isinstance(op, Operation), op
        assert isinstance(op, FusableOperation), op
    for op in (Compose([Resize(8), HWC2CHW()]), TypeCast(np.float32), P.HWC2CHW()):
        assert isinstance(op, Operation), op


def test_ops_that_declare_nothing_get_the_defaults():
    class Identity(TensorOperation):
        def _compute(self, img, rng):
            return img

    op = Identity()
    img = natural_rgb(5, 6)
    assert isinstance(op, FusableOperation)   # the base class offers the whole contract
    assert op.fusion_phase(0) is None and op.native_step() is None
    assert op.ends_fused_run and not op.decodes
    assert not op.point_feeds_next and not op.point_follows_previous
    assert op.fuses_encoded(b"any bytes")
    assert np.array_equal(op.apply_unfused(img, 3), op.apply((img,), 3)[0])
    layout = HWC2CHW()
    assert compile_operations([op, layout]) == [op, layout]     # nothing to fuse


def test_plain_callables_and_engine_objects_are_not_fusable():
    class SeededAdd:       # the engine protocol without fusion declarations
        is_random = True

        def apply(self, arrays, seed):
            return (arrays[0] + seed % 7,)

        def __call__(self, *arrays):
            return self.apply(arrays, 0)[0]

    fn = lambda x: x + 1    # noqa: E731
    assert not isinstance(fn, Operation)
    assert isinstance(SeededAdd(), Operation) and not isinstance(SeededAdd(), FusableOperation)
    ops = [Decode(), fn, Resize(8), SeededAdd(), HWC2CHW()]
    assert compile_operations(ops) == ops


def test_an_op_declaring_part_of_the_contract_is_not_fused():
    class HalfDeclared:     # a phase, but none of the rest of FusableOperation
        is_random = False

        def fusion_phase(self, position):
            return 1

        def apply(self, arrays, seed):
            return arrays

        def __call__(self, *arrays):
            return arrays[0]

    half = HalfDeclared()
    assert not isinstance(half, FusableOperation)
    decode = Decode()
    assert compile_operations([decode, half]) == [decode, half]


def test_a_compiled_run_is_a_fused_plan_and_names_its_ops():
    plan, = compile_operations([Decode(), Resize((8, 8)), HWC2CHW()])
    assert isinstance(plan, FusedPlan) and isinstance(plan, FusedPlanLike)
    assert not isinstance(Resize(8), FusedPlanLike)
    assert op_name(plan) == "FusedPlan(Decode+Resize+HWC2CHW)"
    assert op_name(Resize(8)) == "Resize"
    out = plan.apply_seeds((sample_jpeg(),), [0, 0, 0])[0]
    assert out.shape == (3, 8, 8)


def test_compile_map_operations_reads_the_contract():
    single = compile_map_operations([Resize(8)])
    assert isinstance(single, FusedPlanLike) and [type(o) for o in single.ops] == [Resize]
    assert compile_map_operations([lambda x: x]) is None
    assert compile_map_operations([P.Decode()]) is None      # gives a PIL image: ends no run
    assert compile_map_operations([TypeCast(np.float32)]) is None


def test_the_defaults_are_what_both_op_bases_inherit():
    assert issubclass(TensorOperation, FusionDefaults)
    assert issubclass(P.PyTensorOperation, FusionDefaults)
