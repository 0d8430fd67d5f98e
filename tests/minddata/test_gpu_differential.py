"""The GPU path against the CPU path on random op chains (torch on the CPU runs the GPU path's
code: minddata.gpu.set_device("cpu")). Each chain the GPU path takes must give the CPU path's
batches (dtype, shape, values within one level per resample, plus a float16 cast's rounding)
or fail as the CPU path fails (the same op's error); a chain it refuses must say why in
plan(). Then the same chain through GpuRun with each way of decoding on the device, their
libraries stood in for by the CPU's decoder, must equal GpuRun without a device decoder
exactly: the direct nvJPEG decoder (test_gpu_nvjpeg_decoder.py's stand-in library; the whole
batch staged and decoded into one buffer), with a CPU share of the rows (decode_split), and a
decoder reading only each row's crop window (test_gpu_region_decode.py's). A few chains a run
here; ``make fuzz`` runs many more (the ``slow`` test)."""
import concurrent.futures
import random
import warnings

import numpy as np
import pytest

import minddata as ds
import minddata.transforms as transforms
import minddata.vision as vision
from minddata import gpu
from minddata.gpu.batch import GpuRun, RowError
from minddata.gpu.decode_split import DecodeSplit
from minddata.gpu.nvjpeg_decoder import NvJpegDecoder
from minddata.gpu.plan import run_refusal
from transforms_c import settings

from .native_batch_helpers import jpeg_bytes, png_bytes, write_mindrecord

torch = pytest.importorskip("torch")

from .test_gpu_nvjpeg_decoder import OnTheCpu, StandInNvJpeg            # noqa: E402
from .test_gpu_region_decode import RegionStandIn                         # noqa: E402

RESAMPLING = (vision.RandomResizedCrop, vision.Resize, vision.RandomCropDecodeResize)
STD = [50.0, 60.0, 70.0]


@pytest.fixture(autouse=True)
def _exact_decode():
    approximate = settings.get_approximate_decode()
    settings.set_approximate_decode(False)   # the CPU path decodes the whole image, as the GPU
    gpu.set_device("cpu")
    yield
    gpu.set_device(None)
    settings.set_approximate_decode(approximate)


@pytest.fixture(scope="module")
def images():
    # small images of different shapes (two gray), a PNG: crops pad some, refuse others
    jpegs = [jpeg_bytes(i, 20 + 9 * i, 15 + 11 * i, gray=(i % 4 == 3)) for i in range(10)]
    return jpegs + [png_bytes(1, 33, 47)]


@pytest.fixture(scope="module")
def mr_path(tmp_path_factory, images):
    return write_mindrecord(str(tmp_path_factory.mktemp("diff") / "d.mindrecord"), images)


def geometry_op(r):
    return r.choice([
        lambda: vision.RandomResizedCrop(r.choice([7, (12, 5), 40]),
                                         scale=(r.uniform(0.01, 0.9), 1.0),
                                         ratio=(r.uniform(0.3, 1.0), r.uniform(1.0, 3.0))),
        lambda: vision.Resize(r.choice([(10, 14), (33, 8), 19, 64])),
        lambda: vision.CenterCrop(r.choice([5, (9, 30), 70])),
        lambda: vision.Crop((r.randint(0, 5), r.randint(0, 5)), r.choice([6, (8, 10)])),
    ])()


def flip_op(r):
    return r.choice([lambda: vision.RandomHorizontalFlip(r.random()),
                     lambda: vision.RandomVerticalFlip(r.random()),
                     vision.HorizontalFlip, vision.VerticalFlip])()


def random_chain(r):
    """Decode (or RandomCropDecodeResize), geometry and flips in any order, then at most one
    point op, perhaps HWC2CHW, perhaps a cast: mostly chains the GPU path takes."""
    if r.random() < 0.2:
        ops = [vision.RandomCropDecodeResize(r.choice([8, (9, 13), 31]),
                                             scale=(r.uniform(0.01, 0.5), 1.0))]
    else:
        ops = [vision.Decode()] + [r.choice([geometry_op, geometry_op, flip_op])(r)
                                   for _ in range(r.randint(1, 3))]
    ops += [flip_op(r) for _ in range(r.randint(0, 2))]
    chw = False
    point = r.randrange(5)
    if point == 0:
        ops.append(vision.Normalize([100.0, 110.0, 120.0], STD))
    elif point == 1:
        ops.append(vision.Rescale(r.choice([1 / 255, 0.5]), r.choice([0.0, -1.0])))
    elif point == 2:
        ops.append(vision.ToTensor(r.choice([np.float32, np.float16, np.float64])))
        chw = True
    if not chw and r.random() < 0.5:
        ops.append(vision.HWC2CHW())
    if r.random() < 0.4:
        ops.append(r.choice([lambda: transforms.TypeCast(np.float16),
                             lambda: vision.ToType(np.float32),
                             lambda: transforms.TypeCast(np.bool_),
                             lambda: vision.ToType(np.int16)])())
    return ops


def run(path, ops, device):
    """Every batch's image column, or the exception the pipeline raised."""
    ds.config.set_seed(5)
    data = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True)
    data = data.map(ops, input_columns=["image"], num_parallel_workers=2, device=device)
    try:
        it = data.batch(4).create_tuple_iterator(num_epochs=1, output_numpy=True)
        try:
            return [row[0] for row in it]
        finally:
            it.close()
    except Exception as exc:        # compared with the other path's below
        return exc


def tolerance(ops, expected):
    """The largest difference the GPU path may show: one level of uint8 per resample (in the
    output's units after the point ops), a float16 cast's rounding on top."""
    levels = sum(isinstance(op, RESAMPLING) for op in ops)
    if expected.dtype.kind in "iu":
        return levels
    scale = 1.0
    for op in ops:
        if isinstance(op, vision.Normalize):
            scale /= min(STD)
        elif isinstance(op, vision.ToTensor):
            scale /= 255.0
        elif isinstance(op, vision.Rescale):
            scale *= abs(op.rescale)
    # a Rescale's multiply-add may round once more than the CPU's fused one (one ulp)
    ulps = np.abs(expected).max(initial=1.0) * float(np.finfo(np.float32).eps) * 2
    if any(op_type_is(op, np.float16) for op in ops):
        ulps += np.abs(expected).max(initial=1.0) * 2.0 ** -10
    return levels * scale * (1 + 1e-6) + ulps


def op_type_is(op, dtype):
    return np.dtype(getattr(op, "data_type", getattr(op, "output_type", np.float32))) == dtype


def check_chain(path, ops):
    names = "+".join(type(op).__name__ for op in ops)
    why = run_refusal("GPU", ops)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # a refused chain warns that it runs on the CPU
        plan = ds.MindDataset(path, columns_list=["image", "label"]).map(
            ops, input_columns=["image"], device="GPU").batch(4).plan()
    if why is not None:
        assert not plan.fired("gpu_batch"), names
        return "refused"
    assert plan.fired("gpu_batch"), names
    want, got = run(path, ops, None), run(path, ops, "GPU")
    if isinstance(want, Exception) or isinstance(got, Exception):
        assert isinstance(want, Exception) and isinstance(got, Exception), (names, want, got)
        # the same op's error (its name opens the cause's message on both paths)
        cause = [str(e).rsplit("RuntimeError: ", 1)[-1].split(":")[0] for e in (want, got)]
        assert cause[0] == cause[1], (names, str(want), str(got))
        return "both failed"
    assert len(got) == len(want), names
    for image, expected in zip(got, want):
        assert (image.dtype, image.shape) == (expected.dtype, expected.shape), names
        if expected.dtype == np.bool_:
            # a value one level from zero turns its bool: a few may differ, not many
            assert (image != expected).mean() <= 0.02, names
            continue
        largest = np.abs(image.astype(np.float64) - expected.astype(np.float64)).max()
        assert largest <= tolerance(ops, expected), (names, largest)
    return "equal"


def gpu_run(ops, datas, seeds, decoder=None, **options):
    """GpuRun's batch, or the exception it raised (a RowError: its cause)."""
    try:
        return GpuRun(ops, torch.device("cpu"), decoder, **options)(datas, seeds)
    except RowError as exc:
        return exc.__cause__
    except Exception as exc:        # compared with the other run's below
        return exc


def device_decoders(pool):
    """(name, decoder, GpuRun's options, whether the batch of JPEGs is decoded whole in one
    call) of each way of decoding on the device."""
    nvjpeg = NvJpegDecoder(StandInNvJpeg(), torch)
    split = DecodeSplit(2)
    split.cpu_rows = lambda n: n // 2           # the measured rates' share, pinned
    return [("nvjpeg", OnTheCpu(nvjpeg), {}, True),
            ("nvjpeg with a CPU share", OnTheCpu(nvjpeg), {"split": split, "cpu_pool": pool},
             False),
            ("regions", RegionStandIn(), {"regions": True}, False)]


def check_decoders(images, ops, seed):
    """The chain through GpuRun with each device decoder equals GpuRun without one: a batch
    of JPEGs, and one with the PNG among them (decoded on the CPU in the same batch)."""
    if run_refusal("GPU", ops) is not None:
        return
    r = random.Random(seed)
    png = len(images) - 1
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for with_png in (False, True):
            picked = r.sample(range(png), 5 - with_png) + [png] * with_png
            r.shuffle(picked)
            datas = [np.frombuffer(images[i], np.uint8) for i in picked]
            seeds = [[r.randrange(1 << 32) for _ in datas] for _ in ops]
            want = gpu_run(ops, datas, seeds)
            for name, decoder, options, whole in device_decoders(pool):
                got = gpu_run(ops, datas, seeds, decoder, **options)
                if isinstance(want, Exception) or isinstance(got, Exception):
                    assert type(want) is type(got) and str(want) == str(got), \
                        (name, ops, want, got)
                else:
                    assert got.dtype == want.dtype and torch.equal(got, want), (name, ops)
                if whole:       # the JPEGs alone were staged and decoded whole, in one call
                    assert len(decoder.flats) == (not with_png), ops


@pytest.mark.parametrize("seed", range(48))
def test_random_chains_agree_with_the_cpu_path(mr_path, images, seed):
    ops = random_chain(random.Random(seed))
    check_chain(mr_path, ops)
    check_decoders(images, ops, seed)


@pytest.mark.slow
def test_many_random_chains_agree_with_the_cpu_path(mr_path, images):
    outcomes = []
    for seed in range(1000, 3000):
        ops = random_chain(random.Random(seed))
        outcomes.append(check_chain(mr_path, ops))
        check_decoders(images, ops, seed)
    assert outcomes.count("equal") > 1000, {k: outcomes.count(k) for k in set(outcomes)}
