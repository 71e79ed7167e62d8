// The recording side of the desktop application: the stream recorder on a real pipe, the main
// window's record/stop/save flow through it, the probe panel and the I/O stack view.
#include "core/protocol.h"
#include "gui/exportcontroller.h"
#include "gui/histogramview.h"
#include "gui/iostackview.h"
#include "gui/mainwindow.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "gui/recorder.h"
#include "gui/resultspage.h"
#include "gui/timelinewidget.h"
#include "gui/translations.h"
#include "tests/gui/guitestdata.h"
#include "tests/gui/modaltest.h"

#include <QAbstractButton>
#include <QApplication>
#include <QBarSet>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFrame>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QStandardPaths>
#include <QStringListModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWheelEvent>

#include <atomic>
#include <csignal>
#include <functional>
#include <thread>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

// Writes a hello, the test batches and (unless cut) an end into fd from its own thread, the
// way the helper writes the stream: frames arrive split wherever the pipe splits them.
class PipeWriter
{
public:
    enum class Ending
    {
        End,      // an End frame after the batches
        WaitStop, // an End frame once stop() is called
        CutFrame, // half of a frame, then close
        Garbage,  // bytes that are no stream at all
    };
    PipeWriter(int fd, Ending ending, int batches = Batches)
        : m_fd(fd)
        , m_ending(ending)
    {
        m_thread = std::thread([this, batches] { run(batches); });
    }
    ~PipeWriter()
    {
        m_stop = true;
        m_thread.join();
    }
    void stop() { m_stop = true; }

private:
    void run(int batches)
    {
        StreamWriter w(4096); // small frames: one batch becomes several
        if (m_ending == Ending::Garbage) {
            const QByteArray junk(100000, '\x7f');
            (void)!::write(m_fd, junk.constData(), size_t(junk.size()));
            ::close(m_fd);
            return;
        }
        w.writeHello(guiInfo());
        for (int b = 0; b < batches; ++b) {
            RecordBatch batch = guiBatch(b);
            for (ProbeStats &s : batch.stats)
                s.runTimeNs = quint64(b + 1) * 10'000'000; // 10 ms of BPF time per second
            w.writeBatch(batch);
            w.flushTo(m_fd);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (m_ending == Ending::CutFrame) {
            RecordBatch more = guiBatch(0);
            w.writeBatch(more);
            const QByteArray bytes = w.takePending();
            (void)!::write(m_fd, bytes.constData(), size_t(bytes.size() / 2));
            ::close(m_fd);
            return;
        }
        while (m_ending == Ending::WaitStop && !m_stop)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        w.writeEnd({StreamEndReason::Stopped, QString(), EndNs});
        w.flushTo(m_fd);
        ::close(m_fd);
    }

    int m_fd;
    Ending m_ending;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;

public:
    static constexpr quint64 EndNs = StartNs + quint64(Batches) * SecondNs + 5;
};

qsizetype totalEvents(const QList<RecordBatch> &batches)
{
    qsizetype n = 0;
    for (const RecordBatch &b : batches)
        n += b.eventCount();
    return n;
}

// Answers the next modal message box with button.
// Renders the window and each of its views to gui-png/<prefix>-<view>.png under the build tree
// (what the README's screenshots come from) and checks that each shows something: a blank or
// one-colour widget has a handful of colours at most.
void renderViews(MainWindow &w, const QString &prefix)
{
    const QDir out(QStringLiteral(BPFLENS_TEST_OUTPUT_DIR));
    QVERIFY(out.mkpath(QStringLiteral(".")));
    struct Shot
    {
        const char *name;
        QWidget *tab;
        QWidget *widget;
        int minColours;
    };
    const QList<Shot> shots = {
        {"window", w.results()->histogramView(), &w, 40},
        {"timeline", nullptr, w.results()->timeline(), 8},
        {"histograms", w.results()->histogramView(), w.results()->histogramView(), 12},
        {"iostack", w.results()->ioStackView(), w.results()->ioStackView(), 4},
        {"table-block", w.results()->tableView(EventType::Block),
         w.results()->tableView(EventType::Block), 4},
    };
    for (const Shot &s : shots) {
        if (s.tab)
            w.results()->showView(s.tab);
        QApplication::processEvents();
        const QImage image = s.widget->grab().toImage().convertToFormat(QImage::Format_RGB32);
        QVERIFY(!image.isNull());
        const QString file = out.filePath(prefix + QLatin1Char('-') + QLatin1String(s.name) +
                                          QStringLiteral(".png"));
        QVERIFY(image.save(file));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 2) {
            const QRgb *line = reinterpret_cast<const QRgb *>(image.constScanLine(y));
            for (int x = 0; x < image.width(); x += 2)
                colours.insert(line[x]);
        }
        QVERIFY2(colours.size() > s.minColours,
                 qPrintable(QStringLiteral("%1: %2 colours").arg(file).arg(colours.size())));
    }
}

void answerNextMessageBox(QMessageBox::StandardButton button)
{
    QTimer::singleShot(0, [button] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box) {
            answerNextMessageBox(button); // not up yet
            return;
        }
        box->button(button)->click();
    });
}

// A recorder backend over a pipe with a PipeWriter, as the helper client will provide one.
struct PipeBackend
{
    std::unique_ptr<PipeWriter> writer;
    QList<ProbeConfig> requested;
    void install(StreamRecorder *recorder)
    {
        recorder->setBackend(
            [this](const QList<ProbeConfig> &probes, QString *) {
                requested = probes;
                int fds[2];
                if (::pipe(fds) != 0)
                    return -1;
                writer = std::make_unique<PipeWriter>(fds[1], PipeWriter::Ending::WaitStop);
                return fds[0];
            },
            [this] { writer->stop(); });
    }
};

CounterSample ioCounter(int interval, const QString &op, const QString &layer,
                        const QString &metric, double value)
{
    return {QStringLiteral("iostack"), StartNs + quint64(interval + 1) * SecondNs, SecondNs,
            op + QLatin1Char('/') + layer + QLatin1Char('/') + metric, value};
}

// An iostack recording on a kernel without fentry and kprobes: syscall, block-queue and
// block-device measured, vfs and fs absent. Per interval i: read has 1 ms syscall, 3 ms queue,
// 6 ms device exclusive; fsync only in interval 1.
SessionData ioStackSession()
{
    SessionData d;
    d.info = guiInfo();
    for (int i = 0; i < 3; ++i) {
        d.counters << ioCounter(i, QStringLiteral("read"), QStringLiteral("syscall"),
                                QStringLiteral("exclusive_ns"), 1e6)
                   << ioCounter(i, QStringLiteral("read"), QStringLiteral("syscall"),
                                QStringLiteral("total_ns"), 10e6)
                   << ioCounter(i, QStringLiteral("read"), QStringLiteral("syscall"),
                                QStringLiteral("count"), 100)
                   << ioCounter(i, QStringLiteral("read"), QStringLiteral("block-queue"),
                                QStringLiteral("exclusive_ns"), 3e6)
                   << ioCounter(i, QStringLiteral("read"), QStringLiteral("block-device"),
                                QStringLiteral("exclusive_ns"), 6e6)
                   << ioCounter(i, QStringLiteral("unattributed"), QStringLiteral("block-device"),
                                QStringLiteral("total_ns"), 2e6);
    }
    d.counters << ioCounter(1, QStringLiteral("fsync"), QStringLiteral("syscall"),
                            QStringLiteral("exclusive_ns"), 40e6)
               << ioCounter(1, QStringLiteral("fsync"), QStringLiteral("block-device"),
                            QStringLiteral("exclusive_ns"), 60e6);
    // Another probe's counters and names from a newer probe are not the view's.
    d.counters << CounterSample{QStringLiteral("cachestat"), StartNs + SecondNs, SecondNs,
                                QStringLiteral("hits"), 5}
               << ioCounter(0, QStringLiteral("mmap"), QStringLiteral("syscall"),
                            QStringLiteral("exclusive_ns"), 9e9);
    return d;
}

double barValue(QAbstractBarSeries *series, const QString &layer, int index)
{
    for (QBarSet *set : series->barSets()) {
        if (set->property("layer").toString() == layer)
            return set->at(index);
    }
    return -1;
}

} // namespace

class TestRecording : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init() { QSettings().clear(); }
    void streamRecorderTurnsFramesIntoSignals();
    void streamRecorderReportsBrokenStreams_data();
    void streamRecorderReportsBrokenStreams();
    void streamRecorderWithoutBackendSaysWhy();
    void bannerWithoutHelperAndSessionsStillOpen();
    void recordsLiveShowsStatusAndSaves();
    void closingAsksAboutUnsavedRecording();
    void closingWhileRecordingStopsAndSaves();
    void stopAndSaveCancelledKeepsTheStoppedRecording();
    void probePanelListsCatalogWithEditors();
    void probePanelValidatesAndPersists();
    void probePanelSaysWhyAFunctionCannotBeProbed();
    void probePanelSaysWhyAUsdtProbeCannotBeProbed();
    void probePanelSaysWhyAPairHookCannotBeProbed();
    void probePanelWheelScrollsPastFields();
    void tickingAProbeMovesOnlyTheRowsBelow_data();
    void tickingAProbeMovesOnlyTheRowsBelow();
    void probePanelAvailabilityAndCompleter();
    void ioStackViewStacksExclusiveTime();

private:
    QTemporaryDir m_dir;
};

void TestRecording::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("BPF Lens Tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_recording"));
    // The recorder closes a stream it refuses; the garbage writer then gets EPIPE, as the
    // helper would (its StreamWriter never raises SIGPIPE).
    std::signal(SIGPIPE, SIG_IGN);
    QVERIFY(m_dir.isValid());
}

void TestRecording::streamRecorderTurnsFramesIntoSignals()
{
    int fds[2];
    QCOMPARE(::pipe(fds), 0);
    StreamRecorder recorder;
    QSignalSpy started(&recorder, &Recorder::started);
    QSignalSpy ended(&recorder, &Recorder::ended);
    QSignalSpy failed(&recorder, &Recorder::failed);
    QList<RecordBatch> batches;
    connect(&recorder, &Recorder::batch, this, [&](const RecordBatch &b) { batches << b; });
    QVERIFY(recorder.attach(fds[0]));
    QVERIFY(recorder.isRecording());
    PipeWriter writer(fds[1], PipeWriter::Ending::End);

    QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 10000);
    QCOMPARE(failed.size(), 0);
    QCOMPARE(started.size(), 1);
    QCOMPARE(started.first().first().value<SessionInfo>(), guiInfo());
    QCOMPARE(ended.first().at(1).toULongLong(), PipeWriter::EndNs);
    QVERIFY(!recorder.isRecording());
    // Every event exactly once, however the pipe split the frames.
    QVERIFY(batches.size() >= Batches);
    QCOMPARE(totalEvents(batches),
             qsizetype(Batches * (ExecPerBatch + OpenPerBatch + BlockPerBatch)));
    qsizetype opens = 0;
    bool known = false;
    for (const RecordBatch &b : std::as_const(batches)) {
        opens += b.open.size();
        for (const OpenEvent &e : b.open)
            known = known || e.path == KnownPath;
    }
    QCOMPARE(opens, qsizetype(Batches * OpenPerBatch));
    QVERIFY(known);
}

void TestRecording::streamRecorderReportsBrokenStreams_data()
{
    QTest::addColumn<int>("ending");
    QTest::addColumn<bool>("expectStarted");
    QTest::newRow("cut in a frame") << int(PipeWriter::Ending::CutFrame) << true;
    QTest::newRow("garbage") << int(PipeWriter::Ending::Garbage) << false;
}

void TestRecording::streamRecorderReportsBrokenStreams()
{
    QFETCH(int, ending);
    QFETCH(bool, expectStarted);
    int fds[2];
    QCOMPARE(::pipe(fds), 0);
    StreamRecorder recorder;
    QSignalSpy started(&recorder, &Recorder::started);
    QSignalSpy ended(&recorder, &Recorder::ended);
    QSignalSpy failed(&recorder, &Recorder::failed);
    QVERIFY(recorder.attach(fds[0]));
    PipeWriter writer(fds[1], PipeWriter::Ending(ending));
    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
    QCOMPARE(started.size(), expectStarted ? 1 : 0);
    QCOMPARE(ended.size(), 0);
    const QString error = failed.first().first().toString();
    QVERIFY2(error.startsWith(QLatin1String("The recording stream broke off: ")),
             qPrintable(error));
    QVERIFY(!recorder.isRecording());
    // A recorder that failed can read the next stream.
    QCOMPARE(::pipe(fds), 0);
    QVERIFY(recorder.attach(fds[0]));
    PipeWriter good(fds[1], PipeWriter::Ending::End, 1);
    QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 10000);
}

void TestRecording::streamRecorderWithoutBackendSaysWhy()
{
    StreamRecorder recorder;
    recorder.setUnavailableReason(QStringLiteral("no helper here"));
    QVERIFY(!recorder.isAvailable());
    QSignalSpy failed(&recorder, &Recorder::failed);
    recorder.start({{QStringLiteral("exec"), {}, {}}});
    QCOMPARE(failed.size(), 1);
    QCOMPARE(failed.first().first().toString(), QStringLiteral("no helper here"));
    // A fd that is not open is refused with a message, not read.
    QVERIFY(!recorder.attach(-1));
    QCOMPARE(failed.size(), 2);
    QVERIFY(!recorder.isRecording());
}

void TestRecording::bannerWithoutHelperAndSessionsStillOpen()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.banner()->isVisible());
    const QString text = w.bannerLabel()->text();
    QVERIFY2(text.contains(QLatin1String("cmake --install")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("polkit")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("bpflens-helper")), qPrintable(text));
    QVERIFY(!w.recordAction()->isEnabled());
    QVERIFY(!w.stopAction()->isEnabled());

    QString error;
    const QString path = writeGuiSession(QDir(m_dir.path()), &error);
    QVERIFY2(!path.isEmpty(), qPrintable(error));
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    QCOMPARE(w.session()->events().count(EventType::Open), Batches * OpenPerBatch);

    StreamRecorder recorder;
    PipeBackend backend;
    backend.install(&recorder);
    w.setRecorder(&recorder);
    QVERIFY(!w.banner()->isVisible());
    w.probePanel()->setProbeSelected(QStringLiteral("exec"), true);
    QVERIFY(w.recordAction()->isEnabled());
    QFile::remove(path);
}

void TestRecording::recordsLiveShowsStatusAndSaves()
{
    MainWindow w;
    StreamRecorder recorder;
    PipeBackend backend;
    backend.install(&recorder);
    w.setRecorder(&recorder);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.probePanel()->setProbeSelected(QStringLiteral("exec"), true);
    w.probePanel()->setProbeSelected(QStringLiteral("block"), true);
    QVERIFY(w.recordAction()->isEnabled());

    w.recordAction()->trigger();
    QTRY_VERIFY(w.isRecording());
    QCOMPARE(backend.requested.size(), 2);
    QCOMPARE(backend.requested[1].id, QStringLiteral("block"));
    QCOMPARE(backend.requested[1].options.value(QStringLiteral("units")).toString(),
             QStringLiteral("usecs")); // normalized: defaults filled in
    QVERIFY(w.windowTitle().startsWith(QLatin1String("Recording")));
    QVERIFY(!w.recordAction()->isEnabled());
    QVERIFY(w.stopAction()->isEnabled());
    QVERIFY(!w.probePanel()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(w.session()->events().count(EventType::Block),
                              Batches * BlockPerBatch, 10000);
    QCOMPARE(w.session()->info().host, guiInfo().host);
    renderViews(w, QStringLiteral("live"));
    if (QTest::currentTestFailed())
        return;

    w.updateRecordingStatus();
    QVERIFY2(w.elapsedLabel()->text().contains(QLatin1String("0:00:0")),
             qPrintable(w.elapsedLabel()->text()));
    // open lost 0 + 3 + 6 events (cumulative: the last sample counts), block's completions
    // not seen and requests unfinished: each cause by name, highlighted, and explained.
    QCOMPARE(w.lostLabel()->text(), QStringLiteral("6 lost · 2 not seen · 1 unfinished"));
    QVERIFY(w.lostLabel()->toolTip().contains(QLatin1String("ring buffer")));
    QVERIFY(w.lostLabel()->toolTip().contains(QLatin1String("completion was never seen")));
    QVERIFY(w.lostLabel()->toolTip().contains(QLatin1String("still open")));
    QVERIFY(w.lostLabel()->isVisible());
    QVERIFY(w.lostLabel()->styleSheet().contains(QLatin1String("background")));
    // 3 probes x 30 ms BPF time after 3 s of stats: 90 ms / 3 s = 3 % of a CPU.
    QCOMPARE(w.cpuLabel()->text(), QStringLiteral("probes 3.00 % CPU"));

    // Export works on what was recorded, live and after.
    QVERIFY(w.exportController()->imageAction()->isEnabled());
    QVERIFY(w.exportController()->csvMenu()->menuAction()->isEnabled());
    QVERIFY2(w.results()
                 ->viewTitle(w.results()->tableView(EventType::Block))
                 .contains(QLocale().toString(Batches * BlockPerBatch)),
             qPrintable(w.results()->viewTitle(w.results()->tableView(EventType::Block))));

    // Open (the menu, Open Recent, a drop) during the recording says why it does nothing.
    QVERIFY(!w.openFile(m_dir.filePath(QStringLiteral("other.bpflens"))));
    auto *box = w.findChild<QMessageBox *>(QStringLiteral("errorBox"));
    QVERIFY(box && box->isVisible());
    QVERIFY2(box->text().contains(QLatin1String("other.bpflens")) &&
                 box->text().contains(QLatin1String("a recording is running: stop it first")),
             qPrintable(box->text()));
    box->close();
    box->deleteLater();

    w.stopAction()->trigger();
    QTRY_VERIFY(!w.isRecording());
    QVERIFY(w.hasUnsavedRecording());
    QVERIFY(w.exportController()->imageAction()->isEnabled());
    QVERIFY(w.isWindowModified());
    QVERIFY(w.windowTitle().contains(QLatin1String("[*]")));
    QCOMPARE(w.session()->info().endMonotonicNs, PipeWriter::EndNs);
    QVERIFY(w.saveAsAction()->isEnabled());
    QVERIFY(w.recordAction()->isEnabled());
    QCOMPARE(w.elapsedLabel()->text(), QStringLiteral("Duration 0:00:03"));

    // Saving writes a session file that reads back with every event; the mark goes away.
    const QString path = QDir(m_dir.path()).filePath(QStringLiteral("live.bpflens"));
    QString error;
    QVERIFY2(w.saveTo(path, &error), qPrintable(error));
    QVERIFY(!w.isWindowModified());
    QVERIFY(!w.hasUnsavedRecording());
    QCOMPARE(w.session()->path(), QFileInfo(path).absoluteFilePath());
    SessionData saved;
    QVERIFY2(SessionReader::open(path, &saved, &error), qPrintable(error));
    QCOMPARE(saved.events.count(EventType::Exec), Batches * ExecPerBatch);
    QCOMPARE(saved.events.count(EventType::Open), Batches * OpenPerBatch);
    QCOMPARE(saved.events.count(EventType::Block), Batches * BlockPerBatch);
    QCOMPARE(saved.events.block(7), w.session()->events().block(7));
    QCOMPARE(saved.histograms.size(), w.session()->data().histograms.size());
    QCOMPARE(saved.info.endMonotonicNs, PipeWriter::EndNs);
    QCOMPARE(saved.info.host, guiInfo().host);
    {
        // The reopened session shows the same events in every view.
        MainWindow reopened;
        reopened.resize(w.size());
        QVERIFY2(reopened.openFile(path, &error), qPrintable(error));
        reopened.show();
        QVERIFY(QTest::qWaitForWindowExposed(&reopened));
        QCOMPARE(reopened.results()->filterModel(EventType::Block)->rowCount(),
                 w.results()->filterModel(EventType::Block)->rowCount());
        // The live window looks as the reopened file does: tab counts, and columns sized to
        // the rows (not to empty tables: "1…" for times and pids).
        for (EventType t : {EventType::Block, EventType::Exec}) {
            QTableView *live = w.results()->tableView(t), *again = reopened.results()->tableView(t);
            QCOMPARE(w.results()->viewTitle(live), reopened.results()->viewTitle(again));
            // (the last column stretches to the view's width, which differs between windows)
            for (int c = 0; c + 1 < live->model()->columnCount(); ++c)
                QCOMPARE(live->columnWidth(c), again->columnWidth(c));
        }
        renderViews(reopened, QStringLiteral("reopened"));
        if (QTest::currentTestFailed())
            return;
    }

    // Saving over an existing file replaces it whole; a directory that is not there is an
    // error that names the file, and the session stays as it was.
    QVERIFY2(w.saveTo(path, &error), qPrintable(error));
    QVERIFY(!w.saveTo(QStringLiteral("/nonexistent-dir/x.bpflens"), &error));
    QVERIFY2(error.contains(QLatin1String("/nonexistent-dir/x.bpflens")), qPrintable(error));
    QCOMPARE(w.session()->path(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(
        QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden).filter(QStringLiteral(".part")),
        QStringList());
}

void TestRecording::closingAsksAboutUnsavedRecording()
{
    MainWindow w;
    StreamRecorder recorder;
    PipeBackend backend;
    backend.install(&recorder);
    w.setRecorder(&recorder);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.probePanel()->setProbeSelected(QStringLiteral("exec"), true);
    w.recordAction()->trigger();
    QTRY_VERIFY(w.isRecording());
    QTRY_VERIFY(w.session()->events().count(EventType::Exec) > 0);
    w.stopAction()->trigger();
    QTRY_VERIFY(w.hasUnsavedRecording());

    // Cancel keeps the window and the recording.
    answerNextMessageBox(QMessageBox::Cancel);
    QVERIFY(!w.close());
    QVERIFY(w.isVisible());
    QVERIFY(w.hasUnsavedRecording());
    // Opening another file asks too, and Cancel keeps the recording.
    QString error;
    answerNextMessageBox(QMessageBox::Cancel);
    QVERIFY(!w.openFile(QStringLiteral("/nonexistent.bpflens"), &error));
    QVERIFY(w.session()->events().count(EventType::Exec) > 0);
    // Discard closes.
    answerNextMessageBox(QMessageBox::Discard);
    QVERIFY(w.close());
}

// Closing while recording offers Stop and Save (the default): the recording is stopped, the
// close waits for its end (batches still in flight included) and the Save dialog follows.
void TestRecording::closingWhileRecordingStopsAndSaves()
{
    // The Qt dialog, whatever the platform theme: the test answers it through its widgets.
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, true);
    MainWindow w;
    StreamRecorder recorder;
    PipeBackend backend;
    backend.install(&recorder);
    w.setRecorder(&recorder);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.probePanel()->setProbeSelected(QStringLiteral("exec"), true);
    w.recordAction()->trigger();
    QTRY_VERIFY(w.isRecording());
    // Closed after the first batch: the writer has the others still to send.
    QTRY_VERIFY(w.session()->events().count(EventType::Exec) > 0);

    const QString path = m_dir.filePath(QStringLiteral("closed-while-recording.bpflens"));
    QString buttonText, boxText;
    bool isDefault = false, hasDiscard = false, hasCancel = false, saveDialogShown = false;
    whenModal<QMessageBox>([&](QMessageBox *box) {
        auto *stopAndSave = box->findChild<QPushButton *>(QStringLiteral("stopAndSaveButton"));
        if (box->objectName() != QLatin1String("unsavedRecordingBox") || !stopAndSave) {
            box->reject(); // (the checks below then fail)
            return;
        }
        boxText = box->text();
        hasDiscard = box->button(QMessageBox::Discard);
        hasCancel = box->button(QMessageBox::Cancel);
        buttonText = stopAndSave->text();
        isDefault = box->defaultButton() == stopAndSave;
        whenModal<QFileDialog>([&](QFileDialog *dialog) {
            saveDialogShown = true;
            answerFileDialog(dialog, path);
        });
        stopAndSave->click();
    });
    const bool closed = w.close();
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, false);
    QCOMPARE(buttonText, QStringLiteral("Stop and Save…"));
    QVERIFY(isDefault);
    QVERIFY(hasDiscard && hasCancel);
    QVERIFY2(boxText.contains(QLatin1String("save")), qPrintable(boxText));
    QVERIFY(saveDialogShown);
    QVERIFY(closed);
    QVERIFY(!w.isVisible());
    QVERIFY(!w.isRecording());
    QVERIFY(!w.hasUnsavedRecording());
    QCOMPARE(w.session()->path(), QFileInfo(path).absoluteFilePath());

    // The file holds the whole recording: every batch, and the end the recorder reported.
    QVERIFY(QFileInfo(path).isFile());
    SessionData saved;
    QString error;
    QVERIFY2(SessionReader::open(path, &saved, &error), qPrintable(error));
    QCOMPARE(saved.events.count(EventType::Exec), Batches * ExecPerBatch);
    QCOMPARE(saved.info.endMonotonicNs, PipeWriter::EndNs);
    QCOMPARE(saved.info.host, guiInfo().host);
}

// A Save dialog cancelled after Stop and Save keeps the window with the stopped recording, and
// closing again asks as for any unsaved recording.
void TestRecording::stopAndSaveCancelledKeepsTheStoppedRecording()
{
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, true);
    MainWindow w;
    StreamRecorder recorder;
    PipeBackend backend;
    backend.install(&recorder);
    w.setRecorder(&recorder);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.probePanel()->setProbeSelected(QStringLiteral("exec"), true);
    w.recordAction()->trigger();
    QTRY_VERIFY(w.isRecording());
    QTRY_VERIFY(w.session()->events().count(EventType::Exec) > 0);

    bool saveDialogShown = false;
    whenModal<QMessageBox>([&](QMessageBox *box) {
        auto *stopAndSave = box->findChild<QPushButton *>(QStringLiteral("stopAndSaveButton"));
        if (!stopAndSave) {
            box->reject();
            return;
        }
        whenModal<QFileDialog>([&](QFileDialog *dialog) {
            saveDialogShown = true;
            dialog->reject();
        });
        stopAndSave->click();
    });
    const bool closed = w.close();
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, false);
    QVERIFY(saveDialogShown);
    QVERIFY(!closed);
    QVERIFY(w.isVisible());
    QVERIFY(!w.isRecording());
    QVERIFY(w.hasUnsavedRecording());
    QVERIFY(w.isWindowModified());
    QCOMPARE(w.session()->events().count(EventType::Exec), Batches * ExecPerBatch);
    QCOMPARE(w.session()->info().endMonotonicNs, PipeWriter::EndNs);

    // Stopped now: Save (not Stop and Save), Discard and Cancel; Discard closes.
    QString saveText;
    bool stopAndSaveOffered = true, hasDiscard = false, hasCancel = false;
    whenModal<QMessageBox>([&](QMessageBox *box) {
        stopAndSaveOffered = box->findChild<QPushButton *>(QStringLiteral("stopAndSaveButton"));
        if (QAbstractButton *save = box->button(QMessageBox::Save))
            saveText = save->text();
        hasDiscard = box->button(QMessageBox::Discard);
        hasCancel = box->button(QMessageBox::Cancel);
        if (hasDiscard)
            box->button(QMessageBox::Discard)->click();
        else
            box->reject();
    });
    QVERIFY(w.close());
    QVERIFY(!stopAndSaveOffered);
    QVERIFY2(saveText.contains(QLatin1String("Save")) && !saveText.contains(QLatin1String("Stop")),
             qPrintable(saveText));
    QVERIFY(hasDiscard && hasCancel);
}

void TestRecording::probePanelWheelScrollsPastFields()
{
    // Scrolling the panel with the wheel over a field the user never clicked into scrolls the
    // panel and leaves the field alone (a runqlat Thread ID of 3 was set that way).
    ProbePanel panel;
    for (const ProbeInfo &info : ProbeCatalog::probes())
        panel.setProbeSelected(info.id, true); // every probe's options shown: a long panel
    panel.resize(320, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto *scroll = panel.findChild<QScrollArea *>();
    QVERIFY(scroll);
    QScrollBar *bar = scroll->verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    auto *tid = qobject_cast<QDoubleSpinBox *>(
        panel.optionEditor(QStringLiteral("runqlat"), QStringLiteral("tid")));
    auto *units = qobject_cast<QComboBox *>(
        panel.optionEditor(QStringLiteral("runqlat"), QStringLiteral("units")));
    QVERIFY(tid && units);
    for (QWidget *field : {static_cast<QWidget *>(tid), static_cast<QWidget *>(units)}) {
        scroll->ensureWidgetVisible(field);
        bar->setValue(bar->maximum() / 2);
        const double value = tid->value();
        const int index = units->currentIndex();
        const int before = bar->value();
        const QPointF at(field->width() / 2.0, field->height() / 2.0);
        QWheelEvent wheel(at, field->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QVERIFY(!field->hasFocus());
        QCoreApplication::sendEvent(field, &wheel);
        QCOMPARE(tid->value(), value);
        QCOMPARE(units->currentIndex(), index);
        QVERIFY2(bar->value() < before, qPrintable(field->objectName())); // scrolled up
        QCOMPARE(field->focusPolicy(), Qt::StrongFocus); // the wheel does not focus it either
    }
}

// Ticking a probe shows its option rows and moves the rows below down by their height: nothing
// else in the panel moves, rewraps or changes size, also when the ticked options make the panel
// scroll where it did not before, and in the window as on a 1366x768 screen.
void TestRecording::tickingAProbeMovesOnlyTheRowsBelow_data()
{
    QTest::addColumn<QString>("locale");
    QTest::newRow("English") << QStringLiteral("C");
    QTest::newRow("German") << QStringLiteral("de_DE"); // longer labels, more wrapping
}

void TestRecording::tickingAProbeMovesOnlyTheRowsBelow()
{
    QFETCH(QString, locale);
    installTranslations(QLocale(locale));
    const auto english = qScopeGuard([] { installTranslations(QLocale::c()); });
    struct Place
    {
        QWidget *widget;
        QRect geometry;
    };
    auto places = [](QWidget *content) {
        QList<Place> list;
        for (QWidget *child : content->findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
            if (child->isVisible())
                list.append({child, child->geometry()});
        }
        return list;
    };
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.showRecordPage(true);
    ProbePanel standalone;
    for (ProbePanel *panel : {w.probePanel(), &standalone}) {
        for (const ProbeInfo &info : ProbeCatalog::probes())
            panel->setProbeSelected(info.id, false);
        if (panel == &standalone) {
            // Just tall enough for the unticked panel: ticked options then need a scroll bar.
            standalone.resize(320, 200);
            standalone.show();
            QVERIFY(QTest::qWaitForWindowExposed(&standalone));
            auto *scroll = standalone.findChild<QScrollArea *>();
            // (wrapped labels: the height for a width is found by trying)
            for (int h = scroll->widget()->sizeHint().height();
                 h < 5000 && (h == scroll->widget()->sizeHint().height() ||
                              scroll->verticalScrollBar()->maximum() > 0);
                 h += 4) {
                standalone.resize(320, h);
                QApplication::processEvents();
            }
            QCOMPARE(scroll->verticalScrollBar()->maximum(), 0);
        }
        auto *scroll = panel->findChild<QScrollArea *>();
        QVERIFY(scroll && scroll->widget());
        QWidget *content = scroll->widget();
        for (const ProbeInfo &info : ProbeCatalog::probes()) {
            QCheckBox *box = panel->checkBox(info.id);
            if (!box->isEnabled())
                continue;
            QApplication::processEvents();
            const QList<Place> before = places(content);
            box->setChecked(true);
            QApplication::processEvents();
            // The probe's own rows (its description) stay; its options come after them.
            int firstMoved = content->height();
            if (!info.options.isEmpty()) {
                QWidget *options =
                    panel->optionEditor(info.id, info.options.first().name)->parentWidget();
                QVERIFY(options->isVisible());
                firstMoved = options->geometry().top();
            }
            int shift = -1;
            for (const Place &p : before) {
                const QRect now = p.widget->geometry();
                const QString what =
                    QStringLiteral("%1: %2 from %3,%4 %5x%6 to %7,%8 %9x%10")
                        .arg(info.id, QLatin1String(p.widget->metaObject()->className()))
                        .arg(p.geometry.x())
                        .arg(p.geometry.y())
                        .arg(p.geometry.width())
                        .arg(p.geometry.height())
                        .arg(now.x())
                        .arg(now.y())
                        .arg(now.width())
                        .arg(now.height());
                QVERIFY2(now.size() == p.geometry.size() && now.x() == p.geometry.x(),
                         qPrintable(what));
                if (p.geometry.top() < firstMoved) {
                    QVERIFY2(now.y() == p.geometry.y(), qPrintable(what));
                } else {
                    if (shift < 0)
                        shift = now.y() - p.geometry.y();
                    QVERIFY2(now.y() - p.geometry.y() == shift, qPrintable(what));
                }
            }
            box->setChecked(false);
        }
    }
}

void TestRecording::probePanelListsCatalogWithEditors()
{
    ProbePanel panel;
    for (const ProbeInfo &info : ProbeCatalog::probes()) {
        QCheckBox *box = panel.checkBox(info.id);
        QVERIFY2(box, qPrintable(info.id));
        QVERIFY(!box->text().isEmpty());
        QVERIFY(!box->accessibleName().isEmpty());
        for (const ProbeOption &o : info.options) {
            QWidget *editor = panel.optionEditor(info.id, o.name);
            // Filled in when the target is resolved (usdt's argument specs): no editor.
            if (o.internal) {
                QVERIFY2(!editor, qPrintable(info.id + QLatin1Char(':') + o.name));
                continue;
            }
            QVERIFY2(editor, qPrintable(info.id + QLatin1Char(':') + o.name));
            QVERIFY(!editor->accessibleName().isEmpty());
            switch (o.type) {
            case ProbeOption::Type::Bool:
                QVERIFY(qobject_cast<QCheckBox *>(editor));
                break;
            case ProbeOption::Type::Int: {
                auto *spin = qobject_cast<QDoubleSpinBox *>(editor);
                QVERIFY(spin);
                QCOMPARE(qint64(spin->minimum()), o.minimum);
                QCOMPARE(qint64(spin->maximum()), o.maximum);
                QCOMPARE(qint64(spin->value()), o.defaultValue.toLongLong());
                break;
            }
            case ProbeOption::Type::String:
                QVERIFY(qobject_cast<QLineEdit *>(editor));
                break;
            case ProbeOption::Type::Choice: {
                auto *combo = qobject_cast<QComboBox *>(editor);
                QVERIFY(combo);
                QCOMPARE(combo->count(), o.choices.size());
                QCOMPARE(combo->currentData().toString(), o.defaultValue.toString());
                break;
            }
            }
        }
    }
    QCOMPARE(ProbePanel::groupTitle(ProbeGroup::BlockIo), QStringLiteral("Block I/O"));
    QVERIFY(panel.configs().isEmpty()); // nothing selected by default

    // Keyboard: Tab reaches the first probe's checkbox, Space selects it and shows its options.
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCheckBox *first = panel.checkBox(ProbeCatalog::probes().first().id);
    first->setFocus();
    QTest::keyClick(first, Qt::Key_Space);
    QVERIFY(first->isChecked());
    QWidget *pid = panel.optionEditor(ProbeCatalog::probes().first().id, QStringLiteral("pid"));
    QVERIFY(pid->isVisible());
    QTest::keyClick(first, Qt::Key_Tab);
    QVERIFY(QApplication::focusWidget() != first);
}

// The uprobe probe's target is resolved as the recording will resolve it, as this user, while
// it is typed: what cannot be probed says why next to the probe, before Record is pressed.
void TestRecording::probePanelSaysWhyAFunctionCannotBeProbed()
{
    ProbePanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setProbeSelected(QStringLiteral("uprobe"), true);
    auto *target = qobject_cast<QLineEdit *>(
        panel.optionEditor(QStringLiteral("uprobe"), QStringLiteral("target")));
    QVERIFY(target);
    QLabel *error = panel.errorLabel(QStringLiteral("uprobe"));
    // The default, libc:malloc, resolves here.
    QVERIFY2(!error->isVisible(), qPrintable(error->text()));
    target->setText(QStringLiteral("/nonexistent/program:main"));
    QVERIFY(error->isVisible());
    QVERIFY2(error->text().contains(QLatin1String("Cannot probe")) &&
                 error->text().contains(QLatin1String("No such file")),
             qPrintable(error->text()));
    target->setText(QStringLiteral("libc:bpflens_no_such_function"));
    QVERIFY2(error->isVisible() &&
                 error->text().contains(QLatin1String("no function bpflens_no_such_function")),
             qPrintable(error->text()));
    target->setText(QStringLiteral("libc:malloc"));
    QVERIFY2(!error->isVisible(), qPrintable(error->text()));
}

// The same for the usdt probe: a probe name the binary lacks is refused with the ones it has, and
// the argument specs the client fills in are no field of the panel.
void TestRecording::probePanelSaysWhyAUsdtProbeCannotBeProbed()
{
    ProbePanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setProbeSelected(QStringLiteral("usdt"), true);
    auto *target = qobject_cast<QLineEdit *>(
        panel.optionEditor(QStringLiteral("usdt"), QStringLiteral("target")));
    QVERIFY(target);
    QVERIFY(!panel.optionEditor(QStringLiteral("usdt"), QStringLiteral("args")));
    QLabel *error = panel.errorLabel(QStringLiteral("usdt"));
    const QString program = QStringLiteral(BPFLENS_USDTTARGET);
    target->setText(program + QStringLiteral(":bpflens:tick"));
    QVERIFY2(!error->isVisible(), qPrintable(error->text()));
    target->setText(program + QStringLiteral(":bpflens:nope"));
    QVERIFY(error->isVisible());
    QVERIFY2(error->text().contains(QLatin1String("Cannot probe")) &&
                 error->text().contains(QLatin1String("it has bpflens:guarded, bpflens:tick")),
             qPrintable(error->text()));
    target->setText(QStringLiteral("/etc/hostname:p:n"));
    QVERIFY2(error->isVisible() && error->text().contains(QLatin1String("not an ELF file")),
             qPrintable(error->text()));
}

// tppair's and tpcount's uprobe and USDT hooks are resolved the same way while typed; a
// tracepoint needs no file and says nothing here.
void TestRecording::probePanelSaysWhyAPairHookCannotBeProbed()
{
    ProbePanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setProbeSelected(QStringLiteral("tppair"), true);
    auto *start = qobject_cast<QLineEdit *>(
        panel.optionEditor(QStringLiteral("tppair"), QStringLiteral("start")));
    auto *end = qobject_cast<QLineEdit *>(
        panel.optionEditor(QStringLiteral("tppair"), QStringLiteral("end")));
    QVERIFY(start && end);
    QVERIFY(!panel.optionEditor(QStringLiteral("tppair"), QStringLiteral("startOffset")));
    QLabel *error = panel.errorLabel(QStringLiteral("tppair"));
    QVERIFY2(!error->isVisible(), qPrintable(error->text()));
    const QString program = QStringLiteral(BPFLENS_USDTTARGET);
    start->setText(QStringLiteral("usdt:") + program + QStringLiteral(":bpflens:nope"));
    QVERIFY(error->isVisible());
    QCOMPARE(error->text(),
             QStringLiteral("Cannot probe: probe tppair, start usdt:%1:bpflens:nope: no USDT "
                            "probe bpflens:nope in %1; it has bpflens:guarded, bpflens:tick")
                 .arg(program));
    // As a user sees it (gui-png/probepanel-tppair-hook.png).
    panel.resize(420, 720);
    QApplication::processEvents();
    if (auto *scroll = panel.findChild<QScrollArea *>())
        scroll->ensureWidgetVisible(error, 0, 200);
    QApplication::processEvents();
    QVERIFY(QDir().mkpath(QStringLiteral(BPFLENS_TEST_OUTPUT_DIR)));
    QVERIFY(
        panel.grab().save(QStringLiteral(BPFLENS_TEST_OUTPUT_DIR "/probepanel-tppair-hook.png")));
    start->setText(QStringLiteral("usdt:") + program + QStringLiteral(":bpflens:tick"));
    end->setText(QStringLiteral("u:/etc/hostname:main"));
    QVERIFY2(error->isVisible() && error->text().contains(QLatin1String(
                                       "end u:/etc/hostname:main: /etc/hostname is not an ELF")),
             qPrintable(error->text()));
    end->setText(QStringLiteral("usdt:") + program + QStringLiteral(":bpflens:guarded"));
    QVERIFY2(!error->isVisible(), qPrintable(error->text()));
    // The start's own hook as the end times each hit to the next (sync_timing): nothing to
    // refuse, at a user-space hook or a tracepoint, and the end's tool tip says what it does.
    end->setText(start->text());
    QVERIFY2(!error->isVisible(), qPrintable(error->text()));
    start->setText(QStringLiteral("sys_enter"));
    end->setText(QStringLiteral("sys_enter"));
    QVERIFY2(!error->isVisible(), qPrintable(error->text()));
    QVERIFY2(end->toolTip().contains(QLatin1String("the start itself: from each hit to the next")),
             qPrintable(end->toolTip()));
    QString why;
    const QList<ProbeConfig> configs = panel.configs(&why);
    const auto pair = std::find_if(configs.cbegin(), configs.cend(), [](const ProbeConfig &c) {
        return c.id == QLatin1String("tppair");
    });
    QVERIFY2(pair != configs.cend(), qPrintable(why));
    QCOMPARE(pair->options.value(QStringLiteral("end")).toString(), QStringLiteral("sys_enter"));

    panel.setProbeSelected(QStringLiteral("tpcount"), true);
    auto *hook = qobject_cast<QLineEdit *>(
        panel.optionEditor(QStringLiteral("tpcount"), QStringLiteral("tracepoint")));
    QVERIFY(hook);
    QLabel *countError = panel.errorLabel(QStringLiteral("tpcount"));
    hook->setText(QStringLiteral("u:/nonexistent/program:main"));
    QVERIFY2(countError->isVisible() &&
                 countError->text().contains(QLatin1String("No such file or directory")),
             qPrintable(countError->text()));
}

void TestRecording::probePanelValidatesAndPersists()
{
    {
        ProbePanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setProbeSelected(QStringLiteral("block"), true);
        panel.setProbeSelected(QStringLiteral("exec"), true);
        static_cast<QCheckBox *>(
            panel.optionEditor(QStringLiteral("block"), QStringLiteral("perDisk")))
            ->setChecked(true);
        auto *units = static_cast<QComboBox *>(
            panel.optionEditor(QStringLiteral("block"), QStringLiteral("units")));
        units->setCurrentIndex(units->findData(QStringLiteral("msecs")));
        static_cast<QDoubleSpinBox *>(
            panel.optionEditor(QStringLiteral("exec"), QStringLiteral("pid")))
            ->setValue(1234);

        QString error;
        const QList<ProbeConfig> configs = panel.configs(&error);
        QCOMPARE(configs.size(), 2);
        QCOMPARE(configs[0].id, QStringLiteral("exec")); // catalog order
        QCOMPARE(configs[0].options.value(QStringLiteral("pid")).toLongLong(), 1234);
        QCOMPARE(configs[1].options.value(QStringLiteral("perDisk")).toBool(), true);
        QCOMPARE(configs[1].options.value(QStringLiteral("units")).toString(),
                 QStringLiteral("msecs"));
        QVERIFY(!panel.errorLabel(QStringLiteral("block"))->isVisible());

        // A command name longer than the kernel's 15 bytes: shown next to the probe, and no
        // configs leave the panel.
        auto *comm = static_cast<QLineEdit *>(
            panel.optionEditor(QStringLiteral("exec"), QStringLiteral("comm")));
        comm->setText(QStringLiteral("a-much-too-long-command"));
        QVERIFY(panel.errorLabel(QStringLiteral("exec"))->isVisible());
        QVERIFY2(panel.errorLabel(QStringLiteral("exec"))->text().contains(QLatin1String("comm")),
                 qPrintable(panel.errorLabel(QStringLiteral("exec"))->text()));
        QVERIFY(panel.configs(&error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("longer than 15 bytes")), qPrintable(error));
        comm->setText(QStringLiteral("postgres"));
        QVERIFY(!panel.errorLabel(QStringLiteral("exec"))->isVisible());
        QCOMPARE(panel.configs().size(), 2);
    }
    // A new panel (the next start of the application) has the same selection and options.
    ProbePanel again;
    QCOMPARE(again.selectedProbes(),
             (QStringList{QStringLiteral("exec"), QStringLiteral("block")}));
    const QList<ProbeConfig> configs = again.configs();
    QCOMPARE(configs.size(), 2);
    QCOMPARE(configs[0].options.value(QStringLiteral("pid")).toLongLong(), 1234);
    QCOMPARE(configs[0].options.value(QStringLiteral("comm")).toString(),
             QStringLiteral("postgres"));
    QCOMPARE(configs[1].options.value(QStringLiteral("units")).toString(), QStringLiteral("msecs"));

    // A stored value the catalog no longer accepts falls back to the default.
    QSettings().setValue(QStringLiteral("probePanel/exec/options"),
                         QVariantMap{{QStringLiteral("pid"), QStringLiteral("not a number")}});
    ProbePanel third;
    QCOMPARE(third.configs().value(0).options.value(QStringLiteral("pid")).toLongLong(), 0);
}

void TestRecording::probePanelAvailabilityAndCompleter()
{
    ProbeInfo tppair;
    tppair.id = QStringLiteral("tppair");
    tppair.group = ProbeGroup::Custom;
    tppair.title = QStringLiteral("Tracepoint pair latency");
    tppair.options = {{QStringLiteral("start"),
                       ProbeOption::Type::String,
                       QStringLiteral("Start tracepoint"),
                       QString(),
                       QString(),
                       0,
                       200,
                       {}}};
    QList<ProbeInfo> probes = ProbeCatalog::probes();
    probes << tppair;
    ProbePanel panel(probes);
    QCOMPARE(panel.statusLabel(QStringLiteral("exec"))->text(), QStringLiteral("unknown"));
    QVERIFY(panel.statusLabel(QStringLiteral("exec"))
                ->toolTip()
                .contains(QLatin1String("unknown until the helper answers")));

    panel.setProbeSelected(QStringLiteral("exec"), true);
    panel.setProbeSelected(QStringLiteral("runqlat"), true);
    QHash<QString, ProbeAvailability> availability;
    availability.insert(QStringLiteral("exec"),
                        {true, QStringLiteral("tp_btf/sched_process_exec"), QString()});
    availability.insert(QStringLiteral("runqlat"),
                        {false, QString(), QStringLiteral("tp_btf/sched_wakeup is missing")});
    // Available with what it cannot measure here: said as partly available, the reason once.
    const QString notMeasured =
        QStringLiteral("not measured: read/fs, write/fs (no hook for this layer on this kernel)");
    availability.insert(QStringLiteral("iostack"),
                        {true, QStringLiteral("tp_btf/sys_enter, tp_btf/sys_exit"), notMeasured});
    panel.setAvailability(availability);
    QCOMPARE(panel.statusLabel(QStringLiteral("iostack"))->text(),
             QStringLiteral("partly available"));
    QCOMPARE(panel.statusLabel(QStringLiteral("iostack"))->toolTip().count(notMeasured), 1);
    QVERIFY(panel.checkBox(QStringLiteral("iostack"))->isEnabled());
    QCOMPARE(panel.statusLabel(QStringLiteral("exec"))->text(), QStringLiteral("available"));
    QVERIFY(panel.statusLabel(QStringLiteral("exec"))
                ->toolTip()
                .contains(QLatin1String("tp_btf/sched_process_exec")));
    QCOMPARE(panel.statusLabel(QStringLiteral("runqlat"))->text(), QStringLiteral("not available"));
    QVERIFY(panel.statusLabel(QStringLiteral("runqlat"))
                ->toolTip()
                .contains(QLatin1String("sched_wakeup is missing")));
    QVERIFY(!panel.checkBox(QStringLiteral("runqlat"))->isEnabled());
    // The reason stands under the probe, not only in its tool tip.
    QVERIFY(!panel.errorLabel(QStringLiteral("runqlat"))->isHidden());
    QCOMPARE(panel.errorLabel(QStringLiteral("runqlat"))->text(),
             QStringLiteral("Not available on this kernel: tp_btf/sched_wakeup is missing"));
    QVERIFY(panel.errorLabel(QStringLiteral("iostack"))->isHidden());
    QVERIFY(panel.errorLabel(QStringLiteral("exec"))->isHidden());
    // An unavailable probe is not asked for, even if it was selected before.
    const QList<ProbeConfig> configs = panel.configs();
    QCOMPARE(configs.size(), 1);
    QCOMPARE(configs.first().id, QStringLiteral("exec"));
    // Left out, but said: Record names it with the kernel's reason.
    QCOMPARE(panel.skippedText(),
             QStringLiteral("Run queue latency (tp_btf/sched_wakeup is missing)"));
    // With nothing else selected, Record refuses with that instead of "select a probe".
    panel.setProbeSelected(QStringLiteral("exec"), false);
    QString error;
    QVERIFY(panel.configs(&error).isEmpty());
    QCOMPARE(error, QStringLiteral("None of the selected probes can run on this kernel: Run queue "
                                   "latency (tp_btf/sched_wakeup is missing)."));
    panel.setProbeSelected(QStringLiteral("exec"), true);

    auto *start = qobject_cast<QLineEdit *>(
        panel.optionEditor(QStringLiteral("tppair"), QStringLiteral("start")));
    QVERIFY(start && start->completer());
    panel.setTracepointNames({QStringLiteral("block:block_rq_issue"),
                              QStringLiteral("block:block_rq_complete"),
                              QStringLiteral("sched:sched_switch")});
    QCompleter *completer = start->completer();
    completer->setCompletionPrefix(QStringLiteral("rq_"));
    QCOMPARE(completer->completionCount(), 2);
    // Other string options do not complete tracepoints.
    QVERIFY(!qobject_cast<QLineEdit *>(
                 panel.optionEditor(QStringLiteral("exec"), QStringLiteral("comm")))
                 ->completer());
}

void TestRecording::ioStackViewStacksExclusiveTime()
{
    SessionModel session;
    ViewState state;
    IoStackView view(&session, &state);
    QVERIFY(!view.hasData());
    session.setSession(ioStackSession());
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    view.resize(900, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.hasData());

    const QString read = QStringLiteral("read");
    QCOMPARE(view.cell(read, QStringLiteral("syscall")).exclusiveNs, 3'000'000ull);
    QCOMPARE(view.cell(read, QStringLiteral("syscall")).count, 300ull);
    QCOMPARE(view.cell(read, QStringLiteral("block-device")).exclusiveNs, 18'000'000ull);
    QCOMPARE(view.unmeasuredLayers(), (QStringList{QStringLiteral("vfs"), QStringLiteral("fs")}));

    // The bars: one stacked bar per operation, in ms (the largest stack is fsync's 100 ms).
    QHorizontalStackedBarSeries *summary = view.summarySeries();
    QVERIFY(summary);
    QCOMPARE(summary->barSets().size(), IoStackView::layers().size());
    QCOMPARE(barValue(summary, QStringLiteral("block-queue"), 0), 9.0);   // read
    QCOMPARE(barValue(summary, QStringLiteral("block-device"), 3), 60.0); // fsync
    QCOMPARE(barValue(summary, QStringLiteral("block-device"), 4), 6.0);  // unattributed total
    QCOMPARE(barValue(summary, QStringLiteral("vfs"), 0), 0.0);
    for (QBarSet *set : summary->barSets()) {
        if (set->property("layer").toString() == QLatin1String("vfs"))
            QVERIFY2(set->label().contains(QLatin1String("not measured")),
                     qPrintable(set->label()));
    }
    // Hover text: absolute time and share of the operation's total (3 of 30 ms).
    const QString text = view.segmentText(read, QStringLiteral("syscall"));
    QVERIFY2(text.contains(QLatin1String("3 ms")) || text.contains(QLatin1String("3.00 ms")),
             qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("10.0 %")), qPrintable(text));
    QVERIFY(view.segmentText(read, QStringLiteral("vfs")).contains(QLatin1String("not measured")));

    // Over time: read has one bar per interval, device stacked on queue and syscall.
    QStackedBarSeries *time = view.timeSeries();
    QVERIFY(time);
    QCOMPARE(time->barSets().first()->count(), 3);
    QCOMPARE(barValue(time, QStringLiteral("block-device"), 2), 6.0);
    view.operationBox()->setCurrentIndex(view.operationBox()->findData(QStringLiteral("fsync")));
    QCOMPARE(view.timeSeries()->barSets().first()->count(), 1);

    // The visible range applies: only the second interval (ends at 12 s).
    state.setRange(StartNs + SecondNs + SecondNs / 2, StartNs + 2 * SecondNs + SecondNs / 2);
    QCOMPARE(view.cell(read, QStringLiteral("syscall")).exclusiveNs, 1'000'000ull);
    QCOMPARE(view.cell(QStringLiteral("fsync"), QStringLiteral("syscall")).exclusiveNs,
             40'000'000ull);
    state.setRange(session.firstTimeNs(), StartNs + SecondNs); // before any interval ended
    QCOMPARE(view.cell(read, QStringLiteral("syscall")).exclusiveNs, 0ull);

    // A session without iostack counters says what to record.
    session.setSession(SessionData{});
    QVERIFY(!view.hasData());
    QVERIFY(!view.summarySeries());
}

QTEST_MAIN(TestRecording)
#include "tst_recording.moc"
