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
    bool producesEvents = false;
    bool producesHistograms = false;

    const ProbeOption *option(const QString &name) const;
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
