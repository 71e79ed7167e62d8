// What a session change costs the GUI thread when the session holds allocations (memleak, issue
// #34): the timeline's memory lanes (the bytes each process held over time) were summed on the
// GUI thread in the first paint after every change, a pass over every allocation per process.
// They are summed in a worker now, in one pass. Usage:
//   bpflens_memory_bench [allocations, default 5000000] [--processes P, default 8] [--reps N]
// builds a synthetic session of that many allocations (a quarter never freed) spread over P
// processes, and times, in the same run, at each session change:
//   gui_ms         setSession() and the timeline's first paint on the GUI thread (what a user
//                  waits for now), the lanes summed in the worker;
//   before_ms      the same plus the per-process sum as the first paint did it before (one
//                  outstandingBytesOverTime() per process, on the GUI thread);
//   worker_ms      memoryByProcess(), the worker's sum;
//   lanes_ms       from the change until the lanes are drawn (wall time; the Overview's worker
//                  runs meanwhile too).
// The two sums are timed after the Overview's worker is done.
// One JSON object on stdout.
#include "core/allocations.h"
#include "gui/detailspane.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/timelinebins.h"
#include "gui/models/viewstate.h"
#include "gui/overviewpage.h"
#include "gui/resultspage.h"
#include "gui/timelinewidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <QThread>

#include <algorithm>
#include <vector>

using namespace bpflens;

namespace {

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

SessionData allocations(qsizetype n, int processes)
{
    constexpr quint64 Start = 1'000'000'000'000ull;
    constexpr quint64 Span = 60'000'000'000ull;
    SessionData d;
    d.info.schemaVersion = 1;
    d.info.startMonotonicNs = Start;
    d.info.endMonotonicNs = Start + Span;
    d.info.probes = {{QStringLiteral("memleak"), {}, QStringLiteral("uprobe/libc.so.6")}};
    QList<QByteArray> comms;
    for (int p = 0; p < processes; ++p)
        comms << "worker-" + QByteArray::number(p);
    const quint64 step = Span / quint64(n);
    for (qsizetype i = 0; i < n; ++i) {
        AllocationEvent e;
        e.timeNs = Start + quint64(i) * step;
        // Runs of one process, as a recording of several interleaves them per batch.
        const int p = int((i / 4096) % processes);
        e.pid = e.tid = quint32(1000 + p);
        e.comm = comms[p];
        e.size = 16 + quint64(i % 4093);
        e.address = 0x5555'0000'0000ull + quint64(i) * 64;
        e.stackId = 0;
        if (i % 4 == 0) {
            e.end = AllocationEvent::Outstanding;
            e.durNs = Start + Span - e.timeNs;
        } else {
            e.end = AllocationEvent::Freed;
            e.durNs = quint64(1 + i % 1000) * step;
        }
        d.events.append(e);
    }
    return d;
}

// The sum as the first paint did it before the worker: a scan for the processes, then one pass
// over every allocation per process.
qsizetype sumAsBefore(const SessionModel &session)
{
    const EventStore &store = session.events();
    const qsizetype n = store.count(EventType::Allocation);
    QHash<quint32, qsizetype> first;
    for (qsizetype i = 0; i < n; ++i) {
        const quint32 pid = store.value<&AllocationEvent::pid>(i);
        if (!first.contains(pid))
            first.insert(pid, i);
    }
    qsizetype points = 0;
    for (auto it = first.cbegin(); it != first.cend(); ++it)
        points += outstandingBytesOverTime(store, it.key()).size();
    return points;
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    qsizetype n = 5'000'000;
    int processes = 8;
    int reps = 5;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--processes") && i + 1 < args.size())
            processes = args.at(++i).toInt();
        else if (args.at(i) == QLatin1String("--reps") && i + 1 < args.size())
            reps = args.at(++i).toInt();
        else
            n = args.at(i).toLongLong();
    }
    if (n <= 0 || processes <= 0 || reps <= 0) {
        QTextStream(stderr) << "usage: bpflens_memory_bench [allocations] [--processes P] "
                               "[--reps N]\n";
        return 2;
    }
    const SessionData data = allocations(n, processes);

    SessionModel session;
    ViewState state;
    ResultsPage page(&session, &state);
    page.resize(1366, 700);
    page.show();
    QCoreApplication::processEvents();
    (void)page.grab(); // fonts, styles: not part of the session
    TimelineWidget *timeline = page.timeline();

    std::vector<double> gui, before, worker, lanes;
    for (int r = 0; r < reps; ++r) {
        SessionData copy = data; // outside the timing: a read hands the session over
        QElapsedTimer t;
        t.start();
        session.setSession(std::move(copy));
        (void)timeline->grab();
        const double paint = msSince(t);
        gui.push_back(paint);
        // Until the worker's lanes are drawn: the GUI thread is free meanwhile.
        while (timeline->memoryLanes().isEmpty() && t.elapsed() < 120000) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
            QThread::msleep(1);
        }
        (void)timeline->grab();
        lanes.push_back(msSince(t));
        if (timeline->memoryLanes().size() != std::min(processes, TimelineBinner::MaxMemoryLanes)) {
            QTextStream(stderr) << "bpflens_memory_bench: " << timeline->memoryLanes().size()
                                << " lanes after " << t.elapsed() << " ms\n";
            return 1;
        }

        // The Overview (the group a session opens on) computes in its worker meanwhile: the sums
        // below are timed once it is done, on 2 cores it would be most of them.
        QElapsedTimer settle;
        settle.start();
        while (page.summaryPanel()->overview()->isComputing() && settle.elapsed() < 120000) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            QThread::msleep(10);
        }
        QElapsedTimer w;
        w.start();
        const QList<ProcessMemory> memory = TimelineBinner::memoryByProcess(session);
        worker.push_back(msSince(w));
        QElapsedTimer b;
        b.start();
        const qsizetype points = sumAsBefore(session);
        before.push_back(paint + msSince(b));
        qsizetype now = 0;
        for (const ProcessMemory &m : memory)
            now += m.held.size();
        if (points != now) {
            QTextStream(stderr) << "bpflens_memory_bench: the sums differ\n";
            return 1;
        }
    }
    const QJsonObject out{{QStringLiteral("allocations"), qint64(n)},
                          {QStringLiteral("processes"), processes},
                          {QStringLiteral("gui_ms"), median(gui)},
                          {QStringLiteral("before_ms"), median(before)},
                          {QStringLiteral("worker_ms"), median(worker)},
                          {QStringLiteral("lanes_ms"), median(lanes)}};
    QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}
