#include "native_step.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace mdt {

namespace {

struct Registry {
    std::map<std::string, StepFactory> factories;
    std::set<std::string> registered_twice;   // reported when a plan names them
};

// Built on first use, so registrations from any unit's static initializers find it ready.
Registry& registry() {
    static Registry instance;
    return instance;
}

}  // namespace

long long py_round(double v) { return static_cast<long long>(std::nearbyint(v)); }

bool per_channel(const std::vector<float>& values, int channels, std::vector<float>* out) {
    if (values.size() == 1) {
        out->assign(channels, values[0]);
        return true;
    }
    if (static_cast<int>(values.size()) != channels) return false;
    *out = values;
    return true;
}

void StepArgs::fail(const std::string& what) const {
    throw std::invalid_argument("native step '" + kind_ + "': " + what);
}

const std::vector<double>* StepArgs::find(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) fail("missing parameter '" + name + "'");
    read_.insert(name);
    return &it->second;
}

std::vector<double> StepArgs::numbers(const std::string& name, int count) const {
    const std::vector<double>& v = *find(name);
    if (count < 0 ? v.empty() : static_cast<int>(v.size()) != count)
        fail("parameter '" + name + "' has " + std::to_string(v.size()) + " values, expected " +
             (count < 0 ? std::string("at least 1") : std::to_string(count)));
    for (double x : v) {
        if (!std::isfinite(x)) fail("parameter '" + name + "' is not finite");
    }
    return v;
}

double StepArgs::number(const std::string& name) const { return numbers(name, 1)[0]; }

int StepArgs::integer(const std::string& name) const {
    const double v = number(name);
    if (v != std::floor(v) || v < std::numeric_limits<int>::min() ||
        v > std::numeric_limits<int>::max())
        fail("parameter '" + name + "' is not an int");
    return static_cast<int>(v);
}

bool StepArgs::flag(const std::string& name) const {
    const double v = number(name);
    if (v != 0.0 && v != 1.0) fail("parameter '" + name + "' is not a bool");
    return v != 0.0;
}

void StepArgs::check_all_read() const {
    for (const auto& kv : values_) {
        if (read_.count(kv.first) == 0) fail("unknown parameter '" + kv.first + "'");
    }
}

int read_interp(const StepArgs& args) {
    const int interp = args.integer("interp");
    if (interp < INTERP_NEAREST || interp > INTERP_PILCUBIC)
        args.fail("parameter 'interp' is not a native interpolation (src/resample_pass.h)");
    return interp;
}

RegisterStep::RegisterStep(const char* kind, StepFactory make) {
    Registry& r = registry();
    if (!r.factories.emplace(kind, make).second) r.registered_twice.insert(kind);
}

std::unique_ptr<NativeStep> make_step(const StepArgs& args) {
    const Registry& r = registry();
    const auto it = r.factories.find(args.kind());
    if (it == r.factories.end()) {
        std::string known;
        for (const auto& kv : r.factories) known += (known.empty() ? "" : ", ") + kv.first;
        args.fail("unknown kind (registered: " + known + ")");
    }
    if (r.registered_twice.count(args.kind()) != 0) args.fail("kind registered twice");
    std::unique_ptr<NativeStep> step = it->second(args);
    args.check_all_read();
    return step;
}

}  // namespace mdt
