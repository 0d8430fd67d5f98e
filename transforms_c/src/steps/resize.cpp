// transforms_c/vision/resize.py: Resize with a native interpolation.
#include <algorithm>
#include <cmath>

#include "native_step.h"

namespace mdt {
namespace {

class ResizeStep : public NativeStep {
  public:
    // keep_ratio: resize the shorter side to size_h (== size_w), keeping the aspect ratio.
    explicit ResizeStep(const StepArgs& args)
        : size_h_(args.integer("size_h")), size_w_(args.integer("size_w")),
          interp_(args.integer("interp")), keep_ratio_(args.flag("keep_ratio")) {}
    void fold(uint64_t, int, Geometry* geo, PassParams*) const override {
        const auto hw = geo->current_hw();
        const auto out = resized_shape(hw.first, hw.second);
        geo->resize(out.first, out.second, interp_, false);
    }
    void infer(ImageShape* shape) const override {
        if (keep_ratio_ && shape->height < 0) return;   // the image's aspect ratio decides
        const auto out = resized_shape(shape->height, shape->width);
        shape->height = out.first;
        shape->width = out.second;
    }

  private:
    // transforms_c.vision.resize.resized_shape (float32 arithmetic, as MindSpore).
    std::pair<int, int> resized_shape(int height, int width) const {
        if (!keep_ratio_) return {size_h_, size_w_};
        const float size = static_cast<float>(size_h_);
        if (height < width) {
            const float other = static_cast<float>(width) / static_cast<float>(height) * size;
            return {size_h_, std::max(1, static_cast<int>(std::floor(other)))};
        }
        const float other = static_cast<float>(height) / static_cast<float>(width) * size;
        return {std::max(1, static_cast<int>(std::floor(other))), size_h_};
    }

    int size_h_, size_w_, interp_;
    bool keep_ratio_;
};

const RegisterStep kResize("resize", [](const StepArgs& a) -> std::unique_ptr<NativeStep> {
    return std::make_unique<ResizeStep>(a);
});

}  // namespace
}  // namespace mdt
