#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStandardPaths>

namespace bpflens::test {

struct PromtoolResult
{
    bool accepted = false;
    QByteArray said; // promtool's findings or errors
};

// Runs `promtool check metrics` (Debian package prometheus) on an exposition. It parses the
// 0.0.4 text format, which OpenMetrics extends: no findings at all for that. OpenMetrics must
// parse too (exit 1 is a parse error), and its one lint finding is the spec's own rule: a
// counter's HELP names the family (foo) and its sample is foo_total, which promtool's 0.0.4
// linter reads as a sample without help.
inline PromtoolResult promtoolCheck(const QString &promtool, const QByteArray &body,
                                    bool openMetrics)
{
    PromtoolResult r;
    QProcess p;
    p.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
    if (!p.waitForStarted()) {
        r.said = "promtool did not start";
        return r;
    }
    p.write(body);
    p.closeWriteChannel();
    if (!p.waitForFinished(30000)) {
        r.said = "promtool did not finish";
        return r;
    }
    r.said = p.readAllStandardOutput() + p.readAllStandardError();
    if (!openMetrics) {
        r.accepted = p.exitCode() == 0 && r.said.trimmed().isEmpty();
        return r;
    }
    if (p.exitCode() != 0 && p.exitCode() != 3)
        return r;
    for (const QByteArray &finding : r.said.trimmed().split('\n')) {
        if (finding.isEmpty())
            continue;
        const qsizetype at = finding.indexOf("_total no help text");
        if (at < 0 || at + 19 != finding.size())
            return r;
        const QByteArray family = finding.left(at);
        if (!body.contains("# HELP " + family + ' ') ||
            !body.contains("# TYPE " + family + " counter\n"))
            return r;
    }
    r.accepted = true;
    return r;
}

} // namespace bpflens::test
