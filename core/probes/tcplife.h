#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// TCP sessions when they close: tcplife.
inline ProbeInfo tcplifeProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("tcplife");
    p.group = ProbeGroup::Network;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "TCP sessions"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "Every TCP connection when it closes, with its lifetime and "
                        "the bytes it sent and received, like tcplife"));
    p.options = {pidOption(),    uidOption(),       commOption(),
                 cgroupOption(), containerOption(), unitOption()};
    p.eventTypes = {EventType::TcpLife};
    return p;
}

} // namespace bpflens::probedecl
