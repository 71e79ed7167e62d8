#pragma once

#include <QByteArrayView>

namespace bpflens {

// CRC32C (Castagnoli, reflected polynomial 0x82f63b78), the checksum iSCSI, ext4 and btrfs
// use: crc32c("123456789") == 0xe3069283. Session files of schema 3 store one with every event
// chunk and every string (docs/session-format.md, "Checksums"), so a flipped bit is found
// before the chunk is decoded instead of shifting every later value of it.
//
// Continues a running checksum: crc32c(b, crc32c(a)) == crc32c(a + b).
quint32 crc32c(QByteArrayView bytes, quint32 crc = 0);

// A 64-bit integer as the checksums of the session file take it: 8 bytes, little-endian.
quint32 crc32cOfInt(qint64 value, quint32 crc = 0);

} // namespace bpflens
