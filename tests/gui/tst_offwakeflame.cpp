// The off-wake flame graph (#33) as a user sees it, on real widgets over a real session file:
// the blocked stack, the "woken by" separator and the waker's stack leaf first, frame for frame
// and width for width the lines of the folded export (offWakeFoldedStacks, what `bpflens-cli
// export --folded --off-wake` writes); the waker's frames in the waker colours; tool tips that
// say whose frame a box is; the filter; File > Export Off-Wake Stacks; and no off-wake kind
// for a session without offwake events.
#include "core/sessioninfo.h"
#include "core/sessionstore.h"
#include "gui/exportcontroller.h"
#include "gui/flamegraphview.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"
#include "gui/profilepage.h"
#include "gui/translations.h"
#include "tests/gui/profiletestdata.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;

namespace {

constexpr quint64 StartNs = 10'000'000'000ull;
constexpr quint64 MsNs = 1'000'000ull;

enum Frame : quint32
{
    MainFrame = 1,
    ReadLoopFrame,
    KsysReadFrame,
    PipeReadFrame,
    ScheduleFrame,
    WriteByteFrame,
    KsysWriteFrame,
    PipeWriteFrame,
    TryToWakeUpFrame,
    HrtimerWakeupFrame,
    OtherWaitFrame,
};

enum Stack : quint32
{
    ReaderStack = 1, // main;read_loop;ksys_read;pipe_read;schedule (root first)
    WriterStack,     // main;write_byte;ksys_write;pipe_write;try_to_wake_up
    IrqStack,        // hrtimer_wakeup;try_to_wake_up (kernel only)
    OtherStack,      // main;other_wait;schedule
};

// reader (pid 200) blocked in its pipe read: three waits of 300 ms woken by writer (pid 300)
// from pipe_write, one of 100 ms woken by a timer interrupt, one of 50 ms whose wakeup was not
// seen; other (pid 400) blocked 150 ms, woken by writer from the same stack.
RecordBatch offWakeBatch()
{
    RecordBatch b;
    auto frame = [&](quint32 id, FrameKind kind, const char *module, const char *symbol,
                     quint64 address) {
        b.frames.append({id, StackFrame{kind, address, module, {}, symbol}});
    };
    frame(MainFrame, FrameKind::User, "/usr/bin/app", "main", 0x1100);
    frame(ReadLoopFrame, FrameKind::User, "/usr/bin/app", "read_loop", 0x1200);
    frame(KsysReadFrame, FrameKind::Kernel, "vmlinux", "ksys_read", 0xffffffff81100000);
    frame(PipeReadFrame, FrameKind::Kernel, "vmlinux", "pipe_read", 0xffffffff81200000);
    frame(ScheduleFrame, FrameKind::Kernel, "vmlinux", "schedule", 0xffffffff81300000);
    frame(WriteByteFrame, FrameKind::User, "/usr/bin/app", "write_byte", 0x1300);
    frame(KsysWriteFrame, FrameKind::Kernel, "vmlinux", "ksys_write", 0xffffffff81400000);
    frame(PipeWriteFrame, FrameKind::Kernel, "vmlinux", "pipe_write", 0xffffffff81500000);
    frame(TryToWakeUpFrame, FrameKind::Kernel, "vmlinux", "try_to_wake_up", 0xffffffff81600000);
    frame(HrtimerWakeupFrame, FrameKind::Kernel, "vmlinux", "hrtimer_wakeup", 0xffffffff81700000);
    frame(OtherWaitFrame, FrameKind::User, "/usr/bin/app", "other_wait", 0x1400);
    b.stacks.append(
        {ReaderStack, 0, {ScheduleFrame, PipeReadFrame, KsysReadFrame, ReadLoopFrame, MainFrame}});
    b.stacks.append(
        {WriterStack,
         0,
         {TryToWakeUpFrame, PipeWriteFrame, KsysWriteFrame, WriteByteFrame, MainFrame}});
    b.stacks.append({IrqStack, NoUserStack, {TryToWakeUpFrame, HrtimerWakeupFrame}});
    b.stacks.append({OtherStack, 0, {ScheduleFrame, OtherWaitFrame, MainFrame}});
    auto wait = [&](quint64 atMs, quint64 offMs, quint32 pid, const char *comm, quint32 stack,
                    quint32 wakerPid, const char *wakerComm, quint32 wakerStack) {
        OffWakeEvent e;
        e.timeNs = StartNs + atMs * MsNs;
        e.offNs = offMs * MsNs;
        e.pid = e.tid = pid;
        e.comm = comm;
        e.stackId = stack;
        e.wakeNs = wakerComm[0] ? e.timeNs + e.offNs - 20'000 : 0;
        e.wakerPid = e.wakerTid = wakerPid;
        e.wakerComm = wakerComm;
        e.wakerStackId = wakerStack;
        b.events<OffWakeEvent>().append(e);
    };
    wait(0, 300, 200, "reader", ReaderStack, 300, "writer", WriterStack);
    wait(300, 300, 200, "reader", ReaderStack, 300, "writer", WriterStack);
    wait(600, 300, 200, "reader", ReaderStack, 300, "writer", WriterStack);
    wait(900, 100, 200, "reader", ReaderStack, 0, "[irq]", IrqStack);
    wait(1000, 50, 200, "reader", ReaderStack, 0, "", 0);
    wait(1050, 150, 400, "other", OtherStack, 300, "writer", WriterStack);
    return b;
}

QList<OffWakeSpan> spansOf(const SessionData &d, qint64 pid = -1)
{
    QList<OffWakeSpan> spans;
    for (qsizetype i = 0; i < d.events.count(EventType::OffWake); ++i) {
        const OffWakeEvent e = d.events.event<OffWakeEvent>(i);
        if (pid >= 0 && e.pid != quint32(pid))
            continue;
        spans.append({e.stackId, e.wakerStackId, e.comm, e.wakerComm, e.offNs});
    }
    return spans;
}

// "line" -> weight of folded text.
QMap<QByteArray, quint64> parseFolded(const QByteArray &folded)
{
    QMap<QByteArray, quint64> lines;
    for (const QByteArray &line : folded.split('\n')) {
        if (line.isEmpty())
            continue;
        const qsizetype space = line.lastIndexOf(' ');
        lines[line.left(space)] += line.mid(space + 1).toULongLong();
    }
    return lines;
}

struct Fixture
{
    SessionModel session;
    ViewState state;
    ProfilePage page{&session, &state};

    explicit Fixture(SessionData data)
    {
        session.setSession(std::move(data));
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        page.resize(1200, 700);
        page.show();
        page.refresh();
    }
    FlameGraphView *flame() const { return page.flameGraph(); }
    const CallTree &tree() const { return page.profile()->topDown; }
    const StackTable &stacks() const { return page.profile()->stacks(session.stacks()); }
    QByteArray nameOf(qint32 node) const
    {
        QByteArray name = flame()->frameName(node).toUtf8();
        // The GUI's names for the folded form's "--" and "[unknown waker]".
        if (name == ProfileText::offWakeNames().separator)
            return "--";
        if (name == ProfileText::offWakeNames().unknownWaker)
            return "[unknown waker]";
        return name;
    }
    // The tree as folded lines: every path to a node with self cost, root first.
    QMap<QByteArray, quint64> treeLines() const
    {
        QMap<QByteArray, quint64> lines;
        const CallTree &t = tree();
        for (qint32 n = 1; n < t.size(); ++n) {
            if (!t.node(n).self)
                continue;
            QList<QByteArray> names;
            for (qint32 p : t.pathTo(n))
                names << nameOf(p);
            lines[names.join(';')] += t.node(n).self;
        }
        return lines;
    }
    // The node reached by the names from the root, -1 if none.
    qint32 nodeOf(const QList<QByteArray> &names) const
    {
        const CallTree &t = tree();
        qint32 at = 0;
        for (const QByteArray &name : names) {
            qint32 next = -1;
            for (qint32 c : t.node(at).children) {
                if (nameOf(c) == name)
                    next = c;
            }
            if (next < 0)
                return -1;
            at = next;
        }
        return at;
    }
};

const QList<QByteArray> ReaderPath{"reader",    "main",      "read_loop",
                                   "ksys_read", "pipe_read", "schedule"};

QList<QByteArray> plus(QList<QByteArray> path, std::initializer_list<QByteArray> more)
{
    path.append(more);
    return path;
}

} // namespace

class TestOffWakeFlame : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QLocale::setDefault(QLocale::c());
        // English plural forms ("6 waits") are a translation too.
        installTranslations(QLocale::c()); // false for C, with English installed
        QVERIFY(m_dir.isValid());
        // A real session file, written and read back as the GUI opens one.
        m_path = m_dir.filePath(QStringLiteral("offwake.bpflens"));
        SessionInfo info = sessionInfoForThisHost(
            {{QString::fromLatin1(EventTraits<OffWakeEvent>::probeId), {}, {}}});
        info.startMonotonicNs = StartNs;
        SessionWriter writer;
        QString error;
        QVERIFY2(writer.create(m_path, info, &error), qPrintable(error));
        QVERIFY2(writer.writeBatch(offWakeBatch(), &error), qPrintable(error));
        QVERIFY2(writer.finish(StartNs + 1300 * MsNs, &error), qPrintable(error));
        writer.close();
    }

    SessionData load()
    {
        SessionData data;
        QString error;
        if (!SessionReader::open(m_path, &data, &error))
            qWarning("%s", qPrintable(error));
        return data;
    }

    void kindOfferedOnlyWithOffWakeEvents()
    {
        Fixture without{test::profileSession()};
        QCOMPARE(without.page.kindCombo()->findData(int(ProfileKind::OffWake)), -1);
        without.page.setKind(ProfileKind::OffWake);
        QVERIFY(without.page.kind() != ProfileKind::OffWake);

        Fixture with{load()};
        const int at = with.page.kindCombo()->findData(int(ProfileKind::OffWake));
        QVERIFY(at >= 0);
        QCOMPARE(with.page.kindCombo()->itemText(at), QStringLiteral("Off-wake"));
        // Without CPU samples or off-CPU events the page opens on the kind the session has.
        QCOMPARE(with.page.kind(), ProfileKind::OffWake);
        with.page.setKind(ProfileKind::OnCpu);
        with.page.refresh();
        QVERIFY(with.page.isShowingEmptyState());
        with.page.setKind(ProfileKind::OffWake);
        with.page.refresh();
        QCOMPARE(with.page.kind(), ProfileKind::OffWake);
        QVERIFY(!with.page.isShowingEmptyState());
        // The page says what it shows.
        QVERIFY2(with.page.statusLabel()->text().startsWith(
                     QStringLiteral("Off-wake time in range: 1.200 s (6 waits)")),
                 qPrintable(with.page.statusLabel()->text()));
        QVERIFY2(with.page.statusLabel()->text().contains(QStringLiteral("1.200 s (6 waits)")),
                 qPrintable(with.page.statusLabel()->text()));
        QCOMPARE(with.flame()->accessibleName(), QStringLiteral("Off-wake flame graph"));
    }

    void flameGraphIsTheFoldedExport()
    {
        Fixture f{load()};
        f.page.setKind(ProfileKind::OffWake);
        f.page.refresh();
        const QByteArray folded =
            offWakeFoldedStacks(f.session.stacks(), spansOf(f.session.data()), StackPart::Both, 1);
        QCOMPARE(f.treeLines(), parseFolded(folded));
        // The shape people know: the blocked stack root first, the separator above its leaf,
        // the waker's leaf next to it and its root, then its comm, on top.
        QList<QByteArray> path = ReaderPath;
        path << "--"
             << "try_to_wake_up"
             << "pipe_write"
             << "ksys_write"
             << "write_byte"
             << "main"
             << "writer";
        QCOMPARE(f.treeLines().value(path.join(';')), 900 * MsNs);
        double y = 1e9;
        const double w = f.flame()->width();
        for (qsizetype i = 1; i <= path.size(); ++i) {
            const QRectF r = f.flame()->nodeRect(f.nodeOf(path.mid(0, i)));
            QVERIFY2(!r.isEmpty(), path.mid(0, i).join(';').constData());
            QVERIFY2(r.top() < y, "each frame is drawn above its caller");
            y = r.top();
        }
        // Widths are the folded lines' weights: the leaf of every line (a comm, or the
        // unknown waker) is as wide as its share of the off-CPU time.
        const auto lines = parseFolded(folded);
        for (auto it = lines.cbegin(); it != lines.cend(); ++it) {
            const QRectF r = f.flame()->nodeRect(f.nodeOf(it.key().split(';')));
            QVERIFY2(!r.isEmpty(), it.key().constData());
            QCOMPARE(r.width(), w * double(it.value()) / double(1200 * MsNs));
        }
        QCOMPARE(f.flame()->frameName(f.nodeOf(plus(ReaderPath, {"--"}))),
                 QStringLiteral("woken by"));
        QCOMPARE(f.flame()->frameName(f.nodeOf(plus(ReaderPath, {"--", "[unknown waker]"}))),
                 QStringLiteral("[waker not seen]"));

        // Kernel only: the folded export's --kernel-only lines.
        f.page.setStackPart(StackPart::KernelOnly);
        f.page.refresh();
        QCOMPARE(f.treeLines(),
                 parseFolded(offWakeFoldedStacks(f.session.stacks(), spansOf(f.session.data()),
                                                 StackPart::KernelOnly, 1)));
        QVERIFY(f.nodeOf({"reader", "ksys_read", "pipe_read", "schedule", "--", "try_to_wake_up",
                          "pipe_write", "ksys_write", "writer"}) > 0);
    }

    void wakerFramesInWakerColours()
    {
        Fixture f{load()};
        f.page.setKind(ProfileKind::OffWake);
        f.page.refresh();
        const QImage image = f.flame()->grab().toImage();
        const qreal dpr = image.devicePixelRatio();
        auto pixelOf = [&](const QList<QByteArray> &path) {
            const QRectF r = f.flame()->nodeRect(f.nodeOf(path));
            // Left of the label, half way up.
            return image.pixelColor(QPoint(int((r.left() + 1) * dpr), int(r.center().y() * dpr)));
        };
        QList<QByteArray> waker = ReaderPath;
        waker << "--"
              << "try_to_wake_up";
        const QColor wakerKernel = pixelOf(waker);
        const QColor wakerUser = pixelOf(plus(waker, {"pipe_write", "ksys_write", "write_byte"}));
        const QColor blockedKernel = pixelOf(ReaderPath.mid(0, 5)); // pipe_read
        const QColor blockedUser = pixelOf(ReaderPath.mid(0, 3));   // read_loop
        const QColor separator = pixelOf(plus(ReaderPath, {"--"}));
        for (const QColor &c : {wakerKernel, wakerUser})
            QVERIFY2(FlameGraphView::isWakerHue(c), qPrintable(c.name()));
        for (const QColor &c : {blockedKernel, blockedUser, separator})
            QVERIFY2(!FlameGraphView::isWakerHue(c), qPrintable(c.name()));
        QCOMPARE(separator, FlameGraphView::SeparatorColor);
        // The same function below the separator is a blocked frame, above it a waker's: main.
        const QColor wakerMain =
            pixelOf(plus(waker, {"pipe_write", "ksys_write", "write_byte", "main"}));
        const QColor blockedMain = pixelOf(ReaderPath.mid(0, 2));
        QVERIFY2(FlameGraphView::isWakerHue(wakerMain), qPrintable(wakerMain.name()));
        QVERIFY2(!FlameGraphView::isWakerHue(blockedMain), qPrintable(blockedMain.name()));
    }

    void toolTipsSayWhoseFrame()
    {
        Fixture f{load()};
        f.page.setKind(ProfileKind::OffWake);
        f.page.refresh();
        auto tipOf = [&](const QList<QByteArray> &path) {
            const auto *box = f.flame()->boxAt(f.flame()->nodeRect(f.nodeOf(path)).center());
            return box ? f.flame()->toolTipFor(*box) : QString();
        };
        QList<QByteArray> waker = ReaderPath;
        waker << "--"
              << "try_to_wake_up"
              << "pipe_write";
        const QString wakerTip = tipOf(waker);
        QVERIFY2(wakerTip.contains(QStringLiteral("Waker's frame")), qPrintable(wakerTip));
        QVERIFY2(wakerTip.contains(QStringLiteral("Ended 900.00 ms of off-CPU time (75.0%)")),
                 qPrintable(wakerTip));
        QVERIFY2(wakerTip.contains(QStringLiteral("Kernel: vmlinux")), qPrintable(wakerTip));
        const QString blockedTip = tipOf(ReaderPath.mid(0, 5));
        QVERIFY2(blockedTip.contains(QStringLiteral("Blocked thread's frame")),
                 qPrintable(blockedTip));
        QVERIFY2(!blockedTip.contains(QStringLiteral("Waker")), qPrintable(blockedTip));
        const QString sepTip = tipOf(plus(ReaderPath, {"--"}));
        QVERIFY2(sepTip.contains(QStringLiteral("woken by")), qPrintable(sepTip));
        QVERIFY2(sepTip.contains(QStringLiteral("Ended 1.050 s of off-CPU time")),
                 qPrintable(sepTip));
        QVERIFY2(tipOf(plus(waker, {"ksys_write", "write_byte", "main", "writer"}))
                     .contains(QStringLiteral("The waker's command")),
                 "the waker's comm is named as such");
    }

    void filterAndSearchApply()
    {
        Fixture f{load()};
        f.page.setKind(ProfileKind::OffWake);
        EventFilter filter;
        filter.pid = 400;
        f.state.setFilter(filter);
        f.page.refresh();
        QCOMPARE(f.treeLines(),
                 parseFolded(offWakeFoldedStacks(f.session.stacks(), spansOf(f.session.data(), 400),
                                                 StackPart::Both, 1)));
        QCOMPARE(f.page.profile()->total, 150 * MsNs);
        f.state.setFilter({});
        f.page.refresh();
        f.page.searchEdit()->setText(QStringLiteral("pipe_write"));
        QCOMPARE(f.flame()->searchMatchTotal(), 1050 * MsNs);
        QCOMPARE(f.page.searchLabel()->text(),
                 QStringLiteral("pipe_write: 87.5% of off-CPU time (1.050 s)"));
        // A zoom survives a new range: the comms and the separator keep their frame ids (in
        // this range "other" would be the first comm made, where it was the last).
        const QList<QByteArray> other{"other", "main", "other_wait", "schedule", "--"};
        f.flame()->zoomTo(f.nodeOf(other));
        QVERIFY(f.flame()->zoomNode() > 0);
        f.state.setRange(StartNs + 1050 * MsNs, StartNs + 1300 * MsNs);
        f.page.refresh();
        QCOMPARE(f.page.profile()->total, 150 * MsNs);
        QVERIFY(f.flame()->zoomNode() > 0);
        QCOMPARE(f.flame()->zoomNode(), f.nodeOf(other));
        f.flame()->resetZoom();
        f.state.resetRange();
        f.page.refresh();
        QVERIFY(f.nodeOf(plus(ReaderPath, {"--", "try_to_wake_up", "pipe_write"})) > 0);
        // A function picked in the off-wake graph is the same function in the off-CPU kinds'
        // views: code frames keep the session's ids.
        const quint32 pipeWrite =
            f.tree().node(f.nodeOf(plus(ReaderPath, {"--", "try_to_wake_up", "pipe_write"}))).frame;
        QCOMPARE(pipeWrite, quint32(PipeWriteFrame));
        // Switching kinds and back keeps the page consistent.
        f.page.setKind(ProfileKind::OnCpu);
        f.page.refresh();
        QVERIFY(f.page.isShowingEmptyState());
        f.page.setKind(ProfileKind::OffWake);
        f.page.refresh();
        QCOMPARE(f.page.profile()->total, 1200 * MsNs);
    }

    void treeModelsPassTheTester()
    {
        Fixture f{load()};
        f.page.setKind(ProfileKind::OffWake);
        f.page.treeTabs()->setCurrentWidget(f.page.bottomUpView());
        f.page.refresh();
        QVERIFY(f.page.profile()->hasBottomUp);
        CallTreeModel topDown(CallTree::Direction::TopDown);
        CallTreeModel bottomUp(CallTree::Direction::BottomUp);
        FunctionListModel functions;
        QAbstractItemModelTester t1(&topDown,
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester t2(&bottomUp,
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
        QAbstractItemModelTester t3(&functions,
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
        topDown.setProfile(f.page.profile(), &f.stacks());
        bottomUp.setProfile(f.page.profile(), &f.stacks());
        functions.setProfile(f.page.profile(), &f.stacks());
        QCOMPARE(topDown.index(0, 0).data().toString(), QStringLiteral("reader"));
        // Bottom-up starts from the line's last frames: the comms of the wakers.
        QSet<QString> leaves;
        for (int r = 0; r < bottomUp.rowCount(); ++r)
            leaves << bottomUp.index(r, 0).data().toString();
        QCOMPARE(leaves, (QSet<QString>{QStringLiteral("writer"), QStringLiteral("[irq]"),
                                        QStringLiteral("[waker not seen]")}));
        topDown.setProfile(nullptr, nullptr);
        bottomUp.setProfile(nullptr, nullptr);
        functions.setProfile(nullptr, nullptr);
    }

    void exportWritesTheFoldedForm()
    {
        QMainWindow window;
        SessionModel session;
        ViewState state;
        session.setSession(load(), m_path);
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        ExportController exports(&session, &state, &window, [] { return nullptr; });
        QVERIFY(exports.offWakeAction()->isEnabled());
        const QString out = m_dir.filePath(QStringLiteral("ow.folded"));
        QString error;
        QVERIFY2(exports.exportOffWakeFolded(out, &error), qPrintable(error));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray written = file.readAll();
        // The CLI's form: offwaketime -f, microseconds.
        QCOMPARE(written, offWakeFoldedStacks(session.stacks(), spansOf(session.data())));
        QVERIFY2(written.contains("reader;main;read_loop;ksys_read;pipe_read;schedule;--;"
                                  "try_to_wake_up;pipe_write;ksys_write;write_byte;main;writer "
                                  "900000\n"),
                 written.constData());
        // The visible range limits it as it limits the flame graph.
        state.setRange(StartNs + 1000 * MsNs, StartNs + 1100 * MsNs);
        QVERIFY2(exports.exportOffWakeFolded(out, &error), qPrintable(error));
        file.close();
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(),
                 QByteArray("other;main;other_wait;schedule;--;try_to_wake_up;pipe_write;"
                            "ksys_write;write_byte;main;writer 150000\n"
                            "reader;main;read_loop;ksys_read;pipe_read;schedule;--;"
                            "[unknown waker] 50000\n"));

        SessionModel plain;
        plain.setSession(test::profileSession());
        ExportController none(&plain, &state, &window, [] { return nullptr; });
        QVERIFY(!none.offWakeAction()->isEnabled());
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

QTEST_MAIN(TestOffWakeFlame)
#include "tst_offwakeflame.moc"
