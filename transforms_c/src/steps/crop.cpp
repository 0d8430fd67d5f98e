// transforms_c/vision/crop.py: Crop, CenterCrop, RandomCrop (without padding: a crop larger than
// the image pads, which only the ops themselves do).
#include "native_step.h"

namespace mdt {
namespace {

// The crop size every step here declares (positive: the ops' schemas declare its range).
struct CropSize {
    int height, width;
    explicit CropSize(const StepArgs& args)
        : height(args.integer("size_h")), width(args.integer("size_w")) {}
    void infer(ImageShape* shape) const {
        shape->height = height;
        shape->width = width;
    }
    // Whether the crop fits inside the image as folded so far (else the op pads).
    bool fits(const Geometry& geo) const {
        const auto hw = geo.current_hw();
        return height <= hw.first && width <= hw.second;
    }
};

class CropStep : public NativeStep {
  public:
    explicit CropStep(const StepArgs& args)
        : size_(args), top_(args.integer("top")), left_(args.integer("left")) {}
    void fold(uint64_t, int, Geometry* geo, PassParams*) const override {
        geo->crop(top_, left_, size_.height, size_.width);
    }
    void infer(ImageShape* shape) const override { size_.infer(shape); }

  private:
    CropSize size_;
    int top_, left_;
};

class CenterCropStep : public NativeStep {
  public:
    explicit CenterCropStep(const StepArgs& args) : size_(args) {}
    void fold(uint64_t, int, Geometry* geo, PassParams*) const override {
        if (!size_.fits(*geo)) throw Unfoldable();
        const auto hw = geo->current_hw();
        geo->crop((hw.first - size_.height) / 2, (hw.second - size_.width) / 2, size_.height,
                  size_.width);
    }
    void infer(ImageShape* shape) const override { size_.infer(shape); }

  private:
    CropSize size_;
};

class RandomCropStep : public NativeStep {
  public:
    explicit RandomCropStep(const StepArgs& args) : size_(args) {}
    void fold(uint64_t seed, int channels, Geometry* geo, PassParams*) const override {
        // the op pads (by nothing too) before it crops, refusing images of other than 1 or 3
        // channels, as MindSpore's: its own check raises
        if (!size_.fits(*geo) || (channels != 1 && channels != 3)) throw Unfoldable();
        const auto hw = geo->current_hw();
        Rng rng(seed);
        const long long left = rng.randint(0, hw.second - size_.width);
        const long long top = rng.randint(0, hw.first - size_.height);
        geo->crop(top, left, size_.height, size_.width);
    }
    void infer(ImageShape* shape) const override { size_.infer(shape); }

  private:
    CropSize size_;
};

const RegisterStep kCrop("crop", [](const StepArgs& a) -> std::unique_ptr<NativeStep> {
    return std::make_unique<CropStep>(a);
});
const RegisterStep kCenterCrop("center_crop", [](const StepArgs& a) -> std::unique_ptr<NativeStep> {
    return std::make_unique<CenterCropStep>(a);
});
const RegisterStep kRandomCrop("random_crop", [](const StepArgs& a) -> std::unique_ptr<NativeStep> {
    return std::make_unique<RandomCropStep>(a);
});

}  // namespace
}  // namespace mdt
