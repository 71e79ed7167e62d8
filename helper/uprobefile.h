#pragma once

#include <QString>

namespace bpflens {

// What the helper (root) checks of a binary a caller handed it for a uprobe, before attaching:
// the caller opened it (so could read it), resolved the function itself and says at which file
// offset. The helper parses no symbol table: it reads the ELF header and program headers only,
// bounded, with pread on the caller's descriptor, and checks that
// - fd is a regular file opened for reading (not O_PATH, which needs no read permission);
// - the file starts with an ELF header of this machine's byte order, of an executable or a
//   shared object;
// - offset lies in the file range of a PT_LOAD segment that is executable (PF_X), so a caller
//   cannot place a breakpoint into data.
// False with *error saying which check failed.
bool checkUprobeFile(int fd, quint64 offset, QString *error);

// The same checks for a USDT probe's semaphore (its file offset, ref_ctr_offset), which the
// kernel increments in every process mapping the file while the probe is attached: 2 bytes,
// aligned, in the file range of a writable PT_LOAD segment (the program's data), never code or
// read-only data. It cannot check that a semaphore is there and not some other variable: that
// is in the section headers, which the helper does not parse (docs/security.md).
bool checkUsdtSemaphore(int fd, quint64 offset, QString *error);

} // namespace bpflens
