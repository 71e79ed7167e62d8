#include "core/csvexport.h"
#include "gui/appidentity.h"
#include "gui/countersview.h"
#include "gui/detailspane.h"
#include "gui/exportcontroller.h"
#include "gui/heatmapview.h"
#include "gui/histogramview.h"
#include "gui/latencyspinbox.h"
#include "gui/mainwindow.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "gui/resultspage.h"
#include "gui/startpage.h"
#include "gui/ticksprites.h"
#include "gui/timelinewidget.h"
#include "gui/translations.h"
#include "tests/gui/guitestdata.h"
#include "tests/gui/modaltest.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDialog>
#include <QFileDialog>
#include <QGraphicsTextItem>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QValueAxis>
#include <QWheelEvent>

#include <cerrno>
#include <cmath>
#include <fcntl.h>
#include <functional>
#include <sqlite3.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

// Counts per slot of what a chart shows, read back from its QBarSet.
QList<quint64> barCounts(QChartView *view)
{
    QList<quint64> counts;
    const auto series = view->chart()->series();
    if (series.isEmpty())
        return counts;
    auto *bars = qobject_cast<QBarSeries *>(series.first());
    if (!bars || bars->barSets().isEmpty())
        return counts;
    QBarSet *set = bars->barSets().first();
    for (int i = 0; i < set->count(); ++i)
        counts << quint64(set->at(i));
    return counts;
}

// The expected chart: slot counts summed by hand over the snapshots whose end lies in
// [start, end), up to the highest non-empty slot.
QList<quint64> expectedCounts(const QString &probe, const QString &key, quint64 start, quint64 end)
{
    std::array<quint64, Log2Histogram::MaxSlots> sum{};
    for (int b = 0; b < Batches; ++b) {
        for (const HistogramSnapshot &h : guiBatch(b).histograms) {
            if (h.probeId != probe || h.key != key || h.timeNs < start || h.timeNs >= end)
                continue;
            for (int s = 0; s < Log2Histogram::MaxSlots; ++s)
                sum[size_t(s)] += h.histogram.slot(s);
        }
    }
    int used = 0;
    for (int s = 0; s < Log2Histogram::MaxSlots; ++s) {
        if (sum[size_t(s)])
            used = s + 1;
    }
    QList<quint64> counts;
    for (int s = 0; s < std::max(used, 1); ++s)
        counts << sum[size_t(s)];
    return counts;
}

int distinctColours(const QImage &image)
{
    QSet<QRgb> colours;
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < img.height(); y += 2) {
        const QRgb *line = reinterpret_cast<const QRgb *>(img.constScanLine(y));
        for (int x = 0; x < img.width(); x += 2)
            colours.insert(line[x]);
    }
    return int(colours.size());
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A trace's events counted by category (the probe) and phase: "exec i", "block X", "M" for the
// process and thread names.
QMap<QString, int> traceCounts(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject()) {
        *error = parseError.errorString();
        return {};
    }
    QMap<QString, int> counts;
    for (const QJsonValue &v : doc.object().value(QStringLiteral("traceEvents")).toArray()) {
        const QJsonObject e = v.toObject();
        const QString ph = e.value(QStringLiteral("ph")).toString();
        const QString cat = e.value(QStringLiteral("cat")).toString();
        ++counts[cat.isEmpty() ? ph : cat + QLatin1Char(' ') + ph];
    }
    return counts;
}

} // namespace

class TestGui : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void latencyFilterTakesUnits();
    void fitsA1280x720Screen();
    void tabsStepFromAnyField();
    void probePanelWrapsInEveryLanguage();
    void histogramLogScale();
    void applicationIdentityAndHeadlessStart();
    void initTestCase();
    void opensSessionAndShowsSummary();
    void killedRecordingShowsItsDuration();
    void workloadFilterPicksContainerOrUnit();
    void histogramSeriesHoldBlockCounts();
    void timelineBinsHoldEvents();
    void textFilterFindsKnownFile();
    void wheelZoomKeepsCursorTimeAndNarrowsViews();
    void rubberBandKeysAndPan();
    void clickSelectsEventEverywhere();
    void modelsPassModelTester();
    void liveAppendGrowsModels();
    void retransmitsPerConnectionChart();
    void connectsPerDestinationChart();
    void tracepointHitsPerKeyChart();
    void usdtHitsPerKeyChart();
    void csvExportMatchesCsvExport();
    void exportTraceMatchesTheCli();
    void openFlagsAndErrorsReadAsNames();
    void everyHistogramBucketIsLabelled();
    void emptyWindowSaysWhatToDo();
    void lanesOfProbesNotRecordedStayHidden();
    void countersOnlySessionSaysItHasNoEvents();
    void narrowDetailsNeverScrollSideways();
    void histogramTicksAreWholeCounts();
    void histogramLabelsNeverOverlap();
    void histogramsStayWhenTheRangeHasNoData();
    void timeOfDayInTablesLikeExecsnoopT();
    void numbersFollowTheLocale();
    void damagedFileShowsErrorAndKeepsSession();
    void damagedFileOpensWithBanner();
    void dropOpensSessionAndGeometryPersists();
    void viewsRenderToPng();
    void exportsChartAsSvgAndPng();
    void exportOneProbeDialogShowsItsTitle();
    void binningBenchmark();
    void binsMatchBruteForceAtEveryZoom();
    void binsMatchBruteForceWithEqualTimes();
    void tickSpritesMatchDirectDrawing();

private:
    QTemporaryDir m_dir;
    QString m_path;
    SessionData m_data;
};

void TestGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("BPF Lens Tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_gui"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QString error;
    m_path = writeGuiSession(QDir(m_dir.path()), &error);
    QVERIFY2(!m_path.isEmpty(), qPrintable(error));
    QVERIFY2(SessionReader::open(m_path, &m_data, &error), qPrintable(error));
}

// A file whose recorder was killed has no end time: its duration runs to its newest data.
void TestGui::killedRecordingShowsItsDuration()
{
    const QString path = QDir(m_dir.path()).filePath(QStringLiteral("killed.bpflens"));
    SessionInfo info = m_data.info;
    info.endMonotonicNs = 0;
    RecordBatch batch;
    ExecEvent e;
    e.timeNs = info.startMonotonicNs + 2'500'000'000ull;
    e.comm = "sh";
    batch.exec.append(e);
    SessionWriter writer;
    QString error;
    QVERIFY2(writer.create(path, info, &error), qPrintable(error));
    QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
    writer.close(); // as a killed recorder leaves it: no finish()
    MainWindow w;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    QTreeWidget *facts = w.results()->summaryPanel()->facts();
    QString duration;
    for (int i = 0; i < facts->topLevelItemCount(); ++i)
        if (facts->topLevelItem(i)->text(0) == QLatin1String("Duration"))
            duration = facts->topLevelItem(i)->text(1);
    QVERIFY2(duration.startsWith(EventTableModel::formatDuration(2'500'000'000ull) +
                                 QStringLiteral(" up to the newest data")),
             qPrintable(duration));
}

// The filter bar's container and unit box: every container and unit of the session's cgroups,
// and picking one leaves exactly its events in the tables and on the timeline (a unit with its
// nested cgroups); a session of one cgroup does not show the box.
void TestGui::workloadFilterPicksContainerOrUnit()
{
    const QByteArray id = "3f4e5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081";
    const QString path = QDir(m_dir.path()).filePath(QStringLiteral("workloads.bpflens"));
    SessionInfo info = m_data.info;
    RecordBatch batch;
    batch.cgroups = {{1, "/system.slice/docker-" + id + ".scope"},
                     {2, "/system.slice/nginx.service"},
                     {3, "/system.slice/nginx.service/worker"},
                     {4, "/user.slice/user-1000.slice/session-2.scope"}};
    // cgroup c: c opens (10 in all) and one exec each
    for (quint64 c = 1; c <= 4; ++c) {
        for (quint64 i = 0; i < c; ++i) {
            OpenEvent o;
            o.timeNs = info.startMonotonicNs + 1'000'000 * (10 * c + i);
            o.pid = quint32(100 * c);
            o.comm = "worker";
            o.path = "/etc/hosts";
            o.cgroupId = c;
            batch.open.append(o);
        }
        ExecEvent e;
        e.timeNs = info.startMonotonicNs + 1'000'000 * (10 * c + 9);
        e.pid = quint32(100 * c);
        e.comm = "sh";
        e.cgroupId = c;
        batch.exec.append(e);
    }
    {
        SessionWriter writer;
        QString error;
        QVERIFY2(writer.create(path, info, &error), qPrintable(error));
        QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
        QVERIFY2(writer.finish(info.startMonotonicNs + 1'000'000'000, &error), qPrintable(error));
    }
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    QComboBox *box = w.results()->workloadFilter();
    QVERIFY(!box->isHidden());
    QStringList items;
    for (int i = 0; i < box->count(); ++i)
        items << box->itemText(i);
    QCOMPARE(items, (QStringList{QStringLiteral("Every container and unit"),
                                 QStringLiteral("Container docker 3f4e5a6b7c8d"), QString(),
                                 QStringLiteral("Unit docker-%1.scope").arg(QLatin1String(id)),
                                 QStringLiteral("Unit nginx.service"),
                                 QStringLiteral("Unit session-2.scope")}));
    EventFilterModel *open = w.results()->filterModel(EventType::Open);
    EventFilterModel *exec = w.results()->filterModel(EventType::Exec);
    QCOMPARE(open->rowCount(), 10);
    box->setCurrentIndex(box->findText(QStringLiteral("Unit nginx.service")));
    QCOMPARE(open->rowCount(), 2 + 3); // the service and its worker cgroup
    QCOMPARE(exec->rowCount(), 2);
    QCOMPARE(w.results()->timeline()->laneBins(EventType::Open).total, 5);
    box->setCurrentIndex(1);
    QCOMPARE(open->rowCount(), 1);
    QCOMPARE(exec->rowCount(), 1);
    // A filter set elsewhere without a workload (a cleared bar) resets the box.
    w.viewState()->setFilter({});
    QCOMPARE(box->currentIndex(), 0);
    QCOMPARE(open->rowCount(), 10);

    // One cgroup: nothing to choose between.
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    QVERIFY(box->isHidden());
}

void TestGui::opensSessionAndShowsSummary()
{
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    QCOMPARE(w.session()->events().count(EventType::Exec), Batches * ExecPerBatch);
    QCOMPARE(w.session()->events().count(EventType::Open), Batches * OpenPerBatch);
    QVERIFY(w.windowTitle().contains(QLatin1String("gui.bpflens")));
    QCOMPARE(w.recentFiles().value(0), QFileInfo(m_path).absoluteFilePath());

    // Host, kernel and per-probe seen/lost with the attach path; lost shown even when 0.
    QTreeWidget *facts = w.results()->summaryPanel()->facts();
    QStringList factTexts;
    for (int i = 0; i < facts->topLevelItemCount(); ++i)
        factTexts << facts->topLevelItem(i)->text(1);
    QVERIFY(factTexts.contains(QStringLiteral("testhost")));
    QVERIFY(factTexts.contains(QStringLiteral("6.18.0-test")));
    QTreeWidget *probes = w.results()->summaryPanel()->probes();
    QCOMPARE(probes->topLevelItemCount(), 3);
    using P = SummaryPanel;
    QCOMPARE(probes->headerItem()->text(P::UnseenColumn), QStringLiteral("Not seen"));
    for (int i = 0; i < probes->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = probes->topLevelItem(i);
        QCOMPARE(item->text(P::SeenColumn), QLocale().toString(300)); // the last sample
        const QString id = item->text(P::ProbeIdColumn);
        // Each cause in its own column, bold and explained where there are any.
        QCOMPARE(item->text(P::LostColumn),
                 id == QLatin1String("open") ? QStringLiteral("6") : QStringLiteral("0"));
        QCOMPARE(item->text(P::UnseenColumn),
                 id == QLatin1String("block") ? QStringLiteral("2") : QStringLiteral("0"));
        QCOMPARE(item->text(P::UnfinishedColumn),
                 id == QLatin1String("block") ? QStringLiteral("1") : QStringLiteral("0"));
        QCOMPARE(item->font(P::LostColumn).bold(), id == QLatin1String("open"));
        QCOMPARE(item->font(P::UnseenColumn).bold(), id == QLatin1String("block"));
        QCOMPARE(item->toolTip(P::UnseenColumn).isEmpty(), id != QLatin1String("block"));
        if (id == QLatin1String("open"))
            QCOMPARE(item->text(P::AttachColumn), QStringLiteral("tp/syscalls/sys_enter_openat"));
        // Options as the command line writes them, only those that differ from the defaults.
        QCOMPARE(item->text(P::OptionsColumn), id == QLatin1String("block")
                                                   ? QStringLiteral("perDisk")
                                                   : QStringLiteral("defaults"));
        if (id == QLatin1String("block"))
            QVERIFY(item->toolTip(P::OptionsColumn).contains(QStringLiteral("queued=false")));
    }
    // Whole-session range: from the session start to past the last sample.
    QCOMPARE(w.viewState()->startNs(), StartNs);
    QVERIFY(w.viewState()->endNs() > blockTime(Batches - 1, BlockPerBatch - 1));
}

void TestGui::latencyFilterTakesUnits()
{
    // Typed with a unit as biolatency and ext4slower users write thresholds; a bare number is
    // µs ("10ms" was read as 10 µs).
    const QLocale c = QLocale::c(), de(QLocale::German);
    QCOMPARE(LatencySpinBox::parseMicroseconds(QStringLiteral("10ms"), c), 10000.0);
    QCOMPARE(LatencySpinBox::parseMicroseconds(QStringLiteral("1.5 s"), c), 1.5e6);
    QCOMPARE(LatencySpinBox::parseMicroseconds(QStringLiteral("250"), c), 250.0);
    QCOMPARE(LatencySpinBox::parseMicroseconds(QStringLiteral("250 µs"), c), 250.0);
    QCOMPARE(LatencySpinBox::parseMicroseconds(QStringLiteral("250US"), c), 250.0);
    QCOMPARE(LatencySpinBox::parseMicroseconds(QStringLiteral("800ns"), c), 0.8);
    QCOMPARE(LatencySpinBox::parseMicroseconds(QStringLiteral("1,5 ms"), de), 1500.0);
    QCOMPARE(LatencySpinBox::parseMicroseconds(QStringLiteral("1.5 ms"), de), 1500.0);
    QVERIFY(!LatencySpinBox::parseMicroseconds(QStringLiteral("ten ms"), c));
    QVERIFY(!LatencySpinBox::parseMicroseconds(QStringLiteral("10 min"), c));

    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    LatencySpinBox *box = w.results()->latencyFilter();
    box->findChild<QLineEdit *>()->setText(QStringLiteral("10ms"));
    box->interpretText();
    QCOMPARE(box->value(), 10000.0);
    QTRY_COMPARE(w.viewState()->filter().minLatencyNs, quint64(10000000));
    // What it shows reads back as the same value (stepping and focus changes re-read it).
    QCOMPARE(LatencySpinBox::parseMicroseconds(box->text(), box->locale()), 10000.0);
    for (const QLocale &l :
         {QLocale(QLocale::German), QLocale(QLocale::English, QLocale::UnitedStates),
          QLocale(QLocale::Chinese, QLocale::China)}) {
        box->setLocale(l);
        box->setValue(123456.5);
        QCOMPARE(LatencySpinBox::parseMicroseconds(box->text(), l), 123456.5);
    }
    box->setValue(0);
    QCOMPARE(box->text(), QStringLiteral("any latency"));
}

void TestGui::fitsA1280x720Screen()
{
    // With a session open on every group of views, the window
    // can be made as small as a 1280x720 screen's work area: the test session, and the example
    // recording a new user opens first (real lanes, CPU samples per process).
    const QString example = StartPage::examplePath();
    QVERIFY2(!example.isEmpty(), "the example recording is not found");
    for (const QString &path : {m_path, example}) {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(path, &error), qPrintable(error));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (int i = 0; i < w.results()->tabs()->count(); ++i) {
            w.results()->tabs()->setCurrentIndex(i);
            QCoreApplication::processEvents();
            const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
            QVERIFY2(min.width() <= 1280 && min.height() <= 720,
                     qPrintable(QStringLiteral("%1, tab %2 (%3): minimum %4x%5")
                                    .arg(QFileInfo(path).fileName())
                                    .arg(i)
                                    .arg(w.results()->tabs()->tabText(i))
                                    .arg(min.width())
                                    .arg(min.height())));
        }
        w.resize(1280, 720);
        QCoreApplication::processEvents();
        QVERIFY2(w.width() <= 1280 && w.height() <= 720,
                 qPrintable(QStringLiteral("%1x%2").arg(w.width()).arg(w.height())));
    }
}

// View > Next Tab (Ctrl+PgDown) and Previous Tab step through the tabs from wherever the focus
// is: from the heatmap's combo box, which keeps Ctrl+Tab from the tab widget, and round the end.
void TestGui::tabsStepFromAnyField()
{
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTabWidget *tabs = w.results()->tabs();
    w.results()->showView(w.results()->heatmapView());
    auto *combo = w.results()->heatmapView()->findChild<QComboBox *>();
    QVERIFY(combo);
    combo->setFocus();
    QTRY_VERIFY(combo->hasFocus());
    const int heatmap = tabs->currentIndex();
    // A group's own tabs are steps too: Histograms, then Heatmap, then the CPU group.
    w.results()->showView(w.results()->histogramView());
    QTest::keyClick(&w, Qt::Key_PageDown, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), heatmap);
    QVERIFY(w.results()->heatmapView()->isVisible());
    combo->setFocus();
    QTRY_VERIFY(combo->hasFocus());
    QTest::keyClick(combo, Qt::Key_PageDown, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), heatmap + 1);
    QTest::keyClick(tabs->currentWidget(), Qt::Key_PageUp, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), heatmap);
    tabs->setCurrentIndex(0);
    QTest::keyClick(&w, Qt::Key_PageUp, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), tabs->count() - 1);
    QTest::keyClick(&w, Qt::Key_PageDown, Qt::ControlModifier);
    QCOMPARE(tabs->currentIndex(), 0);
}

// The probe panel's descriptions wrap at the recording page's width in every language: in
// Chinese their width hint had made the probe dock 510 px wide at 1366x768. On its own page the
// panel must not scroll sideways either.
void TestGui::probePanelWrapsInEveryLanguage()
{
    const auto restore = qScopeGuard([] { installTranslations(QLocale::c()); });
    for (const char *locale : {"C", "de_DE", "zh_CN"}) {
        QVERIFY(installTranslations(QLocale(QLatin1String(locale))) || qstrcmp(locale, "C") == 0);
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showRecordPage(true);
        QCoreApplication::processEvents();
        QVERIFY(w.probePanel()->isVisible());
        auto *scroll = w.probePanel()->findChild<QScrollArea *>();
        QVERIFY(scroll);
        QVERIFY2(scroll->widget()->minimumSizeHint().width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("%1: content %2 px in a viewport of %3 px")
                                .arg(QLatin1String(locale))
                                .arg(scroll->widget()->minimumSizeHint().width())
                                .arg(scroll->viewport()->width())));
    }
}

// Log scale: every chart's count axis turns logarithmic and labels its powers of ten, every bar
// with a count stays drawn, and switching back gives the whole-number axis again.
void TestGui::histogramLogScale()
{
    MainWindow w;
    w.resize(1366, 768);
    QVERIFY(w.openFile(m_path));
    w.show();
    w.results()->showView(w.results()->histogramView());
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.results()->histogramView()->setLogScale(true);
    QCoreApplication::processEvents();
    const QList<QChartView *> views = w.results()->histogramView()->chartViews();
    QVERIFY(!views.isEmpty());
    for (QChartView *view : views) {
        auto *log = qobject_cast<QLogValueAxis *>(view->chart()->axes(Qt::Vertical).value(0));
        QVERIFY2(log, qPrintable(view->chart()->title()));
        QCOMPARE(view->chart()->axes(Qt::Vertical).size(), 1);
        QBarSet *set =
            qobject_cast<QBarSeries *>(view->chart()->series().first())->barSets().first();
        qreal highest = 0;
        for (int i = 0; i < set->count(); ++i)
            highest = std::max(highest, set->at(i));
        QVERIFY(log->min() < 1 && log->max() >= highest);
        QStringList shown;
        for (QGraphicsItem *item : view->scene()->items()) {
            auto *text = qgraphicsitem_cast<QGraphicsTextItem *>(item);
            if (text && text->isVisible())
                shown << text->toPlainText();
        }
        for (qreal tick = 1; tick <= log->max(); tick *= 10)
            QVERIFY2(shown.contains(QLocale().toString(qint64(tick))),
                     qPrintable(view->chart()->title() + QStringLiteral(": no tick ") +
                                QString::number(tick)));
    }
    w.results()->histogramView()->setLogScale(false);
    QCoreApplication::processEvents();
    for (QChartView *view : w.results()->histogramView()->chartViews())
        QVERIFY(qobject_cast<QValueAxis *>(view->chart()->axes(Qt::Vertical).value(0)));
}

void TestGui::applicationIdentityAndHeadlessStart()
{
    // The desktop matches the window to io.github.bpflens.desktop, and the window has the
    // application's icon, from the theme or the built-in copy.
    setApplicationIdentity();
    QCOMPARE(QGuiApplication::desktopFileName(), QStringLiteral("io.github.bpflens"));
    QVERIFY(
        QFile::exists(QStringLiteral(BPFLENS_SOURCE_DIR "/resources/io.github.bpflens.desktop")));
    const QImage icon = QApplication::windowIcon().pixmap(64, 64).toImage();
    QVERIFY(!icon.isNull());
    int opaque = 0;
    for (int y = 0; y < icon.height(); ++y)
        for (int x = 0; x < icon.width(); ++x)
            opaque += qAlpha(icon.pixel(x, y)) > 128;
    QVERIFY2(opaque > 64 * 64 / 4, qPrintable(QString::number(opaque))); // drawn, not blank
    MainWindow w;
    QVERIFY(!w.windowIcon().isNull());

    // No display: one line that says so and what to use instead, exit 2, no core dump.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *key : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QLatin1String(key));
    QProcess gui;
    gui.setProcessEnvironment(env);
    gui.start(QStringLiteral(BPFLENS_GUI), {QStringLiteral("some.bpflens")});
    QVERIFY(gui.waitForFinished(30000));
    QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
    QCOMPARE(gui.exitCode(), 2);
    const QString err = QString::fromUtf8(gui.readAllStandardError());
    QCOMPARE(err.count(QLatin1Char('\n')), 1);
    QVERIFY2(err.contains(QLatin1String("needs a graphical session")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("bpflens-cli show")), qPrintable(err));
    // --version still answers there.
    gui.start(QStringLiteral(BPFLENS_GUI), {QStringLiteral("--version")});
    QVERIFY(gui.waitForFinished(30000));
    QCOMPARE(gui.exitCode(), 0);
    QVERIFY(gui.readAllStandardOutput().contains(BPFLENS_VERSION));
}

void TestGui::histogramSeriesHoldBlockCounts()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    HistogramView *hv = w.results()->histogramView();
    QCOMPARE(hv->chartViews().size(), 3); // block/vda, block/vdb, runqlat
    const quint64 all = ~quint64(0);
    for (const QString &disk : {QStringLiteral("vda"), QStringLiteral("vdb")}) {
        QChartView *view = hv->chartView(QStringLiteral("block"), disk);
        QVERIFY(view);
        QCOMPARE(barCounts(view), expectedCounts(QStringLiteral("block"), disk, 0, all));
        auto *axis = qobject_cast<QBarCategoryAxis *>(view->chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(axis);
        QCOMPARE(axis->categories().value(0), QStringLiteral("0 -> 1"));
        QCOMPARE(axis->categories().value(1), QStringLiteral("2 -> 3"));
        QCOMPARE(axis->categories().value(5), QStringLiteral("32 -> 63"));
        QVERIFY(view->chart()->title().contains(QLatin1String("p50")));
        QVERIFY(view->chart()->title().contains(QLatin1String("p99")));
        // The p50 and p99 buckets are marked.
        Log2Histogram merged;
        const QList<quint64> counts = expectedCounts(QStringLiteral("block"), disk, 0, all);
        for (int s = 0; s < counts.size(); ++s)
            merged.addToSlot(s, counts.at(s));
        QBarSet *set =
            qobject_cast<QBarSeries *>(view->chart()->series().first())->barSets().first();
        QList<int> marked{Log2Histogram::slotOf(quint64(merged.percentile(0.5))),
                          Log2Histogram::slotOf(quint64(merged.percentile(0.99)))};
        std::sort(marked.begin(), marked.end());
        marked.erase(std::unique(marked.begin(), marked.end()), marked.end());
        QList<int> selected = set->selectedBars();
        std::sort(selected.begin(), selected.end());
        QCOMPARE(selected, marked);
    }
    QCOMPARE(barCounts(hv->chartView(QStringLiteral("runqlat"), QString())),
             expectedCounts(QStringLiteral("runqlat"), QString(), 0, all));

    // Hovering a bar names its range, count and share.
    auto *series = qobject_cast<QBarSeries *>(
        hv->chartView(QStringLiteral("block"), QStringLiteral("vda"))->chart()->series().first());
    const QList<quint64> counts =
        expectedCounts(QStringLiteral("block"), QStringLiteral("vda"), 0, all);
    quint64 total = 0;
    for (quint64 c : counts)
        total += c;
    Q_EMIT series->barSets().first()->hovered(true, 4);
    QVERIFY2(
        hv->lastHoverText().startsWith(QStringLiteral("16 -> 31 usecs: %1 (").arg(counts.at(4))),
        qPrintable(hv->lastHoverText()));
    QVERIFY(hv->lastHoverText().contains(
        QString::number(100.0 * double(counts.at(4)) / double(total), 'f', 1)));

    // Interval mode: the last snapshot inside the range, not the sum.
    hv->setMode(HistogramMode::Interval);
    const quint64 lastEnd = StartNs + Batches * SecondNs;
    QCOMPARE(barCounts(hv->chartView(QStringLiteral("block"), QStringLiteral("vda"))),
             expectedCounts(QStringLiteral("block"), QStringLiteral("vda"), lastEnd, lastEnd + 1));
}

void TestGui::timelineBinsHoldEvents()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TimelineWidget *tl = w.results()->timeline();
    for (auto [type, n] : {std::pair{EventType::Exec, Batches * ExecPerBatch},
                           std::pair{EventType::Open, Batches * OpenPerBatch}}) {
        const LaneBins &bins = tl->laneBins(type);
        QCOMPARE(bins.total, qsizetype(n));
        quint64 sum = 0;
        for (quint32 c : bins.counts)
            sum += c;
        QCOMPARE(sum, quint64(n));
        QVERIFY(!bins.dense);
        QCOMPARE(bins.spans.size(), size_t(n));
    }
    // Each exec event sits in the pixel column of its time.
    const LaneBins &exec = tl->laneBins(EventType::Exec);
    const QRect lane = tl->laneRect(EventType::Exec);
    for (const LaneBins::Span &s : exec.spans) {
        const quint64 t = w.session()->events().timeNs(EventType::Exec, s.index);
        QVERIFY(qAbs(lane.left() + s.x0 - tl->xForTime(t)) < 1e-6);
        QVERIFY2(exec.counts[size_t(s.x0)] > 0,
                 qPrintable(QStringLiteral("x0 %1 of %2 columns, lane %3 wide, event %4")
                                .arg(s.x0)
                                .arg(exec.counts.size())
                                .arg(lane.width())
                                .arg(s.index)));
    }
    // And that is where its tick is painted: the head's centre (a blitted sprite) is the
    // lane's colour at the event's column.
    const QImage shot = tl->grab().toImage();
    const int headY = lane.top() + lane.height() / 5;
    for (const LaneBins::Span &s : exec.spans) {
        const int x = int(std::lround(lane.left() + s.x0));
        const QColor c = shot.pixelColor(x, headY);
        QVERIFY2(
            qAbs(c.red() - 0x2e) + qAbs(c.green() - 0x9d) + qAbs(c.blue() - 0x5b) < 24,
            qPrintable(
                QStringLiteral("tick of exec %1 at x %2: %3").arg(s.index).arg(x).arg(c.name())));
    }
    // Block requests are drawn over their duration, coloured by operation.
    const LaneBins &block = tl->laneBins(EventType::Block);
    QCOMPARE(block.spans.size(), size_t(Batches * BlockPerBatch));
    for (const LaneBins::Span &s : block.spans) {
        const BlockEvent e = w.session()->events().block(s.index);
        QVERIFY(s.x1 > s.x0);
        QCOMPARE(s.category, e.op == "Read" ? LaneBins::Read : LaneBins::Write);
    }
}

// Before anything is recorded or opened: no time axis of a placeholder nanosecond, no
// "schema 0", and the timeline says how to get data.
void TestGui::emptyWindowSaysWhatToDo()
{
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY2(w.results()->timeline()->emptyText().contains(QStringLiteral("press Record")),
             qPrintable(w.results()->timeline()->emptyText()));
    QCOMPARE(w.results()->rangeLabel()->text(), QStringLiteral("No session"));
    QTreeWidget *facts = w.results()->summaryPanel()->facts();
    QStringList texts;
    for (int i = 0; i < facts->topLevelItemCount(); ++i)
        texts << facts->topLevelItem(i)->text(0) + QLatin1Char('=') +
                     facts->topLevelItem(i)->text(1);
    QCOMPARE(texts, (QStringList{QStringLiteral("File=(none)"),
                                 QStringLiteral("Session=none yet: record one, or open a .bpflens "
                                                "file")}));
    // The axis draws no tick labels: nothing in its strip but the background and its lines.
    const QImage shot = w.results()->timeline()->grab().toImage();
    const QColor background = w.results()->timeline()->palette().color(QPalette::Window);
    int inked = 0;
    const QRect plot = w.results()->timeline()->plotRect();
    // (The outermost pixels are the keyboard focus frame.)
    for (int x = plot.left() + 2; x < shot.width() - 2; ++x) {
        for (int y = 2; y < plot.top() - 4; ++y)
            inked += shot.pixelColor(x, y) != background;
    }
    QCOMPARE(inked, 0);

    QVERIFY(w.openFile(m_path));
    QVERIFY(w.results()->rangeLabel()->text().startsWith(QStringLiteral("Visible: ")));
    bool schema = false;
    for (int i = 0; i < facts->topLevelItemCount(); ++i)
        schema = schema || facts->topLevelItem(i)->text(1).contains(
                               QStringLiteral("(schema %1)").arg(SessionSchemaVersion));
    QVERIFY(schema);
}

// Qt Charts hides a category's label that is wider than its bar at the chart's edge: at -60
// degrees the last bucket ("64 -> 127") had none. Every bucket's label is drawn.
void TestGui::everyHistogramBucketIsLabelled()
{
    MainWindow w;
    w.resize(1366, 768);
    QVERIFY(w.openFile(m_path));
    w.show();
    w.results()->showView(w.results()->histogramView());
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    for (QChartView *view : w.results()->histogramView()->chartViews()) {
        QTRY_VERIFY(view->isVisible());
        auto *axis = qobject_cast<QBarCategoryAxis *>(view->chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(axis);
        QStringList shown;
        for (QGraphicsItem *item : view->scene()->items()) {
            auto *text = qgraphicsitem_cast<QGraphicsTextItem *>(item);
            if (text && text->isVisible())
                shown << text->toPlainText();
        }
        // Whole counts get whole ticks, above the highest bar.
        auto *values = qobject_cast<QValueAxis *>(view->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(values);
        const qreal step = (values->max() - values->min()) / (values->tickCount() - 1);
        QCOMPARE(values->min(), 0.0);
        QVERIFY2(step >= 1 && step == std::floor(step), qPrintable(QString::number(step)));
        QVERIFY(values->tickCount() <= 7);
        qreal highest = 0;
        QBarSet *set =
            qobject_cast<QBarSeries *>(view->chart()->series().first())->barSets().first();
        for (int i = 0; i < set->count(); ++i)
            highest = std::max(highest, set->at(i));
        QVERIFY(values->max() >= highest);
        // Each tick has its number, in the user's format (Qt 6.4 drew none for "%d" with
        // localized numbers).
        for (int k = 0; k < values->tickCount(); ++k) {
            const QString tick = QLocale().toString(qint64(values->min() + k * step));
            QVERIFY2(shown.contains(tick), qPrintable(view->chart()->title() +
                                                      QStringLiteral(": no tick label ") + tick));
        }
        for (const QString &label : axis->categories())
            QVERIFY2(shown.contains(label),
                     qPrintable(view->chart()->title() + QStringLiteral(": ") + label +
                                QStringLiteral(" not drawn")));
    }
}

// No two labels of a histogram are drawn over each other: the bucket labels along the bottom
// ("1024 -> 2047", rotated), the count ticks, the axis titles and the chart title, for a
// histogram of one bucket up to one of 40 (1 us to 12 days), in charts as wide as the grid
// gives on a 1366x768 screen and as narrow as the views' minimum, one chart and four.
void TestGui::histogramLabelsNeverOverlap()
{
    for (const int buckets : {1, 8, 20, 40}) {
        for (const int charts : {1, 4}) {
            for (const QSize size : {QSize(1366, 768), QSize(760, 560)}) {
                SessionModel session;
                ViewState state;
                HistogramView view(&session, &state);
                SessionData data;
                for (int c = 0; c < charts; ++c) {
                    HistogramSnapshot h;
                    h.probeId = QStringLiteral("block");
                    h.key = QStringLiteral("vd%1").arg(QChar(u'a' + c));
                    h.timeNs = StartNs;
                    h.intervalNs = 1000000000;
                    for (int slot = 0; slot < buckets; ++slot)
                        h.histogram.addToSlot(slot, quint64(1 + (slot * 7919) % 123457));
                    data.histograms.append(h);
                }
                session.setSession(std::move(data));
                state.setFullRange(session.firstTimeNs(), session.endTimeNs() + 1);
                view.resize(size);
                view.show();
                QVERIFY(QTest::qWaitForWindowExposed(&view));
                QCoreApplication::processEvents();
                QCOMPARE(view.chartViews().size(), charts);
                for (QChartView *chart : view.chartViews()) {
                    QList<QPair<QString, QRectF>> labels;
                    for (QGraphicsItem *item : chart->scene()->items()) {
                        auto *text = qgraphicsitem_cast<QGraphicsTextItem *>(item);
                        if (text && text->isVisible() && !text->toPlainText().isEmpty())
                            labels.append({text->toPlainText(), text->sceneBoundingRect()});
                    }
                    // The bucket labels, the ticks and the titles at least.
                    QVERIFY(labels.size() >= buckets + 4);
                    for (qsizetype i = 0; i < labels.size(); ++i) {
                        for (qsizetype j = i + 1; j < labels.size(); ++j) {
                            // A text item's box has a few pixels of document margin around
                            // the glyphs: boxes may touch by that much without the letters
                            // meeting.
                            const QRectF a = labels[i].second.adjusted(3, 3, -3, -3);
                            const QRectF b = labels[j].second.adjusted(3, 3, -3, -3);
                            QVERIFY2(!a.intersects(b),
                                     qPrintable(QStringLiteral("%1 buckets, %2 charts, %3x%4: "
                                                               "'%5' overlaps '%6'")
                                                    .arg(buckets)
                                                    .arg(charts)
                                                    .arg(size.width())
                                                    .arg(size.height())
                                                    .arg(labels[i].first, labels[j].first)));
                        }
                    }
                }
            }
        }
    }
}

// Few samples are the case Qt's nice numbers got wrong: a highest bar of 10 had ticks 2.5 apart,
// printed "0 2 5 7 10". Every highest count gets whole ticks of 1, 2 or 5 × 10^k, above it.
void TestGui::histogramTicksAreWholeCounts()
{
    const QList<quint64> highest{1, 2, 3, 7, 10, 11, 49, 600, 123456};
    SessionModel session;
    ViewState state;
    HistogramView view(&session, &state);
    SessionData data;
    for (quint64 n : highest) {
        HistogramSnapshot h;
        h.probeId = QStringLiteral("runqlat");
        h.key = QString::number(n);
        h.timeNs = StartNs;
        h.intervalNs = 1000000000;
        h.histogram.addToSlot(3, n);
        h.histogram.addToSlot(4, 1);
        data.histograms.append(h);
    }
    session.setSession(std::move(data));
    state.setFullRange(session.firstTimeNs(), session.endTimeNs() + 1);
    for (quint64 n : highest) {
        QChartView *chart = view.chartView(QStringLiteral("runqlat"), QString::number(n));
        QVERIFY(chart);
        auto *values = qobject_cast<QValueAxis *>(chart->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(values);
        const qreal step = (values->max() - values->min()) / (values->tickCount() - 1);
        const QString what = QStringLiteral("highest %1: 0..%2 in %3 ticks")
                                 .arg(n)
                                 .arg(values->max())
                                 .arg(values->tickCount());
        QVERIFY2(step >= 1 && step == std::floor(step), qPrintable(what));
        const qreal mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        QVERIFY2(mantissa == 1 || mantissa == 2 || mantissa == 5, qPrintable(what));
        QVERIFY2(values->max() >= qreal(n) && values->tickCount() <= 7, qPrintable(what));
    }
}

// Zoomed into a range without snapshots, every chart stays, empty, and says why; only a session
// without histograms shows the placeholder.
void TestGui::histogramsStayWhenTheRangeHasNoData()
{
    SessionModel session;
    ViewState state;
    HistogramView view(&session, &state);
    auto placeholderShown = [&view] {
        for (QLabel *l : view.findChildren<QLabel *>()) {
            if (l->text() == QStringLiteral("This session holds no histograms."))
                return !l->isHidden();
        }
        return false;
    };
    QVERIFY(placeholderShown());
    SessionData data;
    for (const char *key : {"vda", "vdb"}) {
        HistogramSnapshot h;
        h.probeId = QStringLiteral("block");
        h.key = QLatin1String(key);
        h.timeNs = StartNs + 1000000000;
        h.intervalNs = 1000000000;
        h.histogram.addToSlot(5, 40);
        data.histograms.append(h);
    }
    session.setSession(std::move(data));
    state.setFullRange(StartNs, StartNs + 10000000000);
    QCOMPARE(view.chartViews().size(), 2);
    QVERIFY(!placeholderShown());
    QVERIFY(view.chartView(QStringLiteral("block"), QStringLiteral("vda"))
                ->chart()
                ->title()
                .contains(QStringLiteral("p50")));
    // After the snapshots: no data in the visible range, the same two charts, empty.
    QChartView *vda = view.chartView(QStringLiteral("block"), QStringLiteral("vda"));
    state.setRange(StartNs + 5000000000, StartNs + 6000000000);
    QCOMPARE(view.chartViews().size(), 2);
    QCOMPARE(view.chartView(QStringLiteral("block"), QStringLiteral("vda")), vda);
    for (QChartView *chart : view.chartViews()) {
        QVERIFY2(
            chart->chart()->title().contains(QStringLiteral("no samples in the visible range")),
            qPrintable(chart->chart()->title()));
        QCOMPARE(barCounts(chart), QList<quint64>{0});
    }
    QVERIFY(!placeholderShown());
}

// Flags and errors as strace and opensnoop write them, the raw numbers kept for sorting, the
// details pane and CSV.
void TestGui::openFlagsAndErrorsReadAsNames()
{
    SessionModel session;
    EventTableModel table(&session, EventType::Open);
    SessionData data;
    OpenEvent e;
    e.timeNs = StartNs;
    e.comm = "cat";
    e.path = "/missing";
    e.flags = O_RDONLY | O_CLOEXEC;
    e.ret = -ENOENT;
    data.events.append(e);
    e.flags = O_WRONLY | O_CREAT | O_TRUNC | 040000000; // a bit with no name
    e.ret = 7;
    data.events.append(e);
    session.setSession(std::move(data));
    const int flags = 5, ret = 7;
    QCOMPARE(table.headerData(flags, Qt::Horizontal).toString(), QStringLiteral("Flags"));
    QCOMPARE(table.headerData(ret, Qt::Horizontal).toString(), QStringLiteral("Return"));
    QCOMPARE(table.index(0, flags).data().toString(), QStringLiteral("O_RDONLY|O_CLOEXEC"));
    QCOMPARE(table.index(0, flags).data(EventTableModel::RawValueRole).toInt(),
             O_RDONLY | O_CLOEXEC);
    QCOMPARE(table.index(0, ret).data().toString(), QStringLiteral("ENOENT"));
    QCOMPARE(table.index(0, ret).data(EventTableModel::RawValueRole).toInt(), -ENOENT);
    QCOMPARE(table.index(1, flags).data().toString(),
             QStringLiteral("O_WRONLY|O_CREAT|O_TRUNC|0x800000"));
    QCOMPARE(table.index(1, ret).data().toString(), QStringLiteral("7"));
    QCOMPARE(table.index(0, flags).data(Qt::TextAlignmentRole).value<Qt::Alignment>() &
                 Qt::AlignLeft,
             Qt::AlignLeft);
    const auto fields = EventTableModel::eventFields(session, {EventType::Open, 0});
    QVERIFY(fields.contains(
        qMakePair(QStringLiteral("Flags"), QStringLiteral("O_RDONLY|O_CLOEXEC (0x80000)"))));
    QVERIFY(fields.contains(qMakePair(QStringLiteral("Return"), QStringLiteral("ENOENT (-2)"))));
}

// View > Time of Day in Tables: every table's Time column as the local time of day, like
// execsnoop -T (with microseconds), remembered; the raw value stays the monotonic time.
void TestGui::timeOfDayInTablesLikeExecsnoopT()
{
    {
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        EventTableModel *exec = w.results()->tableModel(EventType::Exec);
        QCOMPARE(exec->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Time"));
        QVERIFY(exec->index(0, 0).data().toString().endsWith(QStringLiteral(" s")));
        const quint64 t = exec->index(0, 0).data(EventTableModel::RawValueRole).toULongLong();
        const SessionInfo &info = w.session()->info();
        const qint64 relNs = qint64(t - info.startMonotonicNs);
        const QString expected =
            info.startWall.toLocalTime()
                .addMSecs(relNs / 1000000)
                .toString(QStringLiteral("HH:mm:ss.zzz")) +
            QStringLiteral("%1").arg((relNs / 1000) % 1000, 3, 10, QLatin1Char('0'));
        w.timeOfDayAction()->trigger();
        QCOMPARE(exec->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Time of day"));
        QCOMPARE(exec->index(0, 0).data().toString(), expected);
        QCOMPARE(exec->index(0, 0).data(EventTableModel::RawValueRole).toULongLong(), t);
        QCOMPARE(w.results()->tableModel(EventType::Open)->headerData(0, Qt::Horizontal).toString(),
                 QStringLiteral("Time of day"));
    }
    {
        MainWindow again;
        QVERIFY(again.openFile(m_path));
        QVERIFY(again.timeOfDayAction()->isChecked());
        QCOMPARE(
            again.results()->tableModel(EventType::Exec)->headerData(0, Qt::Horizontal).toString(),
            QStringLiteral("Time of day"));
        again.timeOfDayAction()->trigger();
        QCOMPARE(
            again.results()->tableModel(EventType::Exec)->headerData(0, Qt::Horizontal).toString(),
            QStringLiteral("Time"));
    }
    QVERIFY(!QSettings().value(QStringLiteral("view/timeOfDay")).toBool());
}

void TestGui::textFilterFindsKnownFile()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    EventFilterModel *open = w.results()->filterModel(EventType::Open);
    QCOMPARE(open->rowCount(), Batches * OpenPerBatch);
    // Typed by the user, case-insensitive, applied on Return.
    QTest::keyClicks(w.results()->textFilterEdit(), QStringLiteral("known-file"));
    QTest::keyClick(w.results()->textFilterEdit(), Qt::Key_Return);
    QCOMPARE(open->rowCount(), 1);
    QCOMPARE(open->index(0, 8).data(EventTableModel::RawValueRole).toByteArray(), KnownPath);
    QCOMPARE(open->index(0, 8).data().toString(), QString::fromUtf8(KnownPath));
    QCOMPARE(w.results()->filterModel(EventType::Exec)->rowCount(), 0);
    // The timeline follows the filter.
    QCOMPARE(w.results()->timeline()->laneBins(EventType::Open).total, 1);
    // Clearing restores every row.
    w.results()->textFilterEdit()->clear();
    QTest::keyClick(w.results()->textFilterEdit(), Qt::Key_Return);
    QCOMPARE(open->rowCount(), Batches * OpenPerBatch);

    // PID and latency filters.
    EventFilter f;
    f.pid = 301;
    w.viewState()->setFilter(f);
    QCOMPARE(open->rowCount(), Batches * OpenPerBatch / 4);
    f = {};
    f.minLatencyNs = 3'200'000 + 20 * 400'000;
    w.viewState()->setFilter(f);
    QCOMPARE(w.results()->filterModel(EventType::Block)->rowCount(),
             Batches * (BlockPerBatch - 20));
    QCOMPARE(open->rowCount(), Batches * OpenPerBatch); // no latency: not filtered by it
}

void TestGui::wheelZoomKeepsCursorTimeAndNarrowsViews()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TimelineWidget *tl = w.results()->timeline();
    ViewState *vs = w.viewState();
    const quint64 fullStart = vs->startNs(), fullEnd = vs->endNs();
    const QRect plot = tl->plotRect();
    // Aim at the end of the second interval, so the zoomed range holds only some snapshots.
    const double x = tl->xForTime(StartNs + 2 * SecondNs);
    const quint64 before = tl->timeAt(x);
    for (int i = 0; i < 4; ++i) {
        QWheelEvent wheel(QPointF(x, plot.center().y()),
                          tl->mapToGlobal(QPointF(x, plot.center().y())), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(tl, &wheel);
    }
    QVERIFY(vs->endNs() - vs->startNs() < (fullEnd - fullStart) / 2);
    QVERIFY(vs->startNs() > fullStart && vs->endNs() < fullEnd);
    const double nsPerPx = double(vs->endNs() - vs->startNs()) / plot.width();
    QVERIFY2(qAbs(double(tl->timeAt(x)) - double(before)) <= nsPerPx,
             qPrintable(QStringLiteral("%1 vs %2").arg(tl->timeAt(x)).arg(before)));

    // Histograms: exactly the snapshots that end inside the new range.
    for (const QString &disk : {QStringLiteral("vda"), QStringLiteral("vdb")}) {
        const QList<quint64> expected =
            expectedCounts(QStringLiteral("block"), disk, vs->startNs(), vs->endNs());
        QCOMPARE(barCounts(w.results()->histogramView()->chartView(QStringLiteral("block"), disk)),
                 expected);
        QVERIFY(expected != expectedCounts(QStringLiteral("block"), disk, 0, ~quint64(0)));
    }
    // Tables: the events inside the range.
    int inRange = 0;
    for (int b = 0; b < Batches; ++b) {
        for (int i = 0; i < OpenPerBatch; ++i)
            inRange += openTime(b, i) >= vs->startNs() && openTime(b, i) < vs->endNs();
    }
    QVERIFY(inRange > 0 && inRange < Batches * OpenPerBatch);
    QCOMPARE(w.results()->filterModel(EventType::Open)->rowCount(), inRange);
    QCOMPARE(w.results()->timeline()->laneBins(EventType::Open).total, qsizetype(inRange));

    // Home resets everything.
    tl->setFocus();
    QTest::keyClick(tl, Qt::Key_Home);
    QCOMPARE(vs->startNs(), fullStart);
    QCOMPARE(vs->endNs(), fullEnd);
    QCOMPARE(barCounts(w.results()->histogramView()->chartView(QStringLiteral("block"),
                                                               QStringLiteral("vda"))),
             expectedCounts(QStringLiteral("block"), QStringLiteral("vda"), 0, ~quint64(0)));
    QCOMPARE(w.results()->filterModel(EventType::Open)->rowCount(), Batches * OpenPerBatch);
}

void TestGui::rubberBandKeysAndPan()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TimelineWidget *tl = w.results()->timeline();
    ViewState *vs = w.viewState();
    const QRect plot = tl->plotRect();
    const int y = tl->laneRect(EventType::Open).center().y();
    const int x1 = plot.left() + plot.width() / 4, x2 = plot.left() + plot.width() / 2;
    const quint64 t1 = tl->timeAt(x1), t2 = tl->timeAt(x2);
    QTest::mousePress(tl, Qt::LeftButton, Qt::ShiftModifier, QPoint(x1, y));
    QTest::mouseMove(tl, QPoint((x1 + x2) / 2, y));
    QTest::mouseMove(tl, QPoint(x2, y));
    QTest::mouseRelease(tl, Qt::LeftButton, Qt::ShiftModifier, QPoint(x2, y));
    QCOMPARE(vs->startNs(), t1);
    QCOMPARE(vs->endNs(), t2);

    // Dragging pans: content follows the mouse, the span stays.
    const quint64 span = vs->endNs() - vs->startNs();
    const quint64 under = tl->timeAt(x2);
    QTest::mousePress(tl, Qt::LeftButton, Qt::NoModifier, QPoint(x2, y));
    QTest::mouseMove(tl, QPoint(x2 - 50, y));
    QTest::mouseMove(tl, QPoint(x1, y));
    QTest::mouseRelease(tl, Qt::LeftButton, Qt::NoModifier, QPoint(x1, y));
    QCOMPARE(vs->endNs() - vs->startNs(), span);
    QVERIFY(qAbs(double(tl->timeAt(x1)) - double(under)) <= double(span) / plot.width() + 1);

    tl->setFocus();
    QTest::keyClick(tl, Qt::Key_Plus);
    QVERIFY(qAbs(double(vs->endNs() - vs->startNs()) - span / 2.0) <= 2);
    QTest::keyClick(tl, Qt::Key_Minus);
    QVERIFY(qAbs(double(vs->endNs() - vs->startNs()) - double(span)) <= 4);
    QTest::keyClick(tl, Qt::Key_0);
    QVERIFY(!vs->isZoomed());
}

void TestGui::clickSelectsEventEverywhere()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TimelineWidget *tl = w.results()->timeline();
    // The third exec event of the second batch.
    const qsizetype index = ExecPerBatch + 2;
    const quint64 t = execTime(1, 2);
    const QPoint pos(int(std::lround(tl->xForTime(t))), tl->laneRect(EventType::Exec).center().y());

    QHelpEvent help(QEvent::ToolTip, pos, tl->mapToGlobal(pos));
    QApplication::sendEvent(tl, &help);
    QVERIFY2(tl->hoverText().contains(QLatin1String("/usr/bin/tool12")),
             qPrintable(tl->hoverText()));

    w.results()->showView(w.results()->tableView(EventType::Open));
    QTest::mouseClick(tl, Qt::LeftButton, Qt::NoModifier, pos);
    QCOMPARE(w.viewState()->selectedEvent(), (EventRef{EventType::Exec, index}));
    QCOMPARE(w.results()->detailsPane()->value(QStringLiteral("File name")),
             QStringLiteral("/usr/bin/tool12"));
    QCOMPARE(w.results()->detailsPane()->value(QStringLiteral("argv[2]")), QStringLiteral("2"));
    QCOMPARE(w.results()->detailsPane()->value(QStringLiteral("PID")), QStringLiteral("4012"));
    // The exec table shows and selects the same row.
    QTableView *table = w.results()->tableView(EventType::Exec);
    QCOMPARE(w.results()->currentView(), table);
    QCOMPARE(table->currentIndex().row(), int(index));
    QCOMPARE(table->currentIndex().data(EventTableModel::EventIndexRole).value<qsizetype>(), index);

    // Zooming keeps the selected row selected.
    w.viewState()->zoom(0.5, t);
    QCOMPARE(table->currentIndex().data(EventTableModel::EventIndexRole).value<qsizetype>(), index);
    w.viewState()->resetRange();
    QCOMPARE(table->currentIndex().row(), int(index));

    // Selecting in a table selects in ViewState.
    QTableView *openTable = w.results()->tableView(EventType::Open);
    openTable->setCurrentIndex(openTable->model()->index(5, 0));
    QCOMPARE(w.viewState()->selectedEvent(), (EventRef{EventType::Open, 5}));
    QCOMPARE(w.results()->detailsPane()->value(QStringLiteral("Path")),
             QStringLiteral("/usr/lib/lib5.so"));

    // Clicking empty space clears the selection.
    QTest::mouseClick(
        tl, Qt::LeftButton, Qt::NoModifier,
        QPoint(tl->plotRect().left() + 2, tl->laneRect(EventType::TcpConnect).center().y()));
    QVERIFY(!w.viewState()->selectedEvent().isValid());
}

void TestGui::modelsPassModelTester()
{
    SessionModel session;
    ViewState state;
    QList<EventTableModel *> tables;
    QList<EventFilterModel *> filters;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
    for (EventType t : SessionModel::eventTypes()) {
        tables << new EventTableModel(&session, t, &session);
        filters << new EventFilterModel(tables.last(), &state, &session);
        testers.push_back(std::make_unique<QAbstractItemModelTester>(
            tables.last(), QAbstractItemModelTester::FailureReportingMode::QtTest));
        testers.push_back(std::make_unique<QAbstractItemModelTester>(
            filters.last(), QAbstractItemModelTester::FailureReportingMode::QtTest));
    }
    SessionData data;
    QString error;
    QVERIFY(SessionReader::open(m_path, &data, &error));
    session.setSession(std::move(data));
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    QCOMPARE(filters.at(1)->rowCount(), Batches * OpenPerBatch);
    // Every cell of every role is readable.
    for (QAbstractItemModel *m : filters) {
        for (int r = 0; r < m->rowCount(); r += 7) {
            for (int c = 0; c < m->columnCount(); ++c) {
                QVERIFY(!m->index(r, c).data().toString().isEmpty() || c == 7);
                QVERIFY(m->index(r, c).data(EventTableModel::TimeNsRole).toULongLong() >= StartNs);
            }
        }
    }
    EventFilter f;
    f.text = "cat";
    state.setFilter(f);
    QCOMPARE(filters.at(1)->rowCount(), Batches * OpenPerBatch / 2);
    state.zoom(0.3, StartNs + SecondNs);
    QVERIFY(filters.at(1)->rowCount() < Batches * OpenPerBatch / 2);
    // Live appends with and without a filter, then an out-of-order one.
    state.setFilter({});
    RecordBatch more = guiBatch(Batches);
    session.append(more);
    QCOMPARE(tables.at(1)->rowCount(), (Batches + 1) * OpenPerBatch);
    state.resetRange();
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    QCOMPARE(filters.at(1)->rowCount(), (Batches + 1) * OpenPerBatch);
    RecordBatch late;
    late.open << guiBatch(0).open.first();
    session.append(late);
    QCOMPARE(tables.at(1)->rowCount(), (Batches + 1) * OpenPerBatch + 1);
    QVERIFY(session.events().outOfOrderAppends());
    session.clear();
    QCOMPARE(filters.at(1)->rowCount(), 0);
}

void TestGui::liveAppendGrowsModels()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    const int before = w.results()->filterModel(EventType::Exec)->rowCount();
    RecordBatch live = guiBatch(Batches);
    for (int i = 0; i < 4; ++i) {
        for (const char *name : {"hits", "misses", "dirtied", "hitRatio"}) {
            CounterSample c;
            c.probeId = QStringLiteral("cachestat");
            c.timeNs = StartNs + quint64(Batches) * SecondNs + quint64(i + 1) * SecondNs / 4;
            c.intervalNs = SecondNs / 4;
            c.name = QString::fromLatin1(name);
            c.value = QByteArray(name) == "hitRatio" ? 0.9 - 0.1 * i : 100.0 * (i + 1);
            live.counters << c;
        }
    }
    // Other probes' counters stay out of the page cache chart.
    live.counters << CounterSample{QStringLiteral("block"), StartNs + SecondNs, SecondNs,
                                   QStringLiteral("merged"), 4}
                  << CounterSample{QStringLiteral("offcpu"), StartNs + SecondNs, SecondNs,
                                   QStringLiteral("stacksLost"), 0};
    w.session()->append(live);
    QVERIFY(!w.results()->countersView()->series(QStringLiteral("merged")));
    QVERIFY(!w.results()->countersView()->series(QStringLiteral("stacksLost")));
    // Not zoomed: the new events come into view, and the histograms grow by the new interval.
    QCOMPARE(w.results()->filterModel(EventType::Exec)->rowCount(), before + ExecPerBatch);
    QCOMPARE(w.results()->histogramView()->entries().first().snapshots, Batches + 1);
    QLineSeries *hits = w.results()->countersView()->series(QStringLiteral("hits"));
    QVERIFY(hits);
    QCOMPARE(hits->count(), 4);
    QCOMPARE(hits->at(3).y(), 400.0);
    QLineSeries *ratio = w.results()->countersView()->series(QStringLiteral("hitRatio"));
    QVERIFY(ratio);
    QCOMPARE(ratio->at(0).y(), 90.0);
}

// tcpretrans' counters per connection: the eight connections with the most retransmits in the
// range get a line each, the others one line of their sum; the page cache's charts stay hidden.
void TestGui::retransmitsPerConnectionChart()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    RecordBatch live;
    // connection k retransmits k times in each of two intervals
    for (int k = 1; k <= 11; ++k) {
        for (int i = 0; i < 2; ++i) {
            live.counters << CounterSample{
                QStringLiteral("tcpretrans"), StartNs + quint64(i + 1) * SecondNs, SecondNs,
                QStringLiteral("10.0.0.1:%1 > 10.0.0.2:80").arg(40000 + k), double(k)};
        }
    }
    w.session()->append(live);
    CountersView *v = w.results()->countersView();
    QVERIFY(v->keyedChart(QStringLiteral("tcpretrans"))->isVisibleTo(v));
    QVERIFY(!v->countsChart()->isVisibleTo(v));
    QCOMPARE(v->keyedChart(QStringLiteral("tcpretrans"))->chart()->series().size(),
             CountersView::MaxConnectionLines + 1);
    for (int k = 4; k <= 11; ++k)
        QVERIFY(v->series(QStringLiteral("10.0.0.1:%1 > 10.0.0.2:80").arg(40000 + k)));
    QVERIFY(!v->series(QStringLiteral("10.0.0.1:40003 > 10.0.0.2:80")));
    QLineSeries *other = v->series(CountersView::otherConnectionsName());
    QVERIFY(other);
    QCOMPARE(other->count(), 2);
    QCOMPARE(other->at(0).y(), 1.0 + 2 + 3);
    QCOMPARE(other->at(1).y(), 1.0 + 2 + 3);
}

// tcpconnect's counters per destination get their own chart beside the retransmits', with the
// same busiest-eight rule; a session with connects only shows no retransmits chart.
void TestGui::connectsPerDestinationChart()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    RecordBatch live;
    for (int k = 1; k <= 10; ++k) {
        live.counters << CounterSample{QStringLiteral("tcpconnect"), StartNs + SecondNs, SecondNs,
                                       QStringLiteral("10.0.0.%1:443").arg(k), double(k)};
    }
    w.session()->append(live);
    CountersView *v = w.results()->countersView();
    QVERIFY(v->keyedChart(QStringLiteral("tcpconnect"))->isVisibleTo(v));
    QVERIFY(!v->keyedChart(QStringLiteral("tcpretrans"))->isVisibleTo(v));
    QCOMPARE(v->keyedChart(QStringLiteral("tcpconnect"))->chart()->series().size(),
             CountersView::MaxConnectionLines + 1);
    QVERIFY(v->series(QStringLiteral("10.0.0.10:443")));
    QVERIFY(!v->series(QStringLiteral("10.0.0.2:443")));
    QLineSeries *other = v->series(CountersView::otherDestinationsName());
    QVERIFY(other);
    QCOMPARE(other->at(0).y(), 1.0 + 2);
    QCOMPARE(v->keyedChart(QStringLiteral("tcpconnect"))->chart()->title(),
             CountersView::tr("TCP connects per destination"));
    // nine lines, nine colours: the eight named ones distinct, the others' sum grey
    QSet<QRgb> colours;
    for (QAbstractSeries *s : v->keyedChart(QStringLiteral("tcpconnect"))->chart()->series()) {
        auto *line = qobject_cast<QLineSeries *>(s);
        if (line != other)
            colours.insert(line->pen().color().rgb());
    }
    QCOMPARE(colours.size(), CountersView::MaxConnectionLines);
    QVERIFY(!colours.contains(other->pen().color().rgb()));
}

// tpcount's hits per key get a chart of their own, its losses are not lines in it, and the
// busiest eight keys are named with the rest summed, as for connections.
void TestGui::tracepointHitsPerKeyChart()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    RecordBatch live;
    for (int k = 1; k <= 10; ++k) {
        live.counters << CounterSample{QStringLiteral("tpcount"), StartNs + SecondNs, SecondNs,
                                       QStringLiteral("prev.pid=%1 next.pid=0").arg(k), double(k)};
    }
    live.counters << CounterSample{QStringLiteral("tpcount"), StartNs + SecondNs, SecondNs,
                                   QStringLiteral("unreadableKeys"), 100};
    // The next interval only key 10 has hits: the others were quiet, and drawn at 0.
    live.counters << CounterSample{QStringLiteral("tpcount"), StartNs + 2 * SecondNs, SecondNs,
                                   QStringLiteral("prev.pid=10 next.pid=0"), 4};
    w.session()->append(live);
    CountersView *v = w.results()->countersView();
    QVERIFY(v->keyedChart(QStringLiteral("tpcount"))->isVisibleTo(v));
    QVERIFY(!v->keyedChart(QStringLiteral("uprobe"))->isVisibleTo(v));
    QCOMPARE(v->keyedChart(QStringLiteral("tpcount"))->chart()->title(),
             CountersView::tr("Tracepoint hits per key"));
    QCOMPARE(v->keyedChart(QStringLiteral("tpcount"))->chart()->series().size(),
             CountersView::MaxConnectionLines + 1);
    QVERIFY(v->series(QStringLiteral("prev.pid=10 next.pid=0")));
    QVERIFY(!v->series(QStringLiteral("prev.pid=2 next.pid=0")));
    QVERIFY(!v->series(QStringLiteral("unreadableKeys")));
    QLineSeries *other = v->series(CountersView::otherKeysName());
    QVERIFY(other);
    QCOMPARE(other->at(0).y(), 1.0 + 2);
    QLineSeries *quiet = v->series(QStringLiteral("prev.pid=9 next.pid=0"));
    QCOMPARE(quiet->count(), 2);
    QCOMPARE(quiet->at(0).y(), 9.0);
    QCOMPARE(quiet->at(1).y(), 0.0);
    QCOMPARE(other->count(), 2);
    QCOMPARE(other->at(1).y(), 0.0);
    QCOMPARE(v->series(QStringLiteral("prev.pid=10 next.pid=0"))->at(1).y(), 4.0);
}

// The usdt probe's hits per argument get their own chart; its loss counters are no lines in it,
// argumentFaults included (it starts with "arg" like a key). With tpcount's chart, both show, one
// above the other.
void TestGui::usdtHitsPerKeyChart()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    RecordBatch live;
    for (int k = 1; k <= 10; ++k) {
        live.counters << CounterSample{QStringLiteral("usdt"), StartNs + SecondNs, SecondNs,
                                       QStringLiteral("arg0=%1").arg(k), double(k)};
    }
    for (const char *loss :
         {"argumentFaults", "keysFull", "unreadableStrings", "histogramMapFull"}) {
        live.counters << CounterSample{QStringLiteral("usdt"), StartNs + SecondNs, SecondNs,
                                       QString::fromLatin1(loss), 1000};
    }
    live.counters << CounterSample{QStringLiteral("usdt"), StartNs + 2 * SecondNs, SecondNs,
                                   QStringLiteral("arg0=10"), 7};
    w.session()->append(live);
    CountersView *v = w.results()->countersView();
    QVERIFY(v->keyedChart(QStringLiteral("usdt"))->isVisibleTo(v));
    QVERIFY(!v->keyedChart(QStringLiteral("tpcount"))->isVisibleTo(v));
    QVERIFY(!v->countsChart()->isVisibleTo(v));
    QCOMPARE(v->keyedChart(QStringLiteral("usdt"))->chart()->title(),
             CountersView::tr("USDT probe hits per key"));
    QCOMPARE(v->keyedChart(QStringLiteral("usdt"))->chart()->series().size(),
             CountersView::MaxConnectionLines + 1);
    for (const char *loss : {"argumentFaults", "keysFull", "unreadableStrings", "histogramMapFull"})
        QVERIFY2(!v->series(QString::fromLatin1(loss)), loss);
    QLineSeries *ten = v->series(QStringLiteral("arg0=10"));
    QVERIFY(ten);
    QCOMPARE(ten->count(), 2);
    QCOMPARE(ten->at(0).y(), 10.0);
    QCOMPARE(ten->at(1).y(), 7.0);
    QLineSeries *other = v->series(CountersView::otherKeysName());
    QVERIFY(other);
    QCOMPARE(other->at(0).y(), 1.0 + 2);

    RecordBatch more;
    more.counters << CounterSample{QStringLiteral("tpcount"), StartNs + SecondNs, SecondNs,
                                   QStringLiteral("hits"), 5};
    w.session()->append(more);
    QVERIFY(v->keyedChart(QStringLiteral("usdt"))->isVisibleTo(v));
    QVERIFY(v->keyedChart(QStringLiteral("tpcount"))->isVisibleTo(v));
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.results()->showView(v);
    QCoreApplication::processEvents();
    const QRect usdt = v->keyedChart(QStringLiteral("usdt"))->geometry();
    const QRect hits = v->keyedChart(QStringLiteral("tpcount"))->geometry();
    // One a row, the whole width: side by side they could not share the timeline's time axis
    // (tst_timeaxis).
    QVERIFY2(hits.top() > usdt.bottom(), "a row each");
    QCOMPARE(hits.left(), usdt.left());
    QCOMPARE(hits.width(), usdt.width());
    QVERIFY(usdt.width() > v->width() / 2);
    RecordBatch third;
    third.counters << CounterSample{QStringLiteral("uprobe"), StartNs + SecondNs, SecondNs,
                                    QStringLiteral("calls"), 3};
    w.session()->append(third);
    QCoreApplication::processEvents();
    QVERIFY(v->keyedChart(QStringLiteral("uprobe"))->isVisibleTo(v));
    const QRect calls = v->keyedChart(QStringLiteral("uprobe"))->geometry();
    const QRect usdtNow = v->keyedChart(QStringLiteral("usdt"))->geometry();
    QVERIFY2(usdtNow.top() > calls.bottom(), "uprobe's first, as in the table");
    QCOMPARE(calls.width(), usdtNow.width());
}

// In German, "38.297 s" reads as thirty-eight thousand next to a grouped count "22.360": every
// decimal the views show goes through QLocale (#16 item 8). The CLI and CSV stay in C.
void TestGui::numbersFollowTheLocale()
{
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    const auto restore = qScopeGuard([&] { QLocale::setDefault(before); });
    QCOMPARE(EventTableModel::formatDuration(1250000), QStringLiteral("1,25 ms"));
    QCOMPARE(EventTableModel::formatDuration(38297000000ull), QStringLiteral("38,297 s"));
    QCOMPARE(EventTableModel::formatTime(StartNs + 1500000000ull, StartNs),
             QStringLiteral("1,500000 s"));
    Log2Histogram h(HistogramUnit::Microseconds);
    h.add(100, 2236);
    h.add(3000, 4);
    QVERIFY2(HistogramView::summaryText(h).contains(QStringLiteral("2.240 samples")),
             qPrintable(HistogramView::summaryText(h)));
    QVERIFY2(HistogramView::bucketText(h, 6).contains(QStringLiteral("2.236 (99,8 %)")),
             qPrintable(HistogramView::bucketText(h, 6)));

    MainWindow w;
    QVERIFY(w.openFile(m_path));
    w.viewState()->setRange(StartNs + SecondNs / 2, StartNs + 2 * SecondNs);
    bool found = false;
    for (QLabel *l : w.findChildren<QLabel *>()) {
        if (l->text().startsWith(QStringLiteral("Visible:"))) {
            QCOMPARE(l->text(), QStringLiteral("Visible: 0,500000 s – 2,000000 s (1,500 s)"));
            found = true;
        }
    }
    QVERIFY(found);
    // The chart axes too.
    QVERIFY(w.results()
                ->countersView()
                ->keyedChart(QStringLiteral("tpcount"))
                ->chart()
                ->localizeNumbers());
}

// A disk recording showed four empty TCP lanes, which left the block lane too short for its
// read/write/other key (#16 item 8): a lane shows when its probe was recorded or it has events.
void TestGui::lanesOfProbesNotRecordedStayHidden()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    const QList<EventType> lanes = w.results()->timeline()->laneTypes();
    for (EventType t : {EventType::Exec, EventType::Open, EventType::Block})
        QVERIFY(lanes.contains(t));
    QVERIFY(!lanes.contains(EventType::TcpAccept));
    QVERIFY(!lanes.contains(EventType::TcpRetrans));
    // Their tables' tabs too, and the shown ones keep the order of the event types.
    auto tabShown = [&w](EventType t) { return w.results()->eventTypeIndex(t) >= 0; };
    QVERIFY(tabShown(EventType::Block));
    QVERIFY(!tabShown(EventType::TcpAccept));
    QVERIFY(!tabShown(EventType::TcpRetrans));
    // Events of a probe the session does not name still get their lane.
    RecordBatch live;
    TcpRetransEvent r;
    r.timeNs = StartNs + SecondNs;
    r.family = 4;
    live.tcpRetrans.append(r);
    w.session()->append(live);
    QVERIFY(w.results()->timeline()->laneTypes().contains(EventType::TcpRetrans));
    QVERIFY(tabShown(EventType::TcpRetrans));
    QVERIFY(w.results()->eventTypeIndex(EventType::Block) <
            w.results()->eventTypeIndex(EventType::TcpRetrans));
    QCOMPARE(w.results()->timeline()->cardText(), QString());
}

// A session of counters only (tpcount) has no lane: the timeline says why instead of staying
// blank.
void TestGui::countersOnlySessionSaysItHasNoEvents()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("counts.bpflens"));
    SessionInfo info = m_data.info;
    info.probes = {{QStringLiteral("tpcount"), {}, QStringLiteral("raw_tp/sched_switch")}};
    SessionWriter writer;
    QString error;
    QVERIFY2(writer.create(path, info, &error), qPrintable(error));
    RecordBatch b;
    b.counters << CounterSample{QStringLiteral("tpcount"), StartNs + SecondNs, SecondNs,
                                QStringLiteral("comm=dd"), 12};
    QVERIFY2(writer.writeBatch(b, &error), qPrintable(error));
    QVERIFY(writer.finish(StartNs + 2 * SecondNs, &error));
    writer.close();
    MainWindow w;
    QVERIFY(w.openFile(path));
    QVERIFY(w.results()->timeline()->laneTypes().isEmpty());
    QVERIFY2(
        w.results()->timeline()->cardText().startsWith(QLatin1String("No events in this session")),
        qPrintable(w.results()->timeline()->cardText()));
}

// A narrow details dock scrolled sideways, hiding the field names (German first): long values
// are cut in the middle instead, whole in their tool tips.
void TestGui::narrowDetailsNeverScrollSideways()
{
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(m_path));
    w.results()->showView(w.results()->eventsPage());
    QTreeWidget *tree = w.results()->detailsPane()->tree();
    w.results()->detailsPane()->setFixedWidth(200);
    QCoreApplication::processEvents();
    QVERIFY(!tree->horizontalScrollBar()->isVisible()); // the placeholder alone
    w.viewState()->setSelectedEvent({EventType::Exec, 0});
    QCoreApplication::processEvents();
    QVERIFY(!tree->horizontalScrollBar()->isVisible());
    // Every field name is whole; a value wider than its column has its whole text as tool tip.
    const int nameWidth = tree->columnWidth(0);
    QVERIFY2(nameWidth < tree->viewport()->width(), qPrintable(QString::number(nameWidth)));
    bool cut = false;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = tree->topLevelItem(i);
        QVERIFY(tree->fontMetrics().horizontalAdvance(item->text(0)) <= nameWidth);
        if (tree->fontMetrics().horizontalAdvance(item->text(1)) > tree->columnWidth(1)) {
            cut = true;
            QCOMPARE(item->toolTip(1), item->text(1));
        }
    }
    QVERIFY2(cut, "the test session's exec has a value wider than 200 px");
}

void TestGui::csvExportMatchesCsvExport()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    w.viewState()->setRange(StartNs + SecondNs / 2, StartNs + 2 * SecondNs + SecondNs / 3);
    struct Case
    {
        MainWindow::ExportScope scope;
        QString probe;
        CsvExportOptions options;
    };
    CsvExportOptions range;
    range.startNs = StartNs + SecondNs / 2;
    range.endNs = StartNs + 2 * SecondNs + SecondNs / 3;
    CsvExportOptions probe;
    probe.probeId = QStringLiteral("block");
    const QList<Case> cases = {{MainWindow::ExportScope::WholeSession, {}, {}},
                               {MainWindow::ExportScope::VisibleRange, {}, range},
                               {MainWindow::ExportScope::Probe, QStringLiteral("block"), probe}};
    int n = 0;
    for (const Case &c : cases) {
        const QString gui = m_dir.filePath(QStringLiteral("gui%1").arg(n));
        const QString ref = m_dir.filePath(QStringLiteral("ref%1").arg(n++));
        QString error;
        const QStringList guiFiles = w.exportCsv(gui, c.scope, c.probe, &error);
        QVERIFY2(!guiFiles.isEmpty(), qPrintable(error));
        const QStringList refFiles = CsvExport::exportSession(m_data, ref, c.options, &error);
        QCOMPARE(guiFiles.size(), refFiles.size());
        for (int i = 0; i < guiFiles.size(); ++i) {
            QCOMPARE(QFileInfo(guiFiles.at(i)).fileName(), QFileInfo(refFiles.at(i)).fileName());
            const QByteArray bytes = readAll(guiFiles.at(i));
            QVERIFY(!bytes.isEmpty());
            QCOMPARE(bytes, readAll(refFiles.at(i)));
        }
    }
    // The command line tool writes the same files, byte for byte (it has no time range).
    for (const int i : {0, 2}) {
        const QString cliDir = m_dir.filePath(QStringLiteral("cli%1").arg(i));
        QStringList args{QStringLiteral("export"), m_path, QStringLiteral("--csv"), cliDir};
        if (!cases.at(i).probe.isEmpty())
            args << QStringLiteral("--probe") << cases.at(i).probe;
        QProcess cli;
        cli.start(QStringLiteral(BPFLENS_CLI), args);
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0,
                 cli.readAllStandardError().constData());
        const QDir gui(m_dir.filePath(QStringLiteral("gui%1").arg(i)));
        const QStringList files = gui.entryList(QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        QCOMPARE(QDir(cliDir).entryList(QDir::Files, QDir::Name), files);
        for (const QString &name : files)
            QVERIFY2(readAll(gui.filePath(name)) == readAll(QDir(cliDir).filePath(name)),
                     qPrintable(name));
    }
    // The visible-range export holds fewer open rows than the whole session.
    QVERIFY(readAll(m_dir.filePath(QStringLiteral("gui1/open.csv"))).count('\n') <
            readAll(m_dir.filePath(QStringLiteral("gui0/open.csv"))).count('\n'));
    // An unwritable target: an error, no crash.
    QString error;
    QVERIFY(w.exportCsv(QStringLiteral("/proc/bpflens-no"), MainWindow::ExportScope::WholeSession,
                        {}, &error)
                .isEmpty());
    QVERIFY(!error.isEmpty());
}

// File > Export Trace… as a user goes through it: the file dialog, a name without a suffix, the
// trace written beside it as .json, the same events as `bpflens-cli export --trace` writes.
void TestGui::exportTraceMatchesTheCli()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QAction *exportTrace = nullptr;
    for (QAction *menu : w.menuBar()->actions()) {
        if (menu->text() != QLatin1String("&File") || !menu->menu())
            continue;
        for (QAction *a : menu->menu()->actions()) {
            if (a->text() == QStringLiteral("Export &Trace\u2026"))
                exportTrace = a;
        }
    }
    QVERIFY2(exportTrace, "no Export Trace… in the File menu");
    QVERIFY(exportTrace->isEnabled());

    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, true);
    const auto native =
        qScopeGuard([] { QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, false); });
    const QString chosen = m_dir.filePath(QStringLiteral("from-gui"));
    bool dialogShown = false;
    whenModal<QFileDialog>([&](QFileDialog *dialog) {
        dialogShown = dialog->acceptMode() == QFileDialog::AcceptSave;
        answerFileDialog(dialog, chosen);
    });
    exportTrace->trigger();
    QVERIFY(dialogShown);
    const QString written = chosen + QStringLiteral(".json");
    QVERIFY2(QFileInfo::exists(written), qPrintable(written));
    QVERIFY2(w.statusBar()->currentMessage().contains(written),
             qPrintable(w.statusBar()->currentMessage()));

    QString error;
    const QMap<QString, int> gui = traceCounts(readAll(written), &error);
    QVERIFY2(!gui.isEmpty(), qPrintable(error));
    // The session's known contents: every event once, under its probe's name.
    int exec = 0, open = 0, block = 0;
    for (auto it = gui.cbegin(); it != gui.cend(); ++it) {
        if (it.key().startsWith(QLatin1String("exec ")))
            exec += it.value();
        else if (it.key().startsWith(QLatin1String("open ")))
            open += it.value();
        else if (it.key().startsWith(QLatin1String("block ")))
            block += it.value();
    }
    QCOMPARE(exec, Batches * ExecPerBatch);
    QCOMPARE(open, Batches * OpenPerBatch);
    QCOMPARE(block, Batches * BlockPerBatch);
    QCOMPARE(gui.value(QStringLiteral("block X")), Batches * BlockPerBatch); // slices
    QVERIFY(gui.value(QStringLiteral("M")) > 0);

    const QString fromCli = m_dir.filePath(QStringLiteral("from-cli.json"));
    QProcess cli;
    cli.start(QStringLiteral(BPFLENS_CLI),
              {QStringLiteral("export"), m_path, QStringLiteral("--trace"), fromCli});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0,
             cli.readAllStandardError().constData());
    const QMap<QString, int> reference = traceCounts(readAll(fromCli), &error);
    QVERIFY2(!reference.isEmpty(), qPrintable(error));
    QCOMPARE(gui, reference);
}

void TestGui::damagedFileShowsErrorAndKeepsSession()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    const QByteArray whole = readAll(m_path);
    // A file cut inside its header cannot be salvaged (damagedFileOpensWithBanner: one that
    // can).
    const QString truncated = m_dir.filePath(QStringLiteral("truncated.bpflens"));
    {
        QFile f(truncated);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(whole.left(60));
    }
    const QString text = m_dir.filePath(QStringLiteral("notes.bpflens"));
    {
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a session\n");
    }
    for (const QString &bad :
         {truncated, text, m_dir.filePath(QStringLiteral("missing.bpflens"))}) {
        QString error;
        QVERIFY(!w.openFile(bad, &error));
        QVERIFY(!error.isEmpty());
        QMessageBox *box = w.findChild<QMessageBox *>(QStringLiteral("errorBox"));
        QVERIFY(box);
        QCOMPARE(box->text(), error);
        QVERIFY(box->isVisible());
        box->close();
        QTRY_VERIFY(!w.findChild<QMessageBox *>(QStringLiteral("errorBox")));
        // What was open stays open.
        QCOMPARE(w.session()->path(), QFileInfo(m_path).absoluteFilePath());
        QCOMPARE(w.results()->filterModel(EventType::Open)->rowCount(), Batches * OpenPerBatch);
    }
}

void TestGui::damagedFileOpensWithBanner()
{
    // 80 batches of 40 open events, one second apart; a middle page of chunks is zeroed.
    const QString whole = m_dir.filePath(QStringLiteral("salvage-whole.bpflens"));
    SessionInfo info = sessionInfoForThisHost({{QStringLiteral("open"), {}, {}}});
    info.startMonotonicNs = 1000000000ull;
    {
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(whole, info, &err), qPrintable(err));
        for (quint64 b = 0; b < 80; ++b) {
            RecordBatch batch;
            for (quint64 i = 0; i < 40; ++i) {
                OpenEvent e;
                e.timeNs = info.startMonotonicNs + b * 1000000000ull + i * 1000;
                e.pid = quint32(100 + i);
                e.comm = QByteArrayLiteral("cat");
                e.path = QByteArrayLiteral("/etc/file-") + QByteArray::number(b * 40 + i);
                batch.open.append(e);
            }
            QVERIFY2(writer.writeBatch(batch, &err), qPrintable(err));
        }
        QVERIFY(writer.finish(info.startMonotonicNs + 80000000000ull, &err));
    }
    QList<qint64> leaves;
    {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2(QFile::encodeName(whole).constData(), &db, SQLITE_OPEN_READONLY,
                                 nullptr),
                 SQLITE_OK);
        sqlite3_stmt *st = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db,
                                    "SELECT pageno FROM dbstat WHERE name = 'event_chunks' AND "
                                    "pagetype = 'leaf' ORDER BY pageno",
                                    -1, &st, nullptr),
                 SQLITE_OK);
        while (sqlite3_step(st) == SQLITE_ROW)
            leaves << sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        sqlite3_close(db);
    }
    QVERIFY(leaves.size() >= 3);
    QByteArray bytes = readAll(whole);
    std::memset(bytes.data() + (leaves.at(leaves.size() / 2) - 1) * 4096, 0, 4096);
    const QString damaged = m_dir.filePath(QStringLiteral("salvage-damaged.bpflens"));
    {
        QFile f(damaged);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }

    MainWindow w;
    w.show();
    QVERIFY(!w.damageBanner()->isVisible());
    QString error;
    QVERIFY2(w.openFile(damaged, &error), qPrintable(error));
    QVERIFY(!w.findChild<QMessageBox *>(QStringLiteral("errorBox")));
    QVERIFY(w.damageBanner()->isVisible());
    const SessionDamage &damage = w.session()->data().damage;
    QVERIFY(damage.isDamaged());
    QVERIFY(damage.chunksLost > 0);
    const QString text = w.damageBannerLabel()->text();
    QVERIFY2(text.contains(QStringLiteral("This file is damaged</b> (database disk image is "
                                          "malformed)")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("event_chunks: %1 could not be read")
                               .arg(damage.chunksLost == 1
                                        ? QStringLiteral("1 chunk row")
                                        : QStringLiteral("%1 chunk rows").arg(damage.chunksLost))),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral(" s and ")), qPrintable(text)); // the time range
    // Every chunk but the lost ones is in the table, each of its 40 events.
    const int kept = int(80 - damage.chunksLost) * 40;
    QCOMPARE(w.results()->filterModel(EventType::Open)->rowCount(), kept);
    QCOMPARE(damage.chunksKept, 80 - damage.chunksLost);

    // Dismissed, it stays away; an intact file hides it too.
    w.damageBanner()->findChild<QToolButton *>(QStringLiteral("damageBannerClose"))->click();
    QVERIFY(!w.damageBanner()->isVisible());
    QVERIFY(w.openFile(damaged));
    QVERIFY(w.damageBanner()->isVisible());
    QVERIFY(w.openFile(m_path));
    QVERIFY(!w.damageBanner()->isVisible());
}

void TestGui::dropOpensSessionAndGeometryPersists()
{
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(m_dir.filePath(QStringLiteral("notes.txt"))),
                      QUrl::fromLocalFile(m_path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QTRY_COMPARE(w.session()->path(), QFileInfo(m_path).absoluteFilePath());
        QCOMPARE(w.results()->filterModel(EventType::Block)->rowCount(), Batches * BlockPerBatch);

        QMimeData other;
        other.setUrls({QUrl::fromLocalFile(m_dir.filePath(QStringLiteral("notes.txt")))});
        QDragEnterEvent refuse(QPoint(10, 10), Qt::CopyAction, &other, Qt::LeftButton,
                               Qt::NoModifier);
        QApplication::sendEvent(&w, &refuse);
        QVERIFY(!refuse.isAccepted());

        w.resize(1001, 703);
        w.close();
    }
    MainWindow again;
    QCOMPARE(again.size(), QSize(1001, 703));
}

void TestGui::viewsRenderToPng()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    RecordBatch counters;
    for (int i = 0; i < 12; ++i) {
        for (const char *name : {"hits", "misses", "dirtied", "hitRatio"}) {
            CounterSample c;
            c.probeId = QStringLiteral("cachestat");
            c.timeNs = StartNs + quint64(i + 1) * SecondNs / 4;
            c.intervalNs = SecondNs / 4;
            c.name = QString::fromLatin1(name);
            const double h = 800 + 300 * std::sin(i / 2.0), m = 120 + 90 * std::cos(i / 3.0);
            c.value = QByteArray(name) == "hits"      ? h
                      : QByteArray(name) == "misses"  ? m
                      : QByteArray(name) == "dirtied" ? 40.0 + i * 5
                                                      : h / (h + m);
            counters.counters << c;
        }
    }
    w.session()->append(counters);
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.viewState()->setSelectedEvent({EventType::Block, 10});
    const QDir out(QStringLiteral(BPFLENS_TEST_OUTPUT_DIR));
    QVERIFY(out.mkpath(QStringLiteral(".")));
    struct Shot
    {
        const char *name;
        QWidget *tab; // made current before the grab, or null
        QWidget *widget;
        int minColours;
    };
    const QList<Shot> shots = {
        {"window", w.results()->histogramView(), &w, 40},
        {"timeline", nullptr, w.results()->timeline(), 12},
        {"histograms", w.results()->histogramView(), w.results()->histogramView(), 20},
        {"counters", w.results()->countersView(), w.results()->countersView(), 20},
        {"summary", w.results()->summaryPanel(), w.results()->summaryPanel(), 8},
        {"details", w.results()->tableView(EventType::Block), w.results()->detailsPane(), 8},
        {"table-open", w.results()->tableView(EventType::Open),
         w.results()->tableView(EventType::Open), 8},
    };
    for (const Shot &s : shots) {
        if (s.tab)
            w.results()->showView(s.tab);
        QApplication::processEvents();
        const QImage image = s.widget->grab().toImage();
        QVERIFY(!image.isNull());
        const QString file = out.filePath(QStringLiteral("gui-%1.png").arg(QLatin1String(s.name)));
        QVERIFY(image.save(file));
        const int colours = distinctColours(image);
        QVERIFY2(colours > s.minColours,
                 qPrintable(QStringLiteral("%1: %2 colours").arg(file).arg(colours)));
    }
    // Dark palette: the timeline's background follows it.
    // Breeze Dark's main roles.
    QPalette dark(QColor(0x31, 0x36, 0x3b), QColor(0x20, 0x23, 0x26));
    dark.setColor(QPalette::Base, QColor(0x1b, 0x1e, 0x20));
    dark.setColor(QPalette::AlternateBase, QColor(0x23, 0x26, 0x29));
    for (auto role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
        dark.setColor(role, QColor(0xfc, 0xfc, 0xfc));
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    dark.setColor(QPalette::PlaceholderText, QColor(0xa1, 0xa9, 0xb1));
    w.setPalette(dark);
    w.results()->showView(w.results()->histogramView());
    QApplication::processEvents();
    const QImage darkImage = w.grab().toImage();
    QVERIFY(darkImage.save(out.filePath(QStringLiteral("gui-window-dark.png"))));
    const QRect lane = w.results()->timeline()->laneRect(EventType::Exec);
    const QImage tl = w.results()->timeline()->grab().toImage();
    QCOMPARE(QColor(tl.pixel(lane.left() + 1, lane.top() + 1)).lightness() < 80, true);
}

void TestGui::exportsChartAsSvgAndPng()
{
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.results()->showView(w.results()->histogramView());
    QWidget *chart = w.currentChartWidget();
    QVERIFY(chart);
    QString error;
    const QString svg = m_dir.filePath(QStringLiteral("chart.svg"));
    QVERIFY2(MainWindow::exportImage(chart, svg, &error), qPrintable(error));
    const QByteArray svgBytes = readAll(svg);
    QVERIFY(svgBytes.startsWith("<?xml"));
    QVERIFY(svgBytes.contains("<svg"));
    QVERIFY(svgBytes.contains("block — vda"));
    QVERIFY(svgBytes.contains("32 -&gt; 63") || svgBytes.contains("32 -> 63"));
    const QString png = m_dir.filePath(QStringLiteral("chart.png"));
    QVERIFY2(MainWindow::exportImage(chart, png, &error), qPrintable(error));
    QImage image(png);
    QCOMPARE(image.size(), chart->size() * chart->devicePixelRatioF());
    QVERIFY(!MainWindow::exportImage(chart, QStringLiteral("/proc/nope/chart.png"), &error));
    QVERIFY(!error.isEmpty());
    // A name without a suffix gets the chosen format's; an unknown suffix is named as the
    // problem, not the directory.
    const QString bare = m_dir.filePath(QStringLiteral("chart"));
    QCOMPARE(ExportController::imagePath(bare, QStringLiteral("SVG image (*.svg)")),
             bare + QStringLiteral(".svg"));
    QCOMPARE(ExportController::imagePath(bare, QStringLiteral("PNG image (*.png)")),
             bare + QStringLiteral(".png"));
    QCOMPARE(ExportController::imagePath(png, QStringLiteral("SVG image (*.svg)")), png);
    const QString chosen = ExportController::imagePath(bare, QStringLiteral("PNG image (*.png)"));
    QVERIFY2(MainWindow::exportImage(chart, chosen, &error), qPrintable(error));
    QVERIFY(!QImage(chosen).isNull());
    QVERIFY(!MainWindow::exportImage(chart, m_dir.filePath(QStringLiteral("chart.xyz")), &error));
    QVERIFY2(error.contains(QStringLiteral(".png or .svg")), qPrintable(error));
    QVERIFY2(!error.contains(QStringLiteral("director")), qPrintable(error));
}

// Export CSV > One Probe asks in a dialog as wide as its title plus the title bar's icon and
// buttons (sized to its contents it cut "Export One Pr…"), its list as wide as the longest probe
// name; in German too, whose title is longer.
void TestGui::exportOneProbeDialogShowsItsTitle()
{
    const struct
    {
        const char *locale;
        QString title;
    } languages[] = {{"C", QStringLiteral("Export One Probe")},
                     {"de_DE", QStringLiteral("Eine Sonde exportieren")}};
    // The title bar shows "Export One Probe — BPF Lens": Qt adds the application's name.
    const QString name = QGuiApplication::applicationDisplayName();
    QGuiApplication::setApplicationDisplayName(QStringLiteral("BPF Lens"));
    const auto restore = qScopeGuard([name] {
        QGuiApplication::setApplicationDisplayName(name);
        installTranslations(QLocale::c());
    });
    for (const auto &language : languages) {
        installTranslations(QLocale(QLatin1String(language.locale)));
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction *oneProbe = w.exportController()->csvMenu()->actions().value(2);
        QVERIFY(oneProbe && oneProbe->isEnabled());

        QString title, longest;
        int width = 0, titleWidth = 0, lineHeight = 0, comboWidth = 0, longestWidth = 0;
        QTimer::singleShot(0, &w, [&] {
            auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return; // (the checks below then fail)
            if (dialog->objectName() != QLatin1String("exportProbeDialog")) {
                dialog->reject();
                return;
            }
            title = dialog->windowTitle();
            width = dialog->width();
            QFont bold = dialog->font(); // as most title bars show it
            bold.setBold(true);
            const QFontMetrics metrics(bold);
            titleWidth = metrics.horizontalAdvance(title + QStringLiteral(" \u2014 BPF Lens"));
            lineHeight = metrics.height();
            if (auto *combo = dialog->findChild<QComboBox *>()) {
                comboWidth = combo->width();
                for (int i = 0; i < combo->count(); ++i) {
                    const int advance =
                        QFontMetrics(combo->font()).horizontalAdvance(combo->itemText(i));
                    if (advance > longestWidth) {
                        longestWidth = advance;
                        longest = combo->itemText(i);
                    }
                }
            }
            dialog->reject();
        });
        oneProbe->trigger();
        installTranslations(QLocale::c());
        QCOMPARE(title, language.title);
        // Room for the window icon and three buttons beside the title, with their spacing:
        // seven lines at least (sized to its contents the dialog had 200 px, for a title bar
        // text of 201 px, 238 px in German).
        QVERIFY2(width >= titleWidth + 7 * lineHeight,
                 qPrintable(QStringLiteral("%1: %2 px wide, title %3 px")
                                .arg(title)
                                .arg(width)
                                .arg(titleWidth)));
        QVERIFY(!longest.isEmpty());
        QVERIFY2(comboWidth > longestWidth, qPrintable(QStringLiteral("%1: %2 px in a %3 px list")
                                                           .arg(longest)
                                                           .arg(longestWidth)
                                                           .arg(comboWidth)));
    }
}

void TestGui::binningBenchmark()
{
    // Binning cost follows pixels: one redraw's bins of 1M events over 1000 columns. (The 10M
    // measurement is bench/timelinebench.)
    SessionModel session;
    ViewState state;
    EventTableModel table(&session, EventType::Open);
    EventFilterModel lane(&table, &state);
    SessionData data;
    constexpr int N = 1'000'000;
    data.events.reserve(EventType::Open, N);
    OpenEvent e;
    e.comm = "bench";
    for (int i = 0; i < N; ++i) {
        e.timeNs = StartNs + quint64(i) * 1000;
        data.events.append(e);
    }
    session.setSession(std::move(data));
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    LaneBins bins;
    QBENCHMARK
    {
        bins = TimelineBinner::bin(lane, session, state.startNs(), state.endNs(), 1000);
    }
    QVERIFY(bins.dense);
    QCOMPARE(bins.total, qsizetype(N));
    QCOMPARE(bins.counts.front(), quint32(N / 1000));
}

namespace {

// The events of one lane in [start, end) counted per pixel column, one event at a time, with
// the column edges the timeline documents: column c starts at start + span * c / width.
struct BruteBins
{
    std::vector<quint32> counts;
    std::vector<std::array<quint32, LaneBins::CategoryCount>> categories;
};

BruteBins bruteForce(const SessionModel &session, const EventFilterModel &lane, quint64 start,
                     quint64 end, int width)
{
    BruteBins b;
    b.counts.assign(size_t(width), 0);
    b.categories.assign(size_t(width), {});
    const double span = double(end - start);
    auto edge = [&](int c) { return start + quint64(span * c / width); };
    const EventStore &store = session.events();
    for (qsizetype k = 0; k < lane.acceptedCount(); ++k) {
        const qsizetype i = lane.acceptedAt(k);
        const quint64 t = store.timeNs(lane.type(), i);
        if (t < start || t >= end)
            continue;
        int c = 0;
        while (c + 1 < width && t >= edge(c + 1))
            ++c;
        ++b.counts[size_t(c)];
        if (lane.type() == EventType::Block)
            ++b.categories[size_t(c)][TimelineBinner::categoryOf(store.block(i).op)];
    }
    return b;
}

} // namespace

void TestGui::binsMatchBruteForceAtEveryZoom()
{
    SessionModel session;
    ViewState state;
    EventTableModel openTable(&session, EventType::Open);
    EventTableModel blockTable(&session, EventType::Block);
    EventFilterModel openLane(&openTable, &state);
    EventFilterModel blockLane(&blockTable, &state);
    TimelineWidget tl(&session, &state, {&openLane, &blockLane});
    tl.resize(510, 200);
    const int width = tl.plotRect().width();

    // Bursty times (so columns range from empty to crowded) and operations whose pattern does
    // not follow the summary's stride.
    QRandomGenerator rng(42);
    const QByteArray ops[] = {"Read", "Sync-Write", "Flush", "Write-FUA", "Discard"};
    auto batch = [&](quint64 from, int n) {
        RecordBatch b;
        quint64 t = from;
        for (int i = 0; i < n; ++i) {
            t += rng.bounded(8) == 0 ? rng.bounded(2'000'000) : rng.bounded(2'000);
            OpenEvent o;
            o.timeNs = t;
            o.pid = 100 + rng.bounded(3);
            o.comm = "brute";
            b.open.push_back(o);
            BlockEvent e;
            e.timeNs = t + 500;
            e.pid = o.pid;
            e.deviceNs = 10'000;
            e.op = ops[rng.bounded(5)];
            e.disk = "vda";
            b.block.push_back(e);
        }
        return std::pair{b, t + 1000};
    };
    auto [first, next] = batch(StartNs, 60'000);
    SessionData data;
    for (const OpenEvent &o : first.open)
        data.events.append(o);
    for (const BlockEvent &e : first.block)
        data.events.append(e);
    data.info.startMonotonicNs = StartNs;
    session.setSession(std::move(data));
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());

    auto check = [&](const char *what) {
        const quint64 a = state.fullStartNs(), b = state.fullEndNs();
        const quint64 ranges[][2] = {{a, b},
                                     {a + (b - a) / 3, a + (b - a) / 3 + (b - a) / 10},
                                     {a + (b - a) / 2 + 12345, a + (b - a) / 2 + (b - a) / 300},
                                     {a + (b - a) / 4, a + (b - a) / 4 + (b - a) / 20000}};
        int denseBlocks = 0;
        for (const auto &r : ranges) {
            state.setRange(r[0], r[1]);
            for (EventFilterModel *lane : {&openLane, &blockLane}) {
                const LaneBins &bins = tl.laneBins(lane->type());
                const BruteBins brute =
                    bruteForce(session, *lane, state.startNs(), state.endNs(), width);
                QCOMPARE(bins.width, width);
                QVERIFY2(bins.counts == brute.counts, what);
                if (!bins.dense || lane->type() != EventType::Block)
                    continue;
                ++denseBlocks;
                for (int c = 0; c < width; ++c) {
                    for (int cat = 0; cat < LaneBins::CategoryCount; ++cat) {
                        const quint32 n = brute.counts[size_t(c)];
                        const double share =
                            n ? double(brute.categories[size_t(c)][size_t(cat)]) / n : 0;
                        if (qAbs(bins.share[cat][size_t(c)] - share) > 1e-6)
                            QFAIL(qPrintable(QStringLiteral("%1: column %2 category %3: %4 != %5")
                                                 .arg(QLatin1String(what))
                                                 .arg(c)
                                                 .arg(cat)
                                                 .arg(bins.share[cat][size_t(c)])
                                                 .arg(share)));
                    }
                }
            }
        }
        QVERIFY2(denseBlocks >= 2, what); // the share path really ran
    };
    check("loaded");

    // Live recording: the summary is extended, not rebuilt, and stays exact.
    auto [more, end] = batch(next, 30'000);
    session.append(more);
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    check("appended");

    // A filter replaces the accepted sequences.
    EventFilter f;
    f.pid = 101;
    state.setFilter(f);
    QVERIFY(blockLane.filterActive());
    QVERIFY(blockLane.acceptedCount() < 90'000);
    check("filtered");
    state.setFilter({});
    check("unfiltered");
}

void TestGui::binsMatchBruteForceWithEqualTimes()
{
    // Runs of events with one timestamp, and column edges that fall on them: the time index
    // (every LaneSummary::Stride-th event) must still find the first event of a run.
    SessionModel session;
    ViewState state;
    EventTableModel openTable(&session, EventType::Open);
    EventFilterModel openLane(&openTable, &state);
    TimelineWidget tl(&session, &state, {&openLane});
    tl.resize(400, 120);
    const int width = tl.plotRect().width();
    SessionData data;
    OpenEvent o;
    o.comm = "same";
    quint64 t = StartNs;
    for (int i = 0; i < 20'000; ++i) {
        if (i % 37 == 0)
            t += 1000 * (1 + i % 5);
        o.timeNs = t;
        o.pid = 1 + quint32(i % 2);
        data.events.append(o);
    }
    data.info.startMonotonicNs = StartNs;
    session.setSession(std::move(data));
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    const quint64 a = state.fullStartNs(), b = state.fullEndNs();
    auto check = [&](const char *what) {
        const quint64 ranges[][2] = {{a, b},
                                     {a + 3000, a + 3000 + quint64(width) * 1000},
                                     {a + 7000, a + 7000 + quint64(width) * 37},
                                     {a + (b - a) / 2, a + (b - a) / 2 + (b - a) / 7}};
        for (const auto &r : ranges) {
            state.setRange(r[0], r[1]);
            const BruteBins brute =
                bruteForce(session, openLane, state.startNs(), state.endNs(), width);
            QVERIFY2(tl.laneBins(EventType::Open).counts == brute.counts, what);
            // Without a summary the binner gallops over the rows: the same answer.
            QVERIFY2(TimelineBinner::bin(openLane, session, state.startNs(), state.endNs(), width)
                             .counts == brute.counts,
                     what);
        }
    };
    check("unfiltered");
    EventFilter f;
    f.pid = 2;
    state.setFilter(f);
    QVERIFY(openLane.filterActive());
    check("filtered");
}

void TestGui::tickSpritesMatchDirectDrawing()
{
    // The sparse lanes' ticks are blitted from sprites; they must look like the antialiased
    // paths they replace, at the same places, at any device pixel ratio. A tick one device
    // pixel off differs by most of the colour's contrast; a sub-pixel phase error by far less.
    const QColor colour(0x2e, 0x9d, 0x5b);
    const std::vector<double> xs = {10.0, 20.3, 30.5, 40.75, 42.9, 100.125, 150.6, 197.0};
    for (const double dpr : {1.0, 1.5, 2.0}) {
        auto render = [&](bool sprites) {
            QImage image(QSize(200, 60) * dpr, QImage::Format_ARGB32_Premultiplied);
            image.setDevicePixelRatio(dpr);
            image.fill(Qt::white);
            QPainter p(&image);
            p.setClipRect(QRect(0, 4, 200, 50)); // lanes clip their ticks
            if (sprites) {
                TickSprites ticks;
                ticks.draw(p, colour, 12.5, 47, xs);
                ticks.draw(p, colour, 12.5, 47, {60.2}); // from the cache
                if (ticks.cachedSprites() != 1)
                    return QImage();
            } else {
                TickSprites::drawDirect(p, colour, 12.5, 47, xs);
                TickSprites::drawDirect(p, colour, 12.5, 47, {60.2});
            }
            return image;
        };
        const QImage sprites = render(true);
        const QImage direct = render(false);
        QVERIFY(!sprites.isNull());
        int worst = 0;
        qint64 inkSprites = 0, inkDirect = 0;
        for (int y = 0; y < direct.height(); ++y) {
            for (int x = 0; x < direct.width(); ++x) {
                const QRgb s = sprites.pixel(x, y), d = direct.pixel(x, y);
                worst = std::max({worst, qAbs(qRed(s) - qRed(d)), qAbs(qGreen(s) - qGreen(d)),
                                  qAbs(qBlue(s) - qBlue(d))});
                inkSprites += 255 - qRed(s);
                inkDirect += 255 - qRed(d);
            }
        }
        const QString what = QStringLiteral("dpr %1: worst channel difference %2, ink %3 vs %4")
                                 .arg(dpr)
                                 .arg(worst)
                                 .arg(inkSprites)
                                 .arg(inkDirect);
        QVERIFY2(inkDirect > 0, qPrintable(what));
        QVERIFY2(worst <= 64, qPrintable(what));
        QVERIFY2(qAbs(inkSprites - inkDirect) < inkDirect / 50, qPrintable(what));
    }
}

QTEST_MAIN(TestGui)
#include "tst_gui.moc"
