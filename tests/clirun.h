#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

// One run of a command-line program as a user runs it: its exit status (-1 when it crashed or
// outlived timeoutMs) and what it wrote.
namespace bpflens::test {

struct CliRun
{
    int status = -1;
    QByteArray out;
    QByteArray err;
};

inline CliRun runCli(const QString &program, const QStringList &args, int timeoutMs = 120000)
{
    CliRun r;
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace bpflens::test
