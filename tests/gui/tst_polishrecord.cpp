// Recording without a helper: as root without a helper the probe panel shows what this kernel
// can run (from a bpflens-cli child, the window has no libbpf), not "unknown".
#include "helper/testbus.h"
#include "helperapi.h"
#include "helperrecorder.h"
#include "mainwindow.h"
#include "modaltest.h"
#include "probepanel.h"
#include "sessionmodel.h"
#include "testutil.h"

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
};

QTEST_MAIN(TestPolishRecord)
#include "tst_polishrecord.moc"
