#pragma once

// A resolved tracepoint key as the BPF side reads it (struct tppair_key_desc, bpf/tpkey.bpf.h):
// shared by tppair and tpcount; and a USDT argument's spec (struct usdt_arg_spec,
// bpf/usdtarg.bpf.h), shared by usdt, tppair and tpcount.
#include <linux/types.h>

#include "bpf/tppair.records.h"
#include "bpf/usdt.records.h"

#include "core/usdtargs.h"
#include "helper/tracepoints.h"
#include "helper/usdtprobe.h"

#include <cstring>

namespace bpflens {

inline void fillKeyDesc(const volatile tppair_key_desc *out, const TracepointKey &k)
{
    tppair_key_desc d;
    memset(&d, 0, sizeof(d));
    switch (k.kind) {
    case TracepointKey::Kind::Tid:
        d.kind = TPPAIR_KEY_TID;
        break;
    case TracepointKey::Kind::Pid:
        d.kind = TPPAIR_KEY_PID;
        break;
    case TracepointKey::Kind::Arg:
        d.kind = TPPAIR_KEY_ARG;
        break;
    case TracepointKey::Kind::Field:
        d.kind = TPPAIR_KEY_FIELD;
        break;
    }
    d.arg = __u32(k.arg);
    d.size = __u32(k.size);
    d.hops = __u32(k.hops.size());
    for (int i = 0; i < k.hops.size() && i < TPPAIR_MAX_HOPS; ++i)
        d.hop_offsets[i] = k.hops[i];
    d.leaf_offset = k.leafOffset;
    memcpy(const_cast<tppair_key_desc *>(out), &d, sizeof(d));
}

// u's register named as an offset into struct pt_regs: the caller checked it has one
// (UsdtProbe::registerOffset).
inline void fillUsdtArgSpec(const volatile usdt_arg_spec *out, const UsdtArg &u)
{
    usdt_arg_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.kind = u.kind == UsdtArg::Kind::Constant   ? USDT_ARG_CONST
                : u.kind == UsdtArg::Kind::Register ? USDT_ARG_REG
                                                    : USDT_ARG_MEM;
    spec.reg_off = u.kind == UsdtArg::Kind::Constant ? 0 : __u32(UsdtProbe::registerOffset(u.reg));
    spec.val_off = u.value;
    spec.size = u.size;
    spec.is_signed = u.isSigned;
    memcpy(const_cast<usdt_arg_spec *>(out), &spec, sizeof(spec));
}

} // namespace bpflens
