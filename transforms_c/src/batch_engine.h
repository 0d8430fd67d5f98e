// Native batches: a pool of C++ threads runs a RowPlan over every row of submitted batches,
// writing each row into its slot of the batch's output buffer, with no Python and no interpreter
// lock involved. Python submits a batch (its rows' inputs and seeds, and the output buffer) and
// later waits for it, so the interpreter is touched once per batch, and several batches can be
// in flight (the ring that keeps batches ready ahead).
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "row_plan.h"

namespace mdt {

struct BatchJob {
    int64_t id = 0;
    std::vector<RowInput> inputs;
    std::vector<uint64_t> seeds;       // rows x steps
    uint8_t* out = nullptr;            // rows x row_bytes
    size_t row_bytes = 0;
    int out_h = 0, out_w = 0, out_c = 0;
    std::vector<RowResult> results;
    size_t next_row = 0;               // next row to claim
    size_t done_rows = 0;
};

class BatchEngine {
  public:
    BatchEngine(RowPlan plan, int num_steps, int threads);
    ~BatchEngine();
    BatchEngine(const BatchEngine&) = delete;
    BatchEngine& operator=(const BatchEngine&) = delete;

    // Queues a batch; returns its id. The inputs and the output buffer must stay valid until
    // wait() returned for it (or the engine is destroyed).
    int64_t submit(std::unique_ptr<BatchJob> job);
    // Blocks until every row of batch `id` ran, or `timeout_ms` passed; returns the batch with
    // its per-row results, or nullptr (timed out: *timed_out is set; else the engine was
    // stopped first or the id is unknown).
    std::unique_ptr<BatchJob> wait(int64_t id, int timeout_ms, bool* timed_out);
    // Drops queued rows, waits for rows being run, and stops the threads. Idempotent.
    void stop();
    int num_threads() const { return static_cast<int>(threads_.size()); }

  private:
    void work();

    const RowPlan plan_;
    const int num_steps_;
    std::mutex mutex_;
    std::condition_variable work_cv_;
    std::condition_variable done_cv_;
    std::deque<std::unique_ptr<BatchJob>> jobs_;   // submission order
    int64_t next_id_ = 1;
    int running_ = 0;                              // rows being run right now
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace mdt
