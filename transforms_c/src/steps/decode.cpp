// transforms_c/vision/decode.py: Decode. The plan's input decides how a row is decoded (RowPlan),
// so the step itself changes nothing.
#include "native_step.h"

namespace mdt {
namespace {

class DecodeStep : public NativeStep {
  public:
    void fold(uint64_t, int, Geometry*, PassParams*) const override {}
};

const RegisterStep kDecode("decode", [](const StepArgs&) -> std::unique_ptr<NativeStep> {
    return std::make_unique<DecodeStep>();
});

}  // namespace
}  // namespace mdt
