#include "gui/models/eventmodels.h"

#include "core/cgroups.h"
#include "core/csvexport.h"
#include "core/units.h"
#include "gui/models/profilemodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/stackframes.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>

namespace bpflens {

namespace {

// The k-th column of E that the table shows (after Time).
template<typename E>
const Column<E> *tableColumn(int k)
{
    for (const Column<E> &c : EventTraits<E>::columns) {
        if ((c.show & InTable) && k-- == 0)
            return &c;
    }
    return nullptr;
}

QString title(const char *text)
{
    return QCoreApplication::translate("bpflens::EventTableModel", text);
}

// A declared column's value as people read it (eventschema.h's Format).
QString formatValue(Format format, const QVariant &v, quint64 sessionStartNs)
{
    // What reads differently in the user's language; the rest as the CLI prints it.
    switch (format) {
    case Format::Duration:
        return EventTableModel::formatDuration(v.toULongLong());
    case Format::Size:
        return formatByteSize(v.toULongLong(), QLocale());
    case Format::Bytes:
        return EventTableModel::displayBytes(v.toByteArray());
    case Format::YesNo:
        return v.toBool() ? EventTableModel::tr("yes") : EventTableModel::tr("no");
    case Format::Time:
        return EventTableModel::formatTime(v.toULongLong(), sessionStartNs);
    default:
        return formatPlainValue(format, v, sessionStartNs);
    }
}

// A stack's id means nothing to a reader: its cell names the stack's function instead
// (StackNames::keyFrame), and its raw value stays the id.
template<typename E>
bool isStackColumn(const Column<E> &c)
{
    return hasStackId<E> && qstrcmp(c.csvName, "stack_id") == 0;
}

// An off-wake wait's waker's stack, named the same way by the waker's function
// (StackNames::wakerKeyFrame).
template<typename E>
bool isWakerStackColumn(const Column<E> &c)
{
    return (std::is_same_v<E, OffWakeEvent> ||
            std::is_same_v<E, ThreadStateEvent>)&&qstrcmp(c.csvName, "waker_stack_id") == 0;
}

bool isTextFormat(Format f)
{
    // Names and paths read from the left; numbers, times and durations line up on the right.
    return f == Format::Bytes || f == Format::Char || f == Format::Text || f == Format::Argv;
}

} // namespace

EventTableModel::EventTableModel(SessionModel *session, EventType type, QObject *parent)
    : QAbstractTableModel(parent)
    , m_session(session)
    , m_type(type)
{
    m_rows = int(m_session->events().count(m_type));
    updateColumns();
    connect(m_session, &SessionModel::aboutToReset, this, [this] { beginResetModel(); });
    connect(m_session, &SessionModel::reset, this, [this] {
        m_rows = int(m_session->events().count(m_type));
        updateColumns();
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

void EventTableModel::updateColumns()
{
    QList<CgroupColumn> cgroupColumns;
    const CgroupTable &cgroups = m_session->data().cgroups;
    bool has = false;
    visitEventType(m_type, [&]<typename E>() { has = hasCgroupId<E>; });
    if (has && cgroups.size() > 1) {
        const QList<CgroupPath> all = cgroups.all();
        if (std::any_of(all.begin(), all.end(), [&](const CgroupPath &c) {
                return !cgroups.names(c.id).container.isEmpty();
            }))
            cgroupColumns << ContainerColumn;
        cgroupColumns << UnitColumn;
    }
    m_slots.clear();
    visitEventType(m_type, [&]<typename E>() {
        int k = 0;
        for (const Column<E> &c : EventTraits<E>::columns) {
            if (!(c.show & InTable))
                continue;
            m_slots.append({k++, UnitColumn});
            // Beside the command they qualify, before the long columns (paths, arguments).
            if (qstrcmp(c.csvName, "comm") == 0) {
                for (CgroupColumn g : std::as_const(cgroupColumns))
                    m_slots.append({-1, g});
                cgroupColumns.clear();
            }
        }
    });
    for (CgroupColumn g : std::as_const(cgroupColumns))
        m_slots.append({-1, g});
    m_columns = int(m_slots.size()) + 1;
}

QVariant EventTableModel::cgroupCell(qsizetype row, CgroupColumn which, int role) const
{
    quint64 id = 0;
    visitEventType(m_type, [&]<typename E>() {
        if constexpr (hasCgroupId<E>)
            id = m_session->events().value<&E::cgroupId>(row);
    });
    const CgroupTable &cgroups = m_session->data().cgroups;
    const CgroupNames n = cgroups.names(id);
    if (role == Qt::ToolTipRole) {
        const CgroupPath *path = cgroups.path(id);
        if (!path)
            return tr("cgroup %1, not named by the recording").arg(id);
        const QString where = QString::fromUtf8(path->path);
        return which == ContainerColumn && !n.container.isEmpty()
                   ? tr("%1 container %2\nin %3").arg(n.runtime, n.container, where)
                   : where;
    }
    if (which == UnitColumn)
        return n.unit;
    return n.container.isEmpty() ? QString()
                                 : n.runtime + QLatin1Char(' ') + shortContainerId(n.container);
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
    const Slot *s = slot(column);
    if (s && s->own < 0)
        return true; // Container, Unit
    bool text = false;
    visitEventType(m_type, [&]<typename E>() {
        // Names made of a number (open flags) read from the left too.
        if (const Column<E> *c = s ? tableColumn<E>(s->own) : nullptr)
            text = isTextFormat(c->format) || (c->text && c->format != Format::Number) ||
                   isStackColumn(*c) || isWakerStackColumn(*c);
    });
    return text;
}

QStringList EventTableModel::headers() const
{
    QStringList h{m_timeOfDay ? tr("Time of day") : tr("Time")};
    visitEventType(m_type, [&]<typename E>() {
        for (const Slot &s : m_slots) {
            if (s.own < 0) {
                h << (s.cgroup == ContainerColumn ? tr("Container") : tr("Unit"));
                continue;
            }
            const Column<E> &c = *tableColumn<E>(s.own);
            h << (isStackColumn(c)        ? stackTitle(m_type)
                  : isWakerStackColumn(c) ? tr("Woken from")
                                          : title(c.title));
        }
    });
    return h;
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
    case LatencyNsRole: {
        quint64 ns = 0;
        return store.latencyNs(m_type, row, &ns) ? QVariant::fromValue(ns) : QVariant();
    }
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
    const quint64 t = store.timeNs(m_type, row);
    if (column == 0) {
        if (raw)
            return QVariant::fromValue(t);
        if (m_timeOfDay) {
            const QString clock = formatTimeOfDay(t, *m_session);
            if (!clock.isEmpty())
                return clock;
        }
        return formatTime(t, start);
    }
    const Slot *s = slot(column);
    if (!s)
        return {};
    if (s->own < 0)
        return cgroupCell(row, s->cgroup, raw ? int(Qt::DisplayRole) : role);
    QVariant v;
    visitEventType(m_type, [&]<typename E>() {
        const Column<E> *c = tableColumn<E>(s->own);
        if (!c)
            return;
        const E e = store.event<E>(row);
        if (raw)
            v = c->value(e);
        else if (isStackColumn(*c))
            v = stackText(e, role == Qt::ToolTipRole);
        else if (isWakerStackColumn(*c))
            v = wakerStackText(c->value(e).toUInt(), role == Qt::ToolTipRole);
        else
            v = c->text ? c->text(e) : formatValue(c->format, c->value(e), start);
    });
    return v;
}

QString EventTableModel::stackTitle(EventType type)
{
    // What StackNames::keyFrame() picks: the running function, or the one a wait blocked in, or
    // the allocator's caller (an allocation's own "Function" column names the allocator).
    if (type == EventType::Allocation)
        return tr("Allocated in");
    return type == EventType::OffCpu || type == EventType::OffWake ? tr("Blocked in")
                                                                   : tr("Function");
}

QString EventTableModel::wakerStackText(quint32 stackId, bool toolTip) const
{
    const StackTable &stacks = m_session->stacks();
    const quint32 frame = StackNames::wakerKeyFrame(stacks, stackId);
    if (!frame)
        return stackId ? StackNames::wakerKeyFunction(stacks, stackId) : QString();
    const QString path = ProfileText::modulePath(stacks, frame);
    return !toolTip || path.isEmpty() ? stacks.frameName(frame)
                                      : tr("%1\nin %2").arg(stacks.frameName(frame), path);
}

template<typename E>
QString EventTableModel::stackText(const E &e, bool toolTip) const
{
    if constexpr (hasStackId<E>) {
        const StackTable &stacks = m_session->stacks();
        const quint32 frame = StackNames::keyFrame(stacks, m_type, e.stackId);
        if (!toolTip || !frame)
            return StackNames::keyFunction(stacks, m_type, e.stackId);
        const QString path = ProfileText::modulePath(stacks, frame);
        return path.isEmpty() ? stacks.frameName(frame)
                              : tr("%1\nin %2").arg(stacks.frameName(frame), path);
    }
    return {};
}

QString EventTableModel::formatTime(quint64 timeNs, quint64 sessionStartNs)
{
    const qint64 rel = qint64(timeNs - sessionStartNs);
    return QStringLiteral("%1 s").arg(QLocale().toString(double(rel) / 1e9, 'f', 6));
}

QString EventTableModel::formatTimeOfDay(quint64 timeNs, const SessionModel &session)
{
    const SessionInfo &info = session.info();
    if (!info.startWall.isValid())
        return QString();
    const qint64 relNs = qint64(timeNs - info.startMonotonicNs);
    const qint64 us = (relNs / 1000) % 1000;
    return info.startWall.toLocalTime()
               .addMSecs(relNs / 1000000)
               .toString(QStringLiteral("HH:mm:ss.zzz")) +
           QStringLiteral("%1").arg(us < 0 ? 0 : us, 3, 10, QLatin1Char('0'));
}

void EventTableModel::setTimeOfDay(bool on)
{
    if (on == m_timeOfDay)
        return;
    m_timeOfDay = on;
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, 0);
    if (m_rows > 0)
        Q_EMIT dataChanged(index(0, 0), index(m_rows - 1, 0), {Qt::DisplayRole, Qt::ToolTipRole});
}

QString EventTableModel::formatDuration(quint64 ns)
{
    if (ns < 1000)
        return tr("%1 ns").arg(ns);
    if (ns < 1000000)
        return tr("%1 µs").arg(QLocale().toString(double(ns) / 1e3, 'f', 2));
    if (ns < 1000000000)
        return tr("%1 ms").arg(QLocale().toString(double(ns) / 1e6, 'f', 2));
    return tr("%1 s").arg(QLocale().toString(double(ns) / 1e9, 'f', 3));
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
    visitEventType(ref.type, [&]<typename E>() {
        const E e = store.event<E>(ref.index);
        for (const Column<E> &c : EventTraits<E>::columns) {
            if (!(c.show & InDetails))
                continue;
            const QVariant v = c.value(e);
            if (c.format == Format::Argv) {
                const QList<QByteArray> list = v.value<QList<QByteArray>>();
                for (int i = 0; i < list.size(); ++i)
                    add(tr("argv[%1]").arg(i), displayBytes(list.at(i)));
                continue;
            }
            if (isStackColumn(c)) {
                const quint32 id = v.toUInt();
                add(stackTitle(ref.type), StackNames::keyFunction(session.stacks(), ref.type, id));
                add(tr("Stack id"), id ? QString::number(id) : tr("none"));
                continue;
            }
            if (isWakerStackColumn(c)) {
                const quint32 id = v.toUInt();
                add(tr("Woken from"), StackNames::wakerKeyFunction(session.stacks(), id));
                add(tr("Waker stack id"), id ? QString::number(id) : tr("none"));
                continue;
            }
            // A decoded value keeps its raw form beside it: "O_RDONLY|O_CLOEXEC (0x80000)".
            QString shown = formatValue(c.format, v, start);
            if (c.text) {
                const QString text = c.text(e);
                if (text != shown)
                    shown = tr("%1 (%2)").arg(text, shown);
            }
            add(title(c.detailsTitle ? c.detailsTitle : c.title), shown);
        }
        // What the event's cgroup id names, where the session knows it (docs/containers.md).
        if constexpr (hasCgroupId<E>) {
            const CgroupPath *path = session.data().cgroups.path(e.cgroupId);
            if (path && !path->path.isEmpty()) {
                const CgroupNames n = session.data().cgroups.names(e.cgroupId);
                add(tr("Cgroup path"), displayBytes(path->path));
                if (!n.unit.isEmpty())
                    add(tr("Unit"), n.unit);
                if (!n.container.isEmpty())
                    add(tr("Container"), tr("%1 (%2)").arg(n.container, n.runtime));
                if (!n.pod.isEmpty())
                    add(tr("Kubernetes pod"), n.pod);
            }
        }
    });
    return fields;
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------

EventFilterModel::EventFilterModel(EventTableModel *source, ViewState *state, QObject *parent)
    : QAbstractProxyModel(parent)
    , m_source(source)
    , m_state(state)
{
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
                m_scan.cancel();
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
    m_scan.stopAndWait();
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
    const EventStore *store = &m_source->session()->events();
    const EventType type = m_source->type();
    const qsizetype n = m_source->rowCount();
    const EventFilter filter = m_state->filter();
    setPending(true);
    m_scan.run(
        [store, type, n, filter](const JobToken &token) {
            EventMatcher matcher(filter);
            std::vector<quint32> accepted;
            for (qsizetype i = 0; i < n; ++i) {
                if ((i & 0xfff) == 0 && token.isCancelled())
                    break; // dropped
                if (matcher.accepts(*store, type, i))
                    accepted.push_back(quint32(i));
            }
            return accepted;
        },
        [this](std::vector<quint32> accepted) { finishScan(std::move(accepted)); });
}

void EventFilterModel::finishScan(std::vector<quint32> accepted)
{
    if (!m_pending)
        return; // the store changed meanwhile
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
    // A result already queued for delivery is stale too.
    m_scan.stopAndWait();
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
