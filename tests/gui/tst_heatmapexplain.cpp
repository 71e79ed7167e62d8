// Heatmap -> Explain explains the selection (#29 point 5): on a session where off-CPU events
// share the block requests' times and latencies, a heatmap selection over block I/O explains
// exactly the selected block requests (counts against a brute-force count over the session's
// events), lists no value with fewer than five events or one percent of the selection, and the
// selection's histogram under the map has titled axes and a count over every bar.
#include "core/sessionstore.h"
#include "gui/explainpage.h"
#include "gui/heatmapview.h"
#include "gui/mainwindow.h"
#include "gui/models/explainmodel.h"
#include "gui/models/viewstate.h"
#include "gui/resultspage.h"

#include <QApplication>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace bpflens;

namespace {

constexpr quint64 StartNs = 20'000'000'000ull;
constexpr quint64 SecondNs = 1'000'000'000ull;
constexpr quint64 Us = 1000;
constexpr int Seconds = 4;
constexpr int Timeout = 20'000;

// Per second: dd's 4 KiB writes (slow in the third second), tar's reads, and one lone request of
// "once" there; off-CPU events twenty times as many, with latencies in the same buckets.
RecordBatch batch(int second)
{
    RecordBatch b;
    for (int i = 0; i < 200; ++i) {
        BlockEvent e;
        e.timeNs = StartNs + quint64(second) * SecondNs + quint64(i) * (SecondNs / 200) + 7;
        e.dev = 253u << 20;
        e.sector = quint64(i) * 8;
        e.bytes = 4096;
        const bool dd = i % 4 != 0;
        e.pid = dd ? 700 : 800;
        e.comm = dd ? QByteArrayLiteral("dd") : QByteArrayLiteral("tar");
        e.disk = QByteArrayLiteral("vda");
        e.op = dd ? QByteArrayLiteral("Write") : QByteArrayLiteral("Read");
        // dd is slow (1-2 ms) in second 2, otherwise everybody takes 100-200 µs.
        e.deviceNs = (dd && second == 2 ? 1000 * Us : 100 * Us) + quint64(i % 50) * Us;
        if (second == 2 && i == 101) { // one request of its own: never enough to list
            e.pid = 900;
            e.comm = QByteArrayLiteral("once");
            e.deviceNs = 1500 * Us;
        }
        b.block.append(e);
    }
    for (int i = 0; i < 4000; ++i) {
        OffCpuEvent e;
        e.timeNs = StartNs + quint64(second) * SecondNs + quint64(i) * (SecondNs / 4000) + 3;
        e.offNs = (i % 2 ? 1000 * Us : 100 * Us) + quint64(i % 70) * Us;
        e.pid = quint32(1000 + i % 3);
        e.tid = e.pid;
        e.comm = i % 3 ? QByteArrayLiteral("java") : QByteArrayLiteral("kworker/0:1");
        b.offCpu.append(e);
    }
    return b;
}

QString writeSession(const QDir &dir, QString *error)
{
    const QString path = dir.filePath(QStringLiteral("heatmapexplain.bpflens"));
    SessionInfo info;
    info.appVersion = QStringLiteral("0.1.0");
    info.host = QStringLiteral("testhost");
    info.startMonotonicNs = StartNs;
    info.probes = {{QStringLiteral("block"), {}, QStringLiteral("tp_btf/block_rq_complete")},
                   {QStringLiteral("offcpu"), {}, QStringLiteral("tp_btf/sched_switch")}};
    SessionWriter writer;
    if (!writer.create(path, info, error))
        return {};
    for (int s = 0; s < Seconds; ++s) {
        if (!writer.writeBatch(batch(s), error))
            return {};
    }
    if (!writer.finish(StartNs + quint64(Seconds) * SecondNs, error))
        return {};
    return path;
}

struct Counts
{
    qint64 inside = 0, outside = 0;
};

} // namespace

class TestHeatmapExplain : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c());
        QVERIFY(m_dir.isValid());
        QString error;
        m_path = writeSession(QDir(m_dir.path()), &error);
        QVERIFY2(!m_path.isEmpty(), qPrintable(error));
    }

    void explainCountsTheSelection()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        HeatmapView *heatmap = w.results()->heatmapView();
        w.results()->showView(heatmap);
        int block = -1;
        for (int i = 0; i < heatmap->sources().size(); ++i) {
            const HeatmapSource &s = heatmap->sources().at(i);
            if (s.kind == HeatmapSource::Events && s.type == EventType::Block)
                block = i;
        }
        QVERIFY(block >= 0);
        heatmap->setCurrentSource(block);
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->bins().columns > 0 && !heatmap->isComputing(), Timeout);

        // The slow corner: the third second, latencies from 512 µs up.
        const HeatmapBins bins = heatmap->bins();
        const int c0 = bins.columnOf(StartNs + 2 * SecondNs + SecondNs / 10);
        const int c1 = bins.columnOf(StartNs + 3 * SecondNs - SecondNs / 10);
        const int s0 = Log2Histogram::slotOf(512 * Us), s1 = bins.maxSlot;
        heatmap->selectCells(c0, c1, s0, s1);
        QVERIFY(heatmap->hasSelection());
        QVERIFY(heatmap->explainButton()->isEnabled());
        QTest::mouseClick(heatmap->explainButton(), Qt::LeftButton);
        ExplainPage *page = w.results()->explainPage();
        QCOMPARE(w.results()->currentView(), page);
        QTRY_VERIFY_WITH_TIMEOUT(!page->isComputing(), Timeout);
        QCOMPARE(page->scopeType(), std::optional<EventType>(EventType::Block));

        // Brute force over the session's events: the block requests in the selection's range
        // and latency window inside, those in the window outside the range outside.
        const quint64 start = w.viewState()->startNs(), end = w.viewState()->endNs();
        const quint64 low = w.viewState()->filter().minLatencyNs;
        const quint64 high = w.viewState()->filter().maxLatencyNs;
        QCOMPARE(low, bins.slotLowNs(s0));
        SessionData data;
        QVERIFY2(SessionReader::open(m_path, &data, &error), qPrintable(error));
        Counts total;
        std::map<QString, Counts> byProcess;
        qint64 offCpuInside = 0;
        for (EventType type : {EventType::Block, EventType::OffCpu}) {
            for (qsizetype i = 0; i < data.events.count(type); ++i) {
                quint64 ns = 0;
                QVERIFY(data.events.latencyNs(type, i, &ns));
                if (ns < low || (high && ns >= high))
                    continue;
                const quint64 t = data.events.timeNs(type, i);
                const bool in = t >= start && t < end;
                if (type == EventType::OffCpu) {
                    offCpuInside += in;
                    continue;
                }
                ++(in ? total.inside : total.outside);
                const BlockEvent e = data.events.event<BlockEvent>(i);
                Counts &c = byProcess[QString::number(e.pid) + u' ' + QString::fromUtf8(e.comm)];
                ++(in ? c.inside : c.outside);
            }
        }
        QVERIFY(total.inside > 100);
        QVERIFY(offCpuInside > total.inside); // what the old explanation counted as well
        const Explanation &x = page->model()->explanation();
        QCOMPARE(x.insideEvents, total.inside);
        QCOMPARE(x.outsideEvents, total.outside);
        const QString summary = page->summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("Block I/O")) &&
                     summary.contains(QStringLiteral("%1 inside, %2 outside")
                                          .arg(QLocale().toString(total.inside),
                                               QLocale().toString(total.outside))),
                 qPrintable(summary));

        // Every row has its support; dd's row has the brute-force counts; "once", one request,
        // is not listed.
        QVERIFY(!x.rows.isEmpty());
        bool sawDd = false;
        for (const ExplainRow &r : x.rows) {
            QVERIFY2(r.inside >= 5 && double(r.inside) >= 0.01 * double(r.insideTotal),
                     qPrintable(r.key));
            QVERIFY2(r.key != QStringLiteral("900 once") && r.key != QStringLiteral("once"),
                     qPrintable(r.key));
            if (r.dimension == Dimension::Process) {
                QVERIFY2(byProcess.count(r.key), qPrintable(r.key));
                QCOMPARE(r.inside, byProcess[r.key].inside);
                QCOMPARE(r.outside, byProcess[r.key].outside);
                QCOMPARE(r.insideTotal, total.inside);
                sawDd = sawDd || r.key == QStringLiteral("700 dd");
            }
        }
        QVERIFY(sawDd);
        QCOMPARE(byProcess[QStringLiteral("900 once")].inside, 1);

        // Zoomed elsewhere, the range is no longer the selection: every type again.
        w.viewState()->setRange(StartNs + SecondNs, StartNs + 2 * SecondNs);
        QTRY_VERIFY_WITH_TIMEOUT(!page->isComputing(), Timeout);
        QCOMPARE(page->scopeType(), std::nullopt);
    }

    void selectionHistogramHasAxesAndCounts()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        HeatmapView *heatmap = w.results()->heatmapView();
        w.results()->showView(heatmap);
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->bins().columns > 0 && !heatmap->isComputing(), Timeout);
        const HeatmapBins bins = heatmap->bins();
        heatmap->selectCells(0, bins.columns - 1, bins.minSlot, bins.maxSlot);
        QTRY_VERIFY_WITH_TIMEOUT(heatmap->hasSelection() && !heatmap->isComputing(), Timeout);
        const Log2Histogram &h = heatmap->selectionHistogram();
        QVERIFY(!h.isEmpty());
        heatmap->selectionHistogramWidget()->grab();
        const QStringList texts = heatmap->selectionHistogramTexts();
        QVERIFY2(texts.contains(QStringLiteral("Latency")), qPrintable(texts.join(u'|')));
        QVERIFY2(texts.contains(heatmap->sources().at(heatmap->currentSource()).kind ==
                                        HeatmapSource::Events
                                    ? QStringLiteral("Events per latency bucket")
                                    : QStringLiteral("Samples per latency bucket")),
                 qPrintable(texts.join(u'|')));
        // Each non-empty bucket's count is written over its bar.
        for (int s = 0; s < Log2Histogram::MaxSlots; ++s) {
            if (h.slot(s))
                QVERIFY2(texts.contains(QLocale().toString(h.slot(s))),
                         qPrintable(QString::number(h.slot(s)) + u' ' + texts.join(u'|')));
        }
        QVERIFY(heatmap->selectionHistogramWidget()->height() >=
                heatmap->selectionHistogramWidget()->fontMetrics().height() * 5);
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

QTEST_MAIN(TestHeatmapExplain)
#include "tst_heatmapexplain.moc"
