#include "detailspane.h"

#include "colors.h"
#include "eventmodels.h"
#include "probecatalog.h"
#include "sessionmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace bpflens {

DetailsPane::DetailsPane(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Field"), tr("Value")});
    m_tree->setRootIsDecorated(false);
    m_tree->setAlternatingRowColors(true);
    m_tree->setAccessibleName(tr("Event details"));
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    // A long value (a path, an argument list) is cut in the middle, where the file name and the
    // last arguments stay visible, with the whole value in its tool tip: scrolling a narrow dock
    // sideways hid the field names (German's longer ones first).
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_tree->header()->setStretchLastSection(true);
    layout->addWidget(m_tree);
    connect(m_state, &ViewState::selectedEventChanged, this, &DetailsPane::refresh);
    connect(m_session, &SessionModel::reset, this, &DetailsPane::refresh);
    refresh();
}

void DetailsPane::refresh()
{
    m_tree->clear();
    const auto fields = EventTableModel::eventFields(*m_session, m_state->selectedEvent());
    if (fields.isEmpty()) {
        auto *item = new QTreeWidgetItem(m_tree, {tr("No event selected")});
        item->setFlags(Qt::NoItemFlags);
        // Across both columns, so the placeholder does not size the field column.
        item->setFirstColumnSpanned(true);
        return;
    }
    for (const auto &f : fields) {
        auto *item = new QTreeWidgetItem(m_tree, {f.first, f.second});
        item->setToolTip(1, f.second);
    }
}

QString DetailsPane::value(const QString &field) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        if (m_tree->topLevelItem(i)->text(0) == field)
            return m_tree->topLevelItem(i)->text(1);
    }
    return {};
}

SummaryPanel::SummaryPanel(SessionModel *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
{
    auto *layout = new QVBoxLayout(this);
    m_facts = new QTreeWidget(this);
    m_facts->setColumnCount(2);
    m_facts->setHeaderLabels({tr("Session"), QString()});
    m_facts->setRootIsDecorated(false);
    m_facts->setAccessibleName(tr("Session information"));
    m_facts->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_probes = new QTreeWidget(this);
    m_probes->setColumnCount(ProbeColumnCount);
    // Lost, not seen and unfinished are different causes, each a column of its own.
    m_probes->setHeaderLabels({tr("Probe"), tr("Events seen"), tr("Lost"), tr("Not seen"),
                               tr("Unfinished"), tr("Options"), tr("Attached to")});
    m_probes->headerItem()->setToolTip(LostColumn, lostExplanation());
    m_probes->headerItem()->setToolTip(UnseenColumn, unseenExplanation());
    m_probes->headerItem()->setToolTip(UnfinishedColumn, unfinishedExplanation());
    m_probes->setRootIsDecorated(false);
    m_probes->setIconSize(QSize(10, 10)); // a swatch no taller than the text
    m_probes->setAlternatingRowColors(true);
    m_probes->setAccessibleName(tr("Probes"));
    m_probes->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_facts, 1);
    layout->addWidget(m_probes, 1);
    connect(m_session, &SessionModel::reset, this, &SummaryPanel::refresh);
    connect(m_session, &SessionModel::appended, this, &SummaryPanel::refresh);
    refresh();
}

void SummaryPanel::setRecording(bool recording)
{
    if (recording == m_recording)
        return;
    m_recording = recording;
    refresh();
}

void SummaryPanel::refresh()
{
    m_facts->clear();
    m_probes->clear();
    const SessionInfo &info = m_session->info();
    const EventStore &store = m_session->events();
    auto fact = [this](const QString &name, const QString &value) {
        new QTreeWidgetItem(m_facts, {name, value});
    };
    fact(tr("File"), m_session->path().isEmpty() ? tr("(none)") : m_session->path());
    // Nothing recorded or opened: no facts about a session that does not exist.
    if (m_session->path().isEmpty() && info.startMonotonicNs == 0 && m_session->isEmpty()) {
        fact(tr("Session"), tr("none yet: record one, or open a .bpflens file"));
        return;
    }
    fact(tr("Host"),
         info.sshTarget.isEmpty() ? info.host : tr("%1 via %2").arg(info.host, info.sshTarget));
    fact(tr("Kernel"), info.kernelRelease);
    // A live recording has no file yet, so no schema.
    fact(tr("Recorded by"),
         info.schemaVersion > 0
             ? tr("BPF Lens %1 (schema %2)").arg(info.appVersion).arg(info.schemaVersion)
             : tr("BPF Lens %1").arg(info.appVersion));
    fact(tr("Started (UTC)"),
         info.startWall.isValid() ? info.startWall.toString(Qt::ISODateWithMs) : tr("unknown"));
    // A recording still running, or one that was killed, has no end yet: it lasts at least
    // until its newest data (SessionModel's span ends one past it).
    const quint64 lastNs = m_session->endTimeNs() > 0 ? m_session->endTimeNs() - 1 : 0;
    if (info.endMonotonicNs > info.startMonotonicNs)
        fact(tr("Duration"),
             EventTableModel::formatDuration(info.endMonotonicNs - info.startMonotonicNs));
    else if (m_recording && info.startMonotonicNs > 0 && lastNs > info.startMonotonicNs)
        fact(tr("Duration"),
             tr("%1 so far (recording)")
                 .arg(EventTableModel::formatDuration(lastNs - info.startMonotonicNs)));
    else if (info.startMonotonicNs > 0 && lastNs > info.startMonotonicNs)
        fact(tr("Duration"),
             tr("%1 up to the newest data (the recording was not stopped cleanly)")
                 .arg(EventTableModel::formatDuration(lastNs - info.startMonotonicNs)));
    else
        fact(tr("Duration"), tr("no data yet"));
    for (EventType t : SessionModel::eventTypes()) {
        if (!m_session->showsType(t))
            continue;
        fact(tr("%1 events").arg(SessionModel::typeName(t)), QLocale().toString(store.count(t)));
    }
    fact(tr("Histogram snapshots"), QLocale().toString(m_session->data().histograms.size()));
    fact(tr("Memory for events"), QLocale().formattedDataSize(store.memoryBytes()));

    // Stats are cumulative: the latest sample of each probe is its total.
    QHash<QString, ProbeStats> last;
    for (const ProbeStats &s : m_session->data().stats) {
        auto it = last.find(s.probeId);
        if (it == last.end() || s.timeNs >= it->timeNs)
            last.insert(s.probeId, s);
    }
    QStringList ids;
    for (const ProbeConfig &p : info.probes)
        ids << p.id;
    for (auto it = last.cbegin(); it != last.cend(); ++it) {
        if (!ids.contains(it.key()))
            ids << it.key();
    }
    for (const QString &id : std::as_const(ids)) {
        ProbeConfig config;
        for (const ProbeConfig &p : info.probes) {
            if (p.id == id)
                config = p;
        }
        const bool hasStats = last.contains(id);
        const ProbeStats s = last.value(id);
        auto *item = new QTreeWidgetItem(m_probes);
        item->setText(0, id);
        // The lane's colour; probes without events keep the names aligned with an empty one.
        const QColor color = colors::probe(id, palette());
        item->setIcon(0, colors::swatch(color.isValid() ? color : QColor(Qt::transparent)));
        // The kernel's count comes with each stats sample (once a second), the events with
        // every frame: while recording, the session already holds events the last sample has
        // not counted yet. Everything the session holds was seen, so the column never says less
        // than the facts above (35,075 there and 33,399 here read as a contradiction).
        qsizetype held = 0;
        for (EventType t : SessionModel::eventTypes()) {
            if (id == QLatin1String(probeIdOf(t)))
                held += store.count(t);
        }
        const quint64 seen = std::max(s.eventsSeen, quint64(held));
        item->setText(SeenColumn, hasStats || held > 0 ? QLocale().toString(seen) : tr("n/a"));
        if (hasStats && seen > s.eventsSeen)
            item->setToolTip(SeenColumn,
                             tr("The events this session holds. The kernel's own count, %1 at its "
                                "last sample, is taken once a second and catches up.")
                                 .arg(QLocale().toString(s.eventsSeen)));
        auto count = [&](int column, quint64 n, const QString &why) {
            item->setText(column, hasStats ? QLocale().toString(n) : tr("n/a"));
            item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
            if (hasStats && n > 0) {
                QFont bold = item->font(column);
                bold.setBold(true);
                item->setFont(column, bold);
                item->setToolTip(column, why);
            }
        };
        count(LostColumn, s.eventsLost, lostExplanation());
        count(UnseenColumn, s.eventsUnseen, unseenExplanation());
        count(UnfinishedColumn, s.unfinished, unfinishedExplanation());
        item->setText(AttachColumn, config.attachPath);
        // As the command line's --probe spec writes them: what differs from the defaults.
        const QString options = ProbeCatalog::spec(id, config.options);
        item->setText(OptionsColumn, options.isEmpty() ? tr("defaults") : options);
        item->setToolTip(OptionsColumn, ProbeCatalog::spec(id, config.options, true)
                                            .replace(QLatin1Char(','), QLatin1Char('\n')));
        item->setTextAlignment(SeenColumn, Qt::AlignRight | Qt::AlignVCenter);
    }
}

QString SummaryPanel::lostExplanation()
{
    return tr("Events the kernel had no room for: the ring buffer (or a map that follows a "
              "request) was full. The tables and the timeline miss them; histograms are counted "
              "in the kernel and are complete.");
}

QString SummaryPanel::unseenExplanation()
{
    return tr("Events that could not be made because the kernel did not run the probe's program "
              "for one of their stages (a block request whose completion was never seen). No "
              "buffer was full.");
}

QString SummaryPanel::unfinishedExplanation()
{
    return tr("Requests seen starting and still open when the probe stopped: in flight at the "
              "stop, or ended without the kernel running the completion program. They have no "
              "event.");
}

} // namespace bpflens
