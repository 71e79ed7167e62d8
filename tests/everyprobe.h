#pragma once

// Records of every declared probe (core/probes.h), made from the probe's declaration alone, as
// everytype.h makes events of every event type: a probe added to BPFLENS_PROBES goes through
// the stream, the metrics and bpflens-cli show (tst_everyprobe) and the probe panel and the
// Counters view (tst_guieveryprobe) without anyone writing a sample for it.

#include "core/probecatalog.h"
#include "tests/everytype.h"

namespace bpflens::test {

// The probe as it would run with its defaults (every option present, typed).
inline ProbeConfig declaredConfig(const ProbeInfo &probe)
{
    ProbeConfig c;
    c.id = probe.id;
    QString error;
    ProbeCatalog::validate(probe.id, {}, &c.options, &error);
    c.attachPath = QStringLiteral("tp_btf/") + probe.id;
    return c;
}

// A key counter of a probe that counts per key, as its declaration says a key looks.
inline QString declaredKey(const ProbeInfo &probe)
{
    const QString key = QStringLiteral("\"key of %1\"").arg(probe.id);
    return probe.isKeyCounter(key) ? key : QStringLiteral("key=%1").arg(probe.id);
}

// A histogram key with a value for every label the probe's options split it into: "42 comm" for
// a pid or tid first, else the values joined by '/'.
inline QString declaredHistogramKey(const QStringList &labels)
{
    QStringList values;
    for (const QString &label : labels)
        values << (label == QLatin1String("pid") || label == QLatin1String("tid")
                       ? QStringLiteral("42")
                       : QStringLiteral("v-") + label);
    if (labels.size() == 2 && values.first() == QLatin1String("42"))
        return values.join(QLatin1Char(' '));
    return values.join(QLatin1Char('/'));
}

// What every declared probe reports, in one batch: its cumulative statistics, one interval of
// each counter it declares (value n + its index for the n-th probe) and of a key if it counts
// per key, a histogram if it makes histograms, and count events of each type it records.
inline RecordBatch everyProbeBatch(quint64 startNs, int count = 2)
{
    RecordBatch b;
    synthesizedStacks().takeNewDefinitions(b);
    const quint64 second = 1'000'000'000;
    int n = 0;
    for (const ProbeInfo &p : ProbeCatalog::probes()) {
        ++n;
        const ProbeConfig config = declaredConfig(p);
        ProbeStats s;
        s.probeId = p.id;
        s.timeNs = startNs + second;
        s.eventsSeen = quint64(1000 + n);
        s.eventsLost = quint64(n);
        b.stats << s;
        for (qsizetype i = 0; i < p.counters.size(); ++i)
            b.counters << CounterSample{
                p.id, startNs + second, second, p.counters[i].name,
                p.counters[i].role == ProbeCounter::Role::Gauge ? 0.5 : double(100 * n + i)};
        if (p.isKeyed())
            b.counters << CounterSample{p.id, startNs + second, second, declaredKey(p),
                                        double(10 * n)};
        if (p.producesHistograms) {
            HistogramSnapshot h;
            h.probeId = p.id;
            h.key = p.metrics.histogramLabels
                        ? declaredHistogramKey(p.metrics.histogramLabels(config.options))
                        : QStringLiteral("key=1");
            h.timeNs = startNs + second;
            h.intervalNs = second;
            h.histogram = Log2Histogram(HistogramUnit::Microseconds);
            h.histogram.add(quint64(n * 10), quint64(n));
            b.histograms << h;
        }
        for (EventType t : p.eventTypes) {
            visitEventType(t, [&]<typename E>() {
                for (int k = 0; k < count; ++k)
                    b.events<E>().append(synthesizedEvent<E>(k, startNs + quint64(k) * 1000 +
                                                                    quint8(eventTypeOf<E>)));
            });
        }
    }
    return b;
}

// The configurations of every declared probe, as a session lists them.
inline QList<ProbeConfig> everyProbeConfig()
{
    QList<ProbeConfig> configs;
    for (const ProbeInfo &p : ProbeCatalog::probes())
        configs << declaredConfig(p);
    return configs;
}

} // namespace bpflens::test
