#pragma once

#include "core/eventschema.h"

namespace bpflens {

// An outgoing TCP connection (tcpconnect).
struct TcpConnectEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 uid = 0;
    quint8 family = 4; // 4 or 6
    std::array<quint8, 16> saddr{};
    std::array<quint8, 16> daddr{};
    quint16 sport = 0;
    quint16 dport = 0;
    qint32 ret = 0;
    QByteArray comm;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const TcpConnectEvent &) const = default;
};

template<>
struct EventTraits<TcpConnectEvent>
{
    using E = TcpConnectEvent;
    static constexpr const char *probeId = "tcpconnect";
    static constexpr const char *wireName = "tcp connect";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "TCP connect");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::uid, FieldKind::U32>{"uid"},
        Field<&E::family, FieldKind::Family>{"family"},
        Field<&E::saddr, FieldKind::Address>{"saddr", "source address"},
        Field<&E::daddr, FieldKind::Address>{"daddr", "destination address"},
        Field<&E::sport, FieldKind::Port>{"sport", "source port"},
        Field<&E::dport, FieldKind::Port>{"dport", "destination port"},
        Field<&E::ret, FieldKind::S32>{"ret"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto top =
        std::tuple{TopByEndpoint<&E::daddr, &E::dport>{}, TopBy<Dimension::Error, &E::ret>{}};
    static constexpr LaneStyle lane{0xd08a12};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::uid>("uid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "UID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        familyCsvColumn<E>(QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Family")),
        familyDetailsColumn<E>(QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Family")),
        addressCsvColumn<E, &E::saddr>("saddr"),
        column<E, &E::sport>("sport", nullptr, Format::Number, InCsv),
        addressCsvColumn<E, &E::daddr>("daddr"),
        column<E, &E::dport>("dport", nullptr, Format::Number, InCsv),
        endpointColumn<E, &E::saddr, &E::sport>(
            QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Source")),
        endpointColumn<E, &E::daddr, &E::dport>(
            QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Destination")),
        column<E, &E::ret>("ret", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Return")),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
