#include "core/openmetrics.h"

#include "core/events.h"
#include "core/eventschema.h"
#include "core/probecatalog.h"

#include <cmath>
#include <limits>

namespace bpflens {

namespace {

const QString Other = QStringLiteral("other");
const QChar KeySeparator = QChar(0x1f);

// Probe ids are lowercase words; anything else becomes '_' so the name stays valid.
QString metricWord(const QString &s)
{
    QString out;
    out.reserve(s.size() + 4);
    for (QChar c : s) {
        if (c.isUpper()) {
            if (!out.isEmpty() && !out.endsWith(QLatin1Char('_')))
                out += QLatin1Char('_');
            out += c.toLower();
        } else if ((c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                   (c >= QLatin1Char('0') && c <= QLatin1Char('9'))) {
            out += c;
        } else if (!out.endsWith(QLatin1Char('_'))) {
            out += QLatin1Char('_');
        }
    }
    return out;
}

void appendEscaped(QByteArray &out, const QString &value, bool labelValue)
{
    const QByteArray utf8 = value.toUtf8();
    for (char c : utf8) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else if (c == '"' && labelValue)
            out += "\\\"";
        else
            out += c;
    }
}

QByteArray number(double v)
{
    if (std::isinf(v))
        return v > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    if (std::isnan(v))
        return QByteArrayLiteral("NaN");
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

void appendLabels(QByteArray &out, const QStringList &names, const QStringList &values,
                  const char *extraName = nullptr, const QByteArray &extraValue = {})
{
    if (names.isEmpty() && !extraName)
        return;
    out += '{';
    for (int i = 0; i < names.size(); ++i) {
        if (i)
            out += ',';
        out += names[i].toLatin1();
        out += "=\"";
        appendEscaped(out, values.value(i), true);
        out += '"';
    }
    if (extraName) {
        if (!names.isEmpty())
            out += ',';
        out += extraName;
        out += "=\"";
        out += extraValue;
        out += '"';
    }
    out += '}';
}

} // namespace

MetricsAggregator::MetricsAggregator(int maxSeries, int maxWorkloads)
    : m_maxSeries(qMax(1, maxSeries))
    , m_maxWorkloads(qMax(2, maxWorkloads))
{
}

QStringList MetricsAggregator::histogramLabels(const ProbeConfig &p)
{
    const ProbeInfo *info = ProbeCatalog::find(p.id);
    if (info && info->metrics.histogramLabels)
        return info->metrics.histogramLabels(p.options);
    // tppair, tpcount, uprobe, ...: whatever their key option made of it, as one label.
    return {QStringLiteral("key")};
}

QStringList MetricsAggregator::splitKey(const QString &key, const QStringList &labels)
{
    if (labels.isEmpty())
        return {};
    if (labels.size() == 2 &&
        (labels[0] == QLatin1String("pid") || labels[0] == QLatin1String("tid"))) {
        const qsizetype space = key.indexOf(QLatin1Char(' '));
        if (space < 0)
            return {key, QString()};
        return {key.left(space), key.mid(space + 1)};
    }
    // The first part may be a command, which can hold '/' (kworker/u8:1): split from the right.
    QStringList values;
    QString rest = key;
    for (qsizetype i = labels.size() - 1; i > 0; --i) {
        const qsizetype slash = rest.lastIndexOf(QLatin1Char('/'));
        if (slash < 0) {
            values.prepend(QString());
            continue;
        }
        values.prepend(rest.mid(slash + 1));
        rest.truncate(slash);
    }
    values.prepend(rest);
    return values;
}

double MetricsAggregator::bucketUpperBound(HistogramUnit unit, int slot)
{
    // The largest base-unit value (ns, bytes) whose quotient falls into the slot.
    const double high = std::ldexp(1.0, slot + 1) * double(unitDivisor(unit)) - 1;
    if (isTimeUnit(unit))
        return high / 1e9;
    return high;
}

QString MetricsAggregator::baseUnit(HistogramUnit unit)
{
    if (isTimeUnit(unit))
        return QStringLiteral("seconds");
    if (unit == HistogramUnit::Kilobytes)
        return QStringLiteral("bytes");
    return {};
}

void MetricsAggregator::setProbes(const QList<ProbeConfig> &probes)
{
    m_histogramLabels.clear();
    for (const ProbeConfig &p : probes)
        m_histogramLabels.insert(p.id, histogramLabels(p));
}

MetricsAggregator::Family &MetricsAggregator::family(const QString &name, const QString &type,
                                                     const QString &unit, const QString &help,
                                                     const QStringList &labels)
{
    auto it = m_families.find(name);
    if (it == m_families.end()) {
        Family f;
        f.name = name;
        f.type = type;
        f.unit = unit;
        f.help = help;
        f.labels = labels;
        it = m_families.insert(name, f);
    }
    return *it;
}

MetricsAggregator::Series &MetricsAggregator::series(Family &f, const QStringList &labelValues)
{
    const QString key = labelValues.join(KeySeparator);
    auto it = f.index.constFind(key);
    if (it != f.index.cend())
        return f.series[*it];
    QStringList values = labelValues;
    QString seriesKey = key;
    // One slot is kept for "other", so the family never has more than m_maxSeries series.
    if (!f.labels.isEmpty() && f.series.size() >= (f.maxSeries ? f.maxSeries : m_maxSeries) - 1) {
        ++m_overflowed;
        f.capped = true;
        values = QStringList(f.labels.size(), Other);
        for (int i = 0; i < f.keptPastCap; ++i)
            values[i] = labelValues.value(i);
        seriesKey = values.join(KeySeparator);
        auto other = f.index.constFind(seriesKey);
        if (other != f.index.cend())
            return f.series[*other];
    }
    Series s;
    s.labelValues = values;
    s.histogram = Log2Histogram(f.histogramUnit);
    f.series.append(s);
    f.index.insert(seriesKey, int(f.series.size() - 1));
    return f.series.last();
}

void MetricsAggregator::addCounter(const CounterSample &c)
{
    const QString probe = metricWord(c.probeId);
    const ProbeInfo *info = ProbeCatalog::find(c.probeId);
    const ProbeMetrics::Counters kind =
        info ? info->metrics.counters : ProbeMetrics::Counters::Reported;
    if (kind == ProbeMetrics::Counters::Layers) {
        const QStringList parts = c.name.split(QLatin1Char('/'));
        if (parts.size() == 3) {
            const QStringList labels{QStringLiteral("op"), QStringLiteral("layer")};
            const QString &what = parts[2];
            if (what == QLatin1String("count")) {
                Family &f =
                    family(QStringLiteral("bpflens_%1_calls").arg(probe), QStringLiteral("counter"),
                           {}, QStringLiteral("I/O operations that passed the layer"), labels);
                series(f, {parts[0], parts[1]}).value += c.value;
                return;
            }
            if (what == QLatin1String("total_ns") || what == QLatin1String("exclusive_ns")) {
                const bool total = what == QLatin1String("total_ns");
                Family &f = family(
                    total ? QStringLiteral("bpflens_%1_time_seconds").arg(probe)
                          : QStringLiteral("bpflens_%1_exclusive_time_seconds").arg(probe),
                    QStringLiteral("counter"), QStringLiteral("seconds"),
                    total ? QStringLiteral("Time I/O operations spent in the layer and below")
                          : QStringLiteral("Time I/O operations spent in the layer itself"),
                    labels);
                series(f, {parts[0], parts[1]}).value += c.value / 1e9;
                return;
            }
        }
    }
    const ProbeCounter *declared = info ? info->counter(c.name) : nullptr;
    // The engine's histogramKeys is every histogram probe's.
    if ((declared && declared->role == ProbeCounter::Role::Gauge) ||
        c.name == QLatin1String("histogramKeys")) {
        // Not amounts per interval but a level: the last one is what holds now.
        Family &f = family(
            QStringLiteral("bpflens_%1_%2").arg(probe, metricWord(c.name)), QStringLiteral("gauge"),
            {}, QStringLiteral("The %1 probe's %2 of the last interval").arg(c.probeId, c.name),
            {});
        series(f, {}).value = c.value;
        return;
    }
    if (kind == ProbeMetrics::Counters::Families) {
        Family &f =
            family(QStringLiteral("bpflens_%1_%2").arg(probe, metricWord(c.name)),
                   QStringLiteral("counter"), {}, info->metrics.counterHelp.arg(c.name), {});
        series(f, {}).value += c.value;
        return;
    }
    Family &f = family(QStringLiteral("bpflens_probe_reported"), QStringLiteral("counter"), {},
                       QStringLiteral("Other counters the probes report per interval (lost "
                                      "stacks, full maps, connections, ...)"),
                       {QStringLiteral("probe"), QStringLiteral("name")});
    series(f, {c.probeId, c.name}).value += c.value;
}

// Every event that carries a process's cgroup, counted by probe, container and unit. The
// engine puts a cgroup's path in the batch of the first event that names it, so every id is
// known by the time its events are counted, unless the cgroup was gone before it was looked up.
void MetricsAggregator::addWorkloadEvents(const RecordBatch &batch)
{
    Family *f = nullptr;
    forEachEventType([&]<typename E>() {
        if constexpr (hasCgroupId<E>) {
            const QList<E> &events = batch.events<E>();
            if (events.isEmpty())
                return;
            if (!f) {
                f = &family(
                    QStringLiteral("bpflens_workload_events"), QStringLiteral("counter"), {},
                    QStringLiteral("Events by the container and systemd unit of the "
                                   "task (\"\": none; unit \"[unknown]\": a cgroup gone "
                                   "before it was named)"),
                    {QStringLiteral("probe"), QStringLiteral("container"), QStringLiteral("unit")});
                f->maxSeries = m_maxWorkloads;
            }
            const QString probe = QLatin1String(EventTraits<E>::probeId);
            // Consecutive events mostly share a cgroup: one lookup per run of them.
            quint64 lastId = ~quint64(0);
            Series *last = nullptr;
            for (const E &e : events) {
                if (e.cgroupId != lastId || !last) {
                    lastId = e.cgroupId;
                    last = &series(*f, QStringList{probe} + workloadLabelValues(e.cgroupId));
                }
                last->value += 1;
            }
        }
    });
}

QStringList MetricsAggregator::workloadLabelValues(quint64 cgroupId) const
{
    const CgroupPath *path = m_cgroups.path(cgroupId);
    const CgroupNames n = m_cgroups.names(cgroupId);
    return {n.container, path && !path->path.isEmpty() ? n.unit : QStringLiteral("[unknown]")};
}

// OOM kills by what ran out and the victim's container and unit; not by pid or comm, which
// would make a series of every kill. Past the cap the constraint keeps its value (five at most),
// so an alert on global OOM kills still sees them once the host's containers have used it up.
void MetricsAggregator::addOomKills(const RecordBatch &batch)
{
    const QList<OomKillEvent> &kills = batch.events<OomKillEvent>();
    if (kills.isEmpty())
        return;
    Family &f = family(
        QStringLiteral("bpflens_oom_kills"), QStringLiteral("counter"), {},
        QStringLiteral("Processes the OOM killer killed, by what ran out (memcg: a memory "
                       "cgroup's limit; global: the machine's memory) and the victim's container "
                       "and systemd unit"),
        {QStringLiteral("constraint"), QStringLiteral("container"), QStringLiteral("unit")});
    f.maxSeries = m_maxWorkloads;
    f.keptPastCap = 1;
    for (const OomKillEvent &e : kills)
        series(f, QStringList{OomKillEvent::constraintName(e.constraint)} +
                      workloadLabelValues(e.cgroupId))
            .value += 1;
}

void MetricsAggregator::add(const RecordBatch &batch)
{
    for (const HistogramSnapshot &h : batch.histograms) {
        const HistogramUnit unit = h.histogram.unit();
        const QString base = baseUnit(unit);
        const QString name = QStringLiteral("bpflens_%1_%2")
                                 .arg(metricWord(h.probeId), base == QLatin1String("seconds")
                                                                 ? QStringLiteral("latency_seconds")
                                                             : base == QLatin1String("bytes")
                                                                 ? QStringLiteral("size_bytes")
                                                                 : QStringLiteral("value"));
        auto labelsIt = m_histogramLabels.constFind(h.probeId);
        if (labelsIt == m_histogramLabels.cend()) {
            ProbeConfig unknown;
            unknown.id = h.probeId;
            labelsIt = m_histogramLabels.insert(h.probeId, histogramLabels(unknown));
        }
        const QStringList labels = *labelsIt;
        const QString help =
            base == QLatin1String("seconds")
                ? QStringLiteral("Latency histogram of the %1 probe (log2 buckets)").arg(h.probeId)
            : base == QLatin1String("bytes")
                ? QStringLiteral("Size histogram of the %1 probe (log2 buckets)").arg(h.probeId)
                : QStringLiteral("Value histogram of the %1 probe (log2 buckets)").arg(h.probeId);
        Family &f = family(name, QStringLiteral("histogram"), base, help, labels);
        f.histogramUnit = unit;
        // An unkeyed probe sends "" as its key; keep the label set the family was made with.
        QStringList values = splitKey(h.key, f.labels);
        Series &s = series(f, values);
        s.histogram.merge(h.histogram);
        f.highestSlot = qMax(f.highestSlot, h.histogram.usedSlots() - 1);
    }
    for (const CounterSample &c : batch.counters)
        addCounter(c);
    // Before the events: the batch names the cgroups its events are the first to carry.
    m_cgroups.add(batch.cgroups);
    addWorkloadEvents(batch);
    addOomKills(batch);
    const QStringList probe{QStringLiteral("probe")};
    for (const ProbeStats &st : batch.stats) {
        // Cumulative already: the newest reading is the total.
        Family &seen = family(QStringLiteral("bpflens_probe_events"), QStringLiteral("counter"), {},
                              QStringLiteral("Events the probe's BPF programs saw"), probe);
        series(seen, {st.probeId}).value = double(st.eventsSeen);
        Family &lost = family(
            QStringLiteral("bpflens_probe_events_lost"), QStringLiteral("counter"), {},
            QStringLiteral("Events lost: dropped (no room in the ring buffer or a map) or unseen "
                           "(a stage the kernel never ran the program for)"),
            {QStringLiteral("probe"), QStringLiteral("cause")});
        series(lost, {st.probeId, QStringLiteral("dropped")}).value = double(st.eventsLost);
        series(lost, {st.probeId, QStringLiteral("unseen")}).value = double(st.eventsUnseen);
        Family &runs = family(
            QStringLiteral("bpflens_probe_bpf_runs"), QStringLiteral("counter"), {},
            QStringLiteral("Runs of the probe's BPF programs (kernel BPF stats: enabled while "
                           "the probes run, or by sysctl kernel.bpf_stats_enabled=1; 0 if "
                           "neither)"),
            probe);
        series(runs, {st.probeId}).value = double(st.runCount);
        Family &runTime = family(
            QStringLiteral("bpflens_probe_bpf_run_time_seconds"), QStringLiteral("counter"),
            QStringLiteral("seconds"),
            QStringLiteral("CPU time in the probe's BPF programs (kernel BPF stats: enabled "
                           "while the probes run, or by sysctl kernel.bpf_stats_enabled=1; 0 if "
                           "neither)"),
            probe);
        series(runTime, {st.probeId}).value = double(st.runTimeNs) / 1e9;
    }
}

QByteArray MetricsAggregator::render(Format format) const
{
    const bool om = format == Format::OpenMetrics;
    QByteArray out;
    out.reserve(64 * 1024);
    for (const Family &f : m_families) {
        if (f.series.isEmpty())
            continue;
        const bool counter = f.type == QLatin1String("counter");
        const QByteArray name = f.name.toLatin1();
        // The 0.0.4 format names a counter by its sample, OpenMetrics by its family.
        const QByteArray typeName = counter && !om ? name + "_total" : name;
        out += "# HELP " + typeName + ' ';
        appendEscaped(out, f.help, false);
        out += "\n# TYPE " + typeName + ' ' + f.type.toLatin1() + '\n';
        if (om && !f.unit.isEmpty())
            out += "# UNIT " + name + ' ' + f.unit.toLatin1() + '\n';
        for (const Series &s : f.series) {
            if (f.type != QLatin1String("histogram")) {
                out += counter ? name + "_total" : name;
                appendLabels(out, f.labels, s.labelValues);
                out += ' ' + number(s.value) + '\n';
                continue;
            }
            quint64 cumulative = 0;
            for (int slot = 0; slot <= f.highestSlot; ++slot) {
                cumulative += s.histogram.slot(slot);
                out += name + "_bucket";
                appendLabels(out, f.labels, s.labelValues, "le",
                             number(bucketUpperBound(f.histogramUnit, slot)));
                out += ' ' + QByteArray::number(cumulative) + '\n';
            }
            out += name + "_bucket";
            appendLabels(out, f.labels, s.labelValues, "le", QByteArrayLiteral("+Inf"));
            out += ' ' + QByteArray::number(s.histogram.count()) + '\n';
            out += name + "_count";
            appendLabels(out, f.labels, s.labelValues);
            out += ' ' + QByteArray::number(s.histogram.count()) + '\n';
            // The sum of the bucketed quotients: exact to the unit, in seconds or bytes.
            double sum = double(s.histogram.sum()) * double(unitDivisor(f.histogramUnit));
            if (isTimeUnit(f.histogramUnit))
                sum /= 1e9;
            out += name + "_sum";
            appendLabels(out, f.labels, s.labelValues);
            out += ' ' + number(sum) + '\n';
        }
    }
    if (om)
        out += "# EOF\n";
    return out;
}

MetricsAggregator::Format MetricsAggregator::negotiate(QByteArrayView accept)
{
    return QByteArray(accept.data(), accept.size())
                   .toLower()
                   .contains("application/openmetrics-text")
               ? Format::OpenMetrics
               : Format::Prometheus;
}

QByteArray MetricsAggregator::contentType(Format format)
{
    return format == Format::OpenMetrics
               ? QByteArrayLiteral("application/openmetrics-text; version=1.0.0; charset=utf-8")
               : QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
}

} // namespace bpflens
