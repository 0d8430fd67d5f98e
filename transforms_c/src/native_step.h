// Native steps: what one fusable op does to a row of a RowPlan, declared by the op itself.
//
// Each step kind lives in its own unit (src/steps/<op module>.cpp, named after the Python module
// of the op), registers itself under the name its op's native_step() gives as "kind", and folds
// itself into the row's Geometry and PassParams with the random draws and integer arithmetic of
// the op's own unfused kernel (a native op has no Python fold: this step is its only one, for the
// per-row path, transforms_c.fusion, and native batches alike). RowPlan knows no step kind: it
// builds the steps by name once per plan and calls them per row. Adding a fusable op is a new step unit (and its line in _batch.pyx's
// sources directive), with no edit to a central switch.
//
// A step's parameters (names, types, ranges, number of values) are not declared here but in its
// op's schema (transforms_c/schema.py), which hands them over when the op's class is defined
// (register_step_schema). make_step checks a plan's step dicts against them before a step is
// built, so a step reads its parameters without checking their ranges again; it keeps only the
// checks that depend on the row (e.g. as many normalize values as the image has channels).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "resample_pass.h"

namespace mdt {

// splitmix64 (transforms_c._rng.Rng, minddata.engine.seeds).
constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ULL;

inline uint64_t splitmix_finalize(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// transforms_c._native.Rng: splitmix64, doubles from the top 53 bits. A step seeds one with the
// row's seed for that step, so its draws do not depend on the other steps of the plan.
struct Rng {
    uint64_t state;
    explicit Rng(uint64_t seed) : state(seed) {}
    uint64_t next_u64() {
        state += kGolden;
        return splitmix_finalize(state);
    }
    double random() { return static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0); }
    double uniform(double low, double high) { return low + (high - low) * random(); }
    long long randint(long long low, long long high) {
        if (high <= low) return low;
        return low + static_cast<long long>(next_u64() % static_cast<uint64_t>(high - low + 1));
    }
};

// Thrown by a step (or Geometry) when a row does not fold into one pass: the row then runs op by
// op in Python (ROW_FALLBACK).
struct Unfoldable {};

// Source box -> resize to virt -> window (as folding.Geometry of the PIL path's Python fold).
struct Geometry {
    int box[4];                      // x, y, w, h
    bool resized = false;
    int virt_w = 0, virt_h = 0;
    int window[4] = {0, 0, 0, 0};    // x, y, w, h
    int interp = INTERP_COPY;
    bool approximate_decode = false; // the resize came from a random crop allowing a DCT-scaled decode

    Geometry(int width, int height) : box{0, 0, width, height} {}

    // (height, width) of the image as the steps folded so far leave it.
    std::pair<int, int> current_hw() const {
        return resized ? std::make_pair(window[3], window[2]) : std::make_pair(box[3], box[2]);
    }
    void crop(long long top, long long left, long long height, long long width) {
        const auto hw = current_hw();
        if (top < 0 || left < 0 || top + height > hw.first || left + width > hw.second)
            throw Unfoldable();
        int* r = resized ? window : box;
        r[0] += static_cast<int>(left);
        r[1] += static_cast<int>(top);
        r[2] = static_cast<int>(width);
        r[3] = static_cast<int>(height);
    }
    void resize(int height, int width, int how, bool approximate) {
        if (resized) throw Unfoldable();
        resized = true;
        virt_w = width;
        virt_h = height;
        window[0] = window[1] = 0;
        window[2] = width;
        window[3] = height;
        interp = how;
        approximate_decode = approximate;
    }
};

// Flip, pointwise and layout parameters of the pass (resample_pass.h).
struct PassParams {
    bool hflip = false, vflip = false;
    int point = POINT_NONE;
    std::vector<float> p0, p1, p2, p3;
    bool chw = false;
};

// A row's output as the steps leave it, for a plan's layout before any row runs (native_batch's
// row_layout): height/width < 0 while they depend on the image.
struct ImageShape {
    int height = -1, width = -1, channels = 3;
    bool float_output = false;       // a pointwise step ran: float32, else uint8
    bool chw = false;
};

// Python's round() for the values here (half to even, as nearbyint in the default mode).
long long py_round(double v);

// `values` for `channels` channels: one value broadcasts; otherwise one per channel or false.
bool per_channel(const std::vector<float>& values, int channels, std::vector<float>* out);

// A step's parameters as its op's native_step() declared them: numbers by name, each a list (a
// scalar is a list of one), checked against the step's schema before the step reads them (so
// the accessors' checks of type and count only guard a step reading a parameter otherwise than
// its schema declares it). Every accessor throws std::invalid_argument naming the step and the
// parameter.
class StepArgs {
  public:
    StepArgs() = default;
    StepArgs(std::string kind, std::map<std::string, std::vector<double>> values)
        : kind_(std::move(kind)), values_(std::move(values)) {}

    const std::string& kind() const { return kind_; }
    double number(const std::string& name) const;
    int integer(const std::string& name) const;
    bool flag(const std::string& name) const;
    // A list of exactly `count` numbers (count < 0: one or more).
    std::vector<double> numbers(const std::string& name, int count) const;
    // Throws for a parameter none of the accessors above was asked for.
    void check_all_read() const;
    const std::map<std::string, std::vector<double>>& values() const { return values_; }
    // std::invalid_argument("native step '<kind>': <what>").
    [[noreturn]] void fail(const std::string& what) const;

  private:
    const std::vector<double>* find(const std::string& name) const;

    std::string kind_;
    std::map<std::string, std::vector<double>> values_;
    mutable std::set<std::string> read_;
};

// One parameter of a step as its op's schema declares it (transforms_c/schema.py's Native).
struct ParamSpec {
    enum Type : int { INT = 0, FLOAT = 1, BOOL = 2 };
    int type = FLOAT;
    bool has_low = false, has_high = false;
    double low = 0.0, high = 0.0;
    bool low_open = false, high_open = false;
    int length = 1;                  // values; 0: one or more

    bool operator==(const ParamSpec& o) const {
        return type == o.type && has_low == o.has_low && has_high == o.has_high &&
               (!has_low || low == o.low) && (!has_high || high == o.high) &&
               low_open == o.low_open && high_open == o.high_open && length == o.length;
    }
    bool operator!=(const ParamSpec& o) const { return !(*this == o); }
};

// A step kind's parameters by name.
using StepSchema = std::map<std::string, ParamSpec>;

// Registers the parameters of `kind` (the same schema may be registered again: every op sharing
// the kind registers it). std::invalid_argument when no step of that kind is compiled in or when
// `kind` already has a different schema.
void register_step_schema(const std::string& kind, const StepSchema& schema);

// The registered schemas, by kind.
std::map<std::string, StepSchema> step_schemas();

// One step of a plan, built once from its args and shared read-only by the engine's threads.
class NativeStep {
  public:
    virtual ~NativeStep() = default;
    // Folds the step into one row's geometry and pass; `seed` is the row's seed for this step,
    // `channels` the decoded image's. Throws Unfoldable when the row must run op by op.
    virtual void fold(uint64_t seed, int channels, Geometry* geo, PassParams* pss) const = 0;
    // The step's output for an input of `shape` (by default the same).
    virtual void infer(ImageShape* shape) const { (void)shape; }
};

using StepFactory = std::unique_ptr<NativeStep> (*)(const StepArgs& args);

// Registers a step kind when the extension is loaded, in the step's own unit:
//     const RegisterStep kFlip("flip", [](const StepArgs& a) -> std::unique_ptr<NativeStep> {...});
struct RegisterStep {
    RegisterStep(const char* kind, StepFactory make);
};

// The step args.kind() names, built from `args`; std::invalid_argument for an unknown kind, a kind
// without a registered schema, or a missing, unknown, malformed or out-of-range parameter.
std::unique_ptr<NativeStep> make_step(const StepArgs& args);

}  // namespace mdt
