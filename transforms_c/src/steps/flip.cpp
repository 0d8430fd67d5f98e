// transforms_c/vision/flip.py: RandomHorizontalFlip, RandomVerticalFlip, HorizontalFlip,
// VerticalFlip (prob 1). The pass mirrors as it writes, so a flip costs nothing per pixel.
#include "native_step.h"

namespace mdt {
namespace {

class FlipStep : public NativeStep {
  public:
    explicit FlipStep(const StepArgs& args) : axis_(args.integer("axis")), prob_(args.number("prob")) {
        if (axis_ != 0 && axis_ != 1) args.fail("axis must be 0 (horizontal) or 1 (vertical)");
        if (prob_ < 0.0 || prob_ > 1.0) args.fail("prob must be in [0, 1]");
    }
    void fold(uint64_t seed, int, Geometry*, PassParams* pss) const override {
        // A sure flip draws nothing, as the op's Python fold.
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
