#pragma once

#include "core/records.h"
#include "core/sessioninfo.h"

#include <QCommandLineParser>
#include <QString>
#include <QUrl>

#include <memory>
#include <optional>

namespace bpflens::cli {

// record --pyroscope and serve --pyroscope: the CPU samples (and off-CPU waits) pushed to
// Grafana Pyroscope's HTTP ingest API as pprof every interval (docs/profiling.md "Pushing to
// Pyroscope").
struct PyroscopeConfig
{
    QUrl url;                                // http(s)://host:port[/prefix]: POST prefix/ingest
    QString app = QStringLiteral("bpflens"); // names APP.cpu and APP.offcpu
    qint64 intervalMs = 15000;
    // How long the end of a recording waits for the last profile (and its retries).
    int finishWaitMs = 8000;
};

inline constexpr int PyroscopeTries = 3; // a first try and two retries, 1 s and 2 s later

// --pyroscope URL, --pyroscope-app NAME, --pyroscope-interval TIME.
void addPyroscopeOptions(QCommandLineParser &parser);
// The options as given: nullopt without *error when --pyroscope is absent; false with *error
// (a usage error, exit status 2) for a URL that is not http(s), a bad name or interval, or
// probes without CPU samples or off-CPU waits to push.
bool pyroscopeConfigFrom(const QCommandLineParser &parser, const QList<ProbeConfig> &probes,
                         std::optional<PyroscopeConfig> *config, QString *error);

class PyroscopeWorker;

// Pushes on a thread of its own (its own event loop and QNetworkAccessManager): add() only
// takes references to the batch's lists under a lock, so the recording is never held up by a
// slow or absent server. A push that fails is tried again 1 s and then 2 s later; one that
// still fails, or that a server refuses with a 4xx status, is dropped and counted. Each
// distinct failure is said once on stderr.
class PyroscopePusher
{
public:
    explicit PyroscopePusher(const PyroscopeConfig &config);
    ~PyroscopePusher();
    PyroscopePusher(const PyroscopePusher &) = delete;
    PyroscopePusher &operator=(const PyroscopePusher &) = delete;

    // The recording's probes (which kinds are pushed, the profile probe's frequency) and host
    // (the hostname label). Before add(); from any thread.
    void start(const SessionInfo &info);
    // A batch of the recording: its stack definitions, CPU samples and off-CPU waits. From the
    // recording's thread; cheap (implicitly shared lists).
    void add(const RecordBatch &batch);
    // Pushes what arrived since the last push and waits (at most the config's finishWaitMs)
    // for the pushes still under way; what has not arrived by then counts as failed.
    void finish();

    int pushed() const;
    int failed() const;
    // "pushed 4 profiles to http://...: 0 failed"
    QString summary() const;

private:
    PyroscopeConfig m_config;
    std::unique_ptr<QThread> m_thread;
    PyroscopeWorker *m_worker = nullptr; // lives in m_thread
    bool m_finished = false;
};

} // namespace bpflens::cli
