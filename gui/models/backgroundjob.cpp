#include "gui/models/backgroundjob.h"

#include <QMetaObject>
#include <QTimer>

namespace bpflens {

void JobToken::setProgress(qint64 done, qint64 total) const
{
    State &s = *m_state;
    s.done.store(done, std::memory_order_relaxed);
    s.total.store(total, std::memory_order_relaxed);
    // One call on its way at a time: a reader reporting every chunk must not flood the queue.
    if (s.progressQueued.exchange(true))
        return;
    BackgroundJob *job = s.job;
    const quint64 generation = s.generation;
    QMetaObject::invokeMethod(
        job, [job, generation] { job->deliverProgress(generation); }, Qt::QueuedConnection);
}

BackgroundJob::BackgroundJob(QObject *parent)
    : QObject(parent)
    , m_debounce(new QTimer(this))
{
    // One worker: a newer job waits for the superseded one instead of racing it for the CPU
    // (and for the data both read).
    m_pool.setMaxThreadCount(1);
    m_debounce->setSingleShot(true);
    connect(m_debounce, &QTimer::timeout, this, &BackgroundJob::due);
}

BackgroundJob::~BackgroundJob()
{
    // As cancel() and stopAndWait(), without runningChanged: the owner may be half destroyed.
    m_debounce->stop();
    if (m_current)
        m_current->cancelled.store(true);
    m_current.reset();
    m_running = false;
    m_pool.waitForDone();
    // A result that arrived meanwhile is of a cancelled job; its queued call dies with this.
    const std::lock_guard lock(m_readyMutex);
    m_ready = nullptr;
}

void BackgroundJob::setDebounceInterval(int ms)
{
    m_interval = ms;
}

int BackgroundJob::debounceInterval() const
{
    return m_interval;
}

void BackgroundJob::schedule()
{
    schedule(m_interval);
}

void BackgroundJob::schedule(int ms)
{
    supersede();
    setRunning(false);
    m_debounce->start(ms);
}

bool BackgroundJob::isScheduled() const
{
    return m_debounce->isActive();
}

void BackgroundJob::cancel()
{
    m_debounce->stop();
    supersede();
    setRunning(false);
}

void BackgroundJob::stopAndWait()
{
    supersede();
    setRunning(false);
    m_pool.waitForDone();
}

bool BackgroundJob::finish()
{
    m_debounce->stop();
    m_pool.waitForDone();
    return deliverReady();
}

void BackgroundJob::supersede()
{
    if (m_current) {
        m_current->cancelled.store(true);
        m_current.reset();
    }
    ++m_generation;
}

std::shared_ptr<JobToken::State> BackgroundJob::begin()
{
    m_debounce->stop();
    supersede(); // still running: the new job
    auto state = std::make_shared<JobToken::State>();
    state->job = this;
    state->generation = m_generation;
    m_current = state;
    setRunning(true);
    return state;
}

void BackgroundJob::start(std::function<void()> task)
{
    m_pool.start(std::move(task));
}

void BackgroundJob::setRunning(bool running)
{
    if (running == m_running)
        return;
    m_running = running;
    Q_EMIT runningChanged(running);
}

void BackgroundJob::ready(quint64 generation, Delivery delivery)
{
    {
        const std::lock_guard lock(m_readyMutex);
        m_readyGeneration = generation;
        m_ready = std::move(delivery);
    }
    QMetaObject::invokeMethod(
        this, [this] { deliverReady(); }, Qt::QueuedConnection);
}

bool BackgroundJob::deliverReady()
{
    Delivery delivery;
    quint64 generation = 0;
    {
        const std::lock_guard lock(m_readyMutex);
        delivery = std::move(m_ready);
        m_ready = nullptr;
        generation = m_readyGeneration;
    }
    // Taken by finish() already, or superseded since it was computed.
    if (!delivery || generation != m_generation || !m_current)
        return false;
    m_current.reset();
    setRunning(false);
    delivery();
    return true;
}

void BackgroundJob::deliverProgress(quint64 generation)
{
    if (!m_current || m_current->generation != generation)
        return;
    m_current->progressQueued.store(false);
    Q_EMIT progressChanged(m_current->done.load(), m_current->total.load());
}

} // namespace bpflens
