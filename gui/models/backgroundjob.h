#pragma once

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>

class QTimer;

namespace bpflens {

class BackgroundJob;

// What a job's work is handed: whether the job was cancelled or superseded (long loops poll
// it and return early; whatever they return then is dropped), the flag itself for the core
// functions that take one, and where to say how far the work is.
class JobToken
{
public:
    bool isCancelled() const { return m_state->cancelled.load(std::memory_order_relaxed); }
    // For the core functions that take `const std::atomic_bool *cancel`.
    const std::atomic_bool *flag() const { return &m_state->cancelled; }
    // Reported to BackgroundJob::progressChanged on the owner's thread; calls faster than the
    // owner's event loop takes them are coalesced into the latest.
    void setProgress(qint64 done, qint64 total) const;

private:
    friend class BackgroundJob;
    struct State
    {
        std::atomic_bool cancelled{false};
        std::atomic<qint64> done{0};
        std::atomic<qint64> total{0};
        std::atomic_bool progressQueued{false};
        BackgroundJob *job = nullptr; // outlives the work: its destructor waits for it
        quint64 generation = 0;
    };
    explicit JobToken(std::shared_ptr<State> state)
        : m_state(std::move(state))
    {
    }
    std::shared_ptr<State> m_state;
};

// The one way the GUI computes in the background (issue #31): the work runs on a thread of its
// own, one job at a time, and its result is handed to a callback on the thread the job lives in
// (the owner's, the GUI thread). Only the latest job's result is delivered: run(), schedule()
// and cancel() each supersede the job before, whose result is dropped even when it is already
// on its way. schedule() debounces: a burst of requests ends in one due() after the interval,
// where the owner reads its inputs and calls run().
//
// Keep it as a member of the owner, declared after what its work reads: its destructor cancels
// the job and waits for the work to return, so the work may read the owner's data, and no
// callback runs after it (delivery goes through the event loop, which does not run while the
// owner is destroyed).
// Work that reads data about to change (a store before an append) is stopped first with
// stopAndWait().
class BackgroundJob : public QObject
{
    Q_OBJECT
public:
    explicit BackgroundJob(QObject *parent = nullptr);
    ~BackgroundJob() override;

    // The debounce of schedule() (default 50 ms).
    void setDebounceInterval(int ms);
    int debounceInterval() const;
    // Supersedes the current job and (re)starts the debounce: due() once the requests settle.
    void schedule();
    // The same with another interval for this request only (a live update's longer one).
    void schedule(int ms);
    bool isScheduled() const;

    // Runs work(const JobToken &) on the worker thread, after the superseded job's work has
    // returned (it polls its token: that is soon), then deliver(result) here unless this job
    // was superseded or cancelled meanwhile. A pending schedule() is satisfied by this run.
    template<typename Work, typename Deliver>
    void run(Work work, Deliver deliver);

    // Supersedes the job and a pending schedule(): nothing is delivered until the next run().
    void cancel();
    // Supersedes the job and waits until its work has returned: before the data it reads
    // changes. A pending schedule() stays: it asked for the data as it will be.
    void stopAndWait();
    // Waits for the current job's work and delivers its result now, not through the event
    // loop; true if it was delivered. For callers that answer at once (a script's or a test's
    // open): no event loop runs meanwhile, the thread blocks.
    bool finish();

    // A job was started and its result is neither delivered nor dropped yet.
    bool isRunning() const { return m_running; }
    // Counts the jobs started and superseded.
    quint64 generation() const { return m_generation; }

Q_SIGNALS:
    // The debounce of schedule() has elapsed: the owner starts the job now.
    void due();
    // The running job's setProgress().
    void progressChanged(qint64 done, qint64 total);
    void runningChanged(bool running);

private:
    using Delivery = std::function<void()>;
    std::shared_ptr<JobToken::State> begin();
    void supersede();
    void setRunning(bool running);
    void start(std::function<void()> task);
    // The work of generation has a result: kept until the owner's thread takes it.
    void ready(quint64 generation, Delivery delivery);
    bool deliverReady();
    void deliverProgress(quint64 generation);

    QThreadPool m_pool;
    QTimer *m_debounce;
    int m_interval = 50; // schedule()'s; schedule(ms) leaves it
    std::shared_ptr<JobToken::State> m_current;
    quint64 m_generation = 0;
    bool m_running = false;
    std::mutex m_readyMutex;
    quint64 m_readyGeneration = 0;
    Delivery m_ready; // under m_readyMutex

    friend class JobToken;
};

template<typename Work, typename Deliver>
void BackgroundJob::run(Work work, Deliver deliver)
{
    using Result = std::invoke_result_t<Work &, const JobToken &>;
    std::shared_ptr<JobToken::State> state = begin();
    start([this, state, work = std::move(work), deliver = std::move(deliver)]() mutable {
        const JobToken token(state);
        if (token.isCancelled())
            return; // superseded before it began
        if constexpr (std::is_void_v<Result>) {
            work(token);
            if (!token.isCancelled())
                ready(state->generation, [deliver = std::move(deliver)]() mutable { deliver(); });
        } else {
            // Shared: a std::function must be copyable, results (SessionData) need not be.
            auto result = std::make_shared<Result>(work(token));
            if (!token.isCancelled()) {
                ready(state->generation, [deliver = std::move(deliver), result]() mutable {
                    deliver(std::move(*result));
                });
            }
        }
    });
}

} // namespace bpflens
