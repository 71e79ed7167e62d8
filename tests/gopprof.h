#pragma once

#include <QByteArray>
#include <QHash>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

// `go tool pprof` (Debian's golang-go) as a user runs it, for the tests of the pprof export: the
// real reader of the format, not a decoder of our own.
namespace bpflens::test {

inline QString goTool()
{
    return QStandardPaths::findExecutable(QStringLiteral("go"));
}

struct PprofRun
{
    int status = -1;
    QByteArray out;
    QByteArray err;
    QString said() const
    {
        return QStringLiteral("go tool pprof exited with %1: %2")
            .arg(status)
            .arg(QString::fromUtf8(err.left(2000)));
    }
};

// Runs `go tool pprof ARGS`. pprof keeps what it fetches in $PPROF_TMPDIR (else $HOME/pprof):
// tmpDir, so a test leaves nothing behind.
inline PprofRun goPprof(const QStringList &args, const QString &tmpDir, int timeoutMs = 120000)
{
    PprofRun r;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PPROF_TMPDIR"), tmpDir);
    env.insert(QStringLiteral("HOME"), tmpDir);
    env.insert(QStringLiteral("GOCACHE"), tmpDir + QStringLiteral("/gocache"));
    p.setProcessEnvironment(env);
    p.start(goTool(), QStringList{QStringLiteral("tool"), QStringLiteral("pprof")} + args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "did not finish in time";
        return r;
    }
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return r;
}

// One row of `pprof -top`: "flat flat% sum% cum cum%  name".
struct TopRow
{
    QString flat;
    double flatPercent = 0;
    QString cum;
    double cumPercent = 0;
};

// The rows of -top by function name.
inline QHash<QString, TopRow> parseTop(const QByteArray &out)
{
    QHash<QString, TopRow> rows;
    static const QRegularExpression row(
        QStringLiteral("^\\s*(\\S+)\\s+([0-9.]+)%\\s+[0-9.]+%\\s+(\\S+)\\s+([0-9.]+)%\\s+(.+)$"));
    for (const QByteArray &line : out.split('\n')) {
        const auto m = row.match(QString::fromUtf8(line));
        if (m.hasMatch())
            rows.insert(m.captured(5).trimmed(), {m.captured(1), m.captured(2).toDouble(),
                                                  m.captured(3), m.captured(4).toDouble()});
    }
    return rows;
}

// The stacks of `pprof -traces`, root last as printed (leaf first), each with its labels
// ("comm" -> "app") and its value as printed.
struct Trace
{
    QHash<QString, QString> labels;
    QString value;
    QStringList frames;
};

inline QList<Trace> parseTraces(const QByteArray &out)
{
    QList<Trace> traces;
    Trace t;
    bool in = false;
    static const QRegularExpression label(QStringLiteral("^\\s*(\\w+):\\s+(.*)$"));
    static const QRegularExpression first(QStringLiteral("^\\s*(\\S+)\\s{2,}(\\S.*)$"));
    for (const QByteArray &raw : out.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.startsWith(QLatin1String("-----------+"))) {
            if (in && !t.frames.isEmpty())
                traces.append(t);
            t = Trace{};
            in = true;
            continue;
        }
        if (!in || line.trimmed().isEmpty())
            continue;
        if (t.frames.isEmpty()) {
            if (const auto m = label.match(line); m.hasMatch() && t.value.isEmpty()) {
                t.labels.insert(m.captured(1), m.captured(2).trimmed());
                continue;
            }
            if (const auto m = first.match(line); m.hasMatch()) {
                t.value = m.captured(1);
                t.frames.append(m.captured(2).trimmed());
            }
            continue;
        }
        t.frames.append(line.trimmed());
    }
    if (in && !t.frames.isEmpty())
        traces.append(t);
    return traces;
}

} // namespace bpflens::test
