#pragma once

#include "client/helperclient.h"
#include "core/protocol.h"

#include <QList>

#include <functional>

// record --stream-fd: the recording written as the helper's stream (docs/protocol.md) into an
// inherited fd instead of a session file, for the window and for record --host's remote side.
namespace bpflens::cli {

// record --stream-fd as a user who is not root (the remote side of record --host logged in as
// an ordinary user): the helper records, with polkit's consent, and its stream is passed on to
// fd byte for byte, so the reader sees exactly the helper's frames. Stop (stdin's end, Ctrl-C,
// --duration) asks the helper to stop; its End frame then ends the relay.
int relayHelperStream(const HelperClient &helper, const QList<ProbeConfig> &requests, int fd,
                      quint64 durationNs, bool stopOnStdinEof);

// The desktop application's recorder when it runs as root and no helper is reachable: the
// stream the helper would send (docs/protocol.md), written into an inherited fd, so the window
// reads both the same way and never links libbpf. SIGTERM/SIGINT end it with an End frame; a
// reader that closes its end ends it too (nobody is left to tell).
//
// With stopOnStdinEof (record --host runs it so over ssh) the end of stdin stops it cleanly:
// the local side closes ssh's stdin to stop. A killed ssh client makes sshd close both pipes,
// and the hang-up of the stream fd ends it within a poll interval.
int recordToStream(QList<ProbeConfig> &requests, int fd, quint64 durationNs, bool stopOnStdinEof);

// Where a helper session's stream stands after readHelperStream().
enum class HelperStream
{
    Open,   // nothing arrived within the wait, or messages that did not end it
    Ended,  // its End message was handed on
    Broken, // closed or unreadable before its End (*error says why)
};

// One step of reading a helper session's stream in memory (serve's drain, its pprof
// endpoint): waits at most timeoutMs for fd, then hands every whole message to onMessage, the
// End message included.
HelperStream readHelperStream(int fd, StreamReader &reader, int timeoutMs,
                              const std::function<void(StreamMessage &)> &onMessage,
                              QString *error);

} // namespace bpflens::cli
