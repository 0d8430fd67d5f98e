"""Train a torchvision ResNet-18 for a few steps on the demo data, fed by a minddata pipeline
through minddata.pytorch.to_torch and a torch DataLoader. Without torchvision, a small CNN
stands in for the ResNet.

    .venv/bin/python examples/train_resnet18_torch.py [--steps 8] [--batch-size 16]
                                                      [--workers 2] [--size 224]
    .venv/bin/torchrun --nproc_per_node 2 examples/train_resnet18_torch.py   # data parallel

The demo data is tools/demo.py's: class folders of JPEGs converted to MindRecord. If
out/demo/demo.mindrecord0 (what `make demo` leaves) is missing, a small set is made first.
"""
import argparse
import functools
import os
import sys
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import minddata as ds  # noqa: E402
import minddata.vision as vision  # noqa: E402
from minddata.pytorch import to_torch  # noqa: E402

MEAN = [123.675, 116.28, 103.53]
STD = [58.395, 57.12, 57.375]
NUM_CLASSES = 8  # tools/demo.py makes 8 class folders


def demo_data(path, num_images):
    """The first shard of the demo MindRecord set; made with tools/demo.py if missing."""
    if os.path.exists(path):
        return path
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import demo
    out = os.path.dirname(path)
    demo.make_image_folder(os.path.join(out, "images"), num_images)
    demo.convert(os.path.join(out, "images"), path[:-1], 4)  # demo.mindrecord0..3
    return path


def make_dataset(num_shards, shard_id, path, size, batch_size):
    """The train pipeline for one shard (to_torch calls this once per rank and worker)."""
    data = ds.MindDataset(path, columns_list=["image", "label"], shuffle=True,
                          num_shards=num_shards, shard_id=shard_id, num_parallel_workers=2)
    data = data.map([vision.Decode(), vision.RandomResizedCrop(size),
                     vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD),
                     vision.HWC2CHW()], input_columns=["image"], num_parallel_workers=2)
    return data.batch(batch_size, drop_remainder=True)


def make_model():
    try:
        import torchvision
    except ImportError:
        return small_cnn(), "a small CNN (torchvision is not installed)"
    return torchvision.models.resnet18(num_classes=NUM_CLASSES), "torchvision ResNet-18"


def small_cnn():
    def block(cin, cout):
        return [torch.nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False),
                torch.nn.BatchNorm2d(cout), torch.nn.ReLU(inplace=True)]
    return torch.nn.Sequential(*block(3, 16), *block(16, 32), *block(32, 64), *block(64, 64),
                               torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
                               torch.nn.Linear(64, NUM_CLASSES))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(ROOT, "out", "demo", "demo.mindrecord0"))
    parser.add_argument("--images", type=int, default=256, help="demo images to make if needed")
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--size", type=int, default=224)
    parser.add_argument("--workers", type=int, default=2, help="DataLoader worker processes")
    args = parser.parse_args(argv)

    distributed = "RANK" in os.environ  # started by torchrun
    if distributed:
        torch.distributed.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
    rank = torch.distributed.get_rank() if distributed else 0
    if rank == 0:
        demo_data(args.data, args.images)
    if distributed:
        torch.distributed.barrier()  # the data exists before any rank reads it
    device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", 0))) \
        if torch.cuda.is_available() else torch.device("cpu")

    ds.config.set_seed(0)
    # to_torch is made after init_process_group: it shards by rank, then by DataLoader worker.
    train = to_torch(functools.partial(make_dataset, path=args.data, size=args.size,
                                       batch_size=args.batch_size))
    loader = torch.utils.data.DataLoader(train, batch_size=None, num_workers=args.workers,
                                         pin_memory=device.type == "cuda",
                                         persistent_workers=args.workers > 0)
    model, name = make_model()
    model = model.to(device)
    if distributed:
        model = torch.nn.parallel.DistributedDataParallel(
            model, device_ids=[device.index] if device.type == "cuda" else None)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    if rank == 0:
        print(f"training {name} on {device} for {args.steps} steps, batch {args.batch_size}, "
              f"{args.size}x{args.size}, {args.workers} DataLoader workers", flush=True)

    step, epoch, images, start = 0, 0, 0, time.perf_counter()
    while step < args.steps:
        train.set_epoch(epoch)  # each epoch its own shuffle and augmentations
        for image, label in loader:
            image = image.to(device, non_blocking=True)
            label = label.to(device, non_blocking=True).long()
            loss = loss_fn(model(image), label)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            step += 1
            images += image.shape[0]
            if rank == 0:
                print(f"epoch {epoch} step {step}: loss {loss.item():.4f}", flush=True)
            if step == args.steps:
                break
        epoch += 1
    seconds = time.perf_counter() - start
    if rank == 0:
        print(f"{step} steps, {images} images in {seconds:.1f} s: {images / seconds:,.1f} "
              f"images/s per rank", flush=True)
    if distributed:
        torch.distributed.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
