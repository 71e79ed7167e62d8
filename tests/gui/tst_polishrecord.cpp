// Recording without a helper and after one: as root without a helper the probe panel shows what
// this kernel can run (from a bpflens-cli child, the window has no libbpf), not "unknown"; when
// the helper goes away the user reads one message, without build advice, Record stays enabled,
// and the next Record works once the bus can start the helper again.
#include "dbusapi/helperapi.h"
#include "gui/helperrecorder.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "tests/gui/modaltest.h"
#include "tests/helper/testbus.h"
#include "tests/testutil.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

QList<QMessageBox *> errorBoxes(QWidget *window)
{
    QList<QMessageBox *> shown;
    for (QMessageBox *box : window->findChildren<QMessageBox *>(QStringLiteral("errorBox"))) {
        if (box->isVisible())
            shown << box;
    }
    return shown;
}

void closeErrorBoxes(QWidget *window)
{
    for (QMessageBox *box : window->findChildren<QMessageBox *>(QStringLiteral("errorBox")))
        box->close();
    QApplication::processEvents();
}

// The next Record asks whether to keep the unsaved recording: it is not wanted.
void discardUnsaved(MainWindow *window)
{
    if (!window->hasUnsavedRecording())
        return;
    whenModal<QMessageBox>([](QMessageBox *box) {
        if (box->objectName() == QLatin1String("unsavedRecordingBox"))
            box->button(QMessageBox::Discard)->click();
    });
}

void recordOnly(ProbePanel *panel, const QString &id)
{
    for (const ProbeInfo &p : ProbeCatalog::probes())
        panel->setProbeSelected(p.id, p.id == id);
}

} // namespace

class TestPolishRecord : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("BPF Lens Tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_polishrecord"));
        helperapi::registerTypes();
        QSettings().clear();
    }

    void rootWithoutAHelperShowsProbeAvailability()
    {
        BPFLENS_REQUIRE_ROOT("the bpflens-cli child checks the probes as root");
        // What the command line says this kernel can run: the panel must say the same.
        QProcess cli;
        cli.start(QStringLiteral(BPFLENS_CLI),
                  {QStringLiteral("probes"), QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished(120000));
        const QJsonObject listed = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QVERIFY(listed.contains(QLatin1String("probes")));

        QDBusConnection none = QDBusConnection::connectToBus(
            QStringLiteral("unix:path=/nonexistent/bpflens-bus"), QStringLiteral("nobus"));
        QVERIFY(!none.isConnected());
        {
            HelperRecorder recorder(none);
            recorder.setLocalProgram(QStringLiteral(BPFLENS_CLI));
            recorder.setLocalAllowed(true);
            MainWindow w;
            w.setRecorder(&recorder);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            recorder.refresh();
            QCOMPARE(recorder.backend(), HelperRecorder::Backend::Local);
            ProbePanel *panel = w.probePanel();
            // The kernel line names this kernel, not "not known until the helper answers".
            QTRY_VERIFY2_WITH_TIMEOUT(
                panel->kernelLabel()->text().contains(QSysInfo::kernelVersion()),
                qPrintable(panel->kernelLabel()->text()), 30000);
            int available = 0;
            for (const QJsonValue &v : listed.value(QLatin1String("probes")).toArray()) {
                const QJsonObject p = v.toObject();
                const QString id = p.value(QLatin1String("id")).toString();
                QLabel *status = panel->statusLabel(id);
                QVERIFY2(status, qPrintable(id));
                QVERIFY2(status->text() != QLatin1String("unknown"), qPrintable(id));
                const bool runs = p.value(QLatin1String("available")).toBool();
                available += runs;
                // An unavailable probe cannot be ticked; an available one can.
                QCOMPARE(panel->checkBox(id)->isEnabled(), runs);
                const QString attach = p.value(QLatin1String("attachPath")).toString();
                if (runs && !attach.isEmpty())
                    QVERIFY2(status->toolTip().contains(attach) ||
                                 panel->checkBox(id)->toolTip().contains(attach),
                             qPrintable(id + QStringLiteral(": ") + status->toolTip()));
            }
            QVERIFY(available > 0);
            QCOMPARE(panel->statusLabel(QStringLiteral("exec"))->text(),
                     QStringLiteral("available"));
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("nobus"));
    }

    void helperGoneRecordTriesAgain()
    {
        BPFLENS_REQUIRE_ROOT("runs dbus-daemon, polkitd and the helper, which loads BPF programs");
        TestBus bus;
        QString error;
        QVERIFY2(bus.start(&error), qPrintable(error));
        const QString service =
            bus.dir() + QStringLiteral("/services/io.github.bpflens.Helper1.service");
        QVERIFY(QFile::exists(service));
        {
            QDBusConnection root = bus.connect(QStringLiteral("polishroot"));
            HelperRecorder recorder(root);
            recorder.setLocalAllowed(false); // as a user: only the helper records
            MainWindow w;
            w.setRecorder(&recorder);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            recorder.refresh();
            QTRY_COMPARE_WITH_TIMEOUT(recorder.backend(), HelperRecorder::Backend::Helper, 30000);
            recordOnly(w.probePanel(), QStringLiteral("exec"));

            // The helper dies while recording: one message, the data kept, Record enabled.
            w.recordAction()->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(w.isRecording(), 30000);
            QCOMPARE(QProcess::execute(QStringLiteral("/bin/true"), {}), 0);
            ::kill(pid_t(bus.helperPid()), SIGKILL);
            QTRY_VERIFY_WITH_TIMEOUT(!w.isRecording(), 10000);
            QTRY_COMPARE(errorBoxes(&w).size(), 1);
            QVERIFY(!w.banner()->isVisible());
            QVERIFY(w.recordAction()->isEnabled());
            closeErrorBoxes(&w);
            QVERIFY(bus.waitForHelperGone(10000));

            // The bus cannot start it again now (a helper run by hand has no activation file):
            // Record says so once, in a sentence without build instructions, and stays enabled.
            QVERIFY(QFile::rename(service, service + QStringLiteral(".off")));
            QTest::qWait(500); // dbus-daemon notices the directory change
            discardUnsaved(&w);
            w.recordAction()->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(!errorBoxes(&w).isEmpty(), 30000);
            QTest::qWait(200);
            const QList<QMessageBox *> boxes = errorBoxes(&w);
            QCOMPARE(boxes.size(), 1);
            const QString text = boxes.first()->text();
            QVERIFY2(!text.contains(QStringLiteral("cmake")) &&
                         !text.contains(QStringLiteral("install")),
                     qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("Record")), qPrintable(text));
            QVERIFY2(!w.banner()->isVisible(), qPrintable(w.bannerLabel()->text()));
            QVERIFY(!w.isRecording());
            QVERIFY(w.recordAction()->isEnabled());
            closeErrorBoxes(&w);

            // It can be started again: the next Record activates it and records.
            QVERIFY(QFile::rename(service + QStringLiteral(".off"), service));
            QTest::qWait(500);
            QSignalSpy ended(&recorder, &Recorder::ended);
            discardUnsaved(&w);
            w.recordAction()->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(w.isRecording(), 30000);
            QVERIFY(bus.helperPid() > 0);
            QCOMPARE(QProcess::execute(QStringLiteral("/bin/true"), {}), 0);
            QTRY_VERIFY_WITH_TIMEOUT(w.session()->events().count(EventType::Exec) > 0, 10000);
            w.stopAction()->trigger();
            QTRY_VERIFY_WITH_TIMEOUT(!w.isRecording(), 15000);
            QCOMPARE(ended.size(), 1);
            QVERIFY(errorBoxes(&w).isEmpty());
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("polishroot"));
    }
};

QTEST_MAIN(TestPolishRecord)
#include "tst_polishrecord.moc"
