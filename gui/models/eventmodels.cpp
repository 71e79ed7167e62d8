#include "eventmodels.h"

#include "csvexport.h"
#include "sessionmodel.h"

#include <QPointer>

#include <algorithm>

#include <arpa/inet.h>

namespace bpflens {

namespace {

QString address(quint8 family, const std::array<quint8, 16> &bytes)
{
    // inet_ntop gives the RFC 5952 text the CSV export writes, without linking Qt Network.
    char text[INET6_ADDRSTRLEN] = {};
    if (!inet_ntop(family == 4 ? AF_INET : AF_INET6, bytes.data(), text, sizeof(text)))
        return QStringLiteral("?");
    return QString::fromLatin1(text);
}

QString endpoint(quint8 family, const std::array<quint8, 16> &bytes, quint16 port)
{
    const QString a = address(family, bytes);
    return family == 4 ? QStringLiteral("%1:%2").arg(a).arg(port)
                       : QStringLiteral("[%1]:%2").arg(a).arg(port);
}

QString joinArgv(const QList<QByteArray> &argv)
{
    QStringList parts;
    for (const QByteArray &a : argv)
        parts << EventTableModel::displayBytes(a);
    return parts.join(QLatin1Char(' '));
}

QString returnText(qint32 ret)
{
    return QString::number(ret);
}

} // namespace

EventTableModel::EventTableModel(SessionModel *session, EventType type, QObject *parent)
    : QAbstractTableModel(parent)
    , m_session(session)
    , m_type(type)
{
    m_rows = int(m_session->events().count(m_type));
    m_columns = int(headers().size());
    connect(m_session, &SessionModel::aboutToReset, this, [this] { beginResetModel(); });
    connect(m_session, &SessionModel::reset, this, [this] {
        m_rows = int(m_session->events().count(m_type));
        endResetModel();
    });
    connect(m_session, &SessionModel::appended, this, [this](bool outOfOrder) {
        const int rows = int(m_session->events().count(m_type));
        if (rows == m_rows)
            return;
        if (outOfOrder || m_appendOutOfOrder) {
            // Earlier rows moved: nothing a view holds about them is valid any more.
            m_appendOutOfOrder = true;
            beginResetModel();
            m_rows = rows;
            endResetModel();
            return;
        }
        beginInsertRows({}, m_rows, rows - 1);
        m_rows = rows;
        endInsertRows();
    });
}

int EventTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int EventTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_columns;
}

bool EventTableModel::isTextColumn(int column) const
{
    // Names and paths read from the left; numbers, times and durations line up on the right.
    switch (m_type) {
    case EventType::Exec:
        return column == 4 || column >= 6;
    case EventType::Open:
        return column == 4 || column == 8;
    case EventType::Block:
        return column == 1 || column == 2 || column == 6;
    case EventType::TcpConnect:
        return column == 3 || column == 4 || column == 5;
    case EventType::FsSlow:
        return column == 1 || column == 3 || column == 4 || column == 8;
    case EventType::TpPair:
        return column == 3;
    }
    return false;
}

QStringList EventTableModel::headers() const
{
    switch (m_type) {
    case EventType::Exec:
        return {tr("Time"),    tr("PID"),    tr("PPID"),      tr("UID"),
                tr("Command"), tr("Return"), tr("File name"), tr("Arguments")};
    case EventType::Open:
        return {tr("Time"),  tr("PID"),  tr("TID"),    tr("UID"), tr("Command"),
                tr("Flags"), tr("Mode"), tr("Return"), tr("Path")};
    case EventType::Block:
        return {tr("Time"), tr("Disk"),    tr("Operation"), tr("Sector"), tr("Bytes"),
                tr("PID"),  tr("Command"), tr("Queue"),     tr("Device")};
    case EventType::TcpConnect:
        return {tr("Time"),   tr("PID"),         tr("UID"),   tr("Command"),
                tr("Source"), tr("Destination"), tr("Return")};
    case EventType::FsSlow:
        return {tr("Time"),  tr("File system"), tr("PID"),     tr("Command"),  tr("Operation"),
                tr("Bytes"), tr("Offset"),      tr("Latency"), tr("File name")};
    case EventType::TpPair:
        return {tr("Time"), tr("PID"), tr("TID"), tr("Command"), tr("Key"), tr("Latency")};
    }
    return {tr("Time")};
}

QVariant EventTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const QStringList h = headers();
    return section >= 0 && section < h.size() ? QVariant(h.at(section)) : QVariant();
}

QVariant EventTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const qsizetype row = index.row();
    const EventStore &store = m_session->events();
    switch (role) {
    case EventIndexRole:
        return QVariant::fromValue(row);
    case TimeNsRole:
        return QVariant::fromValue(store.timeNs(m_type, row));
    case PidRole:
        return QVariant::fromValue(store.pid(m_type, row));
    case CommRole:
        return store.comm(m_type, row);
    case LatencyNsRole:
        if (m_type == EventType::Block)
            return QVariant::fromValue(store.queueNs(row) + store.deviceNs(row));
        if (m_type == EventType::FsSlow)
            return QVariant::fromValue(store.latencyNs(row));
        if (m_type == EventType::TpPair)
            return QVariant::fromValue(store.tpPairLatencyNs(row));
        return {};
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
    case RawValueRole:
        return cell(row, index.column(), role);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(isTextColumn(index.column())
                                       ? Qt::AlignLeft | Qt::AlignVCenter
                                       : Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant EventTableModel::cell(qsizetype row, int column, int role) const
{
    const EventStore &store = m_session->events();
    const bool raw = role == RawValueRole;
    const quint64 start = m_session->info().startMonotonicNs;
    auto bytes = [raw](const QByteArray &b) -> QVariant {
        return raw ? QVariant(b) : displayBytes(b);
    };
    auto num = [raw](auto v) -> QVariant {
        return raw ? QVariant::fromValue(v) : QString::number(v);
    };
    auto dur = [raw](quint64 v) -> QVariant {
        return raw ? QVariant::fromValue(v) : formatDuration(v);
    };
    const quint64 t = store.timeNs(m_type, row);
    if (column == 0)
        return raw ? QVariant::fromValue(t) : QVariant(formatTime(t, start));
    switch (m_type) {
    case EventType::Exec: {
        const ExecEvent e = store.exec(row);
        switch (column) {
        case 1:
            return num(e.pid);
        case 2:
            return num(e.ppid);
        case 3:
            return num(e.uid);
        case 4:
            return bytes(e.comm);
        case 5:
            return raw ? QVariant(e.retval) : QVariant(returnText(e.retval));
        case 6:
            return bytes(e.filename);
        case 7:
            return raw ? QVariant::fromValue(e.argv)
                       : QVariant(joinArgv(e.argv) +
                                  (e.argvTruncated ? QStringLiteral(" …") : QString()));
        }
        break;
    }
    case EventType::Open: {
        const OpenEvent e = store.open(row);
        switch (column) {
        case 1:
            return num(e.pid);
        case 2:
            return num(e.tid);
        case 3:
            return num(e.uid);
        case 4:
            return bytes(e.comm);
        case 5:
            return raw ? QVariant(e.flags)
                       : QVariant(QStringLiteral("0x%1").arg(uint(e.flags), 0, 16));
        case 6:
            return raw ? QVariant(e.mode) : QVariant(QStringLiteral("0%1").arg(e.mode, 0, 8));
        case 7:
            return raw ? QVariant(e.ret) : QVariant(returnText(e.ret));
        case 8:
            return bytes(e.path);
        }
        break;
    }
    case EventType::Block: {
        const BlockEvent e = store.block(row);
        switch (column) {
        case 1:
            return bytes(e.disk);
        case 2:
            return bytes(e.op);
        case 3:
            return num(e.sector);
        case 4:
            return num(e.bytes);
        case 5:
            return num(e.pid);
        case 6:
            return bytes(e.comm);
        case 7:
            return dur(e.queueNs);
        case 8:
            return dur(e.deviceNs);
        }
        break;
    }
    case EventType::TcpConnect: {
        const TcpConnectEvent e = store.tcpConnect(row);
        switch (column) {
        case 1:
            return num(e.pid);
        case 2:
            return num(e.uid);
        case 3:
            return bytes(e.comm);
        case 4:
            return endpoint(e.family, e.saddr, e.sport);
        case 5:
            return endpoint(e.family, e.daddr, e.dport);
        case 6:
            return raw ? QVariant(e.ret) : QVariant(returnText(e.ret));
        }
        break;
    }
    case EventType::FsSlow: {
        const FsSlowEvent e = store.fsSlow(row);
        switch (column) {
        case 1:
            return bytes(e.fs);
        case 2:
            return num(e.pid);
        case 3:
            return bytes(e.comm);
        case 4:
            return raw ? QVariant(int(e.op)) : QVariant(QString(QLatin1Char(char(e.op))));
        case 5:
            return num(e.bytes);
        case 6:
            return num(e.offset);
        case 7:
            return dur(e.latencyNs);
        case 8:
            return bytes(e.filename);
        }
        break;
    }
    case EventType::TpPair: {
        const TpPairEvent e = store.tpPair(row);
        switch (column) {
        case 1:
            return num(e.pid);
        case 2:
            return num(e.tid);
        case 3:
            return bytes(e.comm);
        case 4:
            return raw ? QVariant::fromValue(e.key)
                       : QVariant(QStringLiteral("0x%1").arg(e.key, 0, 16));
        case 5:
            return dur(e.latencyNs);
        }
        break;
    }
    }
    return {};
}

QString EventTableModel::formatTime(quint64 timeNs, quint64 sessionStartNs)
{
    const qint64 rel = qint64(timeNs - sessionStartNs);
    return QStringLiteral("%1 s").arg(double(rel) / 1e9, 0, 'f', 6);
}

QString EventTableModel::formatDuration(quint64 ns)
{
    if (ns < 1000)
        return tr("%1 ns").arg(ns);
    if (ns < 1000000)
        return tr("%1 µs").arg(double(ns) / 1e3, 0, 'f', 2);
    if (ns < 1000000000)
        return tr("%1 ms").arg(double(ns) / 1e6, 0, 'f', 2);
    return tr("%1 s").arg(double(ns) / 1e9, 0, 'f', 3);
}

QString EventTableModel::displayBytes(const QByteArray &bytes)
{
    return QString::fromUtf8(CsvExport::escapeBytes(bytes));
}

QList<QPair<QString, QString>> EventTableModel::eventFields(const SessionModel &session,
                                                            const EventRef &ref)
{
    QList<QPair<QString, QString>> fields;
    const EventStore &store = session.events();
    if (!ref.isValid() || ref.index >= store.count(ref.type))
        return fields;
    const quint64 start = session.info().startMonotonicNs;
    auto add = [&fields](const QString &name, const QString &value) {
        fields.append({name, value});
    };
    add(tr("Type"), SessionModel::typeName(ref.type));
    add(tr("Time"), formatTime(store.timeNs(ref.type, ref.index), start));
    if (session.info().startWall.isValid()) {
        const qint64 relNs = qint64(store.timeNs(ref.type, ref.index) - start);
        add(tr("Wall clock (UTC)"),
            session.info().startWall.addMSecs(relNs / 1000000).toString(Qt::ISODateWithMs));
    }
    add(tr("Timestamp (ns)"), QString::number(store.timeNs(ref.type, ref.index)));
    switch (ref.type) {
    case EventType::Exec: {
        const ExecEvent e = store.exec(ref.index);
        add(tr("PID"), QString::number(e.pid));
        add(tr("Parent PID"), QString::number(e.ppid));
        add(tr("UID"), QString::number(e.uid));
        add(tr("Command"), displayBytes(e.comm));
        add(tr("Return"), returnText(e.retval));
        add(tr("File name"), displayBytes(e.filename));
        for (int i = 0; i < e.argv.size(); ++i)
            add(tr("argv[%1]").arg(i), displayBytes(e.argv.at(i)));
        add(tr("Arguments truncated"), e.argvTruncated ? tr("yes") : tr("no"));
        break;
    }
    case EventType::Open: {
        const OpenEvent e = store.open(ref.index);
        add(tr("PID"), QString::number(e.pid));
        add(tr("TID"), QString::number(e.tid));
        add(tr("UID"), QString::number(e.uid));
        add(tr("Command"), displayBytes(e.comm));
        add(tr("Flags"), QStringLiteral("0x%1").arg(uint(e.flags), 0, 16));
        add(tr("Mode"), QStringLiteral("0%1").arg(e.mode, 0, 8));
        add(tr("Return"), returnText(e.ret));
        add(tr("Path"), displayBytes(e.path));
        break;
    }
    case EventType::Block: {
        const BlockEvent e = store.block(ref.index);
        add(tr("Disk"), displayBytes(e.disk));
        add(tr("Device"),
            QStringLiteral("%1:%2").arg(BlockEvent::major(e.dev)).arg(BlockEvent::minor(e.dev)));
        add(tr("Operation"), displayBytes(e.op));
        add(tr("Command flags"), QStringLiteral("0x%1").arg(e.cmdFlags, 0, 16));
        add(tr("Sector"), QString::number(e.sector));
        add(tr("Bytes"), QString::number(e.bytes));
        add(tr("PID"), QString::number(e.pid));
        add(tr("Command"), displayBytes(e.comm));
        add(tr("Queue time"), formatDuration(e.queueNs));
        add(tr("Device time"), formatDuration(e.deviceNs));
        add(tr("Issued at"), formatTime(e.timeNs - e.deviceNs, start));
        break;
    }
    case EventType::TcpConnect: {
        const TcpConnectEvent e = store.tcpConnect(ref.index);
        add(tr("PID"), QString::number(e.pid));
        add(tr("UID"), QString::number(e.uid));
        add(tr("Command"), displayBytes(e.comm));
        add(tr("Family"), e.family == 4 ? QStringLiteral("IPv4") : QStringLiteral("IPv6"));
        add(tr("Source"), endpoint(e.family, e.saddr, e.sport));
        add(tr("Destination"), endpoint(e.family, e.daddr, e.dport));
        add(tr("Return"), returnText(e.ret));
        break;
    }
    case EventType::FsSlow: {
        const FsSlowEvent e = store.fsSlow(ref.index);
        add(tr("File system"), displayBytes(e.fs));
        add(tr("PID"), QString::number(e.pid));
        add(tr("Command"), displayBytes(e.comm));
        add(tr("Operation"), QString(QLatin1Char(char(e.op))));
        add(tr("Bytes"), QString::number(e.bytes));
        add(tr("Offset"), QString::number(e.offset));
        add(tr("Latency"), formatDuration(e.latencyNs));
        add(tr("File name"), displayBytes(e.filename));
        break;
    }
    case EventType::TpPair: {
        const TpPairEvent e = store.tpPair(ref.index);
        add(tr("PID"), QString::number(e.pid));
        add(tr("TID"), QString::number(e.tid));
        add(tr("Command"), displayBytes(e.comm));
        add(tr("Key"), QStringLiteral("0x%1").arg(e.key, 0, 16));
        add(tr("Latency"), formatDuration(e.latencyNs));
        break;
    }
    }
    return fields;
}

// ---------------------------------------------------------------------------------------------

EventMatcher::EventMatcher(const EventFilter &filter)
    : m_filter(filter)
    , m_needle(filter.text.toLower())
{
}

bool EventMatcher::textMatches(const QByteArray &bytes) const
{
    if (bytes.isEmpty())
        return false;
    // Interned strings share their data, so the pointer identifies the string: each distinct
    // comm or path is lower-cased and searched once, not once per event.
    const char *key = bytes.constData();
    auto it = m_matchCache.constFind(key);
    if (it != m_matchCache.constEnd())
        return it.value();
    const bool match = bytes.toLower().contains(m_needle);
    m_matchCache.insert(key, match);
    return match;
}

bool EventMatcher::accepts(const EventStore &store, EventType type, qsizetype i) const
{
    if (m_filter.pid >= 0 && qint64(store.pid(type, i)) != m_filter.pid)
        return false;
    const QByteArray &comm = store.comm(type, i);
    if (!m_filter.comm.isEmpty() && comm != m_filter.comm)
        return false;
    if (m_filter.minLatencyNs) {
        if (type == EventType::Block &&
            store.queueNs(i) + store.deviceNs(i) < m_filter.minLatencyNs)
            return false;
        if (type == EventType::FsSlow && store.latencyNs(i) < m_filter.minLatencyNs)
            return false;
        if (type == EventType::TpPair && store.tpPairLatencyNs(i) < m_filter.minLatencyNs)
            return false;
    }
    if (m_needle.isEmpty() || textMatches(comm))
        return true;
    switch (type) {
    case EventType::Exec: {
        const ExecEvent e = store.exec(i);
        if (textMatches(e.filename))
            return true;
        return std::any_of(e.argv.begin(), e.argv.end(),
                           [this](const QByteArray &a) { return textMatches(a); });
    }
    case EventType::Open:
        return textMatches(store.openPath(i));
    case EventType::Block: {
        const BlockEvent e = store.block(i);
        return textMatches(e.disk) || textMatches(e.op);
    }
    case EventType::FsSlow: {
        const FsSlowEvent e = store.fsSlow(i);
        return textMatches(e.filename) || textMatches(e.fs);
    }
    case EventType::TcpConnect:
    case EventType::TpPair:
        break;
    }
    return false;
}

// ---------------------------------------------------------------------------------------------

EventFilterModel::EventFilterModel(EventTableModel *source, ViewState *state, QObject *parent)
    : QAbstractProxyModel(parent)
    , m_source(source)
    , m_state(state)
{
    m_pool.setMaxThreadCount(1);
    QAbstractProxyModel::setSourceModel(source);
    connect(source, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        stopScan();
        beginResetModel();
    });
    connect(source, &QAbstractItemModel::modelReset, this, [this] {
        m_accepted.clear();
        m_first = m_last = 0;
        m_restartAfterChange = false;
        if (useWorker()) {
            // A new session under an active filter: show nothing until its rows are known.
            m_matcher = EventMatcher(m_state->filter());
            m_filtering = true;
            updateRange();
            endResetModel();
            Q_EMIT acceptedChanged();
            startScan();
            return;
        }
        m_filtering = false;
        refilter();
        endResetModel();
    });
    // Live data is about to be appended to the store a scan may be reading.
    connect(source->session(), &SessionModel::aboutToAppend, this, [this] { stopScan(); });
    connect(source->session(), &SessionModel::appended, this, [this] {
        if (m_restartAfterChange) {
            m_restartAfterChange = false;
            startScan();
        }
    });
    connect(source, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first, int last) { sourceRowsInserted(first, last); });
    connect(m_state, &ViewState::filterChanged, this, [this] {
        if (m_state->filter() == m_matcher.filter()) {
            // Back to the filter that is shown: a scan for another one is moot.
            if (m_pending) {
                m_cancel->store(true);
                ++m_generation;
                setPending(false);
            }
            return;
        }
        if (!useWorker()) {
            // Clearing the filter or a small table: nothing worth a worker.
            stopScan();
            m_restartAfterChange = false;
            beginResetModel();
            refilter();
            endResetModel();
            return;
        }
        startScan();
    });
    connect(m_state, &ViewState::rangeChanged, this, [this] {
        beginResetModel();
        updateRange();
        endResetModel();
    });
    refilter();
}

EventFilterModel::~EventFilterModel()
{
    // A scan reads the session's store, which may go away right after this model.
    if (m_cancel)
        m_cancel->store(true);
    m_pool.waitForDone();
}

void EventFilterModel::refilter()
{
    m_matcher = EventMatcher(m_state->filter());
    m_accepted.clear();
    m_filtering = !m_matcher.filter().isEmpty();
    if (m_filtering) {
        const EventStore &store = m_source->session()->events();
        const EventType type = m_source->type();
        const qsizetype n = m_source->rowCount();
        for (qsizetype i = 0; i < n; ++i) {
            if (m_matcher.accepts(store, type, i))
                m_accepted.push_back(quint32(i));
        }
    }
    updateRange();
    setPending(false);
    Q_EMIT acceptedChanged();
}

bool EventFilterModel::useWorker() const
{
    return !m_state->filter().isEmpty() && m_source->rowCount() >= m_asyncThreshold;
}

void EventFilterModel::startScan()
{
    if (m_cancel)
        m_cancel->store(true);
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancel;
    const quint64 generation = ++m_generation;
    const EventStore *store = &m_source->session()->events();
    const EventType type = m_source->type();
    const qsizetype n = m_source->rowCount();
    const EventFilter filter = m_state->filter();
    setPending(true);
    QPointer<EventFilterModel> self(this);
    m_pool.start([self, store, type, n, filter, cancel, generation] {
        EventMatcher matcher(filter);
        std::vector<quint32> accepted;
        for (qsizetype i = 0; i < n; ++i) {
            if ((i & 0xfff) == 0 && cancel->load(std::memory_order_relaxed))
                return;
            if (matcher.accepts(*store, type, i))
                accepted.push_back(quint32(i));
        }
        if (cancel->load())
            return;
        // Delivered in the GUI thread; dropped if the model is gone by then.
        QMetaObject::invokeMethod(
            self.data(),
            [self, generation, accepted = std::move(accepted)]() mutable {
                if (self)
                    self->finishScan(generation, std::move(accepted));
            },
            Qt::QueuedConnection);
    });
}

void EventFilterModel::finishScan(quint64 generation, std::vector<quint32> accepted)
{
    if (generation != m_generation || !m_pending)
        return; // a newer filter, or the store changed meanwhile
    beginResetModel();
    m_matcher = EventMatcher(m_state->filter());
    m_accepted = std::move(accepted);
    m_filtering = true;
    updateRange();
    endResetModel();
    setPending(false);
    Q_EMIT acceptedChanged();
}

void EventFilterModel::stopScan()
{
    if (!m_pending)
        return;
    m_cancel->store(true);
    m_pool.waitForDone();
    ++m_generation; // a result already queued for delivery is stale now
    m_restartAfterChange = true;
}

void EventFilterModel::setPending(bool pending)
{
    if (pending == m_pending)
        return;
    m_pending = pending;
    Q_EMIT filterPendingChanged(pending);
}

void EventFilterModel::updateRange()
{
    m_first = acceptedLowerBound(m_state->startNs());
    m_last = std::max(m_first, acceptedLowerBound(m_state->endNs()));
    ++m_version;
}

void EventFilterModel::sourceRowsInserted(int first, int last)
{
    // Live data arrives at the end in time order: extend the accepted sequence and insert the
    // rows that land inside the visible range.
    const qsizetype oldAccepted = acceptedCount();
    if (m_filtering) {
        const EventStore &store = m_source->session()->events();
        for (qsizetype i = first; i <= last; ++i) {
            if (m_matcher.accepts(store, m_source->type(), i))
                m_accepted.push_back(quint32(i));
        }
    }
    const qsizetype newFirst = acceptedLowerBound(m_state->startNs());
    const qsizetype newLast = std::max(newFirst, acceptedLowerBound(m_state->endNs()));
    ++m_version;
    if (acceptedCount() != oldAccepted)
        Q_EMIT acceptedChanged();
    if (newFirst != m_first || newLast < m_last) {
        beginResetModel();
        m_first = newFirst;
        m_last = newLast;
        endResetModel();
    } else if (newLast > m_last) {
        beginInsertRows({}, int(m_last - m_first), int(newLast - m_first - 1));
        m_last = newLast;
        endInsertRows();
    }
}

qsizetype EventFilterModel::acceptedCount() const
{
    return m_filtering ? qsizetype(m_accepted.size()) : qsizetype(m_source->rowCount());
}

qsizetype EventFilterModel::acceptedAt(qsizetype k) const
{
    return m_filtering ? qsizetype(m_accepted[size_t(k)]) : k;
}

qsizetype EventFilterModel::acceptedLowerBound(quint64 timeNs) const
{
    const EventStore &store = m_source->session()->events();
    const EventType type = m_source->type();
    if (!m_filtering)
        return std::min(store.lowerBound(type, timeNs), qsizetype(m_source->rowCount()));
    auto it = std::lower_bound(
        m_accepted.begin(), m_accepted.end(), timeNs,
        [&store, type](quint32 i, quint64 t) { return store.timeNs(type, i) < t; });
    return qsizetype(it - m_accepted.begin());
}

int EventFilterModel::rowForEvent(qsizetype storeIndex) const
{
    qsizetype k = storeIndex;
    if (m_filtering) {
        auto it = std::lower_bound(m_accepted.begin(), m_accepted.end(), quint32(storeIndex));
        if (it == m_accepted.end() || *it != quint32(storeIndex))
            return -1;
        k = qsizetype(it - m_accepted.begin());
    }
    if (k < m_first || k >= m_last)
        return -1;
    return int(k - m_first);
}

QModelIndex EventFilterModel::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex EventFilterModel::parent(const QModelIndex &) const
{
    return {};
}

int EventFilterModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_last - m_first);
}

int EventFilterModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_source->columnCount();
}

QVariant EventFilterModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Columns are the source's; the base class would map through row 0, which may not exist.
    if (orientation == Qt::Horizontal)
        return m_source->headerData(section, orientation, role);
    return QAbstractProxyModel::headerData(section, orientation, role);
}

QModelIndex EventFilterModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!proxyIndex.isValid() || proxyIndex.model() != this)
        return {};
    return m_source->index(int(acceptedAt(m_first + proxyIndex.row())), proxyIndex.column());
}

QModelIndex EventFilterModel::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!sourceIndex.isValid())
        return {};
    const int row = rowForEvent(sourceIndex.row());
    return row < 0 ? QModelIndex() : index(row, sourceIndex.column());
}

} // namespace bpflens
