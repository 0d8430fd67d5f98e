"""One schema per native op (transforms_c/schema.py): it checks the op's arguments, builds its
native_step(), and the C++ step registry checks every plan's steps against the parameters it
declared (src/native_step.cpp), so the steps themselves no longer check ranges."""
import math

import pytest

from transforms_c import _batch, schema
from transforms_c.enums import Inter
from transforms_c.schema import (FLOAT, INT, OUTPUT_SIZE, Native, NativeOperation, OpSchema,
                                 Param)
from transforms_c.vision import (HWC2CHW, CenterCrop, Crop, Decode, HorizontalFlip, Normalize,
                                 NormalizePad, RandomCrop, RandomCropDecodeResize,
                                 RandomHorizontalFlip, RandomResizedCrop, RandomVerticalFlip,
                                 Rescale, Resize, VerticalFlip)

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


def _native_ops():
    return [Decode(), RandomCropDecodeResize(24), RandomResizedCrop((24, 20)), Resize(30),
            Resize((20, 25)), Crop((2, 3), (10, 12)), CenterCrop(16), RandomCrop(8),
            RandomHorizontalFlip(), RandomVerticalFlip(0.3), HorizontalFlip(), VerticalFlip(),
            Normalize(MEAN, STD), Rescale(1 / 255, -0.5), HWC2CHW()]


def test_every_native_op_class_has_a_schema_and_cpp_has_its_step():
    classes = {type(op) for op in _native_ops()}
    for cls in classes:
        assert schema.schema_of(cls) is not None, cls
        assert schema.schema_of(cls).step is not None, cls
    # What Python declared is what the C++ registry checks against.
    assert _batch.step_schemas() == schema.step_schemas()
    assert set(schema.step_schemas()) == {
        "decode", "resize", "random_resized_crop", "crop", "center_crop", "random_crop", "flip",
        "normalize", "rescale", "hwc2chw"}


@pytest.mark.parametrize("op", _native_ops(), ids=lambda op: type(op).__name__)
def test_native_step_is_built_from_the_schema(op):
    step = op.native_step()
    declared = schema.schema_of(op)
    assert step["kind"] == declared.step
    assert set(step) - {"kind"} == {n.name for n in declared.step_params()}
    assert _batch.row_layout([step], (40, 60, 3)) is not None


def test_an_interpolation_without_a_native_kernel_has_no_native_step():
    assert Resize(8, Inter.PILCUBIC).native_step() is None
    assert RandomResizedCrop(8, interpolation=Inter.PILCUBIC).native_step() is None
    assert NormalizePad(MEAN, STD).native_step() is None


def test_resize_of_an_int_keeps_the_aspect_ratio_natively():
    assert Resize(30).native_step()["keep_ratio"] is True
    assert _batch.row_layout([Resize(30).native_step()], (40, 60, 3))[0] == (30, 45, 3)
    assert _batch.row_layout([Resize((30, 30)).native_step()], (40, 60, 3))[0] == (30, 30, 3)


def _bad_value(native):
    """A value just outside a step parameter's declared range (None when it is unbounded)."""
    if native.low is not None:
        return native.low if native.low_open else native.low - (1 if native.type == INT else 0.5)
    if native.high is not None:
        return native.high + 1
    return None


def _range_cases():
    for op in _native_ops():
        step = op.native_step()
        for native in schema.schema_of(op).step_params():
            bad = _bad_value(native)
            if bad is not None:
                value = [bad] * max(1, native.length)
                yield pytest.param(dict(step, **{native.name: value}), native.name,
                                   id=f"{type(op).__name__}-{native.name}")


@pytest.mark.parametrize("step, name", list(_range_cases()))
def test_cpp_refuses_every_declared_parameter_out_of_its_range(step, name):
    with pytest.raises(ValueError, match=rf"native step '{step['kind']}': {name} must be "):
        _batch.row_layout([step], None)


@pytest.mark.parametrize("op", [op for op in _native_ops() if len(op.native_step()) > 1],
                         ids=lambda op: type(op).__name__)
def test_cpp_refuses_a_missing_or_misspelt_parameter(op):
    step = op.native_step()
    name = sorted(set(step) - {"kind"})[0]
    missing = {k: v for k, v in step.items() if k != name}
    with pytest.raises(ValueError, match=rf"missing parameter '{name}'"):
        _batch.row_layout([missing], None)
    misspelt = dict(missing, **{name + "_": step[name]})
    with pytest.raises(ValueError, match=r"missing parameter|unknown parameter"):
        _batch.row_layout([misspelt], None)
    with pytest.raises(ValueError, match=rf"unknown parameter '{name}_'"):
        _batch.row_layout([dict(step, **{name + "_": step[name]})], None)


def test_ranges_with_open_bounds_and_counts_are_checked_natively():
    step = RandomResizedCrop(8).native_step()
    with pytest.raises(ValueError, match=r"ratio must be in \(0, 16777216\], got 0"):
        _batch.row_layout([dict(step, ratio=(0.0, 1.0))], None)
    with pytest.raises(ValueError, match=r"'scale' has 3 values, expected 2"):
        _batch.row_layout([dict(step, scale=(0.1, 0.2, 0.3))], None)
    normalize = Normalize(MEAN, STD).native_step()
    with pytest.raises(ValueError, match=r"'normalize': b must be in \(0, 255\], got 0"):
        _batch.row_layout([dict(normalize, b=[1.0, 0.0, 1.0])], None)
    with pytest.raises(ValueError, match=r"'b' has 0 values, expected at least 1"):
        _batch.row_layout([dict(normalize, b=[])], None)
    rescale = Rescale(1 / 255, 0).native_step()
    with pytest.raises(ValueError, match=r"'rescale': parameter 'a' is not finite"):
        _batch.row_layout([dict(rescale, a=[math.inf])], None)
    resize = Resize(8).native_step()
    with pytest.raises(ValueError, match=r"'resize': parameter 'keep_ratio' is not a bool"):
        _batch.row_layout([dict(resize, keep_ratio=2)], None)


def test_a_kind_registers_one_set_of_parameters():
    spec = schema.step_schemas()["flip"]
    _batch.register_step_schema("flip", spec)       # the same again: accepted
    other = dict(spec, prob=("float", 0.0, 2.0, False, False, 1))
    with pytest.raises(ValueError, match=r"'flip': registered again with other parameters"):
        _batch.register_step_schema("flip", other)
    with pytest.raises(ValueError, match=r"'no_such_step': no step of this kind is compiled in"):
        _batch.register_step_schema("no_such_step", {})
    assert _batch.step_schemas()["flip"] == spec


def test_ops_sharing_a_step_must_declare_the_same_parameters():
    with pytest.raises(ValueError, match=r"ShakyFlip's schema: .*'flip': registered again"):
        class ShakyFlip(NativeOperation):
            schema = OpSchema(params=(Param("prob", FLOAT, 0.0, 0.5, native=("prob",)),),
                              step="flip", step_only=(Native("axis", INT, 0, 1),))

            def __init__(self, prob=0.5):
                self.schema.bind(self, prob=prob)


def test_an_op_whose_arguments_are_not_its_schemas_is_refused_when_defined():
    with pytest.raises(TypeError, match=r"Cropper.__init__ takes \('size', 'extra'\), its "
                                        r"schema declares \('size',\)"):
        class Cropper(NativeOperation):
            schema = OpSchema(params=(OUTPUT_SIZE,))

            def __init__(self, size, extra=None):
                self.schema.bind(self, size=size)


def test_a_python_only_op_with_a_schema():
    class Shrink(NativeOperation):
        """An op declaring its arguments only: checked as the native ops', never fused."""
        schema = OpSchema(params=(OUTPUT_SIZE, Param("factor", FLOAT, 0.0, 1.0,
                                                     low_open=True)))

        def __init__(self, size, factor=0.5):
            self.schema.bind(self, size=size, factor=factor)

    op = Shrink([4, 6])
    assert (op.size, op.factor) == ((4, 6), 0.5)
    assert op.native_step() is None and op.fusion_phase(0) is None
    with pytest.raises(ValueError, match=r"Input factor is not within the required interval "
                                         r"of \(0.0, 1.0\]"):
        Shrink(4, 0)
    with pytest.raises(TypeError, match=r"Argument size with value 4 is not of type"):
        Shrink("4")
    assert schema.schema_of(Shrink) is Shrink.schema


def test_subclasses_inherit_their_bases_schema():
    assert schema.schema_of(RandomVerticalFlip) is RandomHorizontalFlip.schema
    assert schema.schema_of(VerticalFlip) is schema.schema_of(HorizontalFlip)
    assert RandomCropDecodeResize.schema.params == RandomResizedCrop.schema.params
    assert RandomCropDecodeResize(8).fusion_phase(1) is None
    assert RandomResizedCrop(8).fusion_phase(1) is not None
