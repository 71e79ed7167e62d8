#pragma once

#include "core/eventschema.h"

namespace bpflens {

// A TCP retransmission (tcpretrans): a data segment, a SYN, a SYN-ACK or a tail-loss probe sent
// again.
struct TcpRetransEvent
{
    enum Kind : quint8
    {
        Retransmit = 1,
        Syn = 2,
        SynAck = 3,
        TailLossProbe = 4,
    };
    quint64 timeNs = 0;
    quint32 pid = 0; // who connected the socket, when the probe saw it; else 0
    quint8 family = 4;
    std::array<quint8, 16> saddr{};
    std::array<quint8, 16> daddr{};
    quint16 sport = 0;
    quint16 dport = 0;
    quint8 state = 0; // the kernel's TCP state, TCP_ESTABLISHED = 1 ... TCP_NEW_SYN_RECV = 12
    quint8 kind = Retransmit;
    QByteArray comm; // with pid
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const TcpRetransEvent &) const = default;

    static QString kindName(quint8 kind);
    static QString stateName(quint8 state); // "ESTABLISHED", or the number
};

inline QString TcpRetransEvent::kindName(quint8 kind)
{
    switch (kind) {
    case Retransmit:
        return QStringLiteral("retransmit");
    case Syn:
        return QStringLiteral("SYN");
    case SynAck:
        return QStringLiteral("SYN-ACK");
    case TailLossProbe:
        return QStringLiteral("TLP");
    }
    return QString::number(kind);
}

inline QString TcpRetransEvent::stateName(quint8 state)
{
    static const char *const names[] = {
        nullptr, "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1", "FIN_WAIT2",   "TIME_WAIT",
        "CLOSE", "CLOSE_WAIT",  "LAST_ACK", "LISTEN",   "CLOSING",   "NEW_SYN_RECV"};
    if (state > 0 && state < std::size(names))
        return QLatin1String(names[state]);
    return QString::number(state);
}

template<>
struct EventTraits<TcpRetransEvent>
{
    using E = TcpRetransEvent;
    static constexpr const char *probeId = "tcpretrans";
    static constexpr const char *wireName = "tcp retransmit";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "TCP retransmit");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32, true>{"pid"},
        Field<&E::family, FieldKind::Family>{"family"},
        Field<&E::saddr, FieldKind::Address>{"saddr", "source address"},
        Field<&E::daddr, FieldKind::Address>{"daddr", "destination address"},
        Field<&E::sport, FieldKind::Port>{"sport", "source port"},
        Field<&E::dport, FieldKind::Port>{"dport", "destination port"},
        Field<&E::state, FieldKind::U8>{"state"},
        Field<&E::kind, FieldKind::U8>{"kind"},
        Field<&E::comm, FieldKind::Bytes, true>{"comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto top = std::tuple{TopByEndpoint<&E::daddr, &E::dport>{}};
    static constexpr LaneStyle lane{0xb8432f};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        {"kind", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Kind"), Format::Text, Everywhere,
         [](const E &e) { return QVariant(E::kindName(e.kind)); }},
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
        {"state", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "State"), Format::Number, InCsv,
         &schema::memberValue<&E::state>},
        {nullptr, QT_TRANSLATE_NOOP("bpflens::EventTableModel", "State"), Format::Text,
         InTable | InDetails, [](const E &e) { return QVariant(E::stateName(e.state)); }},
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
