#pragma once

#include "core/eventschema.h"

namespace bpflens {

// A TCP connection's life (tcplife), reported when it closed: how long it lived and the bytes it
// moved each way.
struct TcpLifeEvent
{
    quint64 timeNs = 0; // when it closed
    quint32 pid = 0;    // who connected it or closed it (see docs/network.md)
    quint8 family = 4;  // 4 or 6
    std::array<quint8, 16> laddr{};
    std::array<quint8, 16> raddr{};
    quint16 lport = 0;
    quint16 rport = 0;
    quint64 txBytes = 0;    // sent and acknowledged
    quint64 rxBytes = 0;    // received
    quint64 durationNs = 0; // from its start (ESTABLISHED once it got there) to the close
    QByteArray comm;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const TcpLifeEvent &) const = default;
};

template<>
struct EventTraits<TcpLifeEvent>
{
    using E = TcpLifeEvent;
    static constexpr const char *probeId = "tcplife";
    static constexpr const char *wireName = "tcp life";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "TCP sessions");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::family, FieldKind::Family>{"family"},
        Field<&E::laddr, FieldKind::Address>{"laddr", "local address"},
        Field<&E::raddr, FieldKind::Address>{"raddr", "remote address"},
        Field<&E::lport, FieldKind::Port>{"lport", "local port"},
        Field<&E::rport, FieldKind::Port>{"rport", "remote port"},
        Field<&E::txBytes, FieldKind::U64>{"tx_bytes", "bytes sent"},
        Field<&E::rxBytes, FieldKind::U64>{"rx_bytes", "bytes received"},
        Field<&E::durationNs, FieldKind::U64>{"duration_ns", "duration"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto latency = std::tuple{&E::durationNs};
    static constexpr auto bytes = std::tuple{&E::txBytes, &E::rxBytes};
    static constexpr auto top = std::tuple{TopByEndpoint<&E::raddr, &E::rport>{}};
    static constexpr LaneStyle lane{0x3f7fbf};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
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
        column<E, &E::txBytes>("tx_bytes", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Sent")),
        column<E, &E::rxBytes>("rx_bytes",
                               QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Received")),
        column<E, &E::durationNs>("duration_ns",
                                  QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Lifetime"),
                                  Format::Duration),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
