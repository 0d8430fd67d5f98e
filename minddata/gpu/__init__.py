"""Maps placed on the GPU (``op.device("GPU")``, ``map(..., device="GPU")``): the planner's
gpu_batch rule (minddata/planner/rules/gpu_batch.py) runs ``Batch(Map(Source))`` chains whose
map is a decode-and-augment run as one GPU batch node (minddata/engine/gpu_batch.py).

- plan.py: which ops and runs have GPU kernels (no torch import);
- backend.py: the torch device ("cuda", or "cpu" to run the same code without a GPU), the JPEG
  decoder (torchvision's decode_jpeg, nvjpeg_decoder.py or nvimgcodec_decoder.py), the
  workers' stream priority and why none is usable;
- batch.py: the batch computation in torch (region decode of the crop windows where asked);
- resample_kernel.py: its crop-and-resize as one Triton kernel on CUDA;
- decode_split.py: the share of each batch's JPEG rows CPU threads decode beside the GPU;
- host_copy.py: host arrays to the device without waiting for the stream;
- decoded_batch.py: a batch decoded into one device buffer (the direct nvJPEG decoder's).
"""
from .backend import get_cpu_decode_threads, get_device, get_hardware_decode_share, \
    get_jpeg_decoder, get_region_decode, get_stream_priority, set_cpu_decode_threads, \
    set_device, set_hardware_decode_share, set_jpeg_decoder, set_region_decode, \
    set_stream_priority, unavailable

__all__ = ["get_cpu_decode_threads", "get_device", "get_hardware_decode_share",
           "get_jpeg_decoder", "get_region_decode", "get_stream_priority",
           "set_cpu_decode_threads", "set_device", "set_hardware_decode_share",
           "set_jpeg_decoder", "set_region_decode", "set_stream_priority", "unavailable"]
