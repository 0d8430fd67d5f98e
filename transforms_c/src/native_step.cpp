#include "native_step.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace mdt {

namespace {

struct Registry {
    std::map<std::string, StepFactory> factories;
    std::set<std::string> registered_twice;   // reported when a plan names them
    std::map<std::string, StepSchema> schemas;   // from the ops' schemas (transforms_c/schema.py)
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

namespace {

// Whether `x` is a value of `type` (an int, a bool: 0 or 1, a float: finite); else fails.
void check_value(const StepArgs& args, const std::string& name, double x, int type) {
    if (!std::isfinite(x)) args.fail("parameter '" + name + "' is not finite");
    if (type == ParamSpec::INT && (x != std::floor(x) || x < std::numeric_limits<int>::min() ||
                                   x > std::numeric_limits<int>::max()))
        args.fail("parameter '" + name + "' is not an int");
    if (type == ParamSpec::BOOL && x != 0.0 && x != 1.0)
        args.fail("parameter '" + name + "' is not a bool");
}

}  // namespace

// The accessors run after check_args (below): their checks only catch a step reading a
// parameter otherwise than its schema declares it (and keep a count mismatch from reading past
// the values).
std::vector<double> StepArgs::numbers(const std::string& name, int count) const {
    const std::vector<double>& v = *find(name);
    if (count < 0 ? v.empty() : static_cast<int>(v.size()) != count)
        fail("parameter '" + name + "' has " + std::to_string(v.size()) + " values, expected " +
             (count < 0 ? std::string("at least 1") : std::to_string(count)));
    for (double x : v) check_value(*this, name, x, ParamSpec::FLOAT);
    return v;
}

double StepArgs::number(const std::string& name) const { return numbers(name, 1)[0]; }

int StepArgs::integer(const std::string& name) const {
    const double v = number(name);
    check_value(*this, name, v, ParamSpec::INT);
    return static_cast<int>(v);
}

bool StepArgs::flag(const std::string& name) const {
    const double v = number(name);
    check_value(*this, name, v, ParamSpec::BOOL);
    return v != 0.0;
}

void StepArgs::check_all_read() const {
    for (const auto& kv : values_) {
        if (read_.count(kv.first) == 0)
            fail("parameter '" + kv.first + "' is declared by its schema but the step does not "
                 "read it");
    }
}

namespace {

// A bound as Python prints it for the values here (0, 1, 0.5, 16777216).
std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

std::string range_text(const ParamSpec& spec) {
    if (spec.has_low && spec.has_high)
        return std::string("in ") + (spec.low_open ? "(" : "[") + number_text(spec.low) + ", " +
               number_text(spec.high) + (spec.high_open ? ")" : "]");
    if (spec.has_low) return std::string(spec.low_open ? "> " : ">= ") + number_text(spec.low);
    return std::string(spec.high_open ? "< " : "<= ") + number_text(spec.high);
}

// Checks one parameter's values against its spec (count, finiteness, type, range).
void check_param(const StepArgs& args, const std::string& name, const std::vector<double>& v,
                 const ParamSpec& spec) {
    if (spec.length == 0 ? v.empty() : static_cast<int>(v.size()) != spec.length)
        args.fail("parameter '" + name + "' has " + std::to_string(v.size()) +
                  " values, expected " +
                  (spec.length == 0 ? std::string("at least 1") : std::to_string(spec.length)));
    for (double x : v) {
        check_value(args, name, x, spec.type);
        const bool below = spec.has_low && (x < spec.low || (spec.low_open && x == spec.low));
        const bool above = spec.has_high && (x > spec.high || (spec.high_open && x == spec.high));
        if (below || above)
            args.fail(name + " must be " + range_text(spec) + ", got " + number_text(x));
    }
}

// Every parameter the schema declares is given and valid, and none other is given.
void check_args(const StepArgs& args, const StepSchema& schema) {
    for (const auto& kv : schema) {
        const auto it = args.values().find(kv.first);
        if (it == args.values().end()) args.fail("missing parameter '" + kv.first + "'");
        check_param(args, kv.first, it->second, kv.second);
    }
    for (const auto& kv : args.values()) {
        if (schema.count(kv.first) == 0) args.fail("unknown parameter '" + kv.first + "'");
    }
}

}  // namespace

void register_step_schema(const std::string& kind, const StepSchema& schema) {
    Registry& r = registry();
    if (r.factories.count(kind) == 0)
        throw std::invalid_argument("native step '" + kind +
                                    "': no step of this kind is compiled in (src/steps/)");
    const auto it = r.schemas.find(kind);
    if (it != r.schemas.end() && it->second != schema)
        throw std::invalid_argument("native step '" + kind +
                                    "': registered again with other parameters");
    r.schemas[kind] = schema;
}

std::map<std::string, StepSchema> step_schemas() { return registry().schemas; }

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
    const auto schema = r.schemas.find(args.kind());
    if (schema == r.schemas.end())
        args.fail("no schema registered (its op's class registers it: import transforms_c.vision)");
    check_args(args, schema->second);
    std::unique_ptr<NativeStep> step = it->second(args);
    // A declared parameter the step did not read: the schema and the step disagree.
    args.check_all_read();
    return step;
}

}  // namespace mdt
