#include "batch_engine.h"

#include <chrono>
#include <utility>

namespace mdt {

BatchEngine::BatchEngine(RowPlan plan, int num_steps, int threads)
    : plan_(std::move(plan)), num_steps_(num_steps) {
    if (threads < 1) threads = 1;
    threads_.reserve(threads);
    try {
        for (int i = 0; i < threads; ++i) threads_.emplace_back(&BatchEngine::work, this);
    } catch (...) {
        stop();
        throw;
    }
}

BatchEngine::~BatchEngine() { stop(); }

int64_t BatchEngine::submit(std::unique_ptr<BatchJob> job) {
    std::lock_guard<std::mutex> lock(mutex_);
    job->id = next_id_++;
    job->results.assign(job->inputs.size(), RowResult());
    const int64_t id = job->id;
    jobs_.push_back(std::move(job));
    work_cv_.notify_all();
    return id;
}

std::unique_ptr<BatchJob> BatchEngine::wait(int64_t id, int timeout_ms, bool* timed_out) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    *timed_out = false;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        auto it = jobs_.begin();
        while (it != jobs_.end() && (*it)->id != id) ++it;
        if (it == jobs_.end() || stopping_) return nullptr;
        if ((*it)->done_rows == (*it)->inputs.size()) {
            std::unique_ptr<BatchJob> job = std::move(*it);
            jobs_.erase(it);
            return job;
        }
        if (done_cv_.wait_until(lock, deadline) == std::cv_status::timeout) {
            *timed_out = true;
            return nullptr;
        }
    }
}

void BatchEngine::stop() {
    {
        std::unique_lock<std::mutex> lock(mutex_);
        stopping_ = true;
        work_cv_.notify_all();
        done_cv_.notify_all();
    }
    for (std::thread& t : threads_) {
        if (t.joinable()) t.join();
    }
    threads_.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.clear();
}

void BatchEngine::work() {
    std::vector<uint8_t> file_buffer;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        BatchJob* job = nullptr;
        for (auto& j : jobs_) {
            if (j->next_row < j->inputs.size()) {
                job = j.get();
                break;
            }
        }
        if (stopping_) return;
        if (job == nullptr) {
            work_cv_.wait(lock);
            continue;
        }
        const size_t row = job->next_row++;
        ++running_;
        lock.unlock();
        // The job stays in jobs_ (its rows are not all done), so the pointer is valid here.
        RowResult result = plan_.run(job->inputs[row], job->seeds.data() + row * num_steps_,
                                     job->out + row * job->row_bytes, job->out_h, job->out_w,
                                     job->out_c, &file_buffer);
        lock.lock();
        job->results[row] = std::move(result);
        --running_;
        if (++job->done_rows == job->inputs.size()) done_cv_.notify_all();
    }
}

}  // namespace mdt
