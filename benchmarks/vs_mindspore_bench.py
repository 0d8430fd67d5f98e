"""Throughput of the standard pipelines, minddata against MindSpore 2.10, side by side.

Each workload runs in a fresh process, alternating minddata (this interpreter) and MindSpore (its
own venv, --mindspore-python, default /work/msvenv/bin/python) on the same data of
../shared/tools/make_bench_data.py. Timed: three epochs after the first batch (start-up excluded
for both), median of --repeats. Printed: images/s of each and the ratio, with the load average.

    W4 train       MindDataset, Decode, RandomResizedCrop(224), RandomHorizontalFlip, Normalize,
                   HWC2CHW, batch 128, 2 workers
    W6 imagefolder ImageFolderDataset + the train ops
    W7 eval        MindDataset, Decode, Resize(256), CenterCrop(224), Normalize, HWC2CHW
    W5 pil         ImageFolderDataset + the PIL ops (decode to PIL, crop, flip, ToTensor,
                   Normalize), 2 worker processes
    cifar64/224    in-memory 32x32 images: Resize(64 | 224), Rescale(1/255), Normalize, HWC2CHW,
                   batch 32 (the ResNet CIFAR-10 chain)

    python benchmarks/vs_mindspore_bench.py [--repeats 3] [--only train,eval]
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]
CIFAR_MEAN = [0.4914, 0.4822, 0.4465]
CIFAR_STD = [0.2470, 0.2435, 0.2616]
WORKLOADS = ["train", "imagefolder", "eval", "pil", "cifar64", "cifar224"]


def build(framework, name, paths):
    if framework == "mindspore":
        import mindspore.dataset as ds
        import mindspore.dataset.transforms as T
        import mindspore.dataset.vision as V
        pil_ops = [T.Compose([V.Decode(to_pil=True), V.RandomResizedCrop(224),
                              V.RandomHorizontalFlip(), V.ToTensor(),
                              V.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225],
                                          is_hwc=False)])]
    else:
        sys.path.insert(0, ROOT)
        import minddata as ds
        import minddata.vision as V
        from minddata.transforms import py_transforms as PT
        from minddata.vision import py_transforms as P
        pil_ops = [PT.Compose([P.Decode(), P.RandomResizedCrop(224), P.RandomHorizontalFlip(),
                               P.ToTensor(),
                               P.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])]
    train = [V.Decode(), V.RandomResizedCrop(224), V.RandomHorizontalFlip(),
             V.Normalize(MEAN, STD), V.HWC2CHW()]
    if name == "train":
        data = ds.MindDataset(paths["mindrecord"], num_parallel_workers=2, shuffle=True)
        ops, batch = train, 128
    elif name == "imagefolder":
        data = ds.ImageFolderDataset(paths["folder"], num_parallel_workers=2, shuffle=True)
        ops, batch = train, 128
    elif name == "eval":
        data = ds.MindDataset(paths["mindrecord"], num_parallel_workers=2, shuffle=False)
        ops = [V.Decode(), V.Resize(256), V.CenterCrop(224), V.Normalize(MEAN, STD), V.HWC2CHW()]
        batch = 128
    elif name == "pil":
        data = ds.ImageFolderDataset(paths["folder"], num_parallel_workers=2, shuffle=True)
        return data.map(pil_ops, input_columns=["image"], num_parallel_workers=2,
                        python_multiprocessing=True).batch(128, drop_remainder=True)
    else:
        import numpy as np
        size = int(name[len("cifar"):])
        images = np.load(paths["cifar_images"])[:paths["cifar_rows"][size]]
        labels = np.load(paths["cifar_labels"])[:len(images)].astype(np.int32)
        data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=True)
        ops = [V.Resize(size), V.Rescale(1.0 / 255.0, 0.0), V.Normalize(CIFAR_MEAN, CIFAR_STD),
               V.HWC2CHW()]
        batch = 32
    return data.map(ops, input_columns=["image"], num_parallel_workers=2).batch(
        batch, drop_remainder=True)


def measure(framework, name, paths, epochs=3):
    dataset = build(framework, name, paths)
    it = dataset.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    first = next(it)
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    images = 0
    for _ in range(epochs):     # one epoch per for loop (both frameworks)
        for batch in it:
            images += len(batch[0])
    elapsed = time.perf_counter() - t0
    del first
    return {"images_s": images / elapsed, "images": images,
            "cpu_s": time.process_time() - cpu0, "elapsed": elapsed}


def prepare(data_dir):
    sys.path.insert(0, HERE)
    from bench_data import ensure_bench_data, imagenet_rows, write_mindrecord
    ensure_bench_data(data_dir)
    path = os.path.join(data_dir, "vs_mindspore.mindrecord")
    if not os.path.exists(path):
        write_mindrecord(path, imagenet_rows(data_dir), "vs_mindspore", chunk=500)
    return {"mindrecord": path, "folder": os.path.join(data_dir, "imagenet", "train"),
            "cifar_images": os.path.join(data_dir, "cifar", "images.npy"),
            "cifar_labels": os.path.join(data_dir, "cifar", "labels.npy"),
            "cifar_rows": {"64": 10000, "224": 2048}}


def run_worker(python, framework, name, paths):
    from bench_data import run_measurement
    return run_measurement(__file__, framework, python, [name, json.dumps(paths)], timeout=1800)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default=",".join(WORKLOADS))
    parser.add_argument("--data", default=os.environ.get("MINDDATA_BENCH_DATA", "/tmp/bench-data"))
    parser.add_argument("--mindspore-python", default="/work/msvenv/bin/python")
    args = parser.parse_args(argv)
    paths = prepare(args.data)
    paths["cifar_rows"] = {int(k): v for k, v in paths["cifar_rows"].items()}
    frameworks = [("minddata", sys.executable)]
    if os.path.exists(args.mindspore_python):
        frameworks.append(("mindspore", args.mindspore_python))
    else:
        print(f"MindSpore interpreter {args.mindspore_python} absent: minddata only")
    print(f"load average before: {tuple(round(x, 2) for x in os.getloadavg())}", flush=True)
    for name in args.only.split(","):
        figures = {fw: [] for fw, _ in frameworks}
        for _ in range(args.repeats):
            for fw, python in frameworks:
                figures[fw].append(run_worker(python, fw, name, paths)["images_s"])
        med = {fw: sorted(v)[len(v) // 2] for fw, v in figures.items()}
        line = f"{name:12s} minddata {med['minddata']:8.1f} img/s"
        if "mindspore" in med:
            line += (f"   MindSpore {med['mindspore']:8.1f} img/s   ratio "
                     f"{med['minddata'] / med['mindspore']:5.2f}x")
        print(line + f"   (runs: {figures})", flush=True)
    print(f"load average after: {tuple(round(x, 2) for x in os.getloadavg())}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        fw, name, paths = sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
        paths["cifar_rows"] = {int(k): v for k, v in paths["cifar_rows"].items()}
        print(json.dumps(measure(fw, name, paths)))
    else:
        main()
