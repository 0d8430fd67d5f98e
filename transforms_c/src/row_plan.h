// A fused run of native ops executed for one row entirely in C++: the random decisions (drawn from
// the row's per-op seeds with the same splitmix64 stream as transforms_c._rng.Rng), the folding of
// the geometry into one source box / resize / window, the region or DCT-scaled JPEG decode and
// the single resample pass of resample_pass.h. The steps are the ops' own (native_step.h; one unit
// per op module in src/steps/): the plan knows no op. It is the only folding of native ops: the
// native batch engine runs it over batches, and transforms_c.fusion runs it on one row in the
// calling thread (_batch.RowPlanHandle), so a row gives the same bits on either path. Rows it
// cannot fold (a crop that pads, a second resize, a non-JPEG encoded image...) are reported as
// ROW_FALLBACK and run op by op in Python.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "native_step.h"

namespace mdt {

// Where a row's input is. Encoded bytes in memory (a MindRecord blob), a file to read (an image
// folder), or a decoded HWC uint8 image (in-memory arrays).
enum InputKind : int { INPUT_ENCODED = 0, INPUT_FILE = 1, INPUT_IMAGE = 2 };

struct RowInput {
    const uint8_t* data = nullptr;
    size_t size = 0;                 // bytes (encoded), path length (file)
    int height = 0, width = 0, channels = 0;   // decoded images
    ptrdiff_t stride = 0;            // bytes between image rows
};

enum RowStatus : int8_t { ROW_OK = 0, ROW_FALLBACK = 1, ROW_ERROR = 2 };

struct RowResult {
    int8_t status = ROW_OK;
    std::string message;             // ROW_ERROR: what failed (Python re-runs the row to name it)
};

class RowPlan {
  public:
    RowPlan() = default;
    // Builds each step by its kind (native_step.h); std::invalid_argument for an unknown kind or
    // a bad parameter, so a plan that cannot run fails here and not on its first row.
    RowPlan(const std::vector<StepArgs>& steps, int input_kind, long long max_pixels);
    // Runs the plan on one row with one seed per step, writing an output of exactly
    // (out_c, out_h, out_w) (CHW) or (out_h, out_w, out_c) into `out` (float32 when the plan ends
    // in a pointwise op, else uint8). Never throws.
    RowResult run(const RowInput& input, const uint64_t* seeds, void* out, int out_h, int out_w,
                  int out_c, std::vector<uint8_t>* file_buffer) const;

    // The rows' output for input images of `input` (height/width < 0 when each row's image
    // decides; then the result's are < 0 too unless a step fixes the size).
    ImageShape output_shape(ImageShape input) const;

  private:
    // The steps folded into one row's geometry and pass; false when the row runs op by op.
    bool fold(const uint64_t* seeds, int channels, Geometry* geo, PassParams* pss) const;

    std::vector<std::shared_ptr<const NativeStep>> steps_;   // shared read-only by the threads
    int input_kind_ = INPUT_ENCODED;
    long long max_pixels_ = 0;
};

// splitmix64 pieces shared with Python (transforms_c._rng and minddata.engine.seeds).
uint64_t mix64(uint64_t z);
// minddata.engine.seeds.row_seed(base, row)
uint64_t row_seed(uint64_t base, uint64_t row);

}  // namespace mdt
