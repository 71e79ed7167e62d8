#include "dbusapi/helperapi.h"
#include "gui/appidentity.h"
#include "gui/askpass.h"
#include "gui/helperrecorder.h"
#include "gui/mainwindow.h"
#include "gui/translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDBusConnection>
#include <QProcessEnvironment>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

int main(int argc, char *argv[])
{
    // ssh's askpass (see askpass.h): answer one prompt, no window. Without a display there is
    // nobody to ask: ssh must see a failure, never an empty password or a "yes".
    const bool askpassMode = argc > 1 && (qgetenv(bpflens::AskpassVariable) == "1" ||
                                          QByteArray(argv[1]) == "--askpass");
    if (askpassMode) {
        const bool flag = QByteArray(argv[1]) == "--askpass";
        const QString prompt =
            QString::fromLocal8Bit(argc > (flag ? 2 : 1) ? argv[flag ? 2 : 1] : "");
        const QString why =
            bpflens::missingDisplayReason(QProcessEnvironment::systemEnvironment().toStringList());
        if (!why.isEmpty()) {
            std::fprintf(stderr, "%s (ssh asked: %s)\n", qPrintable(why), qPrintable(prompt));
            return 1;
        }
        QApplication app(argc, argv);
        bpflens::setApplicationIdentity();
        bpflens::installTranslations(QLocale::system());
        QTextStream out(stdout);
        return bpflens::runAskpass(prompt, out);
    }
    // Without a display Qt's xcb platform aborts (a core dump, exit 134): say why in one line
    // instead, unless only --help or --version was asked for.
    const QString noDisplay =
        bpflens::missingDisplayReason(QProcessEnvironment::systemEnvironment().toStringList());
    if (!noDisplay.isEmpty()) {
        bool infoOnly = argc > 1;
        for (int i = 1; i < argc; ++i) {
            const QByteArray a(argv[i]);
            infoOnly &= a == "-h" || a == "--help" || a == "-v" || a == "--version";
        }
        if (!infoOnly) {
            std::fprintf(stderr, "%s\n", qPrintable(noDisplay));
            return 2;
        }
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    bpflens::setApplicationIdentity();
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
        // Once the window is up, so the progress and any error have a window to show on.
        const QString path = files.first();
        QTimer::singleShot(0, &window, [&window, path] { window.open(path); });
    }
    return app.exec();
}
