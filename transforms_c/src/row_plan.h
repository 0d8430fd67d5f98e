// A fused run of native ops executed for one row entirely in C++: the random decisions (drawn from
// the row's per-op seeds with the same splitmix64 stream as transforms_c._rng.Rng), the folding of
// the geometry into one source box / resize / window, the region or DCT-scaled JPEG decode and
// the single resample pass of resample_pass.h. It mirrors transforms_c/fusion.py step for step, so
// a row gives the same bits whichever of the two ran it; rows it cannot fold (a crop that pads, a
// second resize, a non-JPEG encoded image...) are reported as ROW_FALLBACK and run by Python.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mdt {

// One op of a plan. Each op class declares its kind and parameters (native_step() in Python).
enum StepKind : int {
    STEP_DECODE = 0,
    STEP_RANDOM_RESIZED_CROP = 1,   // also RandomCropDecodeResize (first op of a plan)
    STEP_RESIZE = 2,                // size_w < 0: resize the shorter side to size_h
    STEP_CROP = 3,                  // fixed top/left
    STEP_CENTER_CROP = 4,
    STEP_RANDOM_CROP = 5,
    STEP_FLIP = 6,                  // horizontal when axis == 0; probability prob (1: always)
    STEP_NORMALIZE = 7,             // values a = mean, b = std
    STEP_RESCALE = 8,               // values a = rescale, b = shift
    STEP_HWC2CHW = 9,
};

struct Step {
    int kind = STEP_DECODE;
    int size_h = 0, size_w = 0;      // output or crop size
    int top = 0, left = 0;           // Crop
    int interp = 0;                  // native interpolation (resample_pass.h Interp)
    double scale_lo = 0, scale_hi = 0, ratio_lo = 0, ratio_hi = 0;
    int max_attempts = 10;
    bool approximate = false;        // DCT-scaled decode allowed (random crop ops)
    int axis = 0;
    double prob = 1.0;
    std::vector<float> a, b;         // per channel (one value broadcasts)
};

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
    RowPlan(std::vector<Step> steps, int input_kind, long long max_pixels);
    // Runs the plan on one row with one seed per step, writing an output of exactly
    // (out_c, out_h, out_w) (CHW) or (out_h, out_w, out_c) into `out` (float32 when the plan ends
    // in a pointwise op, else uint8). Never throws.
    RowResult run(const RowInput& input, const uint64_t* seeds, void* out, int out_h, int out_w,
                  int out_c, std::vector<uint8_t>* file_buffer) const;

    bool float_output() const { return point_ops_ > 0; }
    bool chw() const { return chw_; }

  private:
    std::vector<Step> steps_;
    int input_kind_ = INPUT_ENCODED;
    long long max_pixels_ = 0;
    int point_ops_ = 0;
    bool chw_ = false;
};

// splitmix64 pieces shared with Python (transforms_c._rng and minddata.engine.seeds).
uint64_t mix64(uint64_t z);
// minddata.engine.seeds.row_seed(base, row)
uint64_t row_seed(uint64_t base, uint64_t row);

}  // namespace mdt
