#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// TCP retransmits: tcpretrans.
inline ProbeInfo tcpretransProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("tcpretrans");
    p.group = ProbeGroup::Network;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "TCP retransmits"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "Every TCP retransmission (data, SYN, SYN-ACK, tail-loss probe) "
                        "with per-connection counts per interval, like tcpretrans"));
    p.options = {pidOption(),       uidOption(),  commOption(),   cgroupOption(),
                 containerOption(), unitOption(), attachOption(), intervalOption()};
    p.eventTypes = {EventType::TcpRetrans};
    p.keyed = {text(QT_TRANSLATE_NOOP("bpflens::CountersView", "TCP retransmits per connection")),
               text(QT_TRANSLATE_NOOP("bpflens::CountersView", "retransmits per interval")),
               ProbeKeyedCounts::Others::Connections, nullptr, 1};
    return p;
}

} // namespace bpflens::probedecl
