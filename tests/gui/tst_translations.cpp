// The translations are complete (nothing unfinished, nothing lupdate would add) and the
// application comes up in the user's language.
#include "gui/countersview.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "gui/resultspage.h"
#include "gui/translations.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace bpflens;

namespace {

const QStringList Languages = {QStringLiteral("de"), QStringLiteral("zh_CN")};
// English has a .ts file too: only the texts with a count, for their English plural forms
// ("1 event", "2 events"; lupdate -pluralonly).
const QStringList TsLanguages = Languages + QStringList{QStringLiteral("en")};

QString tsPath(const QString &language)
{
    return QStringLiteral(BPFLENS_SOURCE_DIR "/translations/bpflens_%1.ts").arg(language);
}

struct TsMessage
{
    QString context;
    QString source;
    QString type; // the translation's type attribute: "", "unfinished", "vanished", "obsolete"
    QStringList translations; // one, or the numerus forms
    bool numerus = false;
};

QList<TsMessage> readTs(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return {};
    }
    QList<TsMessage> result;
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (xml.name() == QLatin1String("name"))
                context = xml.readElementText();
            else if (xml.name() == QLatin1String("message"))
                current = {context,
                           {},
                           {},
                           {},
                           xml.attributes().value(QLatin1String("numerus")) ==
                               QLatin1String("yes")};
            else if (xml.name() == QLatin1String("source"))
                current.source = xml.readElementText();
            else if (xml.name() == QLatin1String("translation")) {
                current.type = xml.attributes().value(QLatin1String("type")).toString();
                if (!current.numerus)
                    current.translations << xml.readElementText();
            } else if (xml.name() == QLatin1String("numerusform"))
                current.translations << xml.readElementText();
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            result << current;
        }
    }
    if (xml.hasError())
        *error = xml.errorString();
    return result;
}

QSet<QString> placeholders(const QString &text)
{
    QSet<QString> result;
    static const QRegularExpression re(QStringLiteral("%(\\d|n)"));
    for (auto it = re.globalMatch(text); it.hasNext();)
        result << it.next().captured();
    return result;
}

// Every message finished, non-empty, with the source's placeholders, and as many numerus
// forms as the language has (German and English 2, Chinese 1).
void checkComplete(const QList<TsMessage> &messages, const QString &language)
{
    QVERIFY(!messages.isEmpty());
    for (const TsMessage &m : messages) {
        const QString where = m.context + QStringLiteral(": ") + m.source;
        QVERIFY2(m.type.isEmpty(), qPrintable(QStringLiteral("%1 is %2").arg(where, m.type)));
        QCOMPARE(m.translations.size(),
                 m.numerus ? (language == QLatin1String("zh_CN") ? 1 : 2) : 1);
        for (const QString &t : m.translations) {
            QVERIFY2(!t.trimmed().isEmpty(), qPrintable(where));
            QVERIFY2(placeholders(t) == placeholders(m.source),
                     qPrintable(QStringLiteral("%1 -> %2").arg(where, t)));
        }
    }
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void tsFilesAreComplete_data();
    void tsFilesAreComplete();
    void lupdateFindsNothingUntranslated();
    void catalogTextsAreTranslated();
    void mainWindowStartsInChinese();
    void mainWindowStartsInGerman();
    void probeStatusFitsTheDockInGerman();
    void pageTitlesAreTranslated();
    void counterSeriesAreTranslated();
    void cleanup() { installTranslations(QLocale::c()); }
};

void TestTranslations::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("BPF Lens Tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_translations"));
}

void TestTranslations::tsFilesAreComplete_data()
{
    QTest::addColumn<QString>("language");
    for (const QString &l : TsLanguages)
        QTest::newRow(qPrintable(l)) << l;
}

void TestTranslations::tsFilesAreComplete()
{
    QFETCH(QString, language);
    QString error;
    const QList<TsMessage> messages = readTs(tsPath(language), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    checkComplete(messages, language);
}

void TestTranslations::lupdateFindsNothingUntranslated()
{
    // lupdate over today's sources into copies of the .ts files: a tr() text nobody translated
    // shows up as unfinished, one that is gone as vanished (-no-obsolete drops it: count).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const QString &language : TsLanguages) {
        const QString copy = dir.filePath(QStringLiteral("bpflens_%1.ts").arg(language));
        QVERIFY(QFile::copy(tsPath(language), copy));
        QString error;
        const qsizetype before = readTs(copy, &error).size();
        QProcess lupdate;
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        // Includes name their folder from the top of the tree: lupdate needs it to find the
        // class declarations (and their namespace, the messages' context) a .cpp includes.
        QStringList options{QStringLiteral("-no-obsolete"), QStringLiteral("-locations"),
                            QStringLiteral("none"), QStringLiteral("-I"),
                            QStringLiteral(BPFLENS_SOURCE_DIR)};
        if (language == QLatin1String("en"))
            options << QStringLiteral("-pluralonly");
        lupdate.start(QStringLiteral(BPFLENS_LUPDATE),
                      options + QStringList{QStringLiteral(BPFLENS_SOURCE_DIR "/gui"),
                                            QStringLiteral(BPFLENS_SOURCE_DIR "/core/probes"),
                                            QStringLiteral(BPFLENS_SOURCE_DIR "/core/events"),
                                            QStringLiteral("-ts"), copy});
        QVERIFY(lupdate.waitForFinished(120000));
        QVERIFY2(lupdate.exitCode() == 0, lupdate.readAll().constData());
        const QList<TsMessage> after = readTs(copy, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(after.size(), before);
        checkComplete(after, language);
    }
}

void TestTranslations::catalogTextsAreTranslated()
{
    // The catalog at run time: a probe added without translations fails.
    for (const QString &language : Languages) {
        QString error;
        QSet<QString> sources;
        for (const TsMessage &m : readTs(tsPath(language), &error)) {
            if (m.context == QLatin1String("ProbeCatalog"))
                sources << m.source;
        }
        for (const ProbeInfo &p : ProbeCatalog::probes()) {
            QVERIFY2(sources.contains(p.title), qPrintable(language + QLatin1Char(' ') + p.title));
            QVERIFY2(sources.contains(p.description), qPrintable(p.description));
            for (const ProbeOption &o : p.options) {
                if (o.internal)
                    continue; // filled in by the client, never shown
                QVERIFY2(sources.contains(o.title), qPrintable(p.id + QLatin1Char(':') + o.title));
                QVERIFY2(sources.contains(o.description), qPrintable(o.description));
            }
        }
    }
}

void TestTranslations::mainWindowStartsInChinese()
{
    QVERIFY(installTranslations(QLocale(QStringLiteral("zh_CN"))));
    MainWindow w;
    const QList<QAction *> menus = w.menuBar()->actions();
    QVERIFY(!menus.isEmpty());
    QCOMPARE(menus.first()->text(), QStringLiteral("文件(&F)"));
    QCOMPARE(w.probePanel()->checkBox(QStringLiteral("exec"))->text(), QStringLiteral("进程执行"));
    QCOMPARE(ProbePanel::groupTitle(ProbeGroup::Scheduler), QStringLiteral("调度器"));
}

void TestTranslations::mainWindowStartsInGerman()
{
    // As the application does it: the system locale from LANG, in a fresh process.
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LANG"), QStringLiteral("de_DE.UTF-8"));
    env.remove(QStringLiteral("LC_ALL"));
    env.remove(QStringLiteral("LANGUAGE"));
    env.insert(QStringLiteral("BPFLENS_TRANSLATION_CHILD"), QStringLiteral("1"));
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("childPrintsMenu")});
    QVERIFY(child.waitForFinished(60000));
    const QString out = QString::fromUtf8(child.readAllStandardOutput());
    QVERIFY2(out.contains(QLatin1String("MENU:&Datei")), qPrintable(out));
}

void TestTranslations::probeStatusFitsTheDockInGerman()
{
    // "teilweise verfügbar" beside "Langsame Dateioperationen" was wider than the dock: the
    // list scrolled sideways and cut the statuses off. They wrap instead.
    QVERIFY(installTranslations(QLocale(QStringLiteral("de_DE"))));
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.showRecordPage(true);
    QHash<QString, ProbeAvailability> availability;
    for (const ProbeInfo &p : ProbeCatalog::probes())
        availability.insert(p.id, {true, QStringLiteral("tp_btf/x"), QStringLiteral("limited")});
    w.probePanel()->setAvailability(availability);
    QCOMPARE(w.probePanel()->statusLabel(QStringLiteral("fsslower"))->text(),
             QStringLiteral("teilweise verfügbar"));
    auto *scroll = w.probePanel()->findChild<QScrollArea *>();
    QVERIFY(scroll);
    // The content at most as wide as the viewport: no sideways scrolling.
    QApplication::processEvents();
    QVERIFY2(scroll->widget()->minimumSizeHint().width() <= scroll->viewport()->width(),
             qPrintable(QStringLiteral("content %1 px in a viewport of %2 px")
                            .arg(scroll->widget()->minimumSizeHint().width())
                            .arg(scroll->viewport()->width())));
    QVERIFY(!scroll->horizontalScrollBar()->isVisible());
}

void TestTranslations::pageTitlesAreTranslated()
{
    // A title translated as itself passes the completeness checks: German showed the Probes
    // dock's title in English. The docks are gone; the results' group tabs took their place.
    // Abbreviations (CPU, I/O) are the same in every language and are not compared.
    const auto titles = [] {
        MainWindow w;
        QStringList out;
        const QTabWidget *tabs = w.results()->tabs();
        for (int i = 0; i < tabs->count(); ++i)
            out << tabs->tabText(i);
        return out;
    };
    const QStringList english = titles();
    QVERIFY(english.size() >= 4);
    for (const QString &language : Languages) {
        QVERIFY(installTranslations(QLocale(language)));
        const QStringList translated = titles();
        QCOMPARE(translated.size(), english.size());
        for (qsizetype i = 0; i < english.size(); ++i) {
            QString plain = english[i];
            plain.remove(QLatin1Char('&'));
            if (plain == plain.toUpper())
                continue;
            QVERIFY2(translated[i] != english[i],
                     qPrintable(language + QStringLiteral(": ") + english[i]));
        }
    }
}

void TestTranslations::counterSeriesAreTranslated()
{
    // Series named after the counters they draw were English in every language (the names
    // came from the recording, not from tr()): the page cache's lines read hits, misses.
    QVERIFY(installTranslations(QLocale(QStringLiteral("zh_CN"))));
    MainWindow w;
    SessionData data;
    data.info.startMonotonicNs = 1'000'000'000;
    data.info.kernelRelease = QStringLiteral("6.18.0-test");
    w.session()->setSession(std::move(data));
    RecordBatch live;
    const QStringList names{QStringLiteral("accesses"), QStringLiteral("added"),
                            QStringLiteral("dirtied"),  QStringLiteral("misses"),
                            QStringLiteral("hits"),     QStringLiteral("hitRatio")};
    for (int i = 1; i <= 3; ++i) {
        for (const QString &name : names)
            live.counters << CounterSample{QStringLiteral("cachestat"),
                                           quint64(i + 1) * 1'000'000'000, 1'000'000'000, name,
                                           name == QLatin1String("hitRatio") ? 0.5 : 10.0 * i};
    }
    w.session()->append(live);
    w.results()->countersView()->refresh();
    int seen = 0;
    for (QChartView *view :
         {w.results()->countersView()->countsChart(), w.results()->countersView()->ratioChart()}) {
        for (const QAbstractSeries *series : view->chart()->series()) {
            ++seen;
            QVERIFY2(!names.contains(series->name()), qPrintable(series->name()));
            // Chinese words, not Latin letters.
            QVERIFY2(!series->name().contains(QRegularExpression(QStringLiteral("[A-Za-z]"))),
                     qPrintable(series->name()));
        }
    }
    QCOMPARE(seen, int(names.size()));
    QCOMPARE(w.results()->countersView()->series(QStringLiteral("hits"))->name(),
             QStringLiteral("命中"));
}

// In the child: the locale comes from the environment, as in main().
static int childMain(int argc, char **argv)
{
    QApplication app(argc, argv);
    installTranslations(QLocale::system());
    MainWindow w;
    QTextStream(stdout) << "MENU:" << w.menuBar()->actions().first()->text() << Qt::endl;
    return 0;
}

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsSet("BPFLENS_TRANSLATION_CHILD"))
        return childMain(argc, argv);
    QApplication app(argc, argv);
    TestTranslations test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_translations.moc"
