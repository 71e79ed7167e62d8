// Every declared probe (core/probes.h) through what shows a probe's records outside its own
// views: the stream protocol, the Prometheus metrics, bpflens-cli show. The records come from
// the declarations (everyprobe.h), so a new probe is covered the day it is declared; a path that
// forgets a probe or its counters fails with the probe's id.
#include "core/openmetrics.h"
#include "core/protocol.h"
#include "core/sessionstore.h"
#include "tests/everyprobe.h"

#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr quint64 Start = 1'000'000'000;

SessionInfo sessionInfo()
{
    SessionInfo info;
    info.schemaVersion = SessionSchemaVersion;
    info.appVersion = QStringLiteral("test");
    info.host = QStringLiteral("host");
    info.kernelRelease = QStringLiteral("6.18");
    info.startWall = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
    info.startMonotonicNs = Start;
    info.probes = everyProbeConfig();
    return info;
}

QList<CounterSample> countersOf(const RecordBatch &b, const QString &probeId)
{
    QList<CounterSample> out;
    for (const CounterSample &c : b.counters) {
        if (c.probeId == probeId)
            out << c;
    }
    return out;
}

QString number(double v)
{
    return QString::number(v, 'g', 17);
}

} // namespace

class TestEveryProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyProbeIsDeclaredCompletely()
    {
        QSet<QString> ids;
        for (const ProbeInfo &p : ProbeCatalog::probes()) {
            const QByteArray idText = p.id.toUtf8();
            const char *id = idText.constData();
            QVERIFY2(!ids.contains(p.id), id);
            ids << p.id;
            QVERIFY2(!p.title.isEmpty() && !p.description.isEmpty(), id);
            QVariantMap normalized;
            QString error;
            QVERIFY2(ProbeCatalog::validate(p.id, {}, &normalized, &error),
                     qPrintable(p.id + QLatin1Char(' ') + error));
            QVERIFY2(p.producesEvents || p.producesHistograms || !p.counters.isEmpty() ||
                         p.isKeyed() || p.metrics.counters != ProbeMetrics::Counters::Reported,
                     qPrintable(p.id + QStringLiteral(" declares nothing it reports")));
            for (EventType t : p.eventTypes)
                QCOMPARE(QString::fromLatin1(probeIdOf(t)), p.id);
            for (const ProbeCounter &c : p.counters) {
                QVERIFY2(!c.name.isEmpty() && !c.text.isEmpty(), id);
                if (c.role == ProbeCounter::Role::Loss)
                    QVERIFY2(c.text.contains(QLatin1String("%1")), qPrintable(c.name));
            }
            if (p.isKeyed())
                QVERIFY2(!p.keyed.chartYTitle.isEmpty(), id);
            QVERIFY2(!p.keyed.tableTitle || p.isKeyed(), id);
            for (const ProbeHookOption &h : p.hooks)
                QVERIFY2(p.option(h.option), qPrintable(p.id + QLatin1Char(':') + h.option));
            QCOMPARE(p.target == ProbeTarget::Hooks, !p.hooks.isEmpty());
            if (p.target == ProbeTarget::BinaryFunction || p.target == ProbeTarget::Usdt)
                QVERIFY2(p.option(QStringLiteral("target")), id);
        }
        // Every event type comes from a declared probe that says so.
        for (EventType t : eventTypes) {
            const ProbeInfo *p = ProbeCatalog::find(QString::fromLatin1(probeIdOf(t)));
            QVERIFY2(p, probeIdOf(t));
            QVERIFY2(p->eventTypes.contains(t), probeIdOf(t));
            QVERIFY(p->producesEvents);
        }
    }

    void everyProbeThroughTheStream()
    {
        const RecordBatch batch = everyProbeBatch(Start);
        StreamWriter writer;
        QVERIFY(writer.writeHello(sessionInfo()));
        QString error;
        QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
        writer.writeEnd({});
        StreamReader reader;
        reader.feed(writer.takePending());
        QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
        RecordBatch received;
        SessionInfo hello;
        while (reader.hasMessage()) {
            StreamMessage m = reader.takeMessage();
            if (m.type == StreamFrameType::Hello)
                hello = m.info;
            if (m.type == StreamFrameType::Batch)
                received.append(std::move(m.batch));
        }
        for (const ProbeInfo &p : ProbeCatalog::probes()) {
            const QByteArray idText = p.id.toUtf8();
            const char *id = idText.constData();
            QVERIFY2(countersOf(received, p.id) == countersOf(batch, p.id), id);
            QVERIFY2(std::any_of(hello.probes.cbegin(), hello.probes.cend(),
                                 [&](const ProbeConfig &c) { return c.id == p.id; }),
                     id);
            QVERIFY2(std::any_of(received.stats.cbegin(), received.stats.cend(),
                                 [&](const ProbeStats &s) { return s.probeId == p.id; }),
                     id);
            const bool histogram =
                std::any_of(received.histograms.cbegin(), received.histograms.cend(),
                            [&](const HistogramSnapshot &h) { return h.probeId == p.id; });
            QVERIFY2(histogram == p.producesHistograms, id);
            for (EventType t : p.eventTypes) {
                visitEventType(t, [&]<typename E>() {
                    QVERIFY2(!received.events<E>().isEmpty() &&
                                 received.events<E>() == batch.events<E>(),
                             id);
                });
            }
        }
    }

    void everyProbeInTheMetrics()
    {
        MetricsAggregator m;
        m.setProbes(everyProbeConfig());
        m.add(everyProbeBatch(Start));
        const QString text = QString::fromUtf8(m.render(MetricsAggregator::Format::Prometheus));
        const QStringList lines = text.split(QLatin1Char('\n'));
        auto hasLine = [&](const QString &prefix, const QString &suffix) {
            return std::any_of(lines.cbegin(), lines.cend(), [&](const QString &l) {
                return l.startsWith(prefix) && l.endsWith(suffix);
            });
        };
        int n = 0;
        for (const ProbeInfo &p : ProbeCatalog::probes()) {
            ++n;
            const QString id = p.id;
            QVERIFY2(text.contains(QStringLiteral("bpflens_probe_events_total{probe=\"%1\"} %2\n")
                                       .arg(id)
                                       .arg(1000 + n)),
                     qPrintable(id));
            for (qsizetype i = 0; i < p.counters.size(); ++i) {
                const ProbeCounter &c = p.counters[i];
                const QString value = c.role == ProbeCounter::Role::Gauge ? QStringLiteral("0.5")
                                                                          : number(100 * n + i);
                // A family of the probe's own, or its line among the reported counters.
                QVERIFY2(
                    hasLine(QStringLiteral("bpflens_%1_").arg(id), QLatin1Char(' ') + value) ||
                        text.contains(QStringLiteral("bpflens_probe_reported_total{probe=\"%1\","
                                                     "name=\"%2\"} %3\n")
                                          .arg(id, c.name, value)),
                    qPrintable(id + QLatin1Char(' ') + c.name));
            }
            if (p.isKeyed()) {
                QString key = declaredKey(p);
                key.replace(QLatin1Char('"'), QStringLiteral("\\\""));
                QVERIFY2(text.contains(QStringLiteral("{probe=\"%1\",name=\"%2\"} %3\n")
                                           .arg(id, key, number(10 * n))),
                         qPrintable(id));
            }
            if (p.producesHistograms) {
                // The key split into the labels the probe's options give it.
                const QStringList labels = MetricsAggregator::histogramLabels(declaredConfig(p));
                QStringList pairs;
                const QString key = p.metrics.histogramLabels ? declaredHistogramKey(labels)
                                                              : QStringLiteral("key=1");
                const QStringList values = MetricsAggregator::splitKey(key, labels);
                for (qsizetype i = 0; i < labels.size(); ++i)
                    pairs << QStringLiteral("%1=\"%2\"").arg(labels[i], values[i]);
                if (p.metrics.histogramLabels) {
                    for (const QString &v : values)
                        QVERIFY2(!v.isEmpty(), qPrintable(id));
                }
                const QString count =
                    QStringLiteral("bpflens_%1_latency_seconds_count%2 %3")
                        .arg(id, pairs.isEmpty() ? QString()
                                                 : QLatin1Char('{') + pairs.join(QLatin1Char(',')) +
                                                       QLatin1Char('}'))
                        .arg(n);
                QVERIFY2(lines.contains(count), qPrintable(count));
            }
        }
    }

    void everyProbeInShow()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("every.bpflens"));
        const RecordBatch batch = everyProbeBatch(Start);
        {
            SessionWriter writer;
            QString error;
            QVERIFY2(writer.create(path, sessionInfo(), &error), qPrintable(error));
            QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
            QVERIFY2(writer.finish(Start + 10'000'000'000ull, &error), qPrintable(error));
        }
        QProcess cli;
        cli.start(QStringLiteral(BPFLENS_CLI), {QStringLiteral("show"), path});
        QVERIFY(cli.waitForFinished(60000));
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        QVERIFY2(cli.exitCode() == 0,
                 qPrintable(out + QString::fromUtf8(cli.readAllStandardError())));
        int n = 0;
        for (const ProbeInfo &p : ProbeCatalog::probes()) {
            ++n;
            const QString id = p.id;
            QVERIFY2(out.contains(QStringLiteral("\n  %1 events ").arg(id.leftJustified(11))),
                     qPrintable(id + QLatin1Char('\n') + out));
            // Every cause of a loss it declares on a line of its own, with the session's sum.
            for (qsizetype i = 0; i < p.counters.size(); ++i) {
                const ProbeCounter &c = p.counters[i];
                if (c.role == ProbeCounter::Role::Loss)
                    QVERIFY2(out.contains(c.text.arg(100 * n + i) + QLatin1Char('\n')),
                             qPrintable(id + QLatin1Char(' ') + c.name + QLatin1Char('\n') + out));
            }
            if (p.keyed.tableTitle) {
                QVERIFY2(
                    out.contains(
                        QStringLiteral("\n%1 (1 keys)\n").arg(QLatin1String(p.keyed.tableTitle))),
                    qPrintable(id + QLatin1Char('\n') + out));
                QVERIFY2(
                    out.contains(QStringLiteral("%1  %2\n").arg(10 * n, 12).arg(declaredKey(p))),
                    qPrintable(id + QLatin1Char('\n') + out));
            }
            if (p.producesHistograms)
                QVERIFY2(out.contains(QLatin1Char('\n') + id + QLatin1Char(' ')) ||
                             out.contains(QLatin1Char('\n') + id + QLatin1Char(':')),
                         qPrintable(id + QLatin1Char('\n') + out));
        }
    }
};

QTEST_GUILESS_MAIN(TestEveryProbe)
#include "tst_everyprobe.moc"
