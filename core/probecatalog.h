#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVariantMap>

namespace bpflens {

// Typed option of a probe. Values cross D-Bus and the session file as QVariant of the
// matching type: Bool -> bool, Int -> qint64, String -> QString, Choice -> QString.
struct ProbeOption
{
    enum class Type : quint8
    {
        Bool,
        Int,
        String,
        Choice
    };
    QString name; // "pid", "disk", "queued", "units"
    Type type = Type::Bool;
    QString title;       // translatable (context "ProbeCatalog")
    QString description; // translatable
    QVariant defaultValue;
    qint64 minimum = 0;  // Int only
    qint64 maximum = 0;  // Int only
    QStringList choices; // Choice only
    // Filled in by the client when it resolves the probe's target (the usdt probe's argument
    // specs and semaphore): not shown in the probe panel, nor listed or written by the CLI.
    bool internal = false;
    // Names a tracepoint: the probe panel completes it from the helper's list of tracepoints.
    bool namesTracepoint = false;
};

enum class EventType : quint8; // events.h

// What a probe attaches to that the recording's user resolves before the helper starts it
// (client/probetargets.h): nothing, a function in a binary ("libc:strlen" in option target), a
// USDT probe (BINARY:PROVIDER:NAME in option target), or hooks ("u:libc:strlen" ...,
// core/probehook.h) in the options its hooks list.
enum class ProbeTarget : quint8
{
    None,
    BinaryFunction,
    Usdt,
    Hooks,
    // The allocator of the process the option pid names (memleak): its functions' offsets in
    // the internal option "functions", its file as ProbeConfig::file.
    Allocator,
};

// An option of a ProbeTarget::Hooks probe that names a hook, and the prefix of the internal
// options its resolution is written to (<prefix>Offset, <prefix>Args, ...).
struct ProbeHookOption
{
    QString option; // "start", "tracepoint"
    QString prefix; // "start", "hook"
};

// A counter a probe reports per interval, by what it means to whoever shows it.
struct ProbeCounter
{
    enum class Role : quint8
    {
        Amount, // a number of things per interval (cachestat's "hits")
        Gauge,  // a level: the last interval's value is what holds (cachestat's "hitRatio")
        Loss,   // what the probe could not count or attribute; text says why
    };
    QString name;
    Role role = Role::Amount;
    // Amount, Gauge: the Counters view's legend name (context "bpflens::CountersView").
    // Loss: bpflens-cli show's line, %1 the session's sum (plain English, as all of show).
    QString text;
};

// A probe whose counters are counts per key (a connection, a destination, an argument's value):
// the Counters view draws one line per key, bpflens-cli show tables them when it has a title.
struct ProbeKeyedCounts
{
    enum class Others : quint8
    {
        Connections,
        Destinations,
        Keys,
    };
    QString chartTitle; // translatable (context "bpflens::CountersView"); empty: not keyed
    QString chartYTitle;
    Others others = Others::Keys; // what the line of the keys past the busiest is called
    // Which counters are keys besides the probe's declared ones: null for every other counter.
    bool (*isKey)(const QString &name) = nullptr;
    // Where the chart sits among the keyed charts and the table among show's, lowest first.
    int rank = 0;
    const char *tableTitle = nullptr; // show's table ("uprobe calls by key"); null for none
};

// The Counters view's charts of a probe's Amount counters (one line each) and of its Gauge
// counters (one line each, as a percentage of 1). Titles translatable (context
// "bpflens::CountersView"); an empty title: no such chart.
struct ProbeCounterCharts
{
    QString title;
    QString yTitle;
    QString gaugeTitle;
    QString gaugeYTitle;
};

// How the probe's records become Prometheus metrics (core/openmetrics.h).
struct ProbeMetrics
{
    enum class Counters : quint8
    {
        Reported, // in bpflens_probe_reported{probe, name}
        Families, // a family bpflens_<probe>_<name> each, help from counterHelp
        Layers,   // iostack's "op/layer/what": bpflens_iostack_calls, ..._time_seconds, ...
    };
    // The labels a histogram key splits into, by the probe's options; null: the key as one
    // label "key".
    QStringList (*histogramLabels)(const QVariantMap &options) = nullptr;
    Counters counters = Counters::Reported;
    QString counterHelp; // Families: %1 is the counter's name
};

// Which group the GUI shows the probe in.
enum class ProbeGroup : quint8
{
    Processes,
    Files,
    BlockIo,
    IoStack,
    Scheduler,
    Network,
    Memory,
    Custom,
    Cpu, // on-CPU and off-CPU profiling
};

struct ProbeInfo
{
    QString id; // stable: "exec", "open", "block", ...
    ProbeGroup group = ProbeGroup::Custom;
    QString title;       // translatable
    QString description; // translatable
    QList<ProbeOption> options;
    // Translatable: the options that make it lose fewer events (a lower rate), said wherever it
    // lost some to a full buffer. Empty where no option cuts its rate.
    QString lossHint;
    bool producesEvents = false; // the registry sets it: eventTypes is not empty
    bool producesHistograms = false;

    // The rest of its shape (core/probes/<id>.h, docs/adding-a-probe.md).
    QList<EventType> eventTypes;       // the event types it records
    bool histogramKeysOverlap = false; // a sample counts under several keys: never merged
    QList<ProbeCounter> counters;      // the counters of its own it reports that are not keys
    ProbeKeyedCounts keyed;
    ProbeCounterCharts counterCharts;
    ProbeMetrics metrics;
    ProbeTarget target = ProbeTarget::None;
    QList<ProbeHookOption> hooks; // ProbeTarget::Hooks
    // Checks the normalised options beyond their types and ranges; false with *error.
    bool (*check)(const QString &id, const QVariantMap &options, QString *error) = nullptr;

    const ProbeOption *option(const QString &name) const;
    const ProbeCounter *counter(const QString &name) const;
    // The names of its Loss counters, in the order it declares them.
    QStringList lossCounters() const;
    bool isKeyed() const { return !keyed.chartTitle.isEmpty(); }
    // Whether a counter it reports is a key (ProbeKeyedCounts): never a declared counter.
    bool isKeyCounter(const QString &name) const;
};

// Whether a probe can run on this kernel, decided at run time by the engine.
struct ProbeAvailability
{
    bool available = false;
    QString attachPath; // e.g. "tp_btf/block_rq_complete"; parts joined with ", "
    QString reason;     // why not, or what is degraded
};

class ProbeCatalog
{
public:
    static const QList<ProbeInfo> &probes();
    static const ProbeInfo *find(const QString &id);
    // A declaration's marked text (a title, description or loss hint) in the user's language:
    // declarations hold the English, marked for the "ProbeCatalog" context.
    static QString translated(const QString &text);
    // Checks names, types and ranges against the catalog and fills in defaults.
    // On failure returns false and says which value is wrong in *error.
    static bool validate(const QString &id, const QVariantMap &options, QVariantMap *normalized,
                         QString *error);
    // The options that differ from the probe's defaults as bpflens-cli record's --probe spec
    // writes them after the colon ("frequency=499,pid=1234"; a true switch by its name alone:
    // "perDisk,queued"), in the catalog's order; empty when all are defaults. all: every option.
    static QString spec(const QString &id, const QVariantMap &options, bool all = false);
    // A port list option's text ("80,443"): at most MaxPortList ports of 1..65535, each once;
    // empty is no list. False with *why saying what is wrong.
    static constexpr qsizetype MaxPortList = 16;
    static bool parsePortList(const QString &text, QList<quint16> *ports, QString *why);
    // The uprobe probe's key ("", "arg1", "str(arg0)"): what its calls are counted by.
    struct UprobeKey
    {
        enum class Kind : quint8
        {
            None,
            Integer,
            String
        };
        Kind kind = Kind::None;
        int arg = 0;
    };
    static constexpr int MaxUprobeArgs = 6;
    // maxArgs: 6 for a function's register arguments, 12 for a USDT probe's.
    static bool parseUprobeKey(const QString &text, UprobeKey *key, QString *why,
                               int maxArgs = MaxUprobeArgs);
};

} // namespace bpflens
