#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Active TCP connects: tcpconnect.
inline ProbeInfo tcpconnectProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("tcpconnect");
    p.group = ProbeGroup::Network;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "TCP connects"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "Every active TCP connect over IPv4 and IPv6, with connects "
                        "per destination per interval, like tcpconnect"));
    p.options = {
        pidOption(),
        uidOption(),
        commOption(),
        cgroupOption(),
        containerOption(),
        unitOption(),
        stringOption(
            QStringLiteral("ports"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Destination ports")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Only connects to these ports, as 80,443 "
                                                   "(tcpconnect -P); at most 16")),
            200),
        stringOption(
            QStringLiteral("sourcePorts"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Source ports")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Only connects from these local ports, as "
                                                   "40000,40001; at most 16")),
            200),
        intervalOption()};
    p.eventTypes = {EventType::TcpConnect};
    p.keyed = {text(QT_TRANSLATE_NOOP("bpflens::CountersView", "TCP connects per destination")),
               text(QT_TRANSLATE_NOOP("bpflens::CountersView", "connects per interval")),
               ProbeKeyedCounts::Others::Destinations, nullptr, 2};
    return p;
}

} // namespace bpflens::probedecl
