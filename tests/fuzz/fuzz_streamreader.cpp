// libFuzzer target for StreamReader (docs/protocol.md). Besides "never crashes, never reads out
// of bounds, never hangs" (ASan, UBSan, libFuzzer's timeouts), it checks two properties:
// - feeding the input in pieces gives the same messages and error as feeding it whole;
// - whatever the reader accepts, the writer encodes again, and that decodes to the same bytes.
#include "core/protocol.h"

#include <cstdint>
#include <cstdio>

using namespace bpflens;

namespace {

QByteArray encode(const StreamMessage &m)
{
    StreamWriter writer;
    QString error;
    bool ok = true;
    switch (m.type) {
    case StreamFrameType::Hello:
        ok = writer.writeHello(m.info, &error);
        break;
    case StreamFrameType::Batch:
        ok = writer.writeBatch(m.batch, &error);
        break;
    case StreamFrameType::End:
        writer.writeEnd(m.end);
        break;
    }
    if (!ok) {
        fprintf(stderr, "the writer refused what the reader accepted: %s\n", qPrintable(error));
        __builtin_trap();
    }
    return writer.takePending();
}

// Every message as the writer encodes it, and the reader's state.
QByteArray summary(StreamReader &reader)
{
    QByteArray out;
    while (reader.hasMessage())
        out += encode(reader.takeMessage());
    out += reader.errorString().toUtf8();
    out += reader.atEnd() ? "|end" : "|open";
    return out;
}

[[noreturn]] void mismatch(const char *what, const QByteArray &a, const QByteArray &b)
{
    fprintf(stderr, "%s\n  %s\n  %s\n", what, a.toHex(' ').left(2000).constData(),
            b.toHex(' ').left(2000).constData());
    __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input(reinterpret_cast<const char *>(data), qsizetype(size));

    StreamReader whole;
    whole.feed(input);
    whole.closeInput();

    // Piece sizes derived from the input, so the fuzzer also explores where frames get split.
    StreamReader pieces;
    qsizetype step = size ? data[0] % 13 + 1 : 1;
    for (qsizetype i = 0; i < input.size();) {
        const qsizetype n = std::min(step, input.size() - i);
        pieces.feed(input.sliced(i, n));
        i += n;
        step = step * 7 % 31 + 1;
    }
    pieces.closeInput();

    const QByteArray a = summary(whole);
    const QByteArray b = summary(pieces);
    if (a != b)
        mismatch("whole and piecewise decoding differ", a, b);

    // Re-encode what was accepted, decode that, encode again: the bytes must not change.
    StreamReader again;
    again.feed(input);
    QByteArray first;
    bool hello = false;
    while (again.hasMessage()) {
        const StreamMessage m = again.takeMessage();
        hello = hello || m.type == StreamFrameType::Hello;
        first += encode(m);
    }
    if (!hello)
        return 0;
    StreamReader second;
    second.feed(first);
    if (second.hasError())
        mismatch(qPrintable(QStringLiteral("re-encoded messages do not decode: ") +
                            second.errorString()),
                 first, QByteArray());
    QByteArray twice;
    while (second.hasMessage())
        twice += encode(second.takeMessage());
    if (twice != first)
        mismatch("re-encoding is not stable", first, twice);
    return 0;
}
