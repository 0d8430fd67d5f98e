"""Many threads on one op object give the same results as one thread."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import transforms_c
from transforms_c.vision import (Decode, HWC2CHW, Normalize, RandomCropDecodeResize,
                                 RandomHorizontalFlip, RandomResizedCrop, Resize)

from tests.transforms_c.tc_samples import natural_rgb, sample_jpeg

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]


def _run_parallel(fn, items, workers=8):
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))


def test_fused_plan_from_many_threads():
    (plan,) = transforms_c.compile_operations(
        [Decode(), RandomResizedCrop(40), RandomHorizontalFlip(), Normalize(MEAN, STD),
         HWC2CHW()])
    datas = [sample_jpeg(100 + 3 * (i % 5), 120 + 7 * (i % 3), i % 2) for i in range(40)]
    serial = [plan.apply((d,), i)[0] for i, d in enumerate(datas)]
    parallel = _run_parallel(lambda i: plan.apply((datas[i],), i)[0], range(40))
    for a, b in zip(serial, parallel):
        assert np.array_equal(a, b)


def test_decode_and_resize_from_many_threads():
    decode, resize = Decode(), Resize((33, 44))
    data = sample_jpeg()
    expect = resize(decode(data))
    outs = _run_parallel(lambda _: resize(decode(data)), range(64))
    assert all(np.array_equal(o, expect) for o in outs)


def test_crop_decode_resize_with_failures_in_other_threads():
    op = RandomCropDecodeResize(24, scale=(1.0, 1.0))  # whole image: truncation always shows
    good = sample_jpeg()
    bad = good[:len(good) // 3].copy()

    def work(i):
        if i % 2:
            try:
                op.apply((bad,), i)
            except RuntimeError:
                return "error"
            return "no error"
        return op.apply((good,), i)[0]

    results = _run_parallel(work, range(48))
    assert all(isinstance(r, str) and r == "error" for r in results[1::2])
    for i in range(0, 48, 2):
        assert np.array_equal(results[i], op.apply((good,), i)[0])


def test_eager_random_calls_from_threads_do_not_fail():
    op = RandomResizedCrop(16)
    img = natural_rgb()
    outs = _run_parallel(lambda _: op(img), range(64))
    assert all(o.shape == (16, 16, 3) for o in outs)
