#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Accepted TCP connections: tcpaccept.
inline ProbeInfo tcpacceptProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("tcpaccept");
    p.group = ProbeGroup::Network;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "TCP accepts"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "Every TCP connection a process accepts over IPv4 and IPv6, "
                        "with the listen queue's length, like tcpaccept"));
    p.options = {pidOption(),    uidOption(),       commOption(),
                 cgroupOption(), containerOption(), unitOption()};
    p.eventTypes = {EventType::TcpAccept};
    return p;
}

} // namespace bpflens::probedecl
