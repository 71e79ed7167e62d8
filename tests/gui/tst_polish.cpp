// What a user notices of issue 29's loose ends, on real widgets: Help lists the user's pages,
// not the developers'; the dark theme's unticked checkboxes, fields and buttons have an outline
// that stands out from the window (WCAG 3:1 for a control's boundary); during a recording the
// Summary gives one figure for a probe's events, not the session's and an older one beside it.
#include "core/protocol.h"
#include "gui/detailspane.h"
#include "gui/helpcontroller.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "gui/recorder.h"
#include "gui/resultspage.h"
#include "gui/theme.h"
#include "tests/gui/guitestdata.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStyleOptionButton>
#include <QTest>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

// WCAG 2.1 relative luminance and contrast ratio.
double luminance(QColor c)
{
    auto channel = [](double v) {
        return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrast(QColor a, QColor b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The most contrasting pixel against background among the outermost three pixels of rect's side
// at the middle of that side: where a border is drawn, whatever the style's half-pixel offset.
double sideContrast(const QImage &image, const QRect &rect, Qt::Edge side, QColor background)
{
    const QPoint mid = rect.center();
    QList<QPoint> points;
    for (int d = 0; d < 3; ++d) {
        switch (side) {
        case Qt::LeftEdge:
            points << QPoint(rect.left() + d, mid.y());
            break;
        case Qt::RightEdge:
            points << QPoint(rect.right() - d, mid.y());
            break;
        case Qt::TopEdge:
            points << QPoint(mid.x(), rect.top() + d);
            break;
        case Qt::BottomEdge:
            points << QPoint(mid.x(), rect.bottom() - d);
            break;
        }
    }
    double best = 0;
    for (const QPoint &p : points)
        best = std::max(best, contrast(image.pixelColor(p), background));
    return best;
}

QString factValue(const SummaryPanel *summary, const QString &name)
{
    for (int i = 0; i < summary->facts()->topLevelItemCount(); ++i) {
        if (summary->facts()->topLevelItem(i)->text(0) == name)
            return summary->facts()->topLevelItem(i)->text(1);
    }
    return {};
}

QTreeWidgetItem *probeRow(const SummaryPanel *summary, const QString &id)
{
    for (int i = 0; i < summary->probes()->topLevelItemCount(); ++i) {
        if (summary->probes()->topLevelItem(i)->text(SummaryPanel::ProbeIdColumn) == id)
            return summary->probes()->topLevelItem(i);
    }
    return nullptr;
}

BlockEvent blockEvent(quint64 timeNs)
{
    BlockEvent e;
    e.timeNs = timeNs;
    e.dev = 253u << 20;
    e.bytes = 4096;
    e.pid = 77;
    e.queueNs = 1000;
    e.deviceNs = 100'000;
    e.disk = QByteArrayLiteral("vda");
    e.op = QByteArrayLiteral("Write");
    e.comm = QByteArrayLiteral("dd");
    return e;
}

} // namespace

class TestPolish : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init() { QSettings().clear(); }
    void helpListsTheUserPagesOnly();
    void darkControlsHaveVisibleBorders();
    void liveCountsAreOneFigure();
};

void TestPolish::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("BPF Lens Tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_polish"));
    std::signal(SIGPIPE, SIG_IGN);
}

void TestPolish::helpListsTheUserPagesOnly()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.helpController()->documentationAction()->trigger();
    auto *dialog = w.findChild<QDialog *>(QStringLiteral("documentationDialog"));
    QVERIFY(dialog && dialog->isVisible());
    auto *list = dialog->findChild<QListWidget *>(QStringLiteral("documentationTopics"));
    QVERIFY(list);
    QStringList titles;
    for (int i = 0; i < list->count(); ++i)
        titles << list->item(i)->text();
    // The guide first, the pages about what a user records and reads after it.
    QCOMPARE(titles.value(0), QStringLiteral("Using BPF Lens"));
    for (const QString &page :
         {QStringLiteral("SQL over sessions"), QStringLiteral("Latency heatmap"),
          QStringLiteral("Recording another machine over SSH")})
        QVERIFY2(titles.contains(page), qPrintable(page));
    // Nothing a user of the window has to wade through: the helper's wire formats, how the
    // project is tested, packaged, benchmarked or extended.
    for (const QString &title : std::as_const(titles)) {
        for (const QString &developer :
             {QStringLiteral("D-Bus API"), QStringLiteral("stream protocol"),
              QStringLiteral("Testing"), QStringLiteral("Adding an event type"),
              QStringLiteral("The desktop application"), QStringLiteral("Debian package"),
              QStringLiteral("Performance")})
            QVERIFY2(!title.contains(developer, Qt::CaseInsensitive), qPrintable(title));
    }
    QCOMPARE(HelpController::topics().size(), list->count());
}

void TestPolish::darkControlsHaveVisibleBorders()
{
    Theme::instance()->setMode(Theme::Mode::Dark);
    QWidget host;
    auto *layout = new QVBoxLayout(&host);
    auto *check = new QCheckBox(QStringLiteral("exec"), &host);
    auto *field = new QLineEdit(&host);
    auto *button = new QPushButton(QStringLiteral("Record"), &host);
    layout->addWidget(check);
    layout->addWidget(field);
    layout->addWidget(button);
    auto *focus = new QPushButton(QStringLiteral("focus"), &host); // keeps focus off the others
    layout->addWidget(focus);
    host.resize(240, 160);
    host.show();
    QVERIFY(QTest::qWaitForWindowExposed(&host));
    focus->setFocus();
    QApplication::processEvents();
    QVERIFY(!check->isChecked());
    const QImage image = host.grab().toImage().convertToFormat(QImage::Format_RGB32);
    if (qEnvironmentVariableIsSet("POLISH_DUMP"))
        image.save(QStringLiteral("/tmp/polish-dark-controls.png"));
    const QColor window = host.palette().color(QPalette::Window);
    QVERIFY(Theme::isDark(host.palette()));
    // The background really is the window colour where nothing is drawn.
    QCOMPARE(image.pixelColor(1, 1).rgb(), window.rgb());

    QStyleOptionButton option;
    option.initFrom(check);
    const QRect indicator = check->style()
                                ->subElementRect(QStyle::SE_CheckBoxIndicator, &option, check)
                                .translated(check->pos());
    QVERIFY(!indicator.isEmpty());
    const QRect fieldRect = field->geometry();
    const QRect buttonRect = button->geometry();
    const std::pair<const char *, QRect> controls[] = {
        {"unticked checkbox", indicator}, {"line edit", fieldRect}, {"push button", buttonRect}};
    for (const auto &[name, rect] : controls) {
        for (Qt::Edge side : {Qt::LeftEdge, Qt::RightEdge, Qt::TopEdge, Qt::BottomEdge}) {
            const double ratio = sideContrast(image, rect, side, window);
            QVERIFY2(ratio >= 3.0, qPrintable(QStringLiteral("%1, side %2: contrast %3:1 against "
                                                             "the window")
                                                  .arg(QLatin1String(name))
                                                  .arg(int(side))
                                                  .arg(ratio, 0, 'f', 2)));
        }
    }
    // The light theme's outline too (Fusion's is 2:1 on the light window).
    Theme::instance()->setMode(Theme::Mode::Light);
    QApplication::processEvents();
    const QImage light = host.grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QColor lightWindow = host.palette().color(QPalette::Window);
    for (Qt::Edge side : {Qt::LeftEdge, Qt::RightEdge, Qt::TopEdge, Qt::BottomEdge})
        QVERIFY2(sideContrast(light, indicator, side, lightWindow) >= 3.0, "light checkbox");
    Theme::instance()->setMode(Theme::Mode::System);
}

void TestPolish::liveCountsAreOneFigure()
{
    // The helper's stream as it comes: a frame with the events drained so far and the stats
    // sample taken after that drain, then a frame with the events of the next polls, before the
    // next sample (once a second). The Summary read "Block I/O events 50" and "block: 30 seen".
    int fds[2];
    QVERIFY(::pipe(fds) == 0);
    StreamRecorder recorder;
    recorder.setBackend([&](const QList<ProbeConfig> &, QString *) { return fds[0]; },
                        [&] {
                            StreamWriter end;
                            end.writeEnd({StreamEndReason::Stopped, QString(), 0});
                            end.flushTo(fds[1]);
                            ::close(fds[1]);
                        });
    MainWindow w;
    w.setRecorder(&recorder);
    for (const ProbeInfo &p : ProbeCatalog::probes())
        w.probePanel()->setProbeSelected(p.id, p.id == QLatin1String("block"));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.recordAction()->trigger();

    SessionInfo info = guiInfo();
    info.probes = {{QStringLiteral("block"), {}, QStringLiteral("tp_btf/block_rq_complete")}};
    StreamWriter writer;
    QVERIFY(writer.writeHello(info));
    RecordBatch first;
    for (int i = 0; i < 30; ++i)
        first.block.append(blockEvent(StartNs + quint64(i) * 1'000'000));
    ProbeStats stats;
    stats.probeId = QStringLiteral("block");
    stats.timeNs = StartNs + SecondNs;
    stats.eventsSeen = 30;
    first.stats << stats;
    QVERIFY(writer.writeBatch(first));
    RecordBatch second;
    for (int i = 0; i < 20; ++i)
        second.block.append(blockEvent(StartNs + SecondNs + quint64(i) * 1'000'000));
    QVERIFY(writer.writeBatch(second));
    QVERIFY(writer.flushTo(fds[1]));
    QTRY_COMPARE(w.session()->events().count(EventType::Block), qsizetype(50));
    QTRY_VERIFY(w.isRecording());

    SummaryPanel *summary = w.results()->summaryPanel();
    summary->refresh();
    const QString held = factValue(
        summary, QStringLiteral("%1 events").arg(SessionModel::typeName(EventType::Block)));
    QCOMPARE(held, QStringLiteral("50"));
    QTreeWidgetItem *row = probeRow(summary, QStringLiteral("block"));
    QVERIFY(row);
    QCOMPARE(row->text(SummaryPanel::SeenColumn), held);
    // Where the kernel's own figure is, for whoever wonders.
    QVERIFY2(row->toolTip(SummaryPanel::SeenColumn).contains(QStringLiteral("30")),
             qPrintable(row->toolTip(SummaryPanel::SeenColumn)));

    // The next sample counts them all: still one figure, and no note.
    RecordBatch third;
    stats.timeNs = StartNs + 2 * SecondNs;
    stats.eventsSeen = 50;
    third.stats << stats;
    QVERIFY(writer.writeBatch(third));
    QVERIFY(writer.flushTo(fds[1]));
    QTRY_COMPARE(w.session()->data().stats.size(), qsizetype(2));
    summary->refresh();
    row = probeRow(summary, QStringLiteral("block"));
    QCOMPARE(row->text(SummaryPanel::SeenColumn), QStringLiteral("50"));
    QVERIFY(row->toolTip(SummaryPanel::SeenColumn).isEmpty());

    w.stopAction()->trigger();
    QTRY_VERIFY(!w.isRecording());
}

QTEST_MAIN(TestPolish)
#include "tst_polish.moc"
