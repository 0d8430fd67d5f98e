"""The main job, end to end: make a small image dataset, convert it to MindRecord, read it back
through a training pipeline, and print the throughput of each step.

    .venv/bin/python tools/demo.py [--images 1000] [--out out/demo]
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

import cv2
import numpy as np


def make_image_folder(root, num_images, num_classes=8, seed=0):
    """Class folders of JPEGs with photo-like content: random windows of a smooth colour
    texture, tinted per image, with sensor-like noise; about 470x400 like the benchmark data."""
    rng = np.random.default_rng(seed)
    if os.path.isdir(root):
        shutil.rmtree(root)
    yy, xx = np.mgrid[0:1024, 0:1024].astype(np.float32)
    texture = np.stack([np.sin(xx / 53 + c) * 70 + np.cos(yy / 37 - c) * 50 + np.sin((xx + yy) / 91) * 30
                        for c in (0.0, 1.7, 3.1)], axis=-1) + 128
    for i in range(num_images):
        label = i % num_classes
        h, w = int(rng.integers(320, 480)), int(rng.integers(380, 560))
        y, x = int(rng.integers(0, 1024 - h)), int(rng.integers(0, 1024 - w))
        img = texture[y:y + h, x:x + w] * rng.uniform(0.6, 1.2, 3).astype(np.float32)
        img += rng.normal(0, 5, size=(h, w, 1)).astype(np.float32)
        folder = os.path.join(root, f"class_{label:02d}")
        os.makedirs(folder, exist_ok=True)
        ok, buf = cv2.imencode(".jpg", np.clip(img, 0, 255).astype(np.uint8),
                               [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        with open(os.path.join(folder, f"img_{i:05d}.jpg"), "wb") as f:
            f.write(buf.tobytes())


def convert(image_root, mr_path, shards):
    """The conversion door: the mindrecord-convert command (ImageFolderToMR underneath)."""
    command = [os.path.join(os.path.dirname(sys.executable), "mindrecord-convert"), "imagefolder",
               image_root, mr_path, "--shards", str(shards), "--overwrite", "--no-progress"]
    print("$ mindrecord-convert " + " ".join(command[1:]), flush=True)
    subprocess.run(command, check=True)


def read_raw(first_shard):
    import minddata as ds
    data = ds.MindDataset(first_shard, columns_list=["image", "label"], shuffle=False,
                          num_parallel_workers=2)
    start = time.perf_counter()
    n = nbytes = 0
    for image, _label in data.create_tuple_iterator(output_numpy=True, num_epochs=1):
        n += 1
        nbytes += image.nbytes
    seconds = time.perf_counter() - start
    print(f"read    : {n} rows, no transforms: {n / seconds:,.0f} rows/s, "
          f"{nbytes / seconds / 1e6:,.0f} MB/s")


def train_pipeline(first_shard, batch_size):
    import minddata as ds
    import minddata.vision.c_transforms as vision
    ds.config.set_seed(1)
    data = ds.MindDataset(first_shard, columns_list=["image", "label"], shuffle=True,
                          num_parallel_workers=2)
    data = data.map([vision.Decode(), vision.RandomResizedCrop(224),
                     vision.RandomHorizontalFlip(),
                     vision.Normalize(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375]),
                     vision.HWC2CHW()], input_columns=["image"], num_parallel_workers=2)
    data = data.batch(batch_size, drop_remainder=False)
    start = time.perf_counter()
    n = 0
    shape = None
    for image, _label in data.create_tuple_iterator(output_numpy=True, num_epochs=1):
        n += image.shape[0]
        shape = image.shape
    seconds = time.perf_counter() - start
    print(f"pipeline: Decode+RandomResizedCrop(224)+Flip+Normalize+HWC2CHW, batch {batch_size}: "
          f"{n} images in {seconds:.2f} s: {n / seconds:,.0f} images/s (last batch {shape})")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=1000)
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--out", default=os.path.join("out", "demo"))
    args = parser.parse_args(argv)
    image_root = os.path.join(args.out, "images")
    mr_path = os.path.join(args.out, "demo.mindrecord")
    os.makedirs(args.out, exist_ok=True)
    t = time.perf_counter()
    make_image_folder(image_root, args.images)
    print(f"data    : {args.images} JPEGs in {image_root} ({time.perf_counter() - t:.1f} s)")
    convert(image_root, mr_path, args.shards)
    first_shard = mr_path + ("0" if args.shards > 1 else "")
    read_raw(first_shard)
    train_pipeline(first_shard, args.batch_size)
    # The benchmarking door: the same train pipeline, with where the time goes.
    command = [os.path.join(os.path.dirname(sys.executable), "minddata-bench"), "imagenet-train",
               first_shard, "--batch-size", str(args.batch_size), "--no-progress"]
    print("$ minddata-bench " + " ".join(command[1:]), flush=True)
    subprocess.run(command, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
