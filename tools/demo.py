"""The main job, end to end: make a small image dataset, convert it to MindRecord, read it back
through a training pipeline, and print the throughput of each step.

    .venv/bin/python tools/demo.py [--images 1000] [--out out/demo]
"""
import argparse
import os
import shutil
import sys
import time

import cv2
import numpy as np


def make_image_folder(root, num_images, num_classes=8, seed=0):
    """Class folders of JPEGs with smooth, photo-like content (gradients + blobs + noise)."""
    rng = np.random.default_rng(seed)
    if os.path.isdir(root):
        shutil.rmtree(root)
    for i in range(num_images):
        label = i % num_classes
        h, w = int(rng.integers(300, 480)), int(rng.integers(360, 560))
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        base = rng.uniform(0, 255, size=3).astype(np.float32)
        img = base + 80 * np.sin(xx[..., None] / rng.uniform(20, 90) + rng.uniform(0, 6, 3))
        img += 60 * np.cos(yy[..., None] / rng.uniform(20, 90))
        img += rng.normal(0, 6, size=img.shape)
        folder = os.path.join(root, f"class_{label:02d}")
        os.makedirs(folder, exist_ok=True)
        ok, buf = cv2.imencode(".jpg", np.clip(img, 0, 255).astype(np.uint8),
                               [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        with open(os.path.join(folder, f"img_{i:05d}.jpg"), "wb") as f:
            f.write(buf.tobytes())


def convert(image_root, mr_path, shards):
    from mindrecord import FileWriter
    rows = []
    for label, cls in enumerate(sorted(os.listdir(image_root))):
        for name in sorted(os.listdir(os.path.join(image_root, cls))):
            with open(os.path.join(image_root, cls, name), "rb") as f:
                rows.append({"file_name": f"{cls}/{name}", "label": label, "image": f.read()})
    start = time.perf_counter()
    writer = FileWriter(mr_path, shard_num=shards, overwrite=True)
    writer.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
                       "image": {"type": "bytes"}}, "demo images")
    writer.add_index(["file_name", "label"])
    writer.write_raw_data(rows, parallel_writer=True)
    writer.commit()
    seconds = time.perf_counter() - start
    nbytes = sum(len(r["image"]) for r in rows)
    print(f"convert : {len(rows)} rows -> {shards} shards in {seconds:.2f} s: "
          f"{len(rows) / seconds:,.0f} rows/s, {nbytes / seconds / 1e6:,.0f} MB/s")
    return len(rows)


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
    return 0


if __name__ == "__main__":
    sys.exit(main())
