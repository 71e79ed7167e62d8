// Switching between the results' groups of views on a large session, and the Overview's
// computation, each against the timeline's first paint in the same process (issue #29: a page
// switch under 100 ms, the Overview under 1 s at 10M events; bench/run reports them as ratios,
// no test times them):
//   bpflens_pages_bench FILE [--reps N]
// loads FILE, hands it to a SessionModel with a ResultsPage attached (every view, as the main
// window has them, at 1366x768), paints the timeline once (the first paint), then times the
// first switch to each group (Overview is the group a session opens on), re-shows of each, and
// computeOverview() over the whole range as the Overview page runs it. One JSON object on
// stdout.
#include "core/overview.h"
#include "core/sessionstore.h"
#include "gui/detailspane.h"
#include "gui/explainpage.h"
#include "gui/heatmapview.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"
#include "gui/overviewpage.h"
#include "gui/resultspage.h"
#include "gui/timelinewidget.h"
#include "gui/toppage.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <QTextStream>
#include <QThread>

#include <algorithm>
#include <vector>

using namespace bpflens;

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "bpflens_pages_bench: " << message << '\n';
    return 1;
}

double msSince(const QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// What a user waits for: the tab's page laid out and painted, whatever it then computes in a
// worker (Overview, CPU, Top say "Computing…" meanwhile).
double switchMs(ResultsPage &page, int index)
{
    QElapsedTimer t;
    t.start();
    page.tabs()->setCurrentIndex(index);
    QCoreApplication::processEvents();
    (void)page.grab();
    return msSince(t);
}

// Until the shown views' workers are done (at most a minute): what a switch starts in the
// background must not run into the next measurement, on 2 cores it would be most of it.
void settle(ResultsPage &page)
{
    QElapsedTimer t;
    t.start();
    auto busy = [&page] {
        const auto shownAndComputing = [](const auto *view) {
            return view->isVisible() && view->isComputing();
        };
        return shownAndComputing(page.summaryPanel()->overview()) ||
               shownAndComputing(page.topPage()) || shownAndComputing(page.explainPage()) ||
               shownAndComputing(page.heatmapView());
    };
    // A debounce of a few hundred ms comes before most of them start.
    while ((t.elapsed() < 500 || busy()) && t.elapsed() < 60000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(10);
    }
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    QString path;
    int reps = 5;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--reps") && i + 1 < args.size())
            reps = args.at(++i).toInt();
        else if (path.isEmpty() && !args.at(i).startsWith(QLatin1String("--")))
            path = args.at(i);
        else
            return fail(QStringLiteral("usage: bpflens_pages_bench FILE [--reps N]"));
    }
    if (path.isEmpty() || reps < 1)
        return fail(QStringLiteral("usage: bpflens_pages_bench FILE [--reps N]"));

    SessionModel session;
    ViewState state;
    ResultsPage page(&session, &state);
    page.resize(1366, 700);
    page.show();
    QCoreApplication::processEvents();
    (void)page.grab(); // fonts, styles: not part of the session

    SessionData data;
    QString error;
    if (!SessionReader::open(path, &data, &error))
        return fail(QStringLiteral("cannot load %1: %2").arg(path, error));
    session.setSession(std::move(data), path);
    const qint64 n = session.events().totalCount();
    if (n == 0)
        return fail(QStringLiteral("%1 holds no events").arg(path));
    QElapsedTimer t;
    t.start();
    (void)page.timeline()->grab();
    const double firstPaint = msSince(t);
    settle(page); // the Overview computes for the session just opened

    // The groups in their order; the first switch to each but Overview, the one shown at open.
    const int groups = page.tabs()->count();
    std::vector<double> first(size_t(groups), -1.0);
    for (int i = 1; i < groups; ++i) {
        first[size_t(i)] = switchMs(page, i);
        settle(page);
    }
    std::vector<std::vector<double>> again(static_cast<size_t>(groups));
    for (int r = 0; r < reps; ++r) {
        for (int i = 0; i < groups; ++i) {
            (void)switchMs(page, (i + groups - 1) % groups); // from the group before it
            settle(page);
            again[size_t(i)].push_back(switchMs(page, i));
            settle(page);
        }
    }

    // The Overview page's computation over the whole range, spikes included (its first
    // result), in the page's own call.
    OverviewQuery q;
    q.startNs = q.fullStartNs = state.fullStartNs();
    q.endNs = q.fullEndNs = state.fullEndNs();
    std::vector<double> overview;
    for (int r = 0; r < std::min(reps, 3); ++r) {
        QElapsedTimer o;
        o.start();
        const Overview result = computeOverview(session.data(), q, &session.stacks());
        overview.push_back(msSince(o));
        if (result.eventsInRange <= 0)
            return fail(QStringLiteral("the Overview counted no events"));
    }

    QJsonArray pages;
    for (int i = 0; i < groups; ++i) {
        QString title = page.tabs()->tabText(i);
        title.remove(QLatin1Char('&'));
        QJsonObject o{{QStringLiteral("group"), title},
                      {QStringLiteral("again_p50_ms"), median(again[size_t(i)])},
                      {QStringLiteral("again_max_ms"),
                       *std::max_element(again[size_t(i)].begin(), again[size_t(i)].end())}};
        if (first[size_t(i)] >= 0)
            o.insert(QStringLiteral("first_ms"), first[size_t(i)]);
        pages.append(o);
    }
    const QJsonObject out{{QStringLiteral("events"), n},
                          {QStringLiteral("first_paint_ms"), firstPaint},
                          {QStringLiteral("overview_p50_ms"), median(overview)},
                          {QStringLiteral("pages"), pages}};
    QTextStream(stdout) << QJsonDocument(out).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}
