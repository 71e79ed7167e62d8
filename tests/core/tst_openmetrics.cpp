#include "core/openmetrics.h"
#include "tests/promtool.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTest>

#include <cmath>

using namespace bpflens;

namespace {

struct Sample
{
    QString name;
    QMap<QString, QString> labels;
    QString value;
};

// The exposition's sample lines, labels unescaped: what Prometheus would read.
QList<Sample> parseSamples(const QByteArray &text)
{
    QList<Sample> out;
    for (const QByteArray &rawLine : text.split('\n')) {
        const QString line = QString::fromUtf8(rawLine);
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        Sample s;
        qsizetype i = 0;
        while (i < line.size() && line[i] != QLatin1Char('{') && line[i] != QLatin1Char(' '))
            s.name += line[i++];
        if (i < line.size() && line[i] == QLatin1Char('{')) {
            ++i;
            while (line[i] != QLatin1Char('}')) {
                QString name;
                while (line[i] != QLatin1Char('='))
                    name += line[i++];
                i += 2; // ="
                QString value;
                while (line[i] != QLatin1Char('"')) {
                    if (line[i] == QLatin1Char('\\')) {
                        ++i;
                        value += line[i] == QLatin1Char('n') ? QLatin1Char('\n') : line[i];
                    } else {
                        value += line[i];
                    }
                    ++i;
                }
                ++i;
                if (line[i] == QLatin1Char(','))
                    ++i;
                s.labels.insert(name, value);
            }
            ++i;
        }
        s.value = line.mid(i + 1);
        out.append(s);
    }
    return out;
}

QList<Sample> named(const QList<Sample> &all, const QString &name,
                    const QMap<QString, QString> &labels = {})
{
    QList<Sample> out;
    for (const Sample &s : all) {
        if (s.name != name)
            continue;
        bool match = true;
        for (auto it = labels.cbegin(); it != labels.cend(); ++it)
            match = match && s.labels.value(it.key()) == it.value();
        if (match)
            out.append(s);
    }
    return out;
}

HistogramSnapshot snapshot(const QString &probe, const QString &key, const Log2Histogram &h)
{
    HistogramSnapshot s;
    s.probeId = probe;
    s.key = key;
    s.histogram = h;
    return s;
}

// As the kernel buckets: the raw value divided by the unit, then log2, the sum of quotients.
Log2Histogram bucketed(const QList<quint64> &raw, HistogramUnit unit)
{
    Log2Histogram h(unit);
    quint64 sum = 0;
    for (quint64 v : raw) {
        const quint64 q = v / unitDivisor(unit);
        h.add(q);
        sum += q;
    }
    h.setSum(sum);
    return h;
}

ProbeConfig probe(const QString &id, const QVariantMap &options = {})
{
    ProbeConfig p;
    p.id = id;
    p.options = options;
    return p;
}

} // namespace

class TestOpenMetrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Every bucket holds exactly the raw values at or below its le, summed over the intervals.
    void histogramBucketsAreCumulativeInSeconds()
    {
        QRandomGenerator rng(17);
        QList<quint64> first, second;
        for (int i = 0; i < 3000; ++i)
            first.append(rng.bounded(quint64(1), quint64(50'000'000))); // up to 50 ms in ns
        for (int i = 0; i < 2000; ++i)
            second.append(rng.bounded(quint64(1), quint64(3'000'000)));
        MetricsAggregator m;
        m.setProbes({probe(QStringLiteral("block"), {{QStringLiteral("perDisk"), true}})});
        RecordBatch a, b;
        a.histograms.append(snapshot(QStringLiteral("block"), QStringLiteral("vda"),
                                     bucketed(first, HistogramUnit::Microseconds)));
        b.histograms.append(snapshot(QStringLiteral("block"), QStringLiteral("vda"),
                                     bucketed(second, HistogramUnit::Microseconds)));
        m.add(a);
        m.add(b);
        const QList<quint64> all = first + second;

        const auto samples = parseSamples(m.render(MetricsAggregator::Format::OpenMetrics));
        const QMap<QString, QString> vda{{QStringLiteral("disk"), QStringLiteral("vda")}};
        const auto buckets =
            named(samples, QStringLiteral("bpflens_block_latency_seconds_bucket"), vda);
        QVERIFY(buckets.size() > 10);
        QCOMPARE(buckets.last().labels.value(QStringLiteral("le")), QStringLiteral("+Inf"));
        QCOMPARE(buckets.last().value.toULongLong(), quint64(all.size()));
        double previousLe = -1;
        quint64 previousCount = 0;
        for (qsizetype i = 0; i + 1 < buckets.size(); ++i) {
            const double le = buckets[i].labels.value(QStringLiteral("le")).toDouble();
            QVERIFY(le > previousLe);
            const quint64 leNs = quint64(std::llround(le * 1e9));
            const quint64 expected =
                std::count_if(all.cbegin(), all.cend(), [&](quint64 v) { return v <= leNs; });
            QCOMPARE(buckets[i].value.toULongLong(), expected);
            QVERIFY(buckets[i].value.toULongLong() >= previousCount);
            previousLe = le;
            previousCount = buckets[i].value.toULongLong();
        }
        // The first bucket: slot 0 of µs, everything below 2 µs.
        QCOMPARE(buckets[0].labels.value(QStringLiteral("le")), QStringLiteral("1.999e-06"));
        const auto count =
            named(samples, QStringLiteral("bpflens_block_latency_seconds_count"), vda);
        QCOMPARE(count.size(), 1);
        QCOMPARE(count[0].value.toULongLong(), quint64(all.size()));
        quint64 sumUs = 0;
        for (quint64 v : all)
            sumUs += v / 1000;
        const auto sum = named(samples, QStringLiteral("bpflens_block_latency_seconds_sum"), vda);
        QCOMPARE(sum.size(), 1);
        QCOMPARE(sum[0].value.toDouble(), double(sumUs) * 1000 / 1e9);
    }

    void sizesInBytes()
    {
        MetricsAggregator m;
        m.setProbes({probe(QStringLiteral("bitesize"), {{QStringLiteral("perDisk"), true},
                                                        {QStringLiteral("perOperation"), true}})});
        // 4 KiB and 64 KiB writes of a kworker whose name holds a '/'.
        const QList<quint64> raw{4096, 4096, 4096, 65536};
        RecordBatch b;
        b.histograms.append(snapshot(QStringLiteral("bitesize"),
                                     QStringLiteral("kworker/u8:1/vda/Write"),
                                     bucketed(raw, HistogramUnit::Kilobytes)));
        m.add(b);
        const auto samples = parseSamples(m.render(MetricsAggregator::Format::Prometheus));
        const QMap<QString, QString> key{{QStringLiteral("comm"), QStringLiteral("kworker/u8:1")},
                                         {QStringLiteral("disk"), QStringLiteral("vda")},
                                         {QStringLiteral("op"), QStringLiteral("Write")}};
        const auto buckets =
            named(samples, QStringLiteral("bpflens_bitesize_size_bytes_bucket"), key);
        QMap<QString, quint64> byLe;
        for (const Sample &s : buckets)
            byLe.insert(s.labels.value(QStringLiteral("le")), s.value.toULongLong());
        // 4 KiB is slot 2 (4..7 Kbytes): at most 8191 bytes. 64 KiB is slot 6: at most 131071.
        QCOMPARE(byLe.value(QStringLiteral("4095")), quint64(0));
        QCOMPARE(byLe.value(QStringLiteral("8191")), quint64(3));
        QCOMPARE(byLe.value(QStringLiteral("65535")), quint64(3));
        QCOMPARE(byLe.value(QStringLiteral("131071")), quint64(4));
        QCOMPARE(byLe.value(QStringLiteral("+Inf")), quint64(4));
        QCOMPARE(named(samples, QStringLiteral("bpflens_bitesize_size_bytes_sum"), key)
                     .value(0)
                     .value.toDouble(),
                 3 * 4096.0 + 65536.0);
    }

    void cardinalityCapCollectsTheRestAsOther()
    {
        const int maxSeries = 5;
        MetricsAggregator m(maxSeries);
        m.setProbes({probe(QStringLiteral("runqlat"), {{QStringLiteral("perProcess"), true}})});
        RecordBatch b;
        quint64 total = 0;
        QMap<QString, quint64> expected; // what the first four keys hold, then "other"
        for (int pid = 1; pid <= 40; ++pid) {
            Log2Histogram h(HistogramUnit::Microseconds);
            h.addToSlot(pid % 7, quint64(pid));
            total += quint64(pid);
            const QString key = QStringLiteral("%1 task %1").arg(pid);
            b.histograms.append(snapshot(QStringLiteral("runqlat"), key, h));
            expected[pid < maxSeries ? QString::number(pid) : QStringLiteral("other")] +=
                quint64(pid);
        }
        m.add(b);
        const auto counts = named(parseSamples(m.render(MetricsAggregator::Format::OpenMetrics)),
                                  QStringLiteral("bpflens_runqlat_latency_seconds_count"));
        QCOMPARE(counts.size(), maxSeries);
        QMap<QString, quint64> got;
        quint64 sum = 0;
        for (const Sample &s : counts) {
            got.insert(s.labels.value(QStringLiteral("pid")), s.value.toULongLong());
            sum += s.value.toULongLong();
            if (s.labels.value(QStringLiteral("pid")) == QLatin1String("other"))
                QCOMPARE(s.labels.value(QStringLiteral("comm")), QStringLiteral("other"));
            else
                QCOMPARE(s.labels.value(QStringLiteral("comm")),
                         QStringLiteral("task ") + s.labels.value(QStringLiteral("pid")));
        }
        QCOMPARE(got, expected);
        QCOMPARE(sum, total);
        QCOMPARE(m.overflowedKeys(), qint64(40 - (maxSeries - 1)));
    }

    // bpflens_workload_events: every event counted once under its probe, container and unit,
    // the first maxWorkloads - 1 label sets with series of their own and the rest as "other";
    // a set keeps its series once it has one, however the counts compare later.
    void workloadEventsByContainerAndUnit()
    {
        const QByteArray id = "3f4e5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081";
        MetricsAggregator m(500, 6);
        RecordBatch b;
        b.cgroups = {{1, "/system.slice/docker-" + id + ".scope"},
                     {2, "/system.slice/nginx.service"},
                     {3, "/user.slice/user-1000.slice/session-2.scope"},
                     {4, "/system.slice/cron.service"},
                     {5, "/system.slice/ssh.service"},
                     {6, ""}}; // gone before it was named
        auto open = [&](quint64 cgroup, int n) {
            for (int i = 0; i < n; ++i) {
                OpenEvent e;
                e.cgroupId = cgroup;
                b.events<OpenEvent>().append(e);
            }
        };
        open(1, 3);
        open(2, 5);
        open(1, 2);
        open(6, 2);
        ExecEvent x;
        x.cgroupId = 2;
        b.events<ExecEvent>().append(x);
        m.add(b);
        b = RecordBatch();
        open(3, 1); // the fifth set: the last with a series of its own (one is kept for "other")
        open(4, 7);
        open(5, 9);
        open(2, 1);
        m.add(b);

        const auto all = parseSamples(m.render(MetricsAggregator::Format::OpenMetrics));
        QMap<QString, QString> got;
        for (const Sample &s : named(all, QStringLiteral("bpflens_workload_events_total")))
            got.insert(s.labels.value(QStringLiteral("probe")) + QLatin1Char('|') +
                           s.labels.value(QStringLiteral("container")) + QLatin1Char('|') +
                           s.labels.value(QStringLiteral("unit")),
                       s.value);
        const QMap<QString, QString> expected{
            {QStringLiteral("open|") + QLatin1String(id) + QStringLiteral("|docker-") +
                 QLatin1String(id) + QStringLiteral(".scope"),
             QStringLiteral("5")},
            {QStringLiteral("open||nginx.service"), QStringLiteral("6")},
            {QStringLiteral("exec||nginx.service"), QStringLiteral("1")},
            {QStringLiteral("open||[unknown]"), QStringLiteral("2")},
            {QStringLiteral("open||session-2.scope"), QStringLiteral("1")},
            {QStringLiteral("other|other|other"), QStringLiteral("16")}};
        QCOMPARE(got, expected);

        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        if (!promtool.isEmpty()) {
            const auto r = bpflens::test::promtoolCheck(
                promtool, m.render(MetricsAggregator::Format::Prometheus), false);
            QVERIFY2(r.accepted, r.said.constData());
        }
    }

    // bpflens_oom_kills: each kill counted once under its constraint and the victim's container
    // and unit, in both formats, growing across batches; past the cap the container and unit
    // read "other" but the constraint keeps its value.
    void oomKillsByConstraintAndWorkload()
    {
        const QByteArray id = "3f4e5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081";
        const QString container = QLatin1String(id);
        const QString scope = QStringLiteral("docker-") + container + QStringLiteral(".scope");
        MetricsAggregator m(500, 4);
        m.setProbes({probe(QStringLiteral("oomkill"))});
        RecordBatch b;
        b.cgroups = {{1, "/system.slice/docker-" + id + ".scope"},
                     {2, "/system.slice/mysqld.service"}};
        auto kill = [&](quint64 cgroup, quint8 constraint, quint32 pid, const QByteArray &comm) {
            OomKillEvent e;
            e.pid = pid;
            e.comm = comm;
            e.constraint = constraint;
            e.cgroupId = cgroup;
            b.events<OomKillEvent>().append(e);
        };
        kill(1, OomKillEvent::Memcg, 4001, "java");
        kill(1, OomKillEvent::Memcg, 4002, "python3");
        kill(2, OomKillEvent::Global, 900, "mysqld");
        m.add(b);

        // Sample values by constraint|container|unit; no pid or comm labels.
        auto kills = [&](MetricsAggregator::Format format) {
            const QByteArray text = m.render(format);
            QMap<QString, QString> got;
            for (const Sample &s :
                 named(parseSamples(text), QStringLiteral("bpflens_oom_kills_total"))) {
                if (s.labels.keys() != QStringList{QStringLiteral("constraint"),
                                                   QStringLiteral("container"),
                                                   QStringLiteral("unit")})
                    got.insert(QStringLiteral("labels: ") + s.labels.keys().join(u','), s.value);
                got.insert(s.labels.value(QStringLiteral("constraint")) + QLatin1Char('|') +
                               s.labels.value(QStringLiteral("container")) + QLatin1Char('|') +
                               s.labels.value(QStringLiteral("unit")),
                           s.value);
            }
            return got;
        };
        QMap<QString, QString> expected{
            {QStringLiteral("memcg|") + container + QLatin1Char('|') + scope, QStringLiteral("2")},
            {QStringLiteral("global||mysqld.service"), QStringLiteral("1")}};
        QCOMPARE(kills(MetricsAggregator::Format::OpenMetrics), expected);
        QCOMPARE(kills(MetricsAggregator::Format::Prometheus), expected);
        const QByteArray om = m.render(MetricsAggregator::Format::OpenMetrics);
        const QByteArray prom = m.render(MetricsAggregator::Format::Prometheus);
        QVERIFY(om.contains("# TYPE bpflens_oom_kills counter\n"));
        QVERIFY(prom.contains("# TYPE bpflens_oom_kills_total counter\n"));

        // A counter: the next batch adds to the same series, and a new set gets its own (the
        // third of four: one is kept for "other").
        b = RecordBatch();
        b.cgroups = {{3, "/user.slice/user-1000.slice/session-2.scope"}};
        kill(1, OomKillEvent::Memcg, 4003, "java");
        kill(2, OomKillEvent::Global, 901, "mysqld");
        kill(3, OomKillEvent::Global, 5000, "firefox");
        m.add(b);
        expected[QStringLiteral("memcg|") + container + QLatin1Char('|') + scope] =
            QStringLiteral("3");
        expected[QStringLiteral("global||mysqld.service")] = QStringLiteral("2");
        expected[QStringLiteral("global||session-2.scope")] = QStringLiteral("1");
        QCOMPARE(kills(MetricsAggregator::Format::OpenMetrics), expected);
        QCOMPARE(kills(MetricsAggregator::Format::Prometheus), expected);

        // Past the cap: more containers count as "other", each kill under its constraint.
        b = RecordBatch();
        for (quint64 cgroup = 10; cgroup < 16; ++cgroup) {
            const QByteArray other = QByteArray::number(cgroup).repeated(32).left(64);
            b.cgroups.append({cgroup, "/system.slice/docker-" + other + ".scope"});
            kill(cgroup, OomKillEvent::Memcg, quint32(cgroup), "worker");
        }
        kill(12, OomKillEvent::Global, 12, "worker");
        kill(2, OomKillEvent::Global, 902, "mysqld"); // still its own series
        m.add(b);
        expected[QStringLiteral("global||mysqld.service")] = QStringLiteral("3");
        expected[QStringLiteral("memcg|other|other")] = QStringLiteral("6");
        expected[QStringLiteral("global|other|other")] = QStringLiteral("1");
        QCOMPARE(kills(MetricsAggregator::Format::OpenMetrics), expected);
        QCOMPARE(kills(MetricsAggregator::Format::Prometheus), expected);

        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        if (!promtool.isEmpty()) {
            for (auto format :
                 {MetricsAggregator::Format::OpenMetrics, MetricsAggregator::Format::Prometheus}) {
                const auto r = bpflens::test::promtoolCheck(
                    promtool, m.render(format), format == MetricsAggregator::Format::OpenMetrics);
                QVERIFY2(r.accepted, r.said.constData());
            }
        }
    }

    void labelValuesAreEscaped()
    {
        MetricsAggregator m;
        m.setProbes({probe(QStringLiteral("tpcount"))});
        Log2Histogram h(HistogramUnit::Value);
        h.add(5);
        RecordBatch b;
        const QString nasty = QStringLiteral("a\"b\\c\nd");
        b.histograms.append(snapshot(QStringLiteral("tpcount"), nasty, h));
        m.add(b);
        const QByteArray text = m.render(MetricsAggregator::Format::OpenMetrics);
        QVERIFY(text.contains("key=\"a\\\"b\\\\c\\nd\""));
        const auto counts =
            named(parseSamples(text), QStringLiteral("bpflens_tpcount_value_count"));
        QCOMPARE(counts.size(), 1);
        QCOMPARE(counts[0].labels.value(QStringLiteral("key")), nasty);
    }

    void countersAndStats()
    {
        MetricsAggregator m;
        RecordBatch b1, b2;
        for (double v : {10.0, 32.0}) {
            CounterSample c;
            c.probeId = QStringLiteral("cachestat");
            c.name = QStringLiteral("hits");
            c.value = v;
            b1.counters.append(c);
        }
        CounterSample ratio;
        ratio.probeId = QStringLiteral("cachestat");
        ratio.name = QStringLiteral("hitRatio");
        ratio.value = 0.25;
        b1.counters.append(ratio);
        CounterSample io;
        io.probeId = QStringLiteral("iostack");
        io.name = QStringLiteral("write/block-device/total_ns");
        io.value = 1500000;
        b1.counters.append(io);
        b2.counters.append(io);
        ProbeStats st;
        st.probeId = QStringLiteral("block");
        st.eventsSeen = 100;
        st.eventsLost = 3;
        st.runTimeNs = 2'500'000;
        st.runCount = 400;
        b1.stats.append(st);
        st.eventsSeen = 250; // cumulative: the newest is the total
        b2.stats.append(st);
        m.add(b1);
        m.add(b2);
        const QByteArray om = m.render(MetricsAggregator::Format::OpenMetrics);
        const QByteArray prom = m.render(MetricsAggregator::Format::Prometheus);
        const auto s = parseSamples(om);
        QCOMPARE(named(s, QStringLiteral("bpflens_cachestat_hits_total")).value(0).value,
                 QStringLiteral("42"));
        QCOMPARE(named(s, QStringLiteral("bpflens_cachestat_hit_ratio")).value(0).value,
                 QStringLiteral("0.25"));
        QCOMPARE(named(s, QStringLiteral("bpflens_iostack_time_seconds_total"),
                       {{QStringLiteral("op"), QStringLiteral("write")},
                        {QStringLiteral("layer"), QStringLiteral("block-device")}})
                     .value(0)
                     .value,
                 QStringLiteral("0.003"));
        QCOMPARE(named(s, QStringLiteral("bpflens_probe_events_total"),
                       {{QStringLiteral("probe"), QStringLiteral("block")}})
                     .value(0)
                     .value,
                 QStringLiteral("250"));
        QCOMPARE(named(s, QStringLiteral("bpflens_probe_events_lost_total"),
                       {{QStringLiteral("cause"), QStringLiteral("dropped")}})
                     .value(0)
                     .value,
                 QStringLiteral("3"));
        QCOMPARE(
            named(s, QStringLiteral("bpflens_probe_bpf_run_time_seconds_total")).value(0).value,
            QStringLiteral("0.0025"));
        // The two formats differ where the specifications do.
        QVERIFY(om.endsWith("# EOF\n"));
        QVERIFY(!prom.contains("# EOF"));
        QVERIFY(om.contains("# TYPE bpflens_cachestat_hits counter\n"));
        QVERIFY(prom.contains("# TYPE bpflens_cachestat_hits_total counter\n"));
        QVERIFY(om.contains("# UNIT bpflens_probe_bpf_run_time_seconds seconds\n"));
        QVERIFY(!prom.contains("# UNIT"));
        QCOMPARE(parseSamples(prom).size(), s.size());
    }

    void negotiation()
    {
        // What Prometheus 2.x sends.
        QCOMPARE(MetricsAggregator::negotiate(
                     "application/openmetrics-text;version=1.0.0,application/"
                     "openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/"
                     "*;q=0.1"),
                 MetricsAggregator::Format::OpenMetrics);
        QCOMPARE(MetricsAggregator::negotiate("*/*"), MetricsAggregator::Format::Prometheus);
        QCOMPARE(MetricsAggregator::negotiate(""), MetricsAggregator::Format::Prometheus);
    }

    // promtool, the reference linter and parser, accepts both formats.
    void promtoolAcceptsBothFormats()
    {
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        if (promtool.isEmpty()) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL("promtool is missing (Debian package prometheus; see .ci/deps)");
            QSKIP("promtool is not installed (Debian package prometheus)");
        }
        MetricsAggregator m(3);
        m.setProbes({probe(QStringLiteral("block"),
                           {{QStringLiteral("perDisk"), true}, {QStringLiteral("perFlags"), true}}),
                     probe(QStringLiteral("runqlat"))});
        RecordBatch b;
        for (const char *key : {"vda/Sync-Write", "vda/Read", "vdb/Write", "vdc/Flush"}) {
            Log2Histogram h(HistogramUnit::Microseconds);
            h.add(300, 4);
            h.setSum(1200);
            b.histograms.append(snapshot(QStringLiteral("block"), QLatin1String(key), h));
        }
        Log2Histogram r(HistogramUnit::Nanoseconds);
        r.add(2000, 10);
        b.histograms.append(snapshot(QStringLiteral("runqlat"), QString(), r));
        CounterSample c;
        c.probeId = QStringLiteral("cachestat");
        c.name = QStringLiteral("misses");
        c.value = 7;
        b.counters.append(c);
        c.probeId = QStringLiteral("block");
        c.name = QStringLiteral("merged");
        b.counters.append(c);
        ProbeStats st;
        st.probeId = QStringLiteral("block");
        st.eventsSeen = 9;
        b.stats.append(st);
        m.add(b);
        for (auto format :
             {MetricsAggregator::Format::OpenMetrics, MetricsAggregator::Format::Prometheus}) {
            const auto r = bpflens::test::promtoolCheck(
                promtool, m.render(format), format == MetricsAggregator::Format::OpenMetrics);
            QVERIFY2(r.accepted, r.said.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestOpenMetrics)
#include "tst_openmetrics.moc"
