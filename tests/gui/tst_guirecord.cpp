// The desktop application records, end to end: the real MainWindow, run as the unprivileged user
// daemon, records through bpflens-helper on a private system bus with the real polkitd while a
// known workload runs; a user polkit refuses sees the banner and still opens saved sessions;
// root without a helper records through a bpflens-cli child; no bus / no helper give banners.
//
// One binary, two roles: the test (root) starts the bus and runs this same binary as daemon
// with BPFLENS_GUIREC_ROLE set, whose QtTest checks the window from the inside.
#include "client/helperclient.h"
#include "core/sessionstore.h"
#include "dbusapi/helperapi.h"
#include "gui/detailspane.h"
#include "gui/helperrecorder.h"
#include "gui/histogramview.h"
#include "gui/mainwindow.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "gui/resultspage.h"
#include "gui/timelinewidget.h"
#include "tests/gui/guitestdata.h"
#include "tests/gui/modaltest.h"
#include "tests/helper/testbus.h"
#include "tests/testutil.h"

#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChartView>
#include <QCheckBox>
#include <QCompleter>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFrame>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeWidget>

#include <csignal>
#include <fcntl.h>
#include <functional>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

// The workload: a uniquely named program exec'd K times, a unique file opened M times, N
// O_DIRECT 4 KiB writes that must reach the disk.
constexpr int Execs = 3;
constexpr int Opens = 5;
constexpr int DirectWrites = 16;

const char *const RoleVar = "BPFLENS_GUIREC_ROLE";

QString env(const char *name)
{
    return qEnvironmentVariable(name);
}

void uncheckAll(ProbePanel *panel)
{
    for (const ProbeInfo &p : ProbeCatalog::probes())
        panel->setProbeSelected(p.id, false);
}

quint64 barSum(QChartView *view)
{
    quint64 sum = 0;
    for (QAbstractSeries *s : view->chart()->series()) {
        if (auto *bars = qobject_cast<QBarSeries *>(s)) {
            for (QBarSet *set : bars->barSets())
                for (int i = 0; i < set->count(); ++i)
                    sum += quint64(set->at(i));
        }
    }
    return sum;
}

void closeErrorBoxes(QWidget *window)
{
    for (QMessageBox *box : window->findChildren<QMessageBox *>(QStringLiteral("errorBox")))
        box->close();
}

} // namespace

// ---- the unprivileged side: this binary as daemon, on the test's private bus ----

class GuiRecordClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QSettings().clear(); }

    void recordsThroughTheHelper()
    {
        QCOMPARE(geteuid(), uid_t(1)); // daemon: the window gets no privilege of its own
        const QString program = env("BPFLENS_GUIREC_PROGRAM");
        const QString opened = env("BPFLENS_GUIREC_OPENED");
        const QString direct = env("BPFLENS_GUIREC_DIRECT");
        const QString saved = env("BPFLENS_GUIREC_SAVE");
        QVERIFY(!program.isEmpty() && !opened.isEmpty() && !direct.isEmpty());

        // What the helper says, asked directly, to compare with what the panel shows.
        HelperClient client(QDBusConnection::systemBus());
        QString kernel;
        QList<HelperClient::ProbeEntry> listed;
        HelperClient::Error error;
        QVERIFY2(client.listProbes(&kernel, &listed, &error), qPrintable(error.message));

        HelperRecorder recorder(QDBusConnection::systemBus());
        recorder.setLocalAllowed(false);
        MainWindow w;
        w.setRecorder(&recorder);
        recorder.refresh();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ProbePanel *panel = w.probePanel();
        QTRY_COMPARE_WITH_TIMEOUT(panel->kernelLabel()->text(), QStringLiteral("Kernel ") + kernel,
                                  20000);
        QCOMPARE(recorder.backend(), HelperRecorder::Backend::Helper);
        QVERIFY(!w.banner()->isVisible());
        for (const HelperClient::ProbeEntry &e : std::as_const(listed)) {
            QLabel *status = panel->statusLabel(e.info.id);
            if (!status)
                continue; // a probe this build's catalog does not have
            // Available with a reason: what this kernel degrades (iostack's layers).
            const QString expected = !e.availability.available ? QStringLiteral("not available")
                                     : e.availability.reason.isEmpty()
                                         ? QStringLiteral("available")
                                         : QStringLiteral("partly available");
            QCOMPARE(status->text(), expected);
            if (e.availability.available && !e.availability.attachPath.isEmpty())
                QVERIFY2(status->toolTip().contains(e.availability.attachPath),
                         qPrintable(status->toolTip()));
            QCOMPARE(panel->checkBox(e.info.id)->isEnabled(), e.availability.available);
        }
        // tppair's tracepoint fields complete from the kernel's list (ListTracepoints).
        auto *start = qobject_cast<QLineEdit *>(
            panel->optionEditor(QStringLiteral("tppair"), QStringLiteral("start")));
        QVERIFY(start && start->completer());
        // The helper walks every BTF type for it: tens of seconds under an emulated CPU
        // (tests/vm), and the call's own timeout is 120 s.
        QTRY_VERIFY2_WITH_TIMEOUT(
            start->completer()->model()->rowCount() > 100,
            qPrintable(QString::number(start->completer()->model()->rowCount())), 125000);
        start->completer()->setCompletionPrefix(QStringLiteral("block:block_rq_iss"));
        QCOMPARE(start->completer()->currentCompletion(), QStringLiteral("block:block_rq_issue"));

        // Check exec, open and block through their checkboxes.
        uncheckAll(panel);
        for (const char *id : {"exec", "open", "block"}) {
            QCheckBox *box = panel->checkBox(QLatin1String(id));
            QVERIFY(box->isEnabled());
            box->setChecked(true);
        }
        QCOMPARE(panel->selectedProbes().size(), 3);

        QVERIFY(w.recordAction()->isEnabled());
        w.recordAction()->trigger();
        // The call is asynchronous: the window says what it waits for, and Stop would cancel.
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Waiting for authorisation…"));
        QVERIFY(w.stopAction()->isEnabled());
        QVERIFY(!w.recordAction()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(w.isRecording(), 30000);

        for (int i = 0; i < Execs; ++i)
            QCOMPARE(QProcess::execute(program, {}), 0);
        for (int i = 0; i < Opens; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        const int fd = ::open(direct.toLocal8Bit().constData(),
                              O_CREAT | O_WRONLY | O_DIRECT | O_CLOEXEC, 0600);
        QVERIFY2(fd >= 0, qPrintable(direct));
        void *buf = nullptr;
        QCOMPARE(posix_memalign(&buf, 4096, 4096), 0);
        memset(buf, 'g', 4096);
        for (int i = 0; i < DirectWrites; ++i)
            QCOMPARE(::pwrite(fd, buf, 4096, off_t(i) * 4096 * 2), ssize_t(4096));
        ::fsync(fd);
        ::close(fd);
        free(buf);
        ::unlink(direct.toLocal8Bit().constData());
        // Live: the batches arrive while recording (the helper sends one every 500 ms), and
        // the status bar counts them, lost events included.
        QTRY_VERIFY_WITH_TIMEOUT(w.session()->events().count(EventType::Exec) >= Execs, 10000);
        w.updateRecordingStatus();
        QVERIFY2(w.elapsedLabel()->text().contains(QStringLiteral("Recording")),
                 qPrintable(w.elapsedLabel()->text()));
        QVERIFY2(w.lostLabel()->text().endsWith(QStringLiteral(" lost")),
                 qPrintable(w.lostLabel()->text()));
        // A recording that runs is not one that was "not stopped cleanly"; no "schema 0".
        auto facts = [&w] {
            QStringList texts;
            QTreeWidget *t = w.results()->summaryPanel()->facts();
            for (int i = 0; i < t->topLevelItemCount(); ++i)
                texts << t->topLevelItem(i)->text(0) + QLatin1Char('=') +
                             t->topLevelItem(i)->text(1);
            return texts.join(QLatin1Char('\n'));
        };
        w.results()->summaryPanel()->refresh();
        QVERIFY2(facts().contains(QStringLiteral(" so far (recording)")), qPrintable(facts()));
        QVERIFY2(!facts().contains(QStringLiteral("schema 0")), qPrintable(facts()));

        w.stopAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!w.isRecording(), 15000);
        QVERIFY2(!facts().contains(QStringLiteral("so far")), qPrintable(facts()));
        QVERIFY(w.hasUnsavedRecording());
        QVERIFY2(w.statusBar()->currentMessage() == QStringLiteral("Recording stopped"),
                 qPrintable(w.statusBar()->currentMessage()));

        // The histogram series hold the block requests.
        quint64 blockBars = 0;
        for (const HistogramEntry &e : w.results()->histogramView()->entries()) {
            if (e.probeId == QLatin1String("block"))
                blockBars += barSum(w.results()->histogramView()->chartView(e.probeId, e.key));
        }
        QVERIFY2(blockBars >= quint64(DirectWrites), qPrintable(QString::number(blockBars)));

        // The timeline's exec and open lanes (the window's filter models) hold the workload.
        const EventStore &events = w.session()->events();
        int execs = 0, opens = 0;
        for (qsizetype i = 0; i < events.count(EventType::Exec); ++i)
            execs += events.exec(i).filename == program.toUtf8() ? 1 : 0;
        for (qsizetype i = 0; i < events.count(EventType::Open); ++i)
            opens += events.open(i).path == opened.toUtf8() ? 1 : 0;
        QCOMPARE(execs, Execs);
        QCOMPARE(opens, Opens);
        QCOMPARE(w.results()->filterModel(EventType::Exec)->rowCount(),
                 int(events.count(EventType::Exec)));
        QCOMPARE(w.results()->filterModel(EventType::Open)->rowCount(),
                 int(events.count(EventType::Open)));
        QVERIFY(w.results()->timeline()->laneTypes().contains(EventType::Exec));

        // The table finds the workload's file by filter.
        w.results()->showView(w.results()->tableView(EventType::Open));
        QTest::keyClicks(w.results()->textFilterEdit(), QFileInfo(opened).fileName());
        QTRY_COMPARE_WITH_TIMEOUT(w.results()->filterModel(EventType::Open)->rowCount(), Opens,
                                  10000);

        // Nothing recorded is lost on the way to a file.
        QString why;
        QVERIFY2(w.saveTo(saved, &why), qPrintable(why));
        SessionData data;
        QVERIFY2(SessionReader::open(saved, &data, &why), qPrintable(why));
        QCOMPARE(data.events.count(EventType::Exec), events.count(EventType::Exec));
        QCOMPARE(data.events.count(EventType::Open), events.count(EventType::Open));
        QCOMPARE(data.events.count(EventType::Block), events.count(EventType::Block));
        w.close();
    }

    void deniedUserSeesWhyAndStillOpensSessions()
    {
        HelperRecorder recorder(QDBusConnection::systemBus());
        recorder.setLocalAllowed(false);
        MainWindow w;
        w.setRecorder(&recorder);
        recorder.refresh();
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Listing needs no authorisation.
        QTRY_VERIFY_WITH_TIMEOUT(
            w.probePanel()->kernelLabel()->text().startsWith(QStringLiteral("Kernel ")), 20000);
        QVERIFY(!w.banner()->isVisible());
        uncheckAll(w.probePanel());
        w.probePanel()->checkBox(QStringLiteral("exec"))->setChecked(true);
        QSignalSpy failed(&recorder, &Recorder::failed);
        w.recordAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("not allowed")),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(w.banner()->isVisible());
        const QString text = w.bannerLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("not allowed")), qPrintable(text));
        // Said once, not the helper's own wording quoted inside ours; no documentation path,
        // which an installed BPF Lens does not have.
        for (const QString &said : {text, failed.first().first().toString()}) {
            QVERIFY2(said.count(QStringLiteral("not allowed")) == 1 &&
                         !said.contains(QStringLiteral("not authorised")) &&
                         said.count(QStringLiteral("io.github.bpflens.trace")) == 1 &&
                         !said.contains(QStringLiteral("docs/")),
                     qPrintable(said));
        }
        QVERIFY2(text.contains(QStringLiteral("polkit")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("administrator")), qPrintable(text));
        QVERIFY(!w.isRecording());
        QVERIFY(w.session()->isEmpty());
        QVERIFY(!w.hasUnsavedRecording());
        // Not impossible: a rule may be added; the user may try again.
        QVERIFY(w.recordAction()->isEnabled());
        closeErrorBoxes(&w);

        QTemporaryDir dir;
        QString error;
        const QString path = writeGuiSession(QDir(dir.path()), &error);
        QVERIFY2(!path.isEmpty(), qPrintable(error));
        QVERIFY2(w.openFile(path, &error), qPrintable(error));
        QCOMPARE(w.session()->events().count(EventType::Open), Batches * OpenPerBatch);
    }
};

// ---- the test proper, as root ----

class TestGuiRecord : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;

    // Runs this binary as daemon in role, on bus; its QtTest output on failure.
    bool runClient(TestBus &bus, const QString &function, const QProcessEnvironment &extra,
                   QString *output)
    {
        const QString self = bus.publicCopy(QCoreApplication::applicationFilePath());
        QProcessEnvironment e = bus.environment();
        for (const QString &k : extra.keys())
            e.insert(k, extra.value(k));
        e.insert(QString::fromLatin1(RoleVar), QStringLiteral("client"));
        e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        // daemon's home is not writable: settings and runtime files go to the test's directory.
        const QString home = bus.dir() + QStringLiteral("/home");
        QDir().mkpath(home + QStringLiteral("/runtime"));
        QFile::setPermissions(home, QFileDevice::Permissions(0x7777));
        QFile::setPermissions(home + QStringLiteral("/runtime"), QFileDevice::Permissions(0x7700));
        ::chown((home + QStringLiteral("/runtime")).toLocal8Bit().constData(), 1, 1);
        e.insert(QStringLiteral("HOME"), home);
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        e.insert(QStringLiteral("XDG_RUNTIME_DIR"), home + QStringLiteral("/runtime"));
        QProcess p;
        p.setProcessEnvironment(e);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("setpriv"),
                {QStringLiteral("--reuid=daemon"), QStringLiteral("--regid=daemon"),
                 QStringLiteral("--clear-groups"), self, function});
        const bool finished = p.waitForFinished(240000);
        if (!finished)
            p.kill();
        p.waitForFinished();
        *output = QString::fromUtf8(p.readAll());
        // The function really ran (a misspelt name would only print an error).
        return finished && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 &&
               output->contains(QStringLiteral("PASS   : GuiRecordClient::%1()").arg(function));
    }

    QString sharedDir(const TestBus &bus)
    {
        const QString d = bus.dir() + QStringLiteral("/shared");
        QDir().mkpath(d);
        QFile::setPermissions(d, QFileDevice::Permissions(0x7777));
        return d;
    }

private Q_SLOTS:
    void initTestCase()
    {
        helperapi::registerTypes();
        QSettings().clear();
    }

    void recordsThroughTheHelperAsAnUnprivilegedUser()
    {
        BPFLENS_REQUIRE_ROOT("runs dbus-daemon, polkitd and the helper, which loads BPF programs");
        // The tppair completer offers tracefs's groups ("block:block_rq_issue").
        const TracefsMount tracefs;
        QVERIFY2(tracefs.error().isEmpty(), qPrintable(tracefs.error()));
        TestBus bus;
        TestBus::Options options;
        options.helperIdleTimeout = QStringLiteral("3");
        QString error;
        QVERIFY2(bus.start(options, &error), qPrintable(error));
        const QString dir = sharedDir(bus);
        const QString tag = QStringLiteral("guirec%1").arg(getpid() % 100000);
        const QString program = dir + QLatin1Char('/') + tag;
        QVERIFY(QFile::rename(bus.publicCopy(QStringLiteral("/bin/true")), program));
        const QString opened = dir + QStringLiteral("/opened-") + tag + QStringLiteral(".txt");
        {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        QFile::setPermissions(opened, QFileDevice::Permissions(0x6444));
        // The VM matrix's disk directory belongs to root: the user writes in its own directory.
        QTemporaryDir diskDir(diskTestDirectory(dir) + QStringLiteral("/guirec-XXXXXX"));
        QVERIFY(diskDir.isValid());
        QFile::setPermissions(diskDir.path(), QFileDevice::Permissions(0x7777));
        QProcessEnvironment extra;
        extra.insert(QStringLiteral("BPFLENS_GUIREC_PROGRAM"), program);
        extra.insert(QStringLiteral("BPFLENS_GUIREC_OPENED"), opened);
        extra.insert(QStringLiteral("BPFLENS_GUIREC_DIRECT"),
                     diskDir.path() + QStringLiteral("/direct-") + tag);
        extra.insert(QStringLiteral("BPFLENS_GUIREC_SAVE"),
                     dir + QStringLiteral("/recorded.bpflens"));
        QString output;
        const bool ok = runClient(bus, QStringLiteral("recordsThroughTheHelper"), extra, &output);
        QVERIFY2(ok, qPrintable(output + QStringLiteral("\n--- bus:\n") + bus.log()));
        // The window closed: its sessions ended and the helper holds no BPF object any more.
        const qint64 helper = bus.helperPid();
        if (helper > 0)
            QTRY_COMPARE_WITH_TIMEOUT(bpfObjectsOf(helper).total(), 0, 5000);
        QVERIFY(bus.waitForHelperGone(20000));
        // The file the window saved belongs to the user who recorded.
        QCOMPARE(QFileInfo(dir + QStringLiteral("/recorded.bpflens")).ownerId(), 1u);
    }

    void deniedUserSeesTheBannerAndStillOpensSessions()
    {
        BPFLENS_REQUIRE_ROOT("runs dbus-daemon, polkitd and the helper");
        TestBus bus;
        TestBus::Options options;
        options.grantDaemon = false;
        QString error;
        QVERIFY2(bus.start(options, &error), qPrintable(error));
        QString output;
        const bool ok =
            runClient(bus, QStringLiteral("deniedUserSeesWhyAndStillOpensSessions"), {}, &output);
        QVERIFY2(ok, qPrintable(output + QStringLiteral("\n--- bus:\n") + bus.log()));
        const qint64 helper = bus.helperPid();
        if (helper > 0)
            QCOMPARE(bpfObjectsOf(helper).total(), 0);
    }

    void cancelledStartAndCrashedHelper()
    {
        BPFLENS_REQUIRE_ROOT("runs dbus-daemon, polkitd and the helper, which loads BPF programs");
        TestBus bus;
        QString error;
        QVERIFY2(bus.start(&error), qPrintable(error));
        {
            QDBusConnection root = bus.connect(QStringLiteral("guiroot"));
            HelperRecorder recorder(root);
            recorder.setLocalAllowed(false);
            MainWindow w;
            w.setRecorder(&recorder);
            recorder.refresh();
            QTRY_COMPARE_WITH_TIMEOUT(recorder.backend(), HelperRecorder::Backend::Helper, 20000);
            uncheckAll(w.probePanel());
            w.probePanel()->checkBox(QStringLiteral("exec"))->setChecked(true);

            // Stop while the helper has not answered yet: nothing starts, nothing stays attached
            // (a session the helper grants anyway is stopped at once).
            QSignalSpy started(&recorder, &Recorder::started);
            w.recordAction()->trigger();
            QVERIFY(recorder.isStarting());
            w.stopAction()->trigger();
            QVERIFY(!recorder.isStarting());
            QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Recording cancelled"));
            QVERIFY(w.recordAction()->isEnabled());
            QTest::qWait(1500);
            QCOMPARE(started.size(), 0);
            QVERIFY(!w.isRecording());
            QTRY_COMPARE_WITH_TIMEOUT(bpfObjectsOf(bus.helperPid()).total(), 0, 5000);

            // The helper dies mid-recording: the window says so and keeps what arrived.
            QSignalSpy batches(&recorder, &Recorder::batch);
            QSignalSpy failed(&recorder, &Recorder::failed);
            w.recordAction()->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(w.isRecording(), 30000);
            for (int i = 0; i < Execs; ++i)
                QCOMPARE(QProcess::execute(QStringLiteral("/bin/true"), {}), 0);
            QTRY_VERIFY_WITH_TIMEOUT(w.session()->events().count(EventType::Exec) >= Execs, 10000);
            const qsizetype kept = w.session()->events().count(EventType::Exec);
            ::kill(pid_t(bus.helperPid()), SIGKILL);
            QTRY_VERIFY_WITH_TIMEOUT(!w.isRecording(), 10000);
            QCOMPARE(failed.size(), 1);
            QVERIFY2(failed.first().first().toString().contains(QStringLiteral("did it crash")),
                     qPrintable(failed.first().first().toString()));
            QVERIFY(w.hasUnsavedRecording());
            QCOMPARE(w.session()->events().count(EventType::Exec), kept);
            closeErrorBoxes(&w);
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("guiroot"));
    }

    void rootWithoutAHelperRecordsThroughTheCli()
    {
        BPFLENS_REQUIRE_ROOT("the fallback runs the probes in a bpflens-cli child");
        QDBusConnection none = QDBusConnection::connectToBus(
            QStringLiteral("unix:path=/nonexistent/bpflens-bus"), QStringLiteral("nobus"));
        QVERIFY(!none.isConnected());
        HelperRecorder recorder(none);
        recorder.setLocalProgram(QStringLiteral(BPFLENS_CLI));
        recorder.setLocalAllowed(true);
        recorder.refresh();
        QCOMPARE(recorder.backend(), HelperRecorder::Backend::Local);
        MainWindow w;
        w.setRecorder(&recorder);
        QVERIFY(!w.banner()->isVisibleTo(&w));

        QTemporaryDir dir;
        const QString tag = QStringLiteral("g,rl%1").arg(getpid() % 100000);
        const QString program = dir.filePath(tag);
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        uncheckAll(w.probePanel());
        w.probePanel()->checkBox(QStringLiteral("exec"))->setChecked(true);
        // A comma in an option value survives the trip to the child (JSON, not a --probe spec).
        auto *comm = qobject_cast<QLineEdit *>(
            w.probePanel()->optionEditor(QStringLiteral("exec"), QStringLiteral("comm")));
        QVERIFY(comm);
        comm->setText(tag);
        QSignalSpy ended(&recorder, &Recorder::ended);
        w.recordAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(w.isRecording(), 30000);
        for (int i = 0; i < Execs; ++i)
            QCOMPARE(QProcess::execute(program, {}), 0);
        QTest::qWait(1000);
        w.stopAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!w.isRecording(), 15000);
        // An End frame, not a broken stream: SIGTERM let the child detach and finish.
        QCOMPARE(ended.size(), 1);
        QCOMPARE(w.session()->events().count(EventType::Exec), qsizetype(Execs));
        QCOMPARE(w.session()->events().exec(0).filename, program.toUtf8());
        QVERIFY(w.session()->info().probes.value(0).attachPath.contains(
            QStringLiteral("sched_process_exec")));

        // A value the child refuses comes back with the child's own words.
        QSignalSpy failed(&recorder, &Recorder::failed);
        recorder.start({{QStringLiteral("exec"),
                         {{QStringLiteral("comm"), QStringLiteral("a,b,c-and-far-too-long")}},
                         {}}});
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 20000);
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("longer than 15")),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(!recorder.isRecording());
        QDBusConnection::disconnectFromBus(QStringLiteral("nobus"));
    }

    // Closing the window while a real recorder records: Stop and Save stops the bpflens-cli
    // child, waits for its End frame (the events still in its buffers arrive meanwhile) and
    // saves through the Save dialog.
    void closingWhileRecordingStopsAndSaves()
    {
        BPFLENS_REQUIRE_ROOT("the fallback runs the probes in a bpflens-cli child");
        QDBusConnection none = QDBusConnection::connectToBus(
            QStringLiteral("unix:path=/nonexistent/bpflens-bus"), QStringLiteral("nobus2"));
        HelperRecorder recorder(none);
        recorder.setLocalProgram(QStringLiteral(BPFLENS_CLI));
        recorder.setLocalAllowed(true);
        recorder.refresh();
        QCOMPARE(recorder.backend(), HelperRecorder::Backend::Local);
        QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, true);
        MainWindow w;
        w.setRecorder(&recorder);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        QTemporaryDir dir;
        const QString tag = QStringLiteral("gcs%1").arg(getpid() % 100000);
        const QString program = dir.filePath(tag);
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        uncheckAll(w.probePanel());
        w.probePanel()->checkBox(QStringLiteral("exec"))->setChecked(true);
        auto *comm = qobject_cast<QLineEdit *>(
            w.probePanel()->optionEditor(QStringLiteral("exec"), QStringLiteral("comm")));
        QVERIFY(comm);
        comm->setText(tag);
        QSignalSpy ended(&recorder, &Recorder::ended);
        w.recordAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(w.isRecording(), 30000);
        for (int i = 0; i < Execs; ++i)
            QCOMPARE(QProcess::execute(program, {}), 0);

        const QString path = dir.filePath(QStringLiteral("closed.bpflens"));
        bool stopAndSaveShown = false, saveDialogShown = false;
        whenModal<QMessageBox>([&](QMessageBox *box) {
            auto *stopAndSave = box->findChild<QPushButton *>(QStringLiteral("stopAndSaveButton"));
            if (box->objectName() != QLatin1String("unsavedRecordingBox") || !stopAndSave ||
                box->defaultButton() != stopAndSave) {
                box->reject(); // (the checks below then fail)
                return;
            }
            stopAndSaveShown = true;
            whenModal<QFileDialog>([&](QFileDialog *dialog) {
                saveDialogShown = true;
                answerFileDialog(dialog, path);
            });
            stopAndSave->click();
        });
        const bool closed = w.close();
        QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, false);
        QVERIFY(stopAndSaveShown);
        QVERIFY(saveDialogShown);
        QVERIFY(closed);
        QVERIFY(!w.isVisible());
        QVERIFY(!w.isRecording());
        // An End frame, not a broken stream or a recording cut short.
        QCOMPARE(ended.size(), 1);
        QVERIFY(!w.hasUnsavedRecording());
        SessionData saved;
        QString error;
        QVERIFY2(SessionReader::open(path, &saved, &error), qPrintable(error));
        QCOMPARE(saved.events.count(EventType::Exec), qsizetype(Execs));
        QCOMPARE(saved.events.exec(0).filename, program.toUtf8());
        QVERIFY(saved.info.endMonotonicNs > saved.info.startMonotonicNs);
        QDBusConnection::disconnectFromBus(QStringLiteral("nobus2"));
    }

    void noSystemBusOrNoHelperSaysWhatToDo()
    {
        // No bus at all, and not root (the fallback is off): recording is impossible.
        {
            QDBusConnection none = QDBusConnection::connectToBus(
                QStringLiteral("unix:path=/nonexistent/bpflens-bus"), QStringLiteral("nobus2"));
            HelperRecorder recorder(none);
            recorder.setLocalAllowed(false);
            MainWindow w;
            w.setRecorder(&recorder);
            recorder.refresh();
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QCOMPARE(recorder.backend(), HelperRecorder::Backend::None);
            QVERIFY(w.banner()->isVisible());
            const QString text = w.bannerLabel()->text();
            QVERIFY2(text.contains(QStringLiteral("no system D-Bus")), qPrintable(text));
            QVERIFY(!w.recordAction()->isEnabled());
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("nobus2"));

        // A bus without the helper: "not installed" and how to install it.
        QProcess daemon;
        daemon.start(QStringLiteral("dbus-daemon"),
                     {QStringLiteral("--session"), QStringLiteral("--nofork"),
                      QStringLiteral("--print-address=1")});
        QVERIFY(daemon.waitForStarted());
        QTRY_VERIFY(daemon.canReadLine());
        const QString address = QString::fromUtf8(daemon.readLine()).trimmed();
        {
            QDBusConnection bus =
                QDBusConnection::connectToBus(address, QStringLiteral("nohelper"));
            QVERIFY(bus.isConnected());
            HelperRecorder recorder(bus);
            recorder.setLocalAllowed(false);
            MainWindow w;
            w.setRecorder(&recorder);
            QSignalSpy changed(&recorder, &Recorder::availabilityChanged);
            recorder.refresh();
            QTRY_COMPARE(recorder.backend(), HelperRecorder::Backend::None);
            QVERIFY(!changed.isEmpty());
            const QString text = w.bannerLabel()->text();
            QVERIFY2(text.contains(QStringLiteral("bpflens-helper is not installed")),
                     qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("cmake --install")), qPrintable(text));
            QVERIFY(!w.recordAction()->isEnabled());
            // Saved sessions still open.
            QTemporaryDir dir;
            QString error;
            const QString path = writeGuiSession(QDir(dir.path()), &error);
            QVERIFY2(w.openFile(path, &error), qPrintable(error));
            QVERIFY(!w.session()->isEmpty());
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("nohelper"));
        daemon.terminate();
        daemon.waitForFinished();
    }

    void helperErrorsReadClearly()
    {
        namespace api = helperapi;
        QVERIFY(HelperRecorder::errorText(api::ErrorBusy, QStringLiteral("user 1 already has 4"))
                    .contains(QStringLiteral("busy")));
        QVERIFY(HelperRecorder::errorText(api::ErrorFailed, QStringLiteral("attach failed"))
                    .contains(QStringLiteral("kernel refused")));
        QVERIFY(HelperRecorder::errorText(
                    QStringLiteral("org.freedesktop.DBus.Error.ServiceUnknown"), QString())
                    .contains(QStringLiteral("not installed")));
        // Polkit's refusal as the helper words it, with and without a detail: its action and
        // detail once, in the window's words, without a documentation path.
        const QString denied = HelperRecorder::errorText(
            api::ErrorNotAuthorized, QStringLiteral("not authorised: polkit denied "
                                                    "io.github.bpflens.trace (authentication was "
                                                    "not completed)"));
        QCOMPARE(denied, QStringLiteral("You are not allowed to record: polkit refused the action "
                                        "io.github.bpflens.trace (authentication was not "
                                        "completed). Ask an administrator to allow it, for "
                                        "example with a rule for your group in "
                                        "/etc/polkit-1/rules.d."));
        const QString plain = HelperRecorder::errorText(
            api::ErrorNotAuthorized,
            QStringLiteral("not authorised: polkit denied io.github.bpflens.trace"));
        QVERIFY2(plain.startsWith(QStringLiteral("You are not allowed to record: polkit refused "
                                                 "the action io.github.bpflens.trace. Ask")),
                 qPrintable(plain));
        const QString banner = HelperRecorder::notAuthorizedText(
            QStringLiteral("not authorised: polkit denied io.github.bpflens.trace"), true);
        QVERIFY2(banner.count(QStringLiteral("not allowed")) == 1 &&
                     !banner.contains(QStringLiteral("docs/")),
                 qPrintable(banner));
        const QList<ProbeConfig> probes{{QStringLiteral("exec"), {}, {}},
                                        {QStringLiteral("block"), {}, {}}};
        QCOMPARE(HelperRecorder::rejectedProbe(
                     QStringLiteral("probe block, option disk: no disk named \"x\""), probes),
                 QStringLiteral("block"));
        QCOMPARE(HelperRecorder::rejectedProbe(QStringLiteral("no probe selected"), probes),
                 QString());
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BPF Lens tests"));
    QApplication::setApplicationName(QStringLiteral("tst_guirecord"));
    helperapi::registerTypes();
    if (qEnvironmentVariable(RoleVar) == QLatin1String("client")) {
        GuiRecordClient client;
        return QTest::qExec(&client, argc, argv);
    }
    TestGuiRecord test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_guirecord.moc"
