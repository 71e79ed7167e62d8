// Record on Host against a real sshd on 127.0.0.1 (tests/remote/sshdfixture.h): the window
// records through RemoteRecorder, which runs this build's bpflens-cli on the "remote" side over
// ssh. Also the askpass mode ssh asks through.

#include "core/sessioninfo.h"
#include "core/sessionstore.h"
#include "gui/askpass.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "gui/recordingcontroller.h"
#include "gui/remotehosts.h"
#include "gui/remoterecorder.h"
#include "gui/translations.h"
#include "tests/remote/sshdfixture.h"
#include "tests/testutil.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QProcess>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSysInfo>
#include <QTest>
#include <QTextStream>
#include <QTimer>

#include <csignal>
#include <sys/utsname.h>
#include <unistd.h>

using namespace bpflens;
using bpflens::test::processesTagged;
using bpflens::test::readAll;
using bpflens::test::writeFile;

namespace {

void uncheckAll(ProbePanel *panel)
{
    for (const ProbeInfo &p : ProbeCatalog::probes())
        panel->setProbeSelected(p.id, false);
}

void setOption(ProbePanel *panel, const QString &probe, const QString &option, const QString &value)
{
    QWidget *editor = panel->optionEditor(probe, option);
    if (auto *spin = qobject_cast<QDoubleSpinBox *>(editor)) {
        spin->setValue(value.toDouble());
        return;
    }
    auto *edit = qobject_cast<QLineEdit *>(editor);
    QVERIFY(edit);
    edit->setText(value);
}

qsizetype opensOf(const EventStore &events, const QString &path)
{
    qsizetype n = 0;
    for (qsizetype i = 0; i < events.count(EventType::Open); ++i)
        n += events.open(i).path == path.toUtf8();
    return n;
}

// The open error box's text, then closes it (it is opened, not exec()'d).
QString takeErrorBox(QWidget *window)
{
    auto *box = window->findChild<QMessageBox *>(QStringLiteral("errorBox"));
    if (!box)
        return {};
    const QString text = box->text() + QLatin1Char('\n') + box->informativeText();
    box->close();
    box->deleteLater();
    return text;
}

} // namespace

class TestRemoteRecord : public QObject
{
    Q_OBJECT

    bpflens::test::SshdFixture m_sshd;

    QString host() const { return QStringLiteral("root@127.0.0.1:%1").arg(m_sshd.port()); }

    void aim(RemoteRecorder *r, const QString &knownHosts,
             const QString &key = QStringLiteral("present"))
    {
        SshTarget target;
        QString error;
        QVERIFY2(SshTarget::parse(host(), &target, &error), qPrintable(error));
        r->setTarget(target);
        r->setSshOptions(m_sshd.sshOptions(key, knownHosts));
    }

    // check() and its answer.
    std::pair<bool, QString> check(RemoteRecorder *r)
    {
        QSignalSpy checked(r, &RemoteRecorder::checked);
        r->check();
        if (!checked.wait(30000) && checked.isEmpty())
            return {false, QStringLiteral("no answer within 30 s")};
        return {checked.first().at(0).toBool(), checked.first().at(1).toString()};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("bpflens-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_remoterecord"));
        QSettings().clear();
        BPFLENS_REQUIRE_ROOT("the remote side records BPF probes as root over ssh");
        if (!bpflens::test::SshdFixture::installed()) {
            if (bpflens::test::rootRequired())
                QFAIL("needs openssh-server and openssh-client (.ci/deps installs them)");
            QSKIP("needs openssh-server and openssh-client");
        }
        QString error;
        QVERIFY2(m_sshd.start(QFileInfo(QStringLiteral(BPFLENS_CLI)).path(), &error),
                 qPrintable(error));
        qputenv("BPFLENS_SSH", QFile::encodeName(m_sshd.ssh()));
    }

    void cleanupTestCase() { m_sshd.stop(); }

    // Connect says which bpflens-cli answered and lists the probes of the remote kernel.
    void checkReportsVersionAndRemoteProbes()
    {
        // The English texts, as the window shows them (plural forms from bpflens_en.ts).
        QVERIFY(installTranslations(QLocale(QLocale::English, QLocale::UnitedStates)));
        const auto restore = qScopeGuard([] { installTranslations(QLocale::c()); });
        RemoteRecorder r;
        aim(&r, QStringLiteral("known_hosts"));
        QVERIFY(!r.isAvailable());
        QSignalSpy listed(&r, &Recorder::probesListed);
        const auto [ok, message] = check(&r);
        QVERIFY2(ok, qPrintable(message));
        QVERIFY(r.isAvailable());
        QCOMPARE(r.remoteVersion(), QStringLiteral(BPFLENS_VERSION));
        utsname u{};
        ::uname(&u);
        QCOMPARE(r.kernelRelease(), QString::fromLatin1(u.release));
        QVERIFY2(message.contains(QStringLiteral("bpflens-cli %1 on %2, kernel %3")
                                      .arg(QStringLiteral(BPFLENS_VERSION), host(),
                                           QString::fromLatin1(u.release))),
                 qPrintable(message));
        QCOMPARE(listed.size(), 1);
        const auto availability = listed.first().at(1).value<QHash<QString, ProbeAvailability>>();
        QCOMPARE(availability.size(), ProbeCatalog::probes().size());
        QVERIFY(availability.value(QStringLiteral("exec")).available);
        QVERIFY(availability.value(QStringLiteral("open")).available);
        // The catalog's count of what can run, as the message says it.
        int available = 0;
        for (const ProbeAvailability &a : availability)
            available += a.available;
        QVERIFY2(message.contains(
                     QStringLiteral(": %1 of %2 probes").arg(available).arg(availability.size())),
                 qPrintable(message));
    }

    // The whole path a user takes: Record on Host, the dialog's Connect and Record, a live
    // recording in the window, Stop. Exactly the workload's exec and open events arrive, and
    // the host is a Recent Host from then on.
    void windowRecordsOnHost()
    {
        MainWindow w;
        RemoteHostController *remote = w.remoteHosts();
        QVERIFY(remote);
        RemoteRecorder *r = remote->remoteRecorder();
        r->setSshOptions(
            m_sshd.sshOptions(QStringLiteral("present"), QStringLiteral("known_hosts")));
        QTemporaryDir dir;
        const QString tag = QStringLiteral("grm%1").arg(getpid() % 100000);
        const QString program = dir.filePath(tag);
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        const QString opened = dir.filePath(tag + QStringLiteral("-opened.txt"));
        QVERIFY(writeFile(opened, "x"));
        uncheckAll(w.probePanel());
        w.probePanel()->setProbeSelected(QStringLiteral("exec"), true);
        w.probePanel()->setProbeSelected(QStringLiteral("open"), true);
        setOption(w.probePanel(), QStringLiteral("exec"), QStringLiteral("comm"), tag);
        setOption(w.probePanel(), QStringLiteral("open"), QStringLiteral("pid"),
                  QString::number(getpid()));

        QString dialogStatus;
        bool recordWasDisabled = false;
        QTimer::singleShot(0, this, [&] {
            auto *dialog = qobject_cast<RemoteHostDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            auto *record = dialog->findChild<QPushButton *>(QStringLiteral("remoteRecord"));
            recordWasDisabled = !record->isEnabled();
            dialog->findChild<QComboBox *>(QStringLiteral("remoteHost"))->setCurrentText(host());
            QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("remoteConnect")),
                              Qt::LeftButton);
            QElapsedTimer waited;
            waited.start();
            while (!record->isEnabled() && waited.elapsed() < 30000)
                QTest::qWait(20);
            dialogStatus = dialog->findChild<QLabel *>(QStringLiteral("remoteStatus"))->text();
            if (record->isEnabled())
                QTest::mouseClick(record, Qt::LeftButton);
            else
                dialog->reject();
        });
        QSignalSpy ended(r, &Recorder::ended);
        const int result = remote->chooseHost();
        QVERIFY2(result == QDialog::Accepted, qPrintable(dialogStatus));
        QVERIFY(recordWasDisabled);
        QVERIFY2(dialogStatus.contains(QStringLiteral("bpflens-cli %1 on %2")
                                           .arg(QStringLiteral(BPFLENS_VERSION), host())),
                 qPrintable(dialogStatus));
        QVERIFY(remote->isRemote());
        QTRY_VERIFY_WITH_TIMEOUT(w.isRecording(), 30000);
        // Where it records is in sight: the title, the status bar, the probe list's kernel. The
        // remote side names its machine (here this one: the fixture's "remote" host is this
        // machine), the target is the one typed.
        const QString onHost = QStringLiteral("%1 via %2").arg(QSysInfo::machineHostName(), host());
        QCOMPARE(w.windowTitle(), QStringLiteral("Recording on %1[*] — BPF Lens").arg(onHost));
        QVERIFY2(
            w.elapsedLabel()->text().startsWith(QStringLiteral("● Recording on %1 ").arg(onHost)),
            qPrintable(w.elapsedLabel()->text()));
        utsname uts{};
        QCOMPARE(uname(&uts), 0);
        QCOMPARE(
            w.probePanel()->kernelLabel()->text(),
            QStringLiteral("Remote kernel %1 on %2").arg(QString::fromLatin1(uts.release), host()));

        const int execs = 4;
        for (int i = 0; i < execs; ++i)
            QCOMPARE(QProcess::execute(program, {QStringLiteral("arg%1").arg(i)}), 0);
        const int opens = 9;
        for (int i = 0; i < opens; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        // Live: the events are in the window while the recording still runs.
        QTRY_COMPARE_WITH_TIMEOUT(w.session()->events().count(EventType::Exec), qsizetype(execs),
                                  10000);
        QTRY_COMPARE_WITH_TIMEOUT(opensOf(w.session()->events(), opened), qsizetype(opens), 10000);
        QVERIFY(w.isRecording());
        // Stop closes ssh's stdin: the remote side ends its stream with an End frame.
        w.stopAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!w.isRecording(), 15000);
        QCOMPARE(ended.size(), 1);
        QCOMPARE(w.session()->events().count(EventType::Exec), qsizetype(execs));
        QCOMPARE(opensOf(w.session()->events(), opened), qsizetype(opens));
        QCOMPARE(w.session()->events().exec(0).filename, program.toUtf8());
        QTRY_VERIFY_WITH_TIMEOUT(processesTagged(m_sshd.tag(), "--stream-fd").isEmpty(), 5000);
        // After the end it still says where the events came from, and so does the saved file.
        QCOMPARE(w.windowTitle(),
                 QStringLiteral("Unsaved recording on %1[*] — BPF Lens").arg(onHost));
        QVERIFY2(w.elapsedLabel()->text().startsWith(
                     QStringLiteral("Recorded on %1 · duration ").arg(onHost)),
                 qPrintable(w.elapsedLabel()->text()));
        // Saved, the file names the machine it was recorded on (the remote side's host name,
        // here this machine's: the fixture's "remote" host is this one).
        const QString saved = dir.filePath(QStringLiteral("onhost.bpflens"));
        QString error;
        QVERIFY2(w.saveTo(saved, &error), qPrintable(error));
        SessionData read;
        QVERIFY2(SessionReader::open(saved, &read, &error), qPrintable(error));
        QCOMPARE(read.info.host, QSysInfo::machineHostName());
        QCOMPARE(read.info.sshTarget, host());
        QCOMPARE(read.events.count(EventType::Exec), qsizetype(execs));
        // Opened again, the file still says how it was recorded, though its host is this one.
        {
            MainWindow again;
            QVERIFY2(again.openFile(saved, &error), qPrintable(error));
            QTRY_COMPARE_WITH_TIMEOUT(
                again.windowTitle(),
                QStringLiteral("onhost.bpflens (recorded on %1)[*] — BPF Lens").arg(onHost), 10000);
            QVERIFY2(again.elapsedLabel()->text().startsWith(
                         QStringLiteral("Recorded on %1 · duration ").arg(onHost)),
                     qPrintable(again.elapsedLabel()->text()));
        }

        // Remembered: first in Recent Hosts, in the submenu and in the next dialog.
        QCOMPARE(recenthosts::load().value(0), host());
        QCOMPARE(QSettings().value(QStringLiteral("remote/recentHosts")).toStringList(),
                 QStringList{host()});
        const QList<QAction *> recent = remote->recentMenu()->actions();
        QCOMPARE(recent.size(), 1);
        QCOMPARE(recent.first()->text(), host());
        RemoteHostDialog next(r);
        QCOMPARE(next.host(), host());
        // Back to this computer, and the host stays a Recent Host.
        QVERIFY(remote->recordLocallyAction()->isEnabled());
        remote->recordLocallyAction()->trigger();
        QVERIFY(!remote->isRemote());
        QCOMPARE(recenthosts::load(), QStringList{host()});
    }

    // The host's probes reach the probe panel as soon as Connect succeeds, before anything
    // records. A checked probe that kernel cannot run stays checked, reads "not available" with
    // the kernel's reason (as on this computer), the dialog names it before Record, and the
    // recording leaves it out and says so; with nothing left, Record refuses with the reason.
    // Cancel puts this computer's kernel back. The "remote" host is this one seen through a
    // mount namespace without tracefs, so the probes that need a classic tracepoint cannot run
    // there.
    void remoteAvailabilityShownBeforeRecord()
    {
        bpflens::test::SshdFixture sshd;
        bpflens::test::SshdFixture::Options options;
        options.hiddenDirs = {QStringLiteral("/sys/kernel/tracing"),
                              QStringLiteral("/sys/kernel/debug")};
        QString error;
        QVERIFY2(sshd.start(QFileInfo(QStringLiteral(BPFLENS_CLI)).path(), options, &error),
                 qPrintable(error));
        const QString target = QStringLiteral("root@127.0.0.1:%1").arg(sshd.port());
        const QStringList sshOptions =
            sshd.sshOptions(QStringLiteral("present"), QStringLiteral("known_hosts"));
        // A probe that host cannot run, and why, as its bpflens-cli says.
        QString missing, reason;
        {
            RemoteRecorder r;
            SshTarget t;
            QVERIFY2(SshTarget::parse(target, &t, &error), qPrintable(error));
            r.setTarget(t);
            r.setSshOptions(sshOptions);
            QSignalSpy listed(&r, &Recorder::probesListed);
            const auto [ok, message] = check(&r);
            QVERIFY2(ok, qPrintable(message));
            const auto availability =
                listed.first().at(1).value<QHash<QString, ProbeAvailability>>();
            QVERIFY(availability.value(QStringLiteral("open")).available);
            for (const ProbeInfo &p : ProbeCatalog::probes()) {
                if (!availability.value(p.id).available) {
                    missing = p.id;
                    reason = availability.value(p.id).reason;
                    break;
                }
            }
            QVERIFY2(!missing.isEmpty(), "every probe can run without tracefs");
            QVERIFY(!reason.isEmpty());
        }

        MainWindow w;
        w.resize(1366, 768);
        w.show();
        RemoteHostController *remote = w.remoteHosts();
        remote->remoteRecorder()->setSshOptions(sshOptions);
        ProbePanel *panel = w.probePanel();
        uncheckAll(panel);
        panel->setProbeSelected(QStringLiteral("open"), true);
        setOption(panel, QStringLiteral("open"), QStringLiteral("pid"), QString::number(getpid()));
        panel->setProbeSelected(missing, true);
        const QString title = panel->checkBox(missing)->text();
        // This computer's kernel: here no helper answers, so nothing is known yet.
        const QString localKernel = panel->kernelLabel()->text();
        QCOMPARE(panel->statusLabel(missing)->text(), QStringLiteral("unknown"));

        // What the window shows once Connect succeeded, with the dialog still open.
        struct Seen
        {
            QString kernel, status, statusTip, dialog;
            bool checked = false, enabled = true, recording = true, recordEnabled = false,
                 inView = false, kernelInView = false;
        } seen;
        auto connectThen = [&](bool record, const QString &shot) {
            QTimer::singleShot(0, this, [&, record, shot] {
                auto *dialog = qobject_cast<RemoteHostDialog *>(QApplication::activeModalWidget());
                if (!dialog)
                    return;
                auto *button = dialog->findChild<QPushButton *>(QStringLiteral("remoteRecord"));
                dialog->findChild<QComboBox *>(QStringLiteral("remoteHost"))
                    ->setCurrentText(target);
                QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("remoteConnect")),
                                  Qt::LeftButton);
                QElapsedTimer waited;
                waited.start();
                while (!button->isEnabled() && waited.elapsed() < 30000)
                    QTest::qWait(20);
                seen.kernel = panel->kernelLabel()->text();
                seen.status = panel->statusLabel(missing)->text();
                seen.statusTip = panel->statusLabel(missing)->toolTip();
                // Scrolled to: the Network group is far below the top of the list.
                seen.inView = !panel->statusLabel(missing)->visibleRegion().isEmpty();
                seen.kernelInView = !panel->kernelLabel()->visibleRegion().isEmpty();
                seen.checked = panel->checkBox(missing)->isChecked();
                seen.enabled = panel->checkBox(missing)->isEnabled();
                seen.recording = w.isRecording();
                seen.recordEnabled = button->isEnabled();
                seen.dialog = dialog->findChild<QLabel *>(QStringLiteral("remoteStatus"))->text();
                // For a look (1366x768): the window with the dialog centred on it.
                QImage image = w.grab().toImage();
                {
                    QPainter painter(&image);
                    const QPixmap d = dialog->grab();
                    painter.drawPixmap((image.width() - d.width()) / 2,
                                       (image.height() - d.height()) / 2, d);
                }
                QDir().mkpath(QStringLiteral(BPFLENS_TEST_OUTPUT_DIR));
                image.save(QStringLiteral(BPFLENS_TEST_OUTPUT_DIR "/%1.png").arg(shot));
                if (record && button->isEnabled())
                    QTest::mouseClick(button, Qt::LeftButton);
                else
                    dialog->reject();
            });
        };
        utsname uts{};
        QCOMPARE(uname(&uts), 0);
        const QString remoteKernel =
            QStringLiteral("Remote kernel %1 on %2").arg(QString::fromLatin1(uts.release), target);
        const QString notRecorded =
            QStringLiteral("Selected but not recorded, as that kernel cannot run them: %1 (%2).")
                .arg(title, reason);

        // Connect, look, Cancel: the host's probes were shown, this computer's come back.
        connectThen(false, QStringLiteral("remote-checked-cancel"));
        QCOMPARE(remote->chooseHost(), int(QDialog::Rejected));
        QVERIFY2(seen.recordEnabled, qPrintable(seen.dialog));
        QCOMPARE(seen.kernel, remoteKernel);
        QCOMPARE(seen.status, QStringLiteral("not available"));
        QVERIFY2(seen.statusTip.contains(reason), qPrintable(seen.statusTip));
        QVERIFY(seen.checked && !seen.enabled && !seen.recording && seen.inView);
        // Whose kernel it is stays in sight above the scrolled list.
        QVERIFY(seen.kernelInView);
        QVERIFY2(seen.dialog.contains(notRecorded), qPrintable(seen.dialog));
        QVERIFY(!remote->isRemote());
        QCOMPARE(panel->kernelLabel()->text(), localKernel);
        QCOMPARE(panel->statusLabel(missing)->text(), QStringLiteral("unknown"));
        QVERIFY(panel->checkBox(missing)->isEnabled());

        // Connect, look, Record: the same before it starts; then it records without that probe
        // and says so.
        seen = {};
        connectThen(true, QStringLiteral("remote-checked"));
        QCOMPARE(remote->chooseHost(), int(QDialog::Accepted));
        QCOMPARE(seen.kernel, remoteKernel);
        QCOMPARE(seen.status, QStringLiteral("not available"));
        QVERIFY(!seen.recording);
        QVERIFY2(seen.dialog.contains(notRecorded), qPrintable(seen.dialog));
        QTRY_VERIFY_WITH_TIMEOUT(w.isRecording(), 30000);
        QStringList recorded;
        for (const ProbeConfig &p : w.session()->info().probes)
            recorded << p.id;
        QCOMPARE(recorded, QStringList{QStringLiteral("open")});
        QVERIFY2(w.statusBar()->currentMessage().contains(
                     QStringLiteral("Recording on %1 without %2: its kernel cannot run them")
                         .arg(target, title)),
                 qPrintable(w.statusBar()->currentMessage()));
        QCOMPARE(panel->kernelLabel()->text(), remoteKernel);
        w.stopAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!w.isRecording(), 15000);
        QVERIFY(takeErrorBox(&w).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(processesTagged(sshd.tag(), "--stream-fd").isEmpty(), 5000);

        // Only that probe checked: the dialog says none can run there, and Record refuses
        // with the reason instead of starting an empty recording.
        panel->setProbeSelected(QStringLiteral("open"), false);
        seen = {};
        connectThen(true, QStringLiteral("remote-checked-none"));
        QCOMPARE(remote->chooseHost(), int(QDialog::Accepted));
        QVERIFY2(seen.dialog.contains(QStringLiteral("None of the selected probes can run there: "
                                                     "%1 (%2).")
                                          .arg(title, reason)),
                 qPrintable(seen.dialog));
        const QString refusal = takeErrorBox(&w);
        QVERIFY2(refusal.contains(QStringLiteral("None of the selected probes can run on the "
                                                 "kernel of %1: %2 (%3).")
                                      .arg(target, title, reason)),
                 qPrintable(refusal));
        QVERIFY(!w.isRecording());
        QVERIFY(processesTagged(sshd.tag(), "--stream-fd").isEmpty());
    }

    // A check's message longer than the room the dialog was opened with (a probe's reason, in
    // German) makes the dialog taller instead of being cut off.
    void longStatusGrowsTheDialog()
    {
        RemoteRecorder r;
        RemoteHostDialog dialog(&r);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *status = dialog.findChild<QLabel *>(QStringLiteral("remoteStatus"));
        QStringList lines;
        for (int i = 0; i < 12; ++i)
            lines << QStringLiteral("Line %1 of what ssh and the host said, long enough to "
                                    "wrap in the dialog's width at least once.")
                         .arg(i);
        Q_EMIT r.checked(false, lines.join(QLatin1Char('\n')));
        QApplication::processEvents();
        QVERIFY2(status->height() >= status->heightForWidth(status->width()),
                 qPrintable(QStringLiteral("%1 < %2")
                                .arg(status->height())
                                .arg(status->heightForWidth(status->width()))));
        QVERIFY(dialog.rect().contains(status->geometry()));
    }

    // A file recorded on another machine says so in the title and the status bar.
    void fileFromAnotherHostSaysSo()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("db7.bpflens"));
        SessionInfo info = sessionInfoForThisHost({});
        info.host = QStringLiteral("db7.example");
        SessionWriter writer;
        QString error;
        QVERIFY2(writer.create(file, info, &error), qPrintable(error));
        QVERIFY2(writer.finish(info.startMonotonicNs + 42'000'000'000ull, &error),
                 qPrintable(error));
        MainWindow w;
        QVERIFY2(w.openFile(file, &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(
            w.windowTitle(), QStringLiteral("db7.bpflens (recorded on db7.example)[*] — BPF Lens"),
            10000);
        QCOMPARE(w.elapsedLabel()->text(),
                 QStringLiteral("Recorded on db7.example · duration 0:00:42"));
        // One recorded over ssh names the target too.
        const QString viaSsh = dir.filePath(QStringLiteral("db7-ssh.bpflens"));
        info.sshTarget = QStringLiteral("ops@db7:2222");
        SessionWriter sshWriter;
        QVERIFY2(sshWriter.create(viaSsh, info, &error), qPrintable(error));
        QVERIFY2(sshWriter.finish(info.startMonotonicNs + 5'000'000'000ull, &error),
                 qPrintable(error));
        MainWindow w3;
        QVERIFY2(w3.openFile(viaSsh, &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(
            w3.windowTitle(),
            QStringLiteral(
                "db7-ssh.bpflens (recorded on db7.example via ops@db7:2222)[*] — BPF Lens"),
            10000);
        QCOMPARE(w3.elapsedLabel()->text(),
                 QStringLiteral("Recorded on db7.example via ops@db7:2222 · duration 0:00:05"));
        // This computer's own file: just its name, as before.
        const QString local = dir.filePath(QStringLiteral("here.bpflens"));
        SessionWriter here;
        const SessionInfo hereInfo = sessionInfoForThisHost({});
        QVERIFY2(here.create(local, hereInfo, &error), qPrintable(error));
        QVERIFY2(here.finish(hereInfo.startMonotonicNs + 1'000'000'000ull, &error),
                 qPrintable(error));
        MainWindow w2;
        QVERIFY2(w2.openFile(local, &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(w2.windowTitle(), QStringLiteral("here.bpflens[*] — BPF Lens"),
                                  10000);
        QCOMPARE(w2.elapsedLabel()->text(), QStringLiteral("Duration 0:00:01"));
    }

    void recentHostsKeepTheNewestTen()
    {
        QSettings().remove(QStringLiteral("remote/recentHosts"));
        for (int i = 0; i < 12; ++i)
            recenthosts::remember(QStringLiteral("h%1").arg(i));
        recenthosts::remember(QStringLiteral("h5"));
        const QStringList hosts = recenthosts::load();
        QCOMPARE(hosts.size(), recenthosts::Max);
        QCOMPARE(hosts.first(), QStringLiteral("h5"));
        QCOMPARE(hosts.count(QStringLiteral("h5")), 1);
        QCOMPARE(hosts.at(1), QStringLiteral("h11"));
        QVERIFY(!hosts.contains(QStringLiteral("h0")));
        QVERIFY(!hosts.contains(QStringLiteral("h1")));
    }

    // A host whose key is not known: refused with a message that says so, nothing recorded,
    // nothing added to the known hosts.
    void unknownHostKeyIsRefused()
    {
        QVERIFY(writeFile(m_sshd.path(QStringLiteral("unknown_hosts")), QByteArray()));
        RemoteRecorder r;
        aim(&r, QStringLiteral("unknown_hosts"));
        const auto [ok, message] = check(&r);
        QVERIFY(!ok);
        QVERIFY2(message.contains(QStringLiteral("ssh refused the host key of %1").arg(host())),
                 qPrintable(message));
        QVERIFY(!r.isAvailable());

        // The window's Record on Host: Record never becomes possible, no session starts.
        MainWindow w;
        w.remoteHosts()->remoteRecorder()->setSshOptions(
            m_sshd.sshOptions(QStringLiteral("present"), QStringLiteral("unknown_hosts")));
        QString status;
        bool recordEnabled = true;
        QTimer::singleShot(0, this, [&] {
            auto *dialog = qobject_cast<RemoteHostDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            auto *label = dialog->findChild<QLabel *>(QStringLiteral("remoteStatus"));
            QElapsedTimer waited;
            waited.start();
            while (!label->text().contains(QStringLiteral("host key")) && waited.elapsed() < 30000)
                QTest::qWait(20);
            status = label->text();
            recordEnabled =
                dialog->findChild<QPushButton *>(QStringLiteral("remoteRecord"))->isEnabled();
            dialog->reject();
        });
        QCOMPARE(w.remoteHosts()->chooseHost(host()), int(QDialog::Rejected));
        QVERIFY(!recordEnabled);
        QVERIFY2(status.contains(QStringLiteral("ssh refused the host key of %1").arg(host())),
                 qPrintable(status));
        QVERIFY(!w.remoteHosts()->isRemote());
        QVERIFY(!w.isRecording());
        QVERIFY(w.session()->isEmpty());
        QCOMPARE(readAll(m_sshd.path(QStringLiteral("unknown_hosts"))), QString());

        // A recorder that passed its check but meets a key it does not know when recording
        // (the known hosts changed): the start fails with the same words, no session.
        RemoteRecorder later;
        aim(&later, QStringLiteral("known_hosts"));
        QVERIFY(check(&later).first);
        later.setSshOptions(
            m_sshd.sshOptions(QStringLiteral("present"), QStringLiteral("unknown_hosts")));
        QSignalSpy started(&later, &Recorder::started);
        QSignalSpy failed(&later, &Recorder::failed);
        later.start({{QStringLiteral("exec"), {}, {}}});
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
        QCOMPARE(started.size(), 0);
        QVERIFY2(failed.first().first().toString().contains(
                     QStringLiteral("ssh refused the host key of %1").arg(host())),
                 qPrintable(failed.first().first().toString()));
        QCOMPARE(readAll(m_sshd.path(QStringLiteral("unknown_hosts"))), QString());
    }

    // "Ask me whether to trust a new host key": ssh asks through SSH_ASKPASS (here a script
    // standing in for bpflens's askpass mode); No refuses, Yes adds the key and connects.
    void newHostKeyNeedsAnExplicitYes()
    {
        for (const QByteArray &answer : {QByteArrayLiteral("no"), QByteArrayLiteral("yes")}) {
            const QString known =
                m_sshd.path(QStringLiteral("asked_hosts_") + QString::fromLatin1(answer));
            QVERIFY(writeFile(known, QByteArray()));
            const QString script =
                m_sshd.path(QStringLiteral("askpass-") + QString::fromLatin1(answer));
            const QString log = script + QStringLiteral(".log");
            QVERIFY(writeFile(script, "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" +
                                          QFile::encodeName(log) + "'\necho " + answer + "\n"));
            QFile::setPermissions(script, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
            RemoteRecorder r;
            aim(&r, QFileInfo(known).fileName());
            SshPrompting prompting;
            prompting.askpass = script;
            prompting.confirmNewHostKey = true;
            r.setPrompting(prompting);
            const auto [ok, message] = check(&r);
            QVERIFY2(readAll(log).contains(QStringLiteral("(yes/no")), qPrintable(readAll(log)));
            QVERIFY(isAskpassConfirmation(readAll(log)));
            if (answer == "no") {
                QVERIFY(!ok);
                QVERIFY2(message.contains(QStringLiteral("refused the host key")),
                         qPrintable(message));
                QCOMPARE(readAll(known), QString());
            } else {
                QVERIFY2(ok, qPrintable(message));
                QVERIFY(readAll(known).contains(QStringLiteral("ssh-ed25519")));
            }
        }
        // Without the choice, the same unknown key is never even asked about.
        const QString known = m_sshd.path(QStringLiteral("unasked_hosts"));
        QVERIFY(writeFile(known, QByteArray()));
        const QString log = m_sshd.path(QStringLiteral("askpass-yes.log"));
        const QString before = readAll(log);
        RemoteRecorder r;
        aim(&r, QStringLiteral("unasked_hosts"));
        SshPrompting prompting;
        prompting.askpass = m_sshd.path(QStringLiteral("askpass-yes"));
        r.setPrompting(prompting);
        QVERIFY(!check(&r).first);
        QCOMPARE(readAll(log), before);
        QCOMPARE(readAll(known), QString());
    }

    // Killing the ssh client mid-recording: the window keeps every event that arrived and says
    // the connection was lost; the remote bpflens-cli goes too.
    void killedSshKeepsWhatArrived()
    {
        MainWindow w;
        RemoteRecorder *r = w.remoteHosts()->remoteRecorder();
        aim(r, QStringLiteral("known_hosts"));
        QVERIFY(check(r).first);
        QTemporaryDir dir;
        const QString opened = dir.filePath(QStringLiteral("lost-opened.txt"));
        QVERIFY(writeFile(opened, "x"));
        uncheckAll(w.probePanel());
        w.probePanel()->setProbeSelected(QStringLiteral("open"), true);
        setOption(w.probePanel(), QStringLiteral("open"), QStringLiteral("pid"),
                  QString::number(getpid()));
        QSignalSpy failed(r, &Recorder::failed);
        w.remoteHosts()->useRemote();
        QTRY_VERIFY_WITH_TIMEOUT(w.isRecording(), 30000);
        const int opens = 5;
        for (int i = 0; i < opens; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        QTRY_COMPARE_WITH_TIMEOUT(opensOf(w.session()->events(), opened), qsizetype(opens), 10000);
        const QList<pid_t> remoteSide = processesTagged(m_sshd.tag(), "--stream-fd");
        QCOMPARE(remoteSide.size(), 1);
        QVERIFY(r->sshPid() > 0);
        QVERIFY(::kill(r->sshPid(), SIGKILL) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isRecording(), 10000);
        QCOMPARE(failed.size(), 1);
        const QString message = failed.first().first().toString();
        QVERIFY2(
            message.contains(QStringLiteral("The connection to %1 was lost after").arg(host())),
            qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("Everything received until then is kept")),
                 qPrintable(message));
        QVERIFY2(takeErrorBox(&w).contains(QStringLiteral("was lost")), "no error box");
        // Everything received is in the window.
        QCOMPARE(opensOf(w.session()->events(), opened), qsizetype(opens));
        QVERIFY(!w.session()->isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(processesTagged(m_sshd.tag(), "--stream-fd").isEmpty(), 5000);
    }

    // The askpass mode: what the dialog got, on stdout, as ssh reads it.
    void askpassPrintsThePassword()
    {
        const QString prompt = QStringLiteral("root@example's password: ");
        QTimer::singleShot(0, this, [] {
            auto *dialog = qobject_cast<QInputDialog *>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            auto *edit = dialog->findChild<QLineEdit *>();
            QVERIFY(edit);
            QCOMPARE(edit->echoMode(), QLineEdit::Password);
            QCOMPARE(dialog->labelText(), QStringLiteral("root@example's password:"));
            QTest::keyClicks(edit, QStringLiteral("s3cret pa$$"));
            QTest::keyClick(edit, Qt::Key_Return);
        });
        QString out;
        QTextStream stream(&out);
        QCOMPARE(runAskpass(prompt, stream), 0);
        QCOMPARE(out, QStringLiteral("s3cret pa$$\n"));

        QTimer::singleShot(0, this, [] {
            auto *dialog = qobject_cast<QInputDialog *>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            QTest::keyClick(dialog, Qt::Key_Escape);
        });
        out.clear();
        QCOMPARE(runAskpass(prompt, stream), 1);
        QCOMPARE(out, QString());
    }

    void askpassAsksHostKeyQuestions()
    {
        const QString prompt = QStringLiteral(
            "The authenticity of host '[127.0.0.1]:2222 ([127.0.0.1]:2222)' can't be "
            "established.\nED25519 key fingerprint is SHA256:abc.\nAre you sure you want to "
            "continue connecting (yes/no/[fingerprint])? ");
        for (const bool trust : {false, true}) {
            QTimer::singleShot(0, this, [trust] {
                auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
                QVERIFY(box);
                QVERIFY(box->informativeText().contains(QStringLiteral("SHA256:abc")));
                // No is the default: Return alone never trusts a key.
                QCOMPARE(box->defaultButton(), box->button(QMessageBox::No));
                QTest::mouseClick(box->button(trust ? QMessageBox::Yes : QMessageBox::No),
                                  Qt::LeftButton);
            });
            QString out;
            QTextStream stream(&out);
            QCOMPARE(runAskpass(prompt, stream), 0);
            QCOMPARE(out, trust ? QStringLiteral("yes\n") : QStringLiteral("no\n"));
        }
    }

    // ssh's askpass without a display: a failure, never an answer.
    void askpassWithoutDisplayFails()
    {
        QProcess p;
        QProcessEnvironment env;
        env.insert(QStringLiteral("PATH"), qEnvironmentVariable("PATH"));
        env.insert(QStringLiteral("BPFLENS_ASKPASS"), QStringLiteral("1"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(BPFLENS_GUI), {QStringLiteral("root@host's password: ")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        QCOMPARE(p.readAllStandardOutput(), QByteArray());
        QVERIFY(p.readAllStandardError().contains("DISPLAY"));
        // The same with the flag.
        p.start(QStringLiteral(BPFLENS_GUI),
                {QStringLiteral("--askpass"), QStringLiteral("Password: ")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 1);
        QCOMPARE(p.readAllStandardOutput(), QByteArray());
    }
};

QTEST_MAIN(TestRemoteRecord)
#include "tst_remoterecord.moc"
