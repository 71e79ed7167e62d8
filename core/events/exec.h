#pragma once

#include "core/eventschema.h"
#include "core/openflags.h"

namespace bpflens {

// A process executed a program (execsnoop).
struct ExecEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 ppid = 0;
    quint32 uid = 0;
    qint32 retval = 0; // 0 or -errno
    QByteArray comm;
    QByteArray filename;
    QList<QByteArray> argv;
    bool argvTruncated = false;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const ExecEvent &) const = default;
};

template<>
struct EventTraits<ExecEvent>
{
    using E = ExecEvent;
    static constexpr const char *probeId = "exec";
    static constexpr const char *wireName = "exec";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Exec");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::ppid, FieldKind::U32>{"ppid"},
        Field<&E::uid, FieldKind::U32>{"uid"},
        Field<&E::retval, FieldKind::S32>{"retval"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::filename, FieldKind::Bytes>{"filename"},
        Field<&E::argvTruncated, FieldKind::Flag>{"argv_truncated"},
        Field<&E::argv, FieldKind::BytesList>{"argv"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    // Stream protocol 1.0 sent the flag before the strings.
    static constexpr std::array<std::size_t, 10> wireOrder{0, 1, 2, 3, 4, 7, 5, 6, 8, 9};
    // Set on the wire when the list is longer than a stream may carry (StreamMaxArgv).
    static constexpr auto truncationFlag = &E::argvTruncated;
    static constexpr auto searched = std::tuple{&E::filename, &E::argv};
    static constexpr auto top = std::tuple{TopBy<Dimension::Error, &E::retval>{}};
    static constexpr LaneStyle lane{0x2e9d5b};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::ppid>("ppid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PPID"),
                            Format::Number, Everywhere,
                            QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Parent PID")),
        column<E, &E::uid>("uid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "UID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        // 0, or the error's name ("ENOENT"), raw in CSV.
        {"retval", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Return"), Format::Number,
         Everywhere, &schema::memberValue<&E::retval>, nullptr,
         [](const E &e) {
             return e.retval < 0 ? errnoName(-e.retval) : QString::number(e.retval);
         }},
        column<E, &E::filename>(
            "filename", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "File name"), Format::Bytes),
        {"argv", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Arguments"), Format::Argv,
         Everywhere, &schema::memberValue<&E::argv>, nullptr,
         [](const E &e) {
             QStringList parts;
             for (const QByteArray &a : e.argv)
                 parts << QString::fromUtf8(escapeKernelBytes(a));
             return parts.join(QLatin1Char(' ')) +
                    (e.argvTruncated ? QStringLiteral(" …") : QString());
         }},
        column<E, &E::argvTruncated>(
            "argv_truncated", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Arguments truncated"),
            Format::YesNo, InCsv | InDetails),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
