"""How each GPU JPEG decoder behaves beside training (issue 22's sink gap): its rate alone with
1 and 4 host threads (each thread its own decoder and CUDA stream), the rows it refuses, and
both rates when it decodes flat out beside a saturating GPU load (fp16 matmuls on their own
stream). A decoder that needs no CUDA cores keeps its rate there; one that launches CUDA work
waits behind the load's kernels (on the H200 every decoder did: README, "On a GPU").

    python tools/probe_gpu_decoders.py [--data DIR] [--seconds S] [--batch N]
                                       [--priority normal|high]

Needs an NVIDIA GPU, a CUDA torch and torchvision; nvImageCodec where installed.
"""
import argparse
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks"))


def say(text):
    print(text, flush=True)


def load_jpegs(data):
    from bench_data import ensure_bench_data, imagenet_files
    root = ensure_bench_data(data)
    out = []
    for rel, _ in imagenet_files(root):
        with open(os.path.join(root, "imagenet", "train", rel), "rb") as f:
            out.append(f.read())
    return out


def torchvision_decoder(torch):
    from torchvision.io import ImageReadMode, decode_jpeg

    def make():
        def decode(batch, stream):
            tensors = [torch.frombuffer(bytearray(b), dtype=torch.uint8) for b in batch]
            with torch.cuda.stream(stream):
                return decode_jpeg(tensors, mode=ImageReadMode.RGB, device="cuda")
        return decode
    return make


def nvjpeg_decoder(torch):
    """minddata's direct nvJPEG decoder (gpu.set_jpeg_decoder("nvjpeg")), rows page-locked."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from minddata.gpu.nvjpeg_decoder import NvJpegDecoder
    decoder = NvJpegDecoder.create()

    def make():
        def decode(batch, stream):
            tensors = [torch.frombuffer(bytearray(b), dtype=torch.uint8).pin_memory()
                       for b in batch]
            with torch.cuda.stream(stream):
                return decoder(tensors, torch.device("cuda"))
        return decode
    return make


def nvimgcodec_decoder(backends, cpu_threads):
    from nvidia import nvimgcodec as codec
    params = codec.DecodeParams(apply_exif_orientation=False, color_spec=codec.ColorSpec.SRGB,
                                sample_format=codec.P_RGB)

    def make():
        chosen = [codec.Backend(getattr(codec, name)) for name in backends]
        decoder = codec.Decoder(device_id=0, max_num_cpu_threads=cpu_threads, backends=chosen)

        def decode(batch, stream):
            streams = [codec.CodeStream(b) for b in batch]
            return decoder.decode(streams, params=params, cuda_stream=stream.cuda_stream)
        return decode
    return make


def run_decoders(torch, make, jpegs, batch, threads, seconds, stop_at=None, priority=0):
    """images/s of ``threads`` threads decoding batches for ``seconds`` (each on a stream of
    ``priority``: 0 normal, -1 high); refused rows."""
    counts, refused, errors = [0] * threads, [0] * threads, []
    start = time.perf_counter()
    deadline = stop_at or start + seconds

    def work(i):
        try:
            decode, stream = make(), torch.cuda.Stream(priority=priority)
            k = i * batch
            while time.perf_counter() < deadline:
                rows = [jpegs[(k + j) % len(jpegs)] for j in range(batch)]
                k += batch * threads
                images = decode(rows, stream)
                stream.synchronize()
                refused[i] += sum(image is None for image in images) + batch - len(images)
                counts[i] += batch
        except Exception as exc:        # reported, the other configurations go on
            errors.append(f"{type(exc).__name__}: {exc}")
    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - start
    return sum(counts) / elapsed, sum(refused), errors


def matmul_rate(torch, seconds, stop=None):
    """TFLOP/s of back-to-back fp16 8192^3 matmuls on their own stream."""
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
    stream = torch.cuda.Stream()
    done, start = 0, time.perf_counter()
    with torch.cuda.stream(stream):
        while time.perf_counter() - start < seconds and not (stop and stop.is_set()):
            for _ in range(4):
                a @ b
            stream.synchronize()
            done += 4
    return done * 2 * 8192 ** 3 / (time.perf_counter() - start) / 1e12


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.environ.get("MINDDATA_BENCH_DATA", "/tmp/bench-data"))
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--priority", choices=("normal", "high"), default="normal",
                    help="the decoding threads' CUDA stream priority")
    args = ap.parse_args(argv)
    priority = -1 if args.priority == "high" else 0
    import torch
    if not torch.cuda.is_available():
        say("SKIP: CUDA is not available")
        return 0
    jpegs = load_jpegs(args.data)
    say(f"GPU {torch.cuda.get_device_name(0)}, {os.cpu_count()} cores, {len(jpegs)} JPEGs")
    makers = {"torchvision": lambda: torchvision_decoder(torch),
              "nvjpeg direct": lambda: nvjpeg_decoder(torch)}
    for label, backends in (("nvimgcodec hardware only", ["HW_GPU_ONLY"]),
                            ("nvimgcodec CUDA only", ["GPU_ONLY"]),
                            ("nvimgcodec hardware then CUDA", ["HW_GPU_ONLY", "GPU_ONLY"])):
        makers[label] = (lambda b: lambda: nvimgcodec_decoder(b, 1))(backends)
    usable = {}
    for label, maker in makers.items():
        try:
            make = maker()
        except Exception as exc:
            say(f"{label}: does not load: {type(exc).__name__}: {exc}")
            continue
        usable[label] = make
        for threads in (1, 4):
            rate, refused, errors = run_decoders(torch, make, jpegs, args.batch, threads,
                                                 args.seconds, priority=priority)
            say(f"alone: {label}, {threads} thread(s): {rate:,.0f} img/s, {refused} rows "
                f"refused{'; errors: ' + errors[0] if errors else ''}")
    alone = matmul_rate(torch, args.seconds)
    say(f"matmuls alone: {alone:.0f} TFLOP/s")
    for label, make in usable.items():
        stop, result = threading.Event(), {}
        side = threading.Thread(target=lambda: result.update(
            tflops=matmul_rate(torch, args.seconds + 1, stop)))
        side.start()
        time.sleep(0.3)
        rate, refused, errors = run_decoders(torch, make, jpegs, args.batch, 4, args.seconds,
                                             priority=priority)
        stop.set()
        side.join()
        say(f"beside matmuls: {label}, 4 threads: {rate:,.0f} img/s; matmuls "
            f"{result['tflops']:.0f} TFLOP/s = {result['tflops'] / alone:.0%} of alone"
            f"{'; errors: ' + errors[0] if errors else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
