"""Mixed precision and loss scaling for torch networks, by MindSpore's amp levels
('auto' is O2 on CUDA and O0 on the CPU): O0 float32; O1 and O2 run the forward pass and the loss under torch.autocast (float16 on CUDA,
bfloat16 on the CPU, whose autocast has no float16 matmul), O2 with dynamic loss scaling by
default, as MindSpore on GPU; O3 casts the whole network (and its float inputs) to that type.
A FixedLossScaleManager multiplies the loss and divides the gradients by a constant (skipping
steps that overflow when drop_overflow_update); a DynamicLossScaleManager maps onto
torch.amp.GradScaler with its init_loss_scale, scale_factor and scale_window."""
import contextlib

from training.amp import DynamicLossScaleManager, FixedLossScaleManager


class TorchAmp:
    def __init__(self, torch, device, amp_level, loss_scale_manager):
        self.torch, self.device = torch, device
        if amp_level == "auto":  # MindSpore's choice per device: O2 on GPU, O0 on the CPU
            amp_level = "O2" if device.type == "cuda" else "O0"
        self.level = amp_level
        self.dtype = torch.float16 if device.type == "cuda" else torch.bfloat16
        if loss_scale_manager is None and amp_level == "O2" and device.type == "cuda":
            loss_scale_manager = DynamicLossScaleManager()
        self.manager = loss_scale_manager
        self.scaler = None
        if isinstance(loss_scale_manager, DynamicLossScaleManager):
            self.scaler = torch.amp.GradScaler(
                device.type, init_scale=loss_scale_manager.get_loss_scale(),
                growth_factor=loss_scale_manager.scale_factor,
                backoff_factor=1.0 / loss_scale_manager.scale_factor,
                growth_interval=loss_scale_manager.scale_window)
            loss_scale_manager.follow(self.scaler.get_scale)

    def prepare_network(self, network):
        return network.to(self.dtype) if self.level == "O3" else network

    def cast_inputs(self, batch):
        if self.level != "O3":
            return batch
        return tuple(t.to(self.dtype) if isinstance(t, self.torch.Tensor)
                     and t.is_floating_point() else t for t in batch)

    def autocast(self, cache=True):
        if self.level not in ("O1", "O2"):
            return contextlib.nullcontext()
        return self.torch.autocast(device_type=self.device.type, dtype=self.dtype,
                                   cache_enabled=cache)

    def backward(self, loss):
        """Backward pass of the (scaled) loss."""
        if self.scaler is not None:
            self.scaler.scale(loss).backward()
        elif isinstance(self.manager, FixedLossScaleManager):
            (loss * self.manager.get_loss_scale()).backward()
        else:
            loss.backward()

    def step(self, optimizer):
        """Unscale the gradients and update, unless a checked scale saw them overflow."""
        if self.scaler is not None:
            self.scaler.step(optimizer)  # skipped when the gradients overflowed
            self.scaler.update()
            return
        if isinstance(self.manager, FixedLossScaleManager):
            scale = self.manager.get_loss_scale()
            grads = [p.grad for group in optimizer.param_groups for p in group["params"]
                     if p.grad is not None]
            for g in grads:
                g.div_(scale)
            if self.manager.get_drop_overflow_update() and not all(
                    bool(self.torch.isfinite(g).all()) for g in grads):
                return
        optimizer.step()
