#pragma once

#include "core/eventschema.h"

namespace bpflens {

// An accepted TCP connection (tcpaccept), with the listen queue it was taken from.
struct TcpAcceptEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    quint32 uid = 0;
    quint8 family = 4; // 4 or 6
    std::array<quint8, 16> laddr{};
    std::array<quint8, 16> raddr{};
    quint16 lport = 0;
    quint16 rport = 0;
    quint32 backlog = 0;    // connections still queued once this one was accepted
    quint32 backlogMax = 0; // the queue's limit
    QByteArray comm;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const TcpAcceptEvent &) const = default;
};

template<>
struct EventTraits<TcpAcceptEvent>
{
    using E = TcpAcceptEvent;
    static constexpr const char *probeId = "tcpaccept";
    static constexpr const char *wireName = "tcp accept";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "TCP accept");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::tid, FieldKind::U32>{"tid"},
        Field<&E::uid, FieldKind::U32>{"uid"},
        Field<&E::family, FieldKind::Family>{"family"},
        Field<&E::laddr, FieldKind::Address>{"laddr", "local address"},
        Field<&E::raddr, FieldKind::Address>{"raddr", "remote address"},
        Field<&E::lport, FieldKind::Port>{"lport", "local port"},
        Field<&E::rport, FieldKind::Port>{"rport", "remote port"},
        Field<&E::backlog, FieldKind::U32>{"backlog"},
        Field<&E::backlogMax, FieldKind::U32>{"backlog_max", "backlog limit"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr LaneStyle lane{0x2f9e6b};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID"),
                           Format::Number, InCsv | InDetails),
        column<E, &E::uid>("uid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "UID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        familyCsvColumn<E>(QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Family")),
        familyDetailsColumn<E>(QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Family")),
        addressCsvColumn<E, &E::laddr>("laddr"),
        column<E, &E::lport>("lport", nullptr, Format::Number, InCsv),
        addressCsvColumn<E, &E::raddr>("raddr"),
        column<E, &E::rport>("rport", nullptr, Format::Number, InCsv),
        endpointColumn<E, &E::laddr, &E::lport>(
            QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Local")),
        endpointColumn<E, &E::raddr, &E::rport>(
            QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Remote")),
        column<E, &E::backlog>("backlog", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Queued")),
        column<E, &E::backlogMax>("backlog_max",
                                  QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Queue limit")),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
