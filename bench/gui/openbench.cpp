// Opening a session the way the desktop application does, in a fresh process per measurement
// (bench/run starts it once per session size, so peak memory is this session's own):
//   bpflens_open_bench FILE [--reps N] [--width PX]
// loads FILE with SessionReader, hands it to a SessionModel that already has every event
// table, filter model and the TimelineWidget attached (as MainWindow does), paints the timeline
// once (the window is usable from then on), and then times uncached timeline redraws at full
// zoom-out and at 1/10, 1/100, 1/1000 and 1/100000 of the range. One JSON object on stdout.
#include "bench/procstatus.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"
#include "gui/timelinewidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>
#include <ctime>
#include <memory>
#include <vector>

using namespace bpflens;
using bpflens::bench::statusKb;

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "bpflens_open_bench: " << message << '\n';
    return 1;
}

double ms(qint64 ns)
{
    return double(ns) / 1e6;
}

// CPU time of this (the painting) thread: on a shared machine a repaint is often preempted,
// and its wall time then says more about the other processes than about the repaint.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    QString path;
    int reps = 15;
    int width = 1920;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == QLatin1String("--reps") && i + 1 < args.size())
            reps = args.at(++i).toInt();
        else if (a == QLatin1String("--width") && i + 1 < args.size())
            width = args.at(++i).toInt();
        else if (path.isEmpty() && !a.startsWith(QLatin1String("--")))
            path = a;
        else
            return fail(QStringLiteral("usage: bpflens_open_bench FILE [--reps N] [--width PX]"));
    }
    if (path.isEmpty() || reps < 1 || width < 200)
        return fail(QStringLiteral("usage: bpflens_open_bench FILE [--reps N] [--width PX]"));

    // Everything the main window builds before a session arrives.
    SessionModel session;
    ViewState state;
    std::vector<std::unique_ptr<EventTableModel>> tables;
    std::vector<std::unique_ptr<EventFilterModel>> filters;
    QList<EventFilterModel *> lanes;
    for (EventType t : SessionModel::eventTypes()) {
        tables.push_back(std::make_unique<EventTableModel>(&session, t));
        filters.push_back(std::make_unique<EventFilterModel>(tables.back().get(), &state));
        lanes << filters.back().get();
    }
    TimelineWidget timeline(&session, &state, lanes);
    timeline.resize(width, 360);
    (void)timeline.grab(); // fonts, styles: not part of opening a file

    const qint64 before = statusKb("VmRSS");
    QElapsedTimer timer;
    timer.start();
    SessionData data;
    QString error;
    if (!SessionReader::open(path, &data, &error))
        return fail(QStringLiteral("cannot load %1: %2").arg(path, error));
    const qint64 loadNs = timer.nsecsElapsed();
    session.setSession(std::move(data), path);
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    const qint64 modelNs = timer.nsecsElapsed() - loadNs;
    (void)timeline.grab();
    const qint64 openNs = timer.nsecsElapsed();
    const qint64 peak = statusKb("VmHWM");
    const qint64 rss = statusKb("VmRSS");
    const qint64 n = session.events().totalCount();
    if (n == 0)
        return fail(QStringLiteral("%1 holds no events").arg(path));

    // Uncached redraws: each repetition pans by a few nanoseconds, so the binned picture of
    // the previous one cannot be reused, exactly like a user panning or zooming.
    QJsonArray redraws;
    const quint64 a = state.fullStartNs(), b = state.fullEndNs();
    for (const quint64 divisor : {1ull, 10ull, 100ull, 1000ull, 100000ull}) {
        const quint64 span = std::max<quint64>((b - a) / divisor, ViewState::MinimumSpanNs);
        // Zoomed views look at the middle of the session, where the events are.
        const quint64 start = divisor == 1 ? a : a + (b - a) / 2;
        std::vector<double> times;
        std::vector<double> cpu;
        for (int r = 0; r < reps; ++r) {
            const quint64 shift = divisor == 1 ? 0 : quint64(r + 1) * 7;
            if (divisor == 1)
                state.setRange(a, b - quint64(r % 2)); // full range, alternating by 1 ns
            else
                state.setRange(start + shift, start + shift + span);
            QElapsedTimer t;
            const double cpu0 = threadCpuMs();
            t.start();
            (void)timeline.grab();
            times.push_back(ms(t.nsecsElapsed()));
            cpu.push_back(threadCpuMs() - cpu0);
        }
        std::sort(times.begin(), times.end());
        std::sort(cpu.begin(), cpu.end());
        redraws.append(QJsonObject{{QStringLiteral("zoom"), double(divisor)},
                                   {QStringLiteral("p50_ms"), times[times.size() / 2]},
                                   {QStringLiteral("max_ms"), times.back()},
                                   {QStringLiteral("cpu_p50_ms"), cpu[cpu.size() / 2]}});
    }

    const qint64 fileBytes = QFileInfo(path).size();
    QJsonObject out{
        {QStringLiteral("events"), n},
        {QStringLiteral("schema"), session.info().schemaVersion},
        {QStringLiteral("load_s"), double(loadNs) / 1e9},
        {QStringLiteral("model_s"), double(modelNs) / 1e9},
        {QStringLiteral("open_s"), double(openNs) / 1e9},
        {QStringLiteral("rss_before_kb"), before},
        {QStringLiteral("peak_kb"), peak},
        {QStringLiteral("rss_after_kb"), rss},
        {QStringLiteral("store_bytes_per_event"),
         double(session.events().memoryBytes()) / double(n)},
        {QStringLiteral("peak_bytes_per_event"), double(peak - before) * 1024 / double(n)},
        {QStringLiteral("resident_bytes_per_event"), double(rss - before) * 1024 / double(n)},
        {QStringLiteral("file_bytes"), fileBytes},
        {QStringLiteral("file_bytes_per_event"), double(fileBytes) / double(n)},
        {QStringLiteral("redraw"), redraws}};
    QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}
