#include "helperapi.h"
#include "helperrecorder.h"
#include "mainwindow.h"
#include "translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDBusConnection>
#include <QTimer>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BPF Lens"));
    QApplication::setApplicationName(QStringLiteral("bpflens"));
    QApplication::setApplicationDisplayName(QStringLiteral("BPF Lens"));
    QApplication::setApplicationVersion(QStringLiteral(BPFLENS_VERSION));
    bpflens::installTranslations(QLocale::system());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Views BPF Lens sessions (*.bpflens)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QApplication::translate("main", "Session file to open."),
                                 QStringLiteral("[file]"));
    parser.process(app);

    // Before the bus connection exists: its thread may need the helper API's types at once.
    bpflens::helperapi::registerTypes();
    bpflens::HelperRecorder recorder(QDBusConnection::systemBus());
    bpflens::MainWindow window;
    window.setRecorder(&recorder);
    recorder.refresh(); // asynchronous: the window shows at once, availability follows
    window.show();
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) {
        // Once the window is up, so the progress dialog and any error have a parent to show on.
        const QString path = files.first();
        QTimer::singleShot(0, &window, [&window, path] { window.openFile(path); });
    }
    return app.exec();
}
