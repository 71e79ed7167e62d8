#include "symbolizer/rustdemangle.h"

#include "symbolizer/symbolizerprotocol.h"

#include <cstdint>
#include <vector>

// Written from the v0 mangling specification
// (https://doc.rust-lang.org/rustc/symbol-mangling/v0.html) and the legacy scheme's escapes; the
// output follows rustc-demangle's alternate format because that is what perf and hotspot show.

namespace bpflens::symbolizer {

namespace {

// A hostile name may nest types or chain backrefs as deep as it likes: the C++ stack and the
// time spent are bounded here, and so is what a backref bomb could expand to.
constexpr int MaxDepth = 100;
constexpr size_t MaxOutput = 4096;
constexpr size_t MaxSteps = 100000;

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isLower(char c)
{
    return c >= 'a' && c <= 'z';
}
bool isUpper(char c)
{
    return c >= 'A' && c <= 'Z';
}
bool isLowerHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f');
}

void appendUtf8(uint32_t c, std::string *out)
{
    if (c < 0x80) {
        *out += char(c);
    } else if (c < 0x800) {
        *out += char(0xc0 | (c >> 6));
        *out += char(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        *out += char(0xe0 | (c >> 12));
        *out += char(0x80 | ((c >> 6) & 0x3f));
        *out += char(0x80 | (c & 0x3f));
    } else {
        *out += char(0xf0 | (c >> 18));
        *out += char(0x80 | ((c >> 12) & 0x3f));
        *out += char(0x80 | ((c >> 6) & 0x3f));
        *out += char(0x80 | (c & 0x3f));
    }
}

bool isScalarValue(uint64_t c)
{
    return c <= 0x10ffff && (c < 0xd800 || c > 0xdfff);
}

// RFC 3492, with v0's `_` in place of `-` (the caller splits there).
bool decodePunycode(std::string_view basic, std::string_view deltas, std::string *out)
{
    constexpr uint64_t Base = 36, TMin = 1, TMax = 26, Skew = 38, Damp = 700;
    constexpr size_t MaxChars = 256;
    std::vector<uint32_t> chars;
    for (char c : basic) {
        if (static_cast<unsigned char>(c) >= 0x80)
            return false;
        chars.push_back(uint32_t(static_cast<unsigned char>(c)));
    }
    uint64_t n = 128, i = 0, bias = 72;
    size_t p = 0;
    bool first = true;
    while (p < deltas.size()) {
        const uint64_t oldI = i;
        uint64_t w = 1;
        for (uint64_t k = Base;; k += Base) {
            if (p >= deltas.size() || k > 100 * Base)
                return false;
            const char c = deltas[p++];
            uint64_t d;
            if (isLower(c))
                d = uint64_t(c - 'a');
            else if (isDigit(c))
                d = uint64_t(c - '0') + 26;
            else
                return false;
            if (d * w > (uint64_t(1) << 40) - i)
                return false;
            i += d * w;
            const uint64_t t = k <= bias ? TMin : (k >= bias + TMax ? TMax : k - bias);
            if (d < t)
                break;
            w *= Base - t;
            if (w > (uint64_t(1) << 40))
                return false;
        }
        const uint64_t len = chars.size() + 1;
        uint64_t delta = first ? (i - oldI) / Damp : (i - oldI) / 2;
        first = false;
        delta += delta / len;
        uint64_t k = 0;
        while (delta > ((Base - TMin) * TMax) / 2) {
            delta /= Base - TMin;
            k += Base;
        }
        bias = k + (Base * delta) / (delta + Skew);
        n += i / len;
        i %= len;
        if (!isScalarValue(n) || chars.size() >= MaxChars)
            return false;
        chars.insert(chars.begin() + std::ptrdiff_t(i), uint32_t(n));
        ++i;
    }
    for (uint32_t c : chars)
        appendUtf8(c, out);
    return true;
}

struct Ident
{
    std::string_view ascii;
    std::string_view punycode;
    bool empty() const { return ascii.empty() && punycode.empty(); }
};

class V0Demangler
{
public:
    explicit V0Demangler(std::string_view sym)
        : m_sym(sym)
    {
    }

    bool demangle(std::string *out)
    {
        if (m_sym.empty() || isDigit(m_sym[0])) // an encoding version this does not know
            return false;
        if (!path(true))
            return false;
        if (m_pos < m_sym.size() && isUpper(m_sym[m_pos])) { // the instantiating crate
            m_silent = true;
            const bool ok = path(false);
            m_silent = false;
            if (!ok)
                return false;
        }
        if (m_pos < m_sym.size()) {
            const std::string_view suffix = m_sym.substr(m_pos);
            if (suffix[0] != '.' && suffix[0] != '$')
                return false;
            for (char c : suffix)
                if (c <= ' ' || c > '~')
                    return false;
            if (!print(suffix))
                return false;
        }
        *out = std::move(m_out);
        return true;
    }

private:
    // Counts the depth of the recursion; each parsing function holds one.
    struct Level
    {
        explicit Level(V0Demangler &d)
            : m_d(d)
        {
            ++m_d.m_depth;
        }
        ~Level() { --m_d.m_depth; }
        bool ok() const { return m_d.m_depth <= MaxDepth && ++m_d.m_steps <= MaxSteps; }
        V0Demangler &m_d;
    };

    bool eat(char c)
    {
        if (m_pos < m_sym.size() && m_sym[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    bool next(char *c)
    {
        if (m_pos >= m_sym.size())
            return false;
        *c = m_sym[m_pos++];
        return true;
    }
    bool print(std::string_view s)
    {
        if (m_silent)
            return true;
        if (m_out.size() + s.size() > MaxOutput)
            return false;
        m_out.append(s);
        return true;
    }
    bool printNumber(uint64_t v) { return print(std::to_string(v)); }

    bool integer62(uint64_t *v)
    {
        if (eat('_')) {
            *v = 0;
            return true;
        }
        uint64_t x = 0;
        for (;;) {
            char c;
            if (!next(&c))
                return false;
            if (c == '_')
                break;
            uint64_t d;
            if (isDigit(c))
                d = uint64_t(c - '0');
            else if (isLower(c))
                d = 10 + uint64_t(c - 'a');
            else if (isUpper(c))
                d = 36 + uint64_t(c - 'A');
            else
                return false;
            if (x > (UINT64_MAX - d) / 62)
                return false;
            x = x * 62 + d;
        }
        if (x == UINT64_MAX)
            return false;
        *v = x + 1;
        return true;
    }
    bool optInteger62(char tag, uint64_t *v)
    {
        *v = 0;
        if (!eat(tag))
            return true;
        if (!integer62(v) || *v == UINT64_MAX)
            return false;
        ++*v;
        return true;
    }
    bool decimal(uint64_t *v)
    {
        if (m_pos >= m_sym.size() || !isDigit(m_sym[m_pos]))
            return false;
        if (eat('0')) {
            *v = 0;
            return true;
        }
        uint64_t x = 0;
        while (m_pos < m_sym.size() && isDigit(m_sym[m_pos])) {
            if (x > 1000000000)
                return false;
            x = x * 10 + uint64_t(m_sym[m_pos++] - '0');
        }
        *v = x;
        return true;
    }
    bool ident(Ident *id)
    {
        const bool punycode = eat('u');
        uint64_t len;
        if (!decimal(&len))
            return false;
        eat('_');
        if (len > m_sym.size() - m_pos)
            return false;
        const std::string_view s = m_sym.substr(m_pos, len);
        m_pos += len;
        if (!punycode) {
            *id = {s, {}};
            return true;
        }
        const size_t split = s.rfind('_');
        *id = split == std::string_view::npos ? Ident{{}, s}
                                              : Ident{s.substr(0, split), s.substr(split + 1)};
        return !id->punycode.empty();
    }
    bool printIdent(const Ident &id)
    {
        if (id.punycode.empty())
            return print(id.ascii);
        std::string decoded;
        if (decodePunycode(id.ascii, id.punycode, &decoded))
            return print(decoded);
        // Undecodable: still readable, and visibly not a plain name.
        return print("punycode{") && (id.ascii.empty() || (print(id.ascii) && print("-"))) &&
               print(id.punycode) && print("}");
    }
    bool printLifetime(uint64_t lifetime)
    {
        if (!print("'"))
            return false;
        if (lifetime == 0)
            return print("_");
        if (lifetime > m_boundLifetimes)
            return false;
        const uint64_t depth = m_boundLifetimes - lifetime;
        if (depth < 26)
            return print(std::string(1, char('a' + depth)));
        return print("z") && printNumber(depth - 26 + 1);
    }

    template<typename F>
    bool backref(F &&parse)
    {
        const size_t start = m_pos - 1; // the 'B'
        uint64_t target;
        if (!integer62(&target) || target >= start)
            return false;
        if (m_silent) // nothing to print, and the target parsed once already
            return true;
        const size_t saved = m_pos;
        m_pos = size_t(target);
        const bool ok = parse();
        m_pos = saved;
        return ok;
    }

    template<typename F>
    bool binder(F &&inner)
    {
        uint64_t count;
        if (!optInteger62('G', &count) || count > MaxOutput)
            return false;
        if (count > 0 && !m_silent) {
            if (!print("for<"))
                return false;
            for (uint64_t i = 0; i < count; ++i) {
                ++m_boundLifetimes;
                if ((i > 0 && !print(", ")) || !printLifetime(1))
                    return false;
            }
            if (!print("> "))
                return false;
        } else {
            m_boundLifetimes += count;
        }
        const bool ok = inner();
        m_boundLifetimes -= count;
        return ok;
    }

    bool genericArgs()
    {
        for (size_t i = 0; !eat('E'); ++i) {
            if (i > 0 && !print(", "))
                return false;
            if (!genericArg())
                return false;
        }
        return true;
    }

    bool genericArg()
    {
        if (eat('L')) {
            uint64_t lifetime;
            return integer62(&lifetime) && printLifetime(lifetime);
        }
        if (eat('K'))
            return constant();
        return type();
    }

    bool path(bool inValue)
    {
        Level level(*this);
        char tag;
        if (!level.ok() || !next(&tag))
            return false;
        switch (tag) {
        case 'C': {
            uint64_t disambiguator;
            Ident id;
            return optInteger62('s', &disambiguator) && ident(&id) && printIdent(id);
        }
        case 'M':
        case 'X':
        case 'Y': {
            if (tag != 'Y') { // the impl's own path: rustc-demangle does not show it either
                uint64_t disambiguator;
                if (!optInteger62('s', &disambiguator))
                    return false;
                const bool wasSilent = m_silent;
                m_silent = true;
                const bool ok = path(false);
                m_silent = wasSilent;
                if (!ok)
                    return false;
            }
            if (!print("<") || !type())
                return false;
            if (tag != 'M' && (!print(" as ") || !path(false)))
                return false;
            return print(">");
        }
        case 'N': {
            char ns;
            if (!next(&ns) || !(isLower(ns) || isUpper(ns)) || !path(inValue))
                return false;
            uint64_t disambiguator;
            Ident id;
            if (!optInteger62('s', &disambiguator) || !ident(&id))
                return false;
            if (isUpper(ns)) {
                const std::string_view what =
                    ns == 'C' ? "closure" : (ns == 'S' ? "shim" : std::string_view(&ns, 1));
                if (!print("::{") || !print(what))
                    return false;
                if (!id.empty() && (!print(":") || !printIdent(id)))
                    return false;
                return print("#") && printNumber(disambiguator) && print("}");
            }
            if (id.empty())
                return true;
            return print("::") && printIdent(id);
        }
        case 'I':
            return path(inValue) && (!inValue || print("::")) && print("<") && genericArgs() &&
                   print(">");
        case 'B':
            return backref([&] { return path(inValue); });
        default:
            return false;
        }
    }

    // A dyn trait's path leaves its generics open for the associated type bindings that follow.
    bool pathMaybeOpenGenerics(bool *open)
    {
        Level level(*this);
        *open = false;
        if (!level.ok())
            return false;
        if (eat('B'))
            return backref([&] { return pathMaybeOpenGenerics(open); });
        if (eat('I')) {
            *open = true;
            return path(false) && print("<") && genericArgs();
        }
        return path(false);
    }

    bool dynTrait()
    {
        bool open = false;
        if (!pathMaybeOpenGenerics(&open))
            return false;
        while (eat('p')) {
            if (!print(open ? ", " : "<"))
                return false;
            open = true;
            Ident id;
            // An associated const binding (`Trait<N = 0>`) carries a constant.
            if (!ident(&id) || !printIdent(id) || !print(" = ") ||
                !(eat('K') ? constant() : type()))
                return false;
        }
        return !open || print(">");
    }

    static std::string_view basicType(char tag)
    {
        switch (tag) {
        case 'a':
            return "i8";
        case 'b':
            return "bool";
        case 'c':
            return "char";
        case 'd':
            return "f64";
        case 'e':
            return "str";
        case 'f':
            return "f32";
        case 'h':
            return "u8";
        case 'i':
            return "isize";
        case 'j':
            return "usize";
        case 'l':
            return "i32";
        case 'm':
            return "u32";
        case 'n':
            return "i128";
        case 'o':
            return "u128";
        case 's':
            return "i16";
        case 't':
            return "u16";
        case 'u':
            return "()";
        case 'v':
            return "...";
        case 'x':
            return "i64";
        case 'y':
            return "u64";
        case 'z':
            return "!";
        case 'p':
            return "_";
        default:
            return {};
        }
    }

    bool type()
    {
        Level level(*this);
        char tag;
        if (!level.ok() || !next(&tag))
            return false;
        const std::string_view basic = basicType(tag);
        if (!basic.empty())
            return print(basic);
        switch (tag) {
        case 'R':
        case 'Q': {
            if (!print("&"))
                return false;
            if (eat('L')) {
                uint64_t lifetime;
                if (!integer62(&lifetime))
                    return false;
                if (lifetime != 0 && (!printLifetime(lifetime) || !print(" ")))
                    return false;
            }
            return (tag == 'R' || print("mut ")) && type();
        }
        case 'P':
            return print("*const ") && type();
        case 'O':
            return print("*mut ") && type();
        case 'A':
            return print("[") && type() && print("; ") && constant() && print("]");
        case 'S':
            return print("[") && type() && print("]");
        case 'T': {
            if (!print("("))
                return false;
            size_t count = 0;
            for (; !eat('E'); ++count)
                if ((count > 0 && !print(", ")) || !type())
                    return false;
            return (count != 1 || print(",")) && print(")");
        }
        case 'F':
            return binder([&] { return fnSig(); });
        case 'D': {
            if (!print("dyn "))
                return false;
            const bool ok = binder([&] {
                for (size_t i = 0; !eat('E'); ++i)
                    if ((i > 0 && !print(" + ")) || !dynTrait())
                        return false;
                return true;
            });
            uint64_t lifetime;
            if (!ok || !eat('L') || !integer62(&lifetime))
                return false;
            return lifetime == 0 || (print(" + ") && printLifetime(lifetime));
        }
        case 'B':
            return backref([&] { return type(); });
        default:
            --m_pos;
            return path(false);
        }
    }

    bool fnSig()
    {
        if (eat('U') && !print("unsafe "))
            return false;
        if (eat('K')) {
            std::string abi = "C";
            if (!eat('C')) {
                Ident id;
                if (!ident(&id) || id.ascii.empty() || !id.punycode.empty())
                    return false;
                abi = id.ascii;
                for (char &c : abi)
                    if (c == '_')
                        c = '-';
            }
            if (!print("extern \"") || !print(abi) || !print("\" "))
                return false;
        }
        if (!print("fn("))
            return false;
        for (size_t i = 0; !eat('E'); ++i)
            if ((i > 0 && !print(", ")) || !type())
                return false;
        if (!print(")"))
            return false;
        if (eat('u')) // `-> ()` is not written
            return true;
        return print(" -> ") && type();
    }

    bool hexDigits(std::string_view *hex)
    {
        const size_t start = m_pos;
        while (m_pos < m_sym.size() && isLowerHex(m_sym[m_pos]))
            ++m_pos;
        *hex = m_sym.substr(start, m_pos - start);
        return eat('_');
    }

    static bool hexValue(std::string_view hex, uint64_t *v)
    {
        while (!hex.empty() && hex[0] == '0')
            hex.remove_prefix(1);
        if (hex.size() > 16)
            return false;
        uint64_t x = 0;
        for (char c : hex)
            x = x * 16 + uint64_t(isDigit(c) ? c - '0' : c - 'a' + 10);
        *v = x;
        return true;
    }

    bool printChar(uint64_t c)
    {
        if (!isScalarValue(c))
            return false;
        std::string s = "'";
        switch (c) {
        case '\t':
            s += "\\t";
            break;
        case '\n':
            s += "\\n";
            break;
        case '\r':
            s += "\\r";
            break;
        case '\0':
            s += "\\0";
            break;
        case '\'':
            s += "\\'";
            break;
        case '\\':
            s += "\\\\";
            break;
        default:
            if (c < 0x20 || (c >= 0x7f && c < 0xa0)) {
                static const char digits[] = "0123456789abcdef";
                std::string hex;
                for (uint64_t v = c; v; v >>= 4)
                    hex.insert(hex.begin(), digits[v & 15]);
                s += "\\u{" + hex + "}";
            } else {
                appendUtf8(uint32_t(c), &s);
            }
        }
        s += "'";
        return print(s);
    }

    // Integers (alternate format: no type suffix), bool, char and `_`; rustc-demangle's
    // structural constants (str, refs, arrays, ADTs) are not decoded: the name stays mangled.
    bool constant()
    {
        Level level(*this);
        char tag;
        if (!level.ok() || !next(&tag))
            return false;
        if (tag == 'B')
            return backref([&] { return constant(); });
        if (tag == 'p')
            return print("_");
        const std::string_view isSigned = "alxnis";
        const std::string_view isUnsigned = "hmyotj";
        std::string_view hex;
        uint64_t value = 0;
        if (isSigned.find(tag) != std::string_view::npos ||
            isUnsigned.find(tag) != std::string_view::npos) {
            const bool negative = isSigned.find(tag) != std::string_view::npos && eat('n');
            if (!hexDigits(&hex))
                return false;
            if (negative && !print("-"))
                return false;
            if (hexValue(hex, &value))
                return printNumber(value);
            return print("0x") && print(hex);
        }
        if (tag == 'b') {
            if (!hexDigits(&hex) || !hexValue(hex, &value) || value > 1)
                return false;
            return print(value ? "true" : "false");
        }
        if (tag == 'c')
            return hexDigits(&hex) && hexValue(hex, &value) && printChar(value);
        return false;
    }

    std::string_view m_sym;
    size_t m_pos = 0;
    int m_depth = 0;
    size_t m_steps = 0;
    uint64_t m_boundLifetimes = 0;
    bool m_silent = false;
    std::string m_out;
};

bool isLegacyHash(std::string_view s)
{
    if (s.size() != 17 || s[0] != 'h')
        return false;
    for (char c : s.substr(1))
        if (!isLowerHex(c))
            return false;
    return true;
}

bool decodeLegacyComponent(std::string_view s, std::string *out)
{
    if (s.size() > 1 && s[0] == '_' && s[1] == '$')
        s.remove_prefix(1);
    while (!s.empty()) {
        if (s[0] == '.') {
            const bool pair = s.size() > 1 && s[1] == '.';
            *out += pair ? "::" : ".";
            s.remove_prefix(pair ? 2 : 1);
        } else if (s[0] == '$') {
            const size_t end = s.find('$', 1);
            if (end == std::string_view::npos)
                return false;
            const std::string_view escape = s.substr(1, end - 1);
            s.remove_prefix(end + 1);
            static const struct
            {
                std::string_view escape, text;
            } escapes[] = {{"SP", "@"}, {"BP", "*"}, {"RF", "&"}, {"LT", "<"},
                           {"GT", ">"}, {"LP", "("}, {"RP", ")"}, {"C", ","}};
            bool known = false;
            for (const auto &e : escapes) {
                if (e.escape == escape) {
                    *out += e.text;
                    known = true;
                }
            }
            if (known)
                continue;
            if (escape.size() < 2 || escape.size() > 7 || escape[0] != 'u')
                return false;
            uint64_t c = 0;
            for (char h : escape.substr(1)) {
                if (!isLowerHex(h))
                    return false;
                c = c * 16 + uint64_t(isDigit(h) ? h - '0' : h - 'a' + 10);
            }
            if (!isScalarValue(c) || c < 0x20 || c == 0x7f)
                return false;
            appendUtf8(uint32_t(c), out);
        } else {
            size_t run = 0;
            while (run < s.size() && s[run] != '.' && s[run] != '$')
                ++run;
            out->append(s.substr(0, run));
            s.remove_prefix(run);
        }
    }
    return true;
}

bool demangleLegacy(std::string_view s, std::string *out)
{
    std::vector<std::string_view> components;
    size_t pos = 0;
    for (;;) {
        if (pos >= s.size())
            return false;
        if (s[pos] == 'E') {
            ++pos;
            break;
        }
        size_t len = 0;
        if (!isDigit(s[pos]))
            return false;
        while (pos < s.size() && isDigit(s[pos])) {
            len = len * 10 + size_t(s[pos++] - '0');
            if (len > s.size())
                return false;
        }
        if (len == 0 || len > s.size() - pos)
            return false;
        components.push_back(s.substr(pos, len));
        pos += len;
    }
    const std::string_view suffix = s.substr(pos);
    if (components.empty() || (!suffix.empty() && suffix[0] != '.'))
        return false;
    const bool hash = isLegacyHash(components.back());
    bool escaped = false;
    for (std::string_view c : components)
        escaped = escaped || c.find('$') != std::string_view::npos;
    // Without the hash or an escape it is as likely C++: __cxa_demangle's job.
    if (!hash && !escaped)
        return false;
    if (hash)
        components.pop_back();
    if (components.empty())
        return false;
    std::string text;
    for (size_t i = 0; i < components.size(); ++i) {
        if (i > 0)
            text += "::";
        if (!decodeLegacyComponent(components[i], &text))
            return false;
    }
    text.append(suffix);
    *out = std::move(text);
    return true;
}

bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

} // namespace

bool demangleRust(std::string_view name, std::string *out)
{
    if (name.size() > symproto::MaxSymbolBytes)
        return false;
    // ThinLTO's promoted local symbols: rustc-demangle, perf and hotspot drop this suffix.
    const size_t llvm = name.find(".llvm.");
    if (llvm != std::string_view::npos) {
        bool allHex = true;
        for (char c : name.substr(llvm + 6))
            allHex = allHex && (isDigit(c) || (c >= 'A' && c <= 'F') || c == '@');
        if (allHex)
            name = name.substr(0, llvm);
    }
    for (std::string_view prefix : {"_ZN", "__ZN", "ZN"})
        if (startsWith(name, prefix))
            return demangleLegacy(name.substr(prefix.size()), out);
    for (std::string_view prefix : {"_R", "__R", "R"})
        if (startsWith(name, prefix))
            return V0Demangler(name.substr(prefix.size())).demangle(out);
    return false;
}

} // namespace bpflens::symbolizer
