// Inlined frames and source lines in a real recording (issues #29 and #32; root: loads the
// profile probe). bpflens-cli records while inlinechain spins in inline_spin, an always_inline
// function compiled into inline_caller (-O2 -g): the session's stacks must hold inline_spin as a
// frame of its own, marked inlined, at the loop's line in inlinechain.c, before inline_caller at
// the line of its call; the details pane of a selected sample (a real widget) lists both with
// their file:line and the inlined mark; the folded export shows "inline_spin (inlined)"; and the
// real `go tool pprof` shows the inline chain (-traces), the file and the lines (-lines -top).
#include "tests/clirun.h"
#include "tests/gopprof.h"
#include "tests/inlinechain.h"
#include "tests/testutil.h"

#include "core/sessionstore.h"

#ifdef BPFLENS_TEST_GUI
#include "gui/detailspane.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/stackframes.h"
#include "gui/models/viewstate.h"

#include <QTreeView>
#endif

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace bpflens;
using namespace bpflens::test;

namespace {

CliRun cli(const QStringList &args)
{
    return runCli(QStringLiteral(BPFLENS_CLI), args);
}

// The index in a stack (leaf first) of the inline_spin frame followed by inline_caller, as the
// inline chain must be; -1 when the stack has no such pair.
qsizetype inlinePair(const StackTable &stacks, quint32 stackId)
{
    if (!stacks.hasStack(stackId))
        return -1;
    const QList<quint32> &frames = stacks.stack(stackId).frames;
    for (qsizetype i = 0; i + 1 < frames.size(); ++i) {
        if (stacks.frame(frames[i]).symbol == "inline_spin" &&
            stacks.frame(frames[i + 1]).symbol == "inline_caller")
            return i;
    }
    return -1;
}

QString describe(const StackTable &stacks, quint32 stackId)
{
    QStringList names;
    for (quint32 f : stacks.stack(stackId).frames)
        names << stacks.frameName(f) + QLatin1Char(' ') + stacks.sourceLocation(f);
    return names.join(QStringLiteral(" <- "));
}

} // namespace

class TestInlineFrames : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realRecordingHasInlinedFrames();
};

void TestInlineFrames::realRecordingHasInlinedFrames()
{
    BPFLENS_REQUIRE_ROOT("records the profile probe in-process");
    const quint32 loopLine = inlineChainLine("LINE_LOOP");
    const quint32 spinLine = inlineChainLine("LINE_SPIN");
    const quint32 callLine = inlineChainLine("LINE_CALL");
    QVERIFY(loopLine && spinLine && callLine);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString session = dir.filePath(QStringLiteral("inline.bpflens"));
    QProcess recorder;
    recorder.start(QStringLiteral(BPFLENS_CLI),
                   {QStringLiteral("record"), QStringLiteral("--direct"), QStringLiteral("--probe"),
                    QStringLiteral("profile"), QStringLiteral("-o"), session});
    for (int i = 0; i < 3000 && !QFile::exists(session) && recorder.state() != QProcess::NotRunning;
         ++i)
        QTest::qWait(20);
    QVERIFY2(QFile::exists(session), recorder.readAllStandardError().constData());
    QProcess program;
    program.start(QStringLiteral(BPFLENS_TEST_PROGRAMS "/inlinechain"), {QStringLiteral("3")});
    QVERIFY(program.waitForStarted());
    QVERIFY(program.waitForFinished(60000));
    QCOMPARE(program.exitCode(), 0);
    ::kill(pid_t(recorder.processId()), SIGINT);
    QVERIFY(recorder.waitForFinished(60000));
    QVERIFY2(recorder.exitCode() == 0, recorder.readAllStandardError().constData());

    // The session: nearly every sample of the program is in the loop, inline_spin inlined at
    // LINE_SPIN, inline_caller (a real call) at LINE_CALL.
    SessionData data;
    QString error;
    QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
    qsizetype samples = 0, inlined = 0, sample = -1;
    [[maybe_unused]] quint32 sampleLine = 0; // (for the window's part, built with the widgets)
    qint64 pid = -1;
    QString other;
    for (qsizetype i = 0; i < data.events.count(EventType::CpuSample); ++i) {
        if (data.events.value<&CpuSampleEvent::comm>(i) != "inlinechain")
            continue;
        pid = data.events.value<&CpuSampleEvent::pid>(i);
        ++samples;
        const quint32 stackId = data.events.value<&CpuSampleEvent::stackId>(i);
        const qsizetype at = inlinePair(data.stacks, stackId);
        if (at < 0) {
            other = describe(data.stacks, stackId);
            continue;
        }
        const QList<quint32> &frames = data.stacks.stack(stackId).frames;
        const StackFrame &spin = data.stacks.frame(frames[at]);
        const StackFrame &caller = data.stacks.frame(frames[at + 1]);
        QVERIFY(spin.inlined);
        QVERIFY(!caller.inlined);
        QCOMPARE(spin.kind, FrameKind::User);
        QVERIFY2(isInlineChainSource(spin.file), spin.file.constData());
        QVERIFY2(isInlineChainSource(caller.file), caller.file.constData());
        QCOMPARE(caller.line, callLine);
        QCOMPARE(spin.module, caller.module);
        QCOMPARE(spin.address, caller.address); // inline_caller's start
        if (spin.line == loopLine || spin.line == spinLine) {
            ++inlined;
            if (at == 0 && sample < 0) {
                sample = i;
                sampleLine = spin.line;
            }
        }
    }
    qInfo("%lld samples of inlinechain, %lld in inline_spin at lines %u-%u (frames %lld, "
          "stacks %lld)",
          qlonglong(samples), qlonglong(inlined), loopLine, spinLine,
          qlonglong(data.stacks.frameCount()), qlonglong(data.stacks.stackCount()));
    QVERIFY2(samples >= 50, "too few samples of inlinechain");
    QVERIFY2(inlined >= samples * 8 / 10, qPrintable(other));
    QVERIFY(sample >= 0);

    // The folded stacks (flame graph input) name the inlined frame as perf does.
    CliRun folded = cli({QStringLiteral("export"), session, QStringLiteral("--folded")});
    QVERIFY2(folded.status == 0, folded.err.constData());
    QVERIFY2(folded.out.contains(";inline_caller;inline_spin (inlined) "),
             folded.out.left(3000).constData());

    // pprof: the inline chain in one location, innermost first, with files and lines.
    if (goTool().isEmpty()) {
        if (qEnvironmentVariableIsSet("CI"))
            QFAIL("go is missing (Debian package golang-go; see .ci/deps --tests)");
        QSKIP("go tool pprof is not installed (Debian package golang-go)");
    }
    const QString pprof = dir.filePath(QStringLiteral("inline.pb.gz"));
    CliRun r = cli({QStringLiteral("export"), session, QStringLiteral("--pprof"), pprof,
                    QStringLiteral("--pid"), QString::number(pid)});
    QVERIFY2(r.status == 0, r.err.constData());
    const PprofRun traces = goPprof({QStringLiteral("-traces"), pprof}, dir.path());
    QVERIFY2(traces.status == 0, qPrintable(traces.said()));
    bool chainSeen = false;
    for (const Trace &t : parseTraces(traces.out)) {
        for (qsizetype i = 0; i + 1 < t.frames.size(); ++i) {
            chainSeen = chainSeen || (t.frames[i].startsWith(QLatin1String("inline_spin")) &&
                                      t.frames[i + 1] == QLatin1String("inline_caller"));
        }
    }
    QVERIFY2(chainSeen, traces.out.left(4000).constData());
    const PprofRun lines = goPprof({QStringLiteral("-top"), QStringLiteral("-lines"),
                                    QStringLiteral("-sample_index=samples"), pprof},
                                   dir.path());
    QVERIFY2(lines.status == 0, qPrintable(lines.said()));
    // pprof -lines: inline_spin at the loop's lines, in inlinechain.c.
    QVERIFY2(lines.out.contains("inline_spin ") &&
                 (lines.out.contains("inlinechain.c:" + QByteArray::number(spinLine)) ||
                  lines.out.contains("inlinechain.c:" + QByteArray::number(loopLine))),
             lines.out.left(3000).constData());
    const QByteArray raw = goPprof({QStringLiteral("-raw"), pprof}, dir.path()).out;
    QVERIFY2(raw.contains("inline_spin") &&
                 raw.contains("inlinechain.c:" + QByteArray::number(callLine)),
             raw.left(4000).constData());

#ifdef BPFLENS_TEST_GUI
    // The details pane of the selected sample: inline_spin with its file:line, marked inlined;
    // inline_caller after it, a real call; each cell readable whole.
    SessionModel model;
    ViewState state;
    DetailsPane details(&model, &state);
    model.setSession(std::move(data), session);
    state.setFullRange(model.firstTimeNs(), model.endTimeNs());
    details.resize(420, 600);
    details.show();
    QVERIFY(QTest::qWaitForWindowExposed(&details));
    state.setSelectedEvent({EventType::CpuSample, sample});
    QTest::qWait(100); // the frames view, hidden without a selection, is laid out
    QTreeView *view = details.framesView();
    QVERIFY(view->isVisible());
    const QAbstractItemModel *m = view->model();
    const auto cell = [&](int row, int column) { return m->index(row, column).data().toString(); };
    QCOMPARE(cell(0, StackFramesModel::FunctionColumn), QStringLiteral("inline_spin"));
    QCOMPARE(cell(0, StackFramesModel::ModuleColumn), QStringLiteral("inlinechain"));
    QCOMPARE(cell(0, StackFramesModel::SourceColumn),
             QStringLiteral("inlinechain.c:%1").arg(sampleLine));
    QCOMPARE(cell(0, StackFramesModel::KindColumn), QStringLiteral("user, inlined"));
    QVERIFY(m->index(0, 0).data(StackFramesModel::IsInlinedRole).toBool());
    QCOMPARE(cell(1, StackFramesModel::FunctionColumn), QStringLiteral("inline_caller"));
    QCOMPARE(cell(1, StackFramesModel::SourceColumn),
             QStringLiteral("inlinechain.c:%1").arg(callLine));
    QCOMPARE(cell(1, StackFramesModel::KindColumn), QStringLiteral("user"));
    QVERIFY(!view->isColumnHidden(StackFramesModel::SourceColumn));
    for (int c : {int(StackFramesModel::FunctionColumn), int(StackFramesModel::SourceColumn),
                  int(StackFramesModel::KindColumn)}) {
        const QModelIndex i = m->index(0, c);
        const QRect rect = view->visualRect(i);
        QVERIFY2(view->viewport()->rect().contains(rect),
                 qPrintable(QStringLiteral("%1: %2,%3 %4x%5 in a %6x%7 view")
                                .arg(i.data().toString())
                                .arg(rect.x())
                                .arg(rect.y())
                                .arg(rect.width())
                                .arg(rect.height())
                                .arg(view->viewport()->width())
                                .arg(view->viewport()->height())));
        QVERIFY2(
            view->fontMetrics().horizontalAdvance(i.data().toString()) < rect.width(),
            qPrintable(QStringLiteral("%1 in %2 px").arg(i.data().toString()).arg(rect.width())));
    }
    const QString tip =
        m->index(0, StackFramesModel::SourceColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("line %1").arg(sampleLine)) &&
                 tip.contains(QStringLiteral("Inlined")),
             qPrintable(tip));
#endif
}

QTEST_MAIN(TestInlineFrames)
#include "tst_inlineframes.moc"
