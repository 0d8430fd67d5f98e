// transforms_c/vision/normalize.py: Normalize and Rescale (the pass's pointwise op, in float32;
// a Normalize after a Rescale folds into the same pass) and HWC2CHW (the pass's output layout).
#include "native_step.h"

namespace mdt {
namespace {

class NormalizeStep : public NativeStep {
  public:
    // a: mean, b: std (one value broadcasts over the channels).
    explicit NormalizeStep(const StepArgs& args)
        : mean_(to_floats(args.numbers("a", -1))), std_(to_floats(args.numbers("b", -1))) {}
    void fold(uint64_t, int channels, Geometry*, PassParams* pss) const override {
        // After a Rescale: both in one pass, one after the other in float32.
        const bool after_rescale = pss->point == POINT_RESCALE;
        pss->point = after_rescale ? POINT_RESCALE_NORMALIZE : POINT_NORMALIZE;
        if (!per_channel(mean_, channels, after_rescale ? &pss->p2 : &pss->p0) ||
            !per_channel(std_, channels, after_rescale ? &pss->p3 : &pss->p1))
            throw Unfoldable();
    }
    void infer(ImageShape* shape) const override { shape->float_output = true; }

  private:
    static std::vector<float> to_floats(const std::vector<double>& v) {
        return std::vector<float>(v.begin(), v.end());
    }

    std::vector<float> mean_, std_;
};

class RescaleStep : public NativeStep {
  public:
    // a: rescale, b: shift.
    explicit RescaleStep(const StepArgs& args)
        : rescale_(static_cast<float>(args.number("a"))),
          shift_(static_cast<float>(args.number("b"))) {}
    void fold(uint64_t, int channels, Geometry*, PassParams* pss) const override {
        pss->point = POINT_RESCALE;
        pss->p0.assign(channels, rescale_);
        pss->p1.assign(channels, shift_);
    }
    void infer(ImageShape* shape) const override { shape->float_output = true; }

  private:
    float rescale_, shift_;
};

class Hwc2ChwStep : public NativeStep {
  public:
    void fold(uint64_t, int, Geometry*, PassParams* pss) const override { pss->chw = true; }
    void infer(ImageShape* shape) const override { shape->chw = true; }
};

const RegisterStep kNormalize("normalize", [](const StepArgs& a) -> std::unique_ptr<NativeStep> {
    return std::make_unique<NormalizeStep>(a);
});
const RegisterStep kRescale("rescale", [](const StepArgs& a) -> std::unique_ptr<NativeStep> {
    return std::make_unique<RescaleStep>(a);
});
const RegisterStep kHwc2Chw("hwc2chw", [](const StepArgs&) -> std::unique_ptr<NativeStep> {
    return std::make_unique<Hwc2ChwStep>();
});

}  // namespace
}  // namespace mdt
