// Every declared probe (core/probes.h) in the GUI: its row in the probe panel, and what it
// counts in the Counters view, from a session with what each probe declares it reports
// (everyprobe.h). A probe added to BPFLENS_PROBES is covered without a line here.
#include "core/sessionstore.h"
#include "gui/countersview.h"
#include "gui/mainwindow.h"
#include "gui/probepanel.h"
#include "gui/resultspage.h"
#include "tests/everyprobe.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;
using namespace bpflens::test;

class TestGuiEveryProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyProbeInThePanel()
    {
        MainWindow w;
        for (const ProbeInfo &p : ProbeCatalog::probes()) {
            QCheckBox *check = w.probePanel()->checkBox(p.id);
            QVERIFY2(check, qPrintable(p.id));
            QCOMPARE(check->text(), ProbeCatalog::translated(p.title));
            for (const ProbeOption &o : p.options) {
                if (!o.internal)
                    QVERIFY2(w.probePanel()->optionEditor(p.id, o.name),
                             qPrintable(p.id + QLatin1Char(':') + o.name));
            }
        }
    }

    void everyProbeInTheCountersView()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("every.bpflens"));
        constexpr quint64 Start = 10'000'000'000ull;
        {
            SessionInfo info;
            info.schemaVersion = SessionSchemaVersion;
            info.appVersion = QStringLiteral("test");
            info.host = QStringLiteral("host");
            info.startWall = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
            info.startMonotonicNs = Start;
            info.probes = everyProbeConfig();
            SessionWriter writer;
            QString error;
            QVERIFY2(writer.create(path, info, &error), qPrintable(error));
            QVERIFY2(writer.writeBatch(everyProbeBatch(Start), &error), qPrintable(error));
            QVERIFY2(writer.finish(Start + 3'000'000'000ull, &error), qPrintable(error));
        }
        MainWindow w;
        QVERIFY(w.openFile(path));
        CountersView *v = w.results()->countersView();
        for (const ProbeInfo &p : ProbeCatalog::probes()) {
            if (p.isKeyed()) {
                // A chart of its own with its title and a line for its key.
                QChartView *chart = v->keyedChart(p.id);
                QVERIFY2(chart && chart->isVisibleTo(v), qPrintable(p.id));
                QCOMPARE(chart->chart()->title(),
                         QCoreApplication::translate("bpflens::CountersView",
                                                     p.keyed.chartTitle.toUtf8().constData()));
                QLineSeries *line = v->series(declaredKey(p));
                QVERIFY2(line, qPrintable(p.id));
                QVERIFY(chart->chart()->series().contains(line));
            }
            if (!p.counterCharts.title.isEmpty()) {
                QVERIFY2(v->countsChart()->isVisibleTo(v), qPrintable(p.id));
                for (const ProbeCounter &c : p.counters) {
                    QLineSeries *line = v->series(c.name);
                    QVERIFY2(line, qPrintable(p.id + QLatin1Char(' ') + c.name));
                    QCOMPARE(line->name(), CountersView::cacheCounterTitle(c.name));
                }
            }
            // Loss counters are no lines: the Summary names them.
            for (const QString &loss : p.lossCounters())
                QVERIFY2(!v->series(loss), qPrintable(p.id + QLatin1Char(' ') + loss));
        }
    }
};

QTEST_MAIN(TestGuiEveryProbe)
#include "tst_guieveryprobe.moc"
