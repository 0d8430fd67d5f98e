// transforms_c/vision/flip.py: RandomHorizontalFlip, RandomVerticalFlip, HorizontalFlip,
// VerticalFlip (prob 1). The pass mirrors as it writes, so a flip costs nothing per pixel.
#include "native_step.h"

namespace mdt {
namespace {

class FlipStep : public NativeStep {
  public:
    // axis: 0 horizontal, 1 vertical; prob in [0, 1] (the flips' schemas).
    explicit FlipStep(const StepArgs& args)
        : axis_(args.integer("axis")), prob_(args.number("prob")) {}
    void fold(uint64_t seed, int, Geometry*, PassParams* pss) const override {
        // A sure flip (HorizontalFlip) draws nothing: every step has its own seed.
        if (prob_ < 1.0 && !(Rng(seed).random() < prob_)) return;
        if (axis_ == 0) pss->hflip = !pss->hflip;
        else pss->vflip = !pss->vflip;
    }

  private:
    int axis_;
    double prob_;
};

const RegisterStep kFlip("flip", [](const StepArgs& a) -> std::unique_ptr<NativeStep> {
    return std::make_unique<FlipStep>(a);
});

}  // namespace
}  // namespace mdt
