// Export Chart as Image (#29 point 7): the chart alone, without the view's combo boxes and
// buttons, under a title that says what it shows, of which session and over which range.
#include "gui/exportcontroller.h"
#include "gui/heatmapview.h"
#include "gui/mainwindow.h"
#include "gui/models/eventmodels.h"
#include "gui/models/viewstate.h"
#include "gui/resultspage.h"
#include "tests/gui/guitestdata.h"

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QLocale>
#include <QSet>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;
using namespace bpflens::test;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestChartExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c());
        QVERIFY(m_dir.isValid());
        QString error;
        m_path = writeGuiSession(QDir(m_dir.path()), &error);
        QVERIFY2(!m_path.isEmpty(), qPrintable(error));
    }

    void heatmapIsExportedAloneWithATitle()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.results()->showView(w.results()->heatmapView());
        QTRY_VERIFY_WITH_TIMEOUT(w.results()->heatmapView()->bins().columns > 0, 20'000);
        w.viewState()->setRange(StartNs + SecondNs / 2, StartNs + 2 * SecondNs);
        QTRY_VERIFY_WITH_TIMEOUT(!w.results()->heatmapView()->isComputing(), 20'000);
        const QString title =
            QStringLiteral("Latency heatmap: Block I/O — gui.bpflens — %1 to %2")
                .arg(EventTableModel::formatTime(StartNs + SecondNs / 2, StartNs),
                     EventTableModel::formatTime(StartNs + 2 * SecondNs, StartNs));
        QCOMPARE(w.exportController()->chartTitle(w.results()->heatmapView()->plot()), title);

        const QString svg = m_dir.filePath(QStringLiteral("heatmap.svg"));
        QVERIFY2(w.exportController()->exportChart(svg, &error), qPrintable(error));
        const QByteArray bytes = readAll(svg);
        QVERIFY(bytes.contains(title.toUtf8()));
        // The map's own axis, not the controls above it.
        QVERIFY(bytes.contains("time since the session start"));
        QVERIFY(!bytes.contains("Colour scale"));
        QVERIFY(!bytes.contains("Logarithmic"));
        QVERIFY(!bytes.contains("Clear selection"));

        const QString png = m_dir.filePath(QStringLiteral("heatmap.png"));
        QVERIFY2(w.exportController()->exportChart(png, &error), qPrintable(error));
        const QImage image(png);
        QWidget *plot = w.results()->heatmapView()->plot();
        const qreal dpr = plot->devicePixelRatioF();
        QCOMPARE(image.width(), qRound(plot->width() * dpr));
        // The title band above the map: taller than the map alone, with text in it.
        QVERIFY(image.height() > qRound(plot->height() * dpr));
        const int band = image.height() - qRound(plot->height() * dpr);
        QSet<QRgb> colours;
        for (int x = 0; x < image.width() / 2; ++x)
            colours.insert(image.pixel(x, band / 2));
        QVERIFY2(colours.size() > 1, "the title band has no text");
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

QTEST_MAIN(TestChartExport)
#include "tst_chartexport.moc"
