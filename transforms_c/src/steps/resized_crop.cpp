// transforms_c/vision/resized_crop.py: RandomResizedCrop, and RandomCropDecodeResize (the first
// op of its plan, decoding only the crop's region of a JPEG).
#include <algorithm>
#include <cmath>

#include "native_step.h"

namespace mdt {
namespace {

class RandomResizedCropStep : public NativeStep {
  public:
    explicit RandomResizedCropStep(const StepArgs& args)
        : size_h_(args.integer("size_h")), size_w_(args.integer("size_w")),
          interp_(args.integer("interp")), max_attempts_(args.integer("max_attempts")),
          approximate_(args.flag("approximate")) {
        const std::vector<double> scale = args.numbers("scale", 2);
        const std::vector<double> ratio = args.numbers("ratio", 2);
        scale_lo_ = scale[0];
        scale_hi_ = scale[1];
        ratio_lo_ = ratio[0];
        ratio_hi_ = ratio[1];
    }
    void fold(uint64_t seed, int, Geometry* geo, PassParams*) const override {
        if (geo->resized) throw Unfoldable();
        const auto hw = geo->current_hw();
        Rng rng(seed);
        long long top, left, crop_h, crop_w;
        crop_box(hw.first, hw.second, rng, &top, &left, &crop_h, &crop_w);
        geo->crop(top, left, crop_h, crop_w);
        geo->resize(size_h_, size_w_, interp_, approximate_);
    }
    void infer(ImageShape* shape) const override {
        shape->height = size_h_;
        shape->width = size_w_;
    }

  private:
    // transforms_c.vision.resized_crop.random_resized_crop_box (MindSpore's arithmetic: C rounding)
    void crop_box(int height, int width, Rng& rng, long long* top, long long* left,
                  long long* crop_h, long long* crop_w) const {
        const long long area = static_cast<long long>(height) * width;
        const double log_lo = std::log(ratio_lo_), log_hi = std::log(ratio_hi_);
        for (int attempt = 0; attempt < max_attempts_; ++attempt) {
            const double target = rng.uniform(scale_lo_, scale_hi_) * static_cast<double>(area);
            const double aspect = std::exp(rng.uniform(log_lo, log_hi));
            const long long w = std::max<long long>(1, std::llround(std::sqrt(target * aspect)));
            const long long h = std::max<long long>(1, std::llround(w / aspect));
            if (w <= width && h <= height) {
                *left = rng.randint(0, width - w);
                *top = rng.randint(0, height - h);
                *crop_h = h;
                *crop_w = w;
                return;
            }
        }
        // No attempt fitted: the largest central crop within the ratio bounds.
        const double in_ratio = static_cast<double>(width) / static_cast<double>(height);
        long long w = width, h = height;
        if (in_ratio < ratio_lo_) {
            h = std::min<long long>(height, std::max<long long>(1, std::llround(w / ratio_lo_)));
        } else if (in_ratio > ratio_hi_) {
            w = std::min<long long>(width, std::max<long long>(1, std::llround(h * ratio_hi_)));
        }
        // centred as MindSpore centres it: rounded half up
        *top = (height - h + 1) / 2;
        *left = (width - w + 1) / 2;
        *crop_h = h;
        *crop_w = w;
    }

    int size_h_, size_w_, interp_, max_attempts_;
    bool approximate_;
    double scale_lo_, scale_hi_, ratio_lo_, ratio_hi_;
};

const RegisterStep kRandomResizedCrop(
    "random_resized_crop", [](const StepArgs& a) -> std::unique_ptr<NativeStep> {
        return std::make_unique<RandomResizedCropStep>(a);
    });

}  // namespace
}  // namespace mdt
