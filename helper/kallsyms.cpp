#include "helper/kallsyms.h"

#include <QFile>
#include <QHash>

#include <algorithm>

namespace bpflens {

Kallsyms::Kallsyms(const char *path)
{
    QFile f(QString::fromLocal8Bit(path));
    if (!f.open(QIODevice::ReadOnly))
        return;
    // /proc files report size 0: read until the end.
    const QByteArray data = f.readAll();
    QHash<QByteArray, quint16> moduleIds;
    m_modules.push_back(QByteArrayLiteral("vmlinux"));
    moduleIds.insert(m_modules.back(), 0);
    m_names.reserve(data.size() / 2);
    bool anyAddress = false;
    qsizetype pos = 0;
    while (pos < data.size()) {
        qsizetype end = data.indexOf('\n', pos);
        if (end < 0)
            end = data.size();
        // "ffffffff81000000 T _stext" or "ffffffffc0a01000 t ext4_fill_super\t[ext4]"
        const QByteArrayView line(data.constData() + pos, end - pos);
        pos = end + 1;
        const qsizetype sp1 = line.indexOf(' ');
        if (sp1 <= 0 || sp1 + 3 >= line.size() || line[sp1 + 2] != ' ')
            continue;
        const char type = line[sp1 + 1];
        // text symbols only (t, T; weak ones w, W): stacks hold code addresses
        if (type != 't' && type != 'T' && type != 'w' && type != 'W')
            continue;
        bool ok = false;
        const quint64 address = line.first(sp1).toULongLong(&ok, 16);
        if (!ok)
            continue;
        anyAddress = anyAddress || address != 0;
        QByteArrayView rest = line.sliced(sp1 + 3);
        quint16 module = 0;
        const qsizetype tab = rest.indexOf('\t');
        if (tab >= 0) {
            QByteArrayView mod = rest.sliced(tab + 1).trimmed();
            rest = rest.first(tab);
            if (mod.startsWith('[') && mod.endsWith(']'))
                mod = mod.sliced(1, mod.size() - 2);
            const QByteArray key = mod.toByteArray();
            auto it = moduleIds.constFind(key);
            if (it == moduleIds.constEnd() && m_modules.size() < 0xffff) {
                m_modules.push_back(key);
                it = moduleIds.insert(key, quint16(m_modules.size() - 1));
            }
            if (it != moduleIds.constEnd())
                module = *it;
        }
        if (rest.isEmpty() || rest.size() > 0xffff)
            continue;
        m_entries.push_back({address, quint32(m_names.size()), quint16(rest.size()), module});
        m_names.append(rest);
    }
    if (!anyAddress) {
        m_entries.clear();
        m_names.clear();
        return;
    }
    std::stable_sort(m_entries.begin(), m_entries.end(),
                     [](const Entry &a, const Entry &b) { return a.start < b.start; });
    m_entries.shrink_to_fit();
    m_names.squeeze();
}

bool Kallsyms::lookup(quint64 address, Symbol *out) const
{
    auto it = std::upper_bound(m_entries.begin(), m_entries.end(), address,
                               [](quint64 a, const Entry &e) { return a < e.start; });
    if (it == m_entries.begin())
        return false;
    --it;
    out->start = it->start;
    out->name = QByteArray(m_names.constData() + it->nameOffset, it->nameLength);
    out->module = m_modules[it->module];
    return true;
}

} // namespace bpflens
